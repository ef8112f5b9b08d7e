#!/usr/bin/env bash
# t1171-collect-budget.sh: collect --until-decided --budget <time> bounds the
# server time of the matrix: no instance starts whose estimated cost (from the
# runs so far) would pass it, and the output ends with every cell decided,
# unanswerable or open for lack of budget, the count across the matrix and one
# table of it (model x comparison x metric: answer, delta, interval, rounds,
# server time). Model tiny's pair is alike (decides at round 3), model big's ours
# sits at the margin with a large jitter (unanswerable, t1170). A budget of an
# hour ends with tiny decided and big unanswerable, none short; one of a second
# ends after the first instances with both open for lack of budget. --budget is
# a time (90s, 8m, 1h) and goes with --until-decided.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
PORT=$(free_port) # every collect of this test starts its servers from here

big_tiny_servers
matrix=(--engine ours="$T/ours-server" --engine up="$T/up-server" --ours ours
	--model tiny="$MODEL" --model big="$T/big-Q4_K_M.gguf" --prompts "$PROMPTS"
	--reps 1 --warmup 0 --n-predict 16 --port "$PORT" --quiet --until-decided --max-rounds 8)

# Usage errors: not a time, and without --until-decided.
for bad in "--budget 10" "--budget 0s" "--budget -5m" "--budget m" "--budget 5x" \
	"--budget 1.5d" "--budget 9999h" "--budget"; do
	# shellcheck disable=SC2086
	run_tpsdb collect "${matrix[@]}" $bad --dry-run
	expect_eq "$rc" 2 "usage error for: $bad"
	grep -q '^tpsdb: error: ' "$T/stderr" || fail "no error line for: $bad"
done
run_tpsdb collect --engine A="$FS" --engine B="$FS" --ours A --model tiny="$MODEL" \
	--budget 8m --dry-run
expect_eq "$rc" 2 "--budget without --until-decided"
grep -qx "tpsdb: error: --budget goes with --until-decided: it bounds the server time its rounds spend" \
	"$T/stderr" || fail "error line: $(cat "$T/stderr")"
for good in 90s 8m 1h 0.5h; do
	run_tpsdb collect "${matrix[@]}" --budget "$good" --dry-run
	expect_eq "$rc" 0 "--budget $good: $(cat "$T/stderr")"
done
[ ! -e "$DB" ] || fail "a dry run made a store"

# An hour: every cell answered or stopped, none short of budget.
big_tiny_seeds
run_tpsdb collect "${matrix[@]}" --budget 1h --out-dir "$OUT/1"
expect_eq "$rc" 0 "exit status: $(cat "$T/stderr")"
expect_no_orphans
grep -Eqx 'until-decided: 1 decided, 1 unanswerable, 0 open of 2 cells \(0 for lack of budget\); [0-9]+\.[0-9] s of server time of a 3600 s budget' \
	"$T/stdout" || fail "count: $(cat "$T/stdout")"
# The table ends the output: its header, a rule and one row per cell and metric.
tail -n 7 "$T/stdout" >"$T/matrix"
expect_eq "$(sed -n 1p "$T/matrix")" "matrix:" "the table's title"
expect_match "$(sed -n 2p "$T/matrix")" '^model +comparison +metric +answer +delta +interval +rounds +server s$' \
	"the table's header"
for m in pp tg; do
	grep -Eq "^tiny +ours vs up +$m +no +[+-][0-9.]+% +\[[+-][0-9.]+%, [+-][0-9.]+%\] +3 +[0-9]+\.[0-9]$" \
		"$T/matrix" || fail "tiny $m row: $(cat "$T/matrix")"
	grep -Eq "^big +ours vs up +$m +unanswerable +[+-][0-9.]+% +\[[+-][0-9.]+%, [+-][0-9.]+%\] +[3-7] +[0-9]+\.[0-9]$" \
		"$T/matrix" || fail "big $m row: $(cat "$T/matrix")"
done

# A second: the first instance spends most of it (an instance's cost is unknown
# until one ends, so the first starts; each request takes 400 ms here, so an
# instance takes more than 0.8 s); then no instance fits and every cell is open,
# short.
rm -f "$DB"
big_tiny_seeds
run_tpsdb collect "${matrix[@]}" --engine-args "ours=--delay-ms 400" \
	--engine-args "up=--delay-ms 400" --budget 1s --out-dir "$OUT/2"
expect_eq "$rc" 0 "exit status: $(cat "$T/stderr")"
expect_no_orphans
n=$(q "SELECT count(*) FROM run")
expect_eq "$n" 1 "runs within a second's budget"
grep -Eqx 'until-decided: 0 decided, 0 unanswerable, 2 open of 2 cells \(2 for lack of budget\); [0-9]+\.[0-9] s of server time of a 1 s budget' \
	"$T/stdout" || fail "short count: $(cat "$T/stdout")"
for m in pp tg; do
	grep -Eq "^(tiny|big) +ours vs up +$m +open \(budget\) " "$T/stdout" ||
		fail "open (budget) $m: $(cat "$T/stdout")"
done
expect_eq "$(grep -Ec '^(tiny|big) +ours vs up +(pp|tg) +open \(budget\) ' "$T/stdout")" 4 \
	"every row of the table open for lack of budget"
grep -Eq '^open: tiny pp ours vs up: not compared \(fewer than 3 rounds with both engines\) \(the budget ran out\)$' \
	"$T/stdout" || fail "open line: $(cat "$T/stdout")"
echo ok
