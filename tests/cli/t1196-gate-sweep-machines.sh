#!/usr/bin/env bash
# t1196-gate-sweep-machines.sh: 'tpsdb gate --sweep' over a sweep whose step was
# measured on two machines. t0408's sweep (ours collapses -32% from n_max=2 to
# n_max=3, three instances a rung, tagged r) is split as t1191 splits it: every
# rung on alpha (an "H200") but n_max=3, measured on beta (an "H100"), imported
# into two stores and merged. Each cell is gated against its own frozen runs, on
# its own machine: every cell passes. The 2 -> 3 step pairs two machines, which
# the sweep never checks (t1191): the gate used to pass it silently, the fall
# being no violation any more. It is now open, as an inconclusive cell is: status
# INCONCLUSIVE and exit 0, naming the series, both rungs and both machines in the
# text, markdown, JSON (sweep_across_machines), JUnit (a skipped test) and GitHub
# (a ::warning); --fail-on inconclusive (and --strict) fail on it, exit 1;
# --across-machines does not check it either. The same sweep on one machine is
# gated as before: the decided fall fails, nothing is across machines.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"

H200=(--host alpha --gpu "NVIDIA H200" --driver 570.86.15 --cuda 12.8)
H100=(--host beta --gpu "NVIDIA H100 80GB HBM3" --driver 570.86.15 --cuda 12.8)
ALPHA="alpha (NVIDIA H200, driver 570.86.15, CUDA 12.8)"
BETA="beta (NVIDIA H100 80GB HBM3, driver 570.86.15, CUDA 12.8)"
STEP="ACROSS MACHINES: ours qwen3-8b draft-simple: decode from n_max=2 to n_max=3 not checked, measured on different machines: ours on '$ALPHA', ours on '$BETA'"

# store <name> <host of n_max=3: alpha|beta>: ours' sweep, three instances a rung
# round by round, on alpha; n_max=3 on the host named (beta: a second store, merged).
store() {
	local db=$TMP/$1.sqlite at=$2 k sfx n d h
	for k in 1 2 3; do
		sfx=; [ "$k" = 1 ] || sfx=-r$k
		TPSDB_DB=$db imp ours ours qwen3-8b "spec-ours-base$sfx.jsonl" --tag r "${H200[@]}"
		for n in 1 2 3; do
			d=$db h=("${H200[@]}")
			[ "$n" = 3 ] && [ "$at" = beta ] && d=$TMP/$1-beta.sqlite h=("${H100[@]}")
			TPSDB_DB=$d imp ours ours qwen3-8b "spec-ours-n$n$sfx.jsonl" \
				--spec-type draft-simple --n-max "$n" --tag r "${h[@]}"
		done
	done
	export TPSDB_DB=$db
	if [ "$at" = beta ]; then
		tps merge "$TMP/$1-beta.sqlite"
		expect_rc 0 "merge"
	fi
	tps baseline set s --engine ours --tag r
	expect_rc 0 "baseline"
}

# 1. n_max=3 on beta.
store two beta
tps gate --baseline s --engine ours --tag r --json
expect_rc 0 "without --sweep"
check '.status == "pass" and .across_machines == 0 and all(.cells[]; .status == "pass")' \
	"every cell passes, each on its own machine"
tps sweep --across-machines --json
expect_rc 0 "the sweep marks the step"
check '.series[0].across_machines | length == 1' "one step across machines"

tps gate --baseline s --engine ours --tag r --sweep --json
expect_rc 0 "a step across machines fails nothing"
check '.pass == true and .status == "inconclusive" and .failures == 0 and .inconclusive == 0 and .sweep_inconclusive == 1' \
	"open, never a pass"
check '.sweep_violations == []' "no violation across machines"
check ".sweep_across_machines == [{\"engine\": \"ours\", \"model\": \"qwen3-8b\",
	\"spec_type\": \"draft-simple\", \"from\": 2, \"to\": 3, \"machines\": [\"$ALPHA\", \"$BETA\"],
	\"status\": \"inconclusive\", \"fails\": false, \"message\": \"$STEP\"}]" \
	"the series, both rungs and both machines"

