#!/usr/bin/env bash
# t1216-sweep-undrafted.sh: a spec rung where one side drafted no token did not
# speculate, and sweep's gap line says so instead of explaining the gap as one
# of acceptance or cycle cost. The fixture, tests/data/matrix/pmin075-undrafted,
# is the m1b part (new = v0.4.0, old = b8390; base and n_max 1-3, 3-4 rounds)
# of a CPU matrix collected at p_min 0.75 on both engines: b8390 drafts the
# first token of a cycle and then stops below p_min, v0.4.0 stops before it, so
# on a tiny random-weight model v0.4.0 reported no draft_n in any request. Its
# sums give tokens per cycle 1.00 against b8390's 1.97-2.34, which sweep used to
# call "acceptance is lower ... which the acceptance outweighs".
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
T=$(mktemp -d "${TMPDIR:-/tmp}/tpsdb-t1216.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
DB=$T/s.sqlite
"$TPSDB_BIN" --db "$DB" import "$TPSDB_TEST_DATA/matrix/pmin075-undrafted.jsonl" >/dev/null 2>"$T/err" ||
	fail "import: $(cat "$T/err")"

rc=0
"$TPSDB_BIN" --db "$DB" sweep --ref old --model m1b >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -le 1 ] || fail "sweep exit $rc: $(cat "$T/err")"
grep '^  m1b draft-simple: new ' "$T/out" >"$T/gaps" || fail "no gap lines: $(cat "$T/out")"
# One line a depth, each naming new as the side that did not draft, none naming a
# part of the decomposition as the cause.
for n in 1 2 3; do
	line=$(grep "at n_max=$n[,:]" "$T/gaps") || fail "no gap line at n_max=$n: $(cat "$T/gaps")"
	case $line in
	*", and new drafted no token there (no request reported one)"*) ;;
	*) fail "n_max=$n does not say new drafted nothing: $line" ;;
	esac
	case $line in
	*"acceptance is"* | *outweighs* | *"not the drafter"*) fail "n_max=$n explains by the parts: $line" ;;
	esac
done
# The base rung drafts nothing by design: no such clause.
grep -q 'without speculation.*drafted no token' "$T/gaps" && fail "the base marked: $(cat "$T/gaps")"

# JSON: the side, per gap.
"$TPSDB_BIN" --db "$DB" sweep --ref old --model m1b --json >"$T/json" 2>"$T/err" || [ $? -le 1 ] ||
	fail "sweep --json: $(cat "$T/err")"
python3 - "$T/json" <<'PY' || fail "sweep --json's undrafted"
import json, sys
gaps = [g for g in json.load(open(sys.argv[1]))["gaps"] if g["ours"] == "new" and g["ref"] == "old"]
by = {g["n_max"]: g["undrafted"] for g in gaps}
assert by == {None: None, 1: "ours", 2: "ours", 3: "ours"}, by
PY
echo ok
