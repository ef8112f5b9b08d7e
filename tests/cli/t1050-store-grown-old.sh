#!/usr/bin/env bash
# t1050-store-grown-old.sh: answers that stay right as one store grows through
# nights of every kind (issue 36), all in one store. Host vm (a stand-in
# nvidia-smi's GPU): three clean nights of ours (a real 6% regression) against
# llama.cpp, then a night while another compute process shared the GPU (ours at
# half the rate, recorded as an older collect recorded it: --wait-quiet 0), then
# host beta's night of ours alone (another machine, 0.7x the rate) merged in, then
# a clean night on vm where ours is 3x slower on 2 starts of 10.
# - After the contended night: compare answers it spoiled and names the newest
#   clean answer (night 3's "yes"); plan reads what it read before that night;
#   trend finds no change point and gate --trend passes.
# - After the merge: compare still pools vm's newest batch of both, not ours'
#   newer beta batch; trend keeps each machine's series apart with no change
#   point between them; the gate against a baseline frozen on vm refuses ours'
#   beta runs, naming both machines in one line (exit 3), and on vm (--host)
#   answers spoiled with the newest clean answer beside it.
# - After the intermittent night: compare answers intermittent, on vm, and the
#   gate fails it under --fail-on regression.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port 150)
need jq
export TPSDB_HOST_BUSY_PCT=100
fake_gpu
echo 11 >"$T/seed-ours"
echo 12 >"$T/seed-vs"

n=0
# night <db> <host> <ours' fault server args> <collect args...>: one collect of
# ours and llama.cpp (the same fault server) into db.
night() {
	local db=$1 host=$2 a=$3
	shift 3
	n=$((n + 1))
	rc=0
	"$TPSDB_BIN" --db "$db" collect --engine ours="$FS" --engine llama.cpp="$FS" --ours ours \
		--engine-args "ours=--jitter 0.01 --seed-file $T/seed-ours $a" \
		--engine-args "llama.cpp=--jitter 0.01 --seed-file $T/seed-vs" \
		--model tiny="$MODEL" --prompts "$PROMPTS" --reps 1 --warmup 0 --n-predict 16 \
		--host "$host" --port $((port + 10 * n)) --out-dir "$OUT/$n" --quiet "$@" \
		>"$T/stdout" 2>"$T/stderr" || rc=$?
	expect_eq "$rc" 0 "night $n: $(cat "$T/stderr")"
}
newest_batch() { q "SELECT batch FROM run ORDER BY id DESC LIMIT 1"; }
cmp() { # compare ours vs llama.cpp on tg, JSON, into $T/c.json
	run_tpsdb compare --ours ours --vs llama.cpp --metric tg --json "$@"
	expect_eq "$rc" 0 "compare $*: $(cat "$T/stderr")"
	cp "$T/stdout" "$T/c.json"
}
jqc() { jq -e "$1" "$T/c.json" >/dev/null || fail "$2: $(jq -c '.rows[0]' "$T/c.json")"; }
plan_of() {
	"$TPSDB_BIN" --db "$DB" plan --ours ours --vs llama.cpp --host vm --max-rounds 5 --json |
		jq -c '[.rows[] | [.metric, .instances, .sd_between_pct, .round_sd_pct, .plan.reps,
			.plan.rounds]]'
}
trend_of() { # <series count>: trend of ours' tg into $T/t.json, no change point
	run_tpsdb trend --engine ours --metric tg --json
	expect_eq "$rc" 0 "trend: $(cat "$T/stderr")"
	cp "$T/stdout" "$T/t.json"
	expect_eq "$(jq '.series | length' "$T/t.json")" "$1" "trend's series"
	expect_eq "$(jq '[.series[].change_points[]] | length' "$T/t.json")" 0 \
		"no change point: $(jq -c '[.series[] | [.machine, .change_points]]' "$T/t.json")"
}

# Three clean nights on vm; a baseline of ours frozen from the first.
gpu_quiet
night "$DB" vm "--slow 1.06" --rounds 4
"$TPSDB_BIN" --db "$DB" baseline set base --engine ours >/dev/null || fail "baseline set"
night "$DB" vm "--slow 1.06" --rounds 4
night "$DB" vm "--slow 1.06" --rounds 4
b3=$(newest_batch)
cmp
jqc '.rows[0].regression == "yes" and .rows[0].newest_clean == null' "night 3 decides the regression"
p3=$(plan_of)

