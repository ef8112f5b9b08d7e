#!/usr/bin/env bash
# t0902-collect-host-busy.sh: a run measured while other processes keep every CPU
# busy (spin loops started here, killed after the two collects that need them and
# by timeout within 600 s: a shorter one raced those collects) is host-busy:
# the others' share of all CPUs' time is stored with the load and the server's own
# CPU time, check names it; TPSDB_HOST_BUSY_PCT raises the share it takes. A cell
# whose candidate was measured on a busy host is never decided: compare and gate
# answer 'spoiled' with the finding named (text, markdown, JSON, the step summary,
# a ::warning under GitHub Actions, a <skipped> JUnit test), the gate's status is
# INCONCLUSIVE, and --fail-on environment (or --strict) fails it.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port 80)
need jq timeout nproc
export TPSDB_HOST_BUSY_PCT=50 # the default, which collect-lib.sh raises for the others

base_args=(--model tiny="$MODEL" --prompts "$PROMPTS" --reps 2 --warmup 1 --n-predict 32
	--out-dir "$OUT")
# The baseline first, on whatever this host is doing; its own flags do not matter here.
run_tpsdb collect --engine base="$FS" --engine-args base="--delay-ms 300" "${base_args[@]}" \
	--port "$port" --tag quiet --wait-quiet 0
expect_eq "$rc" 0 "baseline collect"
"$TPSDB_BIN" --db "$DB" baseline set base --engine base >/dev/null

spinners=()
stop_spinners() {
	for p in "${spinners[@]}"; do kill "$p" 2>/dev/null || true; done
	collect_cleanup
}
trap stop_spinners EXIT
n=$(( $(nproc) * 2 ))
for _ in $(seq 1 "$n"); do
	timeout 600 sh -c 'while :; do :; done' &
	spinners+=("$!")
done
# Until every spin loop has had CPU time (30 s at most), not a fixed sleep: on a
# loaded host a loop may not have run yet when a second has passed.
spun() {
	local p c t
	for p in "${spinners[@]}"; do
		c=$(pgrep -P "$p" | head -n 1) && [ -n "$c" ] || return 1
		t=$(awk '{print $14 + $15}' "/proc/$c/stat" 2>/dev/null) || return 1
		[ "${t:-0}" -ge 5 ] || return 1 # 50 ms of its own
	done
}
deadline=$((SECONDS + 30))
until spun; do
	[ "$SECONDS" -lt "$deadline" ] || fail "the spin loops did not run within 30 s"
	sleep 0.05
done
# --wait-quiet 0: the busy instance is recorded as measured, not waited out (t0907).
run_tpsdb collect --engine cand="$FS" --engine-args cand="--delay-ms 300 --slow 1.25" \
	"${base_args[@]}" --port $((port + 10)) --tag busy --wait-quiet 0
expect_eq "$rc" 0 "busy collect"
TPSDB_HOST_BUSY_PCT=100 run_tpsdb collect --engine relaxed="$FS" \
	--engine-args relaxed="--delay-ms 300" "${base_args[@]}" --port $((port + 20)) --tag relaxed
expect_eq "$rc" 0 "relaxed collect"
for p in "${spinners[@]}"; do kill "$p" 2>/dev/null || true; done
expect_no_orphans

judged() { "$TPSDB_BIN" --db "$DB" export --tag "$1" | jq -r '.run.env_flags % 2'; }
expect_eq "$(judged busy) $(q "SELECT (json_extract(env, '$.host.others_share') > 0.5)
	|| ' ' || (json_extract(env, '$.host.wall_s') >= 1) || ' ' ||
	(json_extract(env, '$.host.ncpu') = $(nproc)) || ' ' ||
	(json_extract(env, '$.host.load1_end') IS NOT NULL) || ' ' ||
	(json_extract(env, '$.host.server_cpu_s') >= 0) || ' ' || json_extract(env, '$.host.busy_share')
	FROM run WHERE tag='busy'")" "1 1 1 1 1 1 0.5" "busy run's facts"
