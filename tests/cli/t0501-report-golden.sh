#!/usr/bin/env bash
# t0501: the report of the study fixture (three engines, two models, a speculative
# sweep, flagged samples, a LOADFAIL and a model-identity alarm) in every format
# equals the committed golden files: report.md, summary.txt, report.json,
# report.csv, and the markdown on stdout without --out.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1

load study.jsonl

tps report --out "$TMP/md" --no-plots
expect_rc 0 "report --out"
[ "$(cat "$TMP/out")" = "wrote $TMP/md/report.md, $TMP/md/summary.txt" ] || fail "what was written"
golden study.report.md "$TMP/md/report.md"
golden study.summary.txt "$TMP/md/summary.txt"

tps report --format json --out "$TMP/json" --no-plots
expect_rc 0 "report --format json"
golden study.report.json "$TMP/json/report.json"
[ ! -e "$TMP/json/summary.txt" ] || fail "summary.txt is for markdown only"

tps report --format csv --out "$TMP/csv" --no-plots
expect_rc 0 "report --format csv"
golden study.report.csv "$TMP/csv/report.csv"

tps report
expect_rc 0 "report to stdout"
golden study.stdout.md "$TMP/out"
[ ! -s "$TMP/err" ] || fail "nothing on stderr"

# The formats carry the same numbers: the q35 cells of ours in all three.
# One run a side and no stored floor: the point, and nothing decided.
grep -q '^| q35 | 13157 / 142.7 (+0.4% undecided / -0.2% undecided) |' "$TMP/md/report.md" || fail "md cell"
grep -q '^q35 .*13157 / 142.7 (+0.4% undecided / -0.2% undecided)' "$TMP/md/summary.txt" || fail "text cell"
grep -q '^base,q35,completion,,ours,,,tg,142.68,undecided,undecided,' "$TMP/csv/report.csv" || fail "csv cell"
# The answer first, per engine against the reference, from the same verdicts.
grep -qx '\*\*ours vs llama.cpp: pp 1 undecided, geomean +0.4% (no interval: a cell has none); tg 1 undecided, geomean -0.2% (no interval: a cell has none)\*\*' \
	"$TMP/md/report.md" || fail "the one-line answer"
need jq
{
	[ "$(jq -r '.base[] | select(.model=="q35") | .cells[] | select(.engine=="ours") |
		"\(.pp) \(.tg) \(.verdict_pp.verdict) \(.verdict_tg.verdict)"' \
		"$TMP/json/report.json")" = "13157.13 142.68 undecided undecided" ] || fail "json cell"
	# A cell that is not comparable carries no verdict, only its reason.
	[ "$(jq -r '.base[] | select(.model=="g4") | .cells[] | select(.engine=="ours") |
		"\(.comparable) \(.verdict_pp) \(.verdict_tg) \(.reason)"' \
		"$TMP/json/report.json")" = "false null null model sha256 differs (cccccccccccc vs bbbbbbbbbbbb)" ] ||
		fail "not comparable: verdict null and the reason"
}
exit 0
