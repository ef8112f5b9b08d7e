#!/usr/bin/env bash
# t0506: change points on synthetic histories of decode tok/s: a steady series
# (0.4% noise) has none, a single 40% outlier makes none, and two steps (100 ->
# 90 -> 110) are both found at the runs where they happen. The JSON equals the
# golden file; the text (the tables of --format md) names the run uuids and tags.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1

load history.jsonl

tps trend --metric tg --json
expect_rc 0 "trend --json"
golden history.trend.json "$TMP/out"
need jq
{
	q() { jq -r "$1" "$TMP/out"; }
	[ "$(q '[.series[].engine] | join(" ")')" = "outlier steady steps" ] || fail "series"
	[ "$(q '.series[] | select(.engine=="steady") | .change_points | length')" = 0 ] || fail "steady"
	[ "$(q '.series[] | select(.engine=="outlier") | .change_points | length')" = 0 ] || fail "outlier"
	[ "$(q '.series[] | select(.engine=="steps") | [.change_points[] | "\(.run) \(.tag) \(.index)"] | join(",")')" = \
		"11111111-0000-4000-8000-000000000030 b105 5,11111111-0000-4000-8000-000000000035 b110 10" ] \
		|| fail "steps at runs 6 and 11"
	[ "$(q '.series[] | select(.engine=="steps") | .latest_regression')" = false ] || fail "the last step is up"
	[ "$(q '.series[] | select(.engine=="steps") | .n_runs')" = 15 ] || fail "15 runs"
}

tps trend --metric tg --engine steps
expect_rc 0 "trend (text)"
cat >"$TMP/want" <<'TXT'
engine  model  config  metric  runs  first                     last                      change points  latest
steps   m1     base    tg        15  2025-06-02T00:00:00.000Z  2025-06-02T14:00:00.000Z              2  -

Change points (before and after are segment means, tok/s or acceptance):

engine  model  config  metric  new level from run                    tag   version  at run  before  after  change        p
steps   m1     base    tg      11111111-0000-4000-8000-000000000030  b105  -             6   100.0   90.0  -10.0%  6.8e-12
steps   m1     base    tg      11111111-0000-4000-8000-000000000035  b110  -            11    90.0  110.0  +22.2%  8.8e-15
TXT
cmp "$TMP/want" "$TMP/out" || { cat "$TMP/out" >&2; fail "text"; }

# Segments of five runs are shorter than --min-segment 6: no change point.
tps trend --metric tg --engine steps --min-segment 6 --json
expect_rc 0 "trend --min-segment 6"
grep -q '"change_points":	\[\]' "$TMP/out" || fail "no change with --min-segment 6"

# A change smaller than --min-magnitude is not one.
tps trend --metric tg --engine steps --min-magnitude 25 --json
expect_rc 0 "trend --min-magnitude 25"
grep -q '"change_points":	\[\]' "$TMP/out" || fail "no change of 25% or more"

# Usage errors.
for bad in "--pvalue 0" "--pvalue 2" "--min-segment 1" "--min-magnitude -1" "--metric xx" "extra"; do
	# shellcheck disable=SC2086
	tps trend $bad
	expect_rc 2 "trend $bad"
done
exit 0
