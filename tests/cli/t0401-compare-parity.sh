#!/usr/bin/env bash
# t0401: a dense model where ours is within 1% of llama.cpp (13150/142.6 against
# 13280/143.9 tok/s, 0.3% noise, 8 prompts x 3 reps) is parity on both metrics,
# significantly so, decided by the 2% band; the table carries its legend.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"

imp ours ours dense-8b dense-ours.jsonl
imp llama.cpp upstream dense-8b dense-llamacpp.jsonl

tps compare --ours ours --vs llama.cpp --json
expect_rc 0 "compare --json"
check '.rows | length == 2' "one row per metric"
check '[.rows[].metric] == ["pp","tg"]' "pp then tg"
check 'all(.rows[]; .verdict == "parity" and .significant == true)' "parity, significant"
check 'all(.rows[]; .delta_pct < -0.4 and .delta_pct > -1.3)' "delta near -0.9%"
check 'all(.rows[]; .n_pairs == 24 and .bound == "band" and .band_pct == 2)' "24 pairs, band 2%"
check 'all(.rows[]; .ci_lo_pct < .delta_pct and .delta_pct < .ci_hi_pct)' "the CI holds the delta"
check 'all(.rows[]; .p_value < 0.05 and .excluded_ours == 0 and .excluded_vs == 0)' "p, exclusions"
check 'all(.rows[]; .model == "dense-8b" and .ours == "ours" and .vs == "llama.cpp")' "names"
check 'all(.rows[]; (.ours_run | length) == 36 and (.vs_run | length) == 36)' "run uuids"
check '.warnings == []' "no warnings"

tps compare --ours ours --vs llama.cpp --metric tg
expect_rc 0 "compare (table)"
[ "$(grep -c '^dense-8b ' "$TMP/out")" = 1 ] || fail "one tg row in the table"
grep -q 'parity' "$TMP/out" || fail "verdict in the table"
grep -q '^tok/s medians; delta = median of per-pair ours/llama.cpp - 1' "$TMP/out" || fail "legend"
# The columns line up: the metric and verdict start under their headers.
hdr=$(sed -n 1p "$TMP/out"); row=$(sed -n 2p "$TMP/out")
a=${hdr%%metric*}; b=${row%%tg *}; [ ${#a} = ${#b} ] || fail "metric column"
a=${hdr%%verdict*}; b=${row%%parity*}; [ ${#a} = ${#b} ] || fail "verdict column"

# A wider band than any noise keeps the verdict; --band 0.5 turns it into slower.
tps compare --ours ours --vs llama.cpp --band 0.5 --json
expect_rc 0 "compare --band 0.5"
check 'all(.rows[]; .verdict == "slower" and .band_pct == 0.5)' "slower outside a 0.5% band"
exit 0
