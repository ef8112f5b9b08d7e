#!/usr/bin/env bash
# t0412: the gate pools the runs of both sides and decides with an interval. Three
# rounds of a candidate reading -6, -2 and -4% against its baseline are past the
# 3% threshold by the estimate (-4%) but their interval holds -3%: the regression
# question is undecided, so the cell is inconclusive, exit 0, and the text says how
# far each end of the interval is from answering it; --fail-on inconclusive (and
# --strict) fails it (exit 1).
# Three rounds at -5.0, -4.8 and -5.2% are a regression: fail.
. "$TPSDB_TEST_DATA/lib-pooled.sh"

for k in 1 2 3; do
	imp ours ours gate-7b "gate-vs-$k.jsonl" --tag base
	imp ours ours gate-7b "gate-ours-$k.jsonl" --tag cand
	imp ours ours fail-7b "gatefail-vs-$k.jsonl" --tag base
	imp ours ours fail-7b "gatefail-ours-$k.jsonl" --tag cand
done
tps baseline set rel --engine ours --tag base
expect_rc 0 "baseline set"

tps gate --baseline rel --engine ours --tag cand --model gate-7b --metric tg --json
expect_rc 0 "inconclusive passes without --strict"
check '.pass == true and .status == "inconclusive" and .inconclusive == 1 and .failures == 0' "one inconclusive, no failure"
check '.cells | length == 1' "one cell"
check '.cells[0] | .status == "inconclusive" and .decided == false and .rounds == 3 and .instances_ours == 3 and .instances_vs == 3' "inconclusive over 3 rounds"
check '.cells[0] | .delta_pct < -3.5 and .delta_pct > -4.5 and .ci_hi_pct > -3 and .ci_lo_pct < -5' "past -3% by its estimate only"
check '.cells[0] | .mde_pct > 1 and .regression == "undecided" and .method == "rounds" and (has("rounds_more") | not)' "undecided"

tps gate --baseline rel --engine ours --tag cand --model gate-7b --metric tg
expect_rc 0 "text"
grep -q "^gate: 'ours' tag 'cand' against baseline 'rel': INCONCLUSIVE (0 failure(s))$" "$TMP/out" ||
	fail "the status line: $(head -1 "$TMP/out")"
grep -q 'gate-7b .* tg .* INCONCLUSIVE$' "$TMP/out" || fail "the row"
grep -q "^  inconclusive: gate-7b tg: regression undecided: interval \[-[0-9.]*%, -[0-9.]*%\] holds -3.00%; its lower end is [0-9.]* points short of 'no', its upper end [0-9.]* of 'yes'; its round scatter raised to [0-9.]*% by the spread of each side's instances (the round ratios alone scatter less) (--fail-on inconclusive fails it)$" "$TMP/out" || fail "how far from deciding"

# Never silent: under GitHub Actions the open cell is a ::warning, a line of the
# step summary and a skipped JUnit test, while the gate passes.
: >"$TMP/summary.md"
GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY=$TMP/summary.md tps gate --baseline rel --engine ours \
	--tag cand --model gate-7b --metric tg --junit "$TMP/junit.xml"
expect_rc 0 "an open cell passes"
grep -q "^::warning::gate-7b tg: candidate .* regression undecided at -3.00%25 against baseline 'rel'$" \
	"$TMP/out" || fail "no ::warning for the open cell: $(cat "$TMP/out")"
! grep -q '^::error' "$TMP/out" || fail "an ::error for a cell that does not fail"
grep -q "^### tpsdb gate: INCONCLUSIVE: 'ours' tag 'cand' against baseline 'rel' (0 failures)$" \
	"$TMP/summary.md" || fail "summary heading: $(cat "$TMP/summary.md")"
grep -q "^- gate-7b tg: INCONCLUSIVE, regression undecided: interval " "$TMP/summary.md" ||
	fail "summary line: $(cat "$TMP/summary.md")"
grep -q 'tests="1" failures="0" errors="0" skipped="1"' "$TMP/junit.xml" &&
	grep -q '<skipped message="gate-7b tg: candidate .* regression undecided at -3.00%' \
	"$TMP/junit.xml" || fail "JUnit: $(cat "$TMP/junit.xml")"

GITHUB_ACTIONS=true tps gate --baseline rel --engine ours --tag cand --model gate-7b --metric tg \
	--fail-on regression,inconclusive --junit "$TMP/junit2.xml"
expect_rc 1 "--fail-on inconclusive fails it"
grep -q "^::error title=tpsdb gate::gate-7b tg: " "$TMP/out" || fail "::error: $(cat "$TMP/out")"
grep -q 'failures="1" errors="0" skipped="0"' "$TMP/junit2.xml" || fail "JUnit failure"
tps gate --baseline rel --engine ours --tag cand --model gate-7b --metric tg --fail-on regression,nonsense
expect_rc 2 "an unknown --fail-on"
grep -q "^tpsdb: error: --fail-on: unknown check 'nonsense' (regression, inconclusive, environment, output)$" \
	"$TMP/err" || fail "--fail-on error: $(cat "$TMP/err")"

tps gate --baseline rel --engine ours --tag cand --model gate-7b --metric tg --fail-on regression,inconclusive
expect_rc 1 "--fail-on inconclusive fails an inconclusive cell"
grep -q 'gate-7b .* tg .* INCONCLUSIVE (fails: --fail-on inconclusive)$' "$TMP/out" || fail "the failing row"

tps gate --baseline rel --engine ours --tag cand --model gate-7b --metric tg --strict --json
expect_rc 1 "--strict fails an inconclusive cell"
check '.pass == false and .status == "fail" and .failures == 1 and .cells[0].status == "inconclusive"' "strict"

tps gate --baseline rel --engine ours --tag cand --model fail-7b --metric tg --json
expect_rc 1 "a significant regression fails"
check '.cells[0] | .status == "fail" and .regression == "yes" and .decided == true and .ci_hi_pct < -3 and .rounds == 3' "fail"

# Without --tag: the candidate's newest run carries 'cand', so the three are pooled.
tps gate --baseline rel --engine ours --model fail-7b --metric tg --json
expect_rc 1 "pooled by the newest run's tag"
check '.cells[0] | .rounds == 3 and .instances_ours == 3' "pooled by default"
exit 0
