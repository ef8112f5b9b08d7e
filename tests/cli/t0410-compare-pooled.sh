#!/usr/bin/env bash
# t0410: compare pools every run of a side. Five rounds of ours and llama.cpp
# (tag r) whose newest pair alone reads +2.6% (faster in a 2% band) pool into
# parity, decided: the per-round log ratios give a 90% interval inside +-2%. An
# older run of ours under another tag is not pooled. Runs without a round number
# pair by start order: the +-10% drift shared by each round cancels (by the run
# medians it would swamp the difference).
. "$TPSDB_TEST_DATA/lib-pooled.sh"

imp ours ours pool-7b pool-ours-old.jsonl --tag old
for k in 1 2 3 4 5; do
	imp ours ours pool-7b "pool-ours-$k.jsonl" --tag r
	imp llama.cpp upstream pool-7b "pool-vs-$k.jsonl" --tag r
done

tps compare --ours ours --vs llama.cpp --json
expect_rc 0 "compare --json"
check '.rows | length == 2' "pp and tg"
check 'all(.rows[]; .rounds == 5 and .instances_ours == 5 and .instances_vs == 5)' "five rounds pooled, the old tag left out"
check 'all(.rows[]; .method == "rounds" and .verdict == "parity" and .decided == true and .regression == "no")' "no regression, parity, decided"
check 'all(.rows[]; .delta_pct > 0.4 and .delta_pct < 0.7)' "delta: the mean of the round log ratios (+0.56%)"
check 'all(.rows[]; .ci_lo_pct < -0.5 and .ci_lo_pct > -0.7 and .ci_hi_pct > 1.6 and .ci_hi_pct < 1.8 and .ci_level == 0.9)' "90% interval from 5 rounds"
check 'all(.rows[]; (.mde_pct - (.ci_hi_pct - .ci_lo_pct) / 2 | fabs) < 0.01)' "mde is the CI half-width"
check 'all(.rows[]; .unpaired == 0 and .reason == null and (has("rounds_more") | not))' "nothing left, no uncalibrated forecast"

# The newest pair alone (its tag only) reads +2.6% from one instance a side,
# imported without environment facts: no evidence of the instance scatter, so it
# decides nothing (as it did against the default scatter taken as known).
"$TPSDB_BIN" import --allow-duplicate --engine ours --role ours --model pool-7b --warmup 1 --tag last \
	"$FIX2/pool-ours-5.jsonl" >/dev/null || fail "import"
"$TPSDB_BIN" import --allow-duplicate --engine llama.cpp --role upstream --model pool-7b --warmup 1 --tag last \
	"$FIX2/pool-vs-5.jsonl" >/dev/null || fail "import"
tps compare --ours ours --vs llama.cpp --json
expect_rc 0 "compare the newest tag"
check 'all(.rows[]; .rounds == 1 and .instances_ours == 1 and .method == "requests")' "one round"
check 'all(.rows[]; .verdict == "undecided" and .regression == "undecided" and .reason == "one-instance" and .delta_pct > 2.5 and .delta_pct < 2.7)' "the newest pair alone decides nothing"
check 'all(.rows[]; .bound == "band" and .scatter_pct == null and .history == "none")' "no default scatter taken as known"

# --tag picks the pool explicitly.
tps compare --ours ours --vs llama.cpp --tag r --metric tg --json
expect_rc 0 "compare --tag r"
check '.rows[0].rounds == 5 and .rows[0].verdict == "parity"' "--tag r pools again"

# The table leads with nothing here (mde 1.1% < band 2%); a narrower band than the
# mde leads, and the answers differ: no regression beyond 1%, no side decided.
tps compare --ours ours --vs llama.cpp --tag r --metric tg --band 1
expect_rc 0 "table"
grep -q '^mde 1\.[0-9][0-9]% > band 1\.00%: pool-7b tg could not have seen a difference under' "$TMP/out" || fail "mde leads"
grep -q '^pool-7b  *tg  .*  no  *undecided ' "$TMP/out" || fail "no regression, undecided"

# --batch: no run carries a batch yet, so no batch of that name is known.
tps compare --ours ours --vs llama.cpp --batch b1
expect_rc 3 "--batch selects no run"
grep -q "^tpsdb: error: --batch 'b1': no batch of that name in the store (it holds none)$" "$TMP/err" ||
	fail "--batch error: $(cat "$TMP/err")"
tps compare --ours ours --vs llama.cpp --batch ''
expect_rc 2 "--batch ''"
exit 0
