#!/usr/bin/env bash
# t0350-collect-until-decided.sh: collect --until-decided runs rounds until every
# cell of the ours engine against each other engine answers the regression
# question for pp and tg, then stops: an A/A pair (one binary, two labels, tiny
# jitter) answers "no" (and parity) after round 3 of at most 5, ours made 9%
# slower (--slow 1.1) answers "yes" (slower); each decided cell prints its rounds
# and server time, and `compare --batch` agrees, at the batch's per-look level
# (stored as run.looks_to). A decided engine is not started again while another
# stays open. With noise too large to decide, --max-rounds 3 stops at 3 rounds
# with 'open:' lines. Bad combinations are usage errors.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

common=(--model tiny="$MODEL" --prompts "$PROMPTS" --reps 1 --warmup 0 --n-predict 16
	--port "$port" --quiet)

# Usage errors: no --ours, one engine, with --rounds or --aa, --max-rounds alone
# or below 3.
for bad in "--engine A=$FS --engine B=$FS --until-decided" \
	"--engine A=$FS --ours A --until-decided" \
	"--engine A=$FS --engine B=$FS --ours A --until-decided --rounds 3" \
	"--engine A=$FS --engine B=$FS --ours A --until-decided --aa" \
	"--engine A=$FS --engine B=$FS --ours A --max-rounds 4" \
	"--engine A=$FS --engine B=$FS --ours A --until-decided --max-rounds 2" \
	"--engine A=$FS --engine B=$FS --ours A --until-decided --max-rounds 101" \
	"--engine A=$FS --engine B=$FS --ours A --until-decided --question both" \
	"--engine A=$FS --engine B=$FS --ours A --question parity"; do
	# shellcheck disable=SC2086
	run_tpsdb collect $bad "${common[@]}" --dry-run
	expect_eq "$rc" 2 "usage error for: $bad"
	grep -q '^tpsdb: error: ' "$T/stderr" || fail "no error line for: $bad"
done
[ ! -e "$DB" ] || fail "a usage error made a store"

# The dry run plans --max-rounds rounds.
run_tpsdb collect --engine A="$FS" --engine B="$FS" --ours A --until-decided --max-rounds 4 \
	"${common[@]}" --dry-run
expect_eq "$rc" 0 "dry run"
expect_eq "$(wc -l <"$T/stdout" | tr -d ' ')" 8 "dry run plans 4 rounds of 2 runs"

# A/A: one binary under two labels, at most 5 rounds: parity after the third. The
# jitter comes from seeded generators (aa's counter starts at 100, so the two sides
# draw different factors): the run is the same on every machine.
echo 100 >"$T/seed-aa"
run_tpsdb collect --engine ours="$FS" --engine aa="$FS" --ours ours \
	--engine-args "ours=--jitter 0.002 --seed-file $T/seed-ours" \
	--engine-args "aa=--jitter 0.002 --seed-file $T/seed-aa" \
	--until-decided --max-rounds 5 "${common[@]}" --out-dir "$OUT"
expect_eq "$rc" 0 "exit status: $(cat "$T/stderr")"
expect_no_orphans
expect_eq "$(q "SELECT max(round) FROM run")" 3 "rounds stored (decided after the third)"
expect_eq "$(q "SELECT count(*) FROM run")" 6 "runs stored"
for m in pp tg; do
	grep -Eq "^decided: tiny $m ours vs aa: regression no, parity \([+-][0-9]\.[0-9]+% \[[+-][0-9]\.[0-9]+%, [+-][0-9]\.[0-9]+%\]\) after 3 rounds, [0-9]+\.[0-9] s of server time$" \
		"$T/stdout" || fail "A/A $m decided line: $(cat "$T/stdout")"
done
grep -qx 'until-decided: 0 of 1 cells open' "$T/stdout" || fail "open count: $(cat "$T/stdout")"
! grep -q '^open: ' "$T/stdout" || fail "an open line with every cell decided"
expect_eq "$(q "SELECT DISTINCT looks_to FROM run")" 5 "every run records the batch's last look"
batch=$(q "SELECT DISTINCT batch FROM run")
grep -qx "rounds: 3 of 5: batch $batch" "$T/stdout" || fail "footer: $(cat "$T/stdout")"
# The server time is the wall time of the six runs, as the store saw them (at most
# the span from the first start to the last end).
secs=$(sed -n 's/^decided: tiny tg .*, \([0-9.]*\) s of server time$/\1/p' "$T/stdout")
span=$(q "SELECT (julianday(max(ended_at)) - julianday(min(started_at))) * 86400 FROM run")
python3 -c "import sys; s, w = float(sys.argv[1]), float(sys.argv[2]); assert 0 < s <= w + 1, (s, w)" \
	"$secs" "$span" || fail "server time $secs s against a span of $span s"

