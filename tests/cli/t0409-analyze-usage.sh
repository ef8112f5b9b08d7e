#!/usr/bin/env bash
# t0409: compare, sweep, baseline and gate follow the command conventions: --help on
# stdout with exit 0, a usage error as one error line plus "see 'tpsdb <cmd> --help'" on stderr with
# exit 2, before the store is touched.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"

for c in compare sweep baseline gate; do
	tps "$c" --help
	expect_rc 0 "$c --help"
	grep -q "^usage: tpsdb $c" "$TMP/out" || fail "$c --help prints its usage"
	grep -q '^Exit codes:' "$TMP/out" || fail "$c --help lists the exit codes"
	[ ! -s "$TMP/err" ] || fail "$c --help is quiet on stderr"
done

while IFS='|' read -r args what; do
	# shellcheck disable=SC2086
	tps $args
	expect_rc 2 "$what"
	grep -q '^tpsdb: error: ' "$TMP/err" || fail "$what: error line"
	grep -qx "see 'tpsdb [a-z]* --help'" "$TMP/err" || fail "$what: the --help hint"
done <<'CASES'
compare --vs llama.cpp|compare without --ours
compare --ours a --vs b --metric speed|compare --metric speed
compare --ours a --vs b --band -1|compare --band -1
compare --ours a --vs b --noise-k x|compare --noise-k x
compare --ours a --vs b --frob|compare unknown option
compare --ours a --vs b extra|compare stray argument
sweep --tolerance -5|sweep --tolerance -5
sweep --engine|sweep --engine without a value
gate --engine ours|gate without --baseline
gate --baseline b --engine e --max-regress tg=-1|gate negative threshold
gate --baseline b --engine e --max-regress speed=3|gate unknown metric threshold
gate --baseline b --engine e --metric speed|gate --metric speed
baseline set|baseline set without a name
baseline rm a b|baseline rm two names
baseline list --engine x|baseline list --engine
CASES
[ ! -e "$TPSDB_DB" ] || fail "a usage error created the store"
exit 0
