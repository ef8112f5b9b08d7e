#!/usr/bin/env bash
# t0980-gpu-versions.sh: two real llama.cpp versions on a real H100
# (tests/data/gpu/gpu-versions*.jsonl, made by scripts/gpu-versions.sh: CUDA builds
# of v0.4.0 and b8390 and a 7B-shaped model). The base batch (until-decided, 8
# rounds of new = v0.4.0, old = b8390 and aa = v0.4.0 again) carries no
# environment finding, though its facts hold what the earlier rules cried wolf on
# (utilisation of the previous instance's tail before a start, the SW power cap),
# while the run beside a busy program keeps gpu-contended; one rate definition
# makes the two versions' self-reports (127/128 and 1 of n/t) one; the client's
# clock agrees with the server's timings on both; the spec sweep from one line in
# tpsdb's terms ran every n_max on both, each spelled in its engine's dialect.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3
tmp_dir
B=$TPSDB_TEST_DATA/gpu/gpu-versions.jsonl
S=$TPSDB_TEST_DATA/gpu/gpu-versions-spec.jsonl
db=$tmp/v.db
fail() { echo "FAIL: $*" >&2; exit 1; }

"$TPSDB_BIN" --db "$db" import "$B" "$S" >/dev/null
"$TPSDB_BIN" --db "$db" check --json >"$tmp/check.json" || true
"$TPSDB_BIN" --db "$db" export >"$tmp/export.jsonl"

python3 - "$tmp/check.json" "$B" "$S" "$tmp/export.jsonl" <<'PY'
import json, statistics, sys
check = json.load(open(sys.argv[1]))
runs = [json.loads(l) for f in sys.argv[2:4] for l in open(f)]
env_kinds = {"host-busy", "gpu-contended", "gpu-throttled", "clocks-changed",
             "partial-offload", "kv-on-host"}
by_uuid = {d["run"]["uuid"]: d["run"] for d in runs}
flagged = {(by_uuid[f["run"]]["tag"], f["kind"]) for f in check["findings"]
           if f["kind"] in env_kinds}
# The contended run keeps its finding, on its own window's evidence ...
assert flagged == {("contended", "gpu-contended")}, flagged
c = [d["run"] for d in runs if d["run"]["tag"] == "contended"][0]["env"]["gpu"]
assert c["other_procs"] == 1 and c["util_idle"] >= 90, c
# ... while the clean runs hold the facts the earlier rules flagged: a busy reading
# before the start (the previous instance's tail) and the SW power cap.
clean = [d["run"]["env"]["gpu"] for d in runs if d["run"]["tag"] != "contended"]
assert sum(g["util_before"] >= 10 for g in clean) >= 6, clean
assert sum(int(g["throttle_reasons"], 16) & 0x4 != 0 for g in clean) >= 10, clean
assert all(g["util_idle"] < 10 and g["other_procs"] == 0 for g in clean), clean
# export says the findings as derived: none on a clean run.
exp = {json.loads(l)["run"]["uuid"]: json.loads(l)["run"]["env_flags"] for l in open(sys.argv[4])}
assert {u: f for u, f in exp.items() if f} == {[d["run"]["uuid"] for d in runs
                                                 if d["run"]["tag"] == "contended"][0]: 2}, exp

# The two versions word their decode rate differently; the counts do not.
ratio = {}
clock = {}
for d in runs:
    r = d["run"]
    if r["tag"] != "versions":
        continue
    v = "b8390" if r["engine"]["label"] == "old" else "v0.4.0"
    for s in d["samples"]:
        nt = s["predicted_n"] / s["predicted_ms"] * 1000
        ratio.setdefault(v, []).append(s["predicted_per_second"] / nt)
        clock.setdefault(v, []).append(s["client_decode_per_second"] / nt)
assert all(abs(x - 127 / 128) < 1e-6 for x in ratio["v0.4.0"]), ratio["v0.4.0"][:3]
assert all(abs(x - 1) < 1e-6 for x in ratio["b8390"]), ratio["b8390"][:3]
# The client's clock counts the tokens after the first over the first to the last:
# (n - 1) / n of n/t on both, so both versions time the same span.
for v, xs in clock.items():
    assert abs(statistics.median(xs) - 127 / 128) < 0.002, (v, statistics.median(xs))

# One spec line, both dialects, every n_max drafted.
spec = {(d["run"]["engine"]["label"], d["run"]["n_max"]): d for d in runs if d["run"]["tag"] == "spec"}
for e in ("new", "old"):
    for n in (1, 2, 3):
        d = spec[(e, n)]
        assert d["run"]["spec_type"] == "draft-simple" and d["run"]["drafter"] == "m7b.gguf", d["run"]
        assert d["run"]["status"] == "complete", d["run"]
        assert sum(s["draft_n"] or 0 for s in d["samples"]) > 0, (e, n)
PY

# compare answers the clean cells (no longer spoiled) and says nothing of the
# environment; the A/A pair's decode reads parity.
"$TPSDB_BIN" --db "$db" compare --ours new --vs aa --tag versions --json >"$tmp/aa.json" 2>"$tmp/aa.err"
grep -q "environment" "$tmp/aa.err" && fail "compare warned of the environment: $(cat "$tmp/aa.err")"
python3 - "$tmp/aa.json" <<'PY'
import json, sys
rows = {r["metric"]: r for r in json.load(open(sys.argv[1]))["rows"]}
assert rows["tg"]["verdict"] == "parity" and rows["tg"]["regression"] == "no", rows["tg"]
assert all(r["regression"] != "spoiled" for r in rows.values()), rows
PY
echo ok
