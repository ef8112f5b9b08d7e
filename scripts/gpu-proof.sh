#!/usr/bin/env bash
# scripts/gpu-proof.sh: the GPU proof recorded in docs/PERFORMANCE.md. Run on a
# CUDA machine from the repository root, with .gpu/ holding the llama.cpp source
# (src.tgz, from node-llama-cpp 3.21.1), gguf-py, the llama-spm vocab and a tpsdb
# binary with its libraries (scripts/gpu-bundle.sh makes it). It builds llama-server
# with CUDA while it writes a ~7B random-weight model, then collects two engine
# labels (base + an n_max 1,2,3 sweep with synthetic acceptance), an A/A restart
# with --warmup 0, calibrates the noise floor and exports everything to $OUT.
set -euo pipefail
. "$(dirname "$0")/gpu-lib.sh"
gpu_init /tmp/gpu-proof-out /tmp/gpu-proof

gpu_build_start

log "writing the models"
PYTHONPATH="$g/gguf-py" python3 scripts/tiny-model.py "$work/m7b.gguf" --shape llama2-7b \
	--vocab "$g/ggml-vocab-llama-spm.gguf" >"$work/model.log" 2>&1
PYTHONPATH="$g/gguf-py" python3 scripts/tiny-model.py "$work/draft.gguf" \
	--vocab "$g/ggml-vocab-llama-spm.gguf" >>"$work/model.log" 2>&1
log "models: $(du -h "$work/m7b.gguf" | cut -f1) target, $(du -h "$work/draft.gguf" | cut -f1) drafter"
gpu_build_wait

gpu_prompts "$work/prompts.txt" "# Three of the prompt kinds, to fit the proof into one device call."
printf 'm7b | %s |\n' "$work/m7b.gguf" >"$work/models.txt"
printf 'm7b | %s | --spec-type draft-simple -md %s -ngld 99 --spec-synth-rates 0.9,0.8,0.7 | 1,2,3\n' \
	"$work/m7b.gguf" "$work/draft.gguf" >"$work/spec.txt"

db="$out/gpu.sqlite"
common=(--prompts "$work/prompts.txt" --reps 1 --tag gpu-proof --quiet --load-timeout 900)
log "collect: ours + llama.cpp, base + n_max 1,2,3"
"$tpsdb" --db "$db" collect --engine ours="$server" --engine llama.cpp="$server" --ours ours \
	--models "$work/models.txt" --spec-manifest "$work/spec.txt" "${common[@]}" \
	--out-dir "$work/logs" >"$out/collect.txt" 2>&1 || log "collect exit $?"
log "collect: A/A restart of ours, base, --warmup 0"
"$tpsdb" --db "$db" collect --engine ours="$server" --ours ours --models "$work/models.txt" \
	--warmup 0 "${common[@]}" --out-dir "$work/logs-aa" >"$out/collect-aa.txt" 2>&1 ||
	log "collect A/A exit $?"
log "analysis"
{
	"$tpsdb" --db "$db" runs || true
	"$tpsdb" --db "$db" calibrate --engine ours || true
	"$tpsdb" --db "$db" compare --ours ours --vs llama.cpp || true
	"$tpsdb" --db "$db" sweep || true
	"$tpsdb" --db "$db" check || true
} >"$out/analysis.txt" 2>&1
"$tpsdb" --db "$db" export --format jsonl >"$out/gpu-proof.jsonl"
cp "$work/build.log" "$out/build.log" 2>/dev/null || true
log "done"
