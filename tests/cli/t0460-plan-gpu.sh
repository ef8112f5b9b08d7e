#!/usr/bin/env bash
# t0460-plan-gpu.sh: `tpsdb plan` over real stores imported from the GPU fixtures
# agrees with an independent computation over the store's own export (Python): the
# matched rounds (ours and vs of one batch's round), their log ratio d's sd, the
# within-instance part after each (prompt, rep) slot's level, the difference part
# SD_BD^2 = max(0, var(d) - 2 SD_W^2 mean(1/m)), the costs, and designs that keep
# every prompt with a round sd of SD_BD^2 + 2 SD_W^2 / m. On the H100 versions
# fixture (tests/data/gpu/gpu-versions.jsonl) the round sd plan predicts for the
# design the rounds had is within 15% of the sd d shows, per metric: in sample
# (the same rounds fit and test it), so this checks the decomposition and the
# pairing, not a forecast. Usage errors, too little data, and no "inf".
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3
tmp_store gpu
db=$tmp/p.db
fail() { echo "FAIL: $*" >&2; exit 1; }

"$TPSDB_BIN" --db "$db" import "$D/gpu-rounds.jsonl" "$D/gpu-aa10.jsonl" >/dev/null
"$TPSDB_BIN" --db "$db" export --out "$tmp/all.jsonl"
"$TPSDB_BIN" --db "$db" plan --ours ours --vs llama.cpp --json >"$tmp/a.json"
"$TPSDB_BIN" --db "$tmp/v.db" import "$D/gpu-versions.jsonl" >/dev/null
"$TPSDB_BIN" --db "$tmp/v.db" export --out "$tmp/v.jsonl"
"$TPSDB_BIN" --db "$tmp/v.db" plan --ours new --vs old --tag versions --json >"$tmp/vo.json"
"$TPSDB_BIN" --db "$tmp/v.db" plan --ours new --vs aa --tag versions --band 1 --power 0.9 \
	--max-rounds 20 --json >"$tmp/va.json"

python3 - "$tmp" <<'PY' || fail "plan disagrees with the reference"
import json, math, sys

d = sys.argv[1]
key = {"pp": ("prompt_n", "prompt_ms", "prompt_per_second"),
       "tg": ("predicted_n", "predicted_ms", "predicted_per_second")}

def rate(s, met):
    n, ms, ps = key[met]
    if s.get(n) and s.get(ms) and s[n] > 0 and s[ms] > 0:
        return s[n] / s[ms] * 1000
    return s[ps]

def reference(path, sides, pick):
    runs = [json.loads(l)["run"] | {"samples": json.loads(l)["samples"]} for l in open(path)]
    rs = [r for r in runs if r["engine"]["label"] in sides and pick(r)]
    out = {}
    for met in ("pp", "tg"):
        ssw = dfw = 0.0
        for side in sides:
            inst = [r for r in rs if r["engine"]["label"] == side]
            slot = {}
            for r in inst:
                for s in r["samples"]:
                    slot.setdefault((s["prompt_hash"], s["rep"]), []).append(math.log(rate(s, met)))
            sm = {q: sum(v) / len(v) for q, v in slot.items()}
            for r in inst:
                y = [math.log(rate(s, met)) - sm[(s["prompt_hash"], s["rep"])]
                     for s in r["samples"]]
                m = sum(y) / len(y)
                ssw += sum((v - m) ** 2 for v in y)
                dfw += len(y) - 1
            dfw -= len(slot) - 1
        sw2 = ssw / dfw
        lg = lambda r: sum(math.log(rate(s, met)) for s in r["samples"]) / len(r["samples"])
        by = {(r["batch"], r["round"]): r for r in rs if r["engine"]["label"] == sides[1]}
        dd, inv = [], []
        for r in rs:
            if r["engine"]["label"] != sides[0] or (r["batch"], r["round"]) not in by:
                continue
            v = by[(r["batch"], r["round"])]
            dd.append(lg(r) - lg(v))
            inv += [1 / len(r["samples"]), 1 / len(v["samples"])]
        mean = sum(dd) / len(dd)
        var = sum((x - mean) ** 2 for x in dd) / (len(dd) - 1)
        im = sum(inv) / len(inv)
        sbd2 = max(0.0, var - 2 * sw2 * im)
        P = max(len({s["prompt_hash"] for s in r["samples"]}) for r in rs)
        out[met] = dict(n=len(dd), sd=100 * math.sqrt(var), sw=100 * math.sqrt(sw2),
                        sbd=100 * math.sqrt(sbd2), fit=100 * math.sqrt(sbd2 + 2 * sw2 * im),
                        im=im, P=P, sbd2=sbd2, sw2=sw2)
    return out

