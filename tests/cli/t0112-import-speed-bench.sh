#!/usr/bin/env bash
# t0112-import-speed-bench.sh: the --output files of llama.cpp's speed_bench.py (made by
# tests/data/speed-bench/make.sh from the real script and server) import one run per
# file, one sample per request named by its category, with the file's counts: decode
# from completion_tokens / predicted_ms, draft counts as written, prefill only where
# one turn lets prompt_n come back from the server's own rate. Then the two plain and
# two speculative instances meet: compare (two engines, pooled by tag) gives an
# interval on the pooled instances' geometric means and the acceptance of each
# category summed over each side's files (greedy against sampled drafting too);
# sweep (one engine, plain as the base rung) gives acceptance as accepted /
# drafted over the files.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3 valgrind
tmp_store speed-bench
fail() { echo "FAIL: $*" >&2; exit 1; }

"$TPSDB_BIN" import --engine plain --tag t1 "$D/plain-1.json" "$D/plain-2.json" >"$tmp/out"
grep -q '^imported 18 sample(s) from speed-bench into 2 new runs ' "$tmp/out" ||
	fail "plain: $(cat "$tmp/out")"
"$TPSDB_BIN" import --engine spec --tag t1 "$D/spec-1.json" "$D/spec-2.json" >/dev/null

# Every sample against the file it came from, read here without tpsdb.
"$TPSDB_BIN" export >"$tmp/export.jsonl"
python3 - "$tmp/export.jsonl" "$D" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) == 4, len(lines)
files = {"plain": ["plain-1.json", "plain-2.json"], "spec": ["spec-1.json", "spec-2.json"]}
seen = {"plain": 0, "spec": 0}
for line in lines:
    run, samples = line["run"], line["samples"]
    eng = run["engine"]["label"]
    assert run["endpoint"] == "/v1/chat/completions" and run["n_predict"] == 32, run
    assert run["temperature"] == 0 and run["ignore_eos"] == 1 and run["tag"] == "t1", run
    assert run["source"] == "speed-bench" and run["spec_type"] == "", run
    # Which file: the one whose results match this run's draft counts and times.
    doc = json.load(open(sys.argv[2] + "/" + files[eng][seen[eng]]))
    seen[eng] += 1
    res = doc["results"]
    assert len(samples) == len(res) == 9, len(samples)
    by_id = {r["id"]: r for r in res}
    cats = {}
    for s in samples:
        r = by_id[s["timings"]["id"]]
        cats.setdefault(s["prompt"], []).append((s["rep"], r["id"]))
        assert s["prompt"] == r["category"], (s["prompt"], r)
        assert s["seq"] == res.index(r), (s["seq"], r["id"])
        assert s["predicted_n"] == r["completion_tokens"] and s["predicted_ms"] == r["predicted_ms"]
        assert s["draft_n"] == r["draft_n"] and s["draft_n_accepted"] == r["draft_n_accepted"]
        assert abs(s["wall_ms"] - r["latency_s"] * 1000) < 1e-9 and s["stop_type"] == "limit", s
        if r["turns"] == 1:
            n = round(r["prompt_per_second"] * r["prompt_ms"] / 1000)
            assert s["prompt_n"] == n and s["cache_n"] == r["prompt_tokens"] - n, (s, r)
            assert s["prompt_ms"] == r["prompt_ms"], s
        else:
            # The script's multi-turn prefill rate divides every turn's prompt by
            # the time of the uncached part: not kept.
            assert s["prompt_ms"] is None and s["prompt_per_second"] is None, s
    # Three requests a category, repetitions 1..3 in the order of their ids.
    assert sorted(cats) == ["coding", "math", "writing"], cats
    for c, reps in cats.items():
        assert sorted(reps) == [(1, c + "-1"), (2, c + "-2"), (3, c + "-3")], reps
    drafted = sum(s["draft_n"] for s in samples)
    assert (drafted == 0) == (eng == "plain"), (eng, drafted)
