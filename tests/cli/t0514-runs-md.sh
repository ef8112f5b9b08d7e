#!/usr/bin/env bash
# t0514: runs --format md: one row per run under the text form's columns, a '|'
# and a newline in a tag escaped (markdown \| and <br>, text \n, csv quoted), the
# csv parsing with the same header, numbers right-aligned; --format json equals
# --json; an empty store says so. The medians' columns are named the run's
# (PP_RUN_MED, TG_RUN_MED) and the markdown says what they are.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
. "$TPSDB_SRC/tests/cli/md-lib.sh"
. "$TPSDB_SRC/tests/cli/table-lib.sh"
need jq

jq -c 'if .run.uuid == "11111111-0000-4000-8000-000000000001" then .run.tag = "a|b\nc" else . end' \
	"$FIX/history.jsonl" >"$TMP/h.jsonl"
"$TPSDB_BIN" import "$TMP/h.jsonl" >/dev/null || fail "import"
n=$(wc -l <"$TMP/h.jsonl")

tps runs --format md
expect_rc 0 "runs --format md"
md_rows "$TMP/out" 15
[ "$(grep -c '^| 2025-' "$TMP/out")" = "$n" ] || fail "a row per run"
grep -q '^| STARTED .* | PP_RUN_MED | TG_RUN_MED |$' "$TMP/out" || fail "header"
# The medians are the run's own, not compare's pooled estimate: a legend says so.
grep -qx "_PP_RUN_MED, TG_RUN_MED: prefill and decode tok/s, the median of this run's requests (its samples no flag spoils), one run alone; a cell's answer pools its runs and takes the geometric mean of their requests: 'tpsdb compare'._" \
	"$TMP/out" || fail "the medians' legend"
grep -q '^| STARTED .* | ENGINE  *| VERSION  *| MODEL ' "$TMP/out" || fail "the engine version column"
grep -q '| 11111111-0000-4000-8000-000000000001 | .* | a\\|b<br>c ' "$TMP/out" || fail "hostile tag"
cp "$TMP/out" "$TMP/md"

# Text, md and csv are one table; each escapes the tag for its sink.
tps runs
expect_rc 0 "runs text"
cp "$TMP/out" "$TMP/text"
grep -q '  a|b\\nc  ' "$TMP/text" || fail "text: the tag on one line"
tps runs --format csv
expect_rc 0 "runs --format csv"
[ "$(head -n 1 "$TMP/out")" = 'STARTED,UUID,STATUS,HOST,ENGINE,VERSION,MODEL,TAG,SPEC,N_MAX,ROUND,SAMPLES,FAILED,PP_RUN_MED,TG_RUN_MED' ] ||
	fail "csv header"
python3 -c 'import csv, sys; rows = list(csv.reader(open(sys.argv[1], newline=""))); sys.exit(0 if ["a|b\nc"] == [r[7] for r in rows if r[1].endswith("0001")] and len(rows) == int(sys.argv[2]) + 1 else 1)' "$TMP/out" "$n" ||
	fail "csv: a row per run, the tag as it is"
same_columns "$TMP/text" "$TMP/md" "$TMP/out" STARTED
tps runs --json
cp "$TMP/out" "$TMP/json"
tps runs --format json
cmp "$TMP/out" "$TMP/json" || fail "--format json"
tps runs --format md --engine steady --since 2099-01-01
expect_rc 0 "no runs"
[ "$(cat "$TMP/out")" = "_No runs._" ] || fail "empty"
exit 0
