#!/usr/bin/env bash
# t0902-collect-host-busy.sh: a run measured while other processes keep every CPU
# busy (spin loops started here, each ended by timeout within 30 s) is host-busy:
# the others' share of all CPUs' time is stored with the load and the server's own
# CPU time, check names it; TPSDB_HOST_BUSY_PCT raises the share it takes. A gate
# whose candidate looks slower on a busy host names the environment next to the
# cell, never a bare regression (one instance a side is inconclusive; --strict
# fails it).
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
need jq timeout nproc

base_args=(--model tiny="$MODEL" --prompts "$PROMPTS" --reps 2 --warmup 1 --n-predict 32
	--out-dir "$OUT")
# The baseline first, on whatever this host is doing; its own flags do not matter here.
run_tpsdb collect --engine base="$FS" --engine-args base="--delay-ms 300" "${base_args[@]}" \
	--port 21440 --tag quiet
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
	timeout 30 sh -c 'while :; do :; done' &
	spinners+=("$!")
done
sleep 1
run_tpsdb collect --engine cand="$FS" --engine-args cand="--delay-ms 300 --slow 1.25" \
	"${base_args[@]}" --port 21450 --tag busy
expect_eq "$rc" 0 "busy collect"
TPSDB_HOST_BUSY_PCT=100 run_tpsdb collect --engine relaxed="$FS" \
	--engine-args relaxed="--delay-ms 300" "${base_args[@]}" --port 21460 --tag relaxed
expect_eq "$rc" 0 "relaxed collect"
for p in "${spinners[@]}"; do kill "$p" 2>/dev/null || true; done
expect_no_orphans

expect_eq "$(q "SELECT (env_flags & 1) || ' ' || (json_extract(env, '$.host.others_share') > 0.5)
	|| ' ' || (json_extract(env, '$.host.wall_s') >= 1) || ' ' ||
	(json_extract(env, '$.host.ncpu') = $(nproc)) || ' ' ||
	(json_extract(env, '$.host.load1_end') IS NOT NULL) || ' ' ||
	(json_extract(env, '$.host.server_cpu_s') >= 0) || ' ' || json_extract(env, '$.host.busy_share')
	FROM run WHERE tag='busy'")" "1 1 1 1 1 1 0.5" "busy run's facts"
expect_eq "$(q "SELECT (env_flags & 1) || ' ' || json_extract(env, '$.host.busy_share') || ' ' ||
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

# The candidate is 20% slower, one instance a side: inconclusive (the requests
# cannot show the scatter between instances), and the gate says the host was busy
# beside it; --strict fails both.
run_tpsdb gate --baseline base --engine cand --metric tg
expect_eq "$rc" 0 "gate exit"
expect_match "$(cat "$T/stdout")" "INCONCLUSIVE" "an inconclusive row"
expect_match "$(cat "$T/stdout")" "finding: tiny: the candidate run [0-9a-f-]+ carries host-busy: its numbers may be the environment's" \
	"the environment next to the regression"
run_tpsdb gate --baseline base --engine cand --metric tg --strict
expect_eq "$rc" 1 "gate --strict exit"
run_tpsdb gate --baseline base --engine cand --metric tg --json
# (the baseline may be flagged too: this host is rarely idle while the suite runs)
expect_eq "$(jq -r '[.findings[] | select(.flag == "host-busy" and .side == "candidate")] | length' \
	"$T/stdout")" 1 "gate JSON finding"
echo ok
