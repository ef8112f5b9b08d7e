#!/usr/bin/env bash
# t0905-collect-utf8-outside.sh (issue 29, item 6): text from outside is repaired to
# UTF-8 where it enters (U+FFFD for each bad byte, json_utf8_repair). A GPU name and
# driver from nvidia-smi that are not UTF-8 (before: collect exit 3, no run stored)
# and a KV buffer name in the server's log that is not UTF-8 (before: stored raw in
# run.env) give a stored run whose texts and env are UTF-8, whose export imports
# again and which merges.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)
need jq
export TPSDB_HOST_BUSY_PCT=100 # this test is about the text, not the host
mkdir -p "$T/bin"
# nvidia-smi answers the provenance query with bytes that are not UTF-8 and fails
# every other query (no GPU facts: that is no error).
cat >"$T/bin/nvidia-smi" <<'SH'
#!/bin/sh
case "$*" in
*--query-gpu=name,driver_version*) printf 'NVIDIA H\377100 80GB HBM3, 570.\376\20286\n'; exit 0 ;;
"") printf '| NVIDIA-SMI 570.86   Driver Version: 570.86   CUDA Version: 12.8 |\n'; exit 0 ;;
esac
exit 9
SH
chmod +x "$T/bin/nvidia-smi"
kv="--log-line 'llama_kv_cache:      CU\\xffDA0 KV buffer size =   512.00 MiB'"
kv="$kv --log-line 'llama_kv_cache:        CPU\\xc3 KV buffer size =   64.00 MiB'"
PATH=$T/bin:$PATH run_tpsdb collect --engine ours="$FS" --engine-args ours="$kv" \
	--model tiny="$MODEL" --prompts "$PROMPTS" --reps 1 --warmup 0 --n-predict 8 \
	--port "$port" --out-dir "$OUT" --quiet
expect_eq "$rc" 0 "collect exit ($(cat "$T/stderr"))"
expect_no_orphans
expect_eq "$(q "SELECT count(*) FROM run")" 1 "runs stored"
r=$'\xef\xbf\xbd' # U+FFFD
expect_eq "$(q "SELECT gpu || '|' || driver FROM host")" "NVIDIA H${r}100 80GB HBM3|570.${r}${r}86" \
	"GPU name and driver repaired"
expect_eq "$(q "SELECT json_valid(env) FROM run")" 1 "env is JSON"
expect_eq "$(q "SELECT json_extract(env, '$.log.kv_buffers') FROM run")" "CU${r}DA0 CPU${r}" \
	"KV buffer names repaired"
expect_eq "$(q "SELECT json_extract(env, '$.log.kv_host_mib') || ' ' || json_extract(env, '$.log.kv_gpu_mib') FROM run")" \
	"64 512" "the sizes still count"
# Every text of the run is UTF-8, so its export imports again and it merges.
"$TPSDB_BIN" --db "$DB" export >"$T/a.jsonl"
python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$T/a.jsonl" ||
	fail "export is not UTF-8"
"$TPSDB_BIN" --db "$T/b.sqlite" import "$T/a.jsonl" >/dev/null || fail "export does not import"
"$TPSDB_BIN" --db "$T/b.sqlite" export | cmp - "$T/a.jsonl" || fail "import changed the bytes"
"$TPSDB_BIN" --db "$T/c.sqlite" merge "$DB" >/dev/null || fail "merge refused the run"
