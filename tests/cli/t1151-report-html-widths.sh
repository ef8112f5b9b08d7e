#!/usr/bin/env bash
# t1151: the HTML report leads with its answers at a phone's width and a
# laptop's (headless Chromium, as t0531): on index.html, at 390x844 and at
# 1280x900, the first element of the body after the title is the answers table
# (no prose, no list, no navigation before it), the page never scrolls sideways
# (a wide table scrolls inside its own box), and at 1280 the answers table fits
# whole. The widths are iframes of a check page (a headless window is at least
# 500 px wide), read through the DOM; the screenshots of both widths are kept in
# the test's artifacts: $TPSDB_ARTIFACTS/t1151 (default: artifacts/t1151 beside
# the binary). The store has a spoiled newest batch (the answers table shows its
# newest clean answer), so the trend figures draw hollow marks and name them.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
need_gnuplot chromium python3

ART=${TPSDB_ARTIFACTS:-$(dirname "$TPSDB_BIN")/artifacts}/t1151
mkdir -p "$ART" || fail "cannot make $ART"
rm -f "$ART"/*.png "$ART"/checks.txt

python3 "$FIX/spoiled.py" "$FIX/study.jsonl" >"$TMP/spoiled.jsonl" || fail "the spoiled fixture"
"$TPSDB_BIN" import "$TMP/spoiled.jsonl" >/dev/null 2>&1 || fail "import of the spoiled fixture"
load history.jsonl
tps report --format html --out "$TMP/rep"
expect_rc 0 "report --format html"
grep -q '<td class="ans ans-spoiled">spoiled (host-busy)</td>' "$TMP/rep/index.html" ||
	fail "no spoiled row in the answers table"

# Spoiled runs are hollow marks in the trend figures, and the legend says so:
# q35's history (its model page's figure) holds the spoiled run of ours, m1's
# (the page's main trend) none.
hollow=$(grep -l 'hollow: run not clean (spoiled or incomplete)' "$TMP"/rep/*.svg) ||
	fail "no trend figure names a hollow mark"
[ "$(echo "$hollow" | wc -l)" = 1 ] || fail "hollow marks in: $hollow"
grep -q '>decode tok/s (tg) of q35, base: median per run<' $hollow || fail "$hollow is not q35's"
grep -q 'hollow' "$TMP/rep/trend.svg" && fail "m1's trend has no spoiled run, yet names hollow marks"

# The check page: index.html in an iframe of each width; what its DOM shows is
# written into the check page's root element, which --dump-dom prints.
cat >"$TMP/rep/t1151-check.html" <<'HTML'
<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">
<iframe id="phone" src="index.html" style="width:390px;height:844px;border:0"></iframe>
<iframe id="desktop" src="index.html" style="width:1280px;height:900px;border:0"></iframe>
<script>
var left = 2, out = [];
function check(f) {
	var d = f.contentDocument, kids, i = 0, first, t, box, de;
	if (!d) { out.push(f.id + ":no-access"); return; }
	de = d.documentElement;
	kids = [].slice.call(d.body.children);
	while (i < kids.length && kids[i].tagName === "H1")
		i++;
	first = kids[i];
	t = d.querySelector("table.answers");
	box = t ? t.parentElement : null;
	out.push(f.id + ":h1=" + i);
	out.push(f.id + ":first=" + (first ? first.tagName + "#" + first.id : "none"));
	out.push(f.id + ":first-child=" + (first && first.firstElementChild ?
		first.firstElementChild.tagName + "." + first.firstElementChild.className : "none"));
	out.push(f.id + ":tables-before=" + (t ? [].slice.call(d.querySelectorAll("table"))
		.indexOf(t) : -1));
	out.push(f.id + ":vw=" + f.contentWindow.innerWidth);
	out.push(f.id + ":width=" + de.clientWidth);
	out.push(f.id + ":overflow=" + (de.scrollWidth - de.clientWidth));
	out.push(f.id + ":box-right=" + (box ? Math.ceil(box.getBoundingClientRect().right) : -1));
	out.push(f.id + ":table-inside=" + (t && box ? (t.offsetWidth <= box.clientWidth ? 1 : 0) : -1));
}
function done(f) {
	check(f);
	if (--left === 0)
		document.documentElement.setAttribute("data-check", out.join(" "));
}
document.getElementById("phone").addEventListener("load", function () { done(this); });
document.getElementById("desktop").addEventListener("load", function () { done(this); });
</script></body></html>
HTML
browse "$TMP/dom" --allow-file-access-from-files --window-size=1700,1000 \
	--dump-dom "file://$TMP/rep/t1151-check.html"
checks=$(sed -n 's/.*data-check="\([^"]*\)".*/\1/p' "$TMP/dom")
[ -n "$checks" ] || { tail -5 "$TMP/dom.log" >&2; fail "the check page reported nothing"; }
printf '%s\n' $checks >"$ART/checks.txt"
want() { # <key=value>: one of the checks
	grep -qxF "$1" "$ART/checks.txt" || { cat "$ART/checks.txt" >&2; fail "expected $1"; }
}
for w in phone desktop; do
	want "$w:h1=1"
	want "$w:first=DIV#answers"
	want "$w:first-child=TABLE.answers"
	want "$w:tables-before=0"
	want "$w:overflow=0"
done
want "phone:vw=390"
want "desktop:vw=1280"
want "desktop:table-inside=1"
for w in phone desktop; do
	r=$(sed -n "s/^$w:box-right=//p" "$ART/checks.txt")
	x=$(sed -n "s/^$w:width=//p" "$ART/checks.txt")
	[ "$r" -le "$x" ] || fail "$w: the answers' box ends at $r, past the page's $x"
done

# The screenshots of both widths, kept.
shot() { # <name> <w> <h>
	browse "$TMP/shot.out" --hide-scrollbars --window-size="$2,$3" \
		--screenshot="$ART/$1" "file://$TMP/rep/index.html"
	png_real "$ART/$1" "$2" "$3" || fail "$1 is not a real picture"
}
shot phone-390x844.png 390 844
shot desktop-1280x900.png 1280 900
echo "ok: screenshots in $ART"
