#!/usr/bin/env bash
# t1214-plot-kill-anywhere.sh: 'plot trend --out' over an older figure, from a
# store whose runs carry every column added since the last such attack (the
# history's decode rates, kill-lib.sh's store), SIGKILLed (tpsdb itself; gnuplot
# then gets SIGTERM from the kernel) before each fsync, rename, unlink, mkdir and
# rmdir it makes and before a spread of its writes and opens: after every kill
# --out holds the older figure or the whole new one, never part of one, nothing
# but a dead pid's "<out>.tmp.<pid>.XXXXXX" is beside it, and the store is not
# changed; the plot run again replaces the figure and leaves nothing beside it,
# nor a job folder of a killed plot in TMPDIR.
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
# A kill that lands while gnuplot's job folder exists leaves it in TMPDIR
# ("tpsdb-plot.<pid>.XXXXXX"); the next plot, finding that pid gone, removes it.
echo "t1214: job folders in TMPDIR after the sweep: $(find "$TMPDIR" -mindepth 1 -maxdepth 1 | wc -l)" >&2
"$TPSDB_BIN" --db "$DB" plot trend --model m1 --metric tg --out "$OUT" >/dev/null ||
	fail "the plot after the sweep"
[ -z "$(ls -A "$TMPDIR")" ] || fail "job folders left in TMPDIR: $(ls -A "$TMPDIR")"
exit 0
