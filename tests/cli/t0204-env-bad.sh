#!/usr/bin/env bash
# t0204-env-bad.sh: every TPSDB_* number tpsdb reads is checked before a command
# runs (issue 29, item 3). A value that is not a number in its range is one error
# line naming the variable and its range, exit 2, and no store is created; before,
# each ran silently with the default ('64MB' as 64, '4097' as 64). An empty value is
# unset, and values in range still work.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
in=$TPSDB_TEST_DATA/import/eos.json

# bad VAR VALUE RANGE: import into a new store must refuse before it creates it.
bad() {
	local rc=0
	env "$1=$2" "$TPSDB_BIN" --db "$tmp/new.db" import "$in" >"$tmp/out" 2>"$tmp/err" || rc=$?
	test $rc = 2 || { echo "FAIL: $1='$2': exit $rc, want 2" >&2; exit 1; }
	test "$(wc -l <"$tmp/err")" = 1 && test ! -s "$tmp/out" ||
		{ echo "FAIL: $1='$2': not one error line" >&2; cat "$tmp/err" >&2; exit 1; }
	grep -qxF "tpsdb: error: $1 must be $3, not '$2'" "$tmp/err" ||
		{ echo "FAIL: $1='$2': says" >&2; cat "$tmp/err" >&2; exit 1; }
	test ! -e "$tmp/new.db"
}
mib="a whole number of MiB from 1 to 4096"
for v in abc 0 4097 64MB " 64" -1 1.5 0x40; do bad TPSDB_MAX_RESPONSE_MB "$v" "$mib"; done
s="a whole number of seconds from 0 to 86400"
for v in abc -1 86401 1.5 10s 99999999999999999999; do bad TPSDB_BUSY_TIMEOUT "$v" "$s"; done
mb="a whole number of MB from 0 to 1048576"
for v in x -5 1048577 512MB; do bad TPSDB_QUICK_CHECK_MB "$v" "$mb"; done
pct="a percentage from 0 to 100"
for v in 101 -1 50% 5e1 0x32 nan inf abc; do bad TPSDB_HOST_BUSY_PCT "$v" "$pct"; done
hs="a whole number of seconds from 1 to 3600"
for v in 0 3601 1.5 30s abc; do bad TPSDB_HELP_TIMEOUT "$v" "$hs"; done
# A read command is refused the same way, before it looks for its store.
rc=0; TPSDB_BUSY_TIMEOUT=abc "$TPSDB_BIN" --db "$tmp/none.db" runs 2>"$tmp/err" || rc=$?
test $rc = 2 && grep -q "^tpsdb: error: TPSDB_BUSY_TIMEOUT must be" "$tmp/err"

# In range, or empty: the command runs.
TPSDB_MAX_RESPONSE_MB=4096 TPSDB_BUSY_TIMEOUT=0 TPSDB_QUICK_CHECK_MB=0 TPSDB_HOST_BUSY_PCT=12.5 TPSDB_HELP_TIMEOUT=3600 \
	"$TPSDB_BIN" --db "$tmp/a.db" import "$in" >/dev/null
TPSDB_MAX_RESPONSE_MB= TPSDB_BUSY_TIMEOUT= TPSDB_QUICK_CHECK_MB= TPSDB_HOST_BUSY_PCT= TPSDB_HELP_TIMEOUT= \
	"$TPSDB_BIN" --db "$tmp/a.db" runs >/dev/null
# --help names every variable and its range.
"$TPSDB_BIN" --help >"$tmp/help"
for v in "TPSDB_BUSY_TIMEOUT (seconds" "TPSDB_QUICK_CHECK_MB (largest" "TPSDB_MAX_RESPONSE_MB" "TPSDB_HOST_BUSY_PCT" "TPSDB_HELP_TIMEOUT (seconds"; do
	grep -q "$v" "$tmp/help"
done
grep -q "1 to 4096" "$tmp/help" && grep -q "0 to 86400" "$tmp/help" && grep -q "1 to 3600" "$tmp/help"