def close(a, b, what, rel=1e-6):
    assert abs(a - b) <= rel * max(1e-3, abs(b)), (what, a, b)

def check(name, path, sides, pick):
    got = json.load(open(f"{d}/{name}.json"))
    ref = reference(path, sides, pick)
    rows = {r["metric"]: r for r in got["rows"]}
    assert set(rows) == {"pp", "tg"} and len(got["cells"]) == 1, got
    for met, e in ref.items():
        r, what = rows[met], f"{name} {met}"
        assert r["status"] == "ok" and r["paired"] and r["rounds_matched"] == e["n"], (what, r)
        close(r["round_sd_pct"], e["sd"], what + " observed round sd")
        close(r["sd_within_pct"], e["sw"], what + " within")
        close(r["sd_round_diff_pct"], e["sbd"], what + " difference part")
        close(r["round_sd_fit_pct"], e["fit"], what + " fitted round sd")
        close(r["mean_inv_requests"], e["im"], what + " mean 1/m")
        ci, cr = r["instance_cost_ms"], r["request_cost_ms"]
        for k in ("plan", "default"):
            p = r[k]
            m = p["prompts"] * p["reps"]
            close(p["round_sd_pct"], 100 * math.sqrt(e["sbd2"] + 2 * e["sw2"] / m), what + k)
            if p["rounds"] is None:
                assert p["server_s"] is None and p["chance"] < got["power"], (what, p)
            else:
                assert 3 <= p["rounds"] <= got["max_rounds"], (what, p)
                assert p["chance"] >= got["power"], (what, p)
                assert 3 <= p["mean_rounds"] <= p["rounds"], (what, p)
                close(p["server_s"], p["rounds"] * 2 * (ci + m * cr) / 1000, what + k + " time")
        # Every prompt, only the reps vary.
        assert r["plan"]["prompts"] == e["P"] and r["prompts_asked"] == e["P"], (what, r)
    c = got["cells"][0]["plan"]
    assert c["prompts"] == ref["pp"]["P"], c
    if c["rounds"] is not None:
        assert c["rounds"] >= max(rows[m]["plan"]["rounds"] or 0 for m in rows
                                  if rows[m]["plan"]["reps"] == c["reps"]), (c, rows)
    return got, ref

check("a", f"{d}/all.jsonl", ["ours", "llama.cpp"], lambda r: True)
for name, vs in (("vo", "old"), ("va", "aa")):
    got, ref = check(name, f"{d}/v.jsonl", ["new", vs], lambda r: r["tag"] == "versions")
    # In sample: the prediction for the design the rounds had against their d.
    for r in got["rows"]:
        obs = ref[r["metric"]]["sd"]
        assert abs(r["round_sd_fit_pct"] - obs) <= 0.15 * obs, (name, r["metric"], r, obs)
va = json.load(open(f"{d}/va.json"))
assert va["band_pct"] == 1 and va["power"] == 0.9 and va["max_rounds"] == 20, va
PY

# The text, markdown and CSV carry one table; an absent number is "-" in text and
# empty in CSV; "inf" is never printed. --max-rounds 3 leaves designs out of reach.
"$TPSDB_BIN" --db "$tmp/v.db" plan --ours new --vs old --tag versions --max-rounds 3 \
	>"$tmp/t.txt" || fail "plan text"
"$TPSDB_BIN" --db "$tmp/v.db" plan --ours new --vs old --tag versions --max-rounds 3 \
	--format md >"$tmp/t.md" || fail "plan md"
"$TPSDB_BIN" --db "$tmp/v.db" plan --ours new --vs old --tag versions --max-rounds 3 \
	--format csv >"$tmp/t.csv" || fail "plan csv"
! grep -qi 'inf\b\|nan' "$tmp/t.txt" "$tmp/t.md" "$tmp/t.csv" || fail "inf or nan printed"
grep -q '>3' "$tmp/t.txt" || fail "out of reach is not >3: $(cat "$tmp/t.txt")"
python3 - "$tmp/t.txt" "$tmp/t.csv" <<'PY' || fail "plan: the csv is not the text's table"
import csv, re, sys
head = next(re.split(r"\s{2,}", l.strip()) for l in open(sys.argv[1]) if l.startswith("CELL "))
rows = list(csv.reader(open(sys.argv[2], newline="")))
assert rows[0] == head, (rows[0], head)
assert len(rows) == 3 and all(len(r) == len(head) for r in rows), rows
assert "-" not in [c for r in rows[1:] for c in r], rows
assert any(c == "" for r in rows[1:] for c in r), rows
PY

