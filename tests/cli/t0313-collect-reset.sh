#!/usr/bin/env bash
# t0313-collect-reset.sh: a server that resets the connection mid-request: each
# such request is a failed sample with libcurl's words, the server is still alive
# so the cell goes on, and the run is partial.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

run_tpsdb collect --engine e="$FS" --engine-args e="--fault reset --fault-after 2" \
	--model m="$MODEL" --prompts "$PROMPTS" --reps 2 --port "$port" --out-dir "$OUT"
expect_eq "$rc" 1 "exit status"
expect_no_orphans
expect_eq "$(q "SELECT status FROM run")" partial "run status"
expect_eq "$(q "SELECT count(*) FROM sample WHERE error IS NULL")" 1 "good samples"
expect_eq "$(q "SELECT count(*) FROM sample WHERE error LIKE 'transport error: %'
	AND flags & 8")" 3 "reset samples"
expect_match "$(q "SELECT error FROM sample WHERE error IS NOT NULL LIMIT 1")" \
	"transport error: (Recv failure: Connection reset by peer|Empty reply from server)" \
	"libcurl's words"
expect_eq "$(q "SELECT count(*) FROM sample WHERE error LIKE 'not attempted%'")" 0 \
	"nothing skipped while the server lives"
echo ok
