#!/usr/bin/env bash
# t0519: models, calibrate and baseline list/show write their tables through the
# one table writer: --format csv parses (python3's csv) with the text table's
# header, --format md is a table of the same columns, and --json stays.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"
. "$TPSDB_SRC/tests/cli/md-lib.sh"
. "$TPSDB_SRC/tests/cli/table-lib.sh"

imp_rounds 'our|s' ours dense-8b gate-dense-v1 --tag v1
imp_rounds 'our|s' ours moe-30b gate-moe-v1 --tag v1
tps baseline set rel-1 --engine 'our|s' --tag v1
expect_rc 0 "baseline set"

# formats <first header cell> <args...>: text, md and csv of one command.
formats() {
	local first=$1
	shift
	tps "$@"
	expect_rc 0 "$* (text)"
	cp "$TMP/out" "$TMP/text"
	tps "$@" --format md
	expect_rc 0 "$* --format md"
	cp "$TMP/out" "$TMP/md"
	tps "$@" --format csv
	expect_rc 0 "$* --format csv"
	cp "$TMP/out" "$TMP/csv"
	same_columns "$TMP/text" "$TMP/md" "$TMP/csv" "$first"
	tps "$@" --format html
	expect_rc 2 "$* --format html"
	cp "$TMP/csv" "$TMP/out"
}

formats LABEL models
[ "$(grep -c '^dense-8b,\|^moe-30b,' "$TMP/out")" = 2 ] || fail "models csv: a row a model"
formats name baseline list
grep -q '^rel-1,' "$TMP/out" || fail "baseline list csv"
formats uuid baseline show rel-1
[ "$(($(wc -l <"$TMP/out") - 1))" = 6 ] || fail "baseline show csv: the six runs, no prose"
grep -q "^baseline 'rel-1': 6 run(s)$" "$TMP/text" || fail "baseline show text: its line"
tps baseline show rel-1 --json
expect_rc 0 "baseline show --json"
python3 -c 'import json, sys; assert len(json.load(open(sys.argv[1]))["runs"]) == 6' "$TMP/out" ||
	fail "baseline show --json"
formats CELL calibrate
grep -q '^CELL,ENGINE,METRIC,FLOOR_%,PAIRS,RUNS$' "$TMP/out" || fail "calibrate csv header"
[ "$(grep -c ',our|s,[pt][pg],' "$TMP/out")" = 4 ] || fail "calibrate csv: two cells, two metrics"
exit 0
