#!/usr/bin/env bash
# t0960-collect-stream-real.sh: a streamed collect against the real CPU llama-server
# (scripts/llama-server.sh, cached) and the tiny model, on a free port: every sample
# keeps the server's timings from the stream's final message and the client's clock
# beside them (ttft, decode rate, e2e), ordered as the clock must order them
# (prompt_ms <= ttft <= e2e <= wall_ms); the two decode rates agree, so check finds
# no timings-disagree; export carries the client fields.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
need jq

real_llama
L=$T/llama-server
ln -s "$dir/bin/llama-server" "$L"
port=$(free_port)

printf '## one\nWrite a C function that parses an ISO 8601 date.\n\n## two\nSay something.\n' >"$T/p.txt"
run_tpsdb collect --engine ours="$L" --model tiny="$tiny" --prompts "$T/p.txt" --reps 3 \
	--n-predict 256 --port "$port" --out-dir "$OUT" --tag t0960
[ "$rc" = 0 ] || { tail -n 20 "$T/stderr" >&2; fail "exit status $rc"; }
pgrep -f "^$L --host " >/dev/null && fail "a llama-server outlived tpsdb"

expect_eq "$(q "SELECT count(*) FROM sample")" 6 "samples"
# The final message's timings, as a plain answer gave them.
expect_eq "$(q "SELECT count(*) FROM sample WHERE error IS NULL AND http_status=200
	AND predicted_n=256 AND stop_type='limit' AND timings LIKE '{%' AND prompt_n > 0
	AND predicted_per_second > 0 AND length(output_hash)=64")" 6 "server timings kept"
# 256 tokens: the decode spans far more than the 10 ms below which a client that
# read the answer at once (descheduled on a loaded host) gives no rate.
expect_eq "$(q "SELECT count(*) FROM sample WHERE client_ttft_ms > 0
	AND client_ttft_ms >= prompt_ms AND client_e2e_ms >= client_ttft_ms
	AND client_e2e_ms <= wall_ms")" 6 "client clock: ttft <= e2e <= wall"
expect_eq "$(q "SELECT count(*) FROM sample WHERE client_decode_per_second > 0")" 6 \
	"client clock: a decode rate: $(q "SELECT prompt_ms || ' ' || client_ttft_ms || ' ' ||
	ifnull(client_decode_per_second, 'NULL') || ' ' || client_e2e_ms || ' ' || wall_ms FROM sample" |
	tr '\n' ';')"
# Greedy decoding: a prompt's text, streamed, is the same every repetition.
expect_eq "$(q "SELECT count(DISTINCT output_hash) FROM sample")" 2 "one text per prompt"

run_tpsdb check --json
expect_eq "$(jq -r '[.findings[] | select(.kind == "timings-disagree")] | length' "$T/stdout")" \
	0 "a clean run's rates agree: $(q "SELECT predicted_per_second || '/' ||
	client_decode_per_second FROM sample" | tr '\n' ' ')"
run_tpsdb export --format jsonl
expect_eq "$(jq -c '[.samples[] | (.client_ttft_ms > 0 and .client_decode_per_second > 0
	and .client_e2e_ms > 0)] | all' "$T/stdout")" true "export carries the client clock"
echo ok
