#!/usr/bin/env bash
# t0517: report takes the run filters: its tables hold the latest run of each cell
# among the runs --engine-version, --since, --until and --batch select.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
need jq

load_history_versioned
latest() { # latest <jq select>: per engine, the uuid of the newest run selected
	jq -rs "[.[] | select($1) | .run] | group_by(.engine.label) |
		map(max_by(.started_at) | .uuid) | sort | join(\",\")" "$TMP/h.jsonl"
}
runs() { tps report --format json "$@"; expect_rc 0 "report $*"; jq -r '[.runs[].run] | sort | join(",")' "$TMP/out"; }

[ "$(runs --engine-version b105)" = "$(latest '.run.engine.version == "b105"')" ] || fail "--engine-version"
[ "$(runs --until 2025-06-01)" = "$(latest '.run.started_at < "2025-06-02"')" ] || fail "--until"
[ "$(runs --since 2025-06-02)" = "$(latest '.run.started_at >= "2025-06-02"')" ] || fail "--since"
[ "$(runs --batch B1)" = "$(latest '.run.batch == "B1"')" ] || fail "--batch"
[ "$(runs --until 2025-06-01)" != "$(runs)" ] || fail "the filter changes the report"
tps report --format json --since 2025-99-01
expect_rc 2 "bad --since"
exit 0
