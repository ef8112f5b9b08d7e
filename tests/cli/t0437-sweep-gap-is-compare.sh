#!/usr/bin/env bash
# t0437: a sweep gap is compare's estimate of the same cell, to the last digit.
# tests/data/sweep-real/main-job.jsonl is the store scripts/main-job.sh collected
# from a real llama-server (exported with 'tpsdb export'): a base run and an
# n_max 1,2,3 sweep in three rounds of alternating engine order (tag demo), and
# the base cell again in an --until-decided batch of six rounds (tag decide). Its
# base gap pays for the batch's looks as compare does, its n_max gaps balance the
# order of the rounds as compare does, and its n_max=3 gap, where one of ours'
# three instances lies far from the other two (no clear majority: nothing is
# left out, instances-disagree), decides nothing and says why. The rungs'
# instances are compare's too.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"

"$TPSDB_BIN" import "$TPSDB_TEST_DATA/sweep-real/main-job.jsonl" >/dev/null ||
	fail "import of the main job's store"
tps sweep --json
expect_rc 1 "sweep (ours falls from the base to n_max=1 on this CPU)"
cp "$TMP/out" "$TMP/sweep.json"
tps compare --ours ours --vs llama.cpp --tag demo --json
expect_rc 0 "compare, tag demo"
cp "$TMP/out" "$TMP/demo.json"
tps compare --ours ours --vs llama.cpp --tag decide --json
expect_rc 0 "compare, tag decide"
cp "$TMP/out" "$TMP/decide.json"
# Without a selector, compare (and the sweep) pool the base cell's newest batch
# (decide) with the demo batch's base rounds as history, pooled here; the
# instances' own spread (22% on this CPU) sets the interval either way (issue 41).
tps compare --ours ours --vs llama.cpp --json
expect_rc 0 "compare, no selector"
cp "$TMP/out" "$TMP/newest.json"

# same <compare json> <n_max jq value>: the sweep's gap at that rung against
# compare's tg row of the cell: figure, interval, mde, answers, reason.
same() {
	jq -e -n --slurpfile s "$TMP/sweep.json" --slurpfile c "$1" --argjson n "$2" '
		($s[0].gaps[] | select(.n_max == $n)) as $g |
		($c[0].rows[] | select(.metric == "tg" and .n_max == $n)) as $r |
		$g.tg_pct == $r.delta_pct and $g.ci_lo_pct == $r.ci_lo_pct and
		$g.ci_hi_pct == $r.ci_hi_pct and $g.mde_pct == $r.mde_pct and
		$g.instances_ours == $r.instances_ours and $g.instances_ref == $r.instances_vs and
		$g.reason == ($r.reason // "")' >/dev/null ||
		{ jq -c --argjson n "$2" '.gaps[] | select(.n_max == $n)' "$TMP/sweep.json" >&2
		  jq -c --argjson n "$2" '.rows[] | select(.metric == "tg" and .n_max == $n)' "$1" >&2
		  fail "the gap at n_max=$2 is not compare's ($(basename "$1"))"; }
}
same "$TMP/newest.json" null
jq -e -n --slurpfile n "$TMP/newest.json" --slurpfile d "$TMP/decide.json" '
	($n[0].rows[] | select(.metric == "tg" and .n_max == null)) as $a |
	($d[0].rows[] | select(.metric == "tg" and .n_max == null)) as $b |
	$a.history == "pooled" and $a.hist_batches == 1 and $b.history == "none" and
	$a.delta_pct == $b.delta_pct and $a.instances_ours == 6 and $b.instances_ours == 6 and
	$a.mde_pct >= $b.mde_pct and $a.scatter_source == "instances" and
	$b.scatter_source == "instances" and $a.round_scatter_pct > 20' >/dev/null ||
	fail "the base cell: the decide batch with the demo batch as history, no narrower than --tag decide alone (both held at the instances' spread, 22%)"
same "$TMP/demo.json" 1
same "$TMP/demo.json" 2
same "$TMP/demo.json" 3

cp "$TMP/sweep.json" "$TMP/out"
check '.gaps[] | select(.n_max == 3) | .reason == "instances-disagree" and .decided == false and .outliers == 0' "n_max=3: the instances disagree, nothing decided"
check '.gaps[] | select(.n_max == 3) | .explain | test("one run a side") | not' "the sentence does not call three runs a side one"
check '[.gaps[] | select(.decided == false) | .explain | test("faster|slower|drafter|cost")] | all(. == false)' "no side named undecided"
# Three instances with one far off: compare leaves none out, nor does the rung.
jq -e '.rows[] | select(.metric == "tg" and .n_max == 3) | .outlier_instances == [] and .reason == "instances-disagree"' \
	"$TMP/demo.json" >/dev/null || fail "compare: n_max=3 instances-disagree, nothing left out"
check '.series[] | select(.engine == "ours") | .points[] | select(.n_max == 3) | .outliers == [] and .instances == 3' "the rung leaves nothing out"
echo "ok"
