#!/usr/bin/env bash
# t0203-missing-db.sh: a read command on a --db that does not exist is one error
# line and exit 3, and does not create the file.
set -eu
: "${TPSDB_BIN:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db=$tmp/nope.db
for args in "runs" "runs --json" "models" "check" "check --json" "export" "export --format csv"; do
	rc=0
	# shellcheck disable=SC2086
	"$TPSDB_BIN" --db "$db" $args >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ $rc != 3 ]; then echo "exit $rc for: $args" >&2; exit 1; fi
	test "$(wc -l <"$tmp/err")" = 1
	grep -q "^tpsdb: error: no store at '$db'" "$tmp/err"
	test ! -s "$tmp/out"
	test ! -e "$db"
done
# --out is not created either.
rc=0; "$TPSDB_BIN" --db "$db" export --out "$tmp/x.jsonl" 2>/dev/null || rc=$?
test $rc = 3
test -z "$(ls "$tmp" | grep -v '^out$\|^err$' || true)"
