#!/usr/bin/env bash
# t0724-store-busy.sh: a writer that cannot get the write lock waits
# $TPSDB_BUSY_TIMEOUT seconds, then exits 3 with one line saying another writer
# holds the lock and how long it waited; the store is unchanged, and a reader is
# not blocked meanwhile. Within the timeout, the writer waits and succeeds.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
tmp=$(mktemp -d)
holder=
trap '[ -z "$holder" ] || kill "$holder" 2>/dev/null || true; rm -rf "$tmp"' EXIT
D=$TPSDB_TEST_DATA/import
db=$tmp/a.db
"$TPSDB_BIN" --db "$db" import --host h --engine e "$D/completion.json" >/dev/null
command -v python3 >/dev/null || { echo "t0724: python3 needed to hold the lock" >&2; exit 1; }

hold() { # seconds: holds BEGIN IMMEDIATE on $db, touches $tmp/held once it has it
	python3 - "$db" "$tmp/held" "$1" <<'PY' &
import sqlite3, sys, time, pathlib
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
pathlib.Path(sys.argv[2]).touch()
time.sleep(float(sys.argv[3]))
db.execute("ROLLBACK")
PY
	holder=$!
	while [ ! -e "$tmp/held" ]; do sleep 0.05; done
}

# 1. Gives up after the timeout, and says why.
hold 5
rc=0; TPSDB_BUSY_TIMEOUT=1 "$TPSDB_BIN" --db "$db" import --host h --engine e \
	"$D/completion-reps.jsonl" >/dev/null 2>"$tmp/err" || rc=$?
test $rc = 3
test "$(wc -l <"$tmp/err")" = 1
grep -q "^tpsdb: error: .*database is locked by another writer; gave up after 1 s (TPSDB_BUSY_TIMEOUT" "$tmp/err"
# A reader is not blocked by the writer.
test "$("$TPSDB_BIN" --db "$db" runs --json | grep -c '"uuid":')" = 1
kill "$holder"; wait "$holder" 2>/dev/null || true; holder=; rm -f "$tmp/held"
test "$("$TPSDB_BIN" --db "$db" runs --json | grep -c '"uuid":')" = 1

# 2. Within the timeout the writer waits for the lock and succeeds.
hold 1
TPSDB_BUSY_TIMEOUT=20 "$TPSDB_BIN" --db "$db" import --host h --engine e "$D/completion-reps.jsonl" >/dev/null
wait "$holder" || true; holder=
test "$("$TPSDB_BIN" --db "$db" runs --json | grep -c '"uuid":')" = 2
