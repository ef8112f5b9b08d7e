#!/usr/bin/env bash
# bench_collect.sh: the collector's own costs. (1) Client overhead per request
# against a real CPU llama-server on loopback: wall_ms minus prompt_ms and
# predicted_ms, median over the samples. (2) Readiness latency: from /health
# turning 200 (tests/fault_server.py's slow-load flip) to the collector seeing it.
# Usage: bench/bench_collect.sh [<build dir>] [<reps>]   (default ./build, 5 reps)
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
reps=${2:-5}
tpsdb=$build/tpsdb
[ -x "$tpsdb" ] && [ -x "$build/bench_collect_ready" ] ||
	{ echo "bench_collect.sh: build tpsdb and bench_collect_ready in $build first" >&2; exit 2; }
t=$(mktemp -d "${TMPDIR:-/tmp}/tpsdb-bench-collect.XXXXXX")
trap 'rm -rf "$t"' EXIT

llama=$("$src/scripts/llama-server.sh" | tail -n 1)
cache=${TPSDB_CACHE:-$HOME/.cache/tpsdb}
tiny=$cache/tpsdb-collect-tiny-F16.gguf
"$src/scripts/tiny-model.sh" "$tiny" >/dev/null

median() { sort -g | awk '{v[NR]=$1} END {printf "%.2f\n", NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

# Short decodes: the overhead does not grow with them, the run time does.
"$tpsdb" --db "$t/b.sqlite" collect --engine llama.cpp="$llama/bin/llama-server" \
	--model tiny="$tiny" --reps "$reps" --n-predict 32 --port 22100 --out-dir "$t/out" \
	--quiet >/dev/null
n=$(sqlite3 "$t/b.sqlite" "SELECT count(*) FROM sample WHERE error IS NULL")
over=$(sqlite3 "$t/b.sqlite" "SELECT wall_ms - prompt_ms - predicted_ms FROM sample
	WHERE error IS NULL" | median)
wall=$(sqlite3 "$t/b.sqlite" "SELECT wall_ms FROM sample WHERE error IS NULL" | median)
echo "client overhead (wall - prompt_ms - predicted_ms) over $n requests: median $over ms" \
	"(median wall $wall ms; 1.8k-token prompt, 32 tokens, real llama-server, loopback)"
# The same against the fault server, which does no work: what is left is HTTP,
# JSON and Python, an upper bound on the collector's own share.
printf '#!/bin/sh\nexec python3 "%s/tests/fault_server.py" "$@"\n' "$src" >"$t/fs"
chmod +x "$t/fs"
printf 'gguf\n' >"$t/m.gguf"
"$tpsdb" --db "$t/f.sqlite" collect --engine fault="$t/fs" --model m="$t/m.gguf" \
	--reps $((reps * 4)) --port 22100 --out-dir "$t/out" --quiet >/dev/null
n=$(sqlite3 "$t/f.sqlite" "SELECT count(*) FROM sample WHERE error IS NULL")
wall=$(sqlite3 "$t/f.sqlite" "SELECT wall_ms FROM sample WHERE error IS NULL" | median)
echo "round trip to a do-nothing server (Python) over $n requests: median $wall ms"
"$build/bench_collect_ready" "$src/tests/fault_server.py" 20 22200
