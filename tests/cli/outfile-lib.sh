# outfile-lib.sh: shared setup for the output-file CLI tests (t07NN-*.sh source it):
# the report tests' helpers (tps, expect_rc, fail, load, $TMP) plus a larger store
# and the checks those tests share.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1

# big_store <copies>: the study fixture imported <copies> times under other run
# uuids and model labels, so that exports, reports and JUnit files grow past a
# file-size limit of 64 KiB (SQLite's -shm alone needs 32 KiB).
big_store() {
	python3 - "$FIX/study.jsonl" "$1" >"$TMP/big.jsonl" <<'PY' || fail "big fixture"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
for k in range(int(sys.argv[2])):
    for line in lines:
        r = json.loads(line)
        r["run"]["uuid"] = "%08x" % (k + 1) + r["run"]["uuid"][8:]
        r["run"]["model"]["label"] += "-%03d" % k
        print(json.dumps(r))
PY
	"$TPSDB_BIN" import "$TMP/big.jsonl" >/dev/null || fail "import of the big fixture"
}

# two_stores: $TMP/a.db, a copy of the store as it stands, and $TMP/b.db, the same
# plus one more copy of the study (other run uuids, model labels "-b"), so that
# reports of the two differ on every page.
two_stores() {
	cp "$TPSDB_DB" "$TMP/a.db"
	python3 - "$FIX/study.jsonl" >"$TMP/more.jsonl" <<'PY' || fail "fixture B"
import json, sys
for line in open(sys.argv[1]).read().splitlines():
    r = json.loads(line)
    r["run"]["uuid"] = "ffffffff" + r["run"]["uuid"][8:]
    r["run"]["model"]["label"] += "-b"
    print(json.dumps(r))
PY
	cp "$TMP/a.db" "$TMP/b.db"
	"$TPSDB_BIN" --db "$TMP/b.db" import "$TMP/more.jsonl" >/dev/null || fail "import B"
}

# no_temps <path>: nothing named <path>.tmp.* or <path>.old.* is left beside path.
no_temps() {
	local left
	left=$(ls -d "$1".tmp.* "$1".old.* 2>/dev/null || true)
	[ -z "$left" ] || fail "temporary files left: $left"
}

# full_node: a character device that fails every write with ENOSPC. As root, a
# private node with /dev/full's numbers, so that a regression replaces that node
# and not the system's; otherwise /dev/full itself (then nothing can replace it).
full_node() {
	if mknod "$TMP/full" c 1 7 2>/dev/null && (: >"$TMP/full") 2>/dev/null; then
		echo "$TMP/full"
	else
		rm -f "$TMP/full"
		echo /dev/full
	fi
}

# limited <blocks> <cmd...>: runs cmd with a file-size limit of <blocks> KiB.
limited() {
	local n=$1
	shift
	rc=0
	(ulimit -f "$n" && exec "$@") >"$TMP/out" 2>"$TMP/err" || rc=$?
}
