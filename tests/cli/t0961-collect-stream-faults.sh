#!/usr/bin/env bash
# t0961-collect-stream-faults.sh: a stream that breaks is a failed sample with a
# clear error and nothing else of a measurement: a server that stops sending
# mid-stream meets the same --request-timeout as a silent one, and a stream that
# ends without its final message is no answer. A good stream paced by the fault
# server gets the client's clock; a burst gets a ttft but no decode rate. The
# timeouts are generous: the answers before a fault must beat them under load.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

# Samples with any part of a measurement (server or client side).
measured="prompt_n IS NOT NULL OR predicted_n IS NOT NULL OR timings IS NOT NULL
	OR output_hash IS NOT NULL OR client_ttft_ms IS NOT NULL
	OR client_decode_per_second IS NOT NULL OR client_e2e_ms IS NOT NULL"

run_tpsdb collect --engine e="$FS" --engine-args e="--fault stall-stream --fault-after 2
	--token-ms 1" --model m="$MODEL" --prompts "$PROMPTS" --reps 2 --n-predict 16 \
	--port "$port" --out-dir "$OUT" --request-timeout 5
expect_eq "$rc" 1 "stall: exit status"
expect_no_orphans
# One warm-up and one sample streamed whole; then the stream stalls after 8 tokens.
expect_eq "$(q "SELECT count(*) FROM sample WHERE error IS NULL AND client_ttft_ms > 0
	AND client_decode_per_second > 0 AND client_e2e_ms >= client_ttft_ms
	AND predicted_n = 16")" 1 "stall: the good sample"
expect_eq "$(q "SELECT count(*) FROM sample WHERE error LIKE
	'timeout: the stream stalled, no end within 5 s after 8 tokens (%' AND flags & 8")" 3 \
	"stall: timed out mid-stream"
expect_eq "$(q "SELECT count(*) FROM sample WHERE error IS NOT NULL AND ($measured)")" 0 \
	"stall: nothing half-written"
expect_eq "$(q "SELECT status FROM run")" partial "stall: run status"

rm -f "$DB"
run_tpsdb collect --engine e="$FS" --engine-args e="--fault truncated-stream --fault-after 2" \
	--model m="$MODEL" --prompts "$PROMPTS" --reps 2 --n-predict 16 --port "$port" \
	--out-dir "$OUT" --request-timeout 120
expect_eq "$rc" 1 "truncated: exit status"
end='bad response: the stream ended without a final message (after 8 tokens)'
expect_eq "$(q "SELECT count(*) FROM sample WHERE error = '$end' AND http_status = 200
	AND flags & 8")" 3 \
	"truncated: the error"
expect_eq "$(q "SELECT count(*) FROM sample WHERE error IS NOT NULL AND ($measured)")" 0 \
	"truncated: nothing half-written"
# The good one was a burst: every token in one piece, so no decode rate to take.
expect_eq "$(q "SELECT count(*) FROM sample WHERE error IS NULL AND client_ttft_ms > 0
	AND client_decode_per_second IS NULL AND client_e2e_ms > 0")" 1 "truncated: the burst"
echo ok
