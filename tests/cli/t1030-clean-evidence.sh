#!/usr/bin/env bash
# t1030-clean-evidence.sh: only clean evidence informs. A clean batch, a batch
# measured while another compute process shared the GPU (a stand-in nvidia-smi,
# tests/data/env/fake-nvidia-smi: every run gpu-contended, and slower and louder),
# then a clean batch. The contended runs stay in the store and are shown, but
# 'trend' finds no change point from them, 'gate --trend' does not fail on them,
# 'plan' and collect --until-decided's design line are what they were before them,
# and 'calibrate' pairs the two latest clean runs. While the contended batch is the
# newest, compare, gate and report say so and show the newest clean batch's
# answer with its batch and date (JSON "newest_clean"). A batch of another design
# (--reps 1) pools no history of the 2-rep batches (history "none").
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)
need jq
export TPSDB_HOST_BUSY_PCT=100
fake_gpu
echo 3 >"$T/seed-ours"
echo 4 >"$T/seed-aa"

# --wait-quiet 0 --max-spoiled 0: the contended batch is recorded as measured,
# neither waited out nor stopped (t0907 tests both).
common=(--model tiny="$MODEL" --prompts "$PROMPTS" --warmup 0 --n-predict 16 --host h1
	--wait-quiet 0 --max-spoiled 0 --quiet)
n=0
# batch <fault server args> <collect args...>: a batch of ours and aa (one binary).
batch() {
	local a=$1; shift
	n=$((n + 1))
	rm -f "$T/smi/asked"
	run_tpsdb collect --engine ours="$FS" --engine aa="$FS" --ours ours \
		--engine-args "ours=$a --seed-file $T/seed-ours" \
		--engine-args "aa=$a --seed-file $T/seed-aa" "${common[@]}" \
		--port $((port + 10 * n)) --out-dir "$OUT/$n" "$@"
	expect_eq "$rc" 0 "collect $n: $(cat "$T/stderr")"
}
newest_batch() { q "SELECT batch FROM run WHERE status = 'complete' ORDER BY id DESC LIMIT 1"; }
# design: the line collect --until-decided prints before its first round; its
# servers then fail to load (failed runs inform nothing).
design() {
	n=$((n + 1))
	run_tpsdb collect --engine ours="$FS" --engine aa="$FS" --ours ours \
		--engine-args "ours=--fault load-fail" --engine-args "aa=--fault load-fail" \
		"${common[@]}" --port $((port + 10 * n)) --out-dir "$OUT/$n" \
		--until-decided --max-rounds 5
	grep '^design:' "$T/stdout" || fail "no design line: $(cat "$T/stdout" "$T/stderr")"
}
# scatter: what plan read of the cell: its parts and its design, per metric.
scatter() {
	"$TPSDB_BIN" --db "$DB" plan --ours ours --vs aa --host h1 --max-rounds 5 --json |
		jq -c '[.rows[] | [.metric, .instances, .sd_between_pct, .round_sd_pct, .plan.reps,
			.plan.rounds]]'
}
calib() {
	"$TPSDB_BIN" --db "$DB" calibrate --engine ours --json |
		jq -r '[.floors[] | .run_a + " " + .run_b] | unique | join(",")'
}

gpu_quiet
batch "--jitter 0.01 --req-jitter 0.05" --rounds 6 --reps 2
b1=$(newest_batch)
s1=$(scatter)
d1=$(design)
c1=$(calib)
expect_eq "$(q "SELECT count(*) FROM run WHERE batch = '$b1' AND status = 'complete'")" 12 \
	"the clean batch"
"$TPSDB_BIN" --db "$DB" baseline set base --engine aa --batch "$b1" >/dev/null ||
	fail "baseline set"

gpu_shared
batch "--jitter 0.25 --slow 2" --rounds 4 --reps 2
b2=$(newest_batch)
run_tpsdb check --engine ours --json
expect_eq "$(jq -r '[.findings[] | select(.kind == "gpu-contended")] | length' "$T/stdout")" 4 \
	"every contended run of ours carries gpu-contended"
expect_eq "$(scatter)" "$s1" "plan's scatter and design after the contended batch"
expect_eq "$(design)" "$d1" "the next design after the contended batch"
expect_eq "$(calib)" "$c1" "calibrate pairs the clean runs"

