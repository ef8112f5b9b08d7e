#!/usr/bin/env bash
# t0907-collect-wait-quiet.sh: an instance measured while another job held the GPU
# (gpu-contended; here the stand-in nvidia-smi of t0903 lists a compute process
# that is not ours) is kept, and collect waits for quiet (--wait-quiet) and
# measures it again in the same round: an A/A batch whose first instance was
# spoiled decides at round 3 as a clean one does, from the clean tries, with no
# round spent on the spoiled one. A GPU busy throughout stops the model after
# --max-spoiled tries in a row with one line naming the finding, its cells open,
# while the next model is measured; when every model stopped, collect exits 1. The
# summary tells the spoiled instances and their server time. A signal ends the
# wait at once; a host kept busy by spin loops is read busy by the quiet check too
# (host-busy).
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port 100)
need jq pgrep timeout nproc
export TPSDB_HOST_BUSY_PCT=100 # the GPU is the busy one here, the host in the last case
mkdir -p "$T/smi" "$T/bin"
cp "$TPSDB_SRC/tests/data/env/fake-nvidia-smi" "$T/bin/nvidia-smi"
export FAKE_SMI_DIR=$T/smi FAKE_SMI_MATCH=$T/ PATH=$T/bin:$PATH
U=GPU-126aafaa-0ab6-8564-0efb-4bc7fb502cc3
echo "0, $U, 0, 1980, 3201, 40, 80.5, 0x0000000000000000" >"$T/smi/before.csv"
printf '0, %s, 97, 1980, 3201, 50, 600, 0x0000000000000000\n' "$U" >"$T/smi/during.csv"
printf 'SERVER, %s\n' "$U" >"$T/smi/apps.csv"
# Another job's process on the run's GPU, for as many --query-compute-apps answers
# as busy-left says (each run asks twice, as it starts and ends measuring; each
# reading of the quiet check once).
printf '4242, %s\n' "$U" >"$T/smi/busy.csv"
MODEL2=$T/small-Q4_K_M.gguf
cp "$MODEL" "$MODEL2"
common=(--engine ours="$FS" --engine aa="$FS" --ours ours --engine-args "ours=--jitter 0.002"
	--engine-args "aa=--jitter 0.002" --prompts "$PROMPTS" --reps 1 --warmup 0
	--n-predict 16 --until-decided --max-rounds 5 --quiet)
spoiled_runs() { # <model> : its runs another compute process shared the GPU with
	q "SELECT count(*) FROM run r JOIN model m ON m.id=r.model_id WHERE m.label='$1'
		AND json_extract(r.env, '$.gpu.other_procs') > 0"
}

# Usage errors.
for bad in "--wait-quiet -1" "--wait-quiet abc" "--wait-quiet 86401" "--max-spoiled -1" \
	"--max-spoiled 1001" "--max-spoiled x"; do
	# shellcheck disable=SC2086
	run_tpsdb collect "${common[@]}" --model tiny="$MODEL" $bad --dry-run
	expect_eq "$rc" 2 "usage error for: $bad"
	grep -q '^tpsdb: error: --[a-z-]* ' "$T/stderr" || fail "no error line for: $bad"
done

# 1. Busy for the first run and the quiet check's first three readings, then quiet:
# collect waits, measures ours' round 1 again, and the batch decides at round 3
# as a clean A/A batch does (t0350): every round holds one clean instance of each
# cell, and round 1 also the spoiled try.
echo 5 >"$T/smi/busy-left"
run_tpsdb collect "${common[@]}" --model tiny="$MODEL" --wait-quiet 30 --port "$port" \
	--out-dir "$OUT/1"
expect_eq "$rc" 0 "exit status: $(cat "$T/stderr")"
expect_no_orphans
cp "$T/stdout" "$T/collect.out"
expect_eq "$(cat "$T/smi/busy-left")" 0 "the busy job ended while collect waited"
expect_match "$(cat "$T/stderr")" "^tpsdb: warning: round 1/5 tiny / ours / base: gpu-contended \(GPU shared: 1 other compute process\(es\) on the run's GPU, utilisation 0% while the loaded server sat idle\); waiting up to 30 s for a quiet machine to measure it again$" \
	"the waiting line"
expect_eq "$(grep -c . "$T/stderr")" 1 "one line on stderr"
expect_eq "$(q "SELECT group_concat(n, ' ') FROM (SELECT round, count(*) n FROM run
	GROUP BY round ORDER BY round)")" "3 2 2" "runs per round (no round wasted)"
expect_eq "$(spoiled_runs tiny)" 1 "the spoiled try is kept"
expect_eq "$(q "SELECT e.label || ' ' || r.round || ' ' || r.status FROM run r JOIN engine e
	ON e.id=r.engine_id WHERE json_extract(r.env, '$.gpu.other_procs') > 0")" "ours 1 complete" \
	"the spoiled try: ours, round 1, a complete run"
