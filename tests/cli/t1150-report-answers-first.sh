#!/usr/bin/env bash
# t1150: the report leads with its answers (issue 38, item 3). The first block
# after the title of report.md, of summary.txt and of the markdown on stdout is
# one table of answers, a row per comparison x metric x model (comparison, then
# metric, then model), each row compare's own answer of that cell: regression,
# verdict, delta and interval; the prose comes after it. A spoiled row names no
# delta and shows its newest clean answer, compare's newest_clean. The HTML page
# (t1151 looks at it in a browser) colours each answer by a class that is its
# word; the JSON holds the same rows under "answers".
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
need python3 jq

# first_block <file>: the first block of lines after the title (and, in text,
# its underline), up to the next blank line.
first_block() {
	awk 'NR == 1 { next } /^=+$/ && NR == 2 { next }
	     !started && /^$/ { next } { started = 1 } started && /^$/ { exit } { print }' "$1"
}

# rows_of <block>: the table's rows as TSV (markdown: pipes; text: 2+ spaces
# apart), without header and rule, brackets unescaped.
rows_md() {
	sed '1,2d; s/\\\([][]\)/\1/g; s/^| //; s/ |$//; s/ | /\t/g' "$1"
}

load study.jsonl
tps report --no-plots
expect_rc 0 "report"
cp "$TMP/out" "$TMP/stdout.md"
tps report --out "$TMP/rep" --no-plots
expect_rc 0 "report --out"
for f in "$TMP/stdout.md" "$TMP/rep/report.md"; do
	[ "$(sed -n 1p "$f")" = "# tpsdb report" ] || fail "$f: the title"
	first_block "$f" >"$TMP/first"
	[ "$(sed -n 1p "$TMP/first")" = "| comparison | metric | model | answer | reads | delta | 90% interval |" ] ||
		{ cat "$f" >&2; fail "$f: the first block after the title is not the answers table"; }
	[ "$(sed -n 2p "$TMP/first")" = "|---|---|---|---|---|---|---|" ] || fail "$f: the table's rule"
	# Every line of the block is a row of it: no prose inside.
	grep -v '^|' "$TMP/first" >&2 && fail "$f: prose inside the answers block"
	# The prose comes after it.
	n_table=$(grep -n '^| comparison |' "$f" | cut -d: -f1)
	n_prose=$(grep -n '^In tok/s' "$f" | cut -d: -f1)
	n_answer=$(grep -n '^\*\*ours vs ' "$f" | head -1 | cut -d: -f1)
	[ "$n_table" -lt "$n_prose" ] && [ "$n_table" -lt "$n_answer" ] ||
		fail "$f: the answers table is not above the prose"
done
first_block "$TMP/rep/summary.txt" >"$TMP/first.txt"
grep -q '^comparison  *metric  *model  *answer  *reads  *delta  *90% interval$' "$TMP/first.txt" ||
	{ cat "$TMP/rep/summary.txt" >&2; fail "summary.txt: the first block is not the answers table"; }

# The rows: ours vs each other engine, pp then tg, model by model; a forced cell
# not comparable; every other row compare's own answer of that cell.
first_block "$TMP/stdout.md" >"$TMP/first"
rows_md "$TMP/first" >"$TMP/rows.tsv"
cut -f1-4 "$TMP/rows.tsv" >"$TMP/keys"
cat >"$TMP/keys.want" <<'K'
ours vs stock-llamafile	pp	g4	not comparable
ours vs stock-llamafile	pp	q35	undecided
ours vs stock-llamafile	tg	g4	not comparable
ours vs stock-llamafile	tg	q35	undecided
ours vs llama.cpp	pp	g4	not comparable
ours vs llama.cpp	pp	q35	undecided
ours vs llama.cpp	tg	g4	not comparable
ours vs llama.cpp	tg	q35	undecided
K
diff -u "$TMP/keys.want" "$TMP/keys" >&2 || fail "the answers table's rows"
for x in llama.cpp stock-llamafile; do
	tps compare --ours ours --vs "$x" --model q35 --json
	expect_rc 0 "compare --vs $x"
	jq -r --arg x "$x" '.rows[] | select(.n_max == null) |
		["ours vs " + $x, .metric, .model, .regression, .verdict,
		 (.delta_pct | . * 100 | round / 100 | tostring)] | @tsv' "$TMP/out" >"$TMP/c.tsv"
	grep "^ours vs $x	[pt][pg]	q35	" "$TMP/rows.tsv" |
		awk -F'\t' '{ d = $6; sub(/%$/, "", d); printf "%s\t%s\t%s\t%s\t%s\t%s\n", $1, $2, $3, $4, $5, d + 0 }' \
		>"$TMP/r.tsv"
	diff -u "$TMP/c.tsv" "$TMP/r.tsv" >&2 || fail "the answers against $x are not compare's"
	jq -r '.rows[] | select(.n_max == null) | .ci_lo_pct, .ci_hi_pct' "$TMP/out" |
		awk '{ printf "%+.2f%%\n", $1 }' | paste -d' ' - - |
		sed 's/^/[/; s/ /, /; s/$/]/' >"$TMP/ci.want"
	grep "^ours vs $x	[pt][pg]	q35	" "$TMP/rows.tsv" | cut -f7 >"$TMP/ci"
	diff -u "$TMP/ci.want" "$TMP/ci" >&2 || fail "the intervals against $x are not compare's"