# Too little data is said, not guessed: one round of the A/A pair is one instance a
# side; runs without a complete status inform no plan (only clean runs do): with
# rounds 1-3 interrupted only the complete rounds 4.. are read, and with every run
# interrupted there is nothing to plan from; rounds that do not match fall back to
# the between-instance part and say so.
python3 - "$D/gpu-aa10.jsonl" "$tmp" <<'PY'
import json, sys
src, d = sys.argv[1], sys.argv[2]
with open(f"{d}/one.jsonl", "w") as one, open(f"{d}/nocost.jsonl", "w") as nc, \
     open(f"{d}/apart.jsonl", "w") as ap:
    for line in open(src):
        x = json.loads(line)
        if x["run"]["round"] == 1:
            one.write(line)
        y = json.loads(line)
        if y["run"]["engine"]["label"] == "llama.cpp":
            y["run"]["round"] += 100
        ap.write(json.dumps(y) + "\n")
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
python3 - "$tmp/nocost.jsonl" >"$tmp/allint.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    x = json.loads(line)
    x["run"]["status"] = "interrupted"
    print(json.dumps(x))
PY
"$TPSDB_BIN" --db "$tmp/ai.db" import "$tmp/allint.jsonl" >/dev/null
rc=0
"$TPSDB_BIN" --db "$tmp/ai.db" plan --engine llama.cpp --json >"$tmp/ai.json" 2>"$tmp/ai.err" || rc=$?
[ "$rc" = 3 ] && grep -qx "tpsdb: error: no clean run (complete, no environment finding) of 'llama.cpp' among the runs selected" \
	"$tmp/ai.err" || fail "no clean run to plan from: rc $rc, $(cat "$tmp/ai.err")"
"$TPSDB_BIN" --db "$tmp/ap.db" import "$tmp/apart.jsonl" >/dev/null
"$TPSDB_BIN" --db "$tmp/ap.db" plan --ours ours --vs llama.cpp --json >"$tmp/ap.json"
"$TPSDB_BIN" --db "$tmp/ap.db" plan --ours ours --vs llama.cpp >"$tmp/ap.txt"
grep -q "matched round.*between-instance\|matched rounds\? (instances of both" "$tmp/ap.txt" ||
	fail "unmatched rounds are not said: $(cat "$tmp/ap.txt")"
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
for r in json.load(open(f"{d}/one.json"))["rows"]:
    assert r["status"] == "too-few-instances" and r["plan"] is None, r
    assert r["sd_between_pct"] is None and r["m_star"] is None, r
    assert r["instances_ours"] == 1 and r["instances_vs"] == 1, r
for r in json.load(open(f"{d}/nc.json"))["rows"]:
    # rounds 1-3 interrupted: not read; the 7 complete ones are, costs and all
    assert r["instances"] == 7 and r["cost_instances"] == 7, r
    assert r["status"] == "ok" and r["plan"] is not None, r
for r in json.load(open(f"{d}/ap.json"))["rows"]:
    assert r["status"] == "too-few-rounds" and r["rounds_matched"] == 0, r
    assert not r["paired"] and r["plan"] is not None and r["round_sd_pct"] is None, r
PY

# Conventions: --help on stdout, usage errors exit 2 before the store is opened, a
# selection with no cell one error line and exit 3.
"$TPSDB_BIN" --db "$db" plan --help >"$tmp/h" 2>"$tmp/e"
head -n 1 "$tmp/h" | grep -q '^usage: tpsdb plan' && grep -q '^Exit codes:' "$tmp/h" &&
	grep -q -- '--power' "$tmp/h" && test ! -s "$tmp/e" || fail "plan --help"
for args in "--ours ours" "--engine ours --vs x" "--engine ours --band 0" "--engine ours --band x" \
	"--engine ours --mde 0" "--engine ours --power 0" "--engine ours --power 1" \
	"--engine ours --power x" "--engine ours --max-rounds 1" "--engine ours --max-rounds 101" \
	"--engine ours --max-rounds 2.5" "--engine ours extra" "--engine ours --format html"; do
	rc=0
	# shellcheck disable=SC2086
	"$TPSDB_BIN" --db "$tmp/none.db" plan $args >"$tmp/o" 2>"$tmp/e" || rc=$?
	[ "$rc" = 2 ] && grep -q '^tpsdb: error: ' "$tmp/e" || fail "plan $args: exit $rc"
done
test ! -e "$tmp/none.db" || fail "a usage error created the store"
rc=0
"$TPSDB_BIN" --db "$db" plan --engine ours --model nope >"$tmp/o" 2>"$tmp/e" || rc=$?
[ "$rc" = 3 ] && [ "$(wc -l <"$tmp/e")" = 1 ] &&
	grep -q "^tpsdb: error: --model 'nope': no model of that name in the store" "$tmp/e" ||
	fail "no cell: exit $rc, $(cat "$tmp/e")"
