#!/usr/bin/env bash
# t0901-collect-degenerate.sh: a server whose answers are one short piece repeated
# ("</u></u>...", tests/fault_server.py --answer loop) gets degenerate-output on
# every sample, with its repeat share stored; prose does not. Output identity:
# compare rows say how many (prompt, rep) pairs generated the same text, and
# gate --require-identical-output fails a candidate whose text changed, passes
# one whose text did not; degenerate output is a gate finding that --strict fails.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)
need jq
export TPSDB_HOST_BUSY_PCT=100 # this test is about the output; t0902 is about the host

run_tpsdb collect --engine loop="$FS" --engine text1="$FS" --engine text2="$FS" --ours loop \
	--engine-args loop="--answer loop" --model tiny="$MODEL" --prompts "$PROMPTS" --reps 3 \
	--warmup 1 --n-predict 32 --port "$port" --out-dir "$OUT" --tag t0901
expect_eq "$rc" 0 "collect exit"
expect_no_orphans
expect_eq "$(q "SELECT e.label || ':' || count(*) || ':' || total(x.flags & 64 <> 0) || ':' ||
	min(round(x.repeat_share, 2)) FROM sample x JOIN run r ON r.id=x.run_id
	JOIN engine e ON e.id=r.engine_id GROUP BY e.label ORDER BY e.label")" \
	"$(printf 'loop:6:6.0:0.98\ntext1:6:0.0:0.11\ntext2:6:0.0:0.11')" "flags and shares"

rc=0
"$TPSDB_BIN" --db "$DB" check --json >"$T/check.json" || rc=$?
expect_eq "$rc" 1 "check exit"
expect_eq "$(jq -r '[.findings[] | "\(.engine):\(.kind):\(.count)/\(.total)"] | join(",")' \
	"$T/check.json")" "loop:degenerate-output:6/6" "findings"
expect_eq "$(jq -r '.findings[0].detail' "$T/check.json")" \
	"degenerate output (up to 98% of the text is one short repeated piece)" "detail"

# Output identity in compare: the same prose on both sides, then a loop vs prose.
run_tpsdb compare --ours text2 --vs text1 --json
expect_eq "$rc" 0 "compare text2 exit"
expect_eq "$(jq -r '[.rows[] | "\(.metric):\(.outputs_identical)/\(.outputs_compared)"] | join(",")' \
	"$T/stdout")" "pp:6/6,tg:6/6" "identical outputs"
expect_eq "$(jq -r '.warnings | length' "$T/stdout")" 0 "no warning for clean runs"
run_tpsdb compare --ours loop --vs text1 --json
expect_eq "$(jq -r '[.rows[] | "\(.outputs_identical)/\(.outputs_compared):\(.degenerate_samples)"] | join(",")' \
	"$T/stdout")" "0/6:6,0/6:6" "changed outputs"
expect_match "$(jq -r '.warnings[0]' "$T/stdout")" "6 degenerate-output sample\(s\), an output finding" "degenerate warning"
# An output finding, not the environment's: the rates stand and the cell is judged.
case $(jq -r '.warnings[0]' "$T/stdout") in *environment*) fail "degenerate output called the environment's" ;; esac
case $(jq -r '[.rows[].verdict] | join(",")' "$T/stdout") in *spoiled*) fail "degenerate output spoiled a cell" ;; esac
run_tpsdb compare --ours loop --vs text1 --strict
expect_eq "$rc" 1 "compare --strict over degenerate output"

# gate: a latency-only change must not change the text.
"$TPSDB_BIN" --db "$DB" baseline set base --engine text1 >/dev/null
run_tpsdb gate --baseline base --engine text2 --require-identical-output
expect_eq "$rc" 0 "identical outputs pass"
expect_match "$(cat "$T/stdout")" "outputs pass: tiny: 6 of 6 outputs identical" "pass line"
run_tpsdb gate --baseline base --engine loop --require-identical-output --json
expect_eq "$rc" 1 "changed outputs fail"
expect_eq "$(jq -r '.outputs[0] | "\(.status) \(.outputs_identical)/\(.outputs_compared)"' "$T/stdout")" \
	"fail 0/6" "outputs entry"
expect_eq "$(jq -r '[.cells[] | .outputs_identical] | unique | join(",")' "$T/stdout")" "0" "rows"
# Without the option the same gate passes (same rates), the loop noted as a finding...
run_tpsdb gate --baseline base --engine loop
expect_eq "$rc" 0 "gate without --strict"
expect_match "$(cat "$T/stdout")" "finding: tiny: 6 of 6 samples of run [0-9a-f-]+ are degenerate-output" "finding line"
# ... and --strict fails it.
run_tpsdb gate --baseline base --engine loop --strict
expect_eq "$rc" 1 "gate --strict over degenerate output"
echo ok
