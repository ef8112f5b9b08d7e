#!/usr/bin/env bash
# t1191-sweep-machines.sh: one comparison is on one machine, in 'tpsdb sweep' as in
# compare. The sweep of t0405 (ours collapses -32% from n_max=2 to n_max=3 while
# upstream rises), each rung one imported run, is split over two hosts: alpha (an
# "H200") and beta (an "H100"), imported into two stores and merged, as stores of
# several hosts are. Where ours' n_max=3 was measured on beta, the 2 -> 3 step, the
# shape against upstream and the gap at n_max=3 pair two machines: sweep refuses
# in one line naming the cell and both machines (exit 3), as compare does; with
# --across-machines they are marked "ACROSS MACHINES" in every format and JSON
# (across_machines), never a violation nor a pass (the shape is undecided, exit
# 0), and the rest is checked as before. Where only upstream's n_max=3 is on beta,
# ours' own fall is still decided (exit 1) while the shape and the gap against
# upstream are marked. A store of one machine reads exactly as the same runs
# imported without a host.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"

H200=(--host alpha --gpu "NVIDIA H200" --driver 570.86.15 --cuda 12.8)
H100=(--host beta --gpu "NVIDIA H100 80GB HBM3" --driver 570.86.15 --cuda 12.8)
ALPHA="alpha (NVIDIA H200, driver 570.86.15, CUDA 12.8)"
BETA="beta (NVIDIA H100 80GB HBM3, driver 570.86.15, CUDA 12.8)"

# rung <store> <engine> <n_max|base> <host options...>: imports one rung of t0405's sweep.
rung() {
	local db=$1 e=$2 n=$3
	shift 3
	if [ "$n" = base ]; then
		TPSDB_DB=$db imp "$e" "$e" qwen3-8b "spec-$e-base.jsonl" "$@" 2>"$TMP/imp.err"
	else
		TPSDB_DB=$db imp "$e" "$e" qwen3-8b "spec-$e-n$n.jsonl" --spec-type draft-simple \
			--n-max "$n" "$@" 2>"$TMP/imp.err"
	fi
}

# store <name> <engine:n_max that beta measured>...: the sweep on alpha but those
# rungs, which go to a second store on beta, merged in.
store() {
	local db=$TMP/$1.sqlite e n on
	shift
	for e in ours upstream; do
		for n in base 1 2 3; do
			case " $* " in
			*" $e:$n "*) rung "$TMP/beta-$e-$n.sqlite" "$e" "$n" "${H100[@]}" ;;
			*) rung "$db" "$e" "$n" "${H200[@]}" ;;
			esac
		done
	done
	for on in "$@"; do
		TPSDB_DB=$db tps merge "$TMP/beta-${on%%:*}-${on#*:}.sqlite"
		expect_rc 0 "merge $on"
	done
	export TPSDB_DB=$db
}

# 1. ours' n_max=3 on beta: its own step, the shape and the gap pair two machines.
store ours3 ours:3
tps sweep
expect_rc 3 "a step across machines refuses"
[ ! -s "$TMP/out" ] || fail "a refusal writes no sweep: $(cat "$TMP/out")"
expect_lines=$(wc -l <"$TMP/err")
[ "$expect_lines" = 1 ] || fail "one error line: $(cat "$TMP/err")"
grep -qxF "tpsdb: error: refusing to sweep 'ours' from n_max=2 to n_max=3 at cell 'qwen3-8b [draft-simple n_max=3]': measured on different machines: ours on '$ALPHA', ours on '$BETA' (--across-machines marks the steps and gaps measured on different machines and checks the rest; --host or --batch chooses one machine's runs)" \
	"$TMP/err" || fail "the refusal names the cell and both machines: $(cat "$TMP/err")"
tps sweep --json
expect_rc 3 "--json refuses too"
check ".series == [] and .gaps == [] and .across_machines == 4 and .refused.reason == \"machines-differ\" and
	.refused.cell == \"qwen3-8b [draft-simple n_max=3]\" and .refused.ours == \"ours\" and
	.refused.ref == \"ours\" and .refused.from == 2 and .refused.to == 3 and
	.refused.machines == [\"$ALPHA\", \"$BETA\"] and (.refused.message | startswith(\"refusing to sweep 'ours'\"))" \
	"the refusal in JSON"

tps sweep --across-machines --json
expect_rc 0 "--across-machines: the step is marked, neither a violation nor a pass"
check '.series[0].engine == "ours" and .series[0].violations == [] and
	.series[0].monotone == null and .series[0].monotonicity == "undecided"' \
	"ours' fall across machines decides nothing"
check ".series[0].across_machines == [{\"from\": 2, \"to\": 3, \"machines\": [\"$ALPHA\", \"$BETA\"],
	\"message\": \"ACROSS MACHINES: ours from n_max=2 to n_max=3 not checked (--across-machines), measured on different machines: ours on '$ALPHA', ours on '$BETA'\"}]" \
	"the step across machines, both machines named"
check '[.series[0].points[] | .speedup != null] == [true, true, true, false]' \
	"no speedup over a base on another machine"
check '.series[0].shape | length == 1 and (.[0] | .across_machines == true and .from == 2 and
	.to == 3 and .change_pct == null and (.message | startswith("ACROSS MACHINES: the shape of ours against upstream from n_max=2 to n_max=3 not checked")))' \
	"the shape step across machines"
check '.series[1].engine == "upstream" and .series[1].monotonicity == "monotone" and
	.series[1].across_machines == []' "upstream, on one machine, is checked as before"
