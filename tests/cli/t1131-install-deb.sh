#!/usr/bin/env bash
# t1131-install-deb.sh: `cpack -G DEB` in the build directory makes a Debian package
# (issue 38) named tpsdb_<version>_<arch>.deb whose control fields are the
# project's: Package tpsdb, Version the project version, a Maintainer, Depends on
# the Debian 12 libraries tpsdb links (libsqlite3-0, libcurl4, libcjson1, libssl3,
# each library of the binary's NEEDED list found in one of them), Recommends
# gnuplot, a Description; and whose files are usr/bin/tpsdb and every manual page
# the install writes, gzip -9n as Debian's policy asks, no other file. Unpacked,
# the binary prints the version, each page unzips to the build's page and formats
# under man without a warning. Packs the build the test runs in (TPSDB_BUILD, else
# the one holding TPSDB_BIN) into a temporary directory; cpack's preinstall step
# finds it built.
set -eu
: "${TPSDB_BIN:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need cpack dpkg-deb man gzip
build=${TPSDB_BUILD:-$(dirname "$TPSDB_BIN")}
[ -f "$build/CPackConfig.cmake" ] || { echo "FAIL: no CPackConfig.cmake in '$build'" >&2; exit 1; }
tmp_dir
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
arch=$(dpkg --print-architecture)
(cd "$build" && cpack -G DEB -B "$tmp/pkg" --config CPackConfig.cmake) >"$tmp/cpack.out" 2>&1 ||
	{ cat "$tmp/cpack.out" >&2; echo "FAIL: cpack exits" >&2; exit 1; }
deb=$tmp/pkg/tpsdb_${version}_$arch.deb
[ -f "$deb" ] || { echo "FAIL: no $deb: $(ls "$tmp/pkg")" >&2; exit 1; }

field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = tpsdb ] || bad "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || bad "Version: $(field Version), expected $version"
[ "$(field Architecture)" = "$arch" ] || bad "Architecture: $(field Architecture)"
case $(field Maintainer) in *?' <'*@*'>') ;; *) bad "Maintainer: '$(field Maintainer)'" ;; esac
deps=$(field Depends)
for d in libc6 libsqlite3-0 libcurl4 libcjson1 libssl3; do
	case ", $deps," in *", $d "* | *", $d,"*) ;; *) bad "Depends lacks $d: $deps" ;; esac
done
case $(field Recommends) in *gnuplot*) ;; *) bad "Recommends: '$(field Recommends)'" ;; esac
case $(field Description) in *regression*throughput*) ;; *) bad "Description: $(field Description)" ;; esac
# Every library the binary links directly (its NEEDED entries, but a sanitizer's
# runtime) comes from a package Depends names, on this machine.
if command -v readelf >/dev/null && command -v ldd >/dev/null; then
	for so in $(readelf -d "$TPSDB_BIN" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -vE 'lib(a|ub|l|t)san'); do
		lib=$(ldd "$TPSDB_BIN" | awk -v so="$so" '$1 == so {print $3}')
		[ -n "$lib" ] || { bad "ldd does not resolve $so"; continue; }
		pkg=$(dpkg -S "$(readlink -f "$lib")" 2>/dev/null | head -1 | cut -d: -f1) || pkg=
		[ -n "$pkg" ] || pkg=$(dpkg -S "$lib" 2>/dev/null | head -1 | cut -d: -f1) || pkg=
		case ", $deps," in *", $pkg "* | *", $pkg,"*) ;; *) bad "$so is in '$pkg', not in Depends: $deps" ;; esac
	done
fi

# The files: the binary and every page of the install, no other file.
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $6}' | sort >"$tmp/files"
cmds=$("$TPSDB_BIN" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
{
	echo ./usr/bin/tpsdb
	echo ./usr/share/man/man1/tpsdb.1.gz
	for c in $cmds; do echo "./usr/share/man/man1/tpsdb-$c.1.gz"; done
} | sort >"$tmp/want"
diff "$tmp/want" "$tmp/files" >"$tmp/diff" || bad "the package's files differ: $(grep '^[<>]' "$tmp/diff" | paste -sd' ')"
dpkg-deb -c "$deb" | grep -q ' \./usr/bin/tpsdb$' && dpkg-deb -c "$deb" | grep ' \./usr/bin/tpsdb$' | grep -q '^-rwxr-xr-x' ||
	bad "usr/bin/tpsdb is not rwxr-xr-x"

# Unpacked, it runs.
dpkg-deb -x "$deb" "$tmp/root"
got=$("$tmp/root/usr/bin/tpsdb" --version) || bad "the packaged tpsdb --version exits $?"
[ "$got" = "tpsdb $version" ] || bad "the packaged tpsdb printed '$got'"
for gz in "$tmp"/root/usr/share/man/man1/*.1.gz; do
	page=$(basename "$gz" .gz)
	gzip -t "$gz" || bad "$page.gz is not gzip"
	gzip -dc "$gz" | cmp -s - "$build/man/man1/$page" || bad "$page.gz is not the build's $page"
	MANWIDTH=80 man --warnings=w -l "$gz" >"$tmp/out" 2>"$tmp/err" || bad "man -l $page.gz exits $?"
	[ ! -s "$tmp/err" ] && grep -q '^NAME' "$tmp/out" || bad "man -l $page.gz: $(head -3 "$tmp/err")"
done

[ "$fail" -eq 0 ] || exit 1
echo "ok: $(basename "$deb"): $(wc -l <"$tmp/files") files; Depends: $deps"
