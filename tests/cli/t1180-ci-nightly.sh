#!/usr/bin/env bash
# t1180-ci-nightly.sh: docs/ci/tpsdb-nightly.yml, the workflow users copy, run as
# its steps with two emulated machines. The run: blocks marked '# step: <name>'
# are taken from the file itself and run with bash as Actions runs them
# (-eo pipefail), each machine in a workspace of its own, its GPU facts from its
# own stand-in nvidia-smi, the fault server as both engines. Night 1: both
# machines collect and export; the final job imports both, freezes each
# machine's baseline and reports. Then a doubled upload (the same files again, a
# re-export in other bytes) changes nothing. Night 2: the 3090's ours is 30%
# slower; its export is first lost (the final job sees only the other's: the
# store stays whole, only that machine is gated), then arrives beside a second
# copy of the other's: only its runs are new, its gate fails and the other's
# passes. The merged store: runs counted once each, every comparison on one
# machine, the report a section per machine and a Machines section.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
PORT=$(free_port 100) # five collects, 20 ports apart
need jq

WF=$TPSDB_SRC/docs/ci/tpsdb-nightly.yml
[ -f "$WF" ] || fail "no $WF"

# The workflow's shape, where PyYAML is there to read it (scripts/deps.sh
# installs python3-yaml; under CI=true its absence fails).
if ! python3 -c 'import yaml' 2>/dev/null; then
	[ "${CI:-}" != true ] || fail "python3-yaml is missing (scripts/deps.sh installs it)"
	echo "note: no python3-yaml: the workflow's shape is not checked" >&2
else
	python3 - "$WF" <<'PY' || fail "the workflow's shape"
import sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
jobs = wf["jobs"]
c, m = jobs["collect"], jobs["merge"]
assert c["strategy"]["matrix"]["runner"], "a matrix over runners"
assert "${{ matrix.runner }}" in c["runs-on"], "each job on its runner"
assert m["needs"] == "collect" and "cancelled()" in m["if"], "merge after every machine"
uses = [s.get("uses", "") for s in c["steps"]]
assert any(u.startswith("actions/upload-artifact") for u in uses), "collect uploads"
names = [s.get("with", {}).get("name", "") for s in c["steps"]]
assert "tpsdb-export-${{ matrix.runner }}" in names, "an artifact named by runner"
uses = [s.get("uses", "") for s in m["steps"]]
for want in ("actions/cache/restore", "actions/download-artifact", "actions/cache/save"):
    assert any(u.startswith(want) for u in uses), want
for job in (c, m):
    for s in job["steps"]:
        assert "${{" not in s.get("run", ""), "no expression inside a run: block"
PY
fi

# step_block <name>: the run: block marked '# step: <name>', unindented.
step_block() {
	awk -v name="$1" '
		!on && $0 ~ "^ *# step: " name "$" { on = 1; match($0, /^ */); ind = RLENGTH; next }
		on { match($0, /^ */); if ($0 !~ /^ *$/ && RLENGTH < ind) exit; print substr($0, ind + 1) }
	' "$WF"
}
for s in build collect import gate report; do
	[ -n "$(step_block $s)" ] || fail "the workflow has no '# step: $s' block"
done
# run_step <workspace> <name>: the block in <workspace>, as Actions runs it.
run_step() {
	rc=0
	(cd "$1" && bash --noprofile --norc -eo pipefail -c "$(step_block "$2")") \
		>"$T/stdout" 2>"$T/stderr" || rc=$?
}

# tpsdb as the build step leaves it: on PATH.
mkdir -p "$T/tpsdb-bin"
ln -s "$TPSDB_BIN" "$T/tpsdb-bin/tpsdb"
export PATH=$T/tpsdb-bin:$PATH
fake_gpu
gpu_quiet

