#!/usr/bin/env bash
# t0530: 'report --format html' writes a self-contained folder: index.html with the
# five tables and links, the figures as SVG, a page per model with its history and
# change points, no reference to the network, every label escaped; the report's
# trend is the model with the longest history (m1), not the first model (g4);
# each engine has one colour in every figure; the parity legend names only the
# comparisons with bars (ours against each engine, without --ref), in the
# colour of the engine ours is judged against; the prefill trend and parity
# figures sit beside decode's. The browser test is t0531.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
need_gnuplot python3

load study.jsonl
load history.jsonl
tps report --format html --out "$TMP/rep"
expect_rc 0 "report --format html"
grep -q "^wrote $TMP/rep/index.html, .*trend.svg.*3 model pages$" "$TMP/out" || fail "what was written"
for f in index.html trend.svg sweep.svg parity.svg trend-pp.svg parity-pp.svg model-1.html \
	model-2.html model-3.html trend-1.svg trend-2.svg trend-3.svg; do
	[ -s "$TMP/rep/$f" ] || fail "no $f"
done
for h in "Base throughput" "Speculative decoding" "Per-prompt acceptance" \
	"Data quality and model identity" ">Runs<" '<img src="trend-pp.svg"' '<img src="parity-pp.svg"' \
	'<figcaption>parity deltas of prefill (pp)</figcaption>'; do
	grep -qF "$h" "$TMP/rep/index.html" || fail "index.html lacks $h"
done
# The comparison's one-line answer leads, and with one run a rung no fastest rung
# is shaded: only what is decided is highlighted.
grep -qF '<p class="answer"><b>ours vs llama.cpp: pp 1 undecided, geomean +0.4%' "$TMP/rep/index.html" ||
	fail "index.html lacks the one-line answer"
grep -q 'class="num best"' "$TMP/rep/index.html" && fail "an undecided fastest rung is shaded"
tps report --format html
expect_rc 2 "html without --out"

python3 - "$TMP/rep" <<'PY' || fail "folder check"
import os, re, sys
d = sys.argv[1]
bad = []
ns = {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}
for f in sorted(os.listdir(d)):
    t = open(os.path.join(d, f), encoding="utf-8").read()
    # nothing from the network: no remote URL but the SVG namespaces, no script
    for u in re.findall(r"(?i)(?:https?:)?//[^\s\"'<>)]+", t):
        if u not in ns:
            bad.append(f"{f}: remote reference {u}")
    if re.search(r"(?i)<script|@import|<link", t):
        bad.append(f"{f}: script, import or link")
    if f.endswith(".html"):
        if "<style>" not in t or "@media print" not in t:
            bad.append(f"{f}: no inline style with a print rule")
        for ref in re.findall(r'(?:src|href)="([^"]*)"', t):
            if not ref.startswith("#") and not os.path.exists(os.path.join(d, ref)):
                bad.append(f"{f}: {ref} is missing")
idx = open(os.path.join(d, "index.html")).read()
# The trend of the model with the longest history (m1: 39 runs), not g4's.
m = re.search(r"<figcaption>([^<]*of m1, base[^<]*)</figcaption>", idx)
if not m:
    bad.append("the report's trend is not m1's")
pages = dict(re.findall(r'<a href="(model-\d+\.html)">([^<]*)</a>', idx))
if sorted(pages.values()) != ["g4", "m1", "q35"]:
    bad.append(f"model pages {pages}")
for p, model in pages.items():
    t = open(os.path.join(d, p)).read()
    if f"<h1>{model}</h1>" not in t or 'href="index.html"' not in t:
        bad.append(f"{p}: not {model}'s page")
    if model == "m1":
        # history and change points: steps falls 10% and rises 22%
        if "-10.0%" not in t or "+22.2%" not in t or t.count("<tr>") < 40:
            bad.append("m1's page lacks its change points or runs")
        if not re.search(r'<img src="trend-\d+\.svg"', t):
            bad.append("m1's page lacks its figure")

# Colours: the legend entries of every SVG, as (label, colour).
def legend(path):
    t = open(path).read()
    out = []
    for blk in re.split(r'<g id="gnuplot_plot_\d+"', t)[1:]:
        lab = re.search(r"<text>([^<]*)</text>", blk)
        col = re.search(r"(?:stroke|fill) ?= ?'(rgb\([^)]*\))'", blk)
        if lab and col:
            out.append((lab.group(1), col.group(1)))
    return out
seen = {}
for f in sorted(os.listdir(d)):
    if not f.endswith(".svg"):
        continue
    for lab, col in legend(os.path.join(d, f)):
        eng = re.sub(r" (decode tok/s|acceptance)$", "", lab)
        # A parity bar is ours' against an engine, in that engine's colour.
        eng = re.sub(r"^ours vs ", "", eng)
        if "parity band" in lab or "level per segment" in lab:
            continue
        if seen.setdefault(eng, col) != col:
            bad.append(f"{eng}: {col} in {f}, {seen[eng]} elsewhere")
cols = list(seen.values())
if len(set(cols)) != len(cols):
    bad.append(f"two engines share a colour: {seen}")
if not {"ours", "llama.cpp", "stock-llamafile"} <= set(seen):
    bad.append(f"engines seen: {sorted(seen)}")
# Parity: ours against stock-llamafile and llama.cpp (was: ours and
# stock-llamafile against the upstream llama.cpp, the reference by default);
# outlier, steady and steps ran only m1, which ours did not: no bar, not in the
# legend. The same of prefill.
for fig in ("parity.svg", "parity-pp.svg"):
    par = sorted(l for l, _ in legend(os.path.join(d, fig)) if "parity band" not in l)
    if par != ["ours vs llama.cpp", "ours vs stock-llamafile"]:
        bad.append(f"{fig} legend {par}")
print("\n".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
PY

# Labels are escaped on every page: a label holding markup stays text.
export TPSDB_DB=$TMP/hostile.sqlite
sed 's#@MARK@#<img src=x onerror=alert(1)>#g' "$FIX/hostile.jsonl.in" >"$TMP/hostile.jsonl"
"$TPSDB_BIN" import "$TMP/hostile.jsonl" >/dev/null || fail "import hostile"
tps report --format html --out "$TMP/rep2"
expect_rc 0 "report of hostile labels"
! grep -rq '<img src=x' "$TMP/rep2" || fail "a label reached a page as markup"
grep -q '&lt;img src=x onerror=alert(1)&gt;' "$TMP/rep2/index.html" || fail "the label is not shown escaped"
grep -qF '&quot;&apos;' "$TMP/rep2/index.html" || fail "quotes are not escaped"
echo ok
