#!/usr/bin/env bash
# t0414: one cell, one set of numbers. Three instances a rung of ours and upstream
# (the sweep fixture, tag r): compare's row of the n_max=1 decode cell, the sweep's
# rungs and gap at n_max=1, the gate (ours as the candidate against upstream's
# frozen runs) and the report's speculative cell all print the same centres, delta
# and interval, because they all come from analyze/estimate.c.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"

imp_sweep rounds
tps compare --ours ours --vs upstream --metric tg --json
expect_rc 0 "compare"
jq -c '.rows[] | select(.n_max == 1)' "$TMP/out" >"$TMP/cmp.json"
[ -s "$TMP/cmp.json" ] || fail "no n_max=1 row"
tps sweep --json
expect_rc 1 "sweep (ours' fall at n_max=3 fails it)"
cp "$TMP/out" "$TMP/sweep.json"
tps baseline set up --engine upstream --tag r
tps gate --baseline up --engine ours --tag r --metric tg --json
cp "$TMP/out" "$TMP/gate.json"
tps report --no-plots --format json
expect_rc 0 "report"
cp "$TMP/out" "$TMP/report.json"

python3 - "$TMP" <<'PY' || fail "the commands disagree"
import json, sys
d = sys.argv[1]
c = json.load(open(f"{d}/cmp.json"))
s = json.load(open(f"{d}/sweep.json"))
g = json.load(open(f"{d}/gate.json"))
near = lambda a, b, what: abs(a - b) <= 1e-6 * max(1, abs(b)) or sys.exit(f"{what}: {a} vs {b}")
# The centres' ratio is the delta (compare).
near((c["ours_median"] / c["vs_median"] - 1) * 100, c["delta_pct"], "compare's centres and delta")
# The sweep: each side's rung, and the gap with its interval.
pt = {se["engine"]: {p["n_max"]: p for p in se["points"]} for se in s["series"]}
near(pt["ours"][1]["tg"], c["ours_median"], "sweep ours n_max=1")
near(pt["upstream"][1]["tg"], c["vs_median"], "sweep upstream n_max=1")
(gap,) = [x for x in s["gaps"] if x["n_max"] == 1 and x["ours"] == "ours"]
near(gap["tg_pct"], c["delta_pct"], "sweep gap")
near(gap["ci_lo_pct"], c["ci_lo_pct"], "sweep gap interval lo")
near(gap["ci_hi_pct"], c["ci_hi_pct"], "sweep gap interval hi")
# The gate, the candidate as ours.
(gc,) = [x for x in g["cells"] if x["n_max"] == 1 and x["metric"] == "tg"]
near(gc["candidate"], c["ours_median"], "gate candidate")
near(gc["baseline"], c["vs_median"], "gate baseline")
near(gc["delta_pct"], c["delta_pct"], "gate delta")
near(gc["ci_lo_pct"], c["ci_lo_pct"], "gate interval lo")
near(gc["ci_hi_pct"], c["ci_hi_pct"], "gate interval hi")
assert gc["rounds"] == c["rounds"] == 3, (gc, c)
# The answer agrees at the same band (the gate's threshold is 3%, compare's 2%:
# both read "no regression" for this +2.7%).
assert c["regression"] == "no" and gc["regression"] == "no" and gc["status"] == "pass", (c, gc)
PY
# The report's speculative cell shows the same decode speed, to one decimal.
want=$(jq -r '(.ours_median * 100 | round) / 100' "$TMP/cmp.json")
jq -e --argjson w "$want" '[.speculative.rows[].cells[] | select(.engine == "ours" and .n_max == 1) | .tg] == [$w]' \
	"$TMP/report.json" >/dev/null || fail "the report's n_max=1 cell of ours is not $want"
exit 0
