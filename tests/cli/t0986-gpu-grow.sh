#!/usr/bin/env bash
# t0986-gpu-grow.sh: issue 36's store that grows, on a real H100 (tests/data/gpu/
# gpu-grow.jsonl and what collect printed, gpu-grow.collect.txt; made by
# scripts/gpu-versions.sh grow: new = v0.4.0, old = b8390, aa = v0.4.0 again, the
# Llama-2-7B-shaped model). Three batches: 'hist', 3 fixed rounds at 2 reps; then
# 'contended', --until-decided while a second compute process held the GPU (collect
# waited --wait-quiet 15 s, measured again, and stopped the model after --max-spoiled
# 3 tries of its first run); then 'clean1', --until-decided --reps 1. The store as it
# stood after each batch answers as the issue asks:
# - after 'contended': trend finds no change point (the issue's "-54.9%" was the
#   contended runs), gate --trend is not a FAIL but spoiled, with no newest clean
#   answer made of the baseline's own runs, compare still answers from 'hist' (the
#   newest batch that measured both sides), and plan reads no contended instance;
# - after 'clean1': compare prints collect's decided lines (pp -5.1% "yes", tg "no"
#   against b8390; "no" both against the A/A label), and plan still reads only clean
#   instances.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3
need jq
G=$TPSDB_TEST_DATA/gpu
T=$(mktemp -d "${TMPDIR:-/tmp}/tpsdb-t0986.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_eq() { [ "$1" = "$2" ] || fail "$3: got '$1', want '$2'"; }

# upto <tags...>: the fixture's runs of those batches.
upto() {
	python3 - "$G/gpu-grow.jsonl" "$@" <<'PY'
import json, sys
keep = set(sys.argv[2:])
for line in open(sys.argv[1], encoding="utf-8"):
    if json.loads(line)["run"]["tag"] in keep:
        sys.stdout.write(line)
PY
}

# What the fixture holds: the contended batch is three tries of new's first run,
# each flagged gpu-contended (env_flags bit 2), its collect told so and stopped.
upto hist contended >"$T/pre.jsonl"
DB=$T/pre.sqlite
"$TPSDB_BIN" --db "$DB" import "$T/pre.jsonl" >/dev/null 2>"$T/err" || fail "import: $(cat "$T/err")"
q() { sqlite3 "$DB" "$1"; }
expect_eq "$(q "SELECT count(*) FROM run WHERE tag='contended' AND env_flags & 2")" 3 \
	"three contended tries stored, each flagged"
expect_eq "$(q "SELECT count(*) FROM run WHERE tag='contended' AND env_flags = 0")" 0 \
	"no contended try stored clean"
grep -q "^tpsdb: warning: model m7b stopped: gpu-contended on 3 tries in a row" \
	"$G/gpu-grow.collect.txt" || fail "collect did not stop the model"
grep -qx "spoiled: 3 instances, 217.4 s of server time (2 measured again)" \
	"$G/gpu-grow.collect.txt" || fail "collect's spoiled line"

# trend: the contended runs are drawn (a series of 4: hist and the last try) but
# start no segment.
"$TPSDB_BIN" --db "$DB" trend --engine new --json >"$T/trend.json" || fail "trend: $?"
jq -e '.series | length == 2 and all(.[]; (.change_points | length) == 0 and
	.latest_regression == false)' "$T/trend.json" >/dev/null ||
	fail "trend after the contended batch: $(jq -c . "$T/trend.json")"

# gate --trend against a baseline frozen from 'hist': spoiled (exit 0, not 1), and
# the newest clean answer is not the baseline against itself.
"$TPSDB_BIN" --db "$DB" baseline set base --engine new --tag hist >/dev/null || fail "baseline"
rc=0
"$TPSDB_BIN" --db "$DB" gate --baseline base --engine new --trend >"$T/gate.txt" 2>/dev/null || rc=$?
expect_eq "$rc" 0 "gate --trend on the contended candidate: $(cat "$T/gate.txt")"
grep -q "INCONCLUSIVE" "$T/gate.txt" || fail "gate: $(cat "$T/gate.txt")"
grep -q "trend FAIL" "$T/gate.txt" && fail "trend FAIL on contended runs: $(cat "$T/gate.txt")"
expect_eq "$(grep -c 'regression spoiled: gpu-contended' "$T/gate.txt")" 2 "gate's spoiled lines"
grep -q "+0.00% \[+0.00%, +0.00%\]" "$T/gate.txt" &&
	fail "the baseline answered as its own newest clean batch: $(cat "$T/gate.txt")"
