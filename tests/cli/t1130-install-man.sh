#!/usr/bin/env bash
# t1130-install-man.sh: `cmake --install <build> --prefix <dir>` puts tpsdb in bin/
# and its manual pages in share/man/man1 (issue 38): tpsdb(1) and one
# tpsdb-<command>(1) for each command `tpsdb --help` lists, no other. Each page
# formats under `man -l` and `groff -ww` without a warning, at 80 columns, with no
# roff escape left in the text; a command's page holds its synopsis and every
# option its --help names; tpsdb(1) lists every command and every TPSDB_* setting.
# The installed binary prints the project's version. The pages are the same bytes
# when written again (no date in them). Installs from the build directory the test
# runs in (TPSDB_BUILD, else the one holding TPSDB_BIN): no rebuild.
set -eu
: "${TPSDB_BIN:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need man groff
build=${TPSDB_BUILD:-$(dirname "$TPSDB_BIN")}
[ -f "$build/cmake_install.cmake" ] || { echo "FAIL: no cmake_install.cmake in '$build'" >&2; exit 1; }
tmp_dir
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

cmake --install "$build" --prefix "$tmp/p" >"$tmp/install.out"
bin=$tmp/p/bin/tpsdb
mandir=$tmp/p/share/man/man1
[ -x "$bin" ] || { echo "FAIL: no executable $bin" >&2; exit 1; }

# The installed binary runs, and says the project's version.
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
[ -n "$version" ] || bad "no CMAKE_PROJECT_VERSION in $build/CMakeCache.txt"
got=$("$bin" --version) || bad "installed tpsdb --version exits $?"
[ "$got" = "tpsdb $version" ] || bad "installed --version printed '$got', expected 'tpsdb $version'"

# One page per command of `tpsdb --help`, plus tpsdb.1, and nothing else.
cmds=$("$bin" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
[ "$(echo "$cmds" | wc -l)" -ge 17 ] || bad "tpsdb --help lists only: $cmds"
want=$( (echo tpsdb.1; for c in $cmds; do echo "tpsdb-$c.1"; done) | sort)
have=$(ls "$mandir" | sort)
[ "$want" = "$have" ] || bad "installed pages differ from the commands: $(diff <(echo "$want") <(echo "$have") | grep '^[<>]' | paste -sd' ')"

# page_text <page>: the page as man prints it at 80 columns; its stderr (man's and
# groff's warnings) must be empty.
page_text() {
	local out
	out=$(MANWIDTH=80 MAN_KEEP_FORMATTING= man --warnings=w -l "$1" 2>"$tmp/err") ||
		bad "man -l $(basename "$1") exits $?"
	[ ! -s "$tmp/err" ] || bad "man -l $(basename "$1") warns: $(head -3 "$tmp/err")"
	groff -man -ww -z -Tutf8 "$1" 2>"$tmp/gerr" || bad "groff on $(basename "$1") exits $?"
	[ ! -s "$tmp/gerr" ] || bad "groff -ww $(basename "$1") warns: $(head -3 "$tmp/gerr")"
	printf '%s\n' "$out"
}

for c in $cmds; do
	page=$mandir/tpsdb-$c.1
	[ -f "$page" ] || continue
	text=$(page_text "$page")
	flat=$(printf '%s\n' "$text" | tr -s ' \n' '  ')
	case $text in *'\f'* | *'\-'* | *'\e'* | *'\&'* | *'\['*) bad "tpsdb-$c(1) shows a roff escape" ;; esac
	printf '%s\n' "$text" | head -1 | grep -q "^TPSDB-${c^^}(1)" || bad "tpsdb-$c(1) has no TPSDB-${c^^}(1) header"
	printf '%s\n' "$text" | grep -q "^NAME" || bad "tpsdb-$c(1) has no NAME"
	printf '%s\n' "$text" | grep -A1 '^NAME' | grep -qF "tpsdb-$c - " || bad "tpsdb-$c(1)'s NAME line"
	printf '%s\n' "$text" | grep -A1 '^SYNOPSIS' | grep -qF "tpsdb $c" || bad "tpsdb-$c(1)'s SYNOPSIS lacks 'tpsdb $c'"
	# Every hyphen is \- in the source (a minus, so options copy as typed where
	# groff would print a hyphen), and a backslash of the help text survives.
	grep -v '^\.' "$page" | grep -qE '(^|[^\\])-' && bad "tpsdb-$c(1) has an unescaped '-'"
	for w in $("$TPSDB_BIN" "$c" --help | grep -oE "[^ ]*[\\][^ ]*"); do
		case " $flat " in *"$w"*) ;; *) bad "tpsdb-$c(1) lacks '$w'" ;; esac
	done
	# Every option the command's --help names, as typed.
	for o in $("$TPSDB_BIN" "$c" --help | grep -oE -- '--[a-z][a-z0-9-]*[a-z0-9]' | sort -u); do
		case " $flat " in *"$o"*) ;; *) bad "tpsdb-$c(1) lacks $o" ;; esac
	done
done

# tpsdb(1): the command list, the global options, exit codes, the settings.
text=$(page_text "$mandir/tpsdb.1")
flat=$(printf '%s\n' "$text" | tr -s ' \n' '  ')
for s in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS 'EXIT STATUS' ENVIRONMENT FILES 'SEE ALSO'; do
	printf '%s\n' "$text" | grep -qx "$s" || bad "tpsdb(1) has no section $s"
done
for c in $cmds; do
	case $flat in *"tpsdb-$c(1)"*) ;; *) bad "tpsdb(1) does not list tpsdb-$c(1)" ;; esac
done
for o in --db --help --version; do
	case $flat in *"$o"*) ;; *) bad "tpsdb(1) lacks $o" ;; esac
done
for v in TPSDB_DB TPSDB_CACHE $("$bin" --help | grep -oE 'TPSDB_[A-Z_]+' | sort -u); do
	case $flat in *"$v"*) ;; *) bad "tpsdb(1) lacks $v" ;; esac
done
case $flat in *"tpsdb $version"*) ;; *) bad "tpsdb(1) does not name version $version" ;; esac

# Written again, the same bytes.
mkdir "$tmp/again"
"$build/tpsdb-mangen" "$TPSDB_SRC/docs/man/tpsdb.1.in" "$version" "$tmp/again" $cmds ||
	bad "tpsdb-mangen exits $?"
diff -r "$mandir" "$tmp/again" >/dev/null || bad "the pages written again differ from the installed ones"

[ "$fail" -eq 0 ] || exit 1
echo "ok: $(echo "$cmds" | wc -w) command pages and tpsdb(1) installed and formatted clean; $got"
