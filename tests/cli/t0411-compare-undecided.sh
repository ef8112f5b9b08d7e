#!/usr/bin/env bash
# t0411: decided or not. Three rounds reading about +1.5, -1.0 and +2.5% leave both
# questions open at a 2% band: the 90% interval reaches just past -2% (so neither
# "no regression" nor parity is decided), and the output says how far each end of
# the interval is from answering it (no forecast of rounds: it was not
# calibrated). Three rounds at -5.0, -4.8 and -5.2% are a regression, slower,
# decided. Three rounds at -5.0, -4.2 and -4.6% whose instances moved by +-3% on
# both sides (drift-7b) are not: their ratios agree far better than the
# instances' spread allows at 2 degrees of freedom, and the interval holds that
# spread (issue 41; JSON scatter_source "instances"). Untagged runs are not
# pooled (the newest alone).
. "$TPSDB_TEST_DATA/lib-pooled.sh"

for k in 1 2 3; do
	imp ours ours open-7b "open-ours-$k.jsonl" --tag b1
	imp llama.cpp upstream open-7b "open-vs-$k.jsonl" --tag b1
	imp ours ours slow-7b "gatefail-ours-$k.jsonl" --tag b1
	imp llama.cpp upstream slow-7b "gatefail-vs-$k.jsonl" --tag b1
	imp ours ours drift-7b "slow-ours-$k.jsonl" --tag b1
	imp llama.cpp upstream drift-7b "slow-vs-$k.jsonl" --tag b1
done

tps compare --ours ours --vs llama.cpp --metric tg --json
expect_rc 0 "compare"
check '[.rows[].model] == ["drift-7b","open-7b","slow-7b"]' "three cells"
check '.rows[0] | .regression == "undecided" and .decided == false and .lean == "slower" and .rounds == 3 and .scatter_source == "instances" and .round_scatter_pct > 4 and .ci_hi_pct > 0' "drift: open, at the instances' spread"
check '.rows[0] | .delta_pct < -4.4 and .delta_pct > -4.8' "drift: delta -4.6%"
# The checks below: the open and the slow cell, as rows 0 and 1.
cp "$TMP/out" "$TMP/c.json"
jq '.rows |= .[1:]' "$TMP/c.json" >"$TMP/out"
check '.rows[0] | .verdict == "undecided" and .regression == "undecided" and .decided == false and .lean == "parity" and .rounds == 3' "open: undecided"
check '.rows[0] | .ci_lo_pct < -2 and .ci_hi_pct > 2 and .mde_pct > 2 and (has("rounds_more") | not)' "open: the interval"
check '.rows[0] | .delta_pct > 0.9 and .delta_pct < 1.1' "open: delta +1%"
check '.rows[1] | .regression == "yes" and .verdict == "slower" and .decided == true and .rounds == 3 and .ci_hi_pct < -2' "slow: a regression in 3 rounds"
check '.rows[1] | .delta_pct < -4.8 and .delta_pct > -5.2 and .mde_pct < 2' "slow: delta -5.0%"

tps compare --ours ours --vs llama.cpp --metric tg
expect_rc 0 "table"
grep -q '^open-7b .* undecided  *undecided ' "$TMP/out" || fail "undecided row"
grep -q '^slow-7b .* yes  *slower ' "$TMP/out" || fail "slower row"
grep -q "^open-7b tg: regression undecided: interval \[-[0-9.]*%, +[0-9.]*%\] holds -2.00%; its lower end is 0.[0-9]* points short of 'no', its upper end [0-9.]* of 'yes'$" "$TMP/out" || fail "how far from decided"
if grep -q 'more round' "$TMP/out"; then fail "an uncalibrated forecast of rounds"; fi
grep -q '^mde [0-9.]*% > band 2.00%: open-7b tg could not have seen a difference under' "$TMP/out" || fail "mde leads the table"
grep -q '^slow-7b .* slower ' "$TMP/out" || fail "slower row"
if grep -q 'slow-7b tg could not' "$TMP/out"; then fail "slow-7b resolves under the band"; fi

# Untagged runs: the newest alone.
for k in 1 2 3; do
	imp ours ours open-7b "open-ours-$k.jsonl"
	imp llama.cpp upstream open-7b "open-vs-$k.jsonl"
done
tps compare --ours ours --vs llama.cpp --model open-7b --metric tg --json
expect_rc 0 "untagged"
check '.rows[0] | .rounds == 1 and .instances_ours == 1 and .instances_vs == 1 and .reason == "one-instance" and .verdict == "undecided"' "the newest pair alone"
# Imports without environment facts: no evidence of the instance scatter, not
# even the default tg scatter's (it was taken as known).
check '.rows[0] | .bound == "band" and .scatter_pct == null' "no default scatter taken as known"
exit 0
