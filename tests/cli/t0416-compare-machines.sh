#!/usr/bin/env bash
# t0416-compare-machines.sh: a comparison is on one machine. Store A holds ours
# and llama.cpp from host vm (an "H200"); store B only ours from host beta (an
# "H100", 0.7x the rate), a day later; B is merged into A. compare pools the
# newest batch that measured both sides (A's, on vm), not ours' newer one-sided
# batch from beta; gate against a baseline frozen on vm refuses the candidate's
# beta runs, naming both machines (exit 3), and --across-machines gates them
# unpaired with the machines named in text, markdown, JSON, the step summary and
# JUnit. Where the sides' newest runs are on different machines and no batch
# holds both, compare refuses the same way, and --across-machines compares
# unpaired (Welch), warned in every output; the same host name with another GPU
# is another machine.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port 90)
need jq

common=(--model tiny="$MODEL" --prompts "$PROMPTS" --reps 1 --warmup 0 --n-predict 16
	--rounds 3 --quiet)
# collect_into <db> <port> <host> <gpu> <engine args...>
collect_into() {
	local db=$1 port=$2 host=$3 gpu=$4
	shift 4
	rc=0
	"$TPSDB_BIN" --db "$db" collect "$@" --host "$host" --gpu-name "$gpu" --driver 570.86.15 \
		--cuda 12.8 --port "$port" --out-dir "$OUT/$port" "${common[@]}" \
		>"$T/stdout" 2>"$T/stderr" || rc=$?
	expect_eq "$rc" 0 "collect into $db: $(cat "$T/stderr")"
}
H200="NVIDIA H200"
H100="NVIDIA H100 80GB HBM3"

# A: ours and llama.cpp on vm (the same server: an A/A pair), a baseline of ours.
collect_into "$T/a.db" "$port" vm "$H200" --engine ours="$FS" --engine llama.cpp="$FS" \
	--ours ours
DB=$T/a.db
run_tpsdb baseline set base --engine ours
expect_eq "$rc" 0 "baseline set: $(cat "$T/stderr")"
# B: ours alone on beta, 0.7x the rate.
collect_into "$T/b.db" $((port + 10)) beta "$H100" --engine ours="$FS" \
	--engine-args "ours=--slow 1.43"
# C: llama.cpp alone on vm; D: ours alone on a host also named vm, another GPU.
collect_into "$T/c.db" $((port + 20)) vm "$H200" --engine llama.cpp="$FS"
collect_into "$T/d.db" $((port + 30)) vm "$H100" --engine ours="$FS" --engine-args "ours=--slow 1.43"

cp "$T/a.db" "$T/m.db"
DB=$T/m.db
run_tpsdb merge "$T/b.db"
expect_eq "$rc" 0 "merge b: $(cat "$T/stderr")"

# 1. compare: the newest batch both sides measured (vm's), not beta's newer one.
run_tpsdb compare --ours ours --vs llama.cpp --metric tg --json
expect_eq "$rc" 0 "compare after the merge: $(cat "$T/stderr")"
jq -e '.rows[0].ours_machine == "vm (NVIDIA H200, driver 570.86.15, CUDA 12.8)" and
	.rows[0].vs_machine == .rows[0].ours_machine and .rows[0].across_machines == false' \
	"$T/stdout" >/dev/null || fail "compare pools vm's batch: $(jq -c '.rows[0]' "$T/stdout")"
jq -e '.rows[0].regression != "yes" and .rows[0].rounds == 3' "$T/stdout" >/dev/null ||
	fail "the A/A pair of vm's batch is no regression: $(jq -c '.rows[0]' "$T/stdout")"
a_batch=$(sqlite3 "$T/a.db" "SELECT DISTINCT batch FROM run")
ours_run=$(jq -r '.rows[0].ours_run' "$T/stdout")
expect_eq "$(q "SELECT batch FROM run WHERE uuid='$ours_run'")" "$a_batch" "ours' pooled batch"

# The report shows the runs its comparison took: vm's, one machine.
run_tpsdb report --format json
jq -e '[.runs[] | .machine[0:4]] == ["vm (", "vm ("]' "$T/stdout" >/dev/null ||
	fail "the report's runs are the compared batch's: $(jq -c '.runs' "$T/stdout")"
# ... and says so: every number is vm's, none comes from beta's runs (t1195).
jq -e '[.machines[] | [.machine[0:4], .used]] == [["vm (", true], ["beta", false]] and
	([.answers[].machines[0][0:4]] | unique) == ["vm ("]' "$T/stdout" >/dev/null ||
	fail "the report's machines: $(jq -c '.machines, [.answers[].machines]' "$T/stdout")"
