#!/usr/bin/env bash
# t0404: samples flagged for a metric are left out of it and counted: two
# cache-inflated samples (cache_n > 0) spoil prefill only, one truncated sample
# (predicted_n < n_predict) spoils decode only.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"

imp ours ours dense-8b dense-ours-flagged.jsonl
imp llama.cpp upstream dense-8b dense-llamacpp.jsonl

tps compare --ours ours --vs llama.cpp --json
expect_rc 0 "compare"
check '.rows[0].metric == "pp" and .rows[0].excluded_ours == 2 and .rows[0].unpaired == 2' "pp: 2 out"
check '.rows[1].metric == "tg" and .rows[1].excluded_ours == 1 and .rows[1].unpaired == 1' "tg: 1 out"
# The rest still reads within 1% (one instance a side: shown, not decided).
check 'all(.rows[]; .excluded_vs == 0 and .delta_pct > -1.3 and .delta_pct < -0.4)' "the rest still near -0.9%"

tps compare --ours llama.cpp --vs ours --metric pp --json
expect_rc 0 "reversed"
check '.rows[0].excluded_vs == 2 and .rows[0].excluded_ours == 0' "counted on the vs side"
tps compare --ours ours --vs llama.cpp --metric pp
grep -q ' 2/0 *$' "$TMP/out" || fail "the table counts them"
exit 0
