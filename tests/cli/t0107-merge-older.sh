#!/usr/bin/env bash
# t0107-merge-older.sh: a store written at schema version 1 (tests/data/schema/v1.sql)
# merges: it is migrated in a private copy, its runs arrive whole, and the v1 file is
# not changed (still version 1, same bytes).
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3
tmp_dir
old=$tmp/v1.db
python3 - "$old" "$TPSDB_TEST_DATA/schema/v1.sql" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript(open(sys.argv[2]).read())
db.close()
PY
"$TPSDB_BIN" --db "$tmp/s.db" import --host here "$TPSDB_TEST_DATA/import/eos.json" >/dev/null
# The fixture's model sha256 is a placeholder, 'aaaa': merge applies import's rules
# (issue 29), so it is refused, as the merged store's export would be by import.
rc=0; "$TPSDB_BIN" --db "$tmp/s.db" merge "$old" 2>"$tmp/err" || rc=$?
test $rc = 3 && grep -q "'model.sha256' is not 64 hex digits; nothing was merged" "$tmp/err"
python3 - "$old" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE model SET sha256 = ?", ("a" * 64,))
db.commit()
db.close()
PY
sum=$(sha256sum "$old" | cut -d' ' -f1)

"$TPSDB_BIN" --db "$tmp/s.db" merge "$old" >"$tmp/out"
test "$(cat "$tmp/out")" = "merged 2 runs, 0 already present"
"$TPSDB_BIN" --db "$tmp/s.db" merge "$old" >"$tmp/out"
test "$(cat "$tmp/out")" = "merged 0 runs, 2 already present"
"$TPSDB_BIN" --db "$tmp/s.db" runs --json >"$tmp/runs.json"
python3 - "$tmp/runs.json" <<'PY'
import json, sys
runs = {r["uuid"]: r for r in json.load(open(sys.argv[1]))}
a = runs["00000000-0000-4000-8000-000000000001"]
b = runs["00000000-0000-4000-8000-000000000002"]
assert a["host"] == "gpu-a" and a["engine"] == "ours" and a["model"] == "q35" and a["n_samples"] == 1
assert b["spec_type"] == "draft-simple" and b["n_max"] == 2 and b["tag"] == "b9859"
assert len(runs) == 3
PY
test "$(sha256sum "$old" | cut -d' ' -f1)" = "$sum"
test ! -e "$old-wal" && test ! -e "$old-shm"
python3 -c '
import sqlite3, sys
assert sqlite3.connect(sys.argv[1]).execute("PRAGMA user_version").fetchone()[0] == 1' "$old"
