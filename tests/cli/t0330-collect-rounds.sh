#!/usr/bin/env bash
# t0330-collect-rounds.sh: collect --rounds <k> starts every engine k times for every
# cell, one server per run, in rounds whose engine order alternates (A B, B A, A B);
# each run records its round and the invocation's batch id; the dry run, the summary
# and `runs` show the rounds; --aa is --rounds 2; a second invocation gets another
# batch; bad --rounds values and --rounds in attach mode are usage errors.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

common=(--engine A="$FS" --engine B="$FS" --ours A --model tiny="$MODEL"
	--prompts "$PROMPTS" --reps 1 --warmup 0 --n-predict 16 --port "$port" --quiet)

# The dry run lists every run in start order, round by round.
run_tpsdb collect "${common[@]}" --rounds 3 --dry-run
expect_eq "$rc" 0 "dry run"
expect_eq "$(cut -d: -f1 "$T/stdout" | cut -d' ' -f1,3,7 | tr '\n' ' ')" \
	"1/6 A 1/3 2/6 B 1/3 3/6 B 2/3 4/6 A 2/3 5/6 A 3/3 6/6 B 3/3 " "dry-run order"
grep -q "^3/6 tiny B (other) base round 2/3: $FS --host 127.0.0.1 --port $port " \
	"$T/stdout" || fail "dry run line: $(cat "$T/stdout")"
[ ! -e "$DB" ] || fail "the dry run made a store"

# --aa is --rounds 2, in the dry run too.
run_tpsdb collect "${common[@]}" --aa --dry-run
cp "$T/stdout" "$T/aa-dry"
run_tpsdb collect "${common[@]}" --rounds 2 --dry-run
cmp -s "$T/aa-dry" "$T/stdout" || fail "--aa and --rounds 2 plan differently"
expect_eq "$(cut -d: -f1 "$T/stdout" | cut -d' ' -f3,7 | tr '\n' ' ')" "A 1/2 B 1/2 B 2/2 A 2/2 " \
	"--rounds 2 order"

# Three rounds for real: six runs, each on its own server, started A B, B A, A B.
run_tpsdb collect "${common[@]}" --rounds 3 --out-dir "$OUT" --tag r3
expect_eq "$rc" 0 "exit status"
expect_no_orphans
expect_eq "$(q "SELECT count(*) FROM run WHERE status='complete'")" 6 "complete runs"
expect_eq "$(q "SELECT count(DISTINCT log_path) FROM run")" 6 "one server per run"
expect_eq "$(q "SELECT group_concat(x, ' ') FROM (SELECT e.label || r.round AS x FROM run r
	JOIN engine e ON e.id=r.engine_id ORDER BY r.started_at, r.id)")" \
	"A1 B1 B2 A2 A3 B3" "start order and rounds"
# Started strictly one after the other (not just inserted in that order).
expect_eq "$(q "SELECT count(*) FROM run a JOIN run b ON b.id=a.id+1
	WHERE b.started_at < a.ended_at")" 0 "runs overlap"
expect_eq "$(q "SELECT group_concat(e.label || ':' || n, ' ') FROM (SELECT engine_id,
	count(DISTINCT round) AS n FROM run GROUP BY engine_id) JOIN engine e ON e.id=engine_id
	ORDER BY e.label")" "A:3 B:3" "three rounds per engine"
expect_eq "$(q "SELECT count(DISTINCT batch) FROM run WHERE batch IS NOT NULL")" 1 "one batch"
batch1=$(q "SELECT DISTINCT batch FROM run")
expect_match "$batch1" '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$' \
	"batch is a uuid"
# The summary has a round column; the footer names the rounds and the batch.
grep -q '^model  *engine  *n_max  *round  *status' "$T/stdout" || fail "summary header"
grep -Eq '^tiny  *B  *-  *2/3  *complete  ' "$T/stdout" || fail "summary row: $(cat "$T/stdout")"
grep -qx "rounds: 3 of 3: batch $batch1" "$T/stdout" || fail "footer: $(cat "$T/stdout")"
grep -q '^6 of 6 cells run, 0 not complete' "$OUT/summary.txt" || fail "summary.txt footer"
# runs --json carries round and batch; the table shows the round.
"$TPSDB_BIN" --db "$DB" runs --json >"$T/runs.json"
python3 - "$T/runs.json" "$batch1" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))
assert [r["round"] for r in runs] == [1, 1, 2, 2, 3, 3], runs
assert [r["engine"] for r in runs] == ["A", "B", "B", "A", "A", "B"], runs
assert all(r["batch"] == sys.argv[2] for r in runs), runs
PY
"$TPSDB_BIN" --db "$DB" runs >"$T/table"
head -n 1 "$T/table" | grep -q ' N_MAX  *ROUND  *SAMPLES ' || fail "runs table header"
expect_eq "$(tail -n +2 "$T/table" | awk '{ print $(NF-4) }' | tr '\n' ' ')" "1 1 2 2 3 3 " \
	"runs table rounds"

# --aa for real: two rounds, B A in the second, another batch.
run_tpsdb collect "${common[@]}" --aa --out-dir "$OUT" --tag aa
expect_eq "$rc" 0 "--aa exit status"
expect_eq "$(q "SELECT group_concat(x, ' ') FROM (SELECT e.label || r.round AS x FROM run r
	JOIN engine e ON e.id=r.engine_id WHERE r.tag='aa' ORDER BY r.started_at, r.id)")" \
	"A1 B1 B2 A2" "--aa order and rounds"
expect_eq "$(q "SELECT count(DISTINCT batch) FROM run WHERE tag='aa'")" 1 "one --aa batch"
[ "$(q "SELECT DISTINCT batch FROM run WHERE tag='aa'")" != "$batch1" ] ||
	fail "the second invocation reused the batch"
expect_eq "$(q "SELECT count(DISTINCT batch) FROM run")" 2 "two batches"

# One round by default: round 1 and a batch all the same, and no round column.
run_tpsdb collect --engine A="$FS" --model tiny="$MODEL" --prompts "$PROMPTS" --reps 1 \
	--port "$port" --out-dir "$OUT" --quiet --tag one
expect_eq "$rc" 0 "one-round exit status"
expect_eq "$(q "SELECT round || ' ' || (batch IS NOT NULL) FROM run WHERE tag='one'")" "1 1" \
	"one round"
grep -q '^model  *engine  *n_max  *status' "$T/stdout" || fail "one-round summary header"

# Usage errors: exit 2, one error line, nothing run.
for bad in "--rounds 0" "--rounds x" "--rounds 1001" "--rounds 3 --aa"; do
	# shellcheck disable=SC2086
	run_tpsdb collect "${common[@]}" $bad --dry-run
	expect_eq "$rc" 2 "exit status of $bad"
	grep -q '^tpsdb: error: ' "$T/stderr" || fail "$bad: $(cat "$T/stderr")"
done
run_tpsdb collect --url http://127.0.0.1:1 --engine A --rounds 2
expect_eq "$rc" 2 "--rounds in attach mode"
grep -q 'attach mode' "$T/stderr" || fail "attach: $(cat "$T/stderr")"
run_tpsdb collect "${common[@]}" --rounds 2 --aa --dry-run
expect_eq "$rc" 0 "--aa with --rounds 2"
echo ok