done

# report --format json carries the same rows ("answers"), each with its cell's
# verdict as "base" holds it.
tps report --format json
expect_rc 0 "report --format json"
jq -r '.answers[] | [.ours + " vs " + .vs, .metric, .model,
	(if .comparable then .verdict.regression else "not comparable" end)] | @tsv' \
	"$TMP/out" >"$TMP/keys.json" || fail "report --format json: no answers"
diff -u "$TMP/keys.want" "$TMP/keys.json" >&2 || fail "the JSON's answers are not the table's rows"
jq -e '[.answers[] | select(.comparable)] as $a | [.base[] | .model as $m | .cells[] |
	select(.engine != "ours" and .comparable) | .verdict_pp, .verdict_tg] as $b |
	($a | length) == 4 and ($a | map(.verdict)) - $b == []' "$TMP/out" >/dev/null ||
	fail "the JSON's answers are not the base cells' verdicts"

# With --ref, each engine against the reference.
tps report --no-plots --ref llama.cpp
expect_rc 0 "report --ref"
first_block "$TMP/out" >"$TMP/first"
rows_md "$TMP/first" | cut -f1 | sort -u >"$TMP/cmp"
printf 'ours vs llama.cpp\nstock-llamafile vs llama.cpp\n' >"$TMP/cmp.want"
diff -u "$TMP/cmp.want" "$TMP/cmp" >&2 || fail "--ref: the comparisons"

# One engine, no --ref: no answers, the prose first as before.
tps report --no-plots --engine ours
expect_rc 0 "report --engine ours"
first_block "$TMP/out" | grep -q '^| comparison' && fail "one engine: an answers table"

# --- a spoiled newest batch: its row shows the newest clean answer -------------
export TPSDB_DB=$TMP/spoiled.sqlite
python3 "$FIX/spoiled.py" "$FIX/study.jsonl" >"$TMP/spoiled.jsonl" || fail "the spoiled fixture"
"$TPSDB_BIN" import "$TMP/spoiled.jsonl" >/dev/null 2>&1 || fail "import of the spoiled fixture"
tps report --no-plots
expect_rc 0 "report of a spoiled batch"
first_block "$TMP/out" >"$TMP/first"
sed -n 1p "$TMP/first" | grep -q '| 90% interval | newest clean answer |$' ||
	{ cat "$TMP/first" >&2; fail "no newest clean answer column"; }
rows_md "$TMP/first" >"$TMP/rows.tsv"
tps compare --ours ours --vs llama.cpp --model q35 --json
expect_rc 0 "compare of the spoiled batch"
for m in pp tg; do
	want=$(jq -r --arg m "$m" '.rows[] | select(.n_max == null and .metric == $m) |
		"spoiled (host-busy)\t-\t-\t-\t" + .newest_clean.regression + " (reads " +
		.newest_clean.verdict + "), " +
		(if .newest_clean.delta_pct >= 0 then "+" else "" end) +
		(.newest_clean.delta_pct * 100 | round / 100 | tostring) + "% "' "$TMP/out")
	got=$(grep "^ours vs llama.cpp	$m	q35	" "$TMP/rows.tsv" | cut -f4-)
	case $got in "$want"*"(batch b-old, 2025-05-01)") ;;
	*) fail "$m: the spoiled row: '$got', expected '$want... (batch b-old, 2025-05-01)'" ;;
	esac
done
# The clean rows of a report with a spoiled one say "-" there.
grep -q '^ours vs stock-llamafile	pp	g4	not comparable	-	-	-	-$' "$TMP/rows.tsv" ||
	fail "a row that is not spoiled has no newest clean answer"

# HTML: the answer cell's class is its word.
tps report --format html --out "$TMP/html" --no-plots
expect_rc 0 "report --format html"
grep -q '<td class="ans ans-spoiled">spoiled (host-busy)</td>' "$TMP/html/index.html" ||
	fail "html: the spoiled answer's class"
grep -q '<td class="ans clean ans-undecided">undecided (reads undecided), +0.38% \[+0.09%, +0.68%\] (batch b-old, 2025-05-01)</td>' \
	"$TMP/html/index.html" || fail "html: the newest clean answer, coloured by its answer"
grep -q '<td class="ans ans-nc">not comparable</td>' "$TMP/html/index.html" ||
	fail "html: not comparable"
grep -q '<p class="key"><span class="ans ans-no">no</span>' "$TMP/html/index.html" ||
	fail "html: the key of the colours"
echo ok
