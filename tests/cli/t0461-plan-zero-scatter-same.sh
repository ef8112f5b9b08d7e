#!/usr/bin/env bash
# t0461-plan-zero-scatter-same.sh (issue 29, item 4): with no scatter between
# instances (SD_B and SD_BD 0, SD_W not) M* is unbounded, and plan prints it as
# absent ("-" in text and markdown, empty in CSV, null in JSON), never "inf"; and
# plan refuses '--ours X --vs X' as compare does (the same check,
# filter_pair_check()): exit 2, the same error line; --engine X still plans.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3
tmp_dir
fail() { echo "FAIL: $*" >&2; exit 1; }

# The H100 versions fixture with every instance of an engine the same but for its
# first two requests, one 5% up and one 5% down, turn about: the instances' means
# agree exactly (SD_B, SD_BD 0) while the requests scatter (SD_W > 0).
python3 - "$TPSDB_TEST_DATA/gpu/gpu-versions.jsonl" "$tmp/zero.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
first, seen = {}, {}
keys = ("prompt_n", "prompt_ms", "prompt_per_second", "predicted_n", "predicted_ms",
        "predicted_per_second", "timings")
for line in lines:
    side = line["run"]["engine"]["label"]
    i = seen.get(side, 0)
    seen[side] = i + 1
    if side not in first:
        first[side] = {(s["prompt_hash"], s["rep"]): dict(s) for s in line["samples"]}
    for j, s in enumerate(line["samples"]):
        t = first[side][(s["prompt_hash"], s["rep"])]
        for k in keys:
            s[k] = t[k]
        if j < 2:
            f = 1.05 if (i + j) % 2 == 0 else 0.95
            for ms, ps in (("prompt_ms", "prompt_per_second"),
                           ("predicted_ms", "predicted_per_second")):
                s[ms] /= f
                s[ps] *= f
with open(sys.argv[2], "w") as out:
    for line in lines:
        out.write(json.dumps(line) + "\n")
PY
db=$tmp/z.db
"$TPSDB_BIN" --db "$db" import "$tmp/zero.jsonl" >/dev/null
p() { "$TPSDB_BIN" --db "$db" plan --ours new --vs old --tag versions "$@"; }
p >"$tmp/t.txt" && p --format md >"$tmp/t.md" && p --format csv >"$tmp/t.csv" &&
	p --json >"$tmp/t.json" || fail "plan"
! grep -qi 'inf\b\|nan' "$tmp/t.txt" "$tmp/t.md" "$tmp/t.csv" "$tmp/t.json" || fail "inf or nan printed"
python3 - "$tmp" <<'PY' || fail "M* is not absent where SD_B is 0"
import csv, json, re, sys
d = sys.argv[1]
rows = json.load(open(f"{d}/t.json"))["rows"]
assert len(rows) == 2, rows
for r in rows:
    assert r["sd_round_diff_pct"] == 0 and r["sd_within_pct"] > 1, r
    assert r["m_star"] is None, r
c = list(csv.DictReader(open(f"{d}/t.csv", newline="")))
assert [r["M*"] for r in c[:2]] == ["", ""], c
lines = open(f"{d}/t.txt").read().splitlines()
head = next(i for i, l in enumerate(lines) if l.startswith("CELL "))
cols = re.split(r"\s{2,}", lines[head].strip())
for l in lines[head + 2:head + 4]:
    assert re.split(r"\s+", l.strip())[cols.index("M*")] == "-", l
md = [l for l in open(f"{d}/t.md") if l.startswith("| m7b")]
assert len(md) >= 2 and all(re.split(r"\s*\|\s*", l)[11] == "-" for l in md[:2]), md
PY

# One engine on both sides: refused by plan as by compare, with the same words.
for cmd in plan compare; do
	rc=0; "$TPSDB_BIN" --db "$db" $cmd --ours new --vs new --tag versions >"$tmp/out" 2>"$tmp/err" || rc=$?
	test $rc = 2 || fail "$cmd --ours new --vs new: exit $rc, want 2"
	test ! -s "$tmp/out" || fail "$cmd printed a plan"
	test "$(grep -c '^tpsdb: error: ' "$tmp/err")" = 1 || fail "$cmd: not one error line"
	grep -q "^tpsdb: error: --ours and --vs are both 'new': the same runs compared with themselves" "$tmp/err" ||
		fail "$cmd says: $(cat "$tmp/err")"
done
"$TPSDB_BIN" --db "$db" plan --engine new --tag versions >/dev/null || fail "plan --engine"
