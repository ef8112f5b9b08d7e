#!/usr/bin/env bash
# t0950-rate-versions.sh: real answers of llama.cpp v0.4.0 and b8390 to one request
# (tests/data/versions/README.md) say their decode rates in two definitions, (n - 1)
# / ms and n / ms; imported, each one's rate is its predicted_n over its
# predicted_ms, in the store, `runs` and the CSV export, while the engine's own
# rate is kept as it came. An export carries no computed rate and its import
# computes the same again.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3
tmp_store versions

"$TPSDB_BIN" import --engine v0.4.0 --prompt summary "$D/v0.4.0-completion.json" >/dev/null
"$TPSDB_BIN" import --engine b8390 --prompt summary "$D/b8390-completion.json" >/dev/null
"$TPSDB_BIN" export --format csv >"$tmp/out.csv"
"$TPSDB_BIN" export >"$tmp/out.jsonl"
"$TPSDB_BIN" runs --json >"$tmp/runs.json"
python3 - "$tmp/out.csv" "$tmp/runs.json" "$D" <<'PY'
import csv, json, sys
rows = {r["engine"]: r for r in csv.DictReader(open(sys.argv[1], newline=""))}
runs = {r["engine"]: r for r in json.load(open(sys.argv[2]))}
said = {"v0.4.0": 127 / 128, "b8390": 1.0}
for eng, ratio in said.items():
    t = json.load(open("%s/%s-completion.json" % (sys.argv[3], eng)))["timings"]
    r = rows[eng]
    tg = t["predicted_n"] / t["predicted_ms"] * 1000
    pp = t["prompt_n"] / t["prompt_ms"] * 1000
    # The shortest text that reads back as the same double: exact.
    assert float(r["tg_rate"]) == tg, (eng, r["tg_rate"], tg)
    assert float(r["pp_rate"]) == pp, (eng, r["pp_rate"], pp)
    assert float(r["predicted_per_second"]) == t["predicted_per_second"]
    assert float(r["prompt_per_second"]) == t["prompt_per_second"]
    assert abs(t["predicted_per_second"] / tg - ratio) < 1e-12, (eng, t["predicted_per_second"] / tg)
    # runs shows the median of the one definition (one sample: itself; its prefill
    # is the first request of an unknown server, cold-start, so pp has none).
    assert abs(runs[eng]["tg_median"] / tg - 1) < 1e-12, (eng, runs[eng]["tg_median"], tg)
PY
# The JSONL export holds the raw facts only.
if grep -q '"tg_rate"\|"pp_rate"' "$tmp/out.jsonl"; then
	echo "FAIL: the export carries a computed rate" >&2
	exit 1
fi
# Elsewhere, its import computes the same rates again, even from lines that claim
# other rates: import never reads one.
sed 's/"samples":\[{/"samples":[{"tg_rate":1,"pp_rate":2,/' "$tmp/out.jsonl" >"$tmp/claims.jsonl"
[ "$(grep -c '"samples":\[{"tg_rate":1,' "$tmp/claims.jsonl")" = 2 ]
TPSDB_DB=$tmp/plain.db "$TPSDB_BIN" import "$tmp/out.jsonl" >/dev/null
TPSDB_DB=$tmp/plain.db "$TPSDB_BIN" export --format csv >"$tmp/plain.csv"
TPSDB_DB=$tmp/claims.db "$TPSDB_BIN" import "$tmp/claims.jsonl" >/dev/null
TPSDB_DB=$tmp/claims.db "$TPSDB_BIN" export --format csv >"$tmp/claims.csv"
cmp "$tmp/plain.csv" "$tmp/claims.csv"
python3 - "$tmp/out.csv" "$tmp/claims.csv" <<'PY'
import csv, sys
a, b = ({r["run_uuid"]: r for r in csv.DictReader(open(f, newline=""))} for f in sys.argv[1:])
assert a.keys() == b.keys()
for k in a:
    # The same to the last bit or so: a number read back from the export may
    # differ from the response's reading of it in its last bit.
    for c in ("pp_rate", "tg_rate", "prompt_per_second", "predicted_per_second"):
        assert abs(float(a[k][c]) / float(b[k][c]) - 1) < 1e-15, (c, a[k][c], b[k][c])
PY
echo ok
