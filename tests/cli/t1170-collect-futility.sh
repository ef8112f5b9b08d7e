#!/usr/bin/env bash
# t1170-collect-futility.sh: collect --until-decided stops a cell that cannot be
# answered by --max-rounds as unanswerable (the futility stop, analyze/until.h):
# model big's ours is 2% slower than up (the regression question's margin) with
# a large jitter, model tiny's pair is alike with a tiny one. tiny decides at round
# 3; big is stopped at a look before --max-rounds 8 with its mde and the rounds it
# would need, its engines start no more, and the last line counts it. Without
# the stop (a fixed --max-rounds 3 batch) nothing is unanswerable: no look is left.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
PORT=$(free_port) # every collect of this test starts its servers from here

big_tiny_servers
big_tiny_seeds

run_tpsdb collect --engine ours="$T/ours-server" --engine up="$T/up-server" --ours ours \
	--model tiny="$MODEL" --model big="$T/big-Q4_K_M.gguf" --prompts "$PROMPTS" \
	--reps 1 --warmup 0 --n-predict 16 --port "$PORT" --quiet \
	--until-decided --max-rounds 8 --out-dir "$OUT/1"
expect_eq "$rc" 0 "exit status: $(cat "$T/stderr")"
expect_no_orphans
for m in pp tg; do
	grep -Eq "^decided: tiny $m ours vs up: regression no, parity .* after 3 rounds, " \
		"$T/stdout" || fail "tiny $m decided: $(cat "$T/stdout")"
	grep -Eq "^unanswerable: big $m ours vs up: mde [0-9]+\.[0-9]{2}%, needs (about [0-9]+|more than 100) rounds \(of --max-rounds 8\); regression undecided, [a-z]+ \([+-][0-9.]+% \[[+-][0-9.]+%, [+-][0-9.]+%\]\) after [34567] rounds, [0-9]+\.[0-9] s of server time$" \
		"$T/stdout" || fail "big $m unanswerable: $(cat "$T/stdout")"
done
! grep -q '^open: ' "$T/stdout" || fail "an open line: $(cat "$T/stdout")"
grep -qx 'until-decided: 0 of 2 cells open, 1 unanswerable' "$T/stdout" ||
	fail "the count: $(cat "$T/stdout")"
# Its engines start no more after the look that stopped it.
at=$(sed -n 's/^unanswerable: big pp .* after \([0-9]*\) rounds.*/\1/p' "$T/stdout")
expect_eq "$(q "SELECT max(round) FROM run r JOIN model m ON m.id = r.model_id
	WHERE m.label = 'big'")" "$at" "big's last round is the look that stopped it"
expect_eq "$(q "SELECT count(*) FROM run r JOIN model m ON m.id = r.model_id
	WHERE m.label = 'big'")" "$((2 * at))" "big's runs: both engines to round $at"
expect_eq "$(q "SELECT max(round) FROM run r JOIN model m ON m.id = r.model_id
	WHERE m.label = 'tiny'")" 3 "tiny decided at round 3"

# No look left after the last round: with --max-rounds 3 the cell stays open.
rm -f "$DB"
big_tiny_seeds
run_tpsdb collect --engine ours="$T/ours-server" --engine up="$T/up-server" --ours ours \
	--model big="$T/big-Q4_K_M.gguf" --prompts "$PROMPTS" \
	--reps 1 --warmup 0 --n-predict 16 --port "$PORT" --quiet \
	--until-decided --max-rounds 3 --out-dir "$OUT/2"
expect_eq "$rc" 0 "exit status: $(cat "$T/stderr")"
! grep -q '^unanswerable: ' "$T/stdout" || fail "unanswerable with no look left: $(cat "$T/stdout")"
grep -qx 'until-decided: 1 of 1 cells open' "$T/stdout" || fail "open count: $(cat "$T/stdout")"
echo ok
