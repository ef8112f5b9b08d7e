#!/usr/bin/env bash
# t0702: an 'export --out' killed by SIGTERM, SIGINT or SIGHUP in the middle of
# writing leaves no '<out>.tmp.*' behind, dies of that signal, and leaves at
# --out either the previous file as it was or (a signal that lands while the
# finished file is being renamed into place waits for the rename) the whole
# export, never part of one.
. "${TPSDB_SRC:?}/tests/cli/outfile-lib.sh" || exit 1
# A script's background jobs start with SIGINT ignored, and a shell cannot undo
# that; python3 puts the default back before it becomes the export. (Job control,
# set -m, would do it too, but then 'wait' also returns when the job stops.)
dfl_int() { exec python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' "$@"; }

big_store 60
out=$TMP/out.jsonl
"$TPSDB_BIN" export >"$TMP/want.jsonl" || fail "export to stdout"
echo previous >"$out"

# reap <pid>: its exit status in $st.
reap() {
	st=0
	wait "$1" || st=$?
}

# kill_mid <signal>: starts an export, stops it while its temporary file exists,
# sends <signal> and lets it go on. Retries when the export was too quick.
kill_mid() {
	local sig=$1 try pid st
	for try in $(seq 20); do
		dfl_int "$TPSDB_BIN" export --out "$out" 2>"$TMP/kill-err" &
		pid=$!
		while kill -0 "$pid" 2>/dev/null && ! compgen -G "$out.tmp.*" >/dev/null; do
			:
		done
		kill -STOP "$pid" 2>/dev/null
		if compgen -G "$out.tmp.*" >/dev/null; then
			kill "-$sig" "$pid"
			kill -CONT "$pid"
			reap "$pid"
			[ "$st" = $((128 + $(kill -l "$sig"))) ] ||
				fail "SIG$sig: exit $st: $(cat "$TMP/kill-err")"
			return 0
		fi
		kill -CONT "$pid" 2>/dev/null
		reap "$pid"
		[ "$st" = 0 ] || fail "SIG$sig: an export without a signal: exit $st: $(cat "$TMP/kill-err")"
		echo previous >"$out"
	done
	fail "SIG$sig: the export was never caught while writing"
}

for sig in TERM INT HUP; do
	kill_mid "$sig"
	no_temps "$out"
	[ "$(cat "$out")" = previous ] || cmp -s "$out" "$TMP/want.jsonl" ||
		fail "SIG$sig: --out holds part of an export"
	echo previous >"$out"
done

# Without a signal the same export completes and replaces the file.
tps export --out "$out"
expect_rc 0 "export"
cmp -s "$out" "$TMP/want.jsonl" && [ "$(wc -l <"$out")" = 780 ] || fail "780 runs exported"
no_temps "$out"
exit 0
