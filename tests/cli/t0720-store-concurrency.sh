#!/usr/bin/env bash
# t0720-store-concurrency.sh: N importers at once on a store that does not exist yet
# all succeed (the schema version is read under the write lock), and N importers
# with readers (runs --json, check --json) on an existing store lose no row; every
# importer and reader exits as it should and integrity_check stays ok.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
D=$TPSDB_TEST_DATA/import
N=4
ROUNDS=8   # new stores created by N processes at once
PER=3      # imports per importer on the existing store
fail=0

count_runs() { "$TPSDB_BIN" --db "$1" runs --json | grep -c '"uuid":'; }
count_samples() {
	"$TPSDB_BIN" --db "$1" runs --json | sed -n 's/.*"n_samples":[[:space:]]*\([0-9]*\).*/\1/p' |
		awk '{ s += $1 } END { print s + 0 }'
}
integrity_ok() {
	rc=0; "$TPSDB_BIN" --db "$1" check --json >"$tmp/chk" 2>/dev/null || rc=$?
	[ $rc -le 1 ] && grep -q '"integrity":[[:space:]]*"ok"' "$tmp/chk"
}

# 1. N processes create one new store at once, ROUNDS times.
for r in $(seq 1 $ROUNDS); do
	db=$tmp/new$r.db
	pids=
	for i in $(seq 1 $N); do
		"$TPSDB_BIN" --db "$db" import --allow-duplicate --host "h$i" --engine e "$D/completion-reps.jsonl" \
			>/dev/null 2>"$tmp/new$r.$i.err" &
		pids="$pids $!"
	done
	for p in $pids; do wait "$p" || fail=1; done
	if [ $fail != 0 ]; then cat "$tmp"/new$r.*.err >&2; echo "round $r: an importer failed" >&2; exit 1; fi
	test "$(count_runs "$db")" = $N
	test "$(count_samples "$db")" = $((N * 3))
	integrity_ok "$db"
done

# 2. N importers and two readers on an existing store.
db=$tmp/old.db
"$TPSDB_BIN" --db "$db" import --host seed --engine e "$D/completion.json" >/dev/null
touch "$tmp/importing"
reader() {
	while [ -e "$tmp/importing" ]; do
		"$TPSDB_BIN" --db "$db" runs --json >/dev/null || { echo "runs --json failed" >&2; return 1; }
		rc=0; "$TPSDB_BIN" --db "$db" check --json >"$tmp/rchk.$1" || rc=$?
		[ $rc -le 1 ] || { echo "check exited $rc" >&2; return 1; }
		grep -q '"integrity":[[:space:]]*"ok"' "$tmp/rchk.$1"
	done
}
reader 1 & r1=$!
reader 2 & r2=$!
pids=
for i in $(seq 1 $N); do
	(
		for k in $(seq 1 $PER); do
			"$TPSDB_BIN" --db "$db" import --allow-duplicate --host "w$i" --engine e "$D/completion-reps.jsonl" \
				>/dev/null 2>>"$tmp/old.$i.err" || exit 1
		done
	) &
	pids="$pids $!"
done
for p in $pids; do wait "$p" || fail=1; done
rm -f "$tmp/importing"
wait $r1 || fail=1
wait $r2 || fail=1
if [ $fail != 0 ]; then cat "$tmp"/old.*.err >&2 || true; echo "an importer or reader failed" >&2; exit 1; fi
test "$(count_runs "$db")" = $((1 + N * PER))
test "$(count_samples "$db")" = $((1 + N * PER * 3))
integrity_ok "$db"
