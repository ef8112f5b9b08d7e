#!/usr/bin/env bash
# t0001-layers.sh: the house plan of docs/ARCHITECTURE.md, checked on the source tree.
# Commands live in cmd/ only; SQLite is reached from schema/ only; analyze/ does no
# I/O; reports/ never touches the store; every #include points down a layer (or stays
# in its folder); no folder holds more than 30% of the code.
set -eu
: "${TPSDB_SRC:?TPSDB_SRC must name the source tree}"
cd "$TPSDB_SRC"
fail=0
bad() { echo "layers: $*" >&2; fail=1; }

# 1. Every command is cmd/cmd_<name>.c, and nothing named cmd_*.c lives elsewhere.
stray=$(find collect schema analyze reports . -maxdepth 1 -name 'cmd_*.c' 2>/dev/null | sort -u)
[ -z "$stray" ] || bad "commands outside cmd/: $stray"
n=$(ls cmd/cmd_*.c | wc -l)
[ "$n" -eq 17 ] || bad "cmd/ holds $n cmd_*.c, expected 17"

# 1b. Options store themselves (cmd/opts.h): a command declares rows, no getopt
# array of its own; nothing in cmd/ but opts.c assigns, copies or parses optarg by
# hand, however the statement is spread over lines or commented; and a case of an
# option's value is a callback row's (OPT_CALLBACK(..., OPT_X) in the same file):
# the options that do more than store.
for f in cmd/*.c cmd/*.h; do
	[ "$f" = cmd/opts.c ] && continue
	flat=$(perl -0pe 's{/\*.*?\*/}{ }gs; s{//[^\n]*}{}g; s{\s+}{ }g' "$f")
	! echo "$flat" | grep -qE '\b(no|required|optional)_argument\b' ||
		bad "$f declares its own getopt table"
	! echo "$flat" | grep -qE '([^=!<>]=|\breturn) *(\([^()]*\) *)?optarg\b' ||
		bad "$f stores optarg by hand"
	! echo "$flat" | grep -qE '\b(str[a-z]*cmp|strn?cpy|strn?dup|tps_x?strn?dup|mem(cpy|move)|tps_parse_[a-z0-9_]+|strto[a-z]+|ato[a-z]+|sscanf|[a-z_]*_add|[a-z_]*_set) *\(([^;()]*,)? *optarg *[,)]' ||
		bad "$f parses or copies optarg by hand"
	for v in $(echo "$flat" | grep -oE '\bcase (OPT|FILTER_OPT)_[A-Z0-9_]+' | sed 's/^case //' | sort -u); do
		echo "$flat" | grep -qE "OPT_CALLBACK\([^()]*, *$v *\)" ||
			bad "$f: 'case $v' is not a callback row's"
	done
done

# 2. The store is the only wall around SQL.
leaks=$(grep -lE '#include <sqlite3.h>|\bsqlite3_[a-z_0-9]+\b' ./*.c ./*.h cmd/* collect/* analyze/* reports/* 2>/dev/null || true)
[ -z "$leaks" ] || bad "SQLite used outside schema/: $leaks"
# ... and its public headers offer typed functions, not statements or bind helpers.
pub=$(grep -lE 'sqlite3|store_stmt|store_bind_|store_col_|store_db\(' schema/*.h | grep -vE '_int\.h$|^schema/sqlite\.h$' || true)
[ -z "$pub" ] || bad "schema/ public headers expose SQLite: $pub"
# ... and the migrations sit below the store: migrate.c calls nothing of store.c
# (both use schema/sqlite.c, the raw helpers below them).
up=$(grep -nE '\bstore_[a-z_]+\(|schema/store_int\.h' schema/migrate.c | grep -v '^[0-9]*: \*' || true)
[ -z "$up" ] || bad "schema/migrate.c calls up into the store: $up"
# The private headers are for schema/ only.
priv=$(grep -lE '#include "schema/(store_int|sqlite|migrate_int)\.h"' ./*.c cmd/* collect/* analyze/* reports/* 2>/dev/null || true)
[ -z "$priv" ] || bad "schema/'s private headers included outside it: $priv"

# 3. analyze/ decides and never prints, opens, exits or reads the store: not even
# <stdio.h> (a label it composes goes through the root's tps_xasprintf()).
io=$(grep -nE '\bs?n?f?printf\(|\bputs\(|\bfputs\(|\bfopen\(|\bfwrite\(|\bexit\(|\bFILE\b|struct store\b|#include <stdio\.h>' analyze/*.c analyze/*.h || true)
[ -z "$io" ] || bad "I/O or the store in analyze/: $io"
# ... and schema/ loads, never decides: it may name analyze/'s plain types (its
# loader fills them) but calls no function analyze/ declares.
afuncs=$(sed -n 's/^[a-z][a-z_ ]*[ *]\([a-z][a-z0-9_]*\)(.*/\1/p' analyze/*.h | sort -u | paste -sd'|')
[ -n "$afuncs" ] || bad "no function found in analyze/'s headers"
hit=$(grep -nE "\b($afuncs)\(" schema/*.c schema/*.h | grep -v '^[^:]*:[0-9]*: *\*' || true)
[ -z "$hit" ] || bad "schema/ calls analyze/: $hit"

# 3b. The command owns the transaction; collect/ commits what it measures as it
# arrives (a run row, each sample, a file's hash), so a killed collect keeps it.
tx=$(grep -lE '\bstore_(begin|commit)\(' collect/*.c reports/*.c analyze/*.c schema/*.c 2>/dev/null |
	grep -vxE 'collect/cell\.c|collect/filehash\.c|schema/store\.c' || true)
[ -z "$tx" ] || bad "a transaction opened outside cmd/ and collect's writers: $tx"

# 3c. proc.c is the one way a child process runs (a deadline, a group, a reap).
kids=$(grep -nE '\b(fork|vfork|popen|system|posix_spawnp?|execv[pe]*|execl[pe]*)\(' ./*.c cmd/*.c collect/*.c schema/*.c analyze/*.c reports/*.c |
	grep -v '^\./proc\.c:' | grep -v '^[^:]*:[0-9]*: *\*' | grep -vE '/\*|//' || true)
[ -z "$kids" ] || bad "a child process outside proc.c: $kids"

# 3d. escape.c holds every sink's escape: no escaper is defined anywhere else.
esc=$(grep -nE '^[a-z].*\b[a-z_]*escape[a-z_]*\(' ./*.c cmd/*.c collect/*.c analyze/*.c reports/*.c |
	grep -v '^\./escape\.c:' || true)
[ -z "$esc" ] || bad "an escaper outside escape.c: $esc"

# 3e. collect/ never calls up into cmd/: no header of collect/ that cmd/ includes
# takes a function (a callback) or declares a function-pointer type; the command
# owns the round loop and hands collect/ data (which cells to run).
for h in $(sed -n 's/^#include "\(collect\/[a-z_]*\.h\)"/\1/p' cmd/*.c cmd/*.h | sort -u); do
	fp=$(grep -nE '\(\*[a-z_]*\)\(' "$h" || true)
	[ -z "$fp" ] || bad "$h lets cmd/ hand collect/ a function: $fp"
done

# 4. reports/ renders what it is handed: no store, no command.
st=$(grep -nE 'struct store\b|\bstore_[a-z_]+\(|tps_ctx' reports/*.c reports/*.h || true)
[ -z "$st" ] || bad "reports/ reaches into the store: $st"

# 5. Includes point down. Each folder may include its own headers and these:
allowed() {
	case $1 in
	analyze) echo "analyze" ;;
	schema) echo "schema analyze" ;;
	collect) echo "collect schema" ;;
	reports) echo "reports analyze schema" ;;
	cmd) echo "cmd collect schema analyze reports" ;;
	.) echo "" ;;
	esac
}
for dir in analyze schema collect reports cmd .; do
	ok=$(allowed "$dir")
	for f in "$dir"/*.c "$dir"/*.h; do
		[ -e "$f" ] || continue
		# The dispatcher is the one root file above the folders.
		[ "$f" = ./main.c ] && continue
		for inc in $(sed -n 's/^#include "\([a-z]*\)\/.*/\1/p' "$f" | sort -u); do
			case " $ok " in *" $inc "*) ;; *) bad "$f includes $inc/ (up or across a layer)" ;; esac
		done
	done
done
# The root's lower files stand in a line, xalloc.c < strbuf.c < escape.c < util.c:
# none calls a file at or above its own place (tps_x* is xalloc.c's).
below() { # <file> <pattern of what it must not call>
	calls=$(grep -nE "$2" "$1" | grep -v '^[0-9]*: \*' || true)
	[ -z "$calls" ] || bad "$1 calls up the root's line: $calls"
}
below xalloc.c '\b(strbuf_[a-z]+|escape_[a-z]+|tps_(error|warning|usage|getopt|parse|read|now|uuid|mono|closest|edit)[a-z_]*)\('
below strbuf.c '\b(escape_[a-z]+|tps_(error|warning|usage|getopt|parse|read|now|uuid|mono|closest|edit)[a-z_]*)\('
below escape.c '\btps_(error|warning|usage|getopt|parse|read|now|uuid|mono|closest|edit)[a-z_]*\('

# reports/ may name schema/'s plain types, never the store itself.
up=$(grep -lE '#include "schema/store.h"' reports/*.c reports/*.h || true)
[ -z "$up" ] || bad "reports/ includes schema/store.h: $up"

# 6. No folder holds more than 30% of the lines of code.
total=$(cat ./*.c ./*.h cmd/* collect/*.[ch] schema/*.[ch] schema/*.sql analyze/* reports/* | wc -l)
for dir in cmd collect schema analyze reports; do
	lines=$(cat "$dir"/*.[ch] | wc -l)
	if [ $((lines * 100)) -gt $((total * 30)) ]; then
		bad "$dir/ holds $lines of $total lines, more than 30%"
	fi
done

[ "$fail" -eq 0 ] || exit 1
echo "layers: ok"
