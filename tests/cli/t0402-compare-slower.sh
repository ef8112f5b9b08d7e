#!/usr/bin/env bash
# t0402: the old engine on a MoE model: stock-llamafile prefills at 6500 tok/s
# against llama.cpp's 13000 and decodes 130 against 201. With three instances a
# side the answer is "regression yes", slower, with deltas of about -50% and -35%;
# reversed, "no" and faster.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"

imp_rounds stock-llamafile other moe-30b moe-stock --tag r
imp_rounds llama.cpp upstream moe-30b moe-llamacpp --tag r
imp llama.cpp upstream dense-8b dense-llamacpp.jsonl --tag r

tps compare --ours stock-llamafile --vs llama.cpp --json
expect_rc 0 "compare"
check '.rows | length == 2' "two rows: the dense model has no stock-llamafile run"
check 'all(.rows[]; .regression == "yes" and .verdict == "slower" and .decided == true and .model == "moe-30b")' \
	"a regression, slower"
check '.rows[0].metric == "pp" and .rows[0].delta_pct > -51 and .rows[0].delta_pct < -49' "pp -50%"
check '.rows[1].metric == "tg" and .rows[1].delta_pct > -36 and .rows[1].delta_pct < -34.5' "tg -35%"
check 'all(.rows[]; .ci_hi_pct < -2 and .rounds == 3)' "the interval beyond the band, three rounds"
check '.warnings == []' "a model one engine never measured is not a warning"

tps compare --ours stock-llamafile --vs llama.cpp
expect_rc 0 "compare text"
sed -n 1p "$TMP/out" | grep -Eq '^stock-llamafile vs llama.cpp: pp 1 regression \(moe-30b -50\.[0-9]% \[-50\.[0-9]+%, -4[89]\.[0-9]+%\]\) \(decided: 0 faster, 1 slower, 0 parity\), geomean -50\.[0-9]% .*; tg 1 regression \(moe-30b -35\.[0-9]% ' ||
	fail "the one-line answer names the regressions: $(sed -n 1p "$TMP/out")"

# Reversed, the same cells read faster and no regression.
tps compare --ours llama.cpp --vs stock-llamafile --model moe-30b --json
expect_rc 0 "compare reversed"
check 'all(.rows[]; .regression == "no" and .verdict == "faster" and .decided)' "faster"

# The markdown bolds the decided regression and nothing else.
tps compare --ours stock-llamafile --vs llama.cpp --format md
expect_rc 0 "compare md"
[ "$(grep -c '\*\*yes\*\*' "$TMP/out")" = 2 ] || fail "both regressions bold"

# --model narrows; a model both lack is an error, exit 3.
tps compare --ours stock-llamafile --vs llama.cpp --model dense-8b
expect_rc 3 "no comparable cell"
grep -q "^tpsdb: error: no cell measured by both 'stock-llamafile' and 'llama.cpp'" "$TMP/err" ||
	fail "error line"
exit 0
