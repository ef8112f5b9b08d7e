#!/usr/bin/env bash
# t0514: runs --format md: one row per run under the text form's columns, a '|'
# and a newline in a tag escaped, numbers right-aligned; --format json equals
# --json; an empty store says so.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
. "$TPSDB_SRC/tests/cli/md-lib.sh"
need jq

jq -c 'if .run.uuid == "11111111-0000-4000-8000-000000000001" then .run.tag = "a|b\nc" else . end' \
	"$FIX/history.jsonl" >"$TMP/h.jsonl"
"$TPSDB_BIN" import "$TMP/h.jsonl" >/dev/null || fail "import"
n=$(wc -l <"$TMP/h.jsonl")

tps runs --format md
expect_rc 0 "runs --format md"
md_rows "$TMP/out" 15
[ "$(grep -c '^| 2025-' "$TMP/out")" = "$n" ] || fail "a row per run"
grep -q '^| STARTED .* TG_MED |$' "$TMP/out" || fail "header"
grep -q '^| STARTED .* | ENGINE  *| VERSION  *| MODEL ' "$TMP/out" || fail "the engine version column"
grep -q '| 11111111-0000-4000-8000-000000000001 | .* | a\\|b?c ' "$TMP/out" || fail "hostile tag"
tps runs --json
cp "$TMP/out" "$TMP/json"
tps runs --format json
cmp "$TMP/out" "$TMP/json" || fail "--format json"
tps runs --format md --engine steady --since 2099-01-01
expect_rc 0 "no runs"
[ "$(cat "$TMP/out")" = "_No runs._" ] || fail "empty"
exit 0
