#!/usr/bin/env bash
# t0317-collect-die.sh: a server that dies mid-cell: the request it died on is a
# failed sample, the prompts left are recorded as not attempted (no request is sent
# to a dead port), the log tail lands in load_error, the run is partial, and the
# next cell starts a fresh server and completes.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

run_tpsdb collect --engine dying="$FS" --engine-args dying="--fault die --fault-after 3" \
	--engine fine="$FS" --model m="$MODEL" --prompts "$PROMPTS" --reps 3 --port "$port" \
	--out-dir "$OUT"
expect_eq "$rc" 1 "exit status"
expect_no_orphans
expect_eq "$(q "SELECT group_concat(status, ' ') FROM (SELECT status FROM run ORDER BY id)")" \
	"partial complete" "statuses"
# One warm-up and two samples answered, the fourth request killed the server.
# (libcurl retries a request whose reused connection died on a new connection, so
# the error may be the refusal of that second attempt.)
expect_eq "$(q "SELECT count(*) FROM sample WHERE run_id=1 AND error IS NULL")" 2 "good"
expect_match "$(q "SELECT error FROM sample WHERE run_id=1 AND error NOT LIKE 'not attempted%'")" \
	"^(transport error|connection refused): .*\(the server exited with status 3\)$" \
	"the fatal request"
expect_eq "$(q "SELECT count(*) FROM sample WHERE run_id=1 AND
	error='not attempted: the server exited with status 3'")" 3 "not attempted"
le=$(q "SELECT load_error FROM run WHERE id=1")
expect_match "$le" "^the server exited with status 3 during the run" "load_error reason"
expect_match "$le" "fault_server: dying at request 4" "load_error log tail"
# The log of the fresh server says it got a new process.
p1=$(grep -o 'pid [0-9]*' "$(q "SELECT log_path FROM run WHERE id=1")")
p2=$(grep -o 'pid [0-9]*' "$(q "SELECT log_path FROM run WHERE id=2")")
[ "$p1" != "$p2" ] || fail "the second cell reused the dead server"
expect_eq "$(q "SELECT count(*) FROM sample WHERE run_id=2 AND error IS NULL")" 6 "next cell"
echo ok
