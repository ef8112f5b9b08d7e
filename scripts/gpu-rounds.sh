#!/usr/bin/env bash
# scripts/gpu-rounds.sh: the sequential-stopping proof on a CUDA machine (issue 10's
# "Proof on the GPU"). Run from the repository root with .gpu/ filled by
# scripts/gpu-bundle.sh, in two steps that fit one device call each:
#   scripts/gpu-rounds.sh build   builds llama-server with CUDA (sm_90) while it
#                                 writes the Llama-2-7B-shaped random-weight model
#                                 (as scripts/gpu-proof.sh does), into $WORK
#   scripts/gpu-rounds.sh run     one 'collect --until-decided --max-rounds 10' over
#                                 three labels of the base cell: ours = llama-server,
#                                 llama.cpp = the same binary (the A/A pair) and
#                                 nograph = the same binary with
#                                 GGML_CUDA_DISABLE_GRAPHS=1 (a real small
#                                 regression); 3 prompts x $REPS reps (default 1:
#                                 3 requests an instance, near the cheapest design
#                                 'tpsdb plan' finds on the H200), n_predict 128;
#                                 then compare --json of ours against each, and the
#                                 store exported to $OUT/gpu-rounds.jsonl
# $WORK (default /tmp/gpu-rounds) survives between the calls on a warm machine; $OUT
# (default /tmp/gpu-rounds-out) receives the logs, collect's output and the export.
# Budget: an instance is ~10 s of model load from the page cache plus 7 requests of
# 128 tokens at ~195 tok/s (~5 s), so 10 rounds of 3 instances take ~7.5 minutes.
set -euo pipefail
. "$(dirname "$0")/gpu-lib.sh"
gpu_init /tmp/gpu-rounds-out /tmp/gpu-rounds
step=${1:-}

build() {
	rm -rf "$work/src"
	gpu_build_start
	log "writing the model"
	PYTHONPATH="$g/gguf-py" python3 scripts/tiny-model.py "$work/m7b.gguf" --shape llama2-7b \
		--vocab "$g/ggml-vocab-llama-spm.gguf" >"$work/model.log" 2>&1
	log "model: $(du -h "$work/m7b.gguf" | cut -f1)"
	gpu_build_wait
}

run() {
	[ -x "$server" ] && [ -s "$work/m7b.gguf" ] ||
		{ log "no build in $work: run 'scripts/gpu-rounds.sh build' first"; exit 1; }
	# The regression: the same binary without CUDA graphs.
	printf '#!/bin/sh\nGGML_CUDA_DISABLE_GRAPHS=1 exec "%s" "$@"\n' "$server" >"$work/nograph"
	chmod +x "$work/nograph"
	gpu_prompts "$work/prompts.txt" "# Three of the prompt kinds."
	local db="$out/gpu-rounds.sqlite"
	rm -f "$db" "$db-wal" "$db-shm"
	# Warm the page cache so that round 1's first load is not the odd one out.
	cat "$work/m7b.gguf" >/dev/null
	log "collect --until-decided --max-rounds 10: ours, llama.cpp (A/A), nograph"
	local rc=0
	"$tpsdb" --db "$db" collect --engine ours="$server" --engine llama.cpp="$server" \
		--engine nograph="$work/nograph" --ours ours --model m7b="$work/m7b.gguf" \
		--prompts "$work/prompts.txt" --reps "${REPS:-1}" --n-predict 128 --until-decided \
		--max-rounds 10 --tag gpu-rounds --quiet --load-timeout 900 \
		--out-dir "$work/logs" >"$out/collect.txt" 2>"$out/collect.err" || rc=$?
	log "collect exit $rc"
	grep -E '^(decided|open|until-decided|rounds):' "$out/collect.txt" || true
	local batch
	batch=$(sed -n 's/^rounds: .*: batch //p' "$out/collect.txt")
	for vs in llama.cpp nograph; do
		echo "== compare --ours ours --vs $vs --batch $batch --json"
		"$tpsdb" --db "$db" compare --ours ours --vs "$vs" --batch "$batch" --json |
			tee "$out/compare-$vs.json" || true
	done
	"$tpsdb" --db "$db" runs >"$out/runs.txt" 2>&1 || true
	"$tpsdb" --db "$db" export --format jsonl >"$out/gpu-rounds.jsonl"
	log "exported $(wc -l <"$out/gpu-rounds.jsonl") lines to $out/gpu-rounds.jsonl"
}

case $step in
build) build ;;
run) run ;;
*) echo "usage: scripts/gpu-rounds.sh build|run" >&2; exit 2 ;;
esac
