#!/usr/bin/env bash
# t0963-check-timings-disagree.sh: check holds each run's server-reported decode
# rate against the client's clock (analyze/clock.h): on tests/data/clock/, the run
# whose server says 500 tok/s while its tokens came at 312 is flagged
# timings-disagree (exit 1, one line naming both rates); the run 8% apart is not;
# runs without a client clock (plain imports) are never flagged.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "$TPSDB_SRC/tests/cli/skip-lib.sh"
need jq
tmp_dir
DB=$tmp/t.sqlite
fail() { echo "FAIL: $*" >&2; exit 1; }

"$TPSDB_BIN" --db "$DB" import "$TPSDB_TEST_DATA/clock/clock.jsonl" >/dev/null
"$TPSDB_BIN" --db "$DB" import --engine plain "$TPSDB_TEST_DATA/import/completion.json" \
	"$TPSDB_TEST_DATA/import/completion-reps.jsonl" >/dev/null
rc=0
"$TPSDB_BIN" --db "$DB" check >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] || fail "exit status $rc: $(cat "$tmp/out" "$tmp/err")"
grep -c 'timings disagree' "$tmp/out" | grep -qx 1 || fail "one finding: $(cat "$tmp/out")"
grep -q '^run 2a681b7b-c585-42b2-8a53-5bdca6e697b8 apart/tiny: timings disagree: the server reports a decode of 500.0 tok/s, the client.s clock saw 312.0 tok/s (+60%, more than the 25% allowed; medians of 4 samples)' \
	"$tmp/out" || fail "the line: $(cat "$tmp/out")"

"$TPSDB_BIN" --db "$DB" check --json >"$tmp/json" || true
test "$(jq -c '[.findings[] | select(.kind == "timings-disagree") | [.engine, .count, .total]]' \
	"$tmp/json")" = '[["apart",1,1]]' || fail "json: $(cat "$tmp/json")"

# The run that agrees, alone: nothing to say.
rc=0
"$TPSDB_BIN" --db "$DB" check --engine agree >"$tmp/out" || rc=$?
grep -q 'timings' "$tmp/out" && fail "agree flagged: $(cat "$tmp/out")"
[ "$rc" = 0 ] || fail "agree: exit status $rc: $(cat "$tmp/out")"
echo ok
