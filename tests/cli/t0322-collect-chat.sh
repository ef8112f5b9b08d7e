#!/usr/bin/env bash
# t0322-collect-chat.sh: --endpoint chat posts to /v1/chat/completions and records
# the endpoint; chat prompts hash apart from the same text sent to /completion.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

run_tpsdb collect --engine e="$FS" --model m="$MODEL" --prompts "$PROMPTS" --reps 1 \
	--port "$port" --out-dir "$OUT" --endpoint chat --ban-byte-tokens
expect_eq "$rc" 0 "chat exit status"
run_tpsdb collect --engine e="$FS" --model m="$MODEL" --prompts "$PROMPTS" --reps 1 \
	--port "$port" --out-dir "$OUT"
expect_eq "$rc" 0 "completion exit status"
expect_no_orphans
expect_eq "$(q "SELECT group_concat(endpoint, ' ') FROM run")" "chat completion" "endpoints"
expect_eq "$(q "SELECT count(*) FROM prompt")" 4 "chat and completion prompts differ"
expect_eq "$(q "SELECT count(*) FROM sample WHERE stop_type='limit' AND output_hash IS NOT NULL")" \
	4 "stop type and output hash on both routes"
grep -q '"POST /v1/chat/completions HTTP/1.1" 200' "$(q "SELECT log_path FROM run WHERE id=1")" ||
	fail "the chat route was not used"
echo ok
