#!/usr/bin/env bash
# t1195: a report over a store merged from two machines says which machine its
# numbers come from, in text (summary.txt), markdown, HTML and JSON alike.
# Store A holds study.jsonl measured on h200, batch night-a; store B the same
# runs a day later on h100box (another GPU, driver and CUDA, 0.7x the rate),
# batch night-b; B is merged into A. The report takes each cell's newest batch,
# h100box's: the paragraph under the title says every number is h100box's and
# none comes from h200's runs, the answers table names each row's machine and
# each comparison's answer line its machine, the
# Machines section marks h200 unused, the base and speculative tables say
# "Measured on h100box ...". Without batches each cell pools both machines: the
# report says its numbers come from both. One machine's report names none.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
need jq

H200='h200 (NVIDIA H200, driver 570.86.15, CUDA 12.8)'
H100='h100box (NVIDIA H100 80GB HBM3, driver 550.1, CUDA 12.4)'

# h100 <batch>: study.jsonl as measured on h100box a day later, 0.7x the rate.
h100() {
	jq -c --arg b "$1" '.run.uuid = "11111111" + .run.uuid[8:] |
		.run.host = {"name": "h100box", "gpu": "NVIDIA H100 80GB HBM3",
			     "driver": "550.1", "cuda": "12.4"} |
		.run.started_at |= sub("2025-06-01"; "2025-06-02") |
		.run.ended_at |= (if . then sub("2025-06-01"; "2025-06-02") else . end) |
		(if $b != "" then .run.batch = $b | .run.round = 1 else . end) |
		.samples |= map(.timings = null |
			(if .prompt_ms then .prompt_ms /= 0.7 else . end) |
			(if .predicted_ms then .predicted_ms /= 0.7 else . end) |
			(if .prompt_per_second then .prompt_per_second *= 0.7 else . end) |
			(if .predicted_per_second then .predicted_per_second *= 0.7 else . end))' \
		"$FIX/study.jsonl"
}
# merged <name> <batch a> <batch b>: $TMP/<name>.db, A with B merged into it.
merged() {
	jq -c --arg b "$2" 'if $b != "" then .run.batch = $b | .run.round = 1 else . end' \
		"$FIX/study.jsonl" >"$TMP/$1-a.jsonl"
	h100 "$3" >"$TMP/$1-b.jsonl"
	"$TPSDB_BIN" --db "$TMP/$1.db" import "$TMP/$1-a.jsonl" >/dev/null 2>&1 || fail "import A"
	"$TPSDB_BIN" --db "$TMP/$1-b.db" import "$TMP/$1-b.jsonl" >/dev/null 2>&1 || fail "import B"
	tps --db "$TMP/$1.db" merge "$TMP/$1-b.db"
	expect_rc 0 "merge"
}

# 1. Batches: every number is h100box's newest batch; h200's runs are unused.
merged n night-a night-b
export TPSDB_DB=$TMP/n.db
tps report --out "$TMP/md" --no-plots
expect_rc 0 "report --out"
tps report --format html --out "$TMP/html" --no-plots
expect_rc 0 "report --format html"
tps report --format json
expect_rc 0 "report --format json"
cp "$TMP/out" "$TMP/n.json"

note="Every number in the tables below was measured on $H100. The runs that match were measured on 2 machines: no number in these tables comes from the runs of $H200 (a report takes each cell's newest batch, for a comparison the newest both sides measured; a trend figure draws each machine's runs as a series of its own; 'tpsdb report --host <name>' reports one machine's runs)."
# text: the note right under the title, before the answers table.
[ "$(sed -n 4p "$TMP/md/summary.txt")" = "$note" ] ||
	{ head -8 "$TMP/md/summary.txt" >&2; fail "summary.txt: the note under the title"; }
grep -q "^comparison  *metric  *model  *answer  *reads  *delta  *90% interval  *machine$" \
	"$TMP/md/summary.txt" || fail "summary.txt: no machine column in the answers table"
grep -q "^ours vs llama.cpp  *tg  *q35  *undecided .*  $H100$" "$TMP/md/summary.txt" ||
	fail "summary.txt: the row does not name h100box: $(cat "$TMP/md/summary.txt")"
grep -qxF -- "- $H200: llama.cpp, ours, stock-llamafile (no number of this report comes from its runs)" \
	"$TMP/md/summary.txt" || fail "summary.txt: the Machines section: $(cat "$TMP/md/summary.txt")"
grep -qxF -- "- $H100: llama.cpp, ours, stock-llamafile" "$TMP/md/summary.txt" ||
	fail "summary.txt: h100box in the Machines section"
grep -qx "ours vs llama.cpp: pp .*; tg .*; measured on $H100" "$TMP/md/summary.txt" ||
	fail "summary.txt: the answer line names its machine: $(grep '^ours vs' "$TMP/md/summary.txt")"
[ "$(grep -cxF "Measured on $H100." "$TMP/md/summary.txt")" = 2 ] ||
	fail "summary.txt: the base and speculative tables name their machine"