# machine <name> <gpu> <driver> <cuda>: a workspace with the tpsdb checkout, and
# a stand-in nvidia-smi answering the machine's facts (the rest: fake-nvidia-smi).
machine() {
	local ws=$T/ws-$1
	mkdir -p "$ws/bin"
	ln -s "$TPSDB_SRC" "$ws/tpsdb"
	cat >"$ws/bin/nvidia-smi" <<-EOF
	#!/bin/sh
	case "\$*" in
	*--query-gpu=name,driver_version*) echo "$2, $3"; exit 0 ;;
	'') echo "| NVIDIA-SMI $3    Driver Version: $3    CUDA Version: $4 |"; exit 0 ;;
	esac
	exec "$T/bin/nvidia-smi" "\$@"
	EOF
	chmod +x "$ws/bin/nvidia-smi"
}
A=rtx-pro-6000 B=rtx-3090
machine "$A" "NVIDIA RTX PRO 6000 Blackwell Workstation Edition" 575.57.08 12.9
machine "$B" "NVIDIA GeForce RTX 3090" 550.144.03 12.4
MA="$A (NVIDIA RTX PRO 6000 Blackwell Workstation Edition, driver 575.57.08, CUDA 12.9)"
MB="$B (NVIDIA GeForce RTX 3090, driver 550.144.03, CUDA 12.4)"

# collect_on <host> <port> [<ours' extra args>]: the matrix job of one machine,
# then its artifact as download-artifact lays it out (a folder per artifact).
collect_on() {
	local ws=$T/ws-$1
	PATH=$ws/bin:$PATH TPSDB_CI_HOST=$1 OURS_BIN=$FS STOCK_LLAMACPP=$FS OURS_ARGS=${3:-} \
		TPSDB_COLLECT_ARGS="--model tiny=$MODEL --prompts $PROMPTS --reps 2 --warmup 0
		--n-predict 16 --rounds 3 --port $2" run_step "$ws" collect
	expect_eq "$rc" 0 "collect on $1: $(cat "$T/stderr")"
	[ -s "$ws/tpsdb-ci/tpsdb-export-$1.jsonl" ] || fail "no export from $1"
	mkdir -p "$T/art/tpsdb-export-$1"
	cp "$ws/tpsdb-ci/tpsdb-export-$1.jsonl" "$T/art/tpsdb-export-$1/"
}
# The final job's workspace: its store where the cache puts it.
M=$T/ws-merge
mkdir -p "$M"
ln -s "$TPSDB_SRC" "$M/tpsdb"
export TPSDB_STORE=tpsdb-store/store.sqlite TPSDB_CANDIDATE=ours TPSDB_BASELINE=nightly \
	TPSDB_GATE_ARGS=--trend
DB=$M/$TPSDB_STORE
# final <step>: a step of the final job, its summary in $T/summary.md.
final() {
	rm -f "$T/summary.md"
	rm -rf "$M/exports"
	cp -r "$T/art" "$M/exports"
	GITHUB_STEP_SUMMARY=$T/summary.md run_step "$M" "$1"
}
runs() { q "SELECT count(*) FROM run"; }

# Night 1.
collect_on "$A" "$PORT"
collect_on "$B" $((PORT + 20))
nA1=$(wc -l <"$T/art/tpsdb-export-$A/tpsdb-export-$A.jsonl")
nB1=$(wc -l <"$T/art/tpsdb-export-$B/tpsdb-export-$B.jsonl")
expect_eq "$nA1" 6 "A's night: ours and llama.cpp, 3 rounds"
expect_eq "$nB1" 6 "B's night"
final import
expect_eq "$rc" 0 "import: $(cat "$T/stderr")"
grep -q "restored 12 run(s) with 48 sample(s); 0 already present" "$T/stdout" ||
	fail "import of both: $(cat "$T/stdout")"
grep -q "machines tonight: $B $A" "$T/stdout" || fail "the night's machines: $(cat "$T/stdout")"
expect_eq "$(runs)" 12 "runs after night 1"
# Each machine's runs carry its own host and GPU facts.
"$TPSDB_BIN" --db "$DB" runs --json >"$T/runs.json"
jq -e --arg a "$MA" --arg b "$MB" '[.[] | .machine] | group_by(.) | map([.[0], length])
	== [[$b, 6], [$a, 6]]' "$T/runs.json" >/dev/null ||
	fail "the machines of the runs: $(jq -c '[.[] | .machine] | unique' "$T/runs.json")"