# The contended batch is the newest: spoiled, and the newest clean answer beside it.
run_tpsdb compare --ours ours --vs aa --metric tg --json
expect_eq "$rc" 0 "compare: $(cat "$T/stderr")"
jq -e --arg b "$b1" '.rows[0].regression == "spoiled" and .rows[0].newest_clean.batch == $b
	and (.rows[0].newest_clean.regression | test("^(yes|no|undecided)$"))
	and (.rows[0].newest_clean.date | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T"))
	and .rows[0].newest_clean.rounds == 6' "$T/stdout" >/dev/null ||
	fail "compare --json newest_clean: $(jq -c '.rows[0]' "$T/stdout")"
delta=$(jq -r '.rows[0].newest_clean.delta_pct' "$T/stdout")
run_tpsdb compare --ours ours --vs aa --metric tg --batch "$b1" --json
expect_eq "$(jq -r '.rows[0].delta_pct' "$T/stdout")" "$delta" "the clean batch's own answer"
expect_eq "$(jq -r '.rows[0].newest_clean' "$T/stdout")" null "a clean row has no newest_clean"
day=$(q "SELECT substr(max(started_at), 1, 10) FROM run WHERE batch = '$b1'")
run_tpsdb compare --ours ours --vs aa --metric tg
grep -Eq "^tiny tg: newest clean answer: regression (yes|no|undecided), .* \(batch $b1, $day\)$" \
	"$T/stdout" || fail "compare names the newest clean answer: $(cat "$T/stdout")"
run_tpsdb compare --ours ours --vs aa --metric tg --format md
grep -Eq "^- tiny tg: newest clean answer: regression .*batch $b1, $day" "$T/stdout" ||
	fail "compare md: $(cat "$T/stdout")"
run_tpsdb gate --baseline base --engine ours --metric tg --json
jq -e --arg b "$b1" '[.cells[] | select(.metric == "tg")][0] | .status == "spoiled"
	and .newest_clean.batch == $b' "$T/stdout" >/dev/null ||
	fail "gate --json newest_clean: $(cat "$T/stdout")"
run_tpsdb gate --baseline base --engine ours --metric tg
grep -Eq "newest clean answer: regression .*\(batch $b1, $day\)" "$T/stdout" ||
	fail "gate names the newest clean answer: $(cat "$T/stdout")"
run_tpsdb gate --baseline base --engine ours --metric tg --junit "$T/j.xml"
grep -q "newest clean answer: regression .*(batch $b1, $day)" "$T/j.xml" ||
	fail "the JUnit names the newest clean answer: $(cat "$T/j.xml")"
GITHUB_ACTIONS=true run_tpsdb gate --baseline base --engine ours --metric tg
grep -q "^::warning.*newest clean answer: regression .*(batch $b1, $day)" "$T/stdout" ||
	fail "the GitHub annotation names the newest clean answer: $(cat "$T/stdout")"
run_tpsdb report --format json
jq -e --arg b "$b1" '[.. | objects | select(has("newest_clean")) | .newest_clean
	| select(. != null) | .batch] | length > 0 and all(. == $b)' "$T/stdout" >/dev/null ||
	fail "report --json newest_clean: $(cat "$T/stdout")"
run_tpsdb report
grep -q "newest clean answer: regression .*(batch $b1, $day)" "$T/stdout" ||
	fail "report names the newest clean answer: $(cat "$T/stdout")"
run_tpsdb report --format html --out "$T/html" --no-plots
grep -q "<li>tiny aa tg: spoiled; newest clean answer: regression .*(batch $b1, $day)</li>" \
	"$T/html/index.html" || fail "the html report names the newest clean answer"

# The contended runs (half the rate) are shown, but start no segment.
trend_cps() {
	run_tpsdb trend --engine ours --metric tg --json
	expect_eq "$rc" 0 "trend: $(cat "$T/stderr")"
	expect_eq "$(jq '.series[0].n_runs' "$T/stdout")" "$1" "every run shown"
	expect_eq "$(jq '.series[0].change_points | length' "$T/stdout")" 0 \
		"no change point from the contended runs: $(jq -c '.series[0].change_points' "$T/stdout")"
}
trend_cps 10
run_tpsdb gate --baseline base --engine ours --metric tg --trend --json
jq -e '.trend == []' "$T/stdout" >/dev/null || fail "gate --trend on the contended runs: $(jq -c .trend "$T/stdout")"
run_tpsdb gate --baseline base --engine ours --metric tg --trend
! grep -qi 'trend FAIL' "$T/stdout" || fail "gate --trend failed on the contended runs: $(cat "$T/stdout")"

gpu_quiet
batch "--jitter 0.01 --req-jitter 0.05" --rounds 4 --reps 2
trend_cps 14
run_tpsdb gate --baseline base --engine ours --metric tg --trend
expect_eq "$rc" 0 "gate --trend: $(cat "$T/stdout")"
! grep -qi 'trend FAIL' "$T/stdout" || fail "gate --trend failed on the contended runs"
run_tpsdb compare --ours ours --vs aa --metric tg --json
jq -e '.rows[0].newest_clean == null and .rows[0].history != "none"
	and .rows[0].hist_batches == 1' "$T/stdout" >/dev/null ||
	fail "the clean newest batch pools the clean history only: $(jq -c '.rows[0]' "$T/stdout")"

# Another design: 1 rep of every prompt. The 2-rep batches are not its history.
batch "--jitter 0.01 --req-jitter 0.05" --rounds 3 --reps 1
run_tpsdb compare --ours ours --vs aa --metric tg --json
jq -e '.rows[0].history == "none" and .rows[0].hist_batches == 0' "$T/stdout" >/dev/null ||
	fail "another design's history pooled: $(jq -c '.rows[0]' "$T/stdout")"
: "$b2"
expect_no_orphans
echo ok
