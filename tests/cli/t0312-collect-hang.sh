#!/usr/bin/env bash
# t0312-collect-hang.sh: a server that stops answering: each request times out
# after --request-timeout and is recorded with the error, and after three timeouts
# in a row the prompts left are recorded as not attempted. The run is partial. The
# timeout is 5 s, not less: the answers before the hang must beat it under load.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

printf '## a\nx\n## b\ny\n## c\nz\n' >"$T/p3"
run_tpsdb collect --engine e="$FS" --engine-args e="--fault hang --fault-after 2" \
	--model m="$MODEL" --prompts "$T/p3" --reps 3 --port "$port" --out-dir "$OUT" \
	--request-timeout 5
expect_eq "$rc" 1 "exit status"
expect_no_orphans
expect_eq "$(q "SELECT status FROM run")" partial "run status"
# One warm-up and one sample answered; then three timeouts; then five not attempted.
expect_eq "$(q "SELECT count(*) FROM sample WHERE error IS NULL")" 1 "good samples"
expect_eq "$(q "SELECT count(*) FROM sample WHERE error LIKE 'timeout: no answer within 5 s%'
	AND flags & 8 AND http_status IS NULL")" 3 "timeouts"
expect_eq "$(q "SELECT count(*) FROM sample WHERE
	error='not attempted: 3 requests in a row timed out' AND seq IS NULL")" 5 "not attempted"
expect_match "$(q "SELECT error FROM sample WHERE error LIKE 'timeout%' LIMIT 1")" \
	"Operation timed out" "libcurl's words"
grep -q '^m  *e  *-  *partial  *1  *8 ' "$T/stdout" || fail "summary: $(cat "$T/stdout")"
echo ok
