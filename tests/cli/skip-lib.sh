# skip-lib.sh: how a CLI test says it cannot run here, sourced by the test libraries
# and by the tests that need a tool. ctest counts exit 77 as skipped, and a run that
# skipped everything would still end "100% tests passed"; so under CI=true a skip
# is a failure (scripts/deps.sh installs every tool a test asks for).

# skip <why>: skips the test, or fails it under CI=true.
skip() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL: would skip under CI: $*" >&2
		exit 1
	fi
	echo "skip: $*"
	exit 77
}

# need <tool>...: skips (fails under CI) unless every tool is on PATH.
need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || skip "$t is not installed"
	done
}

# no_golden_update_in_ci: golden-update mode copies output over the expectation and
# passes, so it must never run where results count.
no_golden_update_in_ci() {
	if [ "${TPSDB_UPDATE_GOLDEN:-}" = 1 ] && [ "${CI:-}" = true ]; then
		echo "FAIL: TPSDB_UPDATE_GOLDEN=1 refuses to run under CI=true" >&2
		exit 1
	fi
}

# tmp_dir: a temporary folder $tmp, removed on exit.
tmp_dir() {
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
}

# tmp_store <data-subdir>: the usual prelude of a store test: tmp_dir, an empty
# store $TPSDB_DB in it, and $D the fixture folder $TPSDB_TEST_DATA/<data-subdir>.
tmp_store() {
	tmp_dir
	export TPSDB_DB=$tmp/s.db
	D=$TPSDB_TEST_DATA/$1
}

# tmp_locked: a temporary folder $tmp removed on exit even where the test took its
# write bits away (chmod) or made the file named in $immutable immutable (chattr +i,
# for root, whom permission bits do not bind).
tmp_locked() {
	tmp=$(mktemp -d)
	immutable=
	trap tmp_locked_cleanup EXIT
}
tmp_locked_cleanup() {
	[ -z "$immutable" ] || chattr -i "$immutable" 2>/dev/null || true
	chmod -R u+w "$tmp" 2>/dev/null || true
	rm -rf "$tmp"
}
