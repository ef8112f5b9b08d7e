#!/usr/bin/env bash
# t0505: without gnuplot on PATH, 'plot' is one error line naming the package
# (gnuplot-nox) and exit 3; 'report' still writes report.md and summary.txt, warns
# that the plots were skipped and says so in the report.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1

load study.jsonl
bin=$TPSDB_BIN
empty=$TMP/empty-path
mkdir "$empty"

rc=0
PATH=$empty "$bin" plot trend --out "$TMP/t.png" >"$TMP/out" 2>"$TMP/err" || rc=$?
[ "$rc" = 3 ] || fail "plot without gnuplot: exit $rc"
[ "$(wc -l <"$TMP/err")" = 1 ] || fail "one error line"
grep -q "^tpsdb: error: gnuplot not found on PATH: install it with 'apt-get install gnuplot-nox'" \
	"$TMP/err" || fail "the error names gnuplot-nox"
[ ! -e "$TMP/t.png" ] || fail "no file"

rc=0
PATH=$empty "$bin" report --out "$TMP/rep" >"$TMP/out" 2>"$TMP/err" || rc=$?
[ "$rc" = 0 ] || fail "report without gnuplot: exit $rc"
[ -s "$TMP/rep/report.md" ] && [ -s "$TMP/rep/summary.txt" ] || fail "the text was written"
grep -q "^tpsdb: warning: gnuplot not found on PATH: plots skipped (install it with 'apt-get install gnuplot-nox')" \
	"$TMP/err" || fail "the warning"
grep -qF 'Plots skipped: gnuplot was not found (apt-get install gnuplot-nox).' "$TMP/rep/report.md" \
	|| fail "the report says so"
ls "$TMP/rep" | grep -q '\.png$' && fail "no plots"
grep -q '13157 / 142.7' "$TMP/rep/report.md" || fail "the tables are there"
exit 0
