#!/usr/bin/env bash
# t0352-collect-until-metric.sh: collect --until-decided --metric tg stops a cell on
# decode's answer alone. Two engines from one binary with a clean decode (--jitter
# 0.002) and a noisy prefill (--pp-jitter 0.3, seeded): --metric tg decides after
# the third round of at most 5, while --metric both runs all 5 (prefill never
# answers). The runs record looks_metric 'tg'; the pp line says it is not watched;
# compare's text and JSON name the one-metric question, and pp's interval still
# pays for the batch's looks (the same level as tg's). Export and import, and
# merge, carry looks_metric. A bad --metric, or --metric without --until-decided,
# is a usage error: one error line, exit 2.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

common=(--model tiny="$MODEL" --prompts "$PROMPTS" --reps 1 --warmup 0 --n-predict 16
	--port "$port" --quiet)
pair=(--engine ours="$FS" --engine aa="$FS" --ours ours)
noisy_pp() {
	echo 0 >"$T/seed-ours"
	echo 100 >"$T/seed-aa"
	args=(--engine-args "ours=--jitter 0.002 --pp-jitter 0.3 --seed-file $T/seed-ours"
		--engine-args "aa=--jitter 0.002 --pp-jitter 0.3 --seed-file $T/seed-aa")
}

# Usage errors: one error line each, exit 2, no store.
for bad in "--until-decided --metric accept" "--until-decided --metric ''" \
	"--metric tg" "--metric both"; do
	eval "extra=($bad)"
	run_tpsdb collect "${pair[@]}" "${extra[@]}" "${common[@]}" --dry-run
	expect_eq "$rc" 2 "usage error for: $bad"
	expect_eq "$(grep -c '^tpsdb: error: ' "$T/stderr")" 1 "one error line for: $bad"
	grep -q -- '--metric' "$T/stderr" || fail "the error names --metric: $(cat "$T/stderr")"
done
[ ! -e "$DB" ] || fail "a usage error made a store"

# --metric both: prefill's noise keeps the cell open to --max-rounds.
noisy_pp
run_tpsdb collect "${pair[@]}" "${args[@]}" --until-decided --max-rounds 5 --metric both \
	"${common[@]}" --out-dir "$OUT/both"
expect_eq "$rc" 0 "exit status (both): $(cat "$T/stderr")"
expect_eq "$(q "SELECT max(round) FROM run")" 5 "both metrics: every round"
expect_eq "$(q "SELECT count(*) FROM run WHERE looks_metric IS NOT NULL")" 0 \
	"--metric both records no one-metric question"
grep -Eq '^open: tiny pp ours vs aa: regression undecided' "$T/stdout" ||
	fail "pp open with both metrics: $(cat "$T/stdout")"
! grep -q 'not watched' "$T/stdout" || fail "a metric not watched with both: $(cat "$T/stdout")"
"$TPSDB_BIN" --db "$DB" compare --ours ours --vs aa --json >"$T/both.json"
python3 -c 'import json, sys; rows = json.load(open(sys.argv[1]))["rows"]
assert rows and all(r["question_metric"] is None for r in rows), rows' "$T/both.json"

# --metric tg: the same servers decide on decode after the third round.
rm -f "$DB"
noisy_pp
run_tpsdb collect "${pair[@]}" "${args[@]}" --until-decided --max-rounds 5 --metric tg \
	"${common[@]}" --out-dir "$OUT/tg"
expect_eq "$rc" 0 "exit status (tg): $(cat "$T/stderr")"
expect_eq "$(q "SELECT max(round) FROM run")" 3 "tg alone: decided after the third round"
expect_eq "$(q "SELECT DISTINCT looks_metric FROM run")" tg "every run records the question"
expect_eq "$(q "SELECT DISTINCT looks_to FROM run")" 5 "and the batch's last look"
grep -Eq '^decided: tiny tg ours vs aa: regression no, .* after 3 rounds, [0-9.]+ s of server time$' \
	"$T/stdout" || fail "tg decided line: $(cat "$T/stdout")"
grep -Eq '^decided: tiny pp ours vs aa: regression undecided, .* s of server time \(not watched: --metric tg\)$' \
	"$T/stdout" || fail "pp not-watched line: $(cat "$T/stdout")"
