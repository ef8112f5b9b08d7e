#!/usr/bin/env bash
# t1210-import-kill-anywhere.sh: 'import' of an export that carries every column
# added since the last such attack (client clock, env facts, the collector, a
# history, speed-bench runs, a spec run's settings) into a store that holds them
# too, SIGKILLed before each fsync, ftruncate and unlink it makes and before a
# spread of its writes and opens (kill-lib.sh): after every kill the store opens,
# its integrity is ok, a reader sees the old store or the whole import (the export
# and the row count of every table), never part of it, and the import run again
# completes it. Then the same import into no store at all: tpsdb makes the store
# (its migrations run in rollback-journal mode, then WAL is switched on) and
# imports into it; after every kill a reader says there is no store, an empty
# file, or (a journal left to roll back) that a write command rolls it back
# (before: "attempt to write a readonly database"), or reads an empty store or the
# whole import.
. "${TPSDB_SRC:?}/tests/cli/kill-lib.sh" || exit 1

rich_store "$TMP/rich.db"
renamed_export "$TMP/rich.db" a0a0 >"$TMP/in.jsonl"
DB=$TMP/store.db
prepare() { rm -f "$DB-wal" "$DB-shm"; cp "$TMP/rich.db" "$DB"; }
fingerprint() { store_print "$DB"; }
CMD=(--db "$DB" import "$TMP/in.jsonl")
kill_sweep 70

prepare() { rm -f "$DB" "$DB-wal" "$DB-shm" "$DB-journal"; }
fingerprint() {
	local rc=0
	"$TPSDB_BIN" --db "$DB" export >/dev/null 2>"$TMP/fp-err" || rc=$?
	if [ "$rc" = 3 ] && [ "$(wc -l <"$TMP/fp-err")" = 1 ] &&
		grep -q "no store at\|is an empty file\|holds no tpsdb schema\|left a journal to roll back, which a read-only command may not do" "$TMP/fp-err"; then
		grep -q "journal to roll back" "$TMP/fp-err" && echo >>"$TMP/hot"
		echo "no store"
	else
		store_print "$DB"
	fi
}
empty=$(: | sha256sum | cut -c1-16)
# Between: the store made, nothing imported yet.
accept_between() { case $1 in "$empty"*" run=0 sample=0 "*) ;; *) return 1 ;; esac; }
check_after() { [ ! -e "$DB" ] || [ ! -s "$DB" ] || integrity "$DB" "$1"; }
: >"$TMP/hot"
kill_sweep 80
[ -s "$TMP/hot" ] || fail "no kill left a journal to roll back"
echo "t1210: into no store, $(wc -l <"$TMP/hot") kills left a journal to roll back, which the reader named" >&2
exit 0
