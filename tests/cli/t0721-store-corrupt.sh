#!/usr/bin/env bash
# t0721-store-corrupt.sh: a store with bytes overwritten in one page is refused by a
# writer (import: exit 3, one error line, file unchanged), by models (exit 3), and
# as a merge source (named by its path, not ':memory:'); check lists the integrity
# problems in text and JSON ("integrity": [...], "complete": false) and exits 3.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
D=$TPSDB_TEST_DATA/import
db=$tmp/good.db
"$TPSDB_BIN" --db "$db" import --host h --engine e "$D/completion-reps.jsonl" >/dev/null
"$TPSDB_BIN" --db "$db" import --host h --engine u "$D/llama-bench.json" >/dev/null
integrity_ok() { rc=0; "$TPSDB_BIN" --db "$1" check --json >"$tmp/ok" || rc=$?; [ $rc -le 1 ]; grep -q '"integrity":[[:space:]]*"ok"' "$tmp/ok"; }
integrity_ok "$db"

# The sample table's root page, found through SQLite itself, overwritten past its
# header with a fixed pattern.
page=$(command -v python3 >/dev/null &&
	python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select rootpage from sqlite_schema where name='sample'\").fetchone()[0])" "$db" || echo 15)
bad=$tmp/bad.db
cp "$db" "$bad"
head -c 3000 /dev/zero | tr '\0' 'Z' | dd of="$bad" bs=1 seek=$(( (page - 1) * 4096 + 8 )) conv=notrunc 2>/dev/null
sum=$(sha256sum "$bad" | cut -d' ' -f1)

one_error() { test "$(wc -l <"$1")" = 1 && grep -q "^tpsdb: error: $2" "$1"; }

# 1. A writer refuses it, changing nothing.
rc=0; "$TPSDB_BIN" --db "$bad" import --host h --engine e "$D/completion.json" >"$tmp/out" 2>"$tmp/err" || rc=$?
test $rc = 3
one_error "$tmp/err" "store '$bad' is corrupt: "
test "$(sha256sum "$bad" | cut -d' ' -f1)" = "$sum"

# 2. models does not exit 0.
rc=0; "$TPSDB_BIN" --db "$bad" models >"$tmp/out" 2>"$tmp/err" || rc=$?
test $rc = 3
one_error "$tmp/err" "store '$bad' is corrupt: "

# 3. check: the integrity problems in text and JSON, even though reading failed.
rc=0; "$TPSDB_BIN" --db "$bad" check >"$tmp/out" 2>"$tmp/err" || rc=$?
test $rc = 3
grep -q "^integrity: .*page $page" "$tmp/out"
grep -q "integrity FAILED" "$tmp/out"
grep -q "could not be read whole" "$tmp/out"
rc=0; "$TPSDB_BIN" --db "$bad" check --json >"$tmp/json" 2>"$tmp/err" || rc=$?
test $rc = 3
grep -q '"integrity":[[:space:]]*\["' "$tmp/json"
grep -q '"complete":[[:space:]]*false' "$tmp/json"
if command -v python3 >/dev/null; then
	python3 - "$tmp/json" "$page" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d["integrity"], list) and d["integrity"], d
assert any("page " + sys.argv[2] in p for p in d["integrity"]), d["integrity"]
assert d["complete"] is False
PY
fi
test "$(sha256sum "$bad" | cut -d' ' -f1)" = "$sum"

# 4. A corrupt merge source is named by its path; the target is untouched.
"$TPSDB_BIN" --db "$tmp/into.db" import --host h --engine e "$D/completion.json" >/dev/null
"$TPSDB_BIN" --db "$tmp/into.db" export >"$tmp/before"
rc=0; "$TPSDB_BIN" --db "$tmp/into.db" merge "$bad" >"$tmp/out" 2>"$tmp/err" || rc=$?
test $rc = 3
test "$(wc -l <"$tmp/err")" = 1
grep -qF "'$bad'" "$tmp/err"
! grep -q ':memory:' "$tmp/err"
"$TPSDB_BIN" --db "$tmp/into.db" export | cmp - "$tmp/before"
integrity_ok "$tmp/into.db"
