#!/usr/bin/env bash
# t0515: walking the history with runs: --limit keeps the latest n (still oldest
# first), --since/--until bound the start time (a date alone is the whole day,
# an offset is honoured), and --engine, --model, --engine-version, --tag, --host
# and --batch each select what they name. A bad date or limit is a usage error.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
need jq

load_history_versioned
# want <jq select over a fixture line>: the uuids the store should list, in start order.
want() { jq -r "select($1) | [.run.started_at, .run.uuid] | @tsv" "$TMP/h.jsonl" | sort | cut -f2; }
got() { tps runs --json "$@"; expect_rc 0 "runs $*"; jq -r '.[].uuid' "$TMP/out"; }
same() {
	local w="$1"
	shift
	[ "$(got "$@")" = "$(want "$w")" ] || { got "$@" >&2; fail "runs $*"; }
	[ -n "$(want "$w")" ] || fail "the case '$w' selects nothing"
}

same '.run.started_at >= "2025-06-02"' --since 2025-06-02
same '.run.started_at < "2025-06-02"' --until 2025-06-01
same '.run.started_at >= "2025-06-01T05" and .run.started_at <= "2025-06-01T07:00:00.000Z"' \
	--since 2025-06-01T05:00:00Z --until '2025-06-01 07:00'
# 09:00+02:00 is 07:00 UTC.
same '.run.started_at >= "2025-06-01T07"' --since 2025-06-01T09:00:00+02:00
same '.run.engine.label == "steps"' --engine steps
same '.run.model.label == "m1"' --model m1
same '.run.engine.version == "b105"' --engine-version b105
same '.run.tag == "b103"' --tag b103
same '.run.host.name == "h200"' --host h200
same '.run.batch == "B1"' --batch B1
same '.run.batch == "B1" and .run.started_at <= "2025-06-01T03:00:00Z"' --batch B1 --until 2025-06-01T03:00:00Z

# --limit: the latest n, listed oldest first; with a filter, the latest n of those.
[ "$(got --limit 3)" = "$(want 'true' | tail -n 3)" ] || fail "--limit 3"
[ "$(got --limit 2 --engine outlier)" = "$(want '.run.engine.label == "outlier"' | tail -n 2)" ] ||
	fail "--limit 2 --engine outlier"
[ "$(got --limit 1000 | wc -l)" = "$(wc -l <"$TMP/h.jsonl")" ] || fail "--limit past the end"
tps runs --limit 3
expect_rc 0 "text"
[ "$(wc -l <"$TMP/out")" = 4 ] || fail "header and three runs"

for bad in "--since 2025-02-30" "--since yesterday" "--until 2025-06-01T25:00" \
	"--since 2025-6-1" "--until 2025-06-01T10:00:00+2" "--limit 0" "--limit x" "--batch="; do
	# shellcheck disable=SC2086
	tps runs $bad
	expect_rc 2 "runs $bad"
	grep -q '^tpsdb: error: ' "$TMP/err" || fail "error line for $bad"
done

# check and export take the same filters.
tps export --engine-version b105
expect_rc 0 "export --engine-version"
[ "$(jq -r '.run.uuid' "$TMP/out" | sort)" = "$(want '.run.engine.version == "b105"' | sort)" ] ||
	fail "export --engine-version"
tps check --json --since 2025-06-02 --batch B1
expect_rc 0 "check filters"
tps check --since nope
expect_rc 2 "check --since nope"
exit 0
