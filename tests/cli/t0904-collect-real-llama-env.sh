#!/usr/bin/env bash
# t0904-collect-real-llama-env.sh: the environment of a run against the real CPU
# llama-server (scripts/llama-server.sh, cached) and a tiny random-weight model:
# the collector asks llama.cpp for verbosity 4, so its log says where the KV cache
# lives (the CPU here, a few MiB) and how often graphs were reused; a CPU-only
# server gets neither partial-offload nor kv-on-host, and no GPU is recorded on a
# host without nvidia-smi. The model's random output is no short loop.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)
need jq

real_llama
L=$T/llama-server
ln -s "$dir/bin/llama-server" "$L"
command -v nvidia-smi >/dev/null && skip "this host has nvidia-smi: the CPU expectations do not hold"

printf '## one\nWrite a C function that parses an ISO 8601 date.\n' >"$T/one.txt"
run_tpsdb collect --engine ours="$L" --model tiny="$tiny" --prompts "$T/one.txt" --reps 2 --n-predict 32 \
	--port "$port" --out-dir "$OUT" --tag t0904
[ "$rc" = 0 ] || { tail -n 20 "$T/stderr" >&2; fail "exit status $rc"; }
pgrep -f "^$L --host " >/dev/null && fail "a llama-server outlived tpsdb"

log=$(q "SELECT log_path FROM run")
grep -q 'CPU KV buffer size' "$log" || fail "the log has no KV line (verbosity 4 not asked?)"
env=$(q "SELECT env FROM run")
expect_eq "$(echo "$env" | jq -c '[.log.kv_buffers, (.log.kv_host_mib > 0), .log.kv_gpu_mib, (.log.graphs_reused > 0), .log.layers_offloaded, .gpu]')" \
	'["CPU",true,null,true,null,null]' "log facts of a CPU server"
expect_eq "$(echo "$env" | jq -c '[(.ready_ms > 0), (.host.wall_s > 0), (.host.server_cpu_s > 0), .host.ncpu]')" \
	"[true,true,true,$(nproc)]" "host facts"
# Whatever the host did meanwhile, the log and GPU findings stay off a CPU server.
expect_eq "$("$TPSDB_BIN" --db "$DB" export | jq -r '.run.env_flags - .run.env_flags % 2')" 0 \
	"no log or GPU finding"
expect_eq "$(q "SELECT count(*) FROM sample WHERE repeat_share IS NULL OR flags & 64")" 0 \
	"every sample judged, none degenerate"
echo ok
