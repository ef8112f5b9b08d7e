#!/usr/bin/env bash
# t0510: compare --format md: a GitHub table with a fixed column count on every
# row, a decided regression in bold, the answer and the 90% interval in view, and a
# '|' in an
# engine label escaped so that it cannot split a cell. With $GITHUB_STEP_SUMMARY
# set, the markdown is appended (two runs, two sections); an unwritable summary
# is a warning and the exit code stays 0.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"
. "$TPSDB_SRC/tests/cli/md-lib.sh"
. "$TPSDB_SRC/tests/cli/table-lib.sh"

imp_rounds 'stock|llamafile' other moe-30b moe-stock --tag r
imp_rounds llama.cpp upstream moe-30b moe-llamacpp --tag r

tps compare --ours 'stock|llamafile' --vs llama.cpp --format md
expect_rc 0 "compare --format md"
md_rows "$TMP/out" 11
grep -q '^### tpsdb compare: stock\\|llamafile vs llama.cpp$' "$TMP/out" || fail "heading, label escaped"
grep -q '| stock\\|llamafile | llama.cpp |' "$TMP/out" || fail "header cell escaped"
[ "$(grep -c '^| moe-30b .* | \*\*yes\*\*  *| slower  *|' "$TMP/out")" = 2 ] || fail "two bold regressions, slower"
grep -q '^| cell .* 90% interval .* regression .* verdict .* mde .* excl  *|$' "$TMP/out" || fail "header"
grep -q -- '| \\\[-50\.[0-9][0-9]%, -49\.[0-9][0-9]%\\\] |' "$TMP/out" || fail "the CI"
grep -qE '^\|-+\|-+\|-+:\|' "$TMP/out" || fail "numbers right-aligned"
cp "$TMP/out" "$TMP/md"

# Text, md and csv are one table: the same columns, and the csv parses.
tps compare --ours 'stock|llamafile' --vs llama.cpp
expect_rc 0 "compare text"
cp "$TMP/out" "$TMP/text"
tps compare --ours 'stock|llamafile' --vs llama.cpp --format csv
expect_rc 0 "compare --format csv"
[ "$(head -n 1 "$TMP/out")" = 'cell,metric,stock|llamafile,llama.cpp,delta,90% interval,regression,verdict,rounds,mde,excl' ] ||
	fail "csv header"
[ "$(wc -l <"$TMP/out")" = 3 ] || fail "csv: the header and two rows, no prose"
same_columns "$TMP/text" "$TMP/md" "$TMP/out" cell

# --json still works, and --format json is the same document.
tps compare --ours 'stock|llamafile' --vs llama.cpp --json
expect_rc 0 "--json"
cp "$TMP/out" "$TMP/json1"
tps compare --ours 'stock|llamafile' --vs llama.cpp --format json
cmp "$TMP/out" "$TMP/json1" || fail "--format json differs from --json"
tps compare --ours 'stock|llamafile' --vs llama.cpp --format html
expect_rc 2 "--format html"

# The step summary: appended, never truncated.
export GITHUB_STEP_SUMMARY=$TMP/summary.md
echo "earlier step" >"$GITHUB_STEP_SUMMARY"
for i in 1 2; do
	tps compare --ours 'stock|llamafile' --vs llama.cpp
	expect_rc 0 "compare with a step summary ($i)"
	grep -q '^cell ' "$TMP/out" || fail "stdout stays text"
done
[ "$(head -n 1 "$GITHUB_STEP_SUMMARY")" = "earlier step" ] || fail "truncated"
[ "$(grep -c '^### tpsdb compare: ' "$GITHUB_STEP_SUMMARY")" = 2 ] || fail "two sections"
[ "$(grep -c '\*\*yes\*\*' "$GITHUB_STEP_SUMMARY")" = 4 ] || fail "four rows"

GITHUB_STEP_SUMMARY=$TMP/no/such/dir/summary.md tps compare --ours 'stock|llamafile' --vs llama.cpp
expect_rc 0 "an unwritable summary does not fail compare"
grep -q '^tpsdb: warning: cannot append to \$GITHUB_STEP_SUMMARY' "$TMP/err" || fail "warning"
exit 0
