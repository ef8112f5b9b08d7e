#!/usr/bin/env bash
# t1101-collect-dialect-help-why.sh (issue 39, item 2): why an engine's --help
# could not be read reaches the user's error line. Stand-in engines whose --help
# sleeps past the deadline (TPSDB_HELP_TIMEOUT=1), ignores SIGTERM as well, floods
# (and one that goes on after the file-size limit), exits 1 after an option line,
# dies of a signal, prints a NUL before the options that matter, or a line of
# 70000 bytes. A spec line in tpsdb's terms needs the dialect: collect --dry-run
# and collect exit 3 with one line "<manifest>:1: engine 'e': cannot read its
# --help (<why>): <binary>" (before, each exited 2 "cannot spell spec=..., its
# --help lists no option", the cause lost; the NUL hid the options after it),
# nothing cached, no store, no out dir, no hang (timeout guards each run). A raw
# line runs on with n_max spelled as before dialects, after a warning giving the
# same cause. A --help that lists no option is still "lists no option", exit 2.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
PORT=$(free_port) # every collect of this test starts its servers from here

export TPSDB_CACHE=$T/cache
D=$T/draft.gguf
printf 'not really a gguf either\n' >"$D"
printf 'tiny | %s | drafter=%s | 2\n' "$MODEL" "$D" >"$T/terms"
printf 'tiny | %s | -md %s | 2\n' "$MODEL" "$D" >"$T/raw"

# engine <body>: the stand-in engine $T/e, a shell script.
engine() {
	printf '#!/bin/sh\n%s\n' "$1" >"$T/e"
	chmod +x "$T/e"
}
# guarded <args>: collect under a guard (a hang is rc 124).
guarded() {
	rc=0
	timeout 60 "$TPSDB_BIN" --db "$DB" collect --engine e="$T/e" "$@" >"$T/stdout" \
		2>"$T/stderr" || rc=$?
}
# why <what> <body> <cause> [<deadline>]: the deadline is short only where it is
# what is tested (a minute otherwise, so a loaded machine never turns a cause into
# a timeout).
why() {
	engine "$2"
	export TPSDB_HELP_TIMEOUT=${4:-60}
	for dry in --dry-run ""; do
		guarded --spec-manifest "$T/terms" --prompts "$PROMPTS" --out-dir "$OUT" \
			--port "$PORT" $dry
		expect_eq "$rc" 3 "$1 $dry: exit"
		expect_eq "$(cat "$T/stderr")" \
			"tpsdb: error: $T/terms:1: engine 'e': cannot read its --help ($3): $T/e" \
			"$1 $dry: the error line"
		expect_eq "$(cat "$T/stdout")" "" "$1 $dry: stdout"
		[ ! -e "$DB" ] || fail "$1 $dry: the store was made"
		[ ! -e "$OUT" ] || fail "$1 $dry: the out dir was made"
		[ -z "$(ls -A "$T/cache/dialect" 2>/dev/null)" ] || fail "$1 $dry: cached"
	done
	# A raw line: warned with the same cause, spelled as before dialects.
	guarded --spec-manifest "$T/raw" --dry-run
	expect_eq "$rc" 0 "$1, raw line: exit"
	expect_eq "$(cat "$T/stderr")" \
		"tpsdb: warning: engine 'e': cannot read its --help ($3): $T/e; n_max is spelled --spec-draft-n-max" \
		"$1, raw line: the warning"
	expect_match "$(sed -n 2p "$T/stdout")" " -md $D --spec-draft-n-max 2\$" "$1, raw line"
}
opts="printf -- '-md, --model-draft FNAME  draft model\\n--draft-max N  most drafted\\n'"
why "a help that hangs" 'exec sleep 30' "timed out after 1 s" 1
why "a help that ignores SIGTERM" "trap '' TERM
sleep 30" "timed out after 1 s" 1
why "a flood" "exec yes -- '--draft-max N  most drafted'" "printed more than 4 MiB"
why "a flood that never ends" "trap '' XFSZ
s=\$(head -c 1048576 /dev/zero | tr '\\000' x)
while :; do echo \"\$s\"; done 2>/dev/null" "printed more than 4 MiB" 3
why "exit 1" "$opts
exit 1" "exited with status 1"
why "a signal" 'kill -SEGV $$' "killed by signal 11"
why "a NUL" "printf -- '-h, --help  help\\n\\000'
$opts" "a NUL byte at byte 18"
why "a long line" "$opts
head -c 70000 /dev/zero | tr '\\000' x" "line 3 is longer than 65536 bytes"

# Without the NUL, the same help spells: the options after it were the ones needed.
engine "$opts"
guarded --spec-manifest "$T/terms" --dry-run
expect_eq "$rc" 0 "the help without its NUL: exit ($(cat "$T/stderr"))"
expect_match "$(sed -n 2p "$T/stdout")" " -md $D --draft-max 2\$" "the help without its NUL"
rm -rf "$T/cache"

# A help that lists no option: the dialect is unknown, as before.
engine "echo 'usage: e [-h]'"
guarded --spec-manifest "$T/terms" --dry-run
expect_eq "$rc" 2 "no option: exit"
expect_eq "$(cat "$T/stderr")" \
	"tpsdb: error: $T/terms:1: engine 'e': cannot spell spec=draft-simple, its --help lists no option" \
	"no option: the error line"

# TPSDB_HELP_TIMEOUT is a whole number of seconds from 1 to 3600.
for v in 0 3601 1.5 abc 10s; do
	rc=0
	TPSDB_HELP_TIMEOUT=$v "$TPSDB_BIN" --db "$DB" collect --engine e="$T/e" \
		--spec-manifest "$T/terms" --dry-run >"$T/stdout" 2>"$T/stderr" || rc=$?
	expect_eq "$rc" 2 "TPSDB_HELP_TIMEOUT=$v: exit"
	expect_eq "$(cat "$T/stderr")" \
		"tpsdb: error: TPSDB_HELP_TIMEOUT must be a whole number of seconds from 1 to 3600, not '$v'" \
		"TPSDB_HELP_TIMEOUT=$v"
done
echo ok
