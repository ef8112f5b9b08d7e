#!/usr/bin/env bash
# t0315-collect-http500.sh: HTTP 500 with llama-server's error JSON: the sample
# keeps the status and the server's own message.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

run_tpsdb collect --engine e="$FS" --engine-args e="--fault http500 --fault-after 1" \
	--model m="$MODEL" --prompts "$PROMPTS" --reps 1 --warmup 0 --port "$port" \
	--out-dir "$OUT"
expect_eq "$rc" 1 "exit status"
expect_no_orphans
expect_eq "$(q "SELECT status FROM run")" partial "run status"
expect_eq "$(q "SELECT http_status || ' ' || error FROM sample WHERE error IS NOT NULL")" \
	"500 HTTP 500: fault_server: injected failure" "the server's message"
expect_eq "$(q "SELECT flags & 8 FROM sample WHERE http_status=500")" 8 "failed flag"
echo ok
