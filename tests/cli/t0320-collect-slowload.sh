#!/usr/bin/env bash
# t0320-collect-slowload.sh: a server answering 503 "Loading model" for a while is
# waited for (not a load failure), and it is seen ready promptly after it flips.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

run_tpsdb collect --engine e="$FS" --engine-args e="--fault slow-load --load-seconds 1.5" \
	--model m="$MODEL" --prompts "$PROMPTS" --reps 1 --port "$port" --out-dir "$OUT" \
	--load-timeout 300
expect_eq "$rc" 0 "exit status"
expect_no_orphans
expect_eq "$(q "SELECT status FROM run")" complete "run status"
log=$(q "SELECT log_path FROM run")
grep -q 'health flips to 200 at monotonic' "$log" || fail "the fault server did not flip"
# Polls every 10 ms: there must be many 503s in the log before the first 200.
n503=$(grep -c '"GET /health HTTP/1.1" 503' "$log")
[ "$n503" -ge 20 ] || fail "only $n503 polls while loading"
echo ok
