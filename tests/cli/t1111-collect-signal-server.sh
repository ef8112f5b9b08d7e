#!/usr/bin/env bash
# t1111-collect-signal-server.sh (issue 39): a signal is answered at once while a
# server loads and never becomes ready, even one that ignores SIGTERM: once a
# signal came, a stop gives a server PROC_INTERRUPT_GRACE_S (0.5 s) before SIGKILL
# to its group, not the 10 s grace of a run's end (past the 10 s `docker stop`
# gives). The run is stored 'interrupted', exit 3, nothing of the server's group
# is left. Then the fault server, which never answers /health with 200.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
. "$TPSDB_SRC/tests/cli/signal-lib.sh"
PORT=$(free_port) # every collect of this test starts its servers from here
cat >"$T/deaf" <<SH
#!/bin/sh
# A server that never listens and ignores SIGTERM, as does what it forks.
trap '' TERM
sleep 3600 &
echo \$! >>"$T/srv.pids"
echo \$\$ >>"$T/srv.pids"
exec sleep 3601
SH
chmod +x "$T/deaf"
collect() { # <engine>
	exec "$TPSDB_BIN" --db "$DB" collect --engine e="$1" --model m="$MODEL" \
		--prompts "$PROMPTS" --reps 1 --warmup 0 --n-predict 8 --port "$PORT" \
		--out-dir "$OUT" --load-timeout 300
}
check_run() { # <what>
	expect_eq "$rc" 3 "exit status, $1"
	expect_match "$(cat "$T/stderr")" \
		"^tpsdb: error: interrupted by signal 15: the servers are stopped" "the error, $1"
	expect_eq "$(q "SELECT status FROM run")" interrupted "the run, $1"
	grep -q '^m  *e  *-  *interrupted ' "$OUT/summary.txt" ||
		fail "summary, $1: $(cat "$OUT/summary.txt")"
}

term_when_hung "a server that ignores SIGTERM" "$T/srv.pids" collect "$T/deaf"
check_run "a server that ignores SIGTERM"

rm -f "$DB"*
# The fault server writes no pid file: wrap it.
printf '#!/bin/sh\necho $$ >>"%s/fs.pids"\nexec "%s" --fault never-ready "$@"\n' "$T" "$FS" \
	>"$T/never"
chmod +x "$T/never"
term_when_hung "a fault server never ready" "$T/fs.pids" collect "$T/never"
check_run "a fault server never ready"
expect_no_orphans
echo ok
