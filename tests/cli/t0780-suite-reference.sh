#!/usr/bin/env bash
# t0780: the statistics tests compare against what tests/data/analyze/reference.py
# prints, not against copied constants. The fixture script (reference.sh) writes the
# values; without mpmath it skips, and fails under CI=true; it is quick; and
# test_stats and test_changepoint fail when a value in the file they
# read is wrong, and report a skip (77) when there is no file.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_SRC:?}"
. "$TPSDB_SRC/tests/cli/skip-lib.sh"
need python3
python3 -c 'import mpmath' 2>/dev/null || skip "python3-mpmath is not installed"
bindir=$(dirname "$TPSDB_BIN")
[ -x "$bindir/test_stats" ] || skip "the cmocka tests were not built (no cmocka)"
tmp_dir
fail() { echo "FAIL: $*" >&2; exit 1; }
sh=$TPSDB_SRC/tests/data/analyze/reference.sh

# mpmath hidden: a skip, a failure under CI=true, and no file either way.
mkdir "$tmp/hide"
echo 'raise ImportError("hidden by t0780")' >"$tmp/hide/mpmath.py"
rc=0
env -u CI PYTHONPATH="$tmp/hide" bash "$sh" "$tmp/ref.txt" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" = 77 ] || { cat "$tmp/out"; fail "without mpmath: exit $rc, not 77"; }
rc=0
CI=true PYTHONPATH="$tmp/hide" bash "$sh" "$tmp/ref.txt" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$tmp/out"; fail "without mpmath under CI=true: exit $rc, not 1"; }
grep -q 'would skip under CI: python3-mpmath' "$tmp/out" || fail "no reason: $(cat "$tmp/out")"
[ ! -e "$tmp/ref.txt" ] || fail "a reference file without mpmath"

# With mpmath: the file, quickly.
start=$(date +%s%N)
bash "$sh" "$tmp/ref.txt" >/dev/null || fail "reference.sh failed"
ms=$((($(date +%s%N) - start) / 1000000))
[ "$ms" -lt 20000 ] || fail "reference.sh took $ms ms"
for k in student.xy.p student.ab.t welch.ab.se \
	changepoint.step.p tq975.4 welch.xy.df; do
	grep -Eq "^$k [-0-9.e+]+$" "$tmp/ref.txt" || fail "no value for $k"
done
grep -q ' ' <(cut -d' ' -f1 "$tmp/ref.txt") && fail "a key with a space"

# The tests read it: all pass on the true values ...
for t in test_stats test_changepoint; do
	TPSDB_REFERENCE=$tmp/ref.txt "$bindir/$t" >"$tmp/out" 2>&1 ||
		{ cat "$tmp/out"; fail "$t on the reference values"; }
done
# ... and fail when one value is off by a relative 1e-6, one key at a time.
for kt in student.xy.p:test_stats welch.xy.df:test_stats \
	desc.tg.sd:test_stats \
	changepoint.step.sd_after:test_changepoint; do
	k=${kt%%:*} t=${kt#*:}
	awk -v k="$k" '$1 == k { printf "%s %.17g\n", $1, $2 * (1 + 1e-6); next } { print }' \
		"$tmp/ref.txt" >"$tmp/bad.txt"
	[ "$(diff "$tmp/ref.txt" "$tmp/bad.txt" | grep -c '^>')" = 1 ] || fail "$k not changed alone"
	rc=0
	TPSDB_REFERENCE=$tmp/bad.txt "$bindir/$t" >"$tmp/out" 2>&1 || rc=$?
	[ "$rc" != 0 ] && [ "$rc" != 77 ] || fail "$t passed with $k off by 1e-6"
done
# No file: 77 (ctest's skip), and a failure under CI=true.
rc=0
env -u CI TPSDB_REFERENCE="$tmp/none" "$bindir/test_stats" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" = 77 ] || { cat "$tmp/out"; fail "test_stats without values: exit $rc, not 77"; }
rc=0
CI=true TPSDB_REFERENCE="$tmp/none" "$bindir/test_stats" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" != 0 ] && [ "$rc" != 77 ] || fail "test_stats without values under CI=true: exit $rc"
echo "ok: reference values in $ms ms, read and checked by the C tests"
