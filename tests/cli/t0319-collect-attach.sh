#!/usr/bin/env bash
# t0319-collect-attach.sh: --url measures a server tpsdb did not start: the model
# label comes from /props (or --model), seq is unknown, there is no log, the
# server is left running; an unreachable URL is a runtime error (exit 3).
. "$TPSDB_SRC/tests/cli/collect-lib.sh"

port=$(free_port 1)
python3 "$TPSDB_SRC/tests/fault_server.py" --port $port -m "$MODEL" --lifetime 600 \
	--spec-draft-n-max 2 2>"$T/attached.log" &
srv=$!
wait_listening "$port"
run_tpsdb collect --url "http://127.0.0.1:$port/" --engine theirs --prompts "$PROMPTS" \
	--reps 2 --out-dir "$OUT"
expect_eq "$rc" 0 "exit status"
kill -0 "$srv" 2>/dev/null || fail "attach mode stopped a server it did not start"
expect_eq "$(q "SELECT m.label || '|' || m.file || '|' || m.quant || '|' || m.sha256 FROM model m")" \
	"tiny-Q4_K_M.gguf|tiny-Q4_K_M.gguf|Q4_K_M|$(sha256sum "$MODEL" | cut -c1-64)" "model from /props"
expect_eq "$(q "SELECT e.label || '|' || e.role || '|' || e.version || '|' || e.sha256
	FROM engine e")" "theirs|other|fault-server-1|" "engine"
expect_eq "$(q "SELECT status || '|' || ifnull(log_path, 'NULL') || '|' || ctx FROM run")" \
	"complete|NULL|4096" "run"
expect_eq "$(q "SELECT count(*) FROM sample WHERE seq IS NULL AND error IS NULL")" 4 \
	"samples with unknown seq"

# --model names it; --spec-type/--n-max say what the server does.
run_tpsdb collect --url "http://127.0.0.1:$port" --engine theirs --model mine \
	--spec-type draft-simple --n-max 2 --prompts "$PROMPTS" --reps 1 --out-dir "$OUT" --quiet
expect_eq "$rc" 0 "exit status with --model"
expect_eq "$(q "SELECT m.label || '|' || r.spec_type || '|' || r.n_max FROM run r
	JOIN model m ON m.id=r.model_id WHERE r.id=2")" "mine|draft-simple|2" "labelled run"
grep -q '^mine  *theirs  *2  *complete  *2  *0 .* 50.0%$' "$T/stdout" ||
	fail "acceptance in summary: $(cat "$T/stdout")"
kill "$srv"
wait "$srv" 2>/dev/null || true

run_tpsdb collect --url "http://127.0.0.1:$port" --engine theirs --prompts "$PROMPTS" \
	--load-timeout 0.5
expect_eq "$rc" 3 "exit status of an unreachable server"
expect_match "$(cat "$T/stderr")" "^tpsdb: error: cannot measure 'http://127.0.0.1:$port': connection refused" "message"
expect_eq "$(q "SELECT count(*) FROM run")" 2 "no run for an unreachable server"
echo ok
