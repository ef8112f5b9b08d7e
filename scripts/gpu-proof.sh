#!/usr/bin/env bash
# scripts/gpu-proof.sh: the GPU proof recorded in docs/PERFORMANCE.md. Run on a
# CUDA machine from the repository root, with .gpu/ holding the llama.cpp source
# (src.tgz, from node-llama-cpp 3.21.1), gguf-py, the llama-spm vocab and a tpsdb
# binary with its libraries (scripts/gpu-bundle.sh makes it). It builds llama-server
# with CUDA while it writes a ~7B random-weight model, then collects two engine
# labels (base + an n_max 1,2,3 sweep with synthetic acceptance), an A/A restart
# with --warmup 0, calibrates the noise floor and exports everything to $OUT.
set -euo pipefail
g=${GPU_DIR:-.gpu}
out=${OUT:-/tmp/gpu-proof-out}
work=${WORK:-/tmp/gpu-proof}
mkdir -p "$out" "$work"
log() { printf '[%4ds] %s\n' "$SECONDS" "$*" | tee -a "$out/steps.log" >&2; }
export PATH=/usr/local/cuda/bin:$PATH
tpsdb="$PWD/$g/tpsdb"

nvidia-smi >"$out/nvidia-smi.txt" 2>&1 || true
log "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"

mkdir -p "$work/src"
tar xzf "$g/src.tgz" -C "$work/src"
log "building llama-server (CUDA, sm_90) in the background"
(
	cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
		-DBUILD_SHARED_LIBS=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
		-DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON -DLLAMA_BUILD_APP=OFF \
		-DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF \
		-DLLAMA_LLGUIDANCE=OFF -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 &&
	cmake --build "$work/build" --target llama-server -j"$(nproc)"
) >"$work/build.log" 2>&1 &
build=$!

log "writing the models"
PYTHONPATH="$g/gguf-py" python3 scripts/tiny-model.py "$work/m7b.gguf" --shape llama2-7b \
	--vocab "$g/ggml-vocab-llama-spm.gguf" >"$work/model.log" 2>&1
PYTHONPATH="$g/gguf-py" python3 scripts/tiny-model.py "$work/draft.gguf" \
	--vocab "$g/ggml-vocab-llama-spm.gguf" >>"$work/model.log" 2>&1
log "models: $(du -h "$work/m7b.gguf" | cut -f1) target, $(du -h "$work/draft.gguf" | cut -f1) drafter"
if ! wait "$build"; then
	tail -30 "$work/build.log" >"$out/build-tail.log"
	log "llama-server build failed"
	exit 1
fi
server="$work/build/bin/llama-server"
log "llama-server built: $("$server" --version 2>&1 | tail -1)"

cat >"$work/prompts.txt" <<'EOP'
# Three of the prompt kinds, to fit the proof into one device call.
## code
Write a C function that parses an ISO 8601 date and returns the day of the week.
## explanation
Explain how a CPU cache hierarchy hides memory latency, with one worked example.
## math
A train leaves at 09:40 at 84 km/h; a second leaves the same station at 10:05 at 112 km/h. Step by step, when does the second catch up?
EOP
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
