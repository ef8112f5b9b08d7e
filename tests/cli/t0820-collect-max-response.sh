#!/usr/bin/env bash
# t0820-collect-max-response.sh: a server whose answer never ends costs the
# collector at most the response cap: each such request is cut off at
# TPSDB_MAX_RESPONSE_MB (default 64) MiB and stored as a failed sample that says
# why, well before the request timeout; peak memory stays near the cap.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)
[ -x /usr/bin/time ] || skip "GNU time (/usr/bin/time) is needed to measure memory"

measure() { # cap in MiB ("" for the default); sets rc, peak_kb, secs
	rm -f "$DB"*
	local t0=$SECONDS
	rc=0
	TPSDB_MAX_RESPONSE_MB=$1 /usr/bin/time -f '%M' -o "$T/rss" "$TPSDB_BIN" --db "$DB" collect \
		--engine e="$FS" --engine-args e="--fault endless" --model m="$MODEL" \
		--prompts "$PROMPTS" --reps 1 --warmup 0 --request-timeout 120 --port "$port" \
		--out-dir "$OUT" >"$T/stdout" 2>"$T/stderr" || rc=$?
	peak_kb=$(tail -n1 "$T/rss")
	secs=$((SECONDS - t0))
	expect_no_orphans
}

# AddressSanitizer's allocator keeps freed blocks: the bounds hold for the plain build.
asan=0
grep -qa __asan_init "$TPSDB_BIN" && asan=1 && echo "t0820: a sanitized build: peaks not checked" >&2

measure 4
[ "$rc" != 0 ] || fail "every request failed, yet exit 0"
expect_eq "$(q "SELECT count(*) FROM sample")" 2 "both prompts recorded"
expect_eq "$(q "SELECT count(*) FROM sample WHERE flags & 8 AND error LIKE
	'%response body is larger than 4 MiB (TPSDB_MAX_RESPONSE_MB)%'")" 2 "failed samples say why"
[ "$secs" -lt 60 ] || fail "the cap did not cut the endless answers short (${secs} s)"
[ "$asan" = 1 ] || [ "$peak_kb" -lt $((80 * 1024)) ] || fail "peak memory ${peak_kb} kB with a 4 MiB cap"
echo "cap 4 MiB: peak ${peak_kb} kB, ${secs} s" >&2

# The default cap, 64 MiB, holds too.
measure ""
expect_eq "$(q "SELECT count(*) FROM sample WHERE flags & 8 AND error LIKE
	'%larger than 64 MiB%'")" 2 "the default cap"
[ "$asan" = 1 ] || [ "$peak_kb" -lt $((200 * 1024)) ] || fail "peak memory ${peak_kb} kB with the default cap"
echo "cap 64 MiB: peak ${peak_kb} kB, ${secs} s" >&2
echo ok
