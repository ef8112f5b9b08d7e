#!/usr/bin/env bash
# t0331-collect-rounds-export.sh: a run's round and batch survive export -> import
# and merge (a lossless round trip); an export line from before rounds, without the
# keys, still imports, with both unknown (null); a round below 1 is refused whole.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

run_tpsdb collect --engine A="$FS" --engine B="$FS" --model tiny="$MODEL" \
	--prompts "$PROMPTS" --reps 1 --warmup 0 --n-predict 16 --port "$port" --quiet \
	--out-dir "$OUT" --rounds 2
expect_eq "$rc" 0 "collect"
batch=$(q "SELECT DISTINCT batch FROM run")
expect_match "$batch" '^[0-9a-f-]{36}$' "batch"

# Export -> import: the same rounds and batch, the same bytes exported again.
"$TPSDB_BIN" --db "$DB" export >"$T/e1.jsonl"
python3 - "$T/e1.jsonl" "$batch" <<'PY'
import json, sys
runs = [json.loads(l)["run"] for l in open(sys.argv[1])]
assert [r["round"] for r in runs] == [1, 1, 2, 2], runs
assert all(r["batch"] == sys.argv[2] for r in runs), runs
PY
"$TPSDB_BIN" --db "$T/b.db" import "$T/e1.jsonl" >/dev/null || fail "import"
expect_eq "$(sqlite3 "$T/b.db" "SELECT group_concat(round || ':' || batch, ' ') FROM
	(SELECT round, batch FROM run ORDER BY started_at, id)")" \
	"1:$batch 1:$batch 2:$batch 2:$batch" "imported rounds and batch"
"$TPSDB_BIN" --db "$T/b.db" export | cmp - "$T/e1.jsonl" || fail "export differs after import"
"$TPSDB_BIN" --db "$DB" runs --json >"$T/ra"
"$TPSDB_BIN" --db "$T/b.db" runs --json >"$T/rb"
cmp "$T/ra" "$T/rb" || fail "runs --json differs after import"

# Merge keeps them too.
"$TPSDB_BIN" --db "$T/m.db" merge "$DB" >/dev/null || fail "merge"
expect_eq "$(sqlite3 "$T/m.db" "SELECT count(*) FROM run WHERE batch='$batch' AND
	round IN (1, 2)")" 4 "merged rounds and batch"

# An export line from before rounds: no round, no batch. It imports, with both null.
python3 - "$T/e1.jsonl" "$T/old.jsonl" <<'PY'
import json, sys
line = json.loads(open(sys.argv[1]).readline())
del line["run"]["round"], line["run"]["batch"]
line["run"]["uuid"] = "00000000-0000-4000-8000-000000000331"
open(sys.argv[2], "w").write(json.dumps(line) + "\n")
PY
"$TPSDB_BIN" --db "$T/c.db" import "$T/old.jsonl" >/dev/null || fail "old line import"
expect_eq "$(sqlite3 "$T/c.db" "SELECT (round IS NULL) || (batch IS NULL) FROM run")" "11" \
	"old line: round and batch null"
"$TPSDB_BIN" --db "$T/c.db" runs --json | python3 -c '
import json, sys
r = json.load(sys.stdin)[0]
assert r["round"] is None and r["batch"] is None, r' || fail "runs --json of an old line"
"$TPSDB_BIN" --db "$T/c.db" export | python3 -c '
import json, sys
r = json.loads(sys.stdin.readline())["run"]
assert r["round"] is None and r["batch"] is None, r' || fail "export of an old line"

# A round below 1, or a batch that is not a string, is bad data: exit 3, nothing stored.
for bad in 'r["round"] = 0' 'r["round"] = 1.5' 'r["batch"] = 7'; do
	python3 - "$T/e1.jsonl" "$T/bad.jsonl" "$bad" <<'PY'
import json, sys
line = json.loads(open(sys.argv[1]).readline())
r = line["run"]
r["uuid"] = "00000000-0000-4000-8000-000000000332"
exec(sys.argv[3])
open(sys.argv[2], "w").write(json.dumps(line) + "\n")
PY
	rc=0
	"$TPSDB_BIN" --db "$T/c.db" import "$T/bad.jsonl" >/dev/null 2>"$T/stderr" || rc=$?
	expect_eq "$rc" 3 "import with $bad"
	grep -q '^tpsdb: error: .*round\|^tpsdb: error: .*batch' "$T/stderr" ||
		fail "$bad: $(cat "$T/stderr")"
	expect_eq "$(sqlite3 "$T/c.db" "SELECT count(*) FROM run")" 1 "nothing stored for $bad"
done
echo ok
