#!/usr/bin/env bash
# t1112-collect-signal-help.sh (issue 39): a signal is answered at once while an
# engine's --help hangs (read to spell a spec manifest in tpsdb's terms, before
# anything starts), even a --help that ignores SIGTERM: exit 3 with one line
# naming what was waited for, the --help's group killed, nothing stored, nothing
# cached. Before, the signal killed tpsdb outright (no handler was installed yet:
# exit 143, no line) and a --help that ignores SIGTERM ran on.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
. "$TPSDB_SRC/tests/cli/signal-lib.sh"
PORT=$(free_port) # every collect of this test starts its servers from here
export TPSDB_CACHE=$T/cache
cat >"$T/engine" <<SH
#!/bin/sh
if [ "\$1" = --help ]; then
	trap '' TERM
	echo \$\$ >>"$T/help.pids"
	exec sleep 3600
fi
exit 1
SH
chmod +x "$T/engine"
printf 'tiny | %s | spec=draft-simple drafter=%s | 2\n' "$MODEL" "$MODEL" >"$T/spec"
collect() { # [--dry-run]
	exec "$TPSDB_BIN" --db "$DB" collect --engine e="$T/engine" --spec-manifest "$T/spec" \
		--prompts "$PROMPTS" --port "$PORT" --out-dir "$OUT" "$@"
}
for dry in "" --dry-run; do
	term_when_hung "--help hangs${dry:+ ($dry)}" "$T/help.pids" collect $dry
	expect_eq "$rc" 3 "exit status $dry"
	expect_eq "$(cat "$T/stderr")" \
		"tpsdb: error: interrupted by signal 15 while reading '$T/engine --help'" \
		"the error $dry"
	[ ! -e "$DB" ] || fail "the store was made $dry"
	[ -z "$(ls -A "$T/cache/dialect" 2>/dev/null)" ] || fail "a help was cached $dry"
done
echo ok
