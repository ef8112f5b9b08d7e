#!/usr/bin/env bash
# t0351-compare-batch-rounds.sh: the runs' round and batch reach compare and gate.
# collect --rounds 3 of two engines gives compare --json rounds 3, instances 3/3;
# with two batches in the store, compare --batch and gate --batch select one
# invocation's runs (and an unknown batch is still an error); runs are paired by
# their round number, not by start order: an import whose rounds run against the
# start order gives the interval of the round pairing.
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
port=$(free_port)

common=(--engine A="$FS" --engine B="$FS" --ours A --model tiny="$MODEL" --prompts "$PROMPTS"
	--reps 1 --warmup 0 --n-predict 16 --port "$port" --quiet --rounds 3)
echo 0 >"$T/seed-a"
echo 50 >"$T/seed-b"
args=(--engine-args "A=--jitter 0.05 --seed-file $T/seed-a"
	--engine-args "B=--jitter 0.05 --seed-file $T/seed-b")

run_tpsdb collect "${common[@]}" "${args[@]}" --tag one --out-dir "$OUT/1"
expect_eq "$rc" 0 "first collect: $(cat "$T/stderr")"
b1=$(q "SELECT DISTINCT batch FROM run")
"$TPSDB_BIN" --db "$DB" compare --ours A --vs B --metric tg --json >"$T/c1.json"
python3 - "$T/c1.json" <<'PY'
import json, sys
(r,) = json.load(open(sys.argv[1]))["rows"]
assert (r["rounds"], r["instances_ours"], r["instances_vs"]) == (3, 3, 3), r
PY

# A second invocation, A made a third slower.
run_tpsdb collect "${common[@]}" --engine-args "A=--slow 1.5" --out-dir "$OUT/2"
expect_eq "$rc" 0 "second collect: $(cat "$T/stderr")"
b2=$(q "SELECT DISTINCT batch FROM run WHERE batch <> '$b1'")
[ -n "$b2" ] || fail "no second batch"
verdict() { # <batch> -> "rounds instances_ours instances_vs verdict"
	"$TPSDB_BIN" --db "$DB" compare --ours A --vs B --metric tg --batch "$1" --json |
		python3 -c 'import json,sys; (r,) = json.load(sys.stdin)["rows"]
print(r["rounds"], r["instances_ours"], r["instances_vs"], r["verdict"], r["ours_run"])'
}
v1=$(verdict "$b1")
v2=$(verdict "$b2")
expect_match "$v1" '^3 3 3 (parity|undecided|faster|slower) ' "batch 1"
expect_eq "$(echo "$v2" | cut -d' ' -f1-4)" "3 3 3 slower" "batch 2"
expect_eq "$(echo "$v1" | cut -d' ' -f5)" \
	"$(q "SELECT uuid FROM run r JOIN engine e ON e.id=r.engine_id WHERE e.label='A'
	AND batch='$b1' AND round=3")" "batch 1's newest run of A"
# Without --batch, each side pools the batch of its newest run (the follow-up
# to a collect is that collect's answer): the rows of --batch b2, number for
# number, but for the interval: batch 1, an earlier batch of the same cell on
# this host, is history whose round scatter joins batch 2's (whose rounds fall
# exactly a third alike: no scatter of its own, so the F test cannot find it
# louder). --batch b2 alone has no history: a zero-width interval.
"$TPSDB_BIN" --db "$DB" compare --ours A --vs B --metric tg --json >"$T/c.json"
"$TPSDB_BIN" --db "$DB" compare --ours A --vs B --metric tg --batch "$b2" --json >"$T/c-b2.json"
python3 - "$T/c.json" "$T/c-b2.json" <<'PY' || fail "default selection is not the newest batch: $(diff "$T/c.json" "$T/c-b2.json")"
import json, sys
(d,) = json.load(open(sys.argv[1]))["rows"]
(b,) = json.load(open(sys.argv[2]))["rows"]
hist = {"ci_lo_pct", "ci_hi_pct", "mde_pct", "history", "hist_batches", "hist_df",
        "scatter_source", "round_scatter_pct"}
assert d.keys() == b.keys(), (d.keys(), b.keys())
for k in d:
    if k not in hist:
        assert d[k] == b[k], (k, d[k], b[k])
assert d["rounds"] == 3, d
assert (b["history"], b["hist_batches"], b["hist_df"]) == ("none", 0, 0), b
assert (d["history"], d["hist_batches"], d["hist_df"]) == ("pooled", 1, 2), d
assert b["mde_pct"] < 1e-9 and d["mde_pct"] > 0.1, (b["mde_pct"], d["mde_pct"])
assert d["ci_lo_pct"] < d["delta_pct"] < d["ci_hi_pct"], d
assert d["verdict"] == "slower" and d["regression"] == "yes", d
PY
# An unknown batch is an error that names the known ones.
run_tpsdb compare --ours A --vs B --batch no-such-batch
expect_eq "$rc" 3 "unknown batch"
grep -q "^tpsdb: error: --batch 'no-such-batch': no batch of that name in the store (known, closest first: " \
	"$T/stderr" || fail "unknown batch: $(cat "$T/stderr")"
