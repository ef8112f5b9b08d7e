#!/usr/bin/env bash
# t0353-collect-design.sh: collect --until-decided without --reps takes the design
# 'tpsdb plan' finds cheapest from this host's stored runs of the cell: the reps of
# every prompt of plan's both-metric design (--metric tg: of its tg row), printed
# on a 'design:' line before the first round and asked of every run. Two engines
# from one binary whose requests scatter far more than their starts (--req-jitter
# 0.15, --jitter 0.003): one earlier batch of 3 rounds at 3 reps is the history, and
# plan asks for more reps than the default 1. Another host's history is not used
# (the default, said so), nor a history at another n_predict; --reps sets it and
# prints no design line. Each model gets its own design: a model without history
# the default beside another's planned reps, named on one line.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

pair=(--engine ours="$FS" --engine aa="$FS" --ours ours
	--engine-args "ours=--jitter 0.003 --req-jitter 0.15"
	--engine-args "aa=--jitter 0.003 --req-jitter 0.15")
common=(--model tiny="$MODEL" --prompts "$PROMPTS" --warmup 0 --n-predict 16 --port "$port"
	--quiet)

# reps_of <batch>: the distinct samples per run of a batch, one line each.
reps_of() { q "SELECT DISTINCT (SELECT count(*) FROM sample s WHERE s.run_id = r.id)
	FROM run r WHERE r.batch = '$1'"; }
newest_batch() { q "SELECT batch FROM run ORDER BY id DESC LIMIT 1"; }
# plan_reps <metric: both, pp or tg>: plan's reps for the cell at --max-rounds 5.
plan_reps() {
	"$TPSDB_BIN" --db "$DB" plan --ours ours --vs aa --host h1 --max-rounds 5 --json \
		>"$T/plan.json" || fail "plan: $?"
	python3 - "$T/plan.json" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if sys.argv[2] == "both":
    (c,) = d["cells"]
    print(c["plan"]["reps"])
else:
    (r,) = [r for r in d["rows"] if r["metric"] == sys.argv[2]]
    print(r["plan"]["reps"])
PY
}

# No history: the default design, and the line says so.
run_tpsdb collect "${pair[@]}" "${common[@]}" --host h1 --until-decided --max-rounds 3 \
	--out-dir "$OUT/0"
expect_eq "$rc" 0 "first batch: $(cat "$T/stderr")"
grep -qx 'design: 1 rep of every prompt, the default (no stored cell of host h1 to plan from; tpsdb plan says why)' \
	"$T/stdout" || fail "no-history design line: $(cat "$T/stdout")"
expect_eq "$(reps_of "$(newest_batch)")" 2 "the default: 2 prompts x 1 rep"

# Without --host the line names this host, as its runs do.
run_tpsdb collect "${pair[@]}" "${common[@]}" --until-decided --max-rounds 3 --out-dir "$OUT/00"
expect_eq "$rc" 0 "no --host: $(cat "$T/stderr")"
me=$(q "SELECT DISTINCT h.name FROM run r JOIN host h ON h.id = r.host_id WHERE r.batch = '$(newest_batch)'")
grep -qxF "design: 1 rep of every prompt, the default (no stored cell of host $me to plan from; tpsdb plan says why)" \
	"$T/stdout" || fail "no --host: the line names host '$me': $(cat "$T/stdout")"

# The history: 3 rounds at 3 reps on host h1.
rm -f "$DB"
run_tpsdb collect "${pair[@]}" "${common[@]}" --host h1 --reps 3 --rounds 3 --out-dir "$OUT/1"
expect_eq "$rc" 0 "history: $(cat "$T/stderr")"
! grep -q '^design:' "$T/stdout" || fail "a design line without --until-decided"
want=$(plan_reps both)
[ "$want" -gt 1 ] || fail "plan asks no more than the default: $want"

# Planned: plan's both-metric reps, asked of every run of the batch.
run_tpsdb collect "${pair[@]}" "${common[@]}" --host h1 --until-decided --max-rounds 5 \
	--out-dir "$OUT/2"
expect_eq "$rc" 0 "planned batch: $(cat "$T/stderr")"
grep -Eq "^design: $want reps of every prompt, planned from 1 stored cell of host h1 \((for [0-9]+ rounds|none in reach of --max-rounds); --reps sets it\)$" \
	"$T/stdout" || fail "planned design line (want $want reps): $(cat "$T/stdout")"
expect_eq "$(reps_of "$(newest_batch)")" "$((2 * want))" "every run asks 2 prompts x $want reps"
[ "$(sed -n '1p' "$T/stdout" | cut -d: -f1)" = design ] || fail "the design line is not first"

# --metric tg plans for decode alone: plan's tg row (the history now holds two
# batches, as plan reads it).
want=$(plan_reps tg)
run_tpsdb collect "${pair[@]}" "${common[@]}" --host h1 --until-decided --max-rounds 5 \
	--metric tg --out-dir "$OUT/3"
expect_eq "$rc" 0 "tg batch: $(cat "$T/stderr")"
grep -Eq "^design: $want reps? of every prompt, planned from 1 stored cell of host h1 " \
	"$T/stdout" || fail "tg design line (want $want): $(cat "$T/stdout")"
expect_eq "$(reps_of "$(newest_batch)")" "$((2 * want))" "tg: every run asks 2 prompts x $want reps"

# Another host: h1's history is not its own.
run_tpsdb collect "${pair[@]}" "${common[@]}" --host h2 --until-decided --max-rounds 3 \
	--out-dir "$OUT/4"
expect_eq "$rc" 0 "other host: $(cat "$T/stderr")"
grep -qx 'design: 1 rep of every prompt, the default (no stored cell of host h2 to plan from; tpsdb plan says why)' \
	"$T/stdout" || fail "other host's design line: $(cat "$T/stdout")"
expect_eq "$(reps_of "$(newest_batch)")" 2 "other host: the default"

# Another n_predict measures another cell: not planned from.
run_tpsdb collect "${pair[@]}" --model tiny="$MODEL" --prompts "$PROMPTS" --warmup 0 \
	--n-predict 8 --port "$port" --quiet --host h1 --until-decided --max-rounds 3 --out-dir "$OUT/5"
expect_eq "$rc" 0 "n_predict 8: $(cat "$T/stderr")"
grep -q '^design: 1 rep of every prompt, the default (no stored cell of host h1' "$T/stdout" ||
	fail "n_predict 8 design line: $(cat "$T/stdout")"

# --reps is the user's: no plan, no design line.
run_tpsdb collect "${pair[@]}" "${common[@]}" --host h1 --until-decided --max-rounds 3 \
	--reps 2 --out-dir "$OUT/6"
expect_eq "$rc" 0 "--reps 2: $(cat "$T/stderr")"
! grep -q '^design:' "$T/stdout" || fail "a design line with --reps: $(cat "$T/stdout")"
expect_eq "$(reps_of "$(newest_batch)")" 4 "--reps 2: 2 prompts x 2 reps"

# Each model its own design: tiny's planned reps, big (no history) the default, on
# one line, and every run asks its own model's reps.
want=$(plan_reps both)
cp "$MODEL" "$T/big-Q4_K_M.gguf"
run_tpsdb collect "${pair[@]}" "${common[@]}" --model big="$T/big-Q4_K_M.gguf" --host h1 \
	--until-decided --max-rounds 5 --out-dir "$OUT/7"
expect_eq "$rc" 0 "two models: $(cat "$T/stderr")"
grep -Eq "^design: tiny $want reps \((for [0-9]+ rounds|none in reach of --max-rounds)\), big 1 rep \(the default\), of every prompt, planned from 1 stored cell of host h1 \(--reps sets it\)$" \
	"$T/stdout" || fail "per-model design line (want tiny $want): $(cat "$T/stdout")"
b=$(newest_batch)
expect_eq "$(q "SELECT DISTINCT m.label || ' ' || (SELECT count(*) FROM sample s WHERE s.run_id = r.id)
	FROM run r JOIN model m ON m.id = r.model_id WHERE r.batch = '$b' ORDER BY 1" | tr '\n' ' ')" \
	"big 2 tiny $((2 * want)) " "each model's runs ask its own reps"
expect_no_orphans
echo ok