grep -qx 'until-decided: 0 of 1 cells open' "$T/stdout" || fail "open count: $(cat "$T/stdout")"

# compare names the question, in text and JSON; pp pays the same looks as tg.
batch=$(q "SELECT DISTINCT batch FROM run")
run_tpsdb compare --ours ours --vs aa --batch "$batch"
expect_eq "$rc" 0 "compare: $(cat "$T/stderr")"
expect_eq "$(grep -c 'decided on tg only' "$T/stdout")" 1 "one question line a cell"
grep -qx "tiny: decided on tg only: pp not watched by this batch (--metric tg); pp's interval still pays for its looks" \
	"$T/stdout" || fail "compare's question line: $(cat "$T/stdout")"
"$TPSDB_BIN" --db "$DB" compare --ours ours --vs aa --batch "$batch" --json >"$T/c.json"
python3 - "$T/c.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert sorted(r["metric"] for r in rows) == ["pp", "tg"], rows
for r in rows:
    assert r["question_metric"] == "tg", r
    assert r["rounds"] == 3, r
# pp's rounds were chosen by looks at tg: its interval keeps paying for them.
lv = {r["metric"]: r["ci_level"] for r in rows}
assert lv["pp"] == lv["tg"] and 0.9 < lv["pp"] < 0.99, lv
PY

# gate says it too: a baseline of the other engine's runs of the batch.
"$TPSDB_BIN" --db "$DB" baseline set aa-base --engine aa --batch "$batch" >/dev/null
run_tpsdb gate --baseline aa-base --engine ours --batch "$batch"
grep -qx "  tiny: decided on tg only: pp not watched by this batch (--metric tg); pp's interval still pays for its looks" \
	"$T/stdout" || fail "gate's question line: $(cat "$T/stdout")"
"$TPSDB_BIN" --db "$DB" gate --baseline aa-base --engine ours --batch "$batch" --json \
	>"$T/g.json" || true
python3 - "$T/g.json" <<'PY'
import json, sys
cells = json.load(open(sys.argv[1]))["cells"]
assert cells and all(c["question_metric"] == "tg" for c in cells), cells
PY
# Export and import, and merge, carry the question.
"$TPSDB_BIN" --db "$DB" export --out "$T/runs.jsonl"
grep -q '"looks_metric":"tg"' "$T/runs.jsonl" || fail "export lacks looks_metric"
rc=0
"$TPSDB_BIN" --db "$T/imported.sqlite" import "$T/runs.jsonl" >/dev/null 2>"$T/stderr" || rc=$?
expect_eq "$rc" 0 "import: $(cat "$T/stderr")"
expect_eq "$(sqlite3 "$T/imported.sqlite" "SELECT count(*) FROM run WHERE looks_metric='tg'")" \
	"$(q "SELECT count(*) FROM run")" "import keeps looks_metric"
"$TPSDB_BIN" --db "$T/imported.sqlite" export --out "$T/again.jsonl"
cmp -s "$T/runs.jsonl" "$T/again.jsonl" || fail "export, import, export differ"
rc=0
"$TPSDB_BIN" --db "$T/merged.sqlite" merge "$DB" >/dev/null 2>"$T/stderr" || rc=$?
expect_eq "$rc" 0 "merge: $(cat "$T/stderr")"
expect_eq "$(sqlite3 "$T/merged.sqlite" "SELECT count(*) FROM run WHERE looks_metric='tg'")" \
	"$(q "SELECT count(*) FROM run")" "merge keeps looks_metric"
# An export line with a question of no batch that looked is refused.
sed 's/"looks_to":5,//' "$T/runs.jsonl" | head -n 1 >"$T/bad.jsonl"
rc=0
"$TPSDB_BIN" --db "$T/bad.sqlite" import "$T/bad.jsonl" >/dev/null 2>"$T/stderr" || rc=$?
[ "$rc" -ne 0 ] || fail "a looks_metric without looks_to was imported"
grep -q "looks_metric" "$T/stderr" || fail "the refusal names looks_metric: $(cat "$T/stderr")"
echo ok
