#!/usr/bin/env bash
# t0507: each figure is drawn to PNG and SVG from the study fixture, the report
# writes its five PNGs (trend, sweep and parity of decode, trend-pp and parity-pp
# of prefill) next to report.md and links them, and 'plot' refuses a bad figure
# name or extension (exit 2) and an empty figure (exit 3).
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
need_gnuplot

load study.jsonl
for kind in trend sweep parity; do
	tps plot "$kind" --out "$TMP/$kind.png"
	expect_rc 0 "plot $kind"
	[ "$(cat "$TMP/out")" = "wrote $TMP/$kind.png" ] || fail "$kind: what was written"
	head -c 8 "$TMP/$kind.png" | od -An -tx1 | grep -q '89 50 4e 47' || fail "$kind: a PNG"
done
tps plot parity --metric pp --out "$TMP/p.svg"
expect_rc 0 "plot parity svg"
grep -q '<svg' "$TMP/p.svg" || fail "an SVG"
# Without --ref the bars are ours' against each other engine, and say so.
grep -q '>ours vs stock-llamafile<' "$TMP/p.svg" || fail "the legend names the comparison"
grep -q 'pp delta % of ours against each other engine' "$TMP/p.svg" || fail "the title"
tps plot parity --metric pp --ref llama.cpp --out "$TMP/pr.svg"
expect_rc 0 "plot parity --ref"
grep -q 'pp delta % against llama.cpp' "$TMP/pr.svg" || fail "the title with --ref"
tps plot parity --engine ours --out "$TMP/one.svg"
expect_rc 3 "a parity figure of one engine"
grep -qx "tpsdb: error: nothing to compare: the runs that match hold one engine, 'ours' (name a reference with --ref, or select another engine's runs)" \
	"$TMP/err" || fail "says why"
tps plot trend --model q35 --spec-type draft --n-max 2 --out "$TMP/t2.png"
expect_rc 0 "plot trend of a speculative cell"
"$TPSDB_BIN" baseline set up --engine llama.cpp >/dev/null || fail "baseline set"
tps plot trend --model q35 --baseline up --out "$TMP/t3.png"
expect_rc 0 "plot trend with a baseline band"
[ ! -s "$TMP/err" ] || fail "the baseline has runs of q35: no warning"

tps report --out "$TMP/rep"
expect_rc 0 "report"
for f in trend trend-pp sweep parity parity-pp; do
	[ -s "$TMP/rep/$f.png" ] || fail "report: no $f.png"
	grep -qF "($f.png)" "$TMP/rep/report.md" || fail "report: no link to $f.png"
done
grep -qF "wrote $TMP/rep/report.md, $TMP/rep/summary.txt, $TMP/rep/trend.png, $TMP/rep/trend-pp.png, $TMP/rep/sweep.png, $TMP/rep/parity.png, $TMP/rep/parity-pp.png" \
	"$TMP/out" || fail "report: what was written"

tps plot bars --out "$TMP/x.png"
expect_rc 2 "an unknown figure"
tps plot trend --out "$TMP/x.jpg"
expect_rc 2 "a bad extension"
tps plot trend
expect_rc 2 "no --out"
tps plot sweep --model nope --out "$TMP/x.png"
expect_rc 3 "a model the store does not hold"
grep -q "^tpsdb: error: --model 'nope': no model of that name in the store (known, closest first: " "$TMP/err" ||
	fail "names the known models"
[ ! -e "$TMP/x.png" ] || fail "no file for nothing"
exit 0
