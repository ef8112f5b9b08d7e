#!/usr/bin/env bash
# t0113-import-speed-bench-refused.sh: a damaged speed_bench.py --output file is one
# error line naming the file and the result, exit 3, and nothing is stored, not even
# the good file given before it in the same import.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3 sqlite3
tmp_store speed-bench
fail() { echo "FAIL: $*" >&2; exit 1; }

# bad <name> <python editing doc> <expected message after "<file>:1: ">
bad() {
	python3 - "$D/spec-1.json" "$tmp/$1.json" "$2" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(doc, open(sys.argv[2], "w"), indent=2, sort_keys=True)
PY
	rc=0
	"$TPSDB_BIN" import --engine e "$D/plain-1.json" "$tmp/$1.json" >"$tmp/out" 2>"$tmp/err" || rc=$?
	test "$rc" = 3 || fail "$1: exit $rc"
	test "$(wc -l <"$tmp/err")" = 1 || fail "$1: not one line: $(cat "$tmp/err")"
	test "$(cat "$tmp/err")" = "tpsdb: error: $tmp/$1.json:1: $3; nothing was imported" ||
		fail "$1: $(cat "$tmp/err")"
	test ! -s "$tmp/out" || fail "$1: stdout: $(cat "$tmp/out")"
	if [ -e "$TPSDB_DB" ]; then
		test "$(sqlite3 "$TPSDB_DB" "SELECT (SELECT count(*) FROM run) + (SELECT count(*) FROM sample) + (SELECT count(*) FROM imported_file)")" = 0 ||
			fail "$1: something was stored"
	fi
}

bad accepted 'doc["results"][4]["draft_n_accepted"] = 25' \
	"speed-bench results[4]: 'draft_n_accepted' exceeds 'draft_n'"
bad count 'doc["results"][0]["completion_tokens"] = 31.5' \
	"speed-bench results[0]: a token count ('prompt_tokens', 'completion_tokens', 'draft_n', 'draft_n_accepted') is not a whole number in range"
bad missing 'del doc["results"][2]["draft_n"]' "speed-bench results[2]: no 'draft_n'"
bad rate 'doc["results"][1]["predicted_ms"] = -3' \
	"speed-bench results[1]: a time or rate is negative, not a number or absurd"
bad category 'doc["results"][3]["category"] = ""' \
	"speed-bench results[3]: 'category' is not a non-empty string"
bad notarray 'doc["results"] = {}' "speed-bench 'results' is not an array"
bad empty 'doc["results"] = []' "speed-bench 'results' is empty: holds no results"

# The good file alone imports: the refusals above were the damage, not the file.
"$TPSDB_BIN" import --engine e "$D/plain-1.json" >/dev/null
test "$(sqlite3 "$TPSDB_DB" "SELECT count(*) FROM sample")" = 9 || fail "the good file"
