#!/usr/bin/env bash
# t0900-collect-env-log.sh: what a server's log says about where its layers and
# KV cache went becomes findings: fault servers print llama.cpp's load lines
# ("offloaded 8/33 layers to GPU", "CPU KV buffer size"); check names
# partial-offload and kv-on-host with the numbers, a clean server gets neither;
# the facts survive export, import and merge byte for byte; compare warns about the
# cell (its JSON rows list the environment) and --strict exits 1; the report's
# data-quality section lists them.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)
need jq
export TPSDB_HOST_BUSY_PCT=100 # this test is about the log; t0902 is about the host

ngl8="--log-line 'load_tensors: offloaded 8/33 layers to GPU'"
ngl8="$ngl8 --log-line 'llama_kv_cache:      CUDA0 KV buffer size =   512.00 MiB'"
ngl8="$ngl8 --log-line 'llama_kv_cache:        CPU KV buffer size =  1536.00 MiB'"
full="--log-line 'load_tensors: offloaded 33/33 layers to GPU'"
full="$full --log-line 'llama_kv_cache:      CUDA0 KV buffer size =  2048.00 MiB'"
full="$full --log-line 'slot print_timing: id  3 | task 0 |    graphs reused =         62'"
run_tpsdb collect --engine ours="$FS" --engine upstream="$FS" --ours ours \
	--engine-args ours="$ngl8" --engine-args upstream="$full" \
	--model tiny="$MODEL" --prompts "$PROMPTS" --reps 3 --warmup 1 --n-predict 32 \
	--port "$port" --out-dir "$OUT" --tag t0900
expect_eq "$rc" 0 "collect exit"
expect_no_orphans
# The store keeps facts, not findings: every reader derives them (export too).
expect_eq "$(q "SELECT group_concat(env_flags, ',') FROM (SELECT env_flags FROM run ORDER BY id)")" \
	"0,0" "no finding stored"
expect_eq "$("$TPSDB_BIN" --db "$DB" export | jq -r '.run.env_flags' | paste -sd,)" \
	"48,0" "env flags derived: partial-offload|kv-on-host, then none"
expect_eq "$(q "SELECT json_extract(env, '$.log.layers_offloaded') || '/' ||
	json_extract(env, '$.log.layers_total') || ' ' || json_extract(env, '$.log.kv_host_mib') ||
	' ' || json_extract(env, '$.log.kv_gpu_mib') || ' ' || json_extract(env, '$.log.kv_buffers')
	FROM run WHERE id=1")" "8/33 1536 512 CUDA0 CPU" "log facts"
expect_eq "$(q "SELECT json_extract(env, '$.log.graphs_reused') FROM run WHERE id=2")" 62 \
	"graph reuse"
expect_match "$(q "SELECT json_extract(env, '$.ready_ms') > 0 AND
	json_extract(env, '$.host.wall_s') > 0 FROM run WHERE id=1")" '^1$' "ready time and window"

rc=0
"$TPSDB_BIN" --db "$DB" check --json >"$T/check.json" || rc=$?
expect_eq "$rc" 1 "check exit"
expect_eq "$(jq -r '[.findings[] | select(.engine == "ours") | .kind] | join(",")' "$T/check.json")" \
	"partial-offload,kv-on-host" "ours' findings"
expect_eq "$(jq -r '[.findings[] | select(.engine == "upstream")] | length' "$T/check.json")" 0 \
	"a fully offloaded run is clean"
expect_eq "$(jq -r '.findings[] | select(.kind == "partial-offload") | .detail' "$T/check.json")" \
	"partial offload: 8 of 33 layers on the GPU" "partial-offload detail"
expect_eq "$(jq -r '.findings[] | select(.kind == "kv-on-host") | .detail' "$T/check.json")" \
	"KV cache in host memory (1536.0 MiB on the host, 512.0 MiB on the GPU)" "kv-on-host detail"

# Export, import into a new store, export again: the same bytes; merge carries it too.
"$TPSDB_BIN" --db "$DB" export >"$T/a.jsonl"
grep -q '"env":{"host":' "$T/a.jsonl" || fail "export lacks env"
grep -q '"env_flags":48' "$T/a.jsonl" || fail "export lacks env_flags"
"$TPSDB_BIN" --db "$T/b.sqlite" import "$T/a.jsonl" >/dev/null
"$TPSDB_BIN" --db "$T/b.sqlite" export >"$T/b.jsonl"
cmp "$T/a.jsonl" "$T/b.jsonl" || fail "export -> import -> export changed the bytes"
"$TPSDB_BIN" --db "$T/c.sqlite" merge "$DB" >/dev/null
"$TPSDB_BIN" --db "$T/c.sqlite" export >"$T/c.jsonl"
cmp "$T/a.jsonl" "$T/c.jsonl" || fail "merge changed the bytes"
# A run whose stored findings are out of date with its facts (an older rule's)
# is judged by its facts: stored gpu-contended beside facts without it reads clean.
sqlite3 "$T/c.sqlite" "UPDATE run SET env_flags=2 WHERE id=2"
expect_eq "$("$TPSDB_BIN" --db "$T/c.sqlite" export | jq -r '.run.env_flags' | paste -sd,)" "48,0" \
	"findings from the facts, not the stored column"
# An export line with an unknown environment bit is refused, nothing imported.
sed 's/"env_flags":48/"env_flags":4096/' "$T/a.jsonl" >"$T/bad.jsonl"
rc=0
"$TPSDB_BIN" --db "$T/d.sqlite" import "$T/bad.jsonl" 2>"$T/err" || rc=$?
expect_eq "$rc" 3 "unknown env bit"
expect_match "$(cat "$T/err")" "env_flags' has unknown bits" "its error"

# compare warns (exit 0), --strict fails (exit 1); the JSON rows carry it.
run_tpsdb compare --ours ours --vs upstream
expect_eq "$rc" 0 "compare exit"
expect_match "$(cat "$T/stderr")" "^tpsdb: warning: cell 'tiny': the runs carry partial-offload, kv-on-host \(ours\): the delta may be the environment's" "compare warning"
expect_eq "$(grep -c "the runs carry" "$T/stderr")" 1 "one warning for the cell's two rows"
run_tpsdb compare --ours ours --vs upstream --strict
expect_eq "$rc" 1 "compare --strict exit"
run_tpsdb compare --ours ours --vs upstream --json
expect_eq "$(jq -r '[.rows[] | .environment | join("+")] | join(",")' "$T/stdout")" \
	"partial-offload+kv-on-host,partial-offload+kv-on-host" "rows' environment"
expect_eq "$(jq -r '[.warnings[] | select(test("partial-offload"))] | length' "$T/stdout")" 1 \
	"json warning"

# The report's data-quality section lists both findings.
run_tpsdb report --no-plots --out "$T/rep"
expect_eq "$rc" 0 "report exit"
grep -q 'partial offload: 8 of 33 layers on the GPU' "$T/rep/report.md" || fail "report lacks partial-offload"
grep -q 'KV cache in host memory' "$T/rep/report.md" || fail "report lacks kv-on-host"
echo ok
