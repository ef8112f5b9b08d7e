#!/usr/bin/env bash
# t0316-collect-no-timings.sh: a JSON answer without its timings block is a failed
# sample, not a silent zero.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

run_tpsdb collect --engine e="$FS" --engine-args e="--fault no-timings" --model m="$MODEL" \
	--prompts "$PROMPTS" --reps 1 --port "$port" --out-dir "$OUT"
expect_eq "$rc" 1 "exit status"
expect_no_orphans
expect_eq "$(q "SELECT status FROM run")" failed "run status"
expect_eq "$(q "SELECT DISTINCT error FROM sample")" "bad response: no 'timings' block" \
	"error text"
expect_eq "$(q "SELECT count(*) FROM sample WHERE timings IS NULL AND flags & 8")" 2 \
	"failed samples"
echo ok
