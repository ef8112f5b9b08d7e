#!/usr/bin/env bash
# t0522: the report on issue 27's H100 store (gpu-seq.jsonl: engines new of role
# ours, old of role upstream, aa of role other; no label holds "llama.cpp" or
# "stock") answers without --ref for ours against both others, each cell's
# numbers, verdict, regression and mde the very ones 'tpsdb compare --ours new
# --vs <engine>' gives, its answer line compare's first line; the report folder
# draws prefill beside decode; runs names its medians the run's and each build
# by its binary.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
need jq

"$TPSDB_BIN" import "$TPSDB_TEST_DATA/gpu/gpu-seq.jsonl" >/dev/null || fail "import"

tps report --format json --no-plots
expect_rc 0 "report --format json"
cp "$TMP/out" "$TMP/r.json"
jq -e '.reference == null and .ours == "new"' "$TMP/r.json" >/dev/null || fail "ours judged, no ref"
tps report --no-plots
expect_rc 0 "report md"
cp "$TMP/out" "$TMP/r.md"
grep -q 'no verdicts' "$TMP/r.md" && fail "no verdicts without --ref"

r2() { jq -r "$1"' | if . == null then "null" else (. * 100 | round / 100 | tostring) end' "$2"; }
for vs in aa old; do
	tps compare --ours new --vs "$vs" --json
	expect_rc 0 "compare --vs $vs"
	cp "$TMP/out" "$TMP/c.json"
	for m in pp tg; do
		row=".rows[] | select(.metric == \"$m\")"
		cell=".base[0].cells[] | select(.engine == \"$vs\") | .verdict_$m"
		for k in verdict regression decided; do
			[ "$(jq -r "$cell.$k" "$TMP/r.json")" = "$(jq -r "$row.$k" "$TMP/c.json")" ] ||
				fail "$vs $m: report's $k is not compare's"
		done
		for k in delta_pct ci_lo_pct ci_hi_pct mde_pct; do
			[ "$(r2 "$cell.$k" "$TMP/r.json")" = "$(r2 "$row.$k" "$TMP/c.json")" ] ||
				fail "$vs $m: report's $k $(r2 "$cell.$k" "$TMP/r.json") is not compare's $(r2 "$row.$k" "$TMP/c.json")"
		done
		# The cell's tok/s is compare's pooled estimate of that engine.
		[ "$(r2 ".base[0].cells[] | select(.engine == \"$vs\") | .$m" "$TMP/r.json")" = \
		  "$(r2 "$row.vs_median" "$TMP/c.json")" ] || fail "$vs $m: the cell's estimate"
	done
	tps compare --ours new --vs "$vs"
	line=$(grep -m1 "^new vs $vs: " "$TMP/out" | sed 's/\[/\\[/g; s/\]/\\]/g')
	[ -n "$line" ] || fail "compare's answer line for $vs"
	grep -qxF "**$line**" "$TMP/r.md" || { grep '^\*\*' "$TMP/r.md" >&2; fail "the answer line for $vs"; }
done
# old's prefill is the regression; its cell says so with compare's mde.
jq -e '.base[0].cells[] | select(.engine == "old") | .verdict_pp.verdict == "slower" and
	.verdict_pp.regression == "yes"' "$TMP/r.json" >/dev/null || fail "old pp slower"
grep -q '^| m7b | .* | [0-9]* / [0-9.]* (new: mde 2.2%: -4.5% slower / mde 2.5%: +4.0% undecided) |$' \
	"$TMP/r.md" || fail "old's cell: answers and mde as compare gives them"

# The folder draws prefill as well as decode, and the markdown links both.
if command -v gnuplot >/dev/null 2>&1; then
	tps report --out "$TMP/rep"
	expect_rc 0 "report --out"
	for f in parity-pp.png trend-pp.png parity.png trend.png; do
		[ -s "$TMP/rep/$f" ] || fail "no $f"
		grep -q "($f)" "$TMP/rep/report.md" || fail "report.md does not show $f"
	done
fi

# runs: VERSION names each unnumbered build by its binary, as trend and the
# report do; the JSON carries the sha256.
tps runs --engine old --limit 1
grep -Eq '^2026-12-05 23:18:07 +ff139c5d-f6cb-48bc-ad18-4415d106dab5 +complete +vm +old +b0-unknown sha bbde6b07 +m7b ' \
	"$TMP/out" || { cat "$TMP/out" >&2; fail "runs: old's build"; }
tps runs --json --engine new --limit 1
jq -e '.[0].engine_version == "b0-unknown" and
	.[0].engine_sha256 == "601a1b0477ec758708b8c5504a8861d6d3dee025af0d2ccd76bfe613e5b12c35"' \
	"$TMP/out" >/dev/null || fail "runs --json: engine_sha256"

# runs: the medians are one run's, and the columns say so.
tps runs --format md --engine old --limit 1
grep -q '^| STARTED .* | PP_RUN_MED | TG_RUN_MED |$' "$TMP/out" || fail "runs header"
grep -q "^_PP_RUN_MED, TG_RUN_MED: .*the median of this run's requests" "$TMP/out" ||
	fail "runs legend"
exit 0
