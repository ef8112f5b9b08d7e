#!/usr/bin/env bash
# t0513: trend --format md: a table of series and one of change points, each with
# a fixed column count, the fall in bold, and a '|' in an engine label escaped.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
. "$TPSDB_SRC/tests/cli/md-lib.sh"
. "$TPSDB_SRC/tests/cli/table-lib.sh"
need jq

jq -c 'if .run.engine.label == "steps" then .run.engine.label = "st|eps" else . end' \
	"$FIX/history.jsonl" >"$TMP/h.jsonl"
"$TPSDB_BIN" import "$TMP/h.jsonl" >/dev/null || fail "import"

tps trend --metric tg --format md
expect_rc 0 "trend --format md"
sed -n '1,/^$/p' "$TMP/out" >"$TMP/series"
sed -n '/^Change points/,$p' "$TMP/out" >"$TMP/cps"
md_rows "$TMP/series" 9
md_rows "$TMP/cps" 12
[ "$(grep -c '^| st\\|eps ' "$TMP/cps")" = 2 ] || fail "two change points of st|eps, escaped"
grep -q '|  *\*\*-10\.0%\*\* |' "$TMP/cps" || fail "the fall in bold"
grep -q '|  *+22\.2% |' "$TMP/cps" || fail "the rise plain"
grep -q '^| st\\|eps .* |  *15 | ' "$TMP/series" || fail "15 runs"
cp "$TMP/out" "$TMP/md"

# Text, md and csv are one table of series (and text and md one of change points).
tps trend --metric tg
expect_rc 0 "trend text"
cp "$TMP/out" "$TMP/text"
grep -q '^engine  model  config  metric  new level from run  ' "$TMP/text" || fail "text: change points"
tps trend --metric tg --format csv
expect_rc 0 "trend --format csv"
[ "$(head -n 1 "$TMP/out")" = 'engine,model,config,metric,runs,first,last,change points,latest' ] ||
	fail "csv header"
grep -q '^st|eps,m1,base,tg,15,' "$TMP/out" || fail "csv: the label as it is"
same_columns "$TMP/text" "$TMP/md" "$TMP/out" engine
exit 0