check '[.gaps[] | select(.n_max == 3)] | length == 1 and (.[0] | .across_machines == true and
	.decided == false and .tg_pct == null and (.machines | length == 2) and
	(.explain | startswith("ACROSS MACHINES: ours against upstream at n_max=3 not explained")))' \
	"the gap at n_max=3 across machines"
check '[.gaps[] | select(.n_max != 3) | .across_machines] | all(. == false)' \
	"the other gaps, on one machine"
check '.across_machines == 4' "counted: ours' step and shape step, upstream's shape step, the gap"
grep -q "^tpsdb: warning: ACROSS MACHINES: 4 steps or gaps measured on different machines, not checked (--across-machines)$" \
	"$TMP/err" || fail "stderr warns: $(cat "$TMP/err")"

tps sweep --across-machines
expect_rc 0 "text"
grep -q "^ours  qwen3-8b  draft-simple  shape undecided$" "$TMP/out" || fail "heading: $(cat "$TMP/out")"
grep -q "^  ACROSS MACHINES: ours from n_max=2 to n_max=3 not checked (--across-machines), measured on different machines: ours on '$ALPHA', ours on '$BETA'$" \
	"$TMP/out" || fail "text step line: $(cat "$TMP/out")"
grep -q " across machines *$" "$TMP/out" || fail "the rung's status: $(cat "$TMP/out")"
grep -q "VIOLATION" "$TMP/out" && fail "no violation across machines: $(cat "$TMP/out")"
grep -q "^  shape: ACROSS MACHINES: the shape of ours against upstream" "$TMP/out" ||
	fail "text shape line: $(cat "$TMP/out")"
grep -q "^  qwen3-8b draft-simple: ACROSS MACHINES: ours against upstream at n_max=3 not explained" \
	"$TMP/out" || fail "text gap line: $(cat "$TMP/out")"
tps sweep --across-machines --format md
expect_rc 0 "md"
grep -q "^\*\*ACROSS MACHINES\*\*: 4 steps or gaps measured on different machines, not checked (--across-machines): neither a violation nor a pass.$" \
	"$TMP/out" || fail "md: $(cat "$TMP/out")"
grep -q "| across machines |" "$TMP/out" || fail "md status: $(cat "$TMP/out")"
grep -q "^\*\*NOT ALL CHECKED\*\*: 0 violations" "$TMP/out" || fail "md is no PASS: $(cat "$TMP/out")"
# --host chooses one machine's runs: alpha's sweep has no n_max=3 of ours.
tps sweep --host alpha --engine ours --json
expect_rc 0 "one machine's runs"
check '.across_machines == 0 and [.series[0].points[].n_max] == [null, 1, 2]' "alpha's runs"

# 2. upstream's n_max=3 on beta: ours' own fall is on one machine and still decided;
# the shape against upstream and the gap at n_max=3 are not.
store up3 upstream:3
tps sweep --engine ours --ref upstream
expect_rc 3 "the shape across machines refuses"
grep -qxF "tpsdb: error: refusing to hold 'ours' against 'upstream' from n_max=2 to n_max=3 at cell 'qwen3-8b [draft-simple n_max=3]': measured on different machines: ours on '$ALPHA', upstream on '$BETA' (--across-machines marks the steps and gaps measured on different machines and checks the rest; --host or --batch chooses one machine's runs)" \
	"$TMP/err" || fail "the shape's refusal: $(cat "$TMP/err")"
tps sweep --engine ours --ref upstream --across-machines --json
expect_rc 1 "ours' own fall, on alpha, is still a violation"
check '.series[0].violations | length == 1 and .[0].decided == true and .[0].to == 3' "decided"
check '.series[0].across_machines == [] and .series[0].shape[0].across_machines == true and
	.series[0].shape[0].machines == ["'"$ALPHA"'", "'"$BETA"'"]' "the shape is marked"
check '[.gaps[] | select(.across_machines) | .n_max] == [3]' "the gap at n_max=3 is marked"
check '.across_machines == 2' "two"

# 3. One machine: the output is the one of the same runs imported without a host.
store one
tps sweep --json
expect_rc 1 "one machine: the fall is a violation, as in t0405"
jq 'del(.. | .run?)' "$TMP/out" >"$TMP/one.json"
check '.across_machines == 0 and ([.series[] | .across_machines] == [[], []]) and
	([.series[].shape[] | .across_machines] | all(. == false)) and
	([.gaps[] | .across_machines] | all(. == false))' "nothing across machines"
tps sweep
cp "$TMP/out" "$TMP/one.txt"
export TPSDB_DB=$TMP/plain.sqlite
imp_sweep
tps sweep --json
expect_rc 1 "no host"
jq 'del(.. | .run?)' "$TMP/out" >"$TMP/plain.json"
cmp -s "$TMP/one.json" "$TMP/plain.json" || fail "one machine reads as no host: $(diff "$TMP/plain.json" "$TMP/one.json")"
tps sweep
sed 's/[0-9a-f]\{8\}-[0-9a-f-]*//g' "$TMP/one.txt" >"$TMP/a.txt"
sed 's/[0-9a-f]\{8\}-[0-9a-f-]*//g' "$TMP/out" >"$TMP/b.txt"
cmp -s "$TMP/a.txt" "$TMP/b.txt" || fail "text: $(diff "$TMP/b.txt" "$TMP/a.txt")"
exit 0
