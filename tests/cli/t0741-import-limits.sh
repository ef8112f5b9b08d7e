#!/usr/bin/env bash
# t0741-import-limits.sh: inputs above the limits end in one "too large" error line,
# exit 3, and an unchanged store: /dev/zero (never ends), a file above --max-bytes,
# stdin above it, and one JSON value above 64 MiB (a 70 MB array inside timings),
# which is not reported as "not valid JSON" nor dies of memory.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TPSDB_DB=$tmp/s.db
D=$TPSDB_TEST_DATA/import
fail() { echo "FAIL: $*" >&2; exit 1; }

"$TPSDB_BIN" import --host a "$D/eos.json" >/dev/null
before=$(sqlite3 "$TPSDB_DB" "SELECT count(*) FROM sample")

expect_too_large() { # <what> <command...>
	local what=$1 rc=0
	shift
	"$@" >/dev/null 2>"$tmp/err" || rc=$?
	test "$rc" = 3 || fail "$what: exit $rc"
	test "$(wc -l <"$tmp/err")" = 1 || fail "$what: not one line: $(cat "$tmp/err")"
	grep -q "^tpsdb: error: .*too large" "$tmp/err" || fail "$what: $(cat "$tmp/err")"
	test "$(sqlite3 "$TPSDB_DB" "SELECT count(*) FROM sample")" = "$before" || fail "$what: store changed"
}

expect_too_large "/dev/zero" "$TPSDB_BIN" import --max-bytes 1048576 /dev/zero
expect_too_large "file" "$TPSDB_BIN" import --max-bytes 1000 "$D/completion.json"
expect_too_large "stdin" sh -c "exec \"$TPSDB_BIN\" import --max-bytes 1000 - <\"$D/completion.json\""
python3 - "$tmp/big.json" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('{"content":"x","prompt":"p","timings":{"prompt_n":6,"prompt_per_second":10.5,"big":[')
    f.write("1," * (35 * 1024 * 1024))
    f.write('1]}}\n')
PY
expect_too_large "one 70 MB value" "$TPSDB_BIN" import "$tmp/big.json"
grep -q "big.json:1: too large: a JSON value of" "$tmp/err" || fail "value: $(cat "$tmp/err")"
"$TPSDB_BIN" import --max-bytes 0 "$D/eos.json" 2>/dev/null && fail "--max-bytes 0 accepted"
echo ok
