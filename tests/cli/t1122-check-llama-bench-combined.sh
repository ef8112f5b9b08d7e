#!/usr/bin/env bash
# t1122-check-llama-bench-combined.sh: a llama-bench pp+tg test (-pg, or -p and -n
# in one test) reports one combined rate, no prefill or decode of its own: its
# samples are stored failed so that neither metric reads them, but they are no
# failed requests. From real llama-bench output (tests/data/llama-bench-speedup,
# with pp64+tg16 tests): import counts no flagged sample, check has no finding
# (exit 0), runs counts no failed sample; compare's speedup table still reads
# them. A csv file's pp+tg row is an average: aggregate-only, not failed.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"
D=$TPSDB_TEST_DATA/llama-bench-speedup

tps import --engine new "$D/new-r1.json"
expect_rc 0 "import new-r1"
grep -q '^imported 18 sample(s) from llama-bench into 6 new runs ' "$TMP/out" ||
	fail "import: $(cat "$TMP/out")"
grep -q 'data-quality' "$TMP/out" && fail "pp+tg samples counted as findings: $(cat "$TMP/out")"
tps check
expect_rc 0 "check of json with pp+tg tests"
[ "$(cat "$TMP/out")" = "no findings; integrity ok" ] || fail "check: $(cat "$TMP/out")"
tps runs --json
check 'length == 6 and all(.[]; .n_failed == 0 and .n_flagged == 0) and
	([.[] | select(.config | startswith("pp64+tg16"))] | length) == 2' "runs counts no failed sample"

tps import --engine old "$D/old-r1.json"
expect_rc 0 "import old-r1"
tps compare --ours new --vs old --json
expect_rc 0 "compare"
check '([.llama_bench.speedups[] | select(.test | startswith("pp64+tg16"))] | length) == 2' \
	"the speedup table reads the pp+tg tests"

# csv: averages, aggregate-only (a finding), never failed requests.
tps import --engine csv "$D/new.csv"
expect_rc 0 "import new.csv"
tps check --json
expect_rc 1 "check of csv averages"
check '(.findings | length) == 6 and all(.findings[]; .kind == "aggregate-only")' \
	"csv pp+tg rows: aggregate-only"
tps runs --engine csv --json
check 'all(.[]; .n_failed == 0 and .n_flagged == 1)' "csv: flagged aggregate, not failed"
echo ok
