#!/usr/bin/env bash
# scripts/gpu-versions.sh: two real llama.cpp versions on a CUDA machine (issue 26's
# proof). Run from the repository root with .gpu/ filled by scripts/gpu-bundle.sh
# (src.tgz: v0.4.0 from node-llama-cpp 3.21.1; src-b8390.tgz: b8390 from 3.18.1),
# in steps that fit one device call each:
#   scripts/gpu-versions.sh build  builds both llama-servers with CUDA (sm_90) side
#                                  by side while it writes the Llama-2-7B-shaped
#                                  random-weight model and the busy program; a
#                                  build not done when the call ends is waited
#                                  for by the next step
#   scripts/gpu-versions.sh base   one 'collect --until-decided --max-rounds 8' of
#                                  the base cell: new = v0.4.0, old = b8390 and
#                                  aa = v0.4.0 again (the A/A pair), 3 prompts x 1
#                                  rep, n_predict 128; then one run of new while the
#                                  busy program computes on the same GPU (a
#                                  contended run, its own batch)
#   scripts/gpu-versions.sh seq    issue 27's proof, in a store of its own that
#                                  survives between calls ($work/seq.sqlite): one
#                                  earlier batch on the host (fixed, HIST_ROUNDS=4
#                                  rounds of new, old and aa at HIST_REPS=2 reps)
#                                  when the store has none, then BATCHES (default
#                                  1) 'collect --until-decided --max-rounds 10'
#                                  batches in the design plan finds from the store
#                                  (SEQ_REPS=n sets --reps instead), each
#                                  with its collect lines (rounds and server
#                                  seconds per cell) and a plain compare (the
#                                  newest batch, history pooled) in $OUT
#   scripts/gpu-versions.sh grow   issue 36's proof, a store that grows
#                                  ($work/grow.sqlite, kept between calls): an
#                                  earlier batch (fixed, HIST_ROUNDS=3 rounds at
#                                  HIST_REPS=2 reps), then a contended batch
#                                  (--until-decided while the busy program
#                                  computes on the same GPU: collect waits
#                                  --wait-quiet 15 s, measures again, and stops
#                                  the model after --max-spoiled 3 tries), then
#                                  clean --until-decided --max-rounds 10 batches
#                                  clean1..clean3 in the design plan finds; each
#                                  step left undone by the last call is done by
#                                  the next while GROW_UNTIL (default 480)
#                                  seconds have not passed; trend, plan and the
#                                  compares beside each batch in $OUT, the store
#                                  exported to $OUT/grow.jsonl
#   scripts/gpu-versions.sh spec   a speculative sweep n_max 1, 2, 3 of both versions
#                                  from one spec manifest line in tpsdb's terms
#                                  ('drafter=<the target itself>': acceptance 1.0
#                                  on both, so a difference at one n_max is the
#                                  per-cycle cost alone), 2 rounds
#   scripts/gpu-versions.sh matrix issue 37's proof: the whole matrix in one budget
#                                  (m1b, m3b, m7b; build with MATRIX_MODELS=1 first)
# Each step exports the whole store to $OUT/gpu-versions.jsonl when it ends (and
# after each collect), with check, compare, sweep and runs beside it, and the
# client clock against the server's timings per engine ($OUT/clock.txt).
# $WORK (default /tmp/gpu-versions) survives between the calls on a warm machine.
set -euo pipefail
. "$(dirname "$0")/gpu-lib.sh"
gpu_init /tmp/gpu-versions-out /tmp/gpu-versions
step=${1:-}
old="$work/build-b8390/bin/llama-server"
db="$out/gpu-versions.sqlite"

# CUDA_FLAGS adds cmake options to both builds (-DGGML_CUDA_FA=OFF leaves out the
# FlashAttention kernels, about a third of the build, when device time is short).
# The two builds run in their own sessions and leave <build dir>.rc when they end,
# so that a build still running when one device call ends is waited for by the
# next (wait_built, at the start of base and spec).
build_one() { # <source tgz> <build dir>
	[ -x "$2/bin/llama-server" ] && return 0
	rm -rf "$2.src" "$2.rc"
	mkdir -p "$2.src"
	tar xzf "$1" -C "$2.src"
	log "building $(basename "$2") (CUDA, sm_90) in the background"
	setsid bash -c 'cmake -S "$1.src" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=Release \
		-DBUILD_SHARED_LIBS=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
		-DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON -DLLAMA_BUILD_APP=OFF \
		-DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF \
		-DLLAMA_LLGUIDANCE=OFF -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 $3 &&
		cmake --build "$1" --target llama-server -j"$2"; echo $? >"$1.rc"' _ "$2" \
		$(( $(nproc) / 2 )) "${CUDA_FLAGS:-}" >"$2.log" 2>&1 </dev/null &
}

