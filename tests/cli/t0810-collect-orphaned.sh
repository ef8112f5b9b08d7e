#!/usr/bin/env bash
# t0810-collect-orphaned.sh: a collector killed with SIGKILL leaves its run marked
# 'running', with who collected it (host, boot id, pid, start time). While it lives,
# check reports nothing of it; once it is gone, check reports an 'orphaned' finding
# and runs, report and compare show the run as interrupted. Export, import and merge
# carry the collector's identity, so the copy is known orphaned too.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)
need jq

"$TPSDB_BIN" --db "$DB" collect --engine e="$FS" --engine-args e="--delay-ms 150" \
	--model m="$MODEL" --prompts "$PROMPTS" --reps 50 --port "$port" \
	--out-dir "$OUT" >"$T/stdout" 2>"$T/stderr" &
pid=$!
wait_samples 3

# The collector's identity is in the store while it runs.
expect_eq "$(q "SELECT collector_pid FROM run")" "$pid" "collector_pid"
expect_eq "$(q "SELECT collector_host FROM run")" "$(hostname)" "collector_host"
expect_eq "$(q "SELECT collector_boot FROM run")" "$(cat /proc/sys/kernel/random/boot_id)" "collector_boot"
expect_eq "$(q "SELECT collector_start FROM run")" "$(sed 's/.*) //' "/proc/$pid/stat" | cut -d' ' -f20)" \
	"collector_start"
# Alive: not orphaned.
run_tpsdb check --json
jq -e '[.findings[] | select(.kind == "orphaned")] | length == 0' "$T/stdout" >/dev/null ||
	fail "a live collector's run is reported orphaned"
run_tpsdb runs --json
jq -e '.[0].status == "running"' "$T/stdout" >/dev/null || fail "a live run is not 'running'"

kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
for s in $(pgrep -f "fault_server.py .*$T"); do kill -KILL "$s" 2>/dev/null || true; done
expect_eq "$(q "SELECT status FROM run")" running "the stored status"
uuid=$(q "SELECT uuid FROM run")

orphaned() { # db, what
	rc=0
	"$TPSDB_BIN" --db "$1" check --json >"$T/stdout" 2>"$T/stderr" || rc=$?
	jq -e --arg u "$uuid" '[.findings[] | select(.kind == "orphaned" and .run == $u and
		(.detail | test("collector is gone")))] | length == 1' "$T/stdout" >/dev/null ||
		{ cat "$T/stdout" >&2; fail "$2: no orphaned finding"; }
	"$TPSDB_BIN" --db "$1" check >"$T/stdout" 2>&1 || true
	grep -q "orphaned run" "$T/stdout" || fail "$2: check text"
	"$TPSDB_BIN" --db "$1" runs --json >"$T/stdout"
	jq -e '.[0].status == "interrupted"' "$T/stdout" >/dev/null || fail "$2: runs status"
	"$TPSDB_BIN" --db "$1" report --format json --out "$T/rep" >/dev/null
	jq -e '[.findings[] | select(.kind == "orphaned")] | length == 1' "$T/rep/report.json" \
		>/dev/null || fail "$2: report findings"
}
orphaned "$DB" "the killed collector's store"

# Export carries the identity; a re-import and a merge keep the run orphaned.
"$TPSDB_BIN" --db "$DB" export >"$T/e.jsonl"
jq -e --arg p "$pid" '.run.status == "running" and (.run.collector_pid | tostring) == $p and
	.run.collector_host != null and .run.collector_boot != null and
	.run.collector_start != null' "$T/e.jsonl" >/dev/null || fail "export lacks the collector"
"$TPSDB_BIN" --db "$T/b.db" import "$T/e.jsonl" >/dev/null
orphaned "$T/b.db" "the imported copy"
"$TPSDB_BIN" --db "$T/b.db" export | cmp - "$T/e.jsonl" || fail "export round trip"
"$TPSDB_BIN" --db "$T/c.db" merge "$DB" >/dev/null
orphaned "$T/c.db" "the merged copy"
"$TPSDB_BIN" --db "$T/c.db" export | cmp - "$T/e.jsonl" || fail "merge round trip"

# Another machine's running run cannot be judged from here: not orphaned.
sed 's/"collector_host":"[^"]*"/"collector_host":"elsewhere.invalid"/' "$T/e.jsonl" >"$T/f.jsonl"
"$TPSDB_BIN" --db "$T/d.db" import "$T/f.jsonl" >/dev/null
"$TPSDB_BIN" --db "$T/d.db" check --json >"$T/stdout" || true
jq -e '[.findings[] | select(.kind == "orphaned")] | length == 0' "$T/stdout" >/dev/null ||
	fail "another host's run is called orphaned"
echo ok
