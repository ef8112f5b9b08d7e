#!/usr/bin/env bash
# t1214-plot-kill-anywhere.sh: 'plot trend --out' over an older figure, from a
# store whose runs carry every column added since the last such attack (the
# history's decode rates, kill-lib.sh's store), SIGKILLed (tpsdb itself; gnuplot
# then gets SIGTERM from the kernel) before each fsync, rename, unlink, mkdir and
# rmdir it makes and before a spread of its writes and opens: after every kill
# --out holds the older figure or the whole new one, never part of one, nothing
# but a dead pid's "<out>.tmp.<pid>.XXXXXX" is beside it, and the store is not
# changed; the plot run again replaces the figure and leaves nothing beside it.
. "${TPSDB_SRC:?}/tests/cli/kill-lib.sh" || exit 1
need gnuplot

DB=$TMP/store.db
rich_store "$DB"
OUTD=$TMP/out
mkdir "$OUTD"
OUT=$OUTD/trend.svg
export TMPDIR=$TMP/tmpdir
mkdir "$TMPDIR"
db_sum=$(sha256sum <"$DB")
"$TPSDB_BIN" --db "$DB" plot trend --model m1 --metric pp --out "$TMP/older.svg" >/dev/null ||
	fail "the older figure"
prepare() { rm -rf "${OUTD:?}"/* "$OUTD"/.[!.]*; cp "$TMP/older.svg" "$OUT"; }
fingerprint() { sha256sum <"$OUT" | cut -c1-16; }
check_after() { out_left_dead_tmp "$1"; }
check_recovered() { out_left_nothing "$1"; }
CMD=(--db "$DB" plot trend --model m1 --metric tg --out "$OUT")
TRACE_FOLLOW=
kill_sweep 80
# Not held: gnuplot's job folder in TMPDIR ("tpsdb-plot-XXXXXX", no pid in its name)
# is left by each kill that lands while it exists; only said here.
echo "t1214: job folders the kills left in TMPDIR: $(find "$TMPDIR" -mindepth 1 -maxdepth 1 | wc -l)" >&2
exit 0
