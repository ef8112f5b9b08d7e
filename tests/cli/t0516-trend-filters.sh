#!/usr/bin/env bash
# t0516: trend takes the run filters (--since, --until, --engine-version, --batch,
# --host, --limit per series), and orders a series by build number when every run
# names one (engine version b<N>), else by start time.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
need jq

# The steps series (100 -> 90 -> 110 in start order) gets builds that run against
# time: the oldest run is b214, the newest b200. In build order the levels read
# 110 -> 90 -> 100.
jq -c 'if .run.engine.label == "steps" then
		.run.engine.version = ("b" + ((214 - ((.run.uuid[-2:] | tonumber) - 25)) | tostring) + "-abc")
		| .run.batch = "S"
	else . end' "$FIX/history.jsonl" >"$TMP/h.jsonl"
"$TPSDB_BIN" import "$TMP/h.jsonl" >/dev/null || fail "import"

tps trend --metric tg --engine steps --json
expect_rc 0 "trend"
[ "$(jq -r '[.series[0].change_points[] | "\(.run) \(.index)"] | join(",")' "$TMP/out")" = \
	"11111111-0000-4000-8000-000000000034 5,11111111-0000-4000-8000-000000000029 10" ] ||
	{ cat "$TMP/out" >&2; fail "build order"; }
jq -e '.series[0].change_points[0].change_pct < 0 and .series[0].change_points[1].change_pct > 0' \
	"$TMP/out" >/dev/null || fail "110 -> 90 -> 100"
tps trend --metric tg --engine steps --format md
grep -q '^| steps .* | b200-abc | b214-abc |' "$TMP/out" || fail "first and last builds"

# One run without a build number: the whole series goes by time again.
jq -c 'if .run.uuid == "11111111-0000-4000-8000-000000000031" then .run.engine.version = "dev" else . end' \
	"$TMP/h.jsonl" >"$TMP/h2.jsonl"
export TPSDB_DB=$TMP/two.sqlite
"$TPSDB_BIN" import "$TMP/h2.jsonl" >/dev/null || fail "import 2"
tps trend --metric tg --engine steps --json
[ "$(jq -r '[.series[0].change_points[] | .run] | join(",")' "$TMP/out")" = \
	"11111111-0000-4000-8000-000000000030,11111111-0000-4000-8000-000000000035" ] ||
	fail "time order when a build is missing"

# Filters.
tps trend --metric tg --json --batch S
[ "$(jq -r '[.series[].engine] | join(",")' "$TMP/out")" = steps ] || fail "--batch"
tps trend --metric tg --json --since 2025-06-02
[ "$(jq -r '[.series[] | "\(.engine)=\(.n_runs)"] | join(",")' "$TMP/out")" = \
	"$(jq -rs '[.[] | select(.run.started_at >= "2025-06-02") | .run.engine.label] | group_by(.) |
		map("\(.[0])=\(length)") | join(",")' "$TMP/h2.jsonl")" ] || fail "--since"
tps trend --metric tg --json --until 2025-06-01T05:30:00Z --engine steady
[ "$(jq -r '.series[0].n_runs' "$TMP/out")" = 6 ] || fail "--until: runs 00:00 to 05:00"
tps trend --metric tg --json --engine-version b207-abc
[ "$(jq -r '[.series[] | "\(.engine)=\(.n_runs)"] | join(",")' "$TMP/out")" = "steps=1" ] ||
	fail "--engine-version"
tps trend --metric tg --json --limit 4
jq -e '[.series[].n_runs] | length == 3 and all(. == 4)' "$TMP/out" >/dev/null || fail "--limit 4"
tps trend --metric tg --json --host nowhere
expect_rc 3 "--host the store does not hold"
grep -q "^tpsdb: error: --host 'nowhere': no host of that name in the store (known, closest first: " \
	"$TMP/err" || fail "--host: $(cat "$TMP/err")"
tps trend --until 2025-06-31
expect_rc 2 "bad --until"
exit 0
