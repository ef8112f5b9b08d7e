#!/usr/bin/env bash
# bench_sha256.sh: tpsdb's SHA-256 against `openssl dgst -sha256` on the same file
# (1 GB of random bytes by default, made under $TMPDIR and removed afterwards), read
# from the page cache; then short strings as the import hashes them. With a git
# revision as the third argument it also builds bench_sha256.c against that
# revision's hand-written sha256.c, so old, new and openssl run side by side.
# Usage: bench/bench_sha256.sh [<build dir>] [<MB>] [<old rev, e.g. 3afaf55>]
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
mb=${2:-1000}
old=${3:-}
[ -x "$build/bench_sha256" ] ||
	{ echo "bench_sha256.sh: build bench_sha256 in $build first" >&2; exit 2; }
t=$(mktemp -d "${TMPDIR:-/tmp}/tpsdb-bench-sha256.XXXXXX")
trap 'rm -rf "$t"' EXIT

hashers=("new:$build/bench_sha256")
if [ -n "$old" ]; then
	mkdir "$t/old"
	git -C "$src" show "$old:sha256.c" >"$t/old/sha256.c"
	git -C "$src" show "$old:tpsdb.h" >"$t/old/tpsdb.h"
	cc -O2 -std=c17 -D_GNU_SOURCE -I"$t/old" -o "$t/old/bench_sha256" \
		"$src/bench/bench_sha256.c" "$t/old/sha256.c"
	hashers+=("old:$t/old/bench_sha256")
fi

head -c "$((mb * 1000000))" /dev/urandom >"$t/data"
cat "$t/data" >/dev/null # into the page cache: this measures hashing, not the disk

# Each hasher is timed the same way from outside, process start to exit: wall, and
# CPU (user + sys), which moves less than wall on a shared machine. Best of 3.
echo "== ${mb} MB file, best of 3: wall, CPU (user+sys), MB/s by wall and by CPU"
TIMEFORMAT='%R %U %S'
for h in "${hashers[@]}" openssl; do
	label=${h%%:*}
	for i in 1 2 3; do
		if [ "$label" = openssl ]; then
			{ time openssl dgst -sha256 -r "$t/data" >"$t/sum" 2>&1; } 2>"$t/time"
		else
			{ time "${h#*:}" "$t/data" >"$t/sum" 2>&1; } 2>"$t/time"
		fi
		read -r wall user sys <"$t/time"
		echo "$wall $(echo "$user + $sys" | bc -l) $(cut -c1-16 "$t/sum")"
	done | sort -g | head -n 1 | {
		read -r wall cpu sum
		printf '%-8s %7.3f s %7.3f s %8.1f %8.1f  %s...\n' "$label" "$wall" "$cpu" \
			"$(echo "$mb / $wall" | bc -l)" "$(echo "$mb / $cpu" | bc -l)" "$sum"
	}
done

echo "== 1,000,000 short strings (100 bytes), as the import hashes them"
for h in "${hashers[@]}"; do
	printf '%-8s ' "${h%%:*}"
	"${h#*:}" --short 1000000 100
done