GITHUB_ACTIONS=true tps gate --baseline s --engine ours --tag r --sweep --junit "$TMP/j.xml"
expect_rc 0 "text"
grep -q "^gate: 'ours' tag 'r' against baseline 's': INCONCLUSIVE (0 failure(s))$" "$TMP/out" ||
	fail "status line: $(cat "$TMP/out")"
grep -qxF "  sweep inconclusive: $STEP (--fail-on inconclusive fails it)" "$TMP/out" ||
	fail "text line: $(cat "$TMP/out")"
grep -qxF "::warning::$STEP" "$TMP/out" || fail "a GitHub warning: $(cat "$TMP/out")"
grep -q "^::error" "$TMP/out" && fail "no GitHub error: $(cat "$TMP/out")"
grep -q '<testsuite name="tpsdb gate: ours against s" tests="12" failures="0" errors="0" skipped="1">' \
	"$TMP/j.xml" || fail "JUnit counts: $(cat "$TMP/j.xml")"
grep -q '<testcase classname="tpsdb.sweep.qwen3-8b" name="ACROSS MACHINES: ours qwen3-8b draft-simple: decode from n_max=2 to n_max=3 not checked' \
	"$TMP/j.xml" || fail "JUnit case: $(cat "$TMP/j.xml")"
grep -A1 'classname="tpsdb.sweep' "$TMP/j.xml" | grep -q '<skipped message="ACROSS MACHINES' ||
	fail "JUnit skipped: $(cat "$TMP/j.xml")"

tps gate --baseline s --engine ours --tag r --sweep --format md
expect_rc 0 "md"
grep -q "^### tpsdb gate: INCONCLUSIVE: 'ours' tag 'r' against baseline 's' (0 failures)$" "$TMP/out" ||
	fail "md heading: $(cat "$TMP/out")"
grep -q "^Sweep steps not checked (INCONCLUSIVE: neither a fall nor a pass):$" "$TMP/out" ||
	fail "md section: $(cat "$TMP/out")"
grep -q "^- ACROSS MACHINES: ours qwen3-8b draft-simple: decode from n_max=2 to n_max=3 not checked, measured on different machines" \
	"$TMP/out" || fail "md line: $(cat "$TMP/out")"

# The gate's rule for an open check: --fail-on inconclusive (and --strict) fail on it.
tps gate --baseline s --engine ours --tag r --sweep --fail-on inconclusive --json
expect_rc 1 "--fail-on inconclusive"
check '.pass == false and .status == "fail" and .failures == 1 and
	.sweep_across_machines[0].fails == true' "fails"
GITHUB_ACTIONS=true tps gate --baseline s --engine ours --tag r --sweep --strict
expect_rc 1 "--strict"
grep -qxF "  sweep inconclusive FAIL: $STEP" "$TMP/out" || fail "text FAIL: $(cat "$TMP/out")"
grep -qxF "::error title=tpsdb gate::$STEP" "$TMP/out" || fail "a GitHub error: $(cat "$TMP/out")"
# --across-machines gates cells unpaired; it does not check a sweep step.
tps gate --baseline s --engine ours --tag r --sweep --across-machines --json
expect_rc 0 "--across-machines"
check '.status == "inconclusive" and (.sweep_across_machines | length) == 1' "still open"

# 2. One machine: the decided fall fails as before, nothing across machines.
store one alpha
tps gate --baseline s --engine ours --tag r --sweep --json
expect_rc 1 "one machine: the violation fails"
check '.status == "fail" and .failures == 1 and .sweep_across_machines == [] and
	(.sweep_violations | length == 1 and .[0].decided == true and .[0].from == 2 and
	.[0].to == 3)' "the violation"
tps gate --baseline s --engine ours --tag r --sweep --format md
expect_rc 1 "md"
grep -q "Sweep steps not checked" "$TMP/out" && fail "no section: $(cat "$TMP/out")"
tps gate --baseline s --engine ours --tag r --sweep
expect_rc 1 "text"
grep -q "ACROSS MACHINES\|sweep inconclusive" "$TMP/out" && fail "no line: $(cat "$TMP/out")"
exit 0
