#!/usr/bin/env bash
# t0418-compare-intermittent.sh: an engine slow on some of its starts is answered
# "intermittent", not left out as outliers and answered "no". Ten rounds of two
# engines over the fault server; A is 3x slower on 2 starts of every 10
# (--slow-starts 2/10, rounds 5 and 10), B clean: compare --json and text name it,
# gate --fail-on regression fails on it and names it (text, JSON, JUnit, the
# annotations and step summary), the report names it in its tables, the
# until-decided question counts it decided. A/A with one glitch on each side (1
# slow start in 10 each) is a host glitch, left out, not intermittent.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)
need jq

common=(--engine A="$FS" --engine B="$FS" --ours A --model tiny="$MODEL" --prompts "$PROMPTS"
	--reps 1 --warmup 0 --n-predict 16 --port "$port" --quiet --rounds 10)
echo 0 >"$T/seed-a"
echo 50 >"$T/seed-b"
run_tpsdb collect "${common[@]}" \
	--engine-args "A=--jitter 0.01 --seed-file $T/seed-a --slow-starts 2/10" \
	--engine-args "B=--jitter 0.01 --seed-file $T/seed-b" --out-dir "$OUT/1"
expect_eq "$rc" 0 "collect: $(cat "$T/stderr")"

"$TPSDB_BIN" --db "$DB" compare --ours A --vs B --json >"$T/c.json" || fail "compare --json"
jq -e '.rows | length == 2' "$T/c.json" >/dev/null || fail "two rows"
jq -e 'all(.rows[]; .regression == "intermittent" and .verdict == "intermittent" and
	.slow_instances_ours == 2 and .decided == false and
	(.outlier_instances | length) == 2 and all(.outlier_instances[]; .side == "ours"))' \
	"$T/c.json" >/dev/null || fail "intermittent in JSON: $(cat "$T/c.json")"
"$TPSDB_BIN" --db "$DB" compare --ours A --vs B >"$T/c.txt" || fail "compare"
grep -q '^tiny tg: regression intermittent: 2 of 10 instances of ours ran far slower than its others and none of vs.s did' \
	"$T/c.txt" || fail "compare text: $(cat "$T/c.txt")"
grep -q '^A vs B: pp 1 intermittent (slow on some starts); tg 1 intermittent (slow on some starts)' \
	"$T/c.txt" || fail "the one-line answer: $(cat "$T/c.txt")"
"$TPSDB_BIN" --db "$DB" compare --ours A --vs B --format md >"$T/c.md" || fail "compare md"
grep -q '| \*\*intermittent\*\* | intermittent |' "$T/c.md" || fail "md row: $(cat "$T/c.md")"
"$TPSDB_BIN" --db "$DB" compare --ours A --vs B --format csv >"$T/c.csv" || fail "compare csv"
grep -q ',intermittent,' "$T/c.csv" || fail "csv: $(cat "$T/c.csv")"

# The report's tables and answers name it too.
"$TPSDB_BIN" --db "$DB" report --out "$T/rep" --no-plots >/dev/null || fail "report"
grep -q '(A: [-+][0-9.]*% intermittent / [-+][0-9.]*% intermittent)' "$T/rep/report.md" ||
	fail "report cell: $(cat "$T/rep/report.md")"
grep -q 'pp 1 intermittent (slow on some starts)' "$T/rep/report.md" || fail "report answer"

# The gate fails it as a regression and names it.
"$TPSDB_BIN" --db "$DB" baseline set b --engine B >/dev/null || fail "baseline set"
run_tpsdb gate --baseline b --engine A --fail-on regression --junit "$T/j.xml"
expect_eq "$rc" 1 "gate --fail-on regression fails: $(cat "$T/stdout")"
grep -q 'INTERMITTENT' "$T/stdout" || fail "gate table: $(cat "$T/stdout")"
grep -q '^  intermittent FAIL: tiny tg: regression intermittent: 2 of 10 instances' "$T/stdout" ||
	fail "gate line: $(cat "$T/stdout")"
grep -q '<failure message="[^"]*regression intermittent' "$T/j.xml" || fail "junit: $(cat "$T/j.xml")"
run_tpsdb gate --baseline b --engine A --fail-on regression --json
expect_eq "$rc" 1 "gate --json"
jq -e 'all(.cells[]; .status == "intermittent" and .regression == "intermittent")' "$T/stdout" \
	>/dev/null || fail "gate json: $(cat "$T/stdout")"
GITHUB_STEP_SUMMARY=$T/summary.md GITHUB_ACTIONS=true run_tpsdb gate --baseline b --engine A
expect_eq "$rc" 1 "gate, default --fail-on"
grep -q '^::error .*regression intermittent' "$T/stdout" || fail "annotation: $(cat "$T/stdout")"
grep -q '^Slow on some starts:' "$T/summary.md" || fail "step summary: $(cat "$T/summary.md")"

# collect --until-decided, A's counter started at 3 so that its slow starts fall
# in rounds 2 and 7: the second round's holds the answer open from the first
# look (one slow start is not yet told from a glitch), the seventh's decides it,
# intermittent, and the batch stops there. (A slow start that comes after a
# batch decided is not seen: docs/PERFORMANCE.md.)
DB=$T/until.sqlite
echo 3 >"$T/seed-a"
echo 50 >"$T/seed-b"
until_args=()
for a in "${common[@]}"; do [ "$a" = --rounds ] && break; until_args+=("$a"); done
run_tpsdb collect "${until_args[@]}" --until-decided --max-rounds 10 \
	--engine-args "A=--jitter 0.01 --seed-file $T/seed-a --slow-starts 2/10" \
	--engine-args "B=--jitter 0.01 --seed-file $T/seed-b" --out-dir "$OUT/u"
expect_eq "$rc" 0 "collect --until-decided: $(cat "$T/stderr")"
grep -q 'tiny tg A vs B: regression intermittent, intermittent .* after 7 rounds' "$T/stdout" ||
	fail "until line: $(cat "$T/stdout")"

# A/A with one glitch on each side (the 10th start of each): left out as today.
DB=$T/aa.sqlite
echo 0 >"$T/seed-a"
echo 50 >"$T/seed-b"
run_tpsdb collect "${common[@]}" \
	--engine-args "A=--jitter 0.01 --seed-file $T/seed-a --slow-starts 1/10" \
	--engine-args "B=--jitter 0.01 --seed-file $T/seed-b --slow-starts 1/10" --out-dir "$OUT/2"
expect_eq "$rc" 0 "collect A/A: $(cat "$T/stderr")"
"$TPSDB_BIN" --db "$DB" compare --ours A --vs B --json >"$T/aa.json" || fail "compare A/A"
jq -e 'all(.rows[]; .regression != "intermittent" and .slow_instances_ours == 1 and
	([.outlier_instances[].side] | sort) == ["ours","vs"])' "$T/aa.json" >/dev/null ||
	fail "A/A glitches: $(cat "$T/aa.json")"
exit 0
