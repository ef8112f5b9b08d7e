#!/usr/bin/env bash
# t1113-plot-signal-gnuplot.sh (issue 39): a signal to tpsdb while gnuplot hangs
# ends both at once. 'plot' and 'report' die of the signal as before (exit 143,
# their temporary paths removed: RELIABILITY.md, output files), and the kernel now
# sends gnuplot SIGTERM when tpsdb dies (PROC_PARENT_DEATH): before, a gnuplot
# that hung ran on after tpsdb was gone, its deadline kept by no one.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
T=$TMP
. "$TPSDB_SRC/tests/cli/signal-lib.sh"

load study.jsonl
mkdir "$TMP/bin"
printf '#!/bin/sh\necho $$ >>"%s/gnuplot.pids"\nexec sleep 3600\n' "$TMP" >"$TMP/bin/gnuplot"
chmod +x "$TMP/bin/gnuplot"
mkdir "$TMP/out"
tpsdb_plot() { PATH=$TMP/bin:$PATH exec "$TPSDB_BIN" "$@"; }

term_when_hung "plot" "$TMP/gnuplot.pids" tpsdb_plot plot trend --out "$TMP/out/t.png"
[ "$rc" = 143 ] || fail "plot: exit $rc ($(cat "$TMP/stderr"))"
term_when_hung "report" "$TMP/gnuplot.pids" tpsdb_plot report --format html --out "$TMP/out/r"
[ "$rc" = 143 ] || fail "report: exit $rc ($(cat "$TMP/stderr"))"
[ -z "$(ls -A "$TMP/out")" ] || fail "left in the output folder: $(ls -A "$TMP/out")"
echo ok
