#!/usr/bin/env bash
# t1124-import-llama-bench-files.sh: each llama-bench file is one process, one
# instance of its build, whether one import names it or several do: three files
# of each build (real llama-bench json of two builds, tests/data/llama-bench-
# speedup) imported in one command a side give compare 3 processes a side, the
# same rows, speedups and intervals as one import a file. Before, one import's
# rows of one configuration and known build shared a run: 1 process a side.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"
D=$TPSDB_TEST_DATA/llama-bench-speedup

tps import --engine new "$D/new-r1.json" "$D/new-r2.json" "$D/new-r3.json"
expect_rc 0 "import new's three files at once"
tps import --engine old "$D/old-r1.json" "$D/old-r2.json" "$D/old-r3.json"
expect_rc 0 "import old's three files at once"
tps runs --json
expect_rc 0 "runs"
check 'length == 36' "12 runs a file, one file a process"
tps compare --ours new --vs old --json
expect_rc 0 "compare"
check 'all(.llama_bench.speedups[]; .processes_ours == 3 and .processes_vs == 3)' \
	"three processes a side"
cp "$TMP/out" "$TMP/once.json"

# The same files, one import each: the same answer, figure for figure.
export TPSDB_DB=$TMP/each.sqlite
imp_speedup_each
tps compare --ours new --vs old --json
expect_rc 0 "compare, one import a file"
# Every figure alike; only the runs' uuids differ.
strip='walk(if type == "object" then del(.ours_run, .vs_run, .run, .uuid) else . end)'
[ "$(jq -S "$strip" "$TMP/once.json")" = "$(jq -S "$strip" "$TMP/out")" ] ||
	fail "one import of three files differs from three imports"
echo ok
