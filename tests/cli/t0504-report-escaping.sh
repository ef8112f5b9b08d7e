#!/usr/bin/env bash
# t0504: labels with '|', newlines, backticks, '\' and tabs cannot break a markdown
# table: every row of a table has as many unescaped pipes as its header, pipes
# come out as '\|' and newlines as '<br>'; the plain text keeps one line per row.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1

sed "s#@MARK@#$TMP/m#g" "$FIX/hostile.jsonl.in" >"$TMP/hostile.jsonl"
"$TPSDB_BIN" import "$TMP/hostile.jsonl" >/dev/null || fail "import"
tps report --out "$TMP/rep" --no-plots
expect_rc 0 "report"
md=$TMP/rep/report.md

# Per table (consecutive lines starting with '|'): pipes not preceded by an odd
# number of backslashes, counted per line, must be equal to the header's.
awk '
function pipes(s,   n, i, c, bs) {
	n = 0; bs = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\") { bs++; continue }
		if (c == "|" && bs % 2 == 0) n++
		bs = 0
	}
	return n
}
/^\|/ { p = pipes($0); if (!intable) { want = p; intable = 1 } else if (p != want) { print NR": "p" pipes, want "want; bad = 1 } next }
{ intable = 0 }
END { exit bad }' "$md" || fail "a row with the wrong number of cells"

grep -qF 'q\|35 system("touch' "$md" || fail "'|' escaped in the model"
grep -qF 'ours"'"'"'<br>\`touch' "$md" || fail "newline as <br>, backtick escaped"
grep -qF '### q\|35' "$md" || fail "escaped in a heading"
grep -qF '| p\|1<br>\`touch' "$md" || fail "escaped prompt name"
grep -qF '@x #c tab \\' "$md" || fail "tab as a space, backslash doubled"
# No line of a table starts without a pipe: a raw newline would leave one.
awk '/^\|/ { t = 1; next } t && /^[^|]/ && !/^$/ { print; bad = 1 } { t = 0 } END { exit bad }' "$md" \
	|| fail "a table row was split"

# Plain text: the newline is the two characters \n, on the row's own line.
grep -qF 'ours"'"'"'\n`touch' "$TMP/rep/summary.txt" || fail "plain text newline"
rows=$(sed -n '/^Base throughput/,/^Speculative/p' "$TMP/rep/summary.txt" | grep -c 'q|35' || true)
[ "$rows" = 1 ] || fail "one base row in the text, got $rows"

# CSV: a field with a quote, comma or newline is quoted, its quotes doubled.
tps report --format csv
expect_rc 0 "report --format csv"
grep -qF ',"q|35 system(""touch ' "$TMP/out" || fail "csv quoting"
exit 0
