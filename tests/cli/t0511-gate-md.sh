#!/usr/bin/env bash
# t0511: gate --format md: the FAIL in bold in the heading and on the failing row,
# a fixed column count, the interval, mde and regression columns; $GITHUB_STEP_SUMMARY gets
# the markdown appended on every gate (two gates, two sections) whatever the
# stdout format, and a summary that cannot be written leaves the exit code 1 (the
# gate's), with a warning.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"
. "$TPSDB_SRC/tests/cli/md-lib.sh"
. "$TPSDB_SRC/tests/cli/table-lib.sh"

for v in v1 v2; do
	imp_rounds 'our|s' ours dense-8b "gate-dense-$v" --tag "$v"
	imp_rounds 'our|s' ours moe-30b "gate-moe-$v" --tag "$v"
done
tps baseline set rel-1 --engine 'our|s' --tag v1
expect_rc 0 "baseline set"

tps gate --baseline rel-1 --engine 'our|s' --tag v2 --format md
expect_rc 1 "the gate fails"
md_rows "$TMP/out" 11
grep -q "^### tpsdb gate: \*\*FAIL\*\*: 'our\\\\|s' tag 'v2' against baseline 'rel-1' (1 failure)$" "$TMP/out" ||
	fail "heading"
[ "$(grep -c '| \*\*FAIL\*\* |' "$TMP/out")" = 1 ] || fail "one bold FAIL row"
grep -q '^| moe-30b .* tg .* | yes  *| \*\*FAIL\*\* |$' "$TMP/out" || fail "the MoE decode row"
grep -q '^| cell .* 90% interval .* mde .* regression .* status  *|$' "$TMP/out" || fail "header"
cp "$TMP/out" "$TMP/md"

# Text, md and csv are one table: the same columns, and the csv parses.
tps gate --baseline rel-1 --engine 'our|s' --tag v2
expect_rc 1 "gate text"
cp "$TMP/out" "$TMP/text"
tps gate --baseline rel-1 --engine 'our|s' --tag v2 --format csv
expect_rc 1 "gate --format csv"
[ "$(head -n 1 "$TMP/out")" = 'cell,metric,baseline,candidate,delta,90% interval,threshold,rounds,mde,regression,status' ] ||
	fail "csv header"
grep -q '^moe-30b,tg,.*,yes,FAIL$' "$TMP/out" || fail "csv: the failing row"
same_columns "$TMP/text" "$TMP/md" "$TMP/out" cell

export GITHUB_STEP_SUMMARY=$TMP/summary.md
: >"$GITHUB_STEP_SUMMARY"
tps gate --baseline rel-1 --engine 'our|s' --tag v2 --json
expect_rc 1 "json gate"
jq -e '.pass == false' "$TMP/out" >/dev/null || fail "stdout stays JSON"
tps gate --baseline rel-1 --engine 'our|s' --tag v2
expect_rc 1 "text gate"
[ "$(grep -c '^### tpsdb gate: \*\*FAIL\*\*' "$GITHUB_STEP_SUMMARY")" = 2 ] || fail "two sections"
md_rows "$GITHUB_STEP_SUMMARY" 11

GITHUB_STEP_SUMMARY=$TMP tps gate --baseline rel-1 --engine 'our|s' --tag v2
expect_rc 1 "a summary that is a folder leaves the gate's exit code"
grep -q '^tpsdb: warning: cannot append to \$GITHUB_STEP_SUMMARY' "$TMP/err" || fail "warning"
tps gate --baseline rel-1 --engine 'our|s' --tag v1 --format md
expect_rc 0 "v1 against itself passes"
grep -q "^### tpsdb gate: PASS: " "$TMP/out" || fail "PASS heading"
exit 0
