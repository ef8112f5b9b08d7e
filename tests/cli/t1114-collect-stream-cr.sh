#!/usr/bin/env bash
# t1114-collect-stream-cr.sh (issue 39): a streamed answer is read whatever ends
# its lines, as the SSE format allows: CR alone (which failed "the stream ended
# without a final message (after 0 tokens)"), CRLF, a mix of LF, CR and CRLF, and
# events cut over two data: lines whose CR ends one chunk and whose LF opens the
# next (one line end, not two). Each gives the samples the LF stream of
# llama-server gives: no error, every token, the same text, the client's clock.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
PORT=$(free_port) # every collect of this test starts its servers from here

# hashes <endpoint> <sse-eol>: the run's samples as "predicted_n output_hash", sorted.
collect_eol() {
	rm -f "$DB"
	run_tpsdb collect --engine e="$FS" --engine-args e="--sse-eol $2 --token-ms 1" \
		--model m="$MODEL" --prompts "$PROMPTS" --reps 2 --warmup 0 --n-predict 16 \
		--endpoint "$1" --port "$PORT" --out-dir "$OUT" --request-timeout 120 --quiet
	expect_eq "$rc" 0 "$1 $2: exit status ($(cat "$T/stderr"))"
	expect_eq "$(q "SELECT count(*) FROM sample WHERE error IS NULL AND predicted_n = 16
		AND client_ttft_ms > 0 AND client_e2e_ms >= client_ttft_ms")" 4 \
		"$1 $2: whole samples ($(q "SELECT group_concat(error, '; ') FROM sample"))"
	expect_eq "$(q "SELECT status FROM run")" complete "$1 $2: run status"
	q "SELECT predicted_n || ' ' || output_hash FROM sample ORDER BY 1" >"$T/$1-$2"
}

for endpoint in completion chat; do
	collect_eol "$endpoint" lf
	for eol in cr crlf mixed crlf-split; do
		collect_eol "$endpoint" "$eol"
		cmp -s "$T/$endpoint-lf" "$T/$endpoint-$eol" ||
			fail "$endpoint $eol: not the text of the LF stream"
	done
done
expect_no_orphans
echo ok