# A contended night on vm: every run spoiled, ours at half the rate.
gpu_shared
night "$DB" vm "--slow 2" --rounds 3 --wait-quiet 0 --max-spoiled 0
b4=$(newest_batch)
cmp
jqc '.rows[0].regression == "spoiled" and .rows[0].newest_clean.batch == "'"$b3"'"
	and .rows[0].newest_clean.regression == "yes"' "the contended night: spoiled, night 3's answer beside it"
expect_eq "$(plan_of)" "$p3" "plan after the contended night"
trend_of 1
run_tpsdb gate --baseline base --engine ours --metric tg --trend
! grep -qi 'trend FAIL' "$T/stdout" || fail "gate --trend failed on the contended night: $(cat "$T/stdout")"

# beta's night, ours alone, 0.7x the rate, merged in.
gpu_quiet
rc=0
"$TPSDB_BIN" --db "$T/beta.db" collect --engine ours="$FS" --ours ours \
	--engine-args "ours=--jitter 0.01 --slow 1.43" --model tiny="$MODEL" --prompts "$PROMPTS" \
	--reps 1 --warmup 0 --n-predict 16 --host beta --port $((port + 90)) --out-dir "$OUT/beta" \
	--rounds 3 --quiet >"$T/stdout" 2>"$T/stderr" || rc=$?
expect_eq "$rc" 0 "beta's night: $(cat "$T/stderr")"
run_tpsdb merge "$T/beta.db"
expect_eq "$rc" 0 "merge: $(cat "$T/stderr")"
cmp
jqc '.rows[0].ours_machine == .rows[0].vs_machine and (.rows[0].ours_machine | startswith("vm"))
	and .rows[0].regression == "spoiled"' "compare pools vm's newest batch of both sides"
expect_eq "$(q "SELECT batch FROM run WHERE uuid = '$(jq -r '.rows[0].ours_run' "$T/c.json")'")" \
	"$b4" "ours' pooled batch"
trend_of 2
expect_eq "$(jq -r '[.series[].machine | split(" ")[0]] | sort | join(",")' "$T/t.json")" \
	"beta,vm" "a series a machine"
run_tpsdb gate --baseline base --engine ours --metric tg
expect_eq "$rc" 3 "gate: ours' newest runs are beta's: $(cat "$T/stdout" "$T/stderr")"
grep -q "beta" "$T/stderr" && grep -q "vm" "$T/stderr" ||
	fail "the refusal names both machines: $(cat "$T/stderr")"
[ "$(wc -l <"$T/stderr")" -eq 1 ] || fail "one error line: $(cat "$T/stderr")"
run_tpsdb gate --baseline base --engine ours --metric tg --host vm --json
expect_eq "$rc" 0 "gate on vm: $(cat "$T/stderr")"
jq -e --arg b "$b3" '[.cells[] | select(.metric == "tg")][0] | .status == "spoiled"
	and .newest_clean.batch == $b' "$T/stdout" >/dev/null ||
	fail "gate on vm: spoiled, the newest clean answer beside it: $(cat "$T/stdout" "$T/stderr")"

# A clean night on vm where ours is 3x slower on 2 starts of 10.
night "$DB" vm "--slow-starts 2/10" --rounds 10
cmp
jqc '.rows[0].regression == "intermittent" and .rows[0].slow_instances_ours == 2
	and (.rows[0].ours_machine | startswith("vm"))' "the intermittent night"
run_tpsdb gate --baseline base --engine ours --metric tg --host vm --fail-on regression --json
expect_eq "$rc" 1 "gate fails the intermittent night: $(cat "$T/stdout" "$T/stderr")"
jq -e '[.cells[] | select(.metric == "tg")][0].status == "intermittent"' "$T/stdout" >/dev/null ||
	fail "gate names it: $(cat "$T/stdout")"
: "$b4"
expect_no_orphans
echo ok
