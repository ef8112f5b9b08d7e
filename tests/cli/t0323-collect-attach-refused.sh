#!/usr/bin/env bash
# t0323-collect-attach-refused.sh: --url to a port where nothing listens fails at
# once (well under 5 s, not the 600 s --load-timeout) with one error line saying
# "connection refused", exit 3; a server that answers 503 while it loads is still
# waited for past that grace, and so is one that starts listening just after tpsdb.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
need timeout

port=$(free_port 1)
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
listening $port && skip "something listens on 127.0.0.1:$port"
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# Nothing listens: the default --load-timeout (600 s) is not waited.
t0=$(now_ms)
rc=0
timeout 60 "$TPSDB_BIN" --db "$DB" collect --url "http://127.0.0.1:$port" --engine theirs \
	--prompts "$PROMPTS" --out-dir "$OUT" >"$T/stdout" 2>"$T/stderr" || rc=$?
ms=$(($(now_ms) - t0))
expect_eq "$rc" 3 "exit status of a refused connection"
[ "$ms" -lt 5000 ] || fail "a refused connection took $ms ms"
expect_eq "$(wc -l <"$T/stderr")" 1 "error lines"
expect_match "$(cat "$T/stderr")" \
	"^tpsdb: error: cannot measure 'http://127.0.0.1:$port': connection refused: nothing listens there \(.+\)$" \
	"message"
expect_eq "$(cat "$T/stdout")" "" "stdout"

# A server loading its model (503 for 6 s) is waited for, well past the 2 s grace
# (the 3 s asked below leave the test's own polling 3 s of slack under load).
python3 "$TPSDB_SRC/tests/fault_server.py" --port $port -m "$MODEL" --lifetime 60 \
	--fault slow-load --load-seconds 6 2>"$T/slow.log" &
srv=$!
for _ in $(seq 600); do listening $port && break; sleep 0.05; done
listening $port || fail "the fault server did not listen"
t0=$(now_ms)
run_tpsdb collect --url "http://127.0.0.1:$port" --engine theirs --prompts "$PROMPTS" \
	--reps 1 --out-dir "$OUT" --quiet
ms=$(($(now_ms) - t0))
expect_eq "$rc" 0 "exit status after a slow load: $(cat "$T/stderr")"
[ "$ms" -ge 3000 ] || fail "ready after only $ms ms of a 6 s load"
expect_eq "$(q "SELECT status FROM run")" complete "run status after a slow load"
n503=$(grep -c '"GET /health HTTP/1.1" 503' "$T/slow.log")
[ "$n503" -ge 20 ] || fail "only $n503 polls while loading"
kill "$srv"
wait "$srv" 2>/dev/null || true
while listening $port; do sleep 0.05; done

# A server started just after tpsdb (refused for a moment, then 503, then ready).
# Its interpreter starts first (slow under load); it binds the port when told.
python3 "$TPSDB_SRC/tests/fault_server.py" --port $port -m "$MODEL" --lifetime 60 \
	--fault slow-load --load-seconds 1 --bind-when "$T/go" 2>"$T/late.log" &
late=$!
for _ in $(seq 600); do grep -q 'waiting for' "$T/late.log" 2>/dev/null && break; sleep 0.05; done
grep -q 'waiting for' "$T/late.log" || fail "the late server never started: $(cat "$T/late.log")"
(sleep 0.3; touch "$T/go") &
run_tpsdb collect --url "http://127.0.0.1:$port" --engine theirs --prompts "$PROMPTS" \
	--reps 1 --out-dir "$OUT" --quiet
expect_eq "$rc" 0 "exit status for a server started just after: $(cat "$T/stderr")"
expect_eq "$(q "SELECT count(*) FROM run WHERE status='complete'")" 2 "runs"
kill "$late" 2>/dev/null || true
wait "$late" 2>/dev/null || true
echo ok
