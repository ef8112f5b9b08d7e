# scripts/gpu-lib.sh: what the GPU proof scripts (gpu-proof.sh, gpu-rounds.sh,
# gpu-guards.sh) share, sourced by each from the repository root: the paths of the
# bundle, the output and the work folder, log(), the CUDA build of llama-server
# from .gpu/src.tgz that runs while the caller writes its model, and the three
# prompts. Defines functions and variables only; it runs nothing when sourced.

# gpu_init <out> <work>: the bundle $g (GPU_DIR, default .gpu), the output folder
# $out (OUT, default <out>) and the work folder $work (WORK, default <work>), both
# made; CUDA on PATH; $tpsdb, the bundle's binary, and $server, where the build
# puts llama-server.
gpu_init() {
	g=${GPU_DIR:-.gpu}
	out=${OUT:-$1}
	work=${WORK:-$2}
	mkdir -p "$out" "$work"
	export PATH=/usr/local/cuda/bin:$PATH
	tpsdb="$PWD/$g/tpsdb"
	server="$work/build/bin/llama-server"
	busy="$work/gpu-busy"
}

# log <words>: one line, after the seconds since the script started, on stderr and
# in $out/steps.log.
log() { printf '[%4ds] %s\n' "$SECONDS" "$*" | tee -a "$out/steps.log" >&2; }

# gpu_build_start [<source tgz> <name> <jobs>]: records the GPU, unpacks the llama.cpp
# source (default $g/src.tgz) into $work/src[-<name>] and starts the build of
# llama-server with CUDA (sm_90) in the background into $work/build[-<name>], its
# output in $work/build[-<name>].log. gpu_build_wait waits for every build started:
# on a failure the log's tail goes to $out/build-tail.log and the script exits 1.
gpu_build_pids=()
gpu_build_start() {
	local tgz=${1:-$g/src.tgz} sfx=${2:+-$2} jobs=${3:-$(nproc)}
	nvidia-smi >"$out/nvidia-smi.txt" 2>&1 || true
	log "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
	mkdir -p "$work/src$sfx"
	tar xzf "$tgz" -C "$work/src$sfx"
	log "building llama-server$sfx (CUDA, sm_90) in the background"
	(
		cmake -S "$work/src$sfx" -B "$work/build$sfx" -G Ninja -DCMAKE_BUILD_TYPE=Release \
			-DBUILD_SHARED_LIBS=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
			-DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON -DLLAMA_BUILD_APP=OFF \
			-DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF \
			-DLLAMA_LLGUIDANCE=OFF -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 &&
		cmake --build "$work/build$sfx" --target llama-server -j"$jobs"
	) >"$work/build$sfx.log" 2>&1 &
	gpu_build_pids+=("$!:$sfx")
}

gpu_build_wait() {
	local p sfx
	for p in "${gpu_build_pids[@]}"; do
		sfx=${p#*:}
		if ! wait "${p%%:*}"; then
			tail -30 "$work/build$sfx.log" >"$out/build-tail$sfx.log"
			log "llama-server$sfx build failed"
			exit 1
		fi
		log "llama-server$sfx built: $("$work/build$sfx/bin/llama-server" --version 2>&1 | tail -1)"
	done
	gpu_build_pids=()
}

# busy_build: $busy (gpu_init sets it), a second compute process: kernels over
# every SM, each ~0.1 s, for $1 seconds at most (its caller kills it sooner).
busy_build() {
	cat >"$work/gpu-busy.cu" <<'EOC'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
__global__ void spin(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = x[i];
	for (int k = 0; k < n; k++)
		v = v * 1.0000001f + 0.5f;
	x[i] = v;
}
int main(int argc, char **argv)
{
	time_t end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 300);
	float *x;
	if (cudaMalloc(&x, 4096 * 256 * sizeof(float)) != cudaSuccess)
		return 1;
	cudaMemset(x, 0, 4096 * 256 * sizeof(float));
	while (time(NULL) < end) {
		spin<<<4096, 256>>>(x, 20000);
		cudaDeviceSynchronize();
	}
	return 0;
}
EOC
	nvcc -O2 -arch=sm_90 -o "$busy" "$work/gpu-busy.cu"
}

# gpu_prompts <file> <comment>: three of the prompt kinds (code, explanation, math)
# into file, under the comment line.
gpu_prompts() {
	printf '%s\n' "$2" >"$1"
	cat >>"$1" <<'EOP'
## code
Write a C function that parses an ISO 8601 date and returns the day of the week.
## explanation
Explain how a CPU cache hierarchy hides memory latency, with one worked example.
## math
A train leaves at 09:40 at 84 km/h; a second leaves the same station at 10:05 at 112 km/h. Step by step, when does the second catch up?
EOP
}