assert seen == {"plain": 2, "spec": 2}, seen
PY

# compare: the two instances a side pool under their tag; the tok/s are the
# geometric means over instances of each instance's geometric mean of n / t.
"$TPSDB_BIN" compare --ours spec --vs plain --tag t1 --metric tg --json >"$tmp/cmp.json"
python3 - "$tmp/cmp.json" "$D" <<'PY'
import json, math, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert len(rows) == 1, rows
r = rows[0]
def gm(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))
def side(names):
    inst = []
    for f in names:
        res = json.load(open(sys.argv[2] + "/" + f))["results"]
        inst.append(gm([x["completion_tokens"] / x["predicted_ms"] * 1000 for x in res]))
    return gm(inst)
ours, vs = side(["spec-1.json", "spec-2.json"]), side(["plain-1.json", "plain-2.json"])
assert abs(r["ours_median"] / ours - 1) < 1e-9 and abs(r["vs_median"] / vs - 1) < 1e-9, (r, ours, vs)
assert r["instances_ours"] == 2 and r["instances_vs"] == 2, r
assert r["ci_lo_pct"] < r["delta_pct"] < r["ci_hi_pct"], r
assert r["excluded_ours"] == 0 and r["excluded_vs"] == 0, r
# Acceptance by category, accepted / drafted summed over each side's files.
acc = json.load(open(sys.argv[1]))["acceptance"]
want = {}
for k, names in enumerate((["spec-1.json", "spec-2.json"], ["plain-1.json", "plain-2.json"])):
    for f in names:
        for x in json.load(open(sys.argv[2] + "/" + f))["results"]:
            for c in (x["category"], None):
                w = want.setdefault(c, [0, 0, 0, 0])
                w[2 * k] += x["draft_n"]
                w[2 * k + 1] += x["draft_n_accepted"]
assert [a["prompt"] for a in acc] == ["coding", "math", "writing", None], acc
for a in acc:
    d, n, vd, vn = want[a["prompt"]]
    assert d > 0 and vd == 0, (a, want)
    assert (a["ours_drafted"], a["ours_accepted"], a["vs_drafted"]) == (d, n, 0), a
    assert a["ours"] == n / d and a["vs"] is None and a["runs_ours"] == 2, a
PY
"$TPSDB_BIN" compare --ours spec --vs plain --tag t1 --metric tg >"$tmp/cmp.txt"
grep -q '^draft acceptance by prompt (accepted / drafted, summed over each side.s pooled runs; drafted: spec/plain):$' "$tmp/cmp.txt" ||
	fail "no acceptance table: $(cat "$tmp/cmp.txt")"
grep -Eq '^unknown \(/v1/chat/completions\)  writing +1\.000 +- +192/0$' "$tmp/cmp.txt" ||
	fail "writing's acceptance: $(cat "$tmp/cmp.txt")"
# The text (acceptance table and all) and markdown writers leak nothing (a
# sanitized build checks its own leaks: valgrind cannot run it).
grep -qa __asan_init "$TPSDB_BIN" && echo "t0112: a sanitized build: LeakSanitizer, not valgrind" >&2 ||
for fmt in text md; do
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		"$TPSDB_BIN" compare --ours spec --vs plain --tag t1 --format $fmt >/dev/null 2>"$tmp/vg" ||
		fail "valgrind, $fmt: $(cat "$tmp/vg")"
done

# Two speculative engines: greedy (every draft accepted) against sampled at
# temperature 1 (most rejected); each side's acceptance by category is its own
# files' accepted / drafted.
"$TPSDB_BIN" import --engine hot --tag t1 "$D/hot-1.json" "$D/hot-2.json" >/dev/null
"$TPSDB_BIN" compare --ours hot --vs spec --tag t1 --metric tg --json >"$tmp/hot.json"
python3 - "$tmp/hot.json" "$D" <<'PY'
import json, sys
acc = json.load(open(sys.argv[1]))["acceptance"]
sums = {}
for k, names in enumerate((["hot-1.json", "hot-2.json"], ["spec-1.json", "spec-2.json"])):
    for f in names:
        for x in json.load(open(sys.argv[2] + "/" + f))["results"]:
            for c in (x["category"], None):
                w = sums.setdefault(c, [0, 0, 0, 0])
                w[2 * k] += x["draft_n"]
                w[2 * k + 1] += x["draft_n_accepted"]
