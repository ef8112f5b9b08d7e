#!/usr/bin/env bash
# t0705: 'plot --out' writes its figure as 'export --out' does: gnuplot draws into
# a private folder and the figure is handed over only when drawn. A FIFO gets the
# PNG through (a reader sees it), a symlink's target is written and the link
# stays, a full device (through a symlink) fails with exit 3 and stays a device, and a figure that
# cannot be drawn under a file-size limit leaves the previous figure whole.
. "${TPSDB_SRC:?}/tests/cli/outfile-lib.sh" || exit 1
need_gnuplot

load study.jsonl
tps plot sweep --out "$TMP/want.png"
expect_rc 0 "plot"

mkfifo "$TMP/fifo.png"
cat "$TMP/fifo.png" >"$TMP/from-fifo" &
reader=$!
tps plot sweep --out "$TMP/fifo.png"
expect_rc 0 "plot to a FIFO"
wait "$reader" || fail "the reader"
[ -p "$TMP/fifo.png" ] || fail "the FIFO was replaced"
cmp -s "$TMP/want.png" "$TMP/from-fifo" || fail "the reader got the figure"

ln -s target.png "$TMP/link.png"
tps plot sweep --out "$TMP/link.png"
expect_rc 0 "plot through a symlink"
[ -L "$TMP/link.png" ] && cmp -s "$TMP/want.png" "$TMP/target.png" || fail "the link's target"

# plot wants a .png name: a symlink to the device gives it one
dev=$(full_node)
ln -s "$dev" "$TMP/full.png"
tps plot sweep --out "$TMP/full.png"
expect_rc 3 "plot to a full device"
grep -q "^tpsdb: error: cannot write '$TMP/full.png': No space left on device" "$TMP/err" ||
	fail "names ENOSPC: $(cat "$TMP/err")"
[ -c "$dev" ] && [ -L "$TMP/full.png" ] || fail "$dev is no longer a character device"

[ "$(stat -c %s "$TMP/want.png")" -gt 40960 ] || fail "the figure exceeds the limit"
cp "$TMP/want.png" "$TMP/prev.png"
limited 40 "$TPSDB_BIN" plot sweep --out "$TMP/prev.png"
expect_rc 3 "plot on a full disk"
cmp -s "$TMP/want.png" "$TMP/prev.png" || fail "the previous figure changed"
no_temps "$TMP/prev.png"
exit 0
