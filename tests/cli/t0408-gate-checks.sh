#!/usr/bin/env bash
# t0408: the gate's optional checks. --trend fails when the newest segment of the
# candidate's history is a regression (a 7% decode drop from the fifth of eight runs,
# even though the candidate matches its baseline); --strict fails on flagged samples;
# --sweep fails on the candidate's decided non-monotone series, pooled as 'tpsdb
# sweep' pools it (one run a rung is judged against the default decode scatter:
# only a large fall decides); spec cells gate acceptance.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"

for i in 1 2 3 4 5 6 7 8; do
	imp ours ours dense-8b "trend-$i.jsonl" --tag "h$i"
done
tps baseline set prev --engine ours --tag h7
tps gate --baseline prev --engine ours --json
expect_rc 0 "h8 against h7 passes without --trend"
check '.pass and .trend == []' "no trend without --trend"
tps gate --baseline prev --engine ours --trend --json --junit "$TMP/j.xml"
expect_rc 1 "--trend"
# One run a side and no floor: the cells are inconclusive, never failing.
check '.pass == false and (.cells | length) > 0 and all(.cells[]; .status != "fail")' "only the trend fails"
check '[.trend[] | select(.status == "fail")] | length == 1' "one trend failure"
check '.trend[] | select(.status == "fail") | .metric == "tg" and .tag == "h5" and .before > 142 and .after < 133 and .change_pct < -6.5 and .change_pct > -7.5' "change point at h5"
# Prefill is gated, and steady: only cells with a change point get a trend entry.
check '[.trend[].metric] == ["tg"] and ([.cells[] | select(.metric == "pp")] | length) > 0' "prefill steady"
grep -q 'failure message="dense-8b tg: change point at run .* (tag &apos;h5&apos;)' "$TMP/j.xml" || fail "JUnit trend case"
tps gate --baseline prev --engine ours --trend
grep -q 'trend FAIL: dense-8b tg: change point at run .* (tag .h5.): 142\.[0-9]* -> 132\.[0-9]* (-[67]\.' "$TMP/out" ||
	{ cat "$TMP/out"; fail "trend line"; }

# --strict: two cache-inflated and one truncated sample in the candidate.
rm -f "$TPSDB_DB"*
imp ours ours dense-8b dense-ours.jsonl --tag v1
imp ours ours dense-8b dense-ours-flagged.jsonl --tag v2
tps baseline set v1 --tag v1
tps gate --baseline v1 --engine ours --json
expect_rc 0 "findings alone do not fail"
check '.pass and (.findings | length) == 2' "two findings listed"
tps gate --baseline v1 --engine ours --strict --json
expect_rc 1 "--strict"
check '.pass == false and (.cells | length) > 0 and all(.cells[]; .status != "fail")' "no cell fails on its numbers"
check '[.findings[] | {flag, count}] == [{"flag":"truncated","count":1},{"flag":"cache-inflated","count":2}]' "flags counted"

# --sweep, and acceptance on spec cells, over three instances of every rung.
rm -f "$TPSDB_DB"*
imp_sweep rounds
tps baseline set s --engine ours
tps gate --baseline s --engine ours --json
expect_rc 0 "the same runs pass"
check '[.cells[] | select(.metric == "accept")] | length == 3' "accept gated on the 3 spec cells"
check '[.cells[] | select(.metric == "accept") | .n_max] == [1,2,3]' "not on the base"
tps gate --baseline s --engine ours --sweep --json
expect_rc 1 "--sweep"
check '[.sweep_violations[] | del(.drop_pct, .ci_lo_pct, .ci_hi_pct)] == [{"engine":"ours","model":"qwen3-8b","spec_type":"draft-simple","from":2,"to":3,"decided":true}] and .sweep_violations[0].drop_pct > 32 and .sweep_violations[0].drop_pct < 33' "the violation"
tps gate --baseline s --engine ours --sweep
expect_rc 1 "--sweep, text"
grep -q '^  sweep FAIL: ours qwen3-8b draft-simple: decode falls 32\.[0-9]% from n_max=2 to n_max=3, interval \[' "$TMP/out" ||
	{ cat "$TMP/out"; fail "sweep line"; }
# One run a rung: the step is judged against the default decode scatter
# (ESTIMATE_SCATTER_TG_PCT 8%), and a 32% fall is far beyond it: decided, and
# the gate fails on it as it does on three instances a rung.
rm -f "$TPSDB_DB"*
imp_sweep
tps baseline set s1 --engine ours
tps gate --baseline s1 --engine ours --sweep --json
expect_rc 1 "--sweep over one run a rung"
check '.sweep_violations | length == 1' "one violation"
check '.sweep_violations[0] | .decided == true and .from == 2 and .to == 3 and .ci_hi_pct < -5' "decided against the default scatter"
check '.pass == false' "fails"
exit 0