run_tpsdb report
grep -q "^Every number in the tables below was measured on vm (NVIDIA H200, driver 570.86.15, CUDA 12.8)\. .* no number in these tables comes from the runs of beta " \
	"$T/stdout" || fail "the report's note: $(head -4 "$T/stdout")"

# trend: a series comes from one machine: ours' vm and beta runs are two series
# (no -30% change point between them), each named by its machine.
run_tpsdb trend --metric tg --json
expect_eq "$rc" 0 "trend: $(cat "$T/stderr")"
jq -e '[.series[] | select(.engine == "ours") | [.machine[0:4], .n_runs, (.change_points | length)]]
	== [["beta", 3, 0], ["vm (", 3, 0]]' "$T/stdout" >/dev/null ||
	fail "trend series per machine: $(cat "$T/stdout")"
run_tpsdb trend --metric tg
grep -q "^ours on beta (NVIDIA H100 80GB HBM3, driver 570.86.15, CUDA 12.8) " "$T/stdout" ||
	fail "trend names the machines: $(cat "$T/stdout")"
# runs: two machines, a MACHINE column.
run_tpsdb runs
head -n 1 "$T/stdout" | grep -q '^STARTED *UUID *STATUS *HOST *MACHINE *ENGINE' ||
	fail "runs: $(head -n 2 "$T/stdout")"
grep -q " beta  *beta (NVIDIA H100 80GB HBM3, driver 570.86.15, CUDA 12.8) " "$T/stdout" ||
	fail "runs names the machine: $(cat "$T/stdout")"

# 2. gate against the baseline frozen on vm: refused, both machines named.
run_tpsdb gate --baseline base --engine ours
expect_eq "$rc" 3 "gate across machines refuses: $(cat "$T/stdout")"
expect_eq "$(wc -l <"$T/stderr")" 1 "one line"
grep -q "^tpsdb: error: refusing to gate cell 'tiny' against baseline 'base': measured on different machines: the candidate on 'beta (NVIDIA H100 80GB HBM3, driver 570.86.15, CUDA 12.8)', the baseline on 'vm (NVIDIA H200, driver 570.86.15, CUDA 12.8)' (--across-machines" \
	"$T/stderr" || fail "gate's refusal: $(cat "$T/stderr")"
[ ! -s "$T/stdout" ] || fail "a refusal writes no verdict: $(cat "$T/stdout")"
run_tpsdb gate --baseline base --engine ours --json
expect_eq "$rc" 3 "gate --json refuses"
jq -e '.pass == false and .status == "refused" and .refused.reason == "machines-differ" and
	(.refused.candidate_machine | startswith("beta (")) and
	(.refused.baseline_machine | startswith("vm (")) and .cells == []' "$T/stdout" >/dev/null ||
	fail "gate's refusal in JSON: $(cat "$T/stdout")"

# --across-machines: gated, unpaired, the machines in every output.
rm -f "$T/summary.md" "$T/junit.xml"
GITHUB_STEP_SUMMARY=$T/summary.md run_tpsdb gate --baseline base --engine ours --metric tg \
	--across-machines --junit "$T/junit.xml"
expect_eq "$rc" 1 "the H100 is slower: FAIL ($(cat "$T/stdout"))"
grep -q "^  ACROSS MACHINES: cell 'tiny' gated unpaired against baseline 'base' (--across-machines), measured on different machines: the candidate on 'beta" \
	"$T/stdout" || fail "text names the machines: $(cat "$T/stdout")"
grep -q "warning: ACROSS MACHINES" "$T/stderr" || fail "stderr warns: $(cat "$T/stderr")"
grep -q "^\*\*ACROSS MACHINES: cell 'tiny' gated unpaired" "$T/summary.md" ||
	fail "step summary: $(cat "$T/summary.md")"
grep -q '<property name="across_machines" value="ACROSS MACHINES: cell' "$T/junit.xml" ||
	fail "JUnit property: $(cat "$T/junit.xml")"
grep -q 'name="tiny tg (across machines)"' "$T/junit.xml" || fail "JUnit case: $(cat "$T/junit.xml")"
run_tpsdb gate --baseline base --engine ours --metric tg --across-machines --format md
grep -q "^\*\*ACROSS MACHINES: cell 'tiny' gated unpaired" "$T/stdout" ||
	fail "markdown: $(cat "$T/stdout")"
run_tpsdb gate --baseline base --engine ours --metric tg --across-machines --json
jq -e '.across_machines == 1 and .cells[0].across_machines == true and
	(.cells[0].candidate_machine | startswith("beta (NVIDIA H100")) and
	(.cells[0].baseline_machine | startswith("vm (NVIDIA H200")) and
	.cells[0].method == "welch" and .cells[0].rounds == 0 and
	(.warnings | map(select(startswith("ACROSS MACHINES"))) | length == 1)' "$T/stdout" \
	>/dev/null || fail "gate JSON: $(cat "$T/stdout")"
