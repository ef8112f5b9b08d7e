#!/usr/bin/env bash
# t1202-store-full-fs.sh: a file system that fills up under collect, import and
# report. collect: exit 3, one error line, the samples committed before the disk
# filled kept whole (integrity ok, every sample with its timings), the run not
# claimed complete, and the store usable once there is room. import: exit 3, one
# line, the store's runs unchanged. report --out: exit 3, one line, the previous
# report folder byte-identical and nothing half-written beside it.
#
# The full disk is a small tmpfs (ENOSPC, as on a real disk) where this test may
# mount one (root with CAP_SYS_ADMIN, as in the project's container); elsewhere a
# file-size limit (ulimit -f, RLIMIT_FSIZE, with SIGXFSZ ignored: writes past it
# fail EFBIG), which any user may set. T1202_MODE=ulimit forces the second. It says
# which it used on stdout.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
M=$T/full
mkdir "$M"
mounted=
t1202_cleanup() {
	[ -z "$mounted" ] || umount "$M" 2>/dev/null || umount -l "$M" 2>/dev/null || true
	collect_cleanup
}
trap t1202_cleanup EXIT
mode=${T1202_MODE:-tmpfs}
if [ "$mode" = tmpfs ]; then
	if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=384k tmpfs "$M" 2>/dev/null; then
		mounted=1
	else
		mode="ulimit"
	fi
fi
if [ "$mode" = ulimit ]; then
	( trap '' XFSZ; ulimit -f 1 ) 2>/dev/null || skip "neither a tmpfs mount nor ulimit -f works here"
fi
echo "t1202: full disk by $mode"

# full <KiB> <cmd...>: runs cmd where writes fail: on the tmpfs as it is, or under a
# file-size limit of KiB (SIGXFSZ ignored, so the write fails EFBIG instead).
full() {
	local kib=$1
	shift
	rc=0
	if [ "$mode" = tmpfs ]; then
		"$@" >"$T/stdout" 2>"$T/stderr" || rc=$?
	else
		# Through a pipe: the limit binds the files the command writes, and would
		# bind a redirection of its stderr into a file too.
		(trap '' XFSZ; ulimit -f "$kib" && exec "$@" 2>&1 >/dev/null) | cat >"$T/stderr"
		rc=${PIPESTATUS[0]}
		: >"$T/stdout"
	fi
}
one_error() {
	[ "$rc" -le 128 ] || fail "$1: killed by signal (exit $rc)"
	expect_eq "$rc" 3 "$1: exit status ($(cat "$T/stderr"))"
	expect_eq "$(grep -c '^tpsdb: error: ' "$T/stderr")" 1 "$1: error lines ($(cat "$T/stderr"))"
	grep -q "^tpsdb: error: .*\(disk is full\|No space left\|File too large\|disk I/O error\)" \
		"$T/stderr" || fail "$1: the error says the disk is full: $(cat "$T/stderr")"
}
DB=$M/t.sqlite

# 0. A previous report on the small file system, from a small store elsewhere.
"$TPSDB_BIN" --db "$T/small.db" import --host h --engine e "$TPSDB_SRC/tests/data/import/completion.json" >/dev/null
"$TPSDB_BIN" --db "$T/small.db" report --no-plots --out "$M/rep" >/dev/null
cp -a "$M/rep" "$T/rep-before"

# 1. collect until the store no longer fits.
port=$(free_port)
full 200 "$TPSDB_BIN" --db "$DB" collect --engine ours="$FS" --model tiny="$MODEL" \
	--prompts "$PROMPTS" --reps 200 --warmup 0 --n-predict 8 --port "$port" \
	--out-dir "$T/out" --host h
one_error collect
expect_no_orphans
expect_eq "$(q 'PRAGMA integrity_check')" ok "integrity after collect"
n=$(q 'SELECT count(*) FROM sample')
{ [ "$n" -ge 1 ] && [ "$n" -lt 400 ]; } || fail "committed samples kept, not all: $n"
expect_eq "$(q "SELECT count(*) FROM sample WHERE http_status=200 AND predicted_n=8 AND timings LIKE '{%}' AND tg_rate > 0")" "$n" "every kept sample whole"
expect_eq "$(q "SELECT count(*) FROM run WHERE status='complete'")" 0 "no run claimed complete"
"$TPSDB_BIN" --db "$DB" runs --json >"$T/runs" || fail "runs on the full store"
grep -q '"status":[[:space:]]*"\(interrupted\|failed\)"' "$T/runs" || fail "the run reads as interrupted or failed: $(cat "$T/runs")"

# 2. import into the full store: refused whole.
"$TPSDB_BIN" --db "$DB" export >"$T/before.jsonl"
full 1 "$TPSDB_BIN" --db "$DB" import --host h --engine e2 --allow-duplicate \
	"$TPSDB_SRC/tests/data/import/completion-reps.jsonl"
one_error import
"$TPSDB_BIN" --db "$DB" export | cmp - "$T/before.jsonl" || fail "import changed the store"
expect_eq "$(q 'PRAGMA integrity_check')" ok "integrity after import"

# 3. report --out onto the full file system: the previous report stays whole.
full 0 "$TPSDB_BIN" --db "$T/small.db" report --format md --out "$M/rep"
one_error report
diff -r "$T/rep-before" "$M/rep" >&2 || fail "the previous report changed"
left=$(cd "$M" && find . -mindepth 1 -maxdepth 1 ! -name 't.sqlite*' -printf '%P ')
expect_eq "$left" "rep " "nothing left beside the report"

# 4. Room again: the kept samples are there, and the store takes writes.
cp "$DB" "$T/roomy.db"
[ ! -e "$DB-wal" ] || cp "$DB-wal" "$T/roomy.db-wal"
"$TPSDB_BIN" --db "$T/roomy.db" import --host h --engine e2 "$TPSDB_SRC/tests/data/import/completion.json" >/dev/null
expect_eq "$(sqlite3 "$T/roomy.db" "SELECT count(*) FROM sample s JOIN run r ON r.id=s.run_id JOIN engine e ON e.id=r.engine_id WHERE e.label='ours'")" "$n" "kept samples after"
