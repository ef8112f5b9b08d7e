#!/usr/bin/env bash
# t1215-plot-stale-folders.sh: a plot job's private folder in $TMPDIR is named
# tpsdb-plot.<pid>.XXXXXX, so one a SIGKILL left (t1214) is known stale: the next
# plot removes, in each folder of a process that is gone, the files a plot job
# writes (plot.gp, gnuplot.log, f<n>_<name>.dat, figure<n>.svg or .png) and the
# folder. It leaves a live process's folder, anything else in a dead one's (and so
# that folder), names that are not its own, and a link in such a name.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
need_gnuplot

export TMPDIR=$TMP/tmpdir
mkdir "$TMPDIR"
"$TPSDB_BIN" import "$FIX/study.jsonl" >/dev/null || fail "import"
sh -c 'exit 0' &
dead=$!
wait "$dead"
kill -0 "$dead" 2>/dev/null && fail "pid $dead still alive"
job() { # <folder> <files...>
	mkdir "$TMPDIR/$1"
	shift
	for f in "$@"; do echo x >"$TMPDIR/${f}"; done
}
job "tpsdb-plot.$dead.aB3dE9" "tpsdb-plot.$dead.aB3dE9/plot.gp" \
	"tpsdb-plot.$dead.aB3dE9/gnuplot.log" "tpsdb-plot.$dead.aB3dE9/f1_trend.dat" \
	"tpsdb-plot.$dead.aB3dE9/f12_base.dat" "tpsdb-plot.$dead.aB3dE9/figure2.svg"
job "tpsdb-plot.$dead.zZ0000" "tpsdb-plot.$dead.zZ0000/plot.gp" \
	"tpsdb-plot.$dead.zZ0000/notes.txt"
job "tpsdb-plot.$$.Qw8rTy" "tpsdb-plot.$$.Qw8rTy/plot.gp"
job "tpsdb-plot-Xy12ab" "tpsdb-plot-Xy12ab/plot.gp"
job "tpsdb-plot.$dead.short" "tpsdb-plot.$dead.short/plot.gp"
# A link in that name (another user's trick in a shared /tmp) is not followed.
mkdir "$TMP/victim"
echo x >"$TMP/victim/plot.gp"
ln -s "$TMP/victim" "$TMPDIR/tpsdb-plot.$dead.Lnk123"

tps plot trend --out "$TMP/trend.svg"
expect_rc 0 "plot trend"
[ -s "$TMP/trend.svg" ] || fail "no figure"
[ ! -e "$TMPDIR/tpsdb-plot.$dead.aB3dE9" ] || fail "a dead job's folder stayed: $(ls -A "$TMPDIR/tpsdb-plot.$dead.aB3dE9")"
[ -e "$TMPDIR/tpsdb-plot.$dead.zZ0000/notes.txt" ] || fail "a file not a job's was removed"
[ ! -e "$TMPDIR/tpsdb-plot.$dead.zZ0000/plot.gp" ] || fail "the job's file beside it stayed"
[ -e "$TMPDIR/tpsdb-plot.$$.Qw8rTy/plot.gp" ] || fail "a live process's folder was touched"
[ -e "$TMPDIR/tpsdb-plot-Xy12ab/plot.gp" ] || fail "a name without a pid was touched"
[ -e "$TMPDIR/tpsdb-plot.$dead.short/plot.gp" ] || fail "a name not XXXXXX-suffixed was touched"
[ -e "$TMP/victim/plot.gp" ] || fail "a file was removed through a link"
# The plot's own folder is gone as always.
n=$(find "$TMPDIR" -mindepth 1 -maxdepth 1 | wc -l | tr -d ' ')
[ "$n" = 5 ] || fail "$n entries left, not 5: $(ls -A "$TMPDIR")"
exit 0
