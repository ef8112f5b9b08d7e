#!/usr/bin/env bash
# t0202-usage-errors.sh: an unknown option, a bad value or a stray argument is one
# "tpsdb: error:" line (then "see 'tpsdb <cmd> --help'") on stderr, nothing on stdout, exit 2, and
# no store is created.
set -eu
: "${TPSDB_BIN:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TPSDB_DB=$tmp/none.db

usage_error() {
	rc=0; "$TPSDB_BIN" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ $rc != 2 ]; then echo "exit $rc for: $*" >&2; exit 1; fi
	test "$(grep -c '^tpsdb: error: ' "$tmp/err")" = 1
	head -n 1 "$tmp/err" | grep -q '^tpsdb: error: '
	# one error line and the hint, not the whole synopsis
	test "$(wc -l <"$tmp/err")" = 2
	sed -n 2p "$tmp/err" | grep -qx "see 'tpsdb [a-z]* --help'"
	test ! -s "$tmp/out"
}
for cmd in runs models check export merge import; do
	usage_error "$cmd" --bogus
	usage_error "$cmd" --bogus=1
done
usage_error runs stray
usage_error runs --engine
usage_error models --engine x
usage_error check stray
usage_error export --format xml
usage_error export --out ''
usage_error merge
usage_error merge a.db b.db
"$TPSDB_BIN" runs --bogus 2>&1 | grep -qx "tpsdb: error: unknown option '--bogus'"
test ! -e "$TPSDB_DB"
