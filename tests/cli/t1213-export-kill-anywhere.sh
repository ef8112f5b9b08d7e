#!/usr/bin/env bash
# t1213-export-kill-anywhere.sh: 'export --out' (JSONL, then CSV) of a store whose
# runs carry every column added since the last such attack (client clock, rates,
# env facts, the collector, a history, speed-bench runs, a spec run's settings)
# over an older export of it, SIGKILLed before each fsync, rename and unlink it
# makes and before a spread of its writes and opens (kill-lib.sh): after every
# kill --out holds the older export or the whole new one, never part of one;
# nothing but what a SIGKILL cannot clean up (its own "<out>.tmp.<pid>.XXXXXX",
# that pid gone) is left beside it; the store is not changed. The export run
# again replaces the file and removes what the killed one left (before, every
# SIGKILLed export left its temporary file for good).
. "${TPSDB_SRC:?}/tests/cli/kill-lib.sh" || exit 1

DB=$TMP/store.db
rich_store "$TMP/older.db"
renamed_export "$TMP/older.db" c0c0 >"$TMP/in.jsonl"
cp "$TMP/older.db" "$DB"
tps_q --db "$DB" import "$TMP/in.jsonl"
OUTD=$TMP/out
mkdir "$OUTD"
db_sum=$(sha256sum <"$DB")

fingerprint() { sha256sum <"$OUT" | cut -c1-16; }
check_after() {
	out_left_dead_tmp "$1"
	[ ! -s "$DB-wal" ] || fail "$1: a -wal beside the store"
}
check_recovered() { out_left_nothing "$1"; }

for fmt in jsonl csv; do
	OUT=$OUTD/runs.$fmt
	"$TPSDB_BIN" --db "$TMP/older.db" export --format "$fmt" >"$TMP/older.$fmt" || fail "the older export"
	prepare() { rm -f "${OUTD:?}"/*; cp "$TMP/older.$fmt" "$OUT"; }
	CMD=(--db "$DB" export --format "$fmt" --out "$OUT")
	kill_sweep 120
done

# What the next write removes is only a dead pid's temporary file of that exact
# form: a live pid's, a folder or a link of that name, another suffix length and
# another file's are left alone.
OUT=$OUTD/runs.jsonl
sh -c 'echo $$ >"$1"' sh "$TMP/deadpid"
dead=$(cat "$TMP/deadpid")
! kill -0 "$dead" 2>/dev/null || fail "pid $dead is still alive"
echo x >"$OUT.tmp.$dead.AbC123"
echo x >"$OUT.tmp.$$.AbC123"
mkdir "$OUT.tmp.$dead.dir456"
ln -s "$TMP/older.jsonl" "$OUT.tmp.$dead.lnk789"
echo x >"$OUT.tmp.$dead.toolong7"
echo x >"$OUT.tmp.$dead"
echo x >"$OUTD/other.jsonl.tmp.$dead.AbC123"
tps_q --db "$DB" export --out "$OUT"
[ ! -e "$OUT.tmp.$dead.AbC123" ] || fail "a dead pid's temporary file was left"
for k in "$OUT.tmp.$$.AbC123" "$OUT.tmp.$dead.dir456" "$OUT.tmp.$dead.lnk789" \
	"$OUT.tmp.$dead.toolong7" "$OUT.tmp.$dead" "$OUTD/other.jsonl.tmp.$dead.AbC123"; do
	[ -e "$k" ] || [ -L "$k" ] || fail "removed what was not a dead pid's temporary file: $k"
done
exit 0
