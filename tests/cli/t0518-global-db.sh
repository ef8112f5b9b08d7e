#!/usr/bin/env bash
# t0518: --db is global wherever it stands, as kubectl's persistent flags are:
# 'tpsdb runs --db x' and 'tpsdb runs --db=x' read x; a '--db' after '--' is the
# command's argument; a --db with no file is a usage error.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
need jq

unset TPSDB_DB
cd "$TMP"
"$TPSDB_BIN" import --db "$TMP/x.sqlite" "$FIX/history.jsonl" >/dev/null || fail "import --db after the command"
[ -f "$TMP/x.sqlite" ] && [ ! -e "$TMP/tpsdb.sqlite" ] || fail "the store named after the command"
n=$(wc -l <"$FIX/history.jsonl")
tps runs --db "$TMP/x.sqlite" --json
expect_rc 0 "runs --db x"
[ "$(jq length "$TMP/out")" = "$n" ] || fail "runs --db x"
tps runs --json --db="$TMP/x.sqlite" --engine steps
expect_rc 0 "runs --db=x"
[ "$(jq length "$TMP/out")" = 15 ] || fail "runs --db=x with a filter after it"
tps --db "$TMP/none.sqlite" runs --db "$TMP/x.sqlite" --limit 1
expect_rc 0 "the later --db wins"
tps runs --db
expect_rc 2 "--db without a file"
grep -q "^tpsdb: error: --db needs a file name" "$TMP/err" || fail "error line"
tps runs --db=
expect_rc 2 "--db= empty"
tps runs --db "$TMP/x.sqlite" -- --db
expect_rc 2 "after --, --db is an argument of runs"
grep -q "unexpected argument '--db'" "$TMP/err" || fail "runs sees --db"
exit 0
