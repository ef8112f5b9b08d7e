#!/usr/bin/env bash
# reference.sh <out>: the ctest fixture reference_values. Runs reference.py (Python
# with mpmath) and writes its "<key> <value>" lines to <out>, which test_stats,
# test_verdict and test_changepoint read through $TPSDB_REFERENCE. Without python3
# or mpmath it skips (exit 77), and fails under CI=true (tests/cli/skip-lib.sh);
# the old file is removed first, so a stale one is never read.
set -eu
out=${1:?usage: reference.sh <out>}
here=$(cd "$(dirname "$0")" && pwd)
rm -f "$out" "$out.tmp"
. "$here/../../cli/skip-lib.sh"
need python3
python3 -c 'import mpmath' 2>/dev/null || skip "python3-mpmath is not installed"
python3 "$here/reference.py" >"$out.tmp"
[ "$(wc -l <"$out.tmp")" -ge 60 ] || { echo "FAIL: reference.py printed too little" >&2; exit 1; }
mv "$out.tmp" "$out"
echo "ok: $(wc -l <"$out") reference values in $out"
