#!/usr/bin/env bash
# t0108-merge-refuse-bad.sh: merge applies import's rules to every run of its source
# (issue 29, item 2). A source run that another tool damaged (an env that is not a
# JSON object, or holds NaN; a huge looks_to; an infinite time; flags or ignore_eos
# wider than 32 bits; a seed no JSON number carries) is refused: exit 3, one error line naming the
# source, the target byte for byte as it was, a missing target not created. Before,
# each merged with exit 0 and the merged store's export no longer imported.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need sqlite3
tmp_dir
D=$TPSDB_TEST_DATA/import
A=$tmp/a.db

"$TPSDB_BIN" --db "$A" import --host a --engine ours "$D/completion.json" >/dev/null
"$TPSDB_BIN" --db "$A" export >"$tmp/ea"
sum=$(sha256sum "$A" | cut -d' ' -f1)

# bad <name> <sql>: a source of one good and one damaged run must be refused whole.
bad() {
	local src=$tmp/$1.db rc
	"$TPSDB_BIN" --db "$src" import --host b --engine up "$D/eos.json" >/dev/null
	"$TPSDB_BIN" --db "$src" import --host b --engine ours "$D/completion-reps.jsonl" >/dev/null
	sqlite3 "$src" "$2"
	rc=0; "$TPSDB_BIN" --db "$A" merge "$src" >"$tmp/out" 2>"$tmp/err" || rc=$?
	test $rc = 3 || { echo "FAIL: $1: exit $rc, want 3" >&2; cat "$tmp/err" >&2; exit 1; }
	test "$(wc -l <"$tmp/err")" = 1 && grep -q "^tpsdb: error: '$src': run .*; nothing was merged$" "$tmp/err" ||
		{ echo "FAIL: $1: not one error line naming the source:" >&2; cat "$tmp/err" >&2; exit 1; }
	grep -q -- "$3" "$tmp/err" || { echo "FAIL: $1: does not say '$3'" >&2; exit 1; }
	test ! -s "$tmp/out"
	test "$(sha256sum "$A" | cut -d' ' -f1)" = "$sum"
	"$TPSDB_BIN" --db "$A" export | cmp - "$tmp/ea"
	rc=0; "$TPSDB_BIN" --db "$tmp/new.db" merge "$src" 2>/dev/null || rc=$?
	test $rc = 3 && test ! -e "$tmp/new.db"
}
last="WHERE id = (SELECT max(id) FROM run)"
bad env-text "UPDATE run SET env = 'not json' $last" "'run.env' is not a JSON object"
bad env-nan "UPDATE run SET env = '{\"a\":NaN}' $last" "'run.env' is not a JSON object"
bad looks-to "UPDATE run SET looks_to = 1000000000000 $last" "'run.looks_to' is not a round number"
bad seed "UPDATE run SET seed = 4611686018427387904 $last" "'run.seed' is out of range"
bad wide-eos "UPDATE run SET ignore_eos = 4294967297 $last" "'run.ignore_eos' is not 0 or 1"
bad inf-ms "UPDATE sample SET prompt_ms = 9e999 WHERE id = (SELECT max(id) FROM sample)" "'prompt_ms' is negative, not finite"
bad wide-flags "UPDATE sample SET flags = 4294967304 WHERE id = (SELECT max(id) FROM sample)" "'flags' has unknown bits"

# A clean source still merges, and the merged store's export imports again.
"$TPSDB_BIN" --db "$tmp/good.db" import --host b --engine up "$D/eos.json" >/dev/null
"$TPSDB_BIN" --db "$A" merge "$tmp/good.db" >"$tmp/out"
test "$(cat "$tmp/out")" = "merged 1 runs, 0 already present"
"$TPSDB_BIN" --db "$A" export >"$tmp/em"
"$TPSDB_BIN" --db "$tmp/re.db" import "$tmp/em" >/dev/null
"$TPSDB_BIN" --db "$tmp/re.db" export | cmp - "$tmp/em"
