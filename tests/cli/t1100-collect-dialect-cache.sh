#!/usr/bin/env bash
# t1100-collect-dialect-cache.sh (issue 39, item 1): the dialect cache is a cache.
# Each bad entry at $TPSDB_CACHE/dialect/<sha256>.help is built by hand before a
# collect --dry-run with a spec line in tpsdb's terms: a FIFO, a link to a FIFO, a
# folder, a device (where mknod is allowed), random bytes, an empty file, half an
# entry, a leading NUL, another binary's header. None hangs (timeout guards each run; before, a FIFO hung for
# ever), none blames the engine (before, every later collect exited 2 "cannot spell
# ..., its --help lists no option"): the binary is asked again, the spelling is
# right, one warning names the entry's path and what is wrong with it, and the
# entry is replaced by a whole one under its header (a folder is left alone).
# An older tpsdb's headerless text is replaced quietly. A real collect (not
# --dry-run) with a FIFO entry measures its runs.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
PORT=$(free_port) # every collect of this test starts its servers from here

export TPSDB_CACHE=$T/cache
help=$TPSDB_SRC/tests/data/dialect/llama-server-b8390.help
# The stand-in engine: --help is b8390's text; otherwise the fault server (it
# ignores the draft flags it does not know).
printf '#!/bin/sh\n[ "$1" = --help ] && exec cat "%s"\nexec "%s" "$@"\n' "$help" "$FS" >"$T/e"
chmod +x "$T/e"
sha=$(sha256sum "$T/e" | cut -c1-64)
entry=$T/cache/dialect/$sha.help
header="tpsdb-dialect-cache 2 binary-sha256=$sha binary-bytes=$(stat -c %s "$T/e") help-bytes=$(stat -c %s "$help")"
D=$T/draft.gguf
printf 'not really a gguf either\n' >"$D"
printf 'tiny | %s | drafter=%s | 2\n' "$MODEL" "$D" >"$T/spec"
want_line="--host 127.0.0.1 --port 18080 -m $MODEL -c 4096 -ngl 99 -md $D --draft-max 2"

# dry: collect --dry-run under a guard (a hang is rc 124).
dry() {
	rc=0
	timeout 60 "$TPSDB_BIN" --db "$DB" collect --engine e="$T/e" --spec-manifest "$T/spec" \
		--dry-run >"$T/stdout" 2>"$T/stderr" || rc=$?
}
# expect_spelled <what>: b8390's spelling, and a whole entry under its header.
expect_spelled() {
	expect_eq "$rc" 0 "$1: exit ($(cat "$T/stderr"))"
	expect_match "$(sed -n 2p "$T/stdout")" "$want_line\$" "$1: the spelled line"
	[ -f "$entry" ] && [ ! -L "$entry" ] || fail "$1: the entry is not a regular file"
	expect_eq "$(head -n 1 "$entry")" "$header" "$1: the entry's header"
	tail -n +2 "$entry" | cmp -s - "$help" || fail "$1: the entry holds b8390's help"
}
# expect_warned <what> <why>: one warning line naming the entry and why.
expect_warned() {
	expect_eq "$(cat "$T/stderr")" \
		"tpsdb: warning: dialect cache '$entry' is not used, '$T/e --help' is asked again: $2" \
		"$1: the warning"
}

dry
expect_spelled "the first run"
expect_eq "$(cat "$T/stderr")" "" "the first run's stderr"
good=$T/good.help
cp "$entry" "$good"

# Each damaged entry: name, how it is built, the warning's cause.
bad() {
	rm -rf "$entry"
	eval "$2"
	dry
	expect_spelled "$1"
	expect_warned "$1" "$3"
}
bad fifo 'mkfifo "$entry"' "a FIFO, not a regular file"
mkfifo "$T/fifo"
bad "a link to a FIFO" 'ln -s "$T/fifo" "$entry"' "a symbolic link"
bad "a link to the good entry" 'ln -s "$good" "$entry"' "a symbolic link"
bad "random bytes" 'head -c 3000 /dev/urandom | tr -d "\\n" >"$entry"' \
	"no tpsdb header, and not a --help that reads"
