#!/usr/bin/env bash
# t0436: an outlier instance is left out of every figure of its rung, not only of
# the gap's estimate. llama.cpp's n_max=2 rung gets a fourth instance decoding at
# three times the others' speed (beyond the rule's five robust sd of a rung whose
# instances scatter by 10%: a server that drew another placement or clock); the
# rung's tg, interval, sample count and sums, and the gap against ours with its
# parts, then read exactly as they do without that instance, and each command
# output names the instance as left out (JSON, text, md).
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"
FIX=$TPSDB_TEST_DATA/sweep-pooled

# The outlier: llama-n2-2's requests at three times the decode speed.
jq -c '.timings.predicted_per_second *= 3 | .timings.predicted_ms /= 3 |
	.timings.predicted_per_token_ms /= 3' \
	"$FIX/llama-n2-2.jsonl" >"$TMP/llama-n2-fast.jsonl"

# load <with outlier: 0 or 1>: ours and llama.cpp at n_max=2, three instances each.
load() {
	local k
	for k in 1 2 3; do
		imp ours ours m7b "ours-n2-$k.jsonl" --tag r --spec-type draft-simple --n-max 2
		imp llama.cpp upstream m7b "llama-n2-$k.jsonl" --tag r --spec-type draft-simple --n-max 2
		if [ "$1" = 1 ] && [ "$k" = 2 ]; then
			"$TPSDB_BIN" import --engine llama.cpp --role upstream --model m7b --warmup 1 \
				--tag r --spec-type draft-simple --n-max 2 "$TMP/llama-n2-fast.jsonl" \
				>/dev/null || fail "import of the outlier"
		fi
	done
}

# Without the outlier: the reference figures.
export TPSDB_DB=$TMP/plain.sqlite
load 0
tps sweep --json
expect_rc 0 "without the outlier"
cp "$TMP/out" "$TMP/plain.json"

export TPSDB_DB=$TMP/store.sqlite
load 1
fast=$("$TPSDB_BIN" runs --json | jq -r '[.[] | select(.engine == "llama.cpp")] | max_by(.tg_median) | .uuid')
[ -n "$fast" ] && [ "$fast" != null ] || fail "the outlier's run uuid"
tps sweep --json
expect_rc 0 "with the outlier"
check '.series[0].engine == "llama.cpp" and .series[0].points[0].instances == 3' "three instances kept of four"
check ".series[0].points[0].outliers == [{\"run\": \"$fast\", \"tg\": .series[0].points[0].outliers[0].tg}]" "the outlier named in the rung"
check '.series[0].points[0].outliers[0].tg > 2.5 * .series[0].points[0].tg' "at its own speed"
check '.series[1].points[0].outliers == []' "ours: none left out"
# Every figure of the rung and of the gap as without the outlier.
jq --slurpfile p "$TMP/plain.json" -e '
	def figs: .series[0].points[0] | {tg, tg_ci_lo, tg_ci_hi, mde_pct, accept, speedup,
		tokens_per_cycle, ms_per_cycle, cycles, n_samples, instances};
	def gap: .gaps[0] | {tg_pct, tpc_pct, cost_pct, sums_pct, decided, ci_lo_pct, ci_hi_pct};
	(figs == ($p[0] | figs)) and (gap == ($p[0] | gap))' "$TMP/out" >/dev/null ||
	{ cat "$TMP/out" >&2; fail "the figures with the outlier left out equal those without it"; }
check '.gaps[0] | .outliers == 1 and .instances_ref == 4 and .instances_ours == 3' "the gap counts it, among the instances, as compare does"
check '.gaps[0] | (.explain | test("decides neither .*, with 1 outlier instance left out$")) and (.explain | test("do not explain") | not)' "the undecided sentence says so"

cp "$TMP/out" "$TMP/sweep.json"
tps compare --ours ours --vs llama.cpp --tag r --json
expect_rc 0 "compare"
jq -e --slurpfile s "$TMP/sweep.json" '.rows[] | select(.metric == "tg") |
	.delta_pct == $s[0].gaps[0].tg_pct and .ci_lo_pct == $s[0].gaps[0].ci_lo_pct and
	.outlier_instances == [{"side": "vs", "run": $s[0].series[0].points[0].outliers[0].run}]' \
	"$TMP/out" >/dev/null || { cat "$TMP/out" >&2; fail "compare leaves out the same instance, with the same figure"; }

tps sweep
expect_rc 0 "text"
grep -q "^  left out: n_max=2 instance ${fast:0:8}, an outlier ([0-9.]* tok/s against the median instance's [0-9.]*); the rung's figures are the other 3$" "$TMP/out" ||
	{ cat "$TMP/out" >&2; fail "text names the left-out instance"; }
tps sweep --format md
expect_rc 0 "md"
grep -q "^Left out as outlier instances, of every figure of their rung: n_max=2 \`${fast:0:8}\` ([0-9.]* tok/s against the median instance's [0-9.]*)\.$" "$TMP/out" ||
	{ cat "$TMP/out" >&2; fail "md names the left-out instance"; }
echo "ok"
