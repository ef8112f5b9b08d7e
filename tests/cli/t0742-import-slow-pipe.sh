#!/usr/bin/env bash
# t0742-import-slow-pipe.sh: an import from a pipe that a writer holds open takes no
# lock while it waits, so another process imports into the same store meanwhile;
# the waiting import lands once its input ends. A FIFO that never ends blocks no one.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
tmp=$(mktemp -d)
export TPSDB_DB=$tmp/s.db
D=$TPSDB_TEST_DATA/import
fail() { echo "FAIL: $*" >&2; exit 1; }
"$TPSDB_BIN" import --host a "$D/eos.json" >/dev/null   # the store exists

mkfifo "$tmp/fifo"
"$TPSDB_BIN" import --host slow - <"$tmp/fifo" >"$tmp/slow.out" 2>&1 &
slow=$!
exec 3>"$tmp/fifo"          # the writer: holds the pipe open, writes nothing yet
trap 'exec 3>&-; kill $slow 2>/dev/null || true; rm -rf "$tmp"' EXIT
# The event: the slow import runs tpsdb and sleeps, blocked reading the pipe.
for _ in $(seq 600); do
	[ "$(readlink /proc/$slow/exe 2>/dev/null)" = "$(readlink -f "$TPSDB_BIN")" ] &&
		[ "$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' /proc/$slow/status 2>/dev/null)" = S ] && break
	sleep 0.05
done
[ "$(readlink /proc/$slow/exe 2>/dev/null)" = "$(readlink -f "$TPSDB_BIN")" ] ||
	fail "the slow import did not start"
# Meanwhile another writer imports at once (busy timeout not waited out).
start=$(date +%s)
"$TPSDB_BIN" import --host other "$D/completion.json" >/dev/null || fail "the second import failed"
test $(( $(date +%s) - start )) -lt 5 || fail "the second import waited for the lock"
kill -0 $slow 2>/dev/null || fail "the slow import ended early: $(cat "$tmp/slow.out")"
cat "$D/completion-reps.jsonl" >&3
exec 3>&-
wait $slow || fail "the slow import failed: $(cat "$tmp/slow.out")"
test "$(sqlite3 "$TPSDB_DB" "SELECT group_concat(name) FROM (SELECT h.name FROM run r JOIN host h ON h.id=r.host_id ORDER BY r.id)")" = "a,other,slow" ||
	fail "runs: $(sqlite3 "$TPSDB_DB" "SELECT * FROM run")"
echo ok