assert [a["prompt"] for a in acc] == ["coding", "math", "writing", None], acc
for a in acc:
    d, n, vd, vn = sums[a["prompt"]]
    assert (a["ours_drafted"], a["ours_accepted"], a["vs_drafted"], a["vs_accepted"]) == (d, n, vd, vn), a
    assert a["ours"] == n / d and a["vs"] == vn / vd, a
    assert 0 < a["ours"] < 1 and a["vs"] == 1, a
PY

# sweep: one engine, the plain files as the base rung, the speculative ones as
# n_max 4; acceptance is accepted / drafted over both files.
export TPSDB_DB=$tmp/sweep.db
"$TPSDB_BIN" import --engine llama --tag plain "$D/plain-1.json" "$D/plain-2.json" >/dev/null
"$TPSDB_BIN" import --engine llama --tag spec --spec-type draft-simple --n-max 4 \
	"$D/spec-1.json" "$D/spec-2.json" >/dev/null
"$TPSDB_BIN" sweep --tag plain,spec --json >"$tmp/sweep.json" || test $? = 1
python3 - "$tmp/sweep.json" "$D" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert len(doc["series"]) == 1, doc["series"]
pts = doc["series"][0]["points"]
assert [p["n_max"] for p in pts] == [None, 4], pts
res = [x for f in ("spec-1.json", "spec-2.json")
       for x in json.load(open(sys.argv[2] + "/" + f))["results"]]
acc = sum(x["draft_n_accepted"] for x in res) / sum(x["draft_n"] for x in res)
assert pts[0]["accept"] is None and abs(pts[1]["accept"] - acc) < 1e-12, pts
assert pts[0]["instances"] == 2 and pts[1]["instances"] == 2, pts
assert pts[1]["tg_ci_lo"] < pts[1]["tg"] < pts[1]["tg_ci_hi"], pts[1]
PY

# A request the script saw fail (ok false, its zeros, its error) is a failed
# sample carrying that error, not a refusal and not a rate; a one-turn prefill
# rate that gives back no whole count keeps no count.
export TPSDB_DB=$tmp/failed.db
python3 - "$D/spec-1.json" "$tmp/failed.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
r = doc["results"][4]
r.update(ok=False, error="HTTP 500: boom", completion_tokens=0, prompt_tokens=0, total_tokens=0,
         draft_n=0, draft_n_accepted=0, prompt_ms=None, predicted_ms=None,
         prompt_per_second=None, predicted_per_second=None, finish_reason=None)
# A prefill rate no whole count over prompt_ms gives: no count is made up.
doc["results"][0]["prompt_per_second"] = 1234.5
json.dump(doc, open(sys.argv[2], "w"), indent=2, sort_keys=True)
PY
"$TPSDB_BIN" import --engine e "$tmp/failed.json" >/dev/null
"$TPSDB_BIN" export | python3 -c '
import json, sys
s = json.loads(sys.stdin.readline())["samples"]
bad = [x for x in s if x["error"]]
assert len(s) == 9 and len(bad) == 1, s
b = bad[0]
assert b["error"] == "HTTP 500: boom" and b["flags"] & 8 and b["predicted_n"] is None, b
assert b["prompt"] == "math" and b["timings"]["id"] == "math-2", b
c = [x for x in s if x["timings"]["id"] == "coding-1"][0]
assert c["prompt_n"] is None and c["cache_n"] is None and c["prompt_per_second"] == 1234.5, c
'
