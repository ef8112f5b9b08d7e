#!/usr/bin/env bash
# t1200-store-old-versions.sh: a store of every older schema version
# (tests/data/schema/v<N>.sql; make-fixtures.py writes those from v3 on) migrates
# to the latest version with nothing lost: every table keeps its row count and
# every value of every column it had (compared whole, row by row), the rates of
# 0009 are filled for stored samples, and runs, compare and export then read it.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
# shellcheck source=tests/cli/skip-lib.sh
. "$(dirname "$0")/skip-lib.sh"
need sqlite3
tmp_dir
S=$TPSDB_TEST_DATA/schema
latest=$("$TPSDB_BIN" --db "$tmp/new.db" migrate >/dev/null 2>&1; "$TPSDB_BIN" --db "$tmp/new.db" import --host h --engine e "$TPSDB_TEST_DATA/import/completion.json" >/dev/null; sqlite3 "$tmp/new.db" 'PRAGMA user_version')
test "$latest" -ge 12

# The fixtures are what make-fixtures.py writes from today's schema/: none drifted.
if command -v python3 >/dev/null && [ -d "${TPSDB_SRC:-}/schema" ]; then
	mkdir -p "$tmp/root/tests/data/schema"
	cp -r "$TPSDB_SRC/schema" "$tmp/root/schema"
	cp "$S/make-fixtures.py" "$tmp/root/tests/data/schema/"
	python3 "$tmp/root/tests/data/schema/make-fixtures.py"
	for f in "$tmp/root/tests/data/schema"/v*.sql; do
		cmp "$f" "$S/$(basename "$f")" || { echo "t1200: $(basename "$f") is not what make-fixtures.py writes" >&2; exit 1; }
	done
fi

# dump <db> <table> <cols>: every row, every named column, in one fixed order.
dump() { sqlite3 -batch -noheader -separator '|' "$1" "SELECT quote(${3//,/),quote(}) FROM $2 ORDER BY $(seq -s, 1 "$(echo "$3" | tr ',' '\n' | wc -l)")"; }

versions=()
for f in "$S"/v[0-9]*.sql; do
	b=$(basename "$f" .sql)
	case $b in *-*) continue ;; esac # v5-running.sql: a state, not a version
	versions+=("${b#v}")
done
test "${#versions[@]}" -ge 11 # v1 .. v11

for v in "${versions[@]}"; do
	db=$tmp/v$v.db
	sqlite3 "$db" <"$S/v$v.sql"
	test "$(sqlite3 "$db" 'PRAGMA user_version')" = "$v"
	tables=$(sqlite3 "$db" "SELECT name FROM sqlite_schema WHERE type='table' ORDER BY name")
	for t in $tables; do
		cols=$(sqlite3 "$db" "SELECT group_concat(name, ',') FROM pragma_table_info('$t')")
		echo "$cols" >"$tmp/v$v.$t.cols"
		dump "$db" "$t" "$cols" >"$tmp/v$v.$t.before"
		if [ "$v" -ge 3 ] && [ "$v" != 5 ] && [ ! -s "$tmp/v$v.$t.before" ]; then
			echo "t1200: v$v: table $t of the fixture is empty" >&2; exit 1
		fi
	done
	nruns=$(sqlite3 "$db" 'SELECT count(*) FROM run')

	out=$("$TPSDB_BIN" --db "$db" migrate)
	test "$out" = "migrated '$db' from schema version $v to $latest"
	test "$(sqlite3 "$db" 'PRAGMA user_version')" = "$latest"
	test "$(sqlite3 "$db" 'PRAGMA integrity_check')" = ok
	test -z "$(sqlite3 "$db" 'PRAGMA foreign_key_check')"
	for t in $tables; do
		dump "$db" "$t" "$(cat "$tmp/v$v.$t.cols")" >"$tmp/v$v.$t.after"
		cmp "$tmp/v$v.$t.before" "$tmp/v$v.$t.after" || {
			echo "t1200: v$v: table $t changed in migration" >&2
			diff "$tmp/v$v.$t.before" "$tmp/v$v.$t.after" >&2 || true
			exit 1
		}
	done
	# 0009's rates: a sample with a count and a time has both (those before 9 computed).
	test "$(sqlite3 "$db" 'SELECT count(*) FROM sample WHERE predicted_n > 0 AND predicted_ms > 0 AND tg_rate IS NULL')" = 0
	test "$(sqlite3 "$db" 'SELECT count(*) FROM sample WHERE tg_rate IS NOT NULL')" -ge 1

	# The readers, on the migrated store.
	"$TPSDB_BIN" --db "$db" runs --json >"$tmp/runs"
	test "$(grep -c '"uuid":' "$tmp/runs")" = "$nruns"
	for u in $(sqlite3 "$db" 'SELECT uuid FROM run'); do grep -q "\"$u\"" "$tmp/runs"; done
	"$TPSDB_BIN" --db "$db" export >"$tmp/export"
	test "$(wc -l <"$tmp/export")" = "$nruns"
	test "$(grep -o '"rep":' "$tmp/export" | wc -l)" = "$(sqlite3 "$db" 'SELECT count(*) FROM sample')"
	"$TPSDB_BIN" --db "$db" export --format csv >"$tmp/csv"
	test "$(($(wc -l <"$tmp/csv") - 1))" = "$(sqlite3 "$db" 'SELECT count(*) FROM sample')"
	rc=0; "$TPSDB_BIN" --db "$db" compare --ours ours --vs llama.cpp >"$tmp/cmp" 2>"$tmp/err" || rc=$?
	if grep -q '^-- v[0-9]*.sql: a tpsdb store at schema version [0-9]*, written by make-fixtures.py' "$S/v$v.sql"; then
		test $rc = 0 || { echo "t1200: v$v: compare exit $rc: $(cat "$tmp/err")" >&2; exit 1; }
		grep -q '^ours vs llama.cpp: ' "$tmp/cmp"
		if grep -q 'tpsdb: error' "$tmp/err"; then cat "$tmp/err" >&2; exit 1; fi
	else # v1, v2, v5 (by hand) hold no cell of both engines: a data error, one line.
		test $rc = 3
		test "$(grep -c '^tpsdb: error: ' "$tmp/err")" = 1
		grep -q "^tpsdb: error: no cell measured by both 'ours' and 'llama.cpp'" "$tmp/err"
	fi
	# The export imports whole into a fresh store: the migrated rows are valid today
	# (not for v1, v2, v5, written by hand with a model sha256 of 'aaaa').
	if [ "$v" -ge 3 ] && [ "$v" != 5 ]; then
		"$TPSDB_BIN" --db "$tmp/re$v.db" import "$tmp/export" >/dev/null
		test "$("$TPSDB_BIN" --db "$tmp/re$v.db" runs --json | grep -c '"uuid":')" = "$nruns"
	fi
done