expect_eq "$(judged relaxed) $(q "SELECT json_extract(env, '$.host.busy_share') || ' ' ||
	(json_extract(env, '$.host.others_share') > 0.5) FROM run WHERE tag='relaxed'")" "0 1 1" \
	"TPSDB_HOST_BUSY_PCT=100: measured busy, not flagged"

rc=0
"$TPSDB_BIN" --db "$DB" check --json --tag busy >"$T/check.json" || rc=$?
expect_eq "$rc" 1 "check exit"
expect_eq "$(jq -r '[.findings[] | select(.kind == "host-busy") | .engine] | join(",")' \
	"$T/check.json")" "cand" "host-busy finding"
expect_match "$(jq -r '.findings[] | select(.kind == "host-busy") | .detail' "$T/check.json")" \
	"^host busy: other processes used [0-9]+% of $(nproc) CPUs while it measured \(load [0-9.]+ at the end; the server used [0-9.]+ CPUs\)$" \
	"host-busy detail"

# The candidate is 20% slower, measured on a busy host: spoiled, not decided, the
# finding beside it; --fail-on environment and --strict fail it.
summary=$T/summary.md
: >"$summary"
GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY=$summary run_tpsdb gate --baseline base --engine cand \
	--metric tg --junit "$T/junit.xml"
expect_eq "$rc" 0 "gate exit"
expect_match "$(head -1 "$T/stdout")" "^gate: 'cand' against baseline 'base': INCONCLUSIVE \(0 failure\(s\)\)$" \
	"the gate's status"
expect_match "$(cat "$T/stdout")" " tiny +tg .* spoiled +SPOILED" "a spoiled row"
expect_match "$(cat "$T/stdout")" "  spoiled: tiny tg: regression spoiled: host-busy[a-z, -]* while an instance it used measured, so its interval \[" \
	"the finding named in the row's line"
expect_match "$(cat "$T/stdout")" "finding: tiny: the candidate run [0-9a-f-]+ carries host-busy: its numbers may be the environment's" \
	"the environment next to the regression"
expect_match "$(cat "$T/stdout")" "::warning::tiny tg: candidate .* regression spoiled at -3.00%25" \
	"a ::warning, not silence"
grep -q '^- tiny tg: SPOILED, regression spoiled: host-busy' "$summary" ||
	fail "step summary: $(cat "$summary")"
grep -q '<skipped message="tiny tg: candidate .*regression spoiled' "$T/junit.xml" &&
	grep -q 'skipped="1"' "$T/junit.xml" || fail "JUnit: $(cat "$T/junit.xml")"
run_tpsdb gate --baseline base --engine cand --metric tg --fail-on environment
expect_eq "$rc" 1 "gate --fail-on environment exit"
expect_match "$(cat "$T/stdout")" "SPOILED \(fails: --fail-on environment\)" "the failing row"
run_tpsdb gate --baseline base --engine cand --metric tg --strict
expect_eq "$rc" 1 "gate --strict exit"
run_tpsdb gate --baseline base --engine cand --metric tg --json
# (the baseline may be flagged too: this host is rarely idle while the suite runs)
expect_eq "$(jq -r '[.findings[] | select(.flag == "host-busy" and .side == "candidate")] | length' \
	"$T/stdout")" 1 "gate JSON finding"
expect_eq "$(jq -r '.status + " " + (.spoiled | tostring) + " " + .cells[0].status + " " +
	.cells[0].regression' "$T/stdout")" "inconclusive 1 spoiled spoiled" "gate JSON"
# compare answers the same: spoiled, in every format.
run_tpsdb compare --ours cand --vs base --metric tg --json
expect_eq "$(jq -r '.rows[0] | .regression + " " + .verdict + " " + (.environment | join(","))' \
	"$T/stdout")" "spoiled spoiled host-busy" "compare JSON"
run_tpsdb compare --ours cand --vs base --metric tg
expect_match "$(cat "$T/stdout")" "^tiny +tg .* spoiled +spoiled " "compare text"
expect_match "$(cat "$T/stdout")" "tg 1 spoiled \(host-busy\)" "compare's answer line"
run_tpsdb compare --ours cand --vs base --metric tg --format md
expect_match "$(cat "$T/stdout")" "\| spoiled +\| spoiled +\|" "compare markdown"
echo ok
