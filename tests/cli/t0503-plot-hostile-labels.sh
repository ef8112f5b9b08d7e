#!/usr/bin/env bash
# t0503: engine, model, tag, spec-type and prompt labels holding quotes, newlines,
# backticks, system("touch ..."), `touch ...`, "; ! touch ...", a gnuplot
# "set output" line, '@x', '#' and a tab never run a command through gnuplot: every
# figure (PNG and SVG) and the report's plots are drawn, and the folder the
# commands would touch stays empty.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
need_gnuplot

mark=$TMP/pwned
mkdir "$mark"
# plot's private folders (tpsdb-plot.<pid>.XXXXXX) go under $TMPDIR: a folder of our own,
# so the check at the end sees only this test's.
export TMPDIR=$TMP/tmpdir
mkdir "$TMPDIR"
# The commands in the labels touch files in $mark; made absolute per run.
sed "s#@MARK@#$mark#g" "$FIX/hostile.jsonl.in" >"$TMP/hostile.jsonl"
"$TPSDB_BIN" import "$TMP/hostile.jsonl" >/dev/null || fail "import"

for kind in trend sweep parity; do
	for ext in png svg; do
		tps plot "$kind" --out "$TMP/$kind.$ext"
		expect_rc 0 "plot $kind .$ext"
		[ -s "$TMP/$kind.$ext" ] || fail "$kind.$ext was not written"
	done
done
head -c 8 "$TMP/trend.png" | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a' || fail "a PNG"
grep -q '<svg' "$TMP/sweep.svg" || fail "an SVG"
# The labels travelled, made harmless: the legend of the SVG holds the engine.
grep -q 'touch' "$TMP/trend.svg" || fail "the label reached the figure"

tps report --out "$TMP/rep"
expect_rc 0 "report with plots"
for f in report.md summary.txt trend.png sweep.png parity.png; do
	[ -s "$TMP/rep/$f" ] || fail "report wrote no $f"
done

[ -z "$(ls -A "$mark")" ] || { ls -la "$mark" >&2; fail "a label ran a command"; }
[ ! -e "$mark/evil.png" ] || fail "a label redirected the output"
# No stray temporary folders of ours are left behind either.
[ -z "$(ls -A "$TMPDIR")" ] || { ls -la "$TMPDIR" >&2; fail "temporary files left behind"; }
exit 0