final gate
expect_eq "$rc" 0 "the first night's gate sets the baselines: $(cat "$T/stderr")"
grep -q "::notice::tpsdb: $A: first night, baseline 'nightly-$A' frozen" "$T/stdout" ||
	fail "first night: $(cat "$T/stdout")"
"$TPSDB_BIN" --db "$DB" baseline list --format csv >"$T/bl.csv"
expect_eq "$(cut -d, -f1,3 "$T/bl.csv" | tail -n +2 | paste -sd' ')" \
	"nightly-$B,3 nightly-$A,3" "a baseline per machine, ours' 3 runs each"
grep -q "^First night: baseline \`nightly-$B\` frozen" "$T/summary.md" ||
	fail "the summary says so: $(cat "$T/summary.md")"

# A doubled upload: the same files again (a job run again), and a re-export of
# A's runs in other bytes (a runner whose store kept them): nothing new.
final import
expect_eq "$rc" 0 "import again: $(cat "$T/stderr")"
expect_eq "$(grep -c "was already imported on .*; skipped" "$T/stderr")" 2 "both files skipped"
expect_eq "$(runs)" 12 "runs after the same files again"
mkdir -p "$T/art/tpsdb-export-$A-again"
tac "$T/art/tpsdb-export-$A/tpsdb-export-$A.jsonl" >"$T/art/tpsdb-export-$A-again/tpsdb-export-$A.jsonl"
final import
expect_eq "$rc" 0 "import of the re-export: $(cat "$T/stderr")"
grep -q "restored 0 run(s) with 0 sample(s); 6 already present" "$T/stdout" ||
	fail "a re-export's runs are known by uuid: $(cat "$T/stdout")"
expect_eq "$(runs)" 12 "runs after the re-export"
rm -rf "$T/art"

# Night 2: B's ours 30% slower. First B's upload is lost.
collect_on "$A" $((PORT + 40))
collect_on "$B" $((PORT + 60)) "--slow 1.43"
mv "$T/art/tpsdb-export-$B" "$T/lost"
final import
expect_eq "$rc" 0 "import without B: $(cat "$T/stderr")"
grep -q "machines tonight: $A$" "$T/stdout" || fail "one machine tonight: $(cat "$T/stdout")"
expect_eq "$(runs)" 18 "runs with A's second night"
final gate
expect_eq "$rc" 0 "A's gate passes: $(cat "$T/stdout") $(cat "$T/stderr")"
grep -q "^nightly-steps: $A: gate exit 0" "$T/stdout" || fail "A gated: $(cat "$T/stdout")"
grep -q "$B" "$T/stdout" "$T/summary.md" && fail "B is not gated without its export"
grep -q "^## $A$" "$T/summary.md" || fail "A's gate in the summary: $(cat "$T/summary.md")"
# B's export arrives truncated: refused, file and line named, nothing stored.
mkdir -p "$T/art/tpsdb-export-$B"
head -c 3000 "$T/lost/tpsdb-export-$B.jsonl" >"$T/art/tpsdb-export-$B/tpsdb-export-$B.jsonl"
final import
expect_eq "$rc" 3 "a truncated upload: $(cat "$T/stderr")"
grep -q "^tpsdb: error: exports/tpsdb-export-$B/tpsdb-export-$B.jsonl:[0-9]*: .*nothing was imported" \
	"$T/stderr" || fail "the refusal names the file: $(cat "$T/stderr")"
expect_eq "$(runs)" 18 "nothing of a refused night"
rm -r "$T/art/tpsdb-export-$B"
# B's export arrives (a re-run of the final job), beside A's sent a second time.
mv "$T/lost" "$T/art/tpsdb-export-$B"
mkdir -p "$T/art/tpsdb-export-$A-2"
cp "$T/art/tpsdb-export-$A/tpsdb-export-$A.jsonl" "$T/art/tpsdb-export-$A-2/"
final import
expect_eq "$rc" 0 "import with B: $(cat "$T/stderr")"
grep -q "restored 6 run(s) with 24 sample(s); 0 already present" "$T/stdout" ||
	fail "only B's runs are new: $(cat "$T/stdout")"
