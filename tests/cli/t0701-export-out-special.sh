#!/usr/bin/env bash
# t0701: 'export --out' writes into what is at the path instead of replacing it:
# a character device is written directly (a full one fails with exit 3 and one
# error line, and stays a device), a symlink's target is written and the link
# stays a link, a FIFO is written through to its reader, and a regular file is
# replaced whole with no temporary file left beside it.
. "${TPSDB_SRC:?}/tests/cli/outfile-lib.sh" || exit 1

load study.jsonl
"$TPSDB_BIN" export >"$TMP/want.jsonl" || fail "export to stdout"
[ -s "$TMP/want.jsonl" ] || fail "an export"

for dev in "$(full_node)" /dev/full; do
	tps export --out "$dev"
	expect_rc 3 "export to a full device $dev"
	[ "$(grep -c '^tpsdb: error: ' "$TMP/err")" = 1 ] || fail "one error line: $(cat "$TMP/err")"
	grep -q "^tpsdb: error: cannot write '$dev': No space left on device" "$TMP/err" ||
		fail "names the device and ENOSPC: $(cat "$TMP/err")"
	[ -c "$dev" ] || fail "$dev is no longer a character device"
	no_temps "$dev"
done

# a symlink, relative, into another folder
mkdir "$TMP/d"
echo old >"$TMP/d/target.jsonl"
ln -s d/target.jsonl "$TMP/link.jsonl"
tps export --out "$TMP/link.jsonl"
expect_rc 0 "export to a symlink"
[ -L "$TMP/link.jsonl" ] || fail "the symlink was replaced"
[ "$(readlink "$TMP/link.jsonl")" = d/target.jsonl ] || fail "the link changed"
cmp -s "$TMP/want.jsonl" "$TMP/d/target.jsonl" || fail "the link's target holds the export"
no_temps "$TMP/link.jsonl"
no_temps "$TMP/d/target.jsonl"

# a dangling symlink: the file it names is made
ln -s made.jsonl "$TMP/dangling.jsonl"
tps export --out "$TMP/dangling.jsonl"
expect_rc 0 "export to a dangling symlink"
[ -L "$TMP/dangling.jsonl" ] && cmp -s "$TMP/want.jsonl" "$TMP/made.jsonl" ||
	fail "the dangling link's target was made"

# a FIFO, read by a background cat
mkfifo "$TMP/fifo"
cat "$TMP/fifo" >"$TMP/from-fifo" &
reader=$!
tps export --out "$TMP/fifo"
expect_rc 0 "export to a FIFO"
wait "$reader" || fail "the reader"
[ -p "$TMP/fifo" ] || fail "the FIFO was replaced"
cmp -s "$TMP/want.jsonl" "$TMP/from-fifo" || fail "the reader got the export"
no_temps "$TMP/fifo"

# a regular file: replaced whole, its mode kept
echo old >"$TMP/plain.jsonl"
chmod 640 "$TMP/plain.jsonl"
tps export --format jsonl --out "$TMP/plain.jsonl"
expect_rc 0 "export over a file"
cmp -s "$TMP/want.jsonl" "$TMP/plain.jsonl" || fail "the file holds the export"
[ "$(stat -c %a "$TMP/plain.jsonl")" = 640 ] || fail "the mode was kept"
no_temps "$TMP/plain.jsonl"

# a folder is refused and left alone
mkdir "$TMP/folder"
tps export --out "$TMP/folder"
expect_rc 3 "export to a folder"
grep -q "^tpsdb: error: cannot write '$TMP/folder': it is a folder" "$TMP/err" || fail "says folder"
[ -d "$TMP/folder" ] || fail "the folder stays"
exit 0
