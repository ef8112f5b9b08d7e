#!/usr/bin/env bash
# t0762: `tpsdb check` on a store whose pages were overwritten with random bytes
# (the header page left whole, so it is still a tpsdb store) exits non-zero and says
# so in its text output: an integrity problem, or the store being malformed, never
# "no findings".
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_SRC:?}" "${TPSDB_TEST_DATA:?}"
. "$TPSDB_SRC/tests/cli/skip-lib.sh"
need python3 sqlite3
tmp_dir
export TPSDB_DB=$tmp/s.db

"$TPSDB_BIN" import "$TPSDB_TEST_DATA/report/study.jsonl" >/dev/null
# One file, no -wal: the damage must land in the pages check reads.
sqlite3 "$TPSDB_DB" 'PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE;' >/dev/null
python3 - "$TPSDB_DB" <<'PY'
import os, random, sys
path = sys.argv[1]
page = 4096
random.seed(7)
with open(path, 'r+b') as f:
    for p in range(2, os.path.getsize(path) // page):
        f.seek(p * page + 100)
        f.write(bytes(random.randrange(256) for _ in range(200)))
PY
[ "$(sqlite3 "$TPSDB_DB" 'PRAGMA integrity_check' 2>&1 | head -n 1)" != ok ] ||
	{ echo "FAIL: the damage did not make the store corrupt"; exit 1; }

rc=0
"$TPSDB_BIN" check >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" != 0 ] || { cat "$tmp/out"; echo "FAIL: check exited 0 on a corrupt store"; exit 1; }
grep -Eqi 'integrity|malformed|corrupt' "$tmp/out" "$tmp/err" ||
	{ cat "$tmp/out" "$tmp/err"; echo "FAIL: check did not report the corruption"; exit 1; }
if grep -q 'no findings; integrity ok' "$tmp/out"; then
	echo "FAIL: check called a corrupt store ok"
	exit 1
fi
echo "ok: check exit $rc"