expect_eq "$(grep -c "already imported" "$T/stderr")" 1 "A's file skipped"
expect_eq "$(grep -c "same bytes as" "$T/stderr")" 1 "A's copy skipped"
expect_eq "$(runs)" 24 "every run once"
expect_eq "$(q "SELECT count(DISTINCT uuid) FROM run")" 24 "uuids"
final gate
expect_eq "$rc" 1 "B's gate fails: $(cat "$T/stdout")"
grep -q "^nightly-steps: $A: gate exit 0" "$T/stdout" || fail "A passes: $(cat "$T/stdout")"
grep -q "^nightly-steps: $B: gate exit 1" "$T/stdout" || fail "B fails: $(cat "$T/stdout")"
{ [ -s "$M/tpsdb-ci/gate-$A.xml" ] && [ -s "$M/tpsdb-ci/gate-$B.xml" ]; } || fail "JUnit per machine"
grep -q "^## $B$" "$T/summary.md" || fail "B's gate in the summary: $(cat "$T/summary.md")"
grep -q "^### tpsdb gate: \*\*FAIL\*\*: 'ours' against baseline 'nightly-$B'" "$T/summary.md" ||
	fail "B's failed gate in the summary: $(cat "$T/summary.md")"

# Every comparison is on one machine: each gate's cells, and compare per host.
for h in "$A" "$B"; do
	run_tpsdb gate --baseline "nightly-$h" --engine ours --host "$h" --metric tg --json
	jq -e '.cells | length > 0 and all(.across_machines == false)
		and all(.candidate_machine == .baseline_machine)' "$T/stdout" >/dev/null ||
		fail "gate of $h on one machine: $(cat "$T/stdout")"
	run_tpsdb compare --ours ours --vs llama.cpp --host "$h" --metric tg --json
	expect_eq "$rc" 0 "compare on $h: $(cat "$T/stderr")"
	jq -e --arg h "$h" '.rows[0].ours_machine == .rows[0].vs_machine and
		(.rows[0].ours_machine | startswith($h + " ("))' "$T/stdout" >/dev/null ||
		fail "compare on $h: $(jq -c '.rows[0]' "$T/stdout")"
done
run_tpsdb compare --ours ours --vs llama.cpp --host "$B" --metric tg --json
jq -e '.rows[0].regression == "yes"' "$T/stdout" >/dev/null || fail "B's ours slower: $(cat "$T/stdout")"
# Without --host: the newest batch that measured both sides, one machine's.
run_tpsdb compare --ours ours --vs llama.cpp --metric tg --json
expect_eq "$rc" 0 "compare of the merged store: $(cat "$T/stderr")"
jq -e '.rows[0].ours_machine == .rows[0].vs_machine and .rows[0].across_machines == false' \
	"$T/stdout" >/dev/null || fail "compare pools one machine: $(jq -c '.rows[0]' "$T/stdout")"
# A machine's baseline against the other machine's candidate: refused.
run_tpsdb gate --baseline "nightly-$A" --engine ours --host "$B"
expect_eq "$rc" 3 "gate across machines refuses: $(cat "$T/stdout")"
grep -q "measured on different machines" "$T/stderr" || fail "refusal: $(cat "$T/stderr")"