# wait_built [<seconds>]: until both builds left their .rc (at most <seconds>,
# default 560 since the script started); exits 1 on a failed build.
wait_built() {
	local b
	while [ ! -e "$work/build.rc" ] || [ ! -e "$work/build-b8390.rc" ]; do
		[ -x "$server" ] && [ -x "$old" ] && return 0
		[ "$SECONDS" -lt "${1:-560}" ] || { log "builds still running"; return 1; }
		sleep 5
	done
	for b in build build-b8390; do
		[ -x "$work/$b/bin/llama-server" ] && continue
		tail -30 "$work/$b.log" >"$out/$b-tail.log"
		log "$b failed"
		exit 1
	done
	log "built: $("$server" --version 2>&1 | tail -1) / $("$old" --version 2>&1 | tail -1)"
}

# write_model <label> <shape>: $work/<label>.gguf, a random-weight model of that
# shape (scripts/tiny-model.py), unless it is there.
write_model() {
	[ -s "$work/$1.gguf" ] && return 0
	log "writing $1 ($2)"
	PYTHONPATH="$g/gguf-py" python3 scripts/tiny-model.py "$work/$1.gguf.tmp" \
		--shape "$2" --vocab "$g/ggml-vocab-llama-spm.gguf" >"$work/model-$1.log" 2>&1 || return 1
	mv "$work/$1.gguf.tmp" "$work/$1.gguf"
	log "model $1: $(du -h "$work/$1.gguf" | cut -f1)"
}

build() {
	nvidia-smi >"$out/nvidia-smi.txt" 2>&1 || true
	log "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
	build_one "$g/src.tgz" "$work/build"
	build_one "$g/src-b8390.tgz" "$work/build-b8390"
	local m pids=()
	for m in m7b:llama2-7b ${MATRIX_MODELS:+m1b:llama-1b m3b:llama-3b}; do
		write_model "${m%%:*}" "${m#*:}" &
		pids+=($!)
	done
	for m in "${pids[@]}"; do wait "$m" || { log "a model was not written"; exit 1; }; done
	[ -x "$busy" ] || { busy_build; log "busy program built"; }
	wait_built || exit 0
	"$server" --help >"$out/help-v0.4.0.txt" 2>&1 || true
	"$old" --help >"$out/help-b8390.txt" 2>&1 || true
}

export_all() {
	"$tpsdb" --db "$db" export --format jsonl >"$out/gpu-versions.jsonl"
	log "exported $(wc -l <"$out/gpu-versions.jsonl") runs"
}

# The client clock beside the server's timings, per engine and cell: medians of
# the per-sample ratio client_decode_per_second / (predicted_n / predicted_ms),
# and of the engine's own predicted_per_second over the same.
clock() {
	python3 - "$out/gpu-versions.jsonl" >"$out/clock.txt" <<'PY' || true
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    r = d["run"]
    key = (r["engine"]["label"], r["engine"]["version"], r.get("n_max"))
    for s in d["samples"]:
        n, ms, c = s.get("predicted_n"), s.get("predicted_ms"), s.get("client_decode_per_second")
        if not n or not ms or c is None or s.get("error"):
            continue
        rate = n / ms * 1000
        rows.setdefault(key, []).append((c / rate, s["predicted_per_second"] / rate, c))
print("engine version n_max samples client/(n/t) self/(n/t) client_tok_s")
for k in sorted(rows, key=lambda k: (k[0], k[2] or 0)):
    v = rows[k]
    print(k[0], k[1], k[2], len(v), "%.4f" % statistics.median(x[0] for x in v),
          "%.4f" % statistics.median(x[1] for x in v), "%.1f" % statistics.median(x[2] for x in v))
PY
	cat "$out/clock.txt" >&2
}

report() {
	"$tpsdb" --db "$db" check --json >"$out/check.json" 2>&1 || true
	"$tpsdb" --db "$db" runs --json >"$out/runs.json" 2>&1 || true
	clock
}

