#!/usr/bin/env bash
# t1300-cmd-option-table.sh: options store themselves (cmd/opts.h). A value out of
# its row's range or of the wrong form is refused by the table, whatever the
# command: one error line naming the option and the value, the --help hint, exit 2,
# nothing on stdout and no store made. A good value is stored where its row says
# (collect --dry-run shows --port and --ctx). And t0001's rule that no command
# stores optarg by hand fails on a tree where one does.
set -u
: "${TPSDB_BIN:?}" "${TPSDB_SRC:?}"
T=$(mktemp -d "${TMPDIR:-/tmp}/tpsdb-t1300.XXXXXX")
trap 'rm -rf "$T"' EXIT
export TPSDB_DB="$T/store.db"
fail=0
bad() { echo "t1300: $*" >&2; fail=1; }

# One refusal: the exact error line, then the hint, and nothing else.
refused() { # <error line> <args...>
	local want=$1 rc
	shift
	"$TPSDB_BIN" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 2 ] || bad "'$*': exit $rc, not 2"
	[ ! -s "$T/out" ] || bad "'$*': wrote stdout"
	[ "$(grep -c '^tpsdb: error: ' "$T/err")" -eq 1 ] || bad "'$*': not one error line"
	[ "$(head -n 1 "$T/err")" = "tpsdb: error: $want" ] ||
		bad "'$*': said '$(head -n 1 "$T/err")', not '$want'"
	[ "$(sed -n 2p "$T/err")" = "see 'tpsdb $1 --help'" ] || bad "'$*': no --help hint"
	[ "$(wc -l <"$T/err")" -eq 2 ] || bad "'$*': more than two lines on stderr"
}

# count: below, above, not a number; into an int (--port) and an int64_t.
refused "--port needs a whole number from 1 to 65535, not '0'" collect --port 0
refused "--port needs a whole number from 1 to 65535, not '65536'" collect --port 65536
refused "--n-max needs a whole number from 1 to 4096, not '2x'" collect --n-max 2x
refused "--limit needs a whole number >= 1, not '0'" runs --limit 0
refused "--max-rounds needs a whole number from 2 to 100, not '101'" plan --engine a --max-rounds 101
refused "--min-segment needs a whole number from 2 to 1000000, not '1000001'" trend --min-segment 1000001
refused "--max-bytes needs a whole number from 1 to 1073741824, not '1073741825'" import --max-bytes 1073741825 x
# seconds: zero, too many, not a number.
refused "--load-timeout needs a positive number of seconds, not '0'" collect --load-timeout 0
refused "--request-timeout needs a positive number of seconds, not '1e7'" collect --request-timeout 1e7
refused "--wait-quiet needs a number of seconds from 0 to 86400, not 'nan'" collect --wait-quiet nan
# percent and the other number ranges, an open end included.
refused "--band needs a number >= 0, not '-1'" compare --ours a --vs b --band -1
refused "--tolerance needs a number >= 0, not 'x'" sweep --tolerance x
refused "--band needs a percentage above 0 and at most 100, not '0'" plan --engine a --band 0
refused "--power needs a chance above 0 and below 1, not '1'" plan --engine a --power 1
refused "--pvalue needs a number in (0, 1], not '0'" trend --pvalue 0
# choice and word: the names listed as the table holds them.
refused "--format is text, json, md or csv, not 'pdf'" runs --format pdf
refused "--format is jsonl or csv, not 'xml'" export --format xml
refused "--metric is pp, tg or both, not 'speed'" compare --ours a --vs b --metric speed
refused "--question is regression or parity, not 'maybe'" collect --question maybe
refused "--role is ours, upstream or other, not 'boss'" import --role boss x
# a label list, a non-empty string, a date.
refused "--tag needs a name or a comma list of names, not 'a,,b'" runs --tag a,,b
refused "--ours needs a label" plan --ours '' --vs b
refused "--since needs an ISO 8601 date or date-time (2025-06-01, 2025-06-01T12:00:00Z), not 'May'" runs --since May
[ ! -e "$TPSDB_DB" ] || bad "a refused option made the store"

# Stored where the row says: --port (an int) and --ctx (an int64_t) reach the plan.
: >"$T/m.gguf"
"$TPSDB_BIN" collect --engine a=/bin/true --model "m=$T/m.gguf" --port 9123 --ctx 2048 \
	--dry-run >"$T/out" 2>"$T/err" || bad "collect --dry-run failed: $(cat "$T/err")"
grep -q -- '--port 9123 .* -c 2048 ' "$T/out" || bad "--port and --ctx not in the plan: $(cat "$T/out")"

# t0001 catches a command that stores, parses or switches on optarg by hand.
mkdir "$T/src"
(cd "$TPSDB_SRC" && cp -r ./*.c ./*.h cmd collect schema analyze reports docs "$T/src/")
TPSDB_SRC=$T/src bash "$TPSDB_SRC/tests/cli/t0001-layers.sh" >/dev/null 2>&1 ||
	bad "t0001 fails on an untouched copy of the tree"
inject() { # <what t0001 must say> <C text added to cmd/cmd_runs.c>
	cp "$TPSDB_SRC/cmd/cmd_runs.c" "$T/src/cmd/cmd_runs.c"
	printf '%s\n' "$2" >>"$T/src/cmd/cmd_runs.c"
	TPSDB_SRC=$T/src bash "$TPSDB_SRC/tests/cli/t0001-layers.sh" >/dev/null 2>"$T/lerr" &&
		bad "t0001 passes a tree with: $2"
	grep -qF "$1" "$T/lerr" || bad "t0001 does not say '$1' for: $2"
}
inject "stores optarg by hand" 'static void f(int c) { switch (c) { case OPT_X: x =
	optarg; break; } }'
inject "stores optarg by hand" 'static void f(void) { o->label = (const char *) optarg; }'
inject "parses or copies optarg by hand" 'static void f(void) { tps_parse_i64(optarg, &n); }'
inject "parses or copies optarg by hand" 'static int f(void) { return !strcmp(optarg, "pp"); }'
inject "'case OPT_LIMIT' is not a callback row's" 'static void f(int c) { switch (c) { case OPT_LIMIT: g(optarg); } }'
inject "declares its own getopt table" 'static const struct option o[] = { { "x", required_argument, NULL, 1 } };'
cp "$TPSDB_SRC/cmd/cmd_runs.c" "$T/src/cmd/cmd_runs.c"
printf '%s\n' '/* a comment may say x = optarg */' >>"$T/src/cmd/cmd_runs.c"
TPSDB_SRC=$T/src bash "$TPSDB_SRC/tests/cli/t0001-layers.sh" >/dev/null 2>&1 ||
	bad "t0001 refuses a comment that names optarg"

exit "$fail"
