#!/usr/bin/env bash
# t0252-errors-help.sh: errors that help. A name that matches nothing (engine, model,
# tag, baseline) is exit 3 with one line listing the known ones, closest first;
# --vs equal to --ours is a usage error; a mistyped command gets "did you mean"; a
# usage error is one line plus "see 'tpsdb <cmd> --help'"; import --help names
# every format it reads.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"
D=$TPSDB_TEST_DATA/llama-bench-versions
"$TPSDB_BIN" import --engine llama.cpp --tag v1 "$D/new-r1.json" >/dev/null
"$TPSDB_BIN" import --engine ours --tag v2 "$D/old-r1.json" >/dev/null
"$TPSDB_BIN" import --engine ollama --tag v3 "$D/old-r2.json" >/dev/null
"$TPSDB_BIN" baseline set rel-1 --engine ours >/dev/null

# one_error <exit> <line>: exactly that one line on stderr, nothing on stdout.
one_error() {
	expect_rc "$1" "$2"
	[ "$(wc -l <"$TMP/err")" = 1 ] || { cat "$TMP/err" >&2; fail "one line: $2"; }
	grep -qxF "$2" "$TMP/err" || { cat "$TMP/err" >&2; fail "message: $2"; }
	[ ! -s "$TMP/out" ] || fail "stdout: $2"
}
tps runs --engine llama.cp
one_error 3 "tpsdb: error: --engine 'llama.cp': no engine of that name in the store (known, closest first: llama.cpp, ollama, ours)"
tps trend --engine ourz
one_error 3 "tpsdb: error: --engine 'ourz': no engine of that name in the store (known, closest first: ours, ollama, llama.cpp)"
tps runs --model tinny
one_error 3 "tpsdb: error: --model 'tinny': no model of that name in the store (known, closest first: tiny)"
tps export --tag v4
one_error 3 "tpsdb: error: --tag 'v4': no tag of that name in the store (known, closest first: v1, v2, v3)"
tps compare --ours ours --vs llama.cp
one_error 3 "tpsdb: error: --vs 'llama.cp': no engine of that name in the store (known, closest first: llama.cpp, ollama, ours)"
tps gate --baseline rel1 --engine ours
one_error 3 "tpsdb: error: --baseline 'rel1': no baseline of that name in the store (known, closest first: rel-1)"
tps gate --baseline rel-1 --engine our
one_error 3 "tpsdb: error: --engine 'our': no engine of that name in the store (known, closest first: ours, ollama, llama.cpp)"
tps sweep --engine our
one_error 3 "tpsdb: error: --engine 'our': no engine of that name in the store (known, closest first: ours, ollama, llama.cpp)"
tps baseline show rel
one_error 3 "tpsdb: error: baseline 'rel': no baseline of that name in the store (known, closest first: rel-1)"
tps plot trend --model tin --out "$TMP/x.png"
one_error 3 "tpsdb: error: --model 'tin': no model of that name in the store (known, closest first: tiny)"
tps report --engine olama
one_error 3 "tpsdb: error: --engine 'olama': no engine of that name in the store (known, closest first: ollama, ours, llama.cpp)"

# --vs equal to --ours (same runs): usage; with two tags it is an A/A pair.
tps compare --ours ours --vs ours
expect_rc 2 "--vs == --ours"
grep -q "^tpsdb: error: --ours and --vs are both 'ours': the same runs compared with themselves" "$TMP/err" ||
	fail "--vs == --ours message"
sed -n 2p "$TMP/err" | grep -qx "see 'tpsdb compare --help'" || fail "--vs == --ours hint"

# A mistyped command: did you mean; a word far from every command: no guess.
tps comapre --ours a --vs b
expect_rc 2 "comapre"
[ "$(cat "$TMP/err")" = "tpsdb: error: unknown command 'comapre'; did you mean 'compare'?
see 'tpsdb --help'" ] || { cat "$TMP/err" >&2; fail "did you mean"; }
tps xyzzy
expect_rc 2 "xyzzy"
head -n 1 "$TMP/err" | grep -qx "tpsdb: error: unknown command 'xyzzy'" || fail "no guess"

# A usage error: one error line and the hint, whatever the command.
for args in "runs --bogus" "compare --ours a" "gate --engine x" "import --role boss x.json" \
	"sweep --tolerance -5" "report --format pdf" "collect --bogus"; do
	# shellcheck disable=SC2086
	tps $args
	expect_rc 2 "$args"
	cmd=${args%% *}
	[ "$(wc -l <"$TMP/err")" = 2 ] || { cat "$TMP/err" >&2; fail "$args: two lines"; }
	sed -n 2p "$TMP/err" | grep -qx "see 'tpsdb $cmd --help'" || fail "$args: hint"
done

# import --help names every format it reads.
tps import --help
for f in "/completion" "/v1/chat/completions" "-o json" "-o jsonl" "-o csv" "-o sql" "-o md" "tpsdb export"; do
	grep -qF -- "$f" "$TMP/out" || fail "import --help names $f"
done
exit 0
