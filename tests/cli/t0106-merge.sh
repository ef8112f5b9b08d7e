#!/usr/bin/env bash
# t0106-merge.sh: merge brings in another store's runs by uuid; merging twice
# changes nothing; the other file is left byte for byte as it was with no -wal or
# -shm beside it; self-merge, a missing file, a foreign file and a newer store are
# refused.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
tmp_dir
D=$TPSDB_TEST_DATA/import
A=$tmp/a.db
B=$tmp/b.db

"$TPSDB_BIN" --db "$A" import --host a --engine ours "$D/completion.json" >/dev/null
"$TPSDB_BIN" --db "$B" import --host b --engine ours "$D/completion-reps.jsonl" >/dev/null
"$TPSDB_BIN" --db "$B" import --host b --engine up "$D/llama-bench.json" >/dev/null
sum=$(sha256sum "$B" | cut -d' ' -f1)

"$TPSDB_BIN" --db "$A" merge "$B" >"$tmp/out"
test "$(cat "$tmp/out")" = "merged 3 runs, 0 already present"
"$TPSDB_BIN" --db "$A" export >"$tmp/e1"
test "$(wc -l <"$tmp/e1")" = 4
"$TPSDB_BIN" --db "$A" merge "$B" >"$tmp/out"
test "$(cat "$tmp/out")" = "merged 0 runs, 3 already present"
"$TPSDB_BIN" --db "$A" export | cmp - "$tmp/e1"
# The merged runs are the other store's, byte for byte.
"$TPSDB_BIN" --db "$B" export >"$tmp/eb"
grep -cxFf "$tmp/eb" "$tmp/e1" | grep -qx 3
test "$(sha256sum "$B" | cut -d' ' -f1)" = "$sum"
test ! -e "$B-wal" && test ! -e "$B-shm"

# Into a new store: created, same runs.
"$TPSDB_BIN" --db "$tmp/new.db" merge "$B" >/dev/null
"$TPSDB_BIN" --db "$tmp/new.db" export | cmp - "$tmp/eb"

# Refusals: one error line each, and nothing written anywhere.
refuse() {
	want=$1; shift
	rc=0; "$TPSDB_BIN" --db "$A" merge "$@" >/dev/null 2>"$tmp/err" || rc=$?
	test $rc = "$want"
	test "$(grep -c '^tpsdb: error: ' "$tmp/err")" = 1
	"$TPSDB_BIN" --db "$A" export | cmp - "$tmp/e1"
}
refuse 2 "$A"
( cd "$tmp" && rc=0 && "$TPSDB_BIN" --db a.db merge ./a.db 2>/dev/null || rc=$?; test $rc = 2 )
refuse 3 "$tmp/missing.db"
test ! -e "$tmp/missing.db"
echo "not a database, but long enough to be read as a header by SQLite............................" >"$tmp/text.db"
refuse 3 "$tmp/text.db"
refuse 2
refuse 2 "$B" "$B"
need python3
{
	python3 - "$tmp/newer.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript("CREATE TABLE run(id); PRAGMA application_id = 1414550340; PRAGMA user_version = 999;")
db.close()
PY
	nsum=$(sha256sum "$tmp/newer.db" | cut -d' ' -f1)
	refuse 3 "$tmp/newer.db"
	grep -q "newer than this tpsdb" "$tmp/err"
	test "$(sha256sum "$tmp/newer.db" | cut -d' ' -f1)" = "$nsum"
	python3 - "$tmp/other.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript("CREATE TABLE notes(x); INSERT INTO notes VALUES (1);")
db.close()
PY
	refuse 3 "$tmp/other.db"
	grep -q "not a tpsdb store" "$tmp/err"
}
