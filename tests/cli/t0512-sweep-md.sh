#!/usr/bin/env bash
# t0512: sweep --format md: one table per series with a fixed column count, the
# rung where decode falls in bold once its rounds decide it, the FAIL line, and the
# exit code of the text form (1 on a violation; with one run a rung, only a fall
# beyond the default decode scatter decides: the -32.1% collapse does).
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"
. "$TPSDB_SRC/tests/cli/md-lib.sh"
. "$TPSDB_SRC/tests/cli/table-lib.sh"

imp_sweep
tps sweep --format md
expect_rc 1 "one run a rung: the -32% collapse decides against the default scatter"
grep -q '^|  *3 | .* | \*\*falls -32\.1%\*\* |$' "$TMP/out" || fail "the collapse, in bold"
rm -f "$TPSDB_DB"*
imp_sweep rounds
tps sweep --format md
expect_rc 1 "a violation"
md_rows "$TMP/out" 13
cp "$TMP/out" "$TMP/md"
tps sweep
expect_rc 1 "text"
cp "$TMP/out" "$TMP/text"
tps sweep --format csv
expect_rc 1 "csv: the exit code of the text form"
[ "$(head -n 1 "$TMP/out")" = 'engine,model,spec_type,endpoint,n_max,tg,speedup,accept,tok/cycle,ms/cycle,cycles,n,runs,tg 90% interval,mde,run,status' ] ||
	fail "csv header"
[ "$(($(wc -l <"$TMP/out") - 1))" = "$(grep -c '^| .* | [0-9a-f-]\{36\} | ' "$TMP/md")" ] ||
	fail "csv: one row a rung of every series"
# The csv's columns after the four keys are the text's and the md's.
same_columns "$TMP/text" "$TMP/md" "$TMP/out" n_max 4
cp "$TMP/md" "$TMP/out"
[ "$(grep -c '^### tpsdb sweep: ' "$TMP/out")" = 2 ] || fail "two series"
grep -q '^|  *3 | .* | \*\*falls -[0-9.]*%\*\* |$' "$TMP/out" || fail "the fall at n_max 3 in bold"
grep -q '^\*\*FAIL\*\*: 1 violation ' "$TMP/out" || fail "the FAIL line"
tps sweep --format md --engine upstream
expect_rc 0 "upstream rises"
grep -q '^PASS: 0 violations ' "$TMP/out" || fail "PASS"
exit 0