base() {
	wait_built 400 || exit 1
	[ -x "$server" ] && [ -x "$old" ] && [ -s "$work/m7b.gguf" ] && [ -x "$busy" ] ||
		{ log "no build in $work: run 'scripts/gpu-versions.sh build' first"; exit 1; }
	gpu_prompts "$work/prompts.txt" "# Three of the prompt kinds."
	rm -f "$db" "$db-wal" "$db-shm"
	cat "$work/m7b.gguf" >/dev/null
	log "collect --until-decided --max-rounds 8: new (v0.4.0), old (b8390), aa (v0.4.0)"
	local rc=0
	"$tpsdb" --db "$db" collect --engine new="$server" --engine old="$old" --engine aa="$server" --role old=upstream \
		--ours new --model m7b="$work/m7b.gguf" --prompts "$work/prompts.txt" --reps 1 \
		--n-predict 128 --ban-byte-tokens --until-decided --max-rounds "${MAX_ROUNDS:-8}" --tag versions \
		--quiet --load-timeout 900 --out-dir "$work/logs-base" \
		>"$out/collect-base.txt" 2>"$out/collect-base.err" || rc=$?
	log "collect exit $rc"
	grep -E '^(decided|open|until-decided|rounds):' "$out/collect-base.txt" >&2 || true
	export_all
	for vs in old aa; do
		"$tpsdb" --db "$db" compare --ours new --vs "$vs" --tag versions \
			>"$out/compare-$vs.txt" 2>&1 || true
		"$tpsdb" --db "$db" compare --ours new --vs "$vs" --tag versions --json \
			>"$out/compare-$vs.json" 2>/dev/null || true
	done
	log "contended: one run of new beside the busy program"
	"$busy" 120 &
	local bpid=$!
	sleep 2
	rc=0
	"$tpsdb" --db "$db" collect --engine new="$server" --ours new --model m7b="$work/m7b.gguf" \
		--prompts "$work/prompts.txt" --reps 1 --n-predict 128 --ban-byte-tokens \
		--tag contended --quiet --load-timeout 900 --out-dir "$work/logs-contended" \
		>"$out/collect-contended.txt" 2>&1 || rc=$?
	kill "$bpid" 2>/dev/null || true
	wait "$bpid" 2>/dev/null || true
	log "contended collect exit $rc"
	export_all
	report
}

# seq_collect <tag> <collect args...>: one batch of new, old and aa into the seq
# store, its output in $out/collect-<tag>.txt.
seq_collect() {
	local tag=$1 rc=0; shift
	"$tpsdb" --db "$work/seq.sqlite" collect --engine new="$server" --engine old="$old" \
		--engine aa="$server" --role old=upstream --ours new --model m7b="$work/m7b.gguf" \
		--prompts "$work/prompts.txt" --n-predict 128 --ban-byte-tokens \
		--tag "$tag" --quiet --load-timeout 900 --out-dir "$work/logs-$tag" "$@" \
		>"$out/collect-$tag.txt" 2>"$out/collect-$tag.err" || rc=$?
	log "collect $tag exit $rc"
	grep -E '^(design|decided|open|until-decided):' "$out/collect-$tag.txt" >&2 || true
}

seq_step() {
	local i n tag
	wait_built 300 || exit 1
	[ -x "$server" ] && [ -x "$old" ] && [ -s "$work/m7b.gguf" ] ||
		{ log "no build in $work: run 'scripts/gpu-versions.sh build' first"; exit 1; }
	[ -f "$work/prompts.txt" ] || gpu_prompts "$work/prompts.txt" "# Three of the prompt kinds."
	cat "$work/m7b.gguf" >/dev/null
	if [ ! -s "$work/seq.sqlite" ]; then
		log "the earlier batch: --rounds ${HIST_ROUNDS:-4} --reps ${HIST_REPS:-2}"
		seq_collect hist --rounds "${HIST_ROUNDS:-4}" --reps "${HIST_REPS:-2}"
	fi
	n=$(find "$work" -maxdepth 1 -name "seq-done-*" | wc -l)
	for i in $(seq $((n + 1)) $((n + ${BATCHES:-1}))); do
		tag=seq$i
		log "batch $i: --until-decided --max-rounds 10"
		seq_collect "$tag" --until-decided --max-rounds 10 ${SEQ_REPS:+--reps "$SEQ_REPS"}
		touch "$work/seq-done-$i"
		for vs in old aa; do
			"$tpsdb" --db "$work/seq.sqlite" compare --ours new --vs "$vs" \
				>"$out/compare-$tag-$vs.txt" 2>&1 || true
			"$tpsdb" --db "$work/seq.sqlite" compare --ours new --vs "$vs" --json \
				>"$out/compare-$tag-$vs.json" 2>/dev/null || true
		done
	done
	"$tpsdb" --db "$work/seq.sqlite" export --format jsonl >"$out/seq.jsonl"
}

