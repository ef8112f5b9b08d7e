#!/usr/bin/env bash
# t0314-collect-garbage.sh: HTTP 200 with a body that is not JSON: a failed sample
# with the parser's reason and the status kept; no sample ok, so the run failed.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

run_tpsdb collect --engine e="$FS" --engine-args e="--fault garbage" --model m="$MODEL" \
	--prompts "$PROMPTS" --reps 1 --port "$port" --out-dir "$OUT"
expect_eq "$rc" 1 "exit status"
expect_no_orphans
expect_eq "$(q "SELECT status FROM run")" failed "run status"
expect_eq "$(q "SELECT count(*) FROM sample WHERE error='bad response: not valid JSON'
	AND http_status=200 AND flags & 8 AND prompt_n IS NULL")" 2 "garbage samples"
grep -q '^m  *e  *-  *failed  *0  *2 ' "$T/stdout" || fail "summary: $(cat "$T/stdout")"
echo ok
