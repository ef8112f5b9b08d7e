#!/usr/bin/env bash
# t0404: samples flagged for a metric are left out of it and counted: two
# cache-inflated samples (cache_n > 0) spoil prefill only, one truncated sample
# (predicted_n < n_predict) spoils decode only.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"

imp ours ours dense-8b dense-ours-flagged.jsonl
imp llama.cpp upstream dense-8b dense-llamacpp.jsonl

tps compare --ours ours --vs llama.cpp --json
expect_rc 0 "compare"
check '.rows[0].metric == "pp" and .rows[0].excluded_ours == 2 and .rows[0].n_pairs == 22' "pp: 2 out"
check '.rows[1].metric == "tg" and .rows[1].excluded_ours == 1 and .rows[1].n_pairs == 23' "tg: 1 out"
check 'all(.rows[]; .excluded_vs == 0 and .verdict == "parity")' "the rest still at parity"

tps compare --ours llama.cpp --vs ours --metric pp --json
expect_rc 0 "reversed"
check '.rows[0].excluded_vs == 2 and .rows[0].excluded_ours == 0' "counted on the vs side"
tps compare --ours ours --vs llama.cpp --metric pp
grep -q ' 2/0 *$' "$TMP/out" || fail "the table counts them"
exit 0
