#!/usr/bin/env bash
# t0550-collect-ci-lines.sh: when stderr is not a terminal (a CI log), collect
# prints one plain line per run as it ends: run k of n, round, cell, status,
# ok/failed, the run's pp and tg tok/s, its time; no escape sequence; --quiet
# silences them. Against the real llama-server and the tiny model.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

real_llama
L=$T/llama-server
ln -s "$dir/bin/llama-server" "$L"

run_tpsdb collect --engine ours="$L" --model tiny="$tiny" --rounds 2 --reps 1 \
	--n-predict 16 --port "$port" --out-dir "$OUT" --ban-byte-tokens --tag t0550
[ "$rc" = 0 ] || { tail -n 20 "$T/stderr" >&2; fail "exit status $rc"; }
expect_no_orphans
re='^\[%s/2\] round %s/2 tiny / ours / base: complete, 9 ok, 0 failed, pp [0-9]+\.[0-9] tok/s, tg [0-9]+\.[0-9] tok/s \([0-9]+ s\)$'
for k in 1 2; do
	# shellcheck disable=SC2059
	grep -Eq "$(printf "$re" "$k" "$k")" "$T/stderr" || { cat "$T/stderr" >&2; fail "line of run $k"; }
done
expect_eq "$(grep -c '^\[[0-9]/2\] ' "$T/stderr")" 2 "one line per run"
if grep -q "$(printf '\033')" "$T/stderr" || grep -q "$(printf '\r')" "$T/stderr"; then
	fail "escape sequences in a log"
fi
# The rates printed are the runs' medians as stored.
tg1=$(sed -n 's/^\[1\/2\] .* tg \([0-9.]*\) tok\/s.*/\1/p' "$T/stderr")
want=$("$TPSDB_BIN" --db "$DB" runs --json --tag t0550 | python3 -c '
import json, sys; r = json.load(sys.stdin); print("%.1f" % r[0]["tg_median"])')
expect_eq "$tg1" "$want" "round 1 tg median"

run_tpsdb collect --engine ours="$L" --model tiny="$tiny" --reps 1 --n-predict 16 \
	--port "$port" --out-dir "$OUT" --ban-byte-tokens --quiet
[ "$rc" = 0 ] || fail "--quiet: exit status $rc"
grep -q '^\[1/1\] ' "$T/stderr" && fail "--quiet still prints run lines"
exit 0
