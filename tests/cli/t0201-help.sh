#!/usr/bin/env bash
# t0201-help.sh: every store command's --help (and -h) prints its usage on stdout,
# nothing on stderr, and exits 0, without needing a store.
set -eu
: "${TPSDB_BIN:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TPSDB_DB=$tmp/none.db
for cmd in import runs models check export merge; do
	for h in --help -h; do
		"$TPSDB_BIN" "$cmd" "$h" >"$tmp/out" 2>"$tmp/err"
		head -n 1 "$tmp/out" | grep -q "^usage: tpsdb $cmd"
		test ! -s "$tmp/err"
		grep -q 'Exit codes' "$tmp/out"
	done
done
# The documented exit-1 meanings are in the help of the commands that use them.
"$TPSDB_BIN" models --help | grep -q '1 at least one alarm'
"$TPSDB_BIN" check --help | grep -q '1 anything found'
test ! -e "$TPSDB_DB"
