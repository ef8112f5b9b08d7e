#!/usr/bin/env bash
# t1020-compare-history.sh: an earlier batch of a cell on this machine is evidence of
# how its rounds scatter. compare of the newest batch pools that scatter with the
# batch's own when the F test does not find today louder (JSON history "pooled",
# hist_batches, hist_df; the answer says so), weighing at most the batch's own
# degrees of freedom; a batch named with --batch is judged alone (history "none").
# When today scatters far more than the history (a quiet day, then a loud one),
# the history is refused and the interval is the batch's alone ("rejected").
# collect --until-decided asks the same question compare does: its decided lines
# agree with a later plain compare.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)
need jq

common=(--model tiny="$MODEL" --prompts "$PROMPTS" --reps 1 --warmup 0 --n-predict 16
	--port "$port" --quiet)
# batch <jitter> <collect args...>: one batch of ours and aa (the same fault
# server, a seeded instance scatter of +-jitter).
batch() {
	local j=$1; shift
	run_tpsdb collect --engine ours="$FS" --engine aa="$FS" --ours ours \
		--engine-args "ours=--jitter $j --seed-file $T/seed-ours" \
		--engine-args "aa=--jitter $j --seed-file $T/seed-aa" "${common[@]}" "$@"
	expect_eq "$rc" 0 "collect: $(cat "$T/stderr")"
}
cmp_json() { # <args...>: compare --json into $T/c.json
	run_tpsdb compare --ours ours --vs aa --metric tg --json "$@"
	expect_eq "$rc" 0 "compare $*: $(cat "$T/stderr")"
	cp "$T/stdout" "$T/c.json"
}
jqc() { jq -e "$1" "$T/c.json" >/dev/null || fail "$2: $(jq -c '.rows[0]' "$T/c.json")"; }

echo 7 >"$T/seed-ours"
echo 8 >"$T/seed-aa"

# A louder earlier batch (4 rounds), then a quiet one: pooled.
batch 0.03 --rounds 4 --out-dir "$OUT/1"
batch 0.002 --rounds 4 --out-dir "$OUT/2"
b2=$(q "SELECT batch FROM run ORDER BY started_at DESC LIMIT 1")
cmp_json
jqc '.rows[0].rounds == 4 and .rows[0].history == "pooled"' "the newest batch, history pooled"
jqc '.rows[0].hist_batches == 1 and .rows[0].hist_df == 3' "one earlier batch, 3 df"
pooled_mde=$(jq '.rows[0].mde_pct' "$T/c.json")
run_tpsdb compare --ours ours --vs aa --metric tg
grep -q 'its scatter pooled with 1 earlier batch on this machine (3 df)' "$T/stdout" ||
	fail "the answer names the history: $(cat "$T/stdout")"
cmp_json --batch "$b2"
jqc '.rows[0].rounds == 4 and .rows[0].history == "none" and .rows[0].hist_df == 0' \
	"--batch: the batch alone"
alone_mde=$(jq '.rows[0].mde_pct' "$T/c.json")
python3 -c "import sys; p, a = map(float, sys.argv[1:]); assert p > a, (p, a)" \
	"$pooled_mde" "$alone_mde" || fail "a louder history widens: $pooled_mde vs $alone_mde"

# A quiet earlier batch, then a loud one: refused, the batch alone.
rm -f "$DB"
batch 0.0005 --rounds 4 --out-dir "$OUT/3"
batch 0.05 --rounds 4 --out-dir "$OUT/4"
b4=$(q "SELECT batch FROM run ORDER BY started_at DESC LIMIT 1")
cmp_json
jqc '.rows[0].history == "rejected" and .rows[0].hist_batches == 1' "history rejected"
rej_mde=$(jq '.rows[0].mde_pct' "$T/c.json")
run_tpsdb compare --ours ours --vs aa --metric tg
grep -q 'this batch alone: its scatter differs from the 1 earlier batch' "$T/stdout" ||
	fail "the answer says the history was refused: $(cat "$T/stdout")"
cmp_json --batch "$b4"
expect_eq "$(jq '.rows[0].mde_pct' "$T/c.json")" "$rej_mde" "refused: the batch alone's interval"

# collect --until-decided after an earlier batch: its decided lines are compare's.
rm -f "$DB"
batch 0.002 --rounds 3 --out-dir "$OUT/5"
batch 0.002 --until-decided --max-rounds 5 --out-dir "$OUT/6"
line=$(grep '^decided: tiny tg ours vs aa: ' "$T/stdout") || fail "no decided line: $(cat "$T/stdout")"
cmp_json
jqc '.rows[0].history != "none" and .rows[0].hist_batches == 1 and .rows[0].decided' \
	"the earlier batch read, decided"
lo=$(jq -r '.rows[0].ci_lo_pct | (. * 100 | round) / 100 | tostring' "$T/c.json")
case $line in
*"$lo"*) ;;
*) fail "collect's line and compare's interval differ: '$line' vs $lo" ;;
esac
