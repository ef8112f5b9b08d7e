#!/usr/bin/env bash
# t0830-limits.sh: limits are errors, not signals or unbounded memory. An input file
# truncated after import read it cannot kill import (no mmap: no SIGBUS); /dev/zero
# stops at --max-bytes without holding more; a file-size limit (ulimit -f) on the
# store or on stdout is one error line and exit 3 (SIGXFSZ ignored), with the store
# whole; a text input holding a NUL byte (prompts, manifest, thresholds) is refused.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh"
need sqlite3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
B=$TPSDB_BIN
D=$TPSDB_TEST_DATA/import
fail() { echo "FAIL: $*" >&2; exit 1; }
one_error() { # rc what
	[ "$1" = 3 ] || { cat "$T/err" >&2; fail "$2: exit $1, expected 3"; }
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err" >&2; fail "$2: not one error line"; }
	grep -q '^tpsdb: error: ' "$T/err" || fail "$2: $(cat "$T/err")"
}

# 1. A file that shrinks after import read it: import holds its own copy of the
# bytes. The FIFO given second keeps import waiting while the first is truncated.
cp "$D/completion-reps.jsonl" "$T/a.jsonl"
mkfifo "$T/fifo"
rc=0
"$B" --db "$T/s.db" import --engine x "$T/a.jsonl" "$T/fifo" >"$T/out" 2>"$T/err" &
pid=$!
# Opening the FIFO to write returns once import opened it to read, which it does
# after it read the first file: an event, not a fixed sleep that loses under load.
exec 3>"$T/fifo"
truncate -s 0 "$T/a.jsonl"
cat "$D/completion.json" >&3
exec 3>&-
wait "$pid" || rc=$?
[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "import of a file truncated meanwhile: exit $rc"; }
"$B" --db "$T/ref.db" import --engine x "$D/completion-reps.jsonl" "$D/completion.json" >/dev/null
want=$(sqlite3 "$T/ref.db" "SELECT count(*) FROM sample")
[ "$(sqlite3 "$T/s.db" "SELECT count(*) FROM sample")" = "$want" ] || fail "not every sample imported"

# 2. /dev/zero stops at the limit, holding no more than it.
if [ -x /usr/bin/time ]; then
	rc=0
	/usr/bin/time -f '%M' -o "$T/rss" "$B" --db "$T/z.db" import --engine x \
		--max-bytes 104857600 /dev/zero >"$T/out" 2>"$T/err" || rc=$?
	one_error "$rc" "/dev/zero"
	grep -q "too large" "$T/err" || fail "/dev/zero: $(cat "$T/err")"
	peak=$(tail -n1 "$T/rss")
	echo "import /dev/zero --max-bytes 100 MiB: peak ${peak} kB" >&2
	# AddressSanitizer's allocator keeps freed blocks and copies on realloc: the
	# bound is held by the plain build.
	if grep -qa __asan_init "$B"; then
		echo "t0830: a sanitized build: the peak is not checked" >&2
	else
		[ "$peak" -lt $((100 * 1024 + 20 * 1024)) ] ||
			fail "/dev/zero: peak ${peak} kB over a 100 MiB limit"
	fi
	[ ! -e "$T/z.db" ] || fail "/dev/zero: a store was created"
fi
rc=0; timeout 60 "$B" --db "$T/z.db" collect --engine a=/bin/true --model m=x \
	--prompts /dev/zero --dry-run >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" = 3 ] || fail "--prompts /dev/zero: exit $rc"
grep -q "too large" "$T/err" || fail "--prompts /dev/zero: $(cat "$T/err")"

# 3. A file-size limit is an error line, exit 3: on the store and on stdout. 40 KiB
# leaves room for the 32 KiB -shm, not for the writes.
for f in "$TPSDB_TEST_DATA"/analyze-cli/gate-*.jsonl; do
	"$B" --db "$T/f.db" import --engine "x-${f##*/}" "$f" >/dev/null
done
runs=$(sqlite3 "$T/f.db" "SELECT count(*) FROM run")
rc=0
(ulimit -f 40; exec "$B" --db "$T/f.db" import --engine y "$D/completion-reps.jsonl" \
	"$D/spec.jsonl") >"$T/out" 2>"$T/err" || rc=$?
one_error "$rc" "import under ulimit -f"
[ "$(sqlite3 "$T/f.db" "PRAGMA integrity_check")" = ok ] || fail "the store was damaged"
[ "$(sqlite3 "$T/f.db" "SELECT count(*) FROM run")" = "$runs" ] || fail "a partial import"
rc=0
(ulimit -f 40; exec "$B" --db "$T/f.db" export) >"$T/big.out" 2>"$T/err" || rc=$?
one_error "$rc" "export to stdout under ulimit -f"
grep -q "cannot write 'stdout': File too large" "$T/err" || fail "stdout: $(cat "$T/err")"
rc=0
(ulimit -f 40; exec "$B" --db "$T/f.db" export --out "$T/e.jsonl") >"$T/out" 2>"$T/err" || rc=$?
one_error "$rc" "export --out under ulimit -f"
[ ! -e "$T/e.jsonl" ] || fail "a cut export was left"

# 4. A NUL byte in a text input is refused, not cut at.
printf '## a\nhello\000world\n' >"$T/p.txt"
rc=0; "$B" --db "$T/f.db" collect --engine a=/bin/true --model m=x --prompts "$T/p.txt" \
	--dry-run >"$T/out" 2>"$T/err" || rc=$?
one_error "$rc" "NUL in --prompts"
grep -q "NUL byte at byte 11" "$T/err" || fail "NUL in --prompts: $(cat "$T/err")"
printf 'm | /m/x.gguf\000 | \n' >"$T/models.txt"
rc=0; "$B" --db "$T/f.db" collect --engine a=/bin/true --models "$T/models.txt" \
	--dry-run >"$T/out" 2>"$T/err" || rc=$?
one_error "$rc" "NUL in --models"
grep -q "NUL byte" "$T/err" || fail "NUL in --models: $(cat "$T/err")"
echo "t0830: ok"
