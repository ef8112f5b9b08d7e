#!/usr/bin/env bash
# t0460-plan-gpu.sh: `tpsdb plan` over a real store imported from the H200 fixtures
# (tests/data/gpu/gpu-rounds.jsonl, gpu-aa10.jsonl) agrees with an independent
# computation over the store's own export (Python, mpmath for the t quantile): the
# variance parts after each (prompt, rep) slot's level, the instance and request
# costs from start/end and wall_ms, Kalibera and Jones' m*, the prompts-first design,
# the rounds for the target and the server time, for the plan and the default, in
# three selections (--ours/--vs over two batches, --batch, --engine with --tag and
# --mde 1). Text and markdown print the same figures as JSON.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3
python3 -c 'import mpmath' 2>/dev/null || skip "python3-mpmath is not installed"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
G=$TPSDB_TEST_DATA/gpu
db=$tmp/p.db
fail() { echo "FAIL: $*" >&2; exit 1; }

"$TPSDB_BIN" --db "$db" import "$G/gpu-rounds.jsonl" "$G/gpu-aa10.jsonl" >/dev/null
"$TPSDB_BIN" --db "$db" export --out "$tmp/all.jsonl"
batch=$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)["run"]
    if r["tag"] == "gpu-rounds":
        print(r["batch"]); break' "$tmp/all.jsonl")

"$TPSDB_BIN" --db "$db" plan --ours ours --vs llama.cpp --json >"$tmp/a.json"
"$TPSDB_BIN" --db "$db" plan --ours ours --vs nograph --batch "$batch" --json >"$tmp/b.json"
"$TPSDB_BIN" --db "$db" plan --engine ours --tag aa10 --mde 1 --format json >"$tmp/c.json"
"$TPSDB_BIN" --db "$db" plan --ours ours --vs llama.cpp >"$tmp/a.txt"
"$TPSDB_BIN" --db "$db" plan --ours ours --vs llama.cpp --format md >"$tmp/a.md"

python3 - "$tmp" "$batch" <<'PY'
import datetime, functools, json, math, sys
import mpmath

d, batch = sys.argv[1], sys.argv[2]
runs = [json.loads(l) for l in open(f"{d}/all.jsonl")]

@functools.lru_cache(maxsize=None)
def t975(df):
    # P(T <= t) = 1 - I_{df/(df+t^2)}(df/2, 1/2) / 2 for t > 0; bisection.
    lo, hi = 0.0, 100.0
    for _ in range(64):
        mid = (lo + hi) / 2
        cdf = 1 - mpmath.betainc(df / 2, 0.5, 0, df / (df + mid * mid), regularized=True) / 2
        lo, hi = (mid, hi) if cdf < 0.975 else (lo, mid)
    return lo

def ts(s):
    return datetime.datetime.fromisoformat(s.replace("Z", "+00:00"))