# grow_collect <tag> <collect args...>: one batch of new, old and aa into the grow
# store, what collect printed in $out/collect-<tag>.txt, then the store's answers
# as they stand (compare against old and aa, trend, plan) beside it.
grow_collect() {
	local tag=$1 rc=0 vs; shift
	local gdb="$work/grow.sqlite"
	"$tpsdb" --db "$gdb" collect --engine new="$server" --engine old="$old" \
		--engine aa="$server" --role old=upstream --ours new --model m7b="$work/m7b.gguf" \
		--prompts "$work/prompts.txt" --n-predict 128 --ban-byte-tokens \
		--tag "$tag" --load-timeout 900 --out-dir "$work/logs-$tag" "$@" \
		>"$out/collect-$tag.txt" 2>"$out/collect-$tag.err" || rc=$?
	log "collect $tag exit $rc"
	grep -E '^(design|decided|open|until-decided|spoiled):' "$out/collect-$tag.txt" >&2 || true
	grep -E 'stopped|warning' "$out/collect-$tag.err" >&2 || true
	touch "$work/grow-done-$tag"
	for vs in old aa; do
		"$tpsdb" --db "$gdb" compare --ours new --vs "$vs" >"$out/compare-$tag-$vs.txt" 2>&1 || true
		"$tpsdb" --db "$gdb" compare --ours new --vs "$vs" --json \
			>"$out/compare-$tag-$vs.json" 2>/dev/null || true
	done
	"$tpsdb" --db "$gdb" trend --engine new >"$out/trend-$tag.txt" 2>&1 || true
	"$tpsdb" --db "$gdb" plan --ours new --vs old >"$out/plan-$tag.txt" 2>&1 || true
	"$tpsdb" --db "$gdb" export --format jsonl >"$out/grow.jsonl"
}

grow() {
	local i
	wait_built 420 || exit 1
	[ -x "$server" ] && [ -x "$old" ] && [ -s "$work/m7b.gguf" ] && [ -x "$busy" ] ||
		{ log "no build in $work: run 'scripts/gpu-versions.sh build' first"; exit 1; }
	[ -f "$work/prompts.txt" ] || gpu_prompts "$work/prompts.txt" "# Three of the prompt kinds."
	cat "$work/m7b.gguf" >/dev/null
	if [ ! -e "$work/grow-done-hist" ]; then
		log "the earlier batch: --rounds ${HIST_ROUNDS:-3} --reps ${HIST_REPS:-2}"
		grow_collect hist --rounds "${HIST_ROUNDS:-3}" --reps "${HIST_REPS:-2}"
	fi
	[ "$SECONDS" -lt "${GROW_UNTIL:-480}" ] || return 0
	if [ ! -e "$work/grow-done-contended" ]; then
		log "the contended batch: the busy program on the GPU throughout"
		"$busy" 400 &
		local bpid=$!
		sleep 3
		grow_collect contended --until-decided --max-rounds 10 --wait-quiet 15 --max-spoiled 3
		kill "$bpid" 2>/dev/null || true
		wait "$bpid" 2>/dev/null || true
	fi
	for i in 1 2 3; do
		[ -e "$work/grow-done-clean$i" ] && continue
		[ "$SECONDS" -lt "${GROW_UNTIL:-480}" ] || return 0
		log "clean batch $i: --until-decided --max-rounds 10"
		grow_collect "clean$i" --until-decided --max-rounds 10
	done
}

