#!/usr/bin/env bash
# t0704: 'gate --junit' writes its file as 'export --out' does: a regular file is
# replaced only once complete (a full disk, here a 64 KiB file-size limit, exits 3
# and leaves the previous JUnit file whole), a symlink's target is written and the
# link stays, and a full device fails with exit 3 and stays a device.
. "${TPSDB_SRC:?}/tests/cli/outfile-lib.sh" || exit 1

big_store 80
"$TPSDB_BIN" baseline set up --engine llama.cpp >/dev/null || fail "baseline set"
j=$TMP/junit.xml
tps gate --baseline up --engine llama.cpp --junit "$j"
expect_rc 0 "gate"
[ "$(stat -c %s "$j")" -gt 65536 ] || fail "the JUnit file exceeds the limit"
cp "$j" "$TMP/want.xml"
echo '<previous/>' >"$j"

limited 64 "$TPSDB_BIN" gate --baseline up --engine llama.cpp --junit "$j"
expect_rc 3 "gate on a full disk"
grep -q "^tpsdb: error: cannot write '$j': File too large" "$TMP/err" ||
	fail "names the file and EFBIG: $(cat "$TMP/err")"
[ "$(cat "$j")" = '<previous/>' ] || fail "the previous JUnit file changed"
no_temps "$j"

ln -s want-target.xml "$TMP/link.xml"
tps gate --baseline up --engine llama.cpp --junit "$TMP/link.xml"
expect_rc 0 "gate through a symlink"
[ -L "$TMP/link.xml" ] || fail "the link was replaced"
cmp -s "$TMP/want.xml" "$TMP/want-target.xml" || fail "the link's target holds the JUnit"

dev=$(full_node)
tps gate --baseline up --engine llama.cpp --junit "$dev"
expect_rc 3 "gate to a full device"
grep -q "^tpsdb: error: cannot write '$dev': No space left on device" "$TMP/err" ||
	fail "names ENOSPC: $(cat "$TMP/err")"
[ -c "$dev" ] || fail "$dev is no longer a character device"
exit 0
