# tps-lib.sh: fail, tps and expect_rc for the test libraries that keep a test's
# files in $TMP (tests/data/analyze-cli/lib.sh, tests/data/report/lib.sh).

fail() { echo "FAIL: $*" >&2; exit 1; }

# tps <args>: runs the binary, keeping stdout in $TMP/out, stderr in $TMP/err and
# the exit code in $rc.
tps() {
	rc=0
	"$TPSDB_BIN" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
}

# expect_rc <code> <what>
expect_rc() {
	[ "$rc" = "$1" ] || { cat "$TMP/out" "$TMP/err" >&2; fail "$2: exit $rc, expected $1"; }
}
