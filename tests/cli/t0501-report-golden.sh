#!/usr/bin/env bash
# t0501: the report of the study fixture (three engines, two models, a speculative
# sweep, flagged samples, a LOADFAIL and a model-identity alarm) in every format
# equals the committed golden files: report.md, summary.txt, report.json,
# report.csv, and the markdown on stdout without --out. Without --ref ours is
# judged against every other engine (study.*); with --ref llama.cpp every engine
# against llama.cpp (study.ref.*: the report as it was when the upstream engine
# was the reference by default).
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

# --ref llama.cpp: the same store judged against llama.cpp.
tps report --ref llama.cpp --out "$TMP/ref-md" --no-plots
expect_rc 0 "report --ref --out"
golden study.ref.report.md "$TMP/ref-md/report.md"
golden study.ref.summary.txt "$TMP/ref-md/summary.txt"
tps report --ref llama.cpp --format json --out "$TMP/ref-json" --no-plots
expect_rc 0 "report --ref --format json"
golden study.ref.report.json "$TMP/ref-json/report.json"
tps report --ref llama.cpp --format csv --out "$TMP/ref-csv" --no-plots
expect_rc 0 "report --ref --format csv"
golden study.ref.report.csv "$TMP/ref-csv/report.csv"

# The formats carry the same numbers: q35's cell of llama.cpp holds ours' verdicts
# against it in all three. One run a side and no stored floor: judged against
# the default instance scatter (15% pp, 8% tg), so the cell leads with its mde,
# the small differences decide nothing, and stock-llamafile's +18.4% tg, beyond
# the default's reach, decides faster.
grep -q '^| q35 | 13157 / 142.7 (ours) | 11806 / 120.5 (ours: +11.4% undecided / +18.4% undecided) | 13107 / 143.0 (ours: +0.4% undecided / -0.2% undecided) |$' \
	"$TMP/md/report.md" || fail "md cells"
grep -q '^q35 .*13107 / 143.0 (ours: +0.4% undecided / -0.2% undecided)' "$TMP/md/summary.txt" || fail "text cell"
grep -q '^base,q35,completion,,llama.cpp,,,tg,143.00,undecided,undecided,-0.22,0,,00000000-0000-4000-8000-000000000001,b9859,ours vs llama.cpp$' \
	"$TMP/csv/report.csv" || fail "csv cell"
# With --ref the same comparison sits in ours' cell, as it did.
grep -q '^| q35 | 13157 / 142.7 (+0.4% undecided / -0.2% undecided) |' "$TMP/ref-md/report.md" || fail "--ref md cell"
grep -q '^q35 .*13157 / 142.7 (+0.4% undecided / -0.2% undecided)' "$TMP/ref-md/summary.txt" || fail "--ref text cell"
grep -q '^base,q35,completion,,ours,,,tg,142.68,undecided,undecided,' "$TMP/ref-csv/report.csv" || fail "--ref csv cell"
# The answers first, one per comparison, from the same verdicts.
grep -qx '\*\*ours vs llama.cpp: pp 1 undecided, geomean +0.4% (no interval: a cell has none); tg 1 undecided, geomean -0.2% (no interval: a cell has none)\*\*' \
	"$TMP/md/report.md" || fail "the one-line answer"
grep -qx '\*\*ours vs stock-llamafile: pp 1 undecided, geomean +11.4% (no interval: a cell has none); tg 1 undecided, geomean +18.4% (no interval: a cell has none)\*\*' \
	"$TMP/md/report.md" || fail "the one-line answer against stock-llamafile"
[ "$(grep -c '^\*\*ours vs ' "$TMP/md/report.md")" = 2 ] || fail "one answer per other engine"
grep -qx '\*\*ours vs llama.cpp: pp 1 undecided, geomean +0.4% (no interval: a cell has none); tg 1 undecided, geomean -0.2% (no interval: a cell has none)\*\*' \
	"$TMP/ref-md/report.md" || fail "--ref: the one-line answer"
need jq
{
	[ "$(jq -r '.base[] | select(.model=="q35") | .cells[] | select(.engine=="llama.cpp") |
		"\(.pp) \(.tg) \(.verdict_pp.verdict) \(.verdict_tg.verdict) \(.verdict_tg.ours) \(.verdict_tg.vs)"' \
		"$TMP/json/report.json")" = "13107.08 143 undecided undecided ours llama.cpp" ] || fail "json cell"
	[ "$(jq -r '.base[] | select(.model=="q35") | .cells[] | select(.engine=="ours") |
		"\(.pp) \(.tg) \(.verdict_pp.verdict) \(.verdict_tg.verdict)"' \
		"$TMP/ref-json/report.json")" = "13157.12 142.68 undecided undecided" ] || fail "--ref json cell"
	# A cell that is not comparable carries no verdict, only its reason.
	[ "$(jq -r '.base[] | select(.model=="g4") | .cells[] | select(.engine=="llama.cpp") |
		"\(.comparable) \(.verdict_pp) \(.verdict_tg) \(.reason)"' \
		"$TMP/json/report.json")" = "false null null model sha256 differs (cccccccccccc vs bbbbbbbbbbbb)" ] ||
		fail "not comparable: verdict null and the reason"
	[ "$(jq -r '.base[] | select(.model=="g4") | .cells[] | select(.engine=="ours") |
		"\(.comparable) \(.verdict_pp) \(.verdict_tg) \(.reason)"' \
		"$TMP/ref-json/report.json")" = "false null null model sha256 differs (cccccccccccc vs bbbbbbbbbbbb)" ] ||
		fail "--ref: not comparable: verdict null and the reason"
}
exit 0
