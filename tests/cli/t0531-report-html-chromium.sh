#!/usr/bin/env bash
# t0531: the HTML report in a real browser (headless Chromium, Debian's chromium):
# every page loads from file:// with no console error and no missing file, and a
# screenshot of index.html at a laptop's width (1366x900) is a real picture.
# TPSDB_SCREENSHOT=<file> keeps the screenshot (docs/img/report-html.png comes
# from here).
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
need_gnuplot chromium python3

load study.jsonl
load history.jsonl
tps report --format html --out "$TMP/rep"
expect_rc 0 "report --format html"

n=0
for page in "$TMP"/rep/*.html; do
	browse "$TMP/dom" --dump-dom "file://$page"
	n=$((n + 1))
	grep -q '</html>' "$TMP/dom" || fail "$page: no document"
	if grep -E 'ERROR:CONSOLE|Uncaught|Failed to load|net::ERR_' "$TMP/dom.log" >&2; then
		fail "$page: a console error or a missing file"
	fi
	# What the browser saw: every src and href of the loaded page is in the folder.
	python3 - "$TMP/rep" "$TMP/dom" <<'PY' || fail "$page: a missing file"
import os, re, sys
d, dom = sys.argv[1], open(sys.argv[2]).read()
miss = [r for r in re.findall(r'(?:src|href)="([^"]*)"', dom)
        if not r.startswith("#") and not os.path.exists(os.path.join(d, r))]
print(*miss, file=sys.stderr)
sys.exit(1 if miss else 0)
PY
done
[ "$n" -eq 4 ] || fail "$n pages, expected index.html and 3 model pages"

browse "$TMP/shot.out" --hide-scrollbars --window-size=1366,900 \
	--screenshot="$TMP/shot.png" "file://$TMP/rep/index.html"
png_real "$TMP/shot.png" 1366 900 || fail "the screenshot is not a real picture"
if [ -n "${TPSDB_SCREENSHOT:-}" ]; then
	cp "$TMP/shot.png" "$TPSDB_SCREENSHOT"
fi
echo ok