expect_eq "$(wc -l <"$T/stderr")" 1 "unknown batch: one line"
run_tpsdb compare --ours A --vs B --batch ''
expect_eq "$rc" 2 "empty --batch"

# gate --batch: B's first batch is the baseline; A's first batch passes, its
# second (a third slower) fails, on the rounds of the batch.
run_tpsdb baseline set base --engine B --tag one
expect_eq "$rc" 0 "baseline: $(cat "$T/stderr")"
run_tpsdb gate --baseline base --engine A --metric tg --max-regress 20 --batch "$b1" --json
expect_eq "$rc" 0 "gate batch 1: $(cat "$T/stdout")"
run_tpsdb gate --baseline base --engine A --metric tg --max-regress 20 --batch "$b2" --json
expect_eq "$rc" 1 "gate batch 2: $(cat "$T/stdout")"
python3 - "$T/stdout" <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))
(c,) = [c for c in g["cells"] if c.get("metric") == "tg"]
assert c["status"] == "fail" and c["rounds"] == 3 and c["instances_ours"] == 3, c
PY
run_tpsdb gate --baseline base --engine A --batch no-such-batch
expect_eq "$rc" 3 "gate on an unknown batch"

# Round pairing, not start order: batch 1 re-imported with B's rounds 2 3 1 in
# start order (A keeps 1 2 3).
"$TPSDB_BIN" --db "$DB" export --format jsonl >"$T/all.jsonl"
python3 - "$T/all.jsonl" "$b1" "$T/shuffled.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
def run_of(o):
    return o.get("run", o)
keep = [o for o in lines if run_of(o).get("batch") == sys.argv[2]]
b = sorted((o for o in keep if run_of(o)["engine"]["label"] == "B"),
           key=lambda o: run_of(o)["started_at"])
assert [run_of(o)["round"] for o in b] == [1, 2, 3], [run_of(o)["round"] for o in b]
for o, r in zip(b, [2, 3, 1]):
    run_of(o)["round"] = r
with open(sys.argv[3], "w") as f:
    for o in keep:
        f.write(json.dumps(o) + "\n")
PY
DB2=$T/t2.sqlite
"$TPSDB_BIN" --db "$DB2" import "$T/shuffled.jsonl" >/dev/null || fail "import"
"$TPSDB_BIN" --db "$DB2" compare --ours A --vs B --metric tg --batch "$b1" --json >"$T/c2.json"
sqlite3 "$DB2" "SELECT e.label, r.round, r.started_at, (SELECT group_concat(predicted_per_second)
	FROM sample s WHERE s.run_id=r.id) FROM run r JOIN engine e ON e.id=r.engine_id
	ORDER BY r.started_at, r.id" >"$T/runs.txt"
python3 - "$T/c2.json" "$T/runs.txt" <<'PY'
import json, math, statistics, sys
# The estimate, computed here independently: each run reduced to the median of
# its decode samples, rounds paired by number, each round's order (who started
# first) from the start times, the two order groups weighing half each, and a
# 90% t interval whose standard error keeps the spread around the overall mean.
(r,) = json.load(open(sys.argv[1]))["rows"]
runs = [l.strip().split("|") for l in open(sys.argv[2]) if l.strip()]
med = lambda v: statistics.median(float(x) for x in v.split(","))
a = {int(rd): (t, med(v)) for e, rd, t, v in runs if e == "A"}
b = {int(rd): (t, med(v)) for e, rd, t, v in runs if e == "B"}
a_start = [med(v) for e, rd, t, v in runs if e == "A"]
b_start = [med(v) for e, rd, t, v in runs if e == "B"]
T90 = 2.919985580355516  # t(0.95, 2)
def interval(d, first):
    n = len(d); m = sum(d) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1))
    g1 = [x for x, f in zip(d, first) if f]
    g2 = [x for x, f in zip(d, first) if not f]
    if g1 and g2:
        m = (sum(g1) / len(g1) + sum(g2) / len(g2)) / 2
        se = sd * 0.5 * math.sqrt(1 / len(g1) + 1 / len(g2))
    else:
        se = sd / math.sqrt(n)
    return 100 * (math.exp(m - T90 * se) - 1), 100 * (math.exp(m + T90 * se) - 1)
ks = (1, 2, 3)
by_round = interval([math.log(a[k][1] / b[k][1]) for k in ks], [a[k][0] < b[k][0] for k in ks])
by_start = interval([math.log(x / y) for x, y in zip(a_start, b_start)], [True] * 3)
assert abs(by_round[0] - by_start[0]) > 0.1, (by_round, by_start)
assert r["rounds"] == 3, r
assert abs(r["ci_lo_pct"] - by_round[0]) < 1e-3 and abs(r["ci_hi_pct"] - by_round[1]) < 1e-3, \
    (r["ci_lo_pct"], r["ci_hi_pct"], by_round, by_start)
PY
echo ok
