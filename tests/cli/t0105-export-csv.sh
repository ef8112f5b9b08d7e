#!/usr/bin/env bash
# t0105-export-csv.sh: the CSV export is RFC 4180: a header, one row per sample,
# and a tag holding a comma, a quote and a newline quoted with its quotes doubled,
# so a CSV reader gets the tag back exactly.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3
tmp_store import
tag=$'b1, "rc"\nsecond line'

"$TPSDB_BIN" import --engine ours --tag "$tag" "$D/completion.json" "$D/completion-reps.jsonl" >/dev/null
"$TPSDB_BIN" import --engine up --prompt p "$D/chat.json" >/dev/null
"$TPSDB_BIN" export --format csv >"$tmp/out.csv"

# The quoting, literally.
grep -qF '"b1, ""rc""' "$tmp/out.csv"
head -c 9 "$tmp/out.csv" | grep -qx 'run_uuid,'
python3 - "$tmp/out.csv" "$tag" <<'PY'
import csv, sys
raw = open(sys.argv[1], newline="").read()
assert raw.endswith("\r\n")
rows = list(csv.reader(open(sys.argv[1], newline="")))
head, body = rows[0], rows[1:]
assert len(body) == 5, len(body)
assert all(len(r) == len(head) for r in body)
for col in ("run_uuid", "host", "engine", "model", "tag", "spec_type", "n_max", "prompt",
            "rep", "prompt_per_second", "predicted_per_second", "pp_rate", "tg_rate", "flags",
            "flag_names", "timings"):
    assert col in head, col
c = {k: i for i, k in enumerate(head)}
ours = [r for r in body if r[c["engine"]] == "ours"]
assert [r[c["tag"]] for r in ours] == [sys.argv[2]] * 4
assert [r[c["rep"]] for r in ours] == ["1", "2", "3", "4"]
assert ours[0][c["flag_names"]] == "cold-start" and ours[1][c["flag_names"]] == ""
assert ours[0][c["n_max"]] == ""                        # absent is empty
assert float(ours[0][c["prompt_per_second"]]) > 0
# The rates tpsdb compares are the counts over the times (schema/record.h), the
# engine's own rates beside them.
for r in body:
    for n, ms, rate in (("prompt_n", "prompt_ms", "pp_rate"), ("predicted_n", "predicted_ms", "tg_rate")):
        want = int(r[c[n]]) / float(r[c[ms]]) * 1000
        assert abs(float(r[c[rate]]) - want) <= 1e-9 * want, (rate, r[c[rate]], want)
import json
assert json.loads(ours[0][c["timings"]])["prompt_n"] == 1802
(chat,) = [r for r in body if r[c["engine"]] == "up"]
assert chat[c["endpoint"]] == "chat" and chat[c["prompt"]] == "p"
PY
# --format is checked.
rc=0; "$TPSDB_BIN" export --format xml 2>"$tmp/err" || rc=$?
test $rc = 2
grep -q "^tpsdb: error: --format is jsonl or csv, not 'xml'" "$tmp/err"