for m in pp tg; do
	grep -Eq "^decided: tiny $m ours vs aa: regression no, parity .* after 3 rounds" "$T/stdout" ||
		fail "decided $m: $(cat "$T/stdout")"
done
batch=$(q "SELECT DISTINCT batch FROM run")
# compare decides from the clean tries: the round's instance is its last try.
run_tpsdb compare --ours ours --vs aa --batch "$batch" --json
expect_eq "$rc" 0 "compare exit"
expect_eq "$(jq -r '[.rows[] | .regression + " " + (.decided | tostring) + " " +
	(.instances_ours | tostring) + " " + (.environment | length | tostring)] | join(",")' \
	"$T/stdout")" "no true 3 0,no true 3 0" "compare --batch: decided from the clean tries"
run_tpsdb compare --ours ours --vs aa --metric tg
expect_match "$(cat "$T/stdout")" "^tiny +tg .* parity" "plain compare"
! grep -q '^tiny .*spoiled' "$T/stdout" || fail "compare shows spoiled: $(cat "$T/stdout")"
# The summary: the spoiled instance and its server time, its row saying why.
secs=$(q "SELECT printf('%.1f', (julianday(ended_at) - julianday(started_at)) * 86400) FROM run
	WHERE json_extract(env, '$.gpu.other_procs') > 0")
line=$(grep '^spoiled: ' "$T/collect.out") || fail "no spoiled line: $(cat "$T/collect.out")"
expect_match "$line" "^spoiled: 1 instance, [0-9]+\.[0-9] s of server time \(1 measured again\)$" \
	"the spoiled line"
python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); assert b - 0.05 <= a <= b + 1, (a, b)" \
	"$(echo "$line" | sed 's/^spoiled: 1 instance, \([0-9.]*\) s .*/\1/')" "$secs" ||
	fail "spoiled server time '$line' against the run's $secs s"
grep -qx "$line" "$OUT/1/summary.txt" || fail "summary.txt: $(cat "$OUT/1/summary.txt")"
grep -qx '6 of 10 cells run, 0 not complete; .*' <(grep ' cells run' "$T/collect.out") ||
	fail "the count of cells run: $(cat "$T/collect.out")"
expect_match "$(cat "$T/collect.out")" "tiny +ours +- +1/5 +complete .* spoiled: gpu-contended; measured again" \
	"the spoiled row"

# 2. Busy throughout the first model: after 3 tries in a row (a wait of 0.1 s reads
# once) it stops with one line naming the finding, its cells open; the second
# model, measured after the job ended, decides. The 8 busy answers: 3 tries of 2
# and 2 readings.
rm -f "$DB"
echo 8 >"$T/smi/busy-left"
run_tpsdb collect "${common[@]}" --model tiny="$MODEL" --model small="$MODEL2" --wait-quiet 0.1 \
	--port $((port + 10)) --out-dir "$OUT/2"
expect_eq "$rc" 0 "exit status (one model measured): $(cat "$T/stderr")"
expect_no_orphans
expect_eq "$(grep -v 'waiting up to\|still busy after' "$T/stderr")" \
	"tpsdb: warning: model tiny stopped: gpu-contended on 3 tries in a row (GPU shared: 1 other compute process(es) on the run's GPU, utilisation 0% while the loaded server sat idle); its cells stay open" \
	"the stop line"
expect_eq "$(grep -c 'waiting up to 0.1 s' "$T/stderr")" 2 "two waits between three tries"
expect_eq "$(grep 'still busy' "$T/stderr" | sort -u)" \
	"tpsdb: warning: round 1/5 tiny / ours / base: still busy after 0.1 s (1 other compute process(es) on the GPU, utilisation 0%); measuring it again anyway" \
	"each wait that ended busy says so"
expect_eq "$(q "SELECT count(*) FROM run r JOIN model m ON m.id=r.model_id WHERE m.label='tiny'")
$(spoiled_runs tiny)" "3
3" "the first model: three spoiled tries, then no more"
expect_eq "$(q "SELECT count(*) FROM run r JOIN model m ON m.id=r.model_id WHERE m.label='small'") $(spoiled_runs small)" \
	"6 0" "the second model: measured, clean"
grep -Eq '^open: tiny pp ours vs aa: ' "$T/stdout" || fail "tiny open: $(cat "$T/stdout")"
grep -Eq '^decided: small tg ours vs aa: regression no' "$T/stdout" || fail "small: $(cat "$T/stdout")"
grep -qx 'until-decided: 1 of 2 cells open' "$T/stdout" || fail "open count: $(cat "$T/stdout")"
expect_match "$(grep '^spoiled: ' "$T/stdout")" "^spoiled: 3 instances, [0-9]+\.[0-9] s of server time \(2 measured again\)$" \
	"the spoiled line"
