#!/usr/bin/env bash
# t0403: compare refuses a cell whose runs are not comparable: another GGUF (both
# sha256 known and different) or another n_predict. One error line naming the cell
# and the difference, exit 3; --force compares anyway and warns loudly.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"

A=$(printf 'a%.0s' $(seq 64)); B=$(printf 'b%.0s' $(seq 64))
imp ours ours dense-8b dense-ours.jsonl --model-sha256 "$A"
imp llama.cpp upstream dense-8b dense-llamacpp.jsonl --model-sha256 "$B"

tps compare --ours ours --vs llama.cpp
expect_rc 3 "sha256 mismatch"
[ "$(wc -l <"$TMP/err")" = 1 ] || fail "one error line"
grep -q "^tpsdb: error: refusing to compare cell 'dense-8b': model sha256 differs (aaaaaaaaaaaa vs bbbbbbbbbbbb)" "$TMP/err" ||
	{ cat "$TMP/err"; fail "the line names the cell and the difference"; }
[ ! -s "$TMP/out" ] || fail "nothing on stdout"

tps compare --ours ours --vs llama.cpp --force --json
expect_rc 0 "--force"
grep -q '^tpsdb: warning: FORCED comparison of cell .dense-8b. although model sha256 differs' "$TMP/err" ||
	fail "loud warning on stderr"
check '.warnings | length == 1 and (.[0] | startswith("FORCED"))' "warning in the JSON"
check 'all(.rows[]; .forced == true)' "rows marked forced"

# n_predict: same GGUF (no sha256 known on one side), another requested length.
rm -f "$TPSDB_DB"*
imp ours ours dense-8b dense-ours.jsonl
imp llama.cpp upstream dense-8b dense-llamacpp.jsonl --n-predict 128
tps compare --ours ours --vs llama.cpp
expect_rc 3 "n_predict mismatch"
grep -q "^tpsdb: error: refusing to compare cell 'dense-8b': n_predict differs (256 vs 128)" "$TMP/err" ||
	{ cat "$TMP/err"; fail "n_predict named"; }
tps compare --ours ours --vs llama.cpp --force
expect_rc 0 "--force on n_predict"
grep -q 'FORCED' "$TMP/err" || fail "warning"
grep -q 'FORCED' "$TMP/out" || fail "the table marks the forced rows"
exit 0