grep -q "newest clean answer: none" "$T/gate.txt" || fail "gate: $(cat "$T/gate.txt")"

# compare pools 'hist', the newest batch with both sides: what it printed as 'hist'
# ended (3 rounds, not spoiled).
"$TPSDB_BIN" --db "$DB" compare --ours new --vs old --json >"$T/c.json" 2>/dev/null || fail "compare"
jq -e '.rows | length == 2 and all(.[]; .rounds == 3 and .regression != "spoiled")' \
	"$T/c.json" >/dev/null || fail "compare after the contended batch: $(jq -c . "$T/c.json")"

# plan reads the clean instances only: 'hist', 3 a side.
"$TPSDB_BIN" --db "$DB" plan --ours new --vs old --json >"$T/plan.json" 2>/dev/null || fail "plan"
jq -e '.rows | length == 2 and all(.[]; .instances == 6 and .rounds_matched == 3)' \
	"$T/plan.json" >/dev/null || fail "plan after the contended batch: $(jq -c '.rows' "$T/plan.json")"

# --- after 'clean1' ---------------------------------------------------------------
DB=$T/all.sqlite
"$TPSDB_BIN" --db "$DB" import "$G/gpu-grow.jsonl" >/dev/null 2>"$T/err" || fail "import: $(cat "$T/err")"
python3 - "$G/gpu-grow.collect.txt" >"$T/clean1.lines" <<'PY'
import sys
batch = None
for line in open(sys.argv[1], encoding="utf-8"):
    if line.startswith("# "):
        batch = line[2:].strip()
    elif batch == "clean1" and line.startswith("decided: "):
        sys.stdout.write(line)
PY
expect_eq "$(wc -l <"$T/clean1.lines" | tr -d ' ')" 4 "clean1's decided lines"
grep -q "^decided: m7b pp new vs old: regression yes, slower" "$T/clean1.lines" ||
	fail "prefill against b8390: $(cat "$T/clean1.lines")"
for vs in old aa; do
	"$TPSDB_BIN" --db "$DB" compare --ours new --vs "$vs" --json >"$T/c-$vs.json" 2>/dev/null ||
		fail "compare new vs $vs"
done
python3 - "$T/c-old.json" "$T/c-aa.json" "$T/clean1.lines" <<'PY' || fail "compare against collect's lines"
import json, re, sys
want = {}
for line in open(sys.argv[3]):
    m = re.match(r"decided: m7b (pp|tg) new vs (old|aa): regression (yes|no), (\w+) "
                 r"\(([+-][0-9.]+)% \[([+-][0-9.]+)%, ([+-][0-9.]+)%\]\) after (\d+) rounds", line)
    assert m, line
    want[(m[2], m[1])] = (m[3], m[4], m[5], m[6], m[7], int(m[8]))
for path, vs in ((sys.argv[1], "old"), (sys.argv[2], "aa")):
    for r in json.load(open(path))["rows"]:
        got = (r["regression"], r["verdict"], "%+.2f" % r["delta_pct"],
               "%+.2f" % r["ci_lo_pct"], "%+.2f" % r["ci_hi_pct"], r["rounds"])
        assert got == want[(vs, r["metric"])], (vs, r["metric"], got, want[(vs, r["metric"])])
PY
"$TPSDB_BIN" --db "$DB" plan --ours new --vs old --json >"$T/plan2.json" 2>/dev/null || fail "plan"
# hist 3 + clean1 10 of new, hist 3 + clean1 5 of old: 21, none of the 3 contended.
jq -e '.rows | all(.[]; .instances == 21)' "$T/plan2.json" >/dev/null ||
	fail "plan after clean1: $(jq -c '[.rows[] | .instances]' "$T/plan2.json")"
"$TPSDB_BIN" --db "$DB" trend --engine new --json >"$T/trend2.json" || fail "trend"
jq -e 'all(.series[]; (.change_points | length) == 0)' "$T/trend2.json" >/dev/null ||
	fail "trend after clean1: $(jq -c . "$T/trend2.json")"
echo ok