grep -q '^spoiled: 3 instances, ' "$OUT/2/summary.txt" || fail "summary.txt: $(cat "$OUT/2/summary.txt")"
expect_eq "$(grep -o 'spoiled: gpu-contended.*' "$T/stdout" | LC_ALL=C sort | uniq -c | sed 's/^ *//')" \
	"2 spoiled: gpu-contended; measured again
1 spoiled: gpu-contended; model stopped" "the spoiled rows say why"

# 3. Busy throughout, one model: nothing measured quiet, exit 1. --max-spoiled 2
# stops it sooner; --wait-quiet 0 measures no try again: the instances in a row
# are the round's cells.
rm -f "$DB" "$T/smi/busy-left"
run_tpsdb collect "${common[@]}" --model tiny="$MODEL" --wait-quiet 0 --max-spoiled 2 \
	--port $((port + 20)) --out-dir "$OUT/3"
expect_eq "$rc" 1 "exit status (every model stopped)"
expect_eq "$(cat "$T/stderr")" \
	"tpsdb: warning: model tiny stopped: gpu-contended on 2 tries in a row (GPU shared: 1 other compute process(es) on the run's GPU, utilisation 0% while the loaded server sat idle); its cells stay open" \
	"the stop line, no wait"
expect_eq "$(q "SELECT group_concat(e.label, ' ') FROM run r JOIN engine e ON e.id=r.engine_id")" \
	"ours aa" "two instances, one a cell"

# 3b. SIGTERM during the wait ends it at once (not at --wait-quiet's 300 s): the
# servers are stopped, the spoiled try kept, exit 3 as for any signal.
rm -f "$DB"
"$TPSDB_BIN" --db "$DB" collect "${common[@]}" --model tiny="$MODEL" --wait-quiet 300 \
	--port $((port + 40)) --out-dir "$OUT/3b" >"$T/stdout" 2>"$T/stderr" &
pid=$!
for _ in $(seq 1 600); do
	grep -q 'waiting up to 300 s' "$T/stderr" && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
grep -q 'waiting up to 300 s' "$T/stderr" || fail "collect did not wait: $(cat "$T/stderr")"
kill -TERM "$pid"
for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && { kill -KILL "$pid"; fail "collect still waiting 30 s after SIGTERM"; }
rc=0
wait "$pid" || rc=$?
expect_eq "$rc" 3 "exit status after SIGTERM"
expect_no_orphans
grep -q '^tpsdb: error: interrupted by signal 15' "$T/stderr" || fail "no interrupted line: $(cat "$T/stderr")"
expect_eq "$(q "SELECT count(*) || ' ' || min(status) FROM run")" "1 complete" "the spoiled try is kept"

# 4. The host busy throughout (spin loops on every CPU, killed when the collect
# ends and by timeout within 120 s): host-busy, read by the quiet check too.
rm -f "$DB" "$T/smi/busy.csv"
spinners=()
stop_spinners() {
	for p in "${spinners[@]}"; do kill "$p" 2>/dev/null || true; done
	collect_cleanup
}
trap stop_spinners EXIT
for _ in $(seq 1 $(( $(nproc) * 2 ))); do
	timeout 120 sh -c 'while :; do :; done' &
	spinners+=("$!")
done
# (each request 300 ms: host-busy judges a window of 0.5 s at least)
TPSDB_HOST_BUSY_PCT=50 run_tpsdb collect --engine ours="$FS" --engine aa="$FS" --ours ours \
	--engine-args "ours=--delay-ms 300" --engine-args "aa=--delay-ms 300" --prompts "$PROMPTS" \
	--reps 1 --warmup 0 --n-predict 16 --until-decided --quiet --model tiny="$MODEL" \
	--wait-quiet 1 --max-spoiled 2 --port $((port + 30)) --out-dir "$OUT/4"
for p in "${spinners[@]}"; do kill "$p" 2>/dev/null || true; done
expect_eq "$rc" 1 "exit status (the host kept busy)"
expect_no_orphans
expect_match "$(grep 'still busy' "$T/stderr")" \
	"^tpsdb: warning: round 1/10 tiny / ours / base: still busy after 1 s \(other processes used [0-9]+% of the CPUs\); measuring it again anyway$" \
	"the quiet check read the host busy"
expect_match "$(tail -n 1 "$T/stderr")" \
	"^tpsdb: warning: model tiny stopped: host-busy on 2 tries in a row \(host busy: other processes used [0-9]+% of [0-9]+ CPUs while it measured .*\); its cells stay open$" \
	"the stop line names host-busy"
echo ok
