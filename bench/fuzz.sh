#!/usr/bin/env bash
# bench/fuzz.sh: runs every libFuzzer target in tests/fuzz/ for a given number of
# seconds each (default 300), from the seed corpus, and prints per target the runs,
# runs/s and whether it stayed clean (no crash, leak or sanitizer report).
#   bench/fuzz.sh [seconds] [target...]
# Needs clang with libFuzzer. Builds build/fuzz (-DTPSDB_FUZZ=ON). Exit 1 when a
# target found something; its log and the crashing input stay in the work folder.
set -eu
cd "$(dirname "$0")/.."
secs=${1:-300}
shift $(( $# > 0 ? 1 : 0 ))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
	for f in tests/fuzz/fuzz_*.c; do targets+=("$(basename "$f" .c)"); done
fi
command -v clang >/dev/null || { echo "bench/fuzz.sh: clang is needed" >&2; exit 2; }
CC=clang cmake -S . -B build/fuzz -DTPSDB_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build/fuzz -j"$(nproc)" --target "${targets[@]}" >/dev/null
work=$(mktemp -d /tmp/tpsdb-fuzz.XXXXXX)
status=0
printf '%-16s %8s %12s %10s  %s\n' target seconds runs runs/s result
for t in "${targets[@]}"; do
	corpus=$work/$t.corpus
	mkdir -p "$corpus"
	cp tests/fuzz/corpus/* "$corpus"/
	rc=0
	(cd "$work" && "$OLDPWD/build/fuzz/$t" -max_total_time="$secs" -max_len=65536 \
		-print_final_stats=1 "$corpus" >"$t.log" 2>&1) || rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log" | tail -1)
	runs=${runs:-0}
	if [ "$rc" = 0 ]; then result=clean; else result="FOUND (exit $rc, see $work/$t.log)"; status=1; fi
	printf '%-16s %8s %12s %10s  %s\n' "$t" "$secs" "$runs" "$(( runs / (secs > 0 ? secs : 1) ))" "$result"
done
[ "$status" = 0 ] && rm -rf "$work"
exit "$status"
