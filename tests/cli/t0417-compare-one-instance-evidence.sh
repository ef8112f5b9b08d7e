#!/usr/bin/env bash
# t0417-compare-one-instance-evidence.sh: one instance a side decides only with
# evidence of the machine's instance scatter. A collect of one round, A 1.5x
# slower than B (-33%): in a store with nothing else the pair is shown, not
# decided (reason one-instance, the hint to measure more instances or
# calibrate); after an earlier 3-round batch of the same cell on this machine
# whose rounds scatter within the default, and with the environment facts the
# collector keeps, the same pair decides as before: regression yes against the
# default scatter (bound default). An import of the runs without their facts
# is shown, not decided.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)
need jq

common=(--engine A="$FS" --engine B="$FS" --ours A --model tiny="$MODEL" --prompts "$PROMPTS"
	--reps 1 --warmup 0 --n-predict 16 --port "$port" --quiet)

# The one round alone.
DB=$T/alone.sqlite
run_tpsdb collect "${common[@]}" --rounds 1 --engine-args "A=--slow 1.5" --out-dir "$OUT/a"
expect_eq "$rc" 0 "collect: $(cat "$T/stderr")"
[ "$(q "SELECT count(*) FROM run WHERE env LIKE '{%'")" = 2 ] || fail "the collector keeps facts"
"$TPSDB_BIN" --db "$DB" compare --ours A --vs B --json >"$T/alone.json" || fail "compare"
jq -e 'all(.rows[]; .reason == "one-instance" and .regression == "undecided" and
	.bound == "band" and .delta_pct < -30 and .delta_pct > -36)' "$T/alone.json" >/dev/null ||
	fail "one round alone: $(cat "$T/alone.json")"
"$TPSDB_BIN" --db "$DB" compare --ours A --vs B >"$T/alone.txt" || fail "compare text"
grep -q '^tiny tg: regression undecided: one instance a side, .*tpsdb calibrate) would decide it' \
	"$T/alone.txt" || fail "the hint: $(cat "$T/alone.txt")"

# An earlier batch of three rounds on this machine, then the same one round.
DB=$T/hist.sqlite
run_tpsdb collect "${common[@]}" --rounds 3 --out-dir "$OUT/h"
expect_eq "$rc" 0 "history collect: $(cat "$T/stderr")"
run_tpsdb collect "${common[@]}" --rounds 1 --engine-args "A=--slow 1.5" --out-dir "$OUT/b"
expect_eq "$rc" 0 "collect: $(cat "$T/stderr")"
"$TPSDB_BIN" --db "$DB" compare --ours A --vs B --json >"$T/hist.json" || fail "compare"
jq -e 'all(.rows[]; .reason == null and .regression == "yes" and .bound == "default" and
	.scatter_pct == (if .metric == "pp" then 15 else 8 end) and .method == "requests")' \
	"$T/hist.json" >/dev/null || fail "with evidence: $(cat "$T/hist.json")"

# The same runs exported and re-imported without their facts: shown, not decided.
"$TPSDB_BIN" --db "$DB" export >"$T/all.jsonl" || fail "export"
python3 - "$T/all.jsonl" "$T/nofacts.jsonl" <<'PY'
import json, sys
with open(sys.argv[2], "w") as f:
    for line in open(sys.argv[1]):
        if not line.strip():
            continue
        o = json.loads(line)
        r = o.get("run", o)
        r.pop("env", None)
        f.write(json.dumps(o) + "\n")
PY
DB=$T/nofacts.sqlite
"$TPSDB_BIN" --db "$DB" import "$T/nofacts.jsonl" >/dev/null || fail "import"
"$TPSDB_BIN" --db "$DB" compare --ours A --vs B --json >"$T/nofacts.json" || fail "compare"
jq -e 'all(.rows[]; .reason == "one-instance" and .regression == "undecided")' \
	"$T/nofacts.json" >/dev/null || fail "without facts: $(cat "$T/nofacts.json")"
exit 0
