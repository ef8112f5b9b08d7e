#!/usr/bin/env bash
# t0311-collect-loadfail.sh: a server that exits while loading, and one that never
# gets ready, each make a 'failed' run whose load_error holds the reason and the
# log tail; LOADFAIL shows in the summary, the next cell still runs, exit 1.
# A server that exits and one that loads are waited for under a generous
# --load-timeout (the exit is the event; under load a 1.5 s bound raced the fault
# server's exit, issue 29); only the one that never gets ready meets a timeout, one
# long enough that it has answered /health (503) before it.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

printf 'broken | %s | --fault load-fail\ngood | %s\n' "$MODEL" "$MODEL" >"$T/models"
start=$(date +%s)
run_tpsdb collect --engine e="$FS" --models "$T/models" --prompts "$PROMPTS" --reps 1 \
	--port "$port" --out-dir "$OUT" --load-timeout 300
expect_eq "$rc" 1 "exit status"
# Noticed when it exits, not when the load timeout runs out.
[ $(($(date +%s) - start)) -lt 240 ] || fail "a load failure was waited out"
expect_no_orphans
expect_eq "$(grep -c 'LOADFAIL' "$OUT/summary.txt")" 1 "LOADFAIL rows (exit)"

printf 'stuck | %s | --fault never-ready\n' "$MODEL" >"$T/models"
run_tpsdb collect --engine e="$FS" --models "$T/models" --prompts "$PROMPTS" --reps 1 \
	--port "$port" --out-dir "$OUT" --load-timeout 10
expect_eq "$rc" 1 "exit status (never ready)"
expect_no_orphans
expect_eq "$(grep -c 'LOADFAIL' "$OUT/summary.txt")" 1 "LOADFAIL rows (never ready)"

expect_eq "$(q "SELECT group_concat(m.label || ':' || r.status, ' ') FROM run r
	JOIN model m ON m.id=r.model_id")" "broken:failed good:complete stuck:failed" "statuses"
le=$(q "SELECT load_error FROM run r JOIN model m ON m.id=r.model_id WHERE m.label='broken'")
expect_match "$le" "the server exited with status 1 before it was ready" "broken reason"
expect_match "$le" "fault_server: error: failed to load model" "broken log tail"
le=$(q "SELECT load_error FROM run r JOIN model m ON m.id=r.model_id WHERE m.label='stuck'")
expect_match "$le" "not ready after 10 s \(last /health answer: HTTP 503\)" "stuck reason"
expect_eq "$(q "SELECT count(*) FROM sample s JOIN run r ON r.id=s.run_id
	WHERE r.status='failed'")" 0 "samples of failed loads"
expect_eq "$(q "SELECT count(*) FROM run WHERE log_path IS NULL")" 0 "log paths"

# A binary that cannot be executed at all is a load failure too. A missing one is
# refused before anything starts (t0302); this one is an executable file whose
# interpreter is missing, so only exec(2) finds out.
printf '#!%s/no-such-interpreter\n' "$T" >"$T/bad-interp"
chmod +x "$T/bad-interp"
run_tpsdb collect --engine broken="$T/bad-interp" --model m="$MODEL" \
	--prompts "$PROMPTS" --reps 1 --port "$port" --out-dir "$OUT" --quiet
expect_eq "$rc" 1 "exit status with a binary that cannot execute"
le=$(q "SELECT load_error FROM run ORDER BY id DESC LIMIT 1")
expect_match "$le" "exited with status 127 before it was ready" "unexecutable binary"
expect_match "$le" "^tpsdb: cannot execute '$T/bad-interp': No such file" "unexecutable binary"
echo ok
