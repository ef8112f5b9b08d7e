#!/usr/bin/env bash
# t0761: the suite cannot pass by skipping. With jq hidden from PATH an analyzer
# test skips (exit 77) normally but fails (exit 1) under CI=true; golden-update
# mode (TPSDB_UPDATE_GOLDEN=1) refuses to run under CI=true and leaves the golden
# files as they were; scripts/test.sh refuses it too.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_SRC:?}" "${TPSDB_TEST_DATA:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A PATH with the tools the test scripts use, but not jq.
mkdir "$tmp/bin"
for t in bash mktemp rm cat sed grep head tail tr cp mv od sort wc cmp diff dirname \
	sha256sum cut python3 env ls; do
	p=$(command -v "$t") && ln -s "$p" "$tmp/bin/$t"
done
t=$TPSDB_SRC/tests/cli/t0401-compare-parity.sh

rc=0
env -u CI PATH="$tmp/bin" bash "$t" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" = 77 ] || { cat "$tmp/out"; echo "FAIL: without jq and CI, exit $rc, not 77"; exit 1; }
rc=0
CI=true PATH="$tmp/bin" bash "$t" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$tmp/out"; echo "FAIL: without jq under CI=true, exit $rc, not 1"; exit 1; }
grep -q 'would skip under CI: jq' "$tmp/out" || { echo "FAIL: no reason given"; exit 1; }

before=$(cat "$TPSDB_TEST_DATA"/report/study.* | sha256sum)
rc=0
CI=true TPSDB_UPDATE_GOLDEN=1 bash "$TPSDB_SRC/tests/cli/t0501-report-golden.sh" \
	>"$tmp/out" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$tmp/out"; echo "FAIL: golden update under CI: exit $rc"; exit 1; }
grep -q 'TPSDB_UPDATE_GOLDEN=1 refuses to run under CI=true' "$tmp/out" ||
	{ cat "$tmp/out"; echo "FAIL: no refusal message"; exit 1; }
[ "$(cat "$TPSDB_TEST_DATA"/report/study.* | sha256sum)" = "$before" ] ||
	{ echo "FAIL: a golden file changed"; exit 1; }

rc=0
CI=true TPSDB_UPDATE_GOLDEN=1 bash "$TPSDB_SRC/scripts/test.sh" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q 'refuses to run under CI=true' "$tmp/out" ||
	{ cat "$tmp/out"; echo "FAIL: scripts/test.sh ran golden-update mode under CI"; exit 1; }
echo ok
