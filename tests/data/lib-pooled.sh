# lib-pooled.sh: analyze-cli/lib.sh (a fresh store, tps, check, imp) with the
# fixtures of tests/data/pooled/, several runs per engine (tests/cli/t041N-*.sh).
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"
FIX2=$TPSDB_TEST_DATA/pooled
FIX=$FIX2
