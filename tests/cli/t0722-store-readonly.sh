#!/usr/bin/env bash
# t0722-store-readonly.sh: read commands on a store that may not be written (a 0444
# file in a 0555 directory; as root, where permission bits do not bind, an
# immutable file via chattr +i) work, leave no -wal/-shm and change no byte; on a
# writable store they open it mode=ro and still change no byte of the file.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
tmp_locked
D=$TPSDB_TEST_DATA/import
mkdir "$tmp/ro"
db=$tmp/ro/a.db
"$TPSDB_BIN" --db "$db" import --host h --engine e --tag t1 "$D/completion-reps.jsonl" >/dev/null
"$TPSDB_BIN" --db "$db" import --host h --engine u --tag t1 "$D/completion.json" >/dev/null
"$TPSDB_BIN" --db "$db" baseline freeze b1 --tag t1 >/dev/null 2>&1 || true
test ! -e "$db-wal" && test ! -e "$db-shm"

reads=("runs" "runs --json" "models" "check" "check --json" "export" "export --format csv"
       "compare --ours e --vs u" "trend" "baseline list" "report --help")
run_reads() {
	for args in "${reads[@]}"; do
		rc=0
		# shellcheck disable=SC2086
		"$TPSDB_BIN" --db "$db" $args >"$tmp/out" 2>"$tmp/err" || rc=$?
		# 0 ok, 1 a finding; never the "unable to open" error of read-only media.
		if [ $rc -gt 1 ] && grep -q 'unable to open\|readonly\|read-only' "$tmp/err"; then
			echo "$args: $(cat "$tmp/err")" >&2; exit 1
		fi
		case $args in runs*|export*|models|baseline*) test $rc = 0 || { cat "$tmp/err" >&2; exit 1; } ;; esac
	done
}
sum=$(sha256sum "$db" | cut -d' ' -f1)
mtime=$(stat -c %Y.%y "$db")

# 1. A writable store: mode=ro, the file's bytes and mtime unchanged.
run_reads
test "$(sha256sum "$db" | cut -d' ' -f1)" = "$sum"
test "$(stat -c %Y.%y "$db")" = "$mtime"
rm -f "$db-wal" "$db-shm" # a reader may leave them beside a writable file

# 2. A store nothing may write: the immutable path, nothing left beside it.
chmod 0444 "$db"; chmod 0555 "$tmp/ro"
if [ "$(id -u)" = 0 ]; then
	if chattr +i "$db" 2>/dev/null; then
		immutable=$db
	else
		echo "t0722: as root without chattr: only the mode=ro half ran" >&2
		exit 0
	fi
fi
run_reads
test ! -e "$db-wal" && test ! -e "$db-shm"
test "$(sha256sum "$db" | cut -d' ' -f1)" = "$sum"
# Reading really happened: the runs are there.
test "$("$TPSDB_BIN" --db "$db" runs --json | grep -c '"uuid":')" = 2
# A writer is refused with one error line, and nothing changes.
rc=0; "$TPSDB_BIN" --db "$db" import --allow-duplicate --host h --engine e "$D/completion.json" >/dev/null 2>"$tmp/err" || rc=$?
test $rc = 3
test "$(wc -l <"$tmp/err")" = 1
test "$(sha256sum "$db" | cut -d' ' -f1)" = "$sum"
