#!/usr/bin/env bash
# t0318-collect-sigterm.sh: SIGTERM (and SIGINT) during a run: tpsdb stops the
# server, marks the run 'interrupted', keeps every sample already taken, leaves no
# process of the server's group behind and exits 3.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

for sig in TERM INT; do
	rm -f "$DB"*
	"$TPSDB_BIN" --db "$DB" collect --engine e="$FS" --engine-args e="--delay-ms 150" \
		--engine never="$FS" --model m="$MODEL" --prompts "$PROMPTS" --reps 50 \
		--port "$port" --out-dir "$OUT" >"$T/stdout" 2>"$T/stderr" &
	pid=$!
	wait_samples 3
	pgid=$(ps -o pgid= -p "$(pgrep -f "fault_server.py .*$T" | head -1)" | tr -d ' ')
	[ -n "$pgid" ] || fail "no server running"
	kill -"$sig" "$pid"
	rc=0
	wait "$pid" || rc=$?
	expect_eq "$rc" 3 "exit status after SIG$sig"
	expect_no_orphans
	if pgrep -g "$pgid" >/dev/null; then fail "process group $pgid survived"; fi
	expect_eq "$(q "SELECT group_concat(status) FROM run")" interrupted "status after SIG$sig"
	kept=$(q "SELECT count(*) FROM sample")
	[ "$kept" -ge 3 ] || fail "samples lost after SIG$sig: $kept"
	expect_eq "$(q "SELECT count(*) FROM sample WHERE error IS NOT NULL")" 0 \
		"an interrupted request is not a sample"
	expect_match "$(cat "$T/stderr")" "tpsdb: error: interrupted by signal" "message"
	grep -q '^m  *e  *-  *interrupted ' "$OUT/summary.txt" || fail "summary after SIG$sig"
	expect_eq "$(q "SELECT count(*) FROM run r JOIN engine e ON e.id=r.engine_id
		WHERE e.label='never'")" 0 "cells after the interrupt"
done
echo ok