# The candidate's batch on the baseline's machine is gated as before.
run_tpsdb gate --baseline base --engine ours --metric tg --batch "$a_batch"
expect_eq "$rc" 0 "gate of vm's batch passes: $(cat "$T/stdout") $(cat "$T/stderr")"

# 3. No batch holds both sides: ours only on beta, llama.cpp only on vm.
cp "$T/c.db" "$T/n.db"
DB=$T/n.db
run_tpsdb merge "$T/b.db"
expect_eq "$rc" 0 "merge b into c: $(cat "$T/stderr")"
run_tpsdb compare --ours ours --vs llama.cpp --metric tg --json
expect_eq "$rc" 3 "compare across machines refuses: $(cat "$T/stdout")"
expect_eq "$(wc -l <"$T/stderr")" 1 "one line"
grep -q "^tpsdb: error: refusing to compare cell 'tiny': measured on different machines: ours on 'beta (NVIDIA H100 80GB HBM3, driver 570.86.15, CUDA 12.8)', llama.cpp on 'vm (NVIDIA H200, driver 570.86.15, CUDA 12.8)' (--across-machines" \
	"$T/stderr" || fail "compare's refusal: $(cat "$T/stderr")"
jq -e '.rows == [] and .refused.reason == "machines-differ" and .refused.cell == "tiny" and
	([.refused.runs[] | [.engine, .machine[0:4]]] == [["ours", "beta"], ["llama.cpp", "vm ("]])' \
	"$T/stdout" >/dev/null || fail "compare's refusal in JSON: $(cat "$T/stdout")"
rm -f "$T/summary.md"
GITHUB_STEP_SUMMARY=$T/summary.md run_tpsdb compare --ours ours --vs llama.cpp --metric tg \
	--across-machines
expect_eq "$rc" 0 "compare --across-machines: $(cat "$T/stderr")"
sed -n 2p "$T/stdout" | grep -q "^ACROSS MACHINES: cell 'tiny' compared unpaired (--across-machines), measured on different machines: ours on 'beta" ||
	fail "text: the line under the answer: $(cat "$T/stdout")"
grep -q "warning: ACROSS MACHINES" "$T/stderr" || fail "stderr warns: $(cat "$T/stderr")"
grep -q "^\*\*ACROSS MACHINES: cell 'tiny' compared unpaired" "$T/summary.md" ||
	fail "step summary: $(cat "$T/summary.md")"
run_tpsdb compare --ours ours --vs llama.cpp --metric tg --across-machines --format md
grep -q "^\*\*ACROSS MACHINES: cell 'tiny' compared unpaired" "$T/stdout" ||
	fail "markdown: $(cat "$T/stdout")"
run_tpsdb compare --ours ours --vs llama.cpp --metric tg --across-machines --json
jq -e '.rows[0].across_machines == true and .rows[0].method == "welch" and
	.rows[0].rounds == 0 and (.rows[0].ours_machine | startswith("beta (")) and
	(.rows[0].vs_machine | startswith("vm (")) and
	(.warnings | map(select(startswith("ACROSS MACHINES"))) | length == 1)' "$T/stdout" \
	>/dev/null || fail "compare JSON: $(cat "$T/stdout")"

# The report: a section per machine, the cell not comparable, both machines named.
run_tpsdb report --format md
expect_eq "$rc" 0 "report: $(cat "$T/stderr")"
grep -q "^## Machines" "$T/stdout" || fail "report: no Machines section: $(cat "$T/stdout")"
grep -q "^- beta (NVIDIA H100 80GB HBM3, driver 570.86.15, CUDA 12.8): ours" "$T/stdout" ||
	fail "report lists beta's engines: $(cat "$T/stdout")"
grep -q "cell 'tiny' not comparable: measured on different machines: ours on 'beta" \
	"$T/stdout" || fail "report names why: $(cat "$T/stdout")"

# 4. The same host name with another GPU is another machine.
cp "$T/c.db" "$T/g.db"
DB=$T/g.db
run_tpsdb merge "$T/d.db"
expect_eq "$rc" 0 "merge d into c: $(cat "$T/stderr")"
run_tpsdb compare --ours ours --vs llama.cpp --metric tg
expect_eq "$rc" 3 "another GPU refuses: $(cat "$T/stdout")"
grep -q "ours on 'vm (NVIDIA H100 80GB HBM3, driver 570.86.15, CUDA 12.8)', llama.cpp on 'vm (NVIDIA H200, driver 570.86.15, CUDA 12.8)'" \
	"$T/stderr" || fail "another GPU named: $(cat "$T/stderr")"
echo ok
