#!/usr/bin/env bash
# t1212-migrate-kill-anywhere.sh: 'migrate' of a store of schema version 11 (every
# column filled: the client's clock, rates, env facts, the collector, looks and
# its metric; tests/data/schema/v11.sql) and of one of version 8 (0009 computes
# the rates of its stored samples, 0010-0012 add the client's clock, looks_metric
# and spec_settings), SIGKILLed before each fsync, ftruncate and unlink it makes
# and before a spread of its writes and opens (kill-lib.sh). After every kill the
# store opens, its integrity is ok, and it is the old store, the migrated one, or
# the store after a whole migration step between (each step is its own
# transaction: its user_version says which, and every kill that left that
# version left the same content); never part of a step. tpsdb's readers say
# "needs migration" or read it, and 'migrate' run again completes it.
. "${TPSDB_SRC:?}/tests/cli/kill-lib.sh" || exit 1

DB=$TMP/store.db
# What a reader sees, then what the store holds. tpsdb's reader runs first (before
# sqlite3 opens the store and so rolls back a journal or recovers a WAL): it reads
# the migrated store, says an older one "needs migration", or, where the kill
# left a hot journal (the switch to WAL is a rollback-journal transaction), says
# that a write command rolls it back (before: "attempt to write a readonly
# database"); one line, exit 3. The store: its version and a dump of it.
fingerprint() {
	local rc=0 what
	"$TPSDB_BIN" --db "$DB" export >"$TMP/fp-out" 2>"$TMP/fp-err" || rc=$?
	if [ "$rc" = 0 ]; then
		what="export $(sha256sum <"$TMP/fp-out" | cut -c1-16)"
	elif [ "$rc" = 3 ] && [ "$(wc -l <"$TMP/fp-err")" = 1 ] && [ ! -s "$TMP/fp-out" ] &&
		grep -q "needs migration, run a write command" "$TMP/fp-err"; then
		what="needs migration"
	elif [ "$rc" = 3 ] && [ "$(wc -l <"$TMP/fp-err")" = 1 ] && [ ! -s "$TMP/fp-out" ] &&
		grep -q "left a journal to roll back, .* any write command (\`tpsdb migrate\`) rolls it back" "$TMP/fp-err"; then
		echo >>"$TMP/hot"
		what=journal
	else
		what="exit $rc: $(cat "$TMP/fp-err")"
	fi
	v=$(sqlite3 "$DB" 'PRAGMA user_version')
	# a hot journal reads as the version it rolls back to
	[ "$what" != journal ] || { [ "$v" -lt "$latest" ] && what="needs migration"; } ||
		what="a journal at the latest version"
	printf 'reader %s version %s dump %s\n' "$what" "$v" "$(sqlite3 "$DB" .dump | sha256sum | cut -c1-16)"
}
# A step between: the version is between the two, and the same content each time.
accept_between() {
	local v f
	v=$(echo "$1" | sed -n 's/.* version \([0-9]*\) .*/\1/p')
	[ -n "$v" ] && [ "$v" -gt "$from" ] && [ "$v" -lt "$latest" ] || return 1
	f=$TMP/between.$from.$v
	[ -e "$f" ] || echo "$1" >"$f"
	[ "$(cat "$f")" = "$1" ]
}
CMD=(--db "$DB" migrate)
sqlite3 "$TMP/latest.db" <"$TPSDB_TEST_DATA/schema/v11.sql"
tps_q --db "$TMP/latest.db" migrate
latest=$(sqlite3 "$TMP/latest.db" 'PRAGMA user_version')
for from in 11 8; do
	prepare() { rm -f "$DB" "$DB-wal" "$DB-shm"; sqlite3 "$DB" <"$TPSDB_TEST_DATA/schema/v$from.sql"; }
	: >"$TMP/hot"
	kill_sweep 80
	echo "t1212: from v$from, $(wc -l <"$TMP/hot") kills left a hot journal, which the reader named" >&2
done
exit 0