def reference(sides, pick, mde, P0, R0):
    rs = [r for r in runs if r["run"]["engine"]["label"] in sides and pick(r["run"])]
    out = {}
    key = {"pp": "prompt_per_second", "tg": "predicted_per_second"}
    for met in ("pp", "tg"):
        ssw = dfw = ssb = dfb = inv = 0.0
        k = 0
        for side in sides:
            inst = [r for r in rs if r["run"]["engine"]["label"] == side]
            slot = {}
            for r in inst:
                for s in r["samples"]:
                    assert s["flags"] == 0
                    slot.setdefault((s["prompt_hash"], s["rep"]), []).append(math.log(s[key[met]]))
            sm = {q: sum(v) / len(v) for q, v in slot.items()}
            means = []
            for r in inst:
                y = [math.log(s[key[met]]) - sm[(s["prompt_hash"], s["rep"])] for s in r["samples"]]
                m = sum(y) / len(y)
                ssw += sum((v - m) ** 2 for v in y)
                dfw += len(y) - 1
                inv += 1 / len(y)
                means.append(m)
            dfw -= len(slot) - 1
            g = sum(means) / len(means)
            ssb += sum((m - g) ** 2 for m in means)
            dfb += len(means) - 1
            k += len(means)
        sw2, sm2 = ssw / dfw, ssb / dfb
        sb2 = max(0.0, sm2 - sw2 * inv / k)
        over = sorted((ts(r["run"]["ended_at"]) - ts(r["run"]["started_at"])).total_seconds() * 1000
                      - sum(s["wall_ms"] for s in r["samples"]) for r in rs)
        walls = sorted(s["wall_ms"] for r in rs for s in r["samples"])
        med = lambda v: (v[(len(v) - 1) // 2] + v[len(v) // 2]) / 2
        ci, cr = med(over), med(walls)
        mstar = math.sqrt(ci * sw2 / (cr * sb2)) if sb2 > 0 else math.inf
        P = max(len({s["prompt_hash"] for s in r["samples"]}) for r in rs)
        def split(m):
            p = min(m, P)
            return p, -(-m // p)
        def rounds(m, sb2=sb2, sw2=sw2):
            var = 2 * (sb2 + sw2 / m)
            h = math.asinh(mde / 100)
            n = 2
            while t975(n - 1) * math.sqrt(var / n) > h:
                n += 1
            return n, n * 2 * (ci + m * cr) / 1000
        assert mstar < 32, mstar
        fl = max(1, math.floor(mstar))
        cands = [split(fl), split(fl + 1)]
        eff = lambda pr: (ci + pr[0] * pr[1] * cr) * (sb2 + sw2 / (pr[0] * pr[1]))
        best = cands[1] if eff(cands[1]) < eff(cands[0]) else cands[0]
        n, t = rounds(best[0] * best[1])
        dn, dt = rounds(P0 * R0)
        out[met] = dict(sw=100 * math.sqrt(sw2), sb=100 * math.sqrt(sb2), k=k, ci=ci, cr=cr,
                        mstar=mstar, design=best, rounds=n, time=t, drounds=dn, dtime=dt,
                        rounds_of=rounds)
    # One design for both metrics: the least time over every prompts x reps of
    # <= P prompts and <= 32 requests, each at the rounds of its worse metric; a
    # tie to more prompts.
    both = None
    for p in range(P, 0, -1):
        for r in range(1, 32 // p + 1):
            n = max(out[x]["rounds_of"](p * r)[0] for x in out)
            t = n * 2 * (ci + p * r * cr) / 1000
            if both is None or t < both[3]:
                both = (p, r, n, t)
    out["both"] = both
    out["both_default"] = max(out[x]["drounds"] for x in ("pp", "tg"))
    return out

def close(a, b, what, rel=1e-9):
    assert abs(a - b) <= rel * max(1.0, abs(b)), (what, a, b)

def check(name, sides, pick, mde):
    got = json.load(open(f"{d}/{name}.json"))
    assert got["mde_pct"] == mde and got["sides"] == sides, got
    P0, R0 = got["default_design"]["prompts"], got["default_design"]["reps"]
    ref = reference(sides, pick, mde, P0, R0)
    rows = {r["metric"]: r for r in got["rows"]}
    assert len(got["rows"]) == 2 and set(rows) == {"pp", "tg"}, got["rows"]
    assert len(got["cells"]) == 1, got["cells"]
    cell, (p, r, n, t) = got["cells"][0], ref.pop("both")
    assert (cell["plan"]["prompts"], cell["plan"]["reps"], cell["plan"]["rounds"]) == (p, r, n), \
        (name, cell, (p, r, n, t))
    close(cell["plan"]["server_s"], t, name + " both", 1e-6)
    assert cell["default"]["rounds"] == ref.pop("both_default"), (name, cell)
    for met, e in ref.items():
        r = rows[met]
        what = f"{name} {met}"
        assert r["status"] == "ok" and r["reason"] is None, r
        assert r["model"] == "m7b" and r["n_predict"] == 128, r
        assert r["instances"] == e["k"], (what, r["instances"], e["k"])
        close(r["sd_within_pct"], e["sw"], what + " sd_within")
        close(r["sd_between_pct"], e["sb"], what + " sd_between")
        close(r["instance_cost_ms"], e["ci"], what + " instance cost", 1e-6)
        close(r["request_cost_ms"], e["cr"], what + " request cost")
        close(r["m_star"], e["mstar"], what + " m*", 1e-6)
        assert (r["plan"]["prompts"], r["plan"]["reps"]) == e["design"], (what, r["plan"], e)
        assert r["plan"]["rounds"] == e["rounds"], (what, r["plan"], e)
        close(r["plan"]["server_s"], e["time"], what + " server time", 1e-6)
        assert r["default"]["rounds"] == e["drounds"], (what, r["default"], e)
        close(r["default"]["server_s"], e["dtime"], what + " default time", 1e-6)
        close(r["default_cost_ratio"], e["dtime"] / e["time"], what + " ratio", 1e-6)
    return rows

a = check("a", ["ours", "llama.cpp"], lambda r: True, 2)
check("b", ["ours", "nograph"], lambda r: r["batch"] == batch, 2)
c = check("c", ["ours"], lambda r: r["tag"] == "aa10", 1)
assert a["tg"]["instances_ours"] == 13 and a["tg"]["instances_vs"] == 13, a["tg"]
assert c["tg"]["instances_engine"] == 10 and "instances_vs" not in c["tg"], c["tg"]
# A tighter target needs more rounds of the same kind of design.
assert c["tg"]["plan"]["rounds"] > 4, c["tg"]

# The text and markdown tables carry the JSON's figures.
txt, md = open(f"{d}/a.txt").read(), open(f"{d}/a.md").read()
for met, r in a.items():
    line = next(l for l in txt.splitlines() if l.split()[:2] == ["m7b", met])
    f = line.split()
    assert f[4] == "%.2f" % r["sd_within_pct"] and f[5] == "%.2f" % r["sd_between_pct"], line
    assert f[9] == "%dx%d" % (r["plan"]["prompts"], r["plan"]["reps"]), line
    assert f[10] == str(r["plan"]["rounds"]) and f[11] == "%.1f" % r["plan"]["server_s"], line
    assert f[12] == str(r["default"]["rounds"]), line
    row = next(l for l in md.splitlines() if l.startswith("| m7b") and f"| {met} " in l)
    cells = [x.strip() for x in row.strip("|").split("|")]
    assert cells[2:] == f[2:], (cells, f)
assert "Kalibera and Jones" in txt and "prompts first" in txt, txt
PY

# Too little data is said, not guessed: one round of the A/A pair is one instance a
# side; runs without a complete status have no instance cost.
python3 - "$G/gpu-aa10.jsonl" "$tmp" <<'PY'
import json, sys
src, d = sys.argv[1], sys.argv[2]
with open(f"{d}/one.jsonl", "w") as one, open(f"{d}/nocost.jsonl", "w") as nc:
    for line in open(src):
        x = json.loads(line)
        if x["run"]["round"] == 1:
            one.write(line)
        if x["run"]["round"] <= 3:
            x["run"]["status"] = "interrupted"
            nc.write(json.dumps(x) + "\n")
PY
"$TPSDB_BIN" --db "$tmp/one.db" import "$tmp/one.jsonl" >/dev/null
"$TPSDB_BIN" --db "$tmp/one.db" plan --ours ours --vs llama.cpp >"$tmp/one.txt"
grep -q "m7b tg: too little data: 'ours' has 1 instance with usable tg values" "$tmp/one.txt" ||
	fail "one instance a side is said: $(cat "$tmp/one.txt")"
"$TPSDB_BIN" --db "$tmp/one.db" plan --ours ours --vs llama.cpp --json >"$tmp/one.json"
"$TPSDB_BIN" --db "$tmp/nc.db" import "$tmp/nocost.jsonl" >/dev/null
"$TPSDB_BIN" --db "$tmp/nc.db" plan --engine llama.cpp --json >"$tmp/nc.json"
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
for r in json.load(open(f"{d}/one.json"))["rows"]:
    assert r["status"] == "too-few-instances" and r["plan"] is None, r
    assert r["sd_between_pct"] is None and r["m_star"] is None, r
    assert r["instances_ours"] == 1 and r["instances_vs"] == 1, r
for r in json.load(open(f"{d}/nc.json"))["rows"]:
    assert r["status"] == "no-cost" and r["plan"] is None and r["default"] is None, r
    assert r["instance_cost_ms"] is None and r["cost_instances"] == 0, r
    assert r["sd_within_pct"] > 0 and r["instances"] == 3, r
    assert r["reason"].startswith("cost unknown"), r
PY

# Conventions: --help on stdout, usage errors exit 2 before the store is opened, a
# selection with no cell one error line and exit 3.
"$TPSDB_BIN" --db "$db" plan --help >"$tmp/h" 2>"$tmp/e"
head -n 1 "$tmp/h" | grep -q '^usage: tpsdb plan' && grep -q '^Exit codes:' "$tmp/h" &&
	test ! -s "$tmp/e" || fail "plan --help"
for args in "--ours ours" "--engine ours --vs x" "--engine ours --mde 0" "--engine ours --mde x" \
	"--engine ours extra" "--engine ours --format html"; do
	rc=0
	# shellcheck disable=SC2086
	"$TPSDB_BIN" --db "$tmp/none.db" plan $args >"$tmp/o" 2>"$tmp/e" || rc=$?
	[ "$rc" = 2 ] && grep -q '^tpsdb: error: ' "$tmp/e" || fail "plan $args: exit $rc"
done
test ! -e "$tmp/none.db" || fail "a usage error created the store"

# --format csv: the table of cells and metrics alone, the text's columns.
"$TPSDB_BIN" --db "$db" plan --engine ours >"$tmp/text" 2>"$tmp/e" || fail "plan text"
"$TPSDB_BIN" --db "$db" plan --engine ours --format csv >"$tmp/csv" 2>"$tmp/e" || fail "plan csv"
python3 - "$tmp/text" "$tmp/csv" <<'PY' || fail "plan: the csv is not the text's table"
import csv, re, sys
head = next(re.split(r"\s{2,}", l.strip()) for l in open(sys.argv[1]) if l.startswith("CELL "))
rows = list(csv.reader(open(sys.argv[2], newline="")))
assert rows[0] == head, (rows[0], head)
assert len(rows) > 1 and all(len(r) == len(head) for r in rows), rows
PY
rc=0
"$TPSDB_BIN" --db "$db" plan --engine ours --model nope >"$tmp/o" 2>"$tmp/e" || rc=$?
[ "$rc" = 3 ] && [ "$(wc -l <"$tmp/e")" = 1 ] &&
	grep -q "^tpsdb: error: --model 'nope': no model of that name in the store" "$tmp/e" ||
	fail "no cell: exit $rc, $(cat "$tmp/e")"
