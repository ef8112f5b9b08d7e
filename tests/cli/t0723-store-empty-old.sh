#!/usr/bin/env bash
# t0723-store-empty-old.sh: read commands refuse a zero-byte file ("not a tpsdb
# store", file untouched) and an older schema ("needs migration", file untouched);
# `tpsdb migrate` upgrades the old one, says so, and is a no-op the second time; a
# missing store is not created by migrate.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
reads=("runs" "runs --json" "models" "check" "check --json" "export" "compare --ours e --vs u" "sweep" "trend" "baseline list")

refused() { # db, message
	for args in "${reads[@]}"; do
		rc=0
		# shellcheck disable=SC2086
		"$TPSDB_BIN" --db "$1" $args >"$tmp/out" 2>"$tmp/err" || rc=$?
		if [ $rc != 3 ]; then echo "$args: exit $rc" >&2; exit 1; fi
		test "$(wc -l <"$tmp/err")" = 1
		grep -q "^tpsdb: error: .*$2" "$tmp/err" || { echo "$args: $(cat "$tmp/err")" >&2; exit 1; }
		test ! -s "$tmp/out"
	done
}

# 1. A zero-byte file stays zero bytes.
: >"$tmp/empty.db"
refused "$tmp/empty.db" "'$tmp/empty.db' is not a tpsdb store"
test ! -s "$tmp/empty.db"
test ! -e "$tmp/empty.db-wal" && test ! -e "$tmp/empty.db-shm"

# 2. A version-1 store, built from the fixture, is refused by readers unchanged.
command -v python3 >/dev/null || { echo "t0723: python3 needed to build the v1 store" >&2; exit 1; }
python3 - "$tmp/old.db" "$TPSDB_TEST_DATA/schema/v1.sql" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript(open(sys.argv[2]).read())
db.close()
PY
sum=$(sha256sum "$tmp/old.db" | cut -d' ' -f1)
refused "$tmp/old.db" "needs migration, run a write command or \`tpsdb migrate\`"
test "$(sha256sum "$tmp/old.db" | cut -d' ' -f1)" = "$sum"

# 3. migrate upgrades it; then the readers see its runs; a second migrate is a no-op.
"$TPSDB_BIN" --db "$tmp/old.db" migrate >"$tmp/out"
grep -qx "migrated '$tmp/old.db' from schema version 1 to [0-9]*" "$tmp/out"
test "$("$TPSDB_BIN" --db "$tmp/old.db" runs --json | grep -c '"uuid":')" = 2
"$TPSDB_BIN" --db "$tmp/old.db" migrate >"$tmp/out"
grep -qx "'$tmp/old.db' is at schema version [0-9]*, nothing to do" "$tmp/out"

# 4. migrate does not create a store, and answers --help.
rc=0; "$TPSDB_BIN" --db "$tmp/none.db" migrate 2>"$tmp/err" || rc=$?
test $rc = 3
grep -q "^tpsdb: error: no store at" "$tmp/err"
test ! -e "$tmp/none.db"
"$TPSDB_BIN" migrate --help | grep -q '^usage: tpsdb migrate'
rc=0; "$TPSDB_BIN" --db "$tmp/old.db" migrate extra 2>/dev/null || rc=$?
test $rc = 2
