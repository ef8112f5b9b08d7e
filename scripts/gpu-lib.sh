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
}

# log <words>: one line, after the seconds since the script started, on stderr and
# in $out/steps.log.
log() { printf '[%4ds] %s\n' "$SECONDS" "$*" | tee -a "$out/steps.log" >&2; }

# gpu_build_start: records the GPU, unpacks the llama.cpp source into $work/src and
# starts the build of llama-server with CUDA (sm_90) in the background, its output
# in $work/build.log. gpu_build_wait waits for it: on a failure the log's tail goes
# to $out/build-tail.log and the script exits 1.
gpu_build_start() {
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
	gpu_build_pid=$!
}

gpu_build_wait() {
	if ! wait "$gpu_build_pid"; then
		tail -30 "$work/build.log" >"$out/build-tail.log"
		log "llama-server build failed"
		exit 1
	fi
	log "llama-server built: $("$server" --version 2>&1 | tail -1)"
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
