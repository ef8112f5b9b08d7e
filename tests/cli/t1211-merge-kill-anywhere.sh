#!/usr/bin/env bash
# t1211-merge-kill-anywhere.sh: 'merge' of a store whose runs carry every column
# added since the last such attack (client clock, env facts, the collector, a
# history, speed-bench runs, a spec run's settings, imported-file records) into
# another such store, SIGKILLed before each fsync, ftruncate and unlink it makes
# and before a spread of its writes and opens (kill-lib.sh): after every kill the
# target opens, its integrity is ok, a reader sees the old target or the whole
# merge, never part of it; the source is untouched; the merge run again completes.
. "${TPSDB_SRC:?}/tests/cli/kill-lib.sh" || exit 1

rich_store "$TMP/rich.db"
renamed_export "$TMP/rich.db" b0b0 >"$TMP/in.jsonl"
SRC=$TMP/source.db
rich_store "$SRC"
tps_q --db "$SRC" import "$TMP/in.jsonl"
src_sum=$(sha256sum <"$SRC")
DB=$TMP/store.db
prepare() { rm -f "$DB-wal" "$DB-shm"; cp "$TMP/rich.db" "$DB"; }
fingerprint() { store_print "$DB"; }
check_after() {
	integrity "$DB" "$1"
	[ "$(sha256sum <"$SRC")" = "$src_sum" ] || fail "$1: the source changed"
	[ ! -e "$SRC-wal" ] || [ ! -s "$SRC-wal" ] || fail "$1: a -wal beside the source"
}
CMD=(--db "$DB" merge "$SRC")
kill_sweep 100
exit 0
