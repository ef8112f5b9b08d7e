#!/usr/bin/env bash
# t0407: baselines freeze runs: set takes the latest run of each cell, or every run
# of a tag; a taken name needs --replace; list, show and rm; later runs do not move
# a baseline.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"

imp ours ours dense-8b gate-dense-v1.jsonl --tag v1
imp ours ours moe-30b gate-moe-v1.jsonl --tag v1
imp llama.cpp upstream dense-8b dense-llamacpp.jsonl --tag b9859

tps baseline list
expect_rc 0 "list empty"
grep -q '^no baselines$' "$TMP/out" || fail "empty list"
tps baseline set ref --engine ours
expect_rc 0 "set"
grep -q "^baseline 'ref': 2 run(s) frozen$" "$TMP/out" || fail "set output"
tps baseline set ref --engine llama.cpp
expect_rc 3 "name taken"
grep -q "^tpsdb: error: baseline 'ref' already exists (--replace overwrites it)$" "$TMP/err" || fail "error"
tps baseline set ref --tag b9859 --replace
expect_rc 0 "--replace"
tps baseline show ref --json
check '.name == "ref" and (.runs | length) == 1 and .runs[0].engine == "llama.cpp" and .runs[0].tag == "b9859"' "replaced"
tps baseline set up --model nothing
expect_rc 3 "nothing matches"
tps baseline set all
tps baseline list --json
expect_rc 0 "list --json"
check '[.[].name] == ["all","ref"] and .[0].runs == 3 and .[0].samples == 72' "list"

# A run imported later is not in the frozen set.
imp ours ours dense-8b gate-dense-v2.jsonl --tag v2
tps baseline show all --json
check '.runs | length == 3 and all(.[]; .tag != "v2")' "frozen"
tps baseline show all
expect_rc 0 "show"
grep -q "^baseline 'all': 3 run(s)$" "$TMP/out" || fail "show text"

tps baseline rm ref
expect_rc 0 "rm"
tps baseline rm ref
expect_rc 3 "rm twice"
tps baseline show ref
expect_rc 3 "show missing"
tps baseline
expect_rc 2 "no subcommand"
tps baseline frob
expect_rc 2 "unknown subcommand"
tps baseline list extra
expect_rc 2 "list takes no name"
tps baseline --help
expect_rc 0 "--help"
grep -q '^usage: tpsdb baseline set' "$TMP/out" || fail "help on stdout"
exit 0
