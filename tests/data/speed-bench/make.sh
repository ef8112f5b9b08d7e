#!/usr/bin/env bash
# tests/data/speed-bench/make.sh: remakes this folder's fixtures by running the real
# speed_bench.py of llama.cpp (tools/server/bench/speed-bench/, from the source that
# scripts/llama-server.sh builds) against the real CPU llama-server on the tiny model,
# twice plain and twice with the tiny model as its own drafter. Its dataset loader is
# answered by stub/datasets.py from prompts.json (the `datasets` package and the
# Hugging Face hub are out of reach here); `requests` and `tqdm` are Debian's.
# Usage: tests/data/speed-bench/make.sh <llama.cpp source dir> [<out dir>]
# ONLY="name ..." remakes only those files.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${1:?usage: make.sh <llama.cpp source dir> [<out dir>]}
out=${2:-$here}
root=$(cd "$here/../../.." && pwd)
llama=$("$root/scripts/llama-server.sh" | tail -n 1)
model=${TPSDB_TINY_MODEL:-$HOME/.cache/tpsdb/tpsdb-collect-tiny-F16.gguf}
bench=$src/tools/server/bench/speed-bench/speed_bench.py
port=${PORT:-18931}
pid=

stop() { if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=; fi; }
trap stop EXIT

# serve NAME EXTRA_INPUTS ARGS...: one server instance, one speed_bench.py run, one file.
serve() {
	local name=$1 extra=$2; shift 2
	case " ${ONLY:-$name} " in *" $name "*) ;; *) return 0 ;; esac
	"$llama/bin/llama-server" -m "$model" --port "$port" -c 2048 -np 1 -t 1 "$@" \
		>"$out/$name.server.log" 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		curl -sf "http://127.0.0.1:$port/health" >/dev/null && break
		sleep 0.2
	done
	PYTHONPATH="$here/stub" /usr/bin/python3 "$bench" --url "127.0.0.1:$port" \
		--bench qualitative --category all --osl 32 --concurrency 1 \
		--extra-inputs "$extra" --output "$out/$name.json"
	stop
	rm -f "$out/$name.server.log"
}

greedy='{"temperature":0,"ignore_eos":true}'
# Sampled: the target draws at temperature 1 and rejects most of the greedy drafts.
hot='{"temperature":1.0,"seed":7,"ignore_eos":true}'
spec=(--spec-type draft-simple -md "$model" --spec-draft-n-max 4)
serve plain-1 "$greedy"
serve plain-2 "$greedy"
serve spec-1 "$greedy" "${spec[@]}"
serve spec-2 "$greedy" "${spec[@]}"
serve hot-1 "$hot" "${spec[@]}"
serve hot-2 "$hot" "${spec[@]}"
