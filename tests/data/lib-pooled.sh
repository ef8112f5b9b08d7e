# lib-pooled.sh: analyze-cli/lib.sh (a fresh store, tps, check, imp) with the
# fixtures of tests/data/pooled/, several runs per engine (tests/cli/t041N-*.sh).
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"
FIX2=$TPSDB_TEST_DATA/pooled
FIX=$FIX2
# The pooled fixtures reuse one side's file across scenarios on purpose: import the
# same bytes again as a new run instead of skipping it as a duplicate.
imp() {
	local e=$1 r=$2 m=$3 f=$4
	shift 4
	"$TPSDB_BIN" import --allow-duplicate --engine "$e" --role "$r" --model "$m" --warmup 1 "$@" \
		"$FIX/$f" >/dev/null || fail "import of $f"
}
