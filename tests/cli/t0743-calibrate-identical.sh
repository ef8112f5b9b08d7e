#!/usr/bin/env bash
# t0743-calibrate-identical.sh: two runs whose samples are identical (the same response
# file imported twice with --allow-duplicate) are not an A/A pair: calibrate warns,
# naming both runs, and stores no 0.00% floor.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
tmp_store import
fail() { echo "FAIL: $*" >&2; exit 1; }
imp() { "$TPSDB_BIN" import --allow-duplicate --engine ours --role ours --host h \
	--warmup 1 "$@" >/dev/null; }

imp "$D/completion.json" "$D/completion-reps.jsonl"
imp "$D/completion.json" "$D/completion-reps.jsonl"
rc=0
"$TPSDB_BIN" calibrate >"$tmp/out" 2>"$tmp/err" || rc=$?
test "$rc" = 3 || fail "exit $rc (no floor is to be found)"
a=$(sqlite3 "$TPSDB_DB" "SELECT uuid FROM run ORDER BY id LIMIT 1")
b=$(sqlite3 "$TPSDB_DB" "SELECT uuid FROM run ORDER BY id DESC LIMIT 1")
grep -q "^tpsdb: warning: runs $a and $b hold identical samples" "$tmp/err" ||
	fail "warning: $(cat "$tmp/err")"
test "$(sqlite3 "$TPSDB_DB" "SELECT count(*) FROM noise_floor")" = 0 || fail "a floor was stored"

# One time different (decode is predicted_n over predicted_ms): a real pair, a
# floor above zero.
sed 's/"predicted_ms":[0-9.]*/"predicted_ms":365.5/' \
	"$D/completion-reps.jsonl" >"$tmp/other.jsonl"
imp "$D/completion.json" "$tmp/other.jsonl"
"$TPSDB_BIN" calibrate >/dev/null 2>"$tmp/err" || fail "calibrate: $(cat "$tmp/err")"
test "$(sqlite3 "$TPSDB_DB" "SELECT count(*) FROM noise_floor WHERE metric='tg' AND noise_pct > 0")" = 1 ||
	fail "floors: $(sqlite3 "$TPSDB_DB" "SELECT * FROM noise_floor")"
echo ok