# The report: a section per machine in the summary and an HTML report per
# machine, linked from one page. (One report of every machine would pool each
# cell's newest batch, one machine's: its answers would hide the other's.)
final report
expect_eq "$rc" 0 "report: $(cat "$T/stderr")"
for h in "$A" "$B"; do
	grep -q "^## $h$" "$T/summary.md" || fail "no section for $h: $(cat "$T/summary.md")"
	[ -s "$M/tpsdb-ci/report/$h/index.html" ] || fail "no HTML report of $h"
	grep -qF "<li><a href=\"$h/index.html\">$h</a></li>" "$M/tpsdb-ci/report/index.html" ||
		fail "the index links $h: $(cat "$M/tpsdb-ci/report/index.html")"
	# Its runs, the newest batch's, and no other machine's.
	for u in $(q "SELECT r.uuid FROM run r JOIN host h ON h.id = r.host_id
		WHERE h.name <> '$h'"); do
		! grep -qF "$u" "$M/tpsdb-ci/report/$h/index.html" ||
			fail "$h's report holds another machine's run $u"
	done
	u=$(q "SELECT r.uuid FROM run r JOIN host h ON h.id = r.host_id WHERE h.name = '$h'
		ORDER BY r.started_at DESC LIMIT 1")
	grep -qF "$u" "$M/tpsdb-ci/report/$h/index.html" || fail "$h's report lacks its run $u"
done
grep -q "^# tpsdb report" "$T/summary.md" && fail "a report title inside the summary"
expect_eq "$(grep -c "^### Base throughput$" "$T/summary.md")" 2 "the reports' headings under the machines'"
section() { sed -n "/^## $1\$/,/^## $2\$/p" "$T/summary.md"; }
section "$B" "$A" | grep -q "^| ours vs llama.cpp | tg | tiny | yes | slower | -30.07% |" ||
	fail "B's section answers B's comparison: $(section "$B" "$A")"
sed -n "/^## $A\$/,\$p" "$T/summary.md" | grep -q "^| ours vs llama.cpp | tg | tiny | no | parity | +0.00% |" ||
	fail "A's section answers A's comparison: $(cat "$T/summary.md")"
# A report of both machines' runs pooled is not comparable, and names both
# machines in its Data quality section.
"$TPSDB_BIN" --db "$DB" report --host "$A,$B" --batch "$(q "SELECT group_concat(batch)
	FROM (SELECT DISTINCT batch FROM run ORDER BY started_at DESC LIMIT 2)")" >"$T/all.md"
grep -q "^| ours vs llama.cpp | tg | tiny | not comparable |" "$T/all.md" ||
	fail "pooled across machines: $(cat "$T/all.md")"
grep -qF "cell 'tiny' not comparable: measured on different machines: ours on '$MB', ours on '$MA'" \
	"$T/all.md" || fail "both machines named: $(grep "not comparable" "$T/all.md")"
# Between nights the cache keeps the store's folder: restored elsewhere, it
# holds every run and both baselines.
cp -r "$M/tpsdb-store" "$T/restored"
expect_eq "$(sqlite3 "$T/restored/store.sqlite" "SELECT count(*) FROM run")" 24 "restored runs"
expect_eq "$("$TPSDB_BIN" --db "$T/restored/store.sqlite" baseline list --format csv | wc -l)" 3 \
	"restored baselines"
# A machine whose upstream fails to load: the step fails (collect's exit 1), and
# ours' runs are exported all the same, for the final job to import.
machine c "NVIDIA GeForce RTX 3090" 550.144.03 12.4
PATH=$T/ws-c/bin:$PATH TPSDB_CI_HOST=c OURS_BIN=$FS STOCK_LLAMACPP=$FS \
	STOCK_LLAMACPP_ARGS="--fault load-fail" TPSDB_COLLECT_ARGS="--model tiny=$MODEL
	--prompts $PROMPTS --reps 1 --warmup 0 --n-predict 16 --port $((PORT + 80))" run_step "$T/ws-c" collect
expect_eq "$rc" 1 "a failed engine fails the step: $(cat "$T/stderr")"
expect_eq "$(jq -r '.run.engine.label + " " + .run.status' "$T/ws-c/tpsdb-ci/tpsdb-export-c.jsonl" |
	paste -sd,)" "ours complete,llama.cpp failed" "what c measured is exported"

# The steps' own refusals: a host name that would leave the folder, no export.
run_step_args() { rc=0; (cd "$M" && tpsdb/docs/ci/nightly-steps.sh "$@") >"$T/stdout" 2>"$T/stderr" || rc=$?; }
run_step_args collect ../x
expect_eq "$rc" 2 "a host name with a slash"
grep -q "^nightly-steps: error: '../x' is not a usable host name" "$T/stderr" || fail "$(cat "$T/stderr")"
mkdir -p "$M/none"
run_step_args import none
expect_eq "$rc" 3 "no export at all"
grep -q "no machine sent its night" "$T/stderr" || fail "$(cat "$T/stderr")"
run_step_args --help
expect_eq "$rc" 0 "--help"
grep -q "^  collect <host>" "$T/stdout" || fail "--help: $(cat "$T/stdout")"
expect_no_orphans
echo ok
