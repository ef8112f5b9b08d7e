#!/usr/bin/env bash
# t0903-collect-gpu-fake.sh: the GPU facts come from nvidia-smi's query interface,
# here a stand-in on PATH (tests/data/env/fake-nvidia-smi; the real lines are the
# H200's). Another compute process on the run's GPU, or a GPU busy while the
# loaded server sits idle, makes gpu-contended (a process on another GPU does not,
# nor a busy reading before the start that settles once the server is loaded: the
# previous instance's tail; a reading that stays busy through the idle check
# does), a power or thermal
# throttle reason while it measured gpu-throttled (gpu-idle does not), an SM clock
# that moved while it computed clocks-changed; a quiet GPU gets none but its
# samples; the renamed throttle field of newer drivers still works; a failing or
# missing nvidia-smi is no error and records no GPU, and neither is one that never
# answers (a wedged driver): it is stopped at its deadline and the run goes on.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port 130)
need jq pgrep
export TPSDB_HOST_BUSY_PCT=100
mkdir -p "$T/smi" "$T/bin"
cp "$TPSDB_SRC/tests/data/env/fake-nvidia-smi" "$T/bin/nvidia-smi"
export FAKE_SMI_DIR=$T/smi FAKE_SMI_MATCH=$T/
U=GPU-126aafaa-0ab6-8564-0efb-4bc7fb502cc3
n=0
collect_one() { # <engine> : one run with the fake on PATH, kept as it was measured
	# (--wait-quiet 0: a shared GPU is recorded here, not waited out; t0907 waits)
	n=$((n + 1))
	rm -f "$T/smi/asked"
	PATH=$T/bin:$PATH run_tpsdb collect --engine "$1"="$FS" --engine-args "$1"="--delay-ms 150" \
		--model tiny="$MODEL" --prompts "$PROMPTS" --reps 2 --warmup 1 --n-predict 32 \
		--port $((port + 10 * n)) --out-dir "$OUT" --quiet --wait-quiet 0
	expect_eq "$rc" 0 "collect $1"
	[ ! -s "$T/stderr" ] || fail "collect $1 said: $(cat "$T/stderr")"
}
# The findings every reader derives from the stored facts (check's, as compare's),
# then the GPU facts; the stored env_flags column stays 0 for a collected run.
env_of() {
	"$TPSDB_BIN" --db "$DB" check --engine "$1" --json >"$T/env.json" || true
	kinds=$(jq -r '[.findings[] | select(.kind | test("^(gpu|clocks|host|partial|kv)")) | .kind]
		| join(",") | if . == "" then "-" else . end' "$T/env.json")
	echo "$kinds $(q "SELECT env_flags || ' ' || ifnull(json_extract(env, '$.gpu'), 'none') FROM run r
	JOIN engine e ON e.id=r.engine_id WHERE e.label='$1'")"
}

# 1. Shared, throttled, clocks moving.
echo "0, $U, 35, 1980, 3201, 40, 120.5, 0x0000000000000000" >"$T/smi/before.csv"
printf '0, %s, 99, 1980, 3201, 60, 500.1, 0x0000000000000000\n0, %s, 98, 1410, 3201, 85, 699.0, 0x0000000000000024\n1, GPU-b, 0, 345, 3201, 30, 70, 0x1\n' \
	"$U" "$U" >"$T/smi/during.csv"
printf 'SERVER, %s\n4242, %s\n5151, GPU-b\n' "$U" "$U" >"$T/smi/apps.csv"
echo "1, GPU-b, 0, 345, 3201, 30, 70, 0x1" >>"$T/smi/before.csv"
collect_one spoiled
expect_eq "$(env_of spoiled | cut -d' ' -f1,2)" "gpu-contended,gpu-throttled,clocks-changed 0" \
	"findings from the facts, none stored"
g=$(q "SELECT json_extract(env, '$.gpu') FROM run ORDER BY id DESC LIMIT 1")
expect_eq "$(echo "$g" | jq -c '[.index, .util_before, .util_idle, .other_procs, .other_pids, .sm_clock_min, .sm_clock_max, .temp_max, .power_max, .throttle, .throttle_reasons]')" \
	'[0,35,35,1,[4242],1410,1980,85,699,"sw-power-cap, sw-thermal","0x24"]' "GPU facts"
[ "$(echo "$g" | jq '.samples > 0')" = true ] || fail "no GPU samples: $g"
ls "$OUT"/*.gpu.csv >/dev/null || fail "no sampler file beside the log"
rc=0
"$TPSDB_BIN" --db "$DB" check --json >"$T/check.json" || rc=$?
expect_eq "$(jq -r '[.findings[] | .kind] | join(",")' "$T/check.json")" \
	"gpu-contended,gpu-throttled,clocks-changed" "kinds"
expect_eq "$(jq -r '.findings[] | select(.kind == "gpu-contended") | .detail' "$T/check.json")" \
	"GPU shared: 1 other compute process(es) on the run's GPU, utilisation 35% while the loaded server sat idle" \
	"contended detail"
[ "$(echo "$g" | jq '.idle_wait_ms >= 3000')" = true ] || fail "a busy GPU was not read for the whole idle check: $g"

# 1b. The previous instance's tail: busy before the start, idle once the server is
# loaded, no other process: no finding (the reading before the start is kept).
echo "0, $U, 37, 1980, 3201, 40, 120.5, 0x0000000000000000" >"$T/smi/before.csv"
echo "0, $U, 0, 1980, 3201, 40, 80.5, 0x0000000000000000" >"$T/smi/idle.csv"
printf '0, %s, 97, 1980, 3201, 50, 600, 0x0000000000000000\n' "$U" >"$T/smi/during.csv"
printf 'SERVER, %s\n' "$U" >"$T/smi/apps.csv"
collect_one tail
expect_eq "$(env_of tail | cut -d' ' -f1)" - "the previous instance's tail is no finding"
g=$(q "SELECT json_extract(env, '$.gpu') FROM run ORDER BY id DESC LIMIT 1")
expect_eq "$(echo "$g" | jq -c '[.util_before, .util_idle, .idle_wait_ms < 3000]')" '[37,0,true]' \
	"tail facts: settled at the first idle read"
# 1c. A job that keeps the GPU busy through the idle check, with no process the
# driver shows (another container): gpu-contended.
echo "0, $U, 64, 1980, 3201, 40, 300.5, 0x0000000000000000" >"$T/smi/idle.csv"
collect_one hidden
expect_eq "$(env_of hidden | cut -d' ' -f1)" gpu-contended "a GPU busy while the server sat idle"
rm -f "$T/smi/idle.csv"
expect_eq "$(jq -r '.findings[] | select(.kind == "clocks-changed") | .detail' "$T/check.json")" \
	"clocks changed while it computed: SM 1410-1980 MHz, memory 3201-3201 MHz" "clocks detail"

# 2. A quiet GPU, on a driver that renamed the throttle field.
touch "$T/smi/new-driver"
echo "0, $U, 0, 345, 3201, 36, 78.9, 0x0000000000000001" >"$T/smi/before.csv"
printf '0, %s, 97, 1980, 3201, 50, 600, 0x0000000000000000\n0, %s, 0, 1980, 3201, 50, 90, 0x0000000000000001\n' \
	"$U" "$U" >"$T/smi/during.csv"
printf 'SERVER, %s\n' "$U" >"$T/smi/apps.csv"
collect_one quiet
expect_eq "$(env_of quiet | cut -d' ' -f1)" - "a quiet GPU has no finding"
expect_eq "$(q "SELECT json_extract(env, '$.gpu.other_procs') || ' ' || json_extract(env, '$.gpu.util_before')
	|| ' ' || json_extract(env, '$.gpu.sm_clock_min') FROM run ORDER BY id DESC LIMIT 1")" "0 0 1980" \
	"quiet GPU facts"

# 3. nvidia-smi fails, then is absent: no GPU recorded, no error.
touch "$T/smi/broken"
collect_one broken
expect_eq "$(env_of broken)" "- 0 none" "broken nvidia-smi"
run_tpsdb collect --engine none="$FS" --model tiny="$MODEL" --prompts "$PROMPTS" --reps 1 \
	--warmup 1 --n-predict 32 --port $((port + 60)) --out-dir "$OUT"
expect_eq "$rc" 0 "collect without nvidia-smi"
expect_eq "$(env_of none)" "- 0 none" "no nvidia-smi"
expect_no_orphans
pgrep -f "$T/bin/nvidia-smi" >/dev/null && fail "a GPU sampler outlived tpsdb"

# 4. An nvidia-smi that never answers: stopped at its deadline (10 s a call; after
# the first silence none is asked again), the run measured without GPU facts.
mkdir -p "$T/hang"
printf '#!/bin/sh
exec sleep 1000
' >"$T/hang/nvidia-smi"
chmod +x "$T/hang/nvidia-smi"
t0=$(date +%s)
PATH=$T/hang:$PATH run_tpsdb collect --engine hung="$FS" --model tiny="$MODEL" \
	--prompts "$PROMPTS" --reps 1 --warmup 1 --n-predict 32 --port $((port + 70)) --out-dir "$OUT"
took=$(( $(date +%s) - t0 ))
expect_eq "$rc" 0 "collect beside a hung nvidia-smi"
expect_eq "$(env_of hung)" "- 0 none" "no GPU facts from a hung nvidia-smi"
[ "$took" -lt 120 ] || fail "collect waited ${took}s on a hung nvidia-smi"
pgrep -f "$T/hang/nvidia-smi" >/dev/null && fail "a hung nvidia-smi outlived its deadline"
echo ok
