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

# ---- 7. No circles (issue 40): every arrow between two files points one way. ----
# The C text of files, comments removed (and with $1 = 1 the contents of string and
# character literals blanked), one "file:line:text" a line: what the checks below
# read, so a comment can neither hide a call nor fake one.
ctext() { # <blank> <file>...
	awk -v blank="$1" '
	FNR == 1 { inc = 0 }
	{
		out = ""; q = ""; n = length($0)
		for (i = 1; i <= n; i++) {
			c = substr($0, i, 1); d = substr($0, i, 2)
			if (inc) { if (d == "*/") { inc = 0; i++; out = out " " }; continue }
			if (q != "") {
				if (c == "\\") {
					if (!blank) out = out c substr($0, i + 1, 1)
					i++; continue
				}
				if (c == q) { q = ""; out = out c } else if (!blank) out = out c
				continue
			}
			if (d == "/*") { inc = 1; i++; continue }
			if (d == "//") break
			if (c == "\"" || c == "\047") q = c
			out = out c
		}
		print FILENAME ":" FNR ":" out
	}' "${@:2}"
}
# The functions a file defines for others (not static), as one "a|b|c" pattern.
exported() { # <file>
	ctext 1 "$1" | sed 's/^[^:]*:[0-9]*://' |
		grep -E '^[a-z][a-z_0-9 ]*[ *]\**[a-z_][a-z0-9_]*\(' | grep -vE '^static |;[[:space:]]*$' |
		sed 's/(.*//; s/.*[ *]//' | sort -u | paste -sd'|'
}
# The cycles of a graph read as "from to" lines, one a line ("a -> b -> a"): a
# walk in depth that names each arrow leading back onto its own path.
cycles() {
	awk '
	{ e[$1] = e[$1] " " $2; node[$1]; node[$2] }
	function walk(n,   k, a, i, j, path) {
		state[n] = 1; stack[++sp] = n
		k = split(e[n], a, " ")
		for (i = 1; i <= k; i++) {
			if (state[a[i]] == 1) {
				path = a[i]
				for (j = sp; j >= 1 && stack[j] != a[i]; j--)
					path = stack[j] " -> " path
				print a[i] " -> " path
			} else if (!state[a[i]]) {
				walk(a[i])
			}
		}
		sp--; state[n] = 2
	}
	END { for (n in node) if (!state[n]) walk(n) }'
}
# 7a. No include cycle among the modules of the folders (a module: x.c, x.h and
# its private x_int.h): a file's quoted includes are its arrows, and none leads
# back to it.
cyc=$(ctext 0 ./*.[ch] cmd/*.[ch] collect/*.[ch] schema/*.[ch] analyze/*.[ch] reports/*.[ch] |
	awk '
	{ f = $0; sub(/:.*/, "", f); m = f; sub(/\.[ch]$/, "", m); sub(/_int$/, "", m) }
	$0 ~ /^[^:]*:[0-9]*:[ \t]*#[ \t]*include[ \t]*"/ {
		t = $0; sub(/^[^:]*:[0-9]*:[^"]*"/, "", t); sub(/".*/, "", t)
		sub(/\.h$/, "", t); sub(/_int$/, "", t)
		if (t != m && t ~ /^(cmd|collect|schema|analyze|reports)\//) print m, t
	}' | cycles)
[ -z "$cyc" ] || bad "an include cycle: $cyc"
# 7b. The cell set's one pooling rule asks nothing of the files above it: the run
# comparison (run_mismatch()) is its own, and no parity_ name is used in it.
up=$(ctext 1 analyze/cellset.c | grep -E '\b(parity|speedup)_[a-z0-9_]*|\bPARITY_[A-Z0-9_]*' ||
	true)
inc=$(ctext 0 analyze/cellset.c analyze/cellset.h |
	grep -E '#[[:space:]]*include[[:space:]]*"analyze/(parity|speedup)\.h"' || true)
[ -z "$up$inc" ] || bad "analyze/cellset reaches up into parity or speedup: $up$inc"
# 7c. import's parts (collect/import_*.c) use nothing the driver, import.c,
# defines: the records and the error line they share are import_rec.c's.
drv=$(exported collect/import.c)
[ -n "$drv" ] || bad "no function found in collect/import.c"
up=$(ctext 1 collect/import_*.c | grep -E "\b($drv)\b" || true)
[ -z "$up" ] || bad "an import part calls back into collect/import.c: $up"
# 7d. The study's steps (analyze/study_*.c, the figures among them) use nothing
# of its driver, analyze/study.c.
drv=$(exported analyze/study.c)
[ -n "$drv" ] || bad "no function found in analyze/study.c"
up=$(ctext 1 analyze/study_*.c | grep -E "\b($drv)\b" || true)
[ -z "$up" ] || bad "a study step calls back into analyze/study.c: $up"
# 7e. collect/ reaches no analyze/ header, not even through schema/'s: the
# environment limits it judges by are the root's envlimits.h.
reach=$(ctext 0 ./*.h collect/*.[ch] schema/*.h analyze/*.h | awk '
	$0 ~ /^[^:]*:[0-9]*:[ \t]*#[ \t]*include[ \t]*"/ {
		f = $0; sub(/:.*/, "", f); sub(/^\.\//, "", f)
		t = $0; sub(/^[^:]*:[0-9]*:[^"]*"/, "", t); sub(/".*/, "", t)
		inc[f] = inc[f] " " t
	}
	function walk(f, from,   k, a, i) {
		if (f in seen) return
		seen[f]
		if (f ~ /^analyze\//) print from ": " f
		k = split(inc[f], a, " ")
		for (i = 1; i <= k; i++) walk(a[i], from)
	}
	END { for (f in inc) if (f ~ /^collect\//) { delete seen; walk(f, f) } }' | sort)
[ -z "$reach" ] || bad "collect/ reaches analyze/: $reach"
# 7f. Every release's spelling of a speculative knob is one table,
# collect/spec_knobs.c: no other file writes one in a string.
sp=$(ctext 0 ./*.[ch] cmd/*.[ch] collect/*.[ch] schema/*.[ch] analyze/*.[ch] reports/*.[ch] |
	grep -v '^collect/spec_knobs\.c:' |
	grep -E '"(-md|--model-draft|--spec-draft-[a-z-]*|--draft(-[a-z-]*)?)["= ]' || true)
[ -z "$sp" ] || bad "a speculative flag spelled outside collect/spec_knobs.c: $sp"
# 7g. No call cycle among the files of analyze/, collect/ and reports/: where a
# file calls a function another defines (at the margin, not static), that file
# calls nothing back, directly or round a longer ring (the three circles above
# were such rings; study_spec.c <-> study_prompts.c and report_write.c <->
# table_answer.c two more).
cyc=$(ctext 1 analyze/*.c collect/*.c reports/*.c | awk '
	{ f = $0; sub(/:.*/, "", f); t = $0; sub(/^[^:]*:[0-9]*:/, "", t); file[NR] = f; text[NR] = t }
	# A definition others may call: at the margin, not static, not a prototype.
	t ~ /^[a-z][a-z_0-9 ]*[ *]\**[a-z_][a-z0-9_]*\(/ && t !~ /^static / && t !~ /;[ \t]*$/ {
		n = t; sub(/\(.*/, "", n); sub(/.*[ *]/, "", n); def[n] = f
	}
	END {
		for (i = 1; i <= NR; i++) {
			t = text[i]
			while (match(t, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
				n = substr(t, RSTART, RLENGTH); sub(/[ \t]*\($/, "", n)
				t = substr(t, RSTART + RLENGTH)
				if ((n in def) && def[n] != file[i] && !((file[i] SUBSEP def[n]) in seen)) {
					seen[file[i], def[n]]
					print file[i], def[n]
				}
			}
		}
	}' | cycles)
[ -z "$cyc" ] || bad "a call cycle: $cyc"
# ---- end of 7 ----

[ "$fail" -eq 0 ] || exit 1
echo "layers: ok"