spec() {
	wait_built 300 || exit 1
	[ -x "$server" ] && [ -x "$old" ] && [ -s "$work/m7b.gguf" ] ||
		{ log "no build in $work: run 'scripts/gpu-versions.sh build' first"; exit 1; }
	[ -f "$work/prompts.txt" ] || gpu_prompts "$work/prompts.txt" "# Three of the prompt kinds."
	printf 'm7b | %s | drafter=%s -ngld 99 | 1,2,3\n' "$work/m7b.gguf" "$work/m7b.gguf" >"$work/spec.txt"
	log "collect --dry-run: how each engine spells the line"
	"$tpsdb" --db "$db" collect --engine new="$server" --engine old="$old" --ours new \
		--model m7b="$work/m7b.gguf" --spec-manifest "$work/spec.txt" \
		--prompts "$work/prompts.txt" --dry-run >"$out/spec-dry-run.txt" 2>&1 || true
	log "collect: base + n_max 1,2,3 of new and old, 2 rounds"
	local rc=0
	"$tpsdb" --db "$db" collect --engine new="$server" --engine old="$old" --ours new \
		--model m7b="$work/m7b.gguf" --spec-manifest "$work/spec.txt" \
		--prompts "$work/prompts.txt" --reps 1 --n-predict 128 --ban-byte-tokens --rounds 2 \
		--tag spec --quiet --load-timeout 900 --out-dir "$work/logs-spec" \
		>"$out/collect-spec.txt" 2>"$out/collect-spec.err" || rc=$?
	log "collect exit $rc"
	export_all
	"$tpsdb" --db "$db" sweep --ref old --tag spec >"$out/sweep.txt" 2>&1 || true
	"$tpsdb" --db "$db" compare --ours new --vs old --tag spec >"$out/compare-spec.txt" 2>&1 || true
	report
}

# The whole matrix in one budget (issue 37): three model shapes (m1b, m3b, m7b,
# written by 'MATRIX_MODELS=1 scripts/gpu-versions.sh build') x new / old / aa,
# base, plus the speculative arm n_max 1, 2, 3 on m1b ('drafter=' the target
# itself), in one 'collect --until-decided --budget $BUDGET' (default 8m); the
# collect ends by SIGTERM at MATRIX_UNTIL seconds (default 570) should it not end
# itself. Its output, the store's export and a compare of each cell in $OUT.
matrix() {
	local m rc=0 mdb="$work/matrix.sqlite"
	wait_built 300 || exit 1
	for m in m1b m3b m7b; do
		[ -s "$work/$m.gguf" ] || { log "no $m.gguf: run 'MATRIX_MODELS=1 scripts/gpu-versions.sh build'"; exit 1; }
		cat "$work/$m.gguf" >/dev/null
	done
	[ -f "$work/prompts.txt" ] || gpu_prompts "$work/prompts.txt" "# Three of the prompt kinds."
	printf 'm1b | %s | drafter=%s -ngld 99 | 1,2,3\n' "$work/m1b.gguf" "$work/m1b.gguf" >"$work/matrix-spec.txt"
	rm -f "$mdb" "$mdb-wal" "$mdb-shm"
	log "matrix: m1b, m3b, m7b x new, old, aa; spec n_max 1-3 on m1b; --budget ${BUDGET:-8m}"
	timeout -s TERM $(( ${MATRIX_UNTIL:-570} - SECONDS )) \
		"$tpsdb" --db "$mdb" collect --engine new="$server" --engine old="$old" --engine aa="$server" \
		--role old=upstream --ours new --model m1b="$work/m1b.gguf" --model m3b="$work/m3b.gguf" \
		--model m7b="$work/m7b.gguf" --spec-manifest "$work/matrix-spec.txt" \
		--prompts "$work/prompts.txt" --n-predict 128 --ban-byte-tokens --until-decided \
		--max-rounds 10 --budget "${BUDGET:-8m}" --tag matrix --load-timeout 300 \
		--out-dir "$work/logs-matrix" >"$out/collect-matrix.txt" 2>"$out/collect-matrix.err" || rc=$?
	log "collect exit $rc"
	sed -n '/^matrix:/,$p' "$out/collect-matrix.txt" >&2 || true
	"$tpsdb" --db "$mdb" export --format jsonl >"$out/matrix.jsonl" || true
	for m in m1b m3b m7b; do
		for vs in old aa; do
			"$tpsdb" --db "$mdb" compare --ours new --vs "$vs" --model "$m" --tag matrix \
				>>"$out/compare-matrix.txt" 2>&1 || true
		done
	done
	"$tpsdb" --db "$mdb" sweep --ref old --tag matrix >"$out/sweep-matrix.txt" 2>&1 || true
	log "matrix done"
}

case $step in
build) build ;;
matrix) matrix ;;
base) base ;;
spec) spec ;;
seq) seq_step ;;
grow) grow ;;
*) echo "usage: scripts/gpu-versions.sh build|base|spec|seq|grow|matrix" >&2; exit 2 ;;
esac