bad empty ': >"$entry"' "empty"
bad "half the entry" 'head -c $(($(stat -c %s "$good") / 2)) "$good" >"$entry"' \
	"cut or grown: $(($(stat -c %s "$good") / 2 - ${#header} - 1)) bytes of help where its header says $(stat -c %s "$help")"
bad "a leading NUL" '{ printf "\\0"; cat "$good"; } >"$entry"' \
	"no tpsdb header, and not a --help that reads"
bad "a NUL inside" '{ head -n 1 "$good"; printf "\\0"; tail -n +2 "$good" | tail -c +2; } >"$entry"' \
	"a NUL byte at byte 1"
other=$(printf '%064d' 0)
bad "another binary's header" 'sed "1s/$sha/$other/" "$good" >"$entry"' \
	"its header is not of this binary (sha256 $sha, $(stat -c %s "$T/e") bytes)"
bad "a damaged header" 'printf "tpsdb-dialect-cache 2 binary-sha" >"$entry"' "a damaged header"

# A folder there cannot be replaced: asked again, and warned, every time.
rm -f "$entry"
mkdir "$entry"
for i in 1 2; do
	dry
	expect_eq "$rc" 0 "a folder, run $i: exit"
	expect_match "$(sed -n 2p "$T/stdout")" "$want_line\$" "a folder, run $i: the spelled line"
	expect_warned "a folder, run $i" "a directory, not a regular file"
	[ -d "$entry" ] || fail "the folder was removed"
done
rmdir "$entry"

# A device (where this user may make one: /dev/zero's numbers) is not read either.
if mknod "$entry" c 1 5 2>/dev/null; then
	dry
	expect_spelled "a device"
	expect_warned "a device" "a character device, not a regular file"
else
	echo "# no device: mknod is not allowed here" >&2
fi

# tpsdb before format 2 kept the bare text: it is replaced, quietly.
cp "$help" "$entry"
dry
expect_spelled "an older tpsdb's entry"
expect_eq "$(cat "$T/stderr")" "" "an older tpsdb's entry: stderr"

# The cache is read from: v0.4.0's text under this binary's header spells v0.4.0.
v040=$TPSDB_SRC/tests/data/dialect/llama-server-v0.4.0.help
{ sed "1s/help-bytes=.*/help-bytes=$(stat -c %s "$v040")/" "$good" | head -n 1; cat "$v040"; } >"$entry"
dry
expect_eq "$rc" 0 "a whole entry: exit"
expect_match "$(sed -n 2p "$T/stdout")" "--spec-type draft-simple -md $D --spec-draft-n-max 2\$" \
	"a whole entry is read"
expect_eq "$(cat "$T/stderr")" "" "a whole entry: stderr"

# Not only --dry-run: a collect with a FIFO entry measures.
rm -f "$entry"
mkfifo "$entry"
rc=0
timeout 120 "$TPSDB_BIN" --db "$DB" collect --engine e="$T/e" --spec-manifest "$T/spec" \
	--prompts "$PROMPTS" --reps 1 --warmup 0 --n-predict 8 --port "$PORT" --out-dir "$OUT" \
	--quiet >"$T/stdout" 2>"$T/stderr" || rc=$?
expect_eq "$rc" 0 "collect with a FIFO entry: exit ($(cat "$T/stderr"))"
expect_no_orphans
expect_eq "$(q "SELECT count(*) FROM run WHERE status = 'complete'")" 2 "runs measured"
expect_eq "$(q "SELECT group_concat(coalesce(nullif(spec_type, ''), '-'), ',') FROM (SELECT spec_type FROM run ORDER BY id)")" \
	"-,draft-simple" "the base and the speculative run"
[ -f "$entry" ] || fail "the FIFO was not replaced"
echo ok
