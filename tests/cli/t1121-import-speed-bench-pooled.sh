#!/usr/bin/env bash
# t1121-import-speed-bench-pooled.sh: a speed_bench.py --output file is one server
# instance (tests/data/speed-bench), and untagged files pool as a llama-bench
# process's do: each file one instance of the build --engine-version names, on one
# machine. Without a version nothing names the build (the nightly files of a
# label may be any builds): each file stays alone, and --tag pools them. compare
# then reads two instances a side from untagged files.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"
D=$TPSDB_TEST_DATA/speed-bench

pooled() {
	tps runs --pooled --engine "$1" --json
	expect_rc 0 "runs --pooled --engine $1"
	jq -r 'length' "$TMP/out"
}

for f in plain-1 plain-2; do
	tps import --engine plain --engine-version v1 --gpu "GPU A" "$D/$f.json"
	expect_rc 0 "import $f"
	tps import --engine nover "$D/$f.json" --allow-duplicate
	expect_rc 0 "import $f without a version"
done
tps runs --engine plain --json
check 'length == 2 and all(.[]; .source == "speed-bench")' "each file one run, from speed-bench"
[ "$(pooled plain)" = 2 ] || fail "two files of one named build: $(pooled plain) pooled, want 2"
[ "$(pooled nover)" = 1 ] || fail "two files of no named build: $(pooled nover) pooled, want 1"
# Another machine's file of the same build stays out.
tps import --engine plain --engine-version v1 --gpu "GPU B" "$D/plain-1.json" --allow-duplicate
expect_rc 0 "import plain-1 on another GPU"
[ "$(pooled plain)" = 1 ] || fail "the newest file pooled with another machine's: $(pooled plain)"

for f in spec-1 spec-2; do
	tps import --engine spec --engine-version v1 "$D/$f.json"
	expect_rc 0 "import $f"
	tps import --engine plain2 --engine-version v1 "$D/${f/spec/plain}.json" --allow-duplicate
	expect_rc 0 "import ${f/spec/plain}"
done
tps compare --ours spec --vs plain2 --metric tg --json
expect_rc 0 "compare untagged speed-bench files"
check '(.rows | length) == 1 and all(.rows[]; .instances_ours == 2 and .instances_vs == 2)' \
	"two instances a side"
echo ok