# Ours made 9% slower (--slow 1.1) against upstream: slower, after the third round,
# and compare --batch reads the same.
rm -f "$DB"
run_tpsdb collect --engine ours="$FS" --engine llama.cpp="$FS" --ours ours \
	--engine-args "ours=--jitter 0.002 --slow 1.1 --seed-file $T/seed-ours" \
	--engine-args "llama.cpp=--jitter 0.002 --seed-file $T/seed-aa" \
	--until-decided "${common[@]}" --out-dir "$OUT/slow"
expect_eq "$rc" 0 "exit status: $(cat "$T/stderr")"
expect_eq "$(q "SELECT max(round) FROM run")" 3 "rounds stored for the regression"
for m in pp tg; do
	grep -Eq "^decided: tiny $m ours vs llama.cpp: regression yes, slower \(-(8|9)\.[0-9]+% \[-[0-9.]+%, -[0-9.]+%\]\) after 3 rounds, [0-9]+\.[0-9] s of server time$" \
		"$T/stdout" || fail "slower $m decided line: $(cat "$T/stdout")"
done
batch=$(q "SELECT DISTINCT batch FROM run")
"$TPSDB_BIN" --db "$DB" compare --ours ours --vs llama.cpp --batch "$batch" --json >"$T/c.json"
python3 - "$T/c.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert len(rows) == 2, rows
for r in rows:
    assert r["verdict"] == "slower" and r["regression"] == "yes" and r["decided"] is True, r
    # The batch could look up to round 10: its interval pays for those looks.
    assert 0.9 < r["ci_level"] < 0.99, r
    assert r["rounds"] == 3 and r["instances_ours"] == 3 and r["instances_vs"] == 3, r
PY

# Noise too large to decide in 3 rounds (a seeded sequence of starts): stops at 3
# rounds with an 'open' line per metric.
rm -f "$DB"
echo 100 >"$T/seed-noisy"
run_tpsdb collect --engine ours="$FS" --engine noisy="$FS" --ours ours \
	--engine-args "ours=--jitter 0.3 --seed-file $T/seed-ours" \
	--engine-args "noisy=--jitter 0.3 --seed-file $T/seed-noisy" \
	--until-decided --max-rounds 3 "${common[@]}" --out-dir "$OUT/2"
expect_eq "$rc" 0 "exit status (open cells are not a failure)"
expect_eq "$(q "SELECT max(round) FROM run")" 3 "stopped at --max-rounds"
expect_eq "$(q "SELECT count(*) FROM run")" 6 "runs stored at --max-rounds"
! grep -q '^decided: ' "$T/stdout" || fail "decided with noise: $(cat "$T/stdout")"
for m in pp tg; do
	grep -Eq "^open: tiny $m ours vs noisy: regression undecided, undecided \([+-][0-9.]+% \[[+-][0-9.]+%, [+-][0-9.]+%\]\) after 3 rounds, [0-9]+\.[0-9] s of server time$" \
		"$T/stdout" || fail "open $m line: $(cat "$T/stdout")"
done
grep -qx 'until-decided: 1 of 1 cells open' "$T/stdout" || fail "open count: $(cat "$T/stdout")"

# GPU time only where it decides: with an A/A engine that decides at round 3 and a
# noisy one that does not by round 5, rounds 4 and 5 start ours and the noisy
# engine only. Its jitter (2%) leaves it a fair chance of an answer at rounds 3
# and 4, so the futility stop (t1170) does not end it; 30% would.
rm -f "$DB"
echo 100 >"$T/seed-noisy"
echo 200 >"$T/seed-aa"
echo 300 >"$T/seed-ours"
run_tpsdb collect --engine ours="$FS" --engine aa="$FS" --engine noisy="$FS" --ours ours \
	--engine-args "ours=--jitter 0.002 --seed-file $T/seed-ours" \
	--engine-args "aa=--jitter 0.002 --seed-file $T/seed-aa" \
	--engine-args "noisy=--jitter 0.02 --seed-file $T/seed-noisy" \
	--until-decided --max-rounds 5 "${common[@]}" --out-dir "$OUT/3"
expect_eq "$rc" 0 "exit status: $(cat "$T/stderr")"
expect_eq "$(q "SELECT count(*) FROM run r JOIN engine e ON e.id=r.engine_id WHERE e.label='aa'")" 3 \
	"the decided engine is not started again"
expect_eq "$(q "SELECT count(*) FROM run r JOIN engine e ON e.id=r.engine_id WHERE e.label='noisy'")" 5 \
	"the open engine runs every round"
expect_eq "$(q "SELECT count(*) FROM run r JOIN engine e ON e.id=r.engine_id WHERE e.label='ours'")" 5 \
	"ours runs while a cell against it is open"
grep -Eq '^decided: tiny tg ours vs aa: regression no' "$T/stdout" || fail "aa decided: $(cat "$T/stdout")"
grep -qx 'until-decided: 1 of 2 cells open' "$T/stdout" || fail "noisy open: $(cat "$T/stdout")"
echo ok