# markdown: the same words, escaped.
grep -qF "Every number in the tables below was measured on $H100. The runs that match were measured on 2 machines" \
	"$TMP/md/report.md" || fail "report.md: the note"
grep -qxF "| comparison | metric | model | answer | reads | delta | 90% interval | machine |" \
	"$TMP/md/report.md" || fail "report.md: the machine column"
grep -q "^## Machines" "$TMP/md/report.md" || fail "report.md: the Machines section"
# HTML: the note, the column and the section.
grep -qF "<p>Every number in the tables below was measured on $H100. The runs that match" \
	"$TMP/html/index.html" || fail "index.html: the note"
grep -qF "<th>machine</th>" "$TMP/html/index.html" || fail "index.html: the machine column"
grep -qF "<h2 id=\"machines\">Machines</h2>" "$TMP/html/index.html" ||
	fail "index.html: the Machines section"
grep -qF "<li>$H200: llama.cpp, ours, stock-llamafile (no number of this report comes from its runs)</li>" \
	"$TMP/html/index.html" || fail "index.html: h200 unused"
grep -qF "<p>Measured on $H100.</p>" "$TMP/html/index.html" || fail "index.html: the base table's machine"
# JSON: the machines, each row's, each cell's.
jq -e --arg a "$H100" --arg b "$H200" '.machines == [
		{"machine": $a, "used": true, "engines": ["llama.cpp", "ours", "stock-llamafile"]},
		{"machine": $b, "used": false, "engines": ["llama.cpp", "ours", "stock-llamafile"]}] and
	(.answers | length > 0 and all(.machines == [$a])) and
	([.base[].cells[].machines] | length > 0 and all(. == [$a])) and
	([.speculative.rows[].cells[].machine] | length > 0 and all(. == $a)) and
	(.runs | all(.machine == $a))' "$TMP/n.json" >/dev/null ||
	fail "JSON: $(jq -c '{machines, a: [.answers[].machines], b: [.base[].cells[].machines]}' "$TMP/n.json")"

# CSV: a row per machine and engine, used or not.
tps report --format csv
expect_rc 0 "report --format csv"
[ "$(grep '^machine,' "$TMP/out")" = "machine,,,,llama.cpp,,,used,1,,,,,,,,\"$H100\"
machine,,,,ours,,,used,1,,,,,,,,\"$H100\"
machine,,,,stock-llamafile,,,used,1,,,,,,,,\"$H100\"
machine,,,,llama.cpp,,,used,0,,,,,,,,\"$H200\"
machine,,,,ours,,,used,0,,,,,,,,\"$H200\"
machine,,,,stock-llamafile,,,used,0,,,,,,,,\"$H200\"" ] || fail "CSV: $(grep '^machine,' "$TMP/out")"
# 2. No batches: each cell pools both machines' runs; the report says both.
merged u "" ""
export TPSDB_DB=$TMP/u.db
tps report --out "$TMP/umd" --no-plots
expect_rc 0 "report of the unbatched store"
grep -qxF "The numbers below were measured on 2 machines: $H200; $H100. Each row of the answers table names the machines of its comparison; a comparison pairs the runs of one machine, so a cell measured on two is not comparable (Data quality names them)." \
	"$TMP/umd/summary.txt" || { head -8 "$TMP/umd/summary.txt" >&2; fail "summary.txt: both machines"; }
grep -qxF "Measured on $H200; $H100." "$TMP/umd/summary.txt" || fail "the base table's two machines"
grep -qxF "ours vs llama.cpp: no comparable base cell; measured on $H200; $H100" \
	"$TMP/umd/summary.txt" || fail "the answer line names both machines"
tps report --format json
expect_rc 0 "report --format json, unbatched"
jq -e --arg a "$H100" --arg b "$H200" '(.machines | map(.used)) == [true, true] and
	(.base[] | select(.model == "q35") | .cells[] | select(.engine == "ours") | .machines)
		== [$b, $a] and (.answers | all(.comparable == false and .machines == [$b, $a]))' \
	"$TMP/out" >/dev/null || fail "JSON, unbatched: $(jq -c '.machines, [.answers[].machines]' "$TMP/out")"

# 3. One machine: no machines note, column or section; the JSON's one entry.
export TPSDB_DB=$TMP/one.db
load study.jsonl
tps report --out "$TMP/one" --no-plots
expect_rc 0 "report of one machine"
grep -q "^Machines\|Measured on\|Every number in the tables below\|numbers below were measured\|interval  *machine$" \
	"$TMP/one/summary.txt" && fail "one machine: $(grep -n -i machine "$TMP/one/summary.txt")"
tps report --format json
jq -e --arg b "$H200" '.machines == [{"machine": $b, "used": true,
	"engines": ["llama.cpp", "ours", "stock-llamafile"]}]' "$TMP/out" >/dev/null ||
	fail "JSON, one machine: $(jq -c .machines "$TMP/out")"
echo ok
