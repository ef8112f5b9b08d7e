#!/usr/bin/env bash
# scripts/gpu-guards.sh: the environment guards on a CUDA machine (issue 16's proof).
# Run from the repository root with .gpu/ filled by scripts/gpu-bundle.sh, in two
# steps that fit one device call each:
#   scripts/gpu-guards.sh build   as 'scripts/gpu-rounds.sh build' (CUDA llama-server
#                                 and the Llama-2-7B-shaped model, into $WORK), plus
#                                 a small CUDA program that keeps every SM busy
#   scripts/gpu-guards.sh run     four collects of the same server and model, each a
#                                 batch of its own, one prompt, n_predict 64:
#                                   clean      nothing else on the GPU
#                                   contended  while the busy program computes on
#                                              the same GPU (gpu-contended)
#                                   partial    --engine-args "-ngl 8" (partial-offload)
#                                   kvhost     --engine-args "--no-kv-offload" (kv-on-host)
#                                 then 'check --json' and the compares against clean;
#                                 the store is exported to $OUT/gpu-guards.jsonl after
#                                 every collect, so a cut-off call still brings back
#                                 what it measured
# $WORK (default /tmp/gpu-rounds, shared with gpu-rounds.sh) survives between the calls
# on a warm machine; $OUT (default /tmp/gpu-guards-out) receives the logs, the
# server log lines tpsdb reads and the export.
set -euo pipefail
. "$(dirname "$0")/gpu-lib.sh"
gpu_init /tmp/gpu-guards-out /tmp/gpu-rounds
step=${1:-}
build() {
	GPU_DIR=$g OUT=$out WORK=$work scripts/gpu-rounds.sh build
	log "building the busy program"
	busy_build
	log "busy program built"
}

# collect <label> <tag> [extra collect args]: one batch of one engine.
collect() {
	local label=$1 tag=$2 rc=0
	shift 2
	log "collect $label"
	"$tpsdb" --db "$db" collect --engine "$label=$server" --ours "$label" \
		--model m7b="$work/m7b.gguf" --prompts "$work/prompt1.txt" --reps 1 \
		--n-predict 64 --tag "$tag" --quiet --load-timeout 900 \
		--out-dir "$work/logs-$label" "$@" >"$out/collect-$label.txt" \
		2>"$out/collect-$label.err" || rc=$?
	log "collect $label exit $rc"
	grep -hE 'offloaded|KV buffer|graphs reused|load time' "$work/logs-$label"/*.log \
		2>/dev/null | head -40 >"$out/log-$label.txt" || true
	"$tpsdb" --db "$db" export --format jsonl >"$out/gpu-guards.jsonl"
}

run() {
	[ -x "$server" ] && [ -s "$work/m7b.gguf" ] && [ -x "$busy" ] ||
		{ log "no build in $work: run 'scripts/gpu-guards.sh build' first"; exit 1; }
	cat >"$work/prompt1.txt" <<'EOP'
# One prompt kind.
## code
Write a C function that parses an ISO 8601 date and returns the day of the week.
EOP
	db="$out/gpu-guards.sqlite"
	rm -f "$db" "$db-wal" "$db-shm"
	cat "$work/m7b.gguf" >/dev/null
	nvidia-smi --query-gpu=index,uuid,utilization.gpu,clocks.sm,clocks.mem \
		--format=csv >"$out/gpu-idle.csv" 2>&1 || true
	collect clean guard-clean
	"$busy" 240 &
	local bpid=$!
	sleep 3
	nvidia-smi --query-compute-apps=pid,gpu_uuid,used_memory --format=csv \
		>"$out/compute-apps.csv" 2>&1 || true
	collect contended guard-contended
	kill "$bpid" 2>/dev/null || true
	wait "$bpid" 2>/dev/null || true
	collect partial guard-partial --engine-args "partial=-ngl 8"
	collect kvhost guard-kvhost --engine-args "kvhost=--no-kv-offload"
	"$tpsdb" --db "$db" check --json >"$out/check.json" 2>&1 || true
	for vs in contended partial kvhost; do
		"$tpsdb" --db "$db" compare --ours "$vs" --vs clean >"$out/compare-$vs.txt" 2>&1 || true
	done
	"$tpsdb" --db "$db" runs >"$out/runs.txt" 2>&1 || true
	log "exported $(wc -l <"$out/gpu-guards.jsonl") lines to $out/gpu-guards.jsonl"
}

case $step in
build) build ;;
run) run ;;
*) echo "usage: scripts/gpu-guards.sh build|run" >&2; exit 2 ;;
esac
