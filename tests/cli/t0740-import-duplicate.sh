#!/usr/bin/env bash
# t0740-import-duplicate.sh: the same bytes imported twice are skipped with one warning
# line naming the first import's time, exit 0, and no second run; --allow-duplicate
# imports them again; imported_file records the sha256 of every file taken in.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
tmp_store import
fail() { echo "FAIL: $*" >&2; exit 1; }
runs() { sqlite3 "$TPSDB_DB" "SELECT count(*) FROM run"; }

"$TPSDB_BIN" import --host a "$D/eos.json" >/dev/null
test "$(runs)" = 1 || fail "first import"
sha=$(sha256sum "$D/eos.json" | cut -c1-64)
test "$(sqlite3 "$TPSDB_DB" "SELECT sha256 || ' ' || samples FROM imported_file")" = "$sha 1" ||
	fail "imported_file row: $(sqlite3 "$TPSDB_DB" "SELECT * FROM imported_file")"

# Again, under another name (a copy): the bytes decide, not the path.
cp "$D/eos.json" "$tmp/copy.json"
"$TPSDB_BIN" import --host a "$tmp/copy.json" >"$tmp/out" 2>"$tmp/err" || fail "exit $?"
grep -q "^tpsdb: warning: '$tmp/copy.json' was already imported on 20[0-9-]*T[0-9:.]*Z; skipped (--allow-duplicate imports it again)$" "$tmp/err" ||
	fail "warning: $(cat "$tmp/err")"
test "$(wc -l <"$tmp/err")" = 1 || fail "more than one line: $(cat "$tmp/err")"
grep -q "nothing imported" "$tmp/out" || fail "stdout: $(cat "$tmp/out")"
test "$(runs)" = 1 || fail "a duplicate run was stored"

# The same file twice in one invocation: the second is skipped.
"$TPSDB_BIN" import --host a "$D/completion.json" "$D/completion.json" 2>"$tmp/err" >/dev/null
grep -q "has the same bytes as" "$tmp/err" || fail "in-batch duplicate: $(cat "$tmp/err")"
test "$(runs)" = 2 || fail "in-batch duplicate imported"

# stdin is hashed too.
"$TPSDB_BIN" import --host a - <"$D/eos.json" 2>"$tmp/err" >/dev/null
grep -q "already imported" "$tmp/err" || fail "stdin duplicate: $(cat "$tmp/err")"

# --allow-duplicate imports it again.
"$TPSDB_BIN" import --allow-duplicate --host a "$D/eos.json" >/dev/null 2>"$tmp/err"
test ! -s "$tmp/err" || fail "warned with --allow-duplicate: $(cat "$tmp/err")"
test "$(runs)" = 3 || fail "--allow-duplicate did not import"
test "$(sqlite3 "$TPSDB_DB" "SELECT count(*) FROM imported_file WHERE sha256='$sha'")" = 2 ||
	fail "the second import is not recorded"
echo ok
