#!/usr/bin/env bash
# t0601-gpu-fixture.sh: the GPU proof's export (tests/data/gpu/gpu-proof.jsonl, a real
# H200 run, see docs/PERFORMANCE.md) re-imports and reproduces its documented
# verdicts: host provenance from nvidia-smi, warm-up recorded, the --warmup 0 run's
# cold first request flagged and left out of prefill, monotone sweeps for both
# engines, an A/A floor that compare then uses, and parity within it.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3
tmp_dir
export TPSDB_DB=$tmp/gpu.db
F=$TPSDB_TEST_DATA/gpu/gpu-proof.jsonl

out=$("$TPSDB_BIN" import "$F")
case $out in *"restored 9 run(s) with 27 sample(s)"*) ;; *) echo "import: $out"; exit 1 ;; esac

# Provenance: what nvidia-smi said on the H200.
"$TPSDB_BIN" export --format jsonl >"$tmp/re.jsonl"
grep -q '"gpu":"NVIDIA H200","driver":"580.159.04","cuda":"13.0"' "$tmp/re.jsonl"

# The only finding: the cold first request of the run collected with --warmup 0.
rc=0
"$TPSDB_BIN" check --json >"$tmp/check.json" || rc=$?
[ "$rc" -eq 1 ]
"$TPSDB_BIN" runs --json >"$tmp/runs.json"
"$TPSDB_BIN" calibrate --engine ours --json >"$tmp/floors.json"
"$TPSDB_BIN" compare --ours ours --vs llama.cpp --json >"$tmp/compare.json"
rc=0
"$TPSDB_BIN" sweep --json >"$tmp/sweep.json" || rc=$?
[ "$rc" -eq 0 ]

python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
load = lambda n: json.load(open(f"{d}/{n}.json"))

runs = load("runs")
assert len(runs) == 9 and all(r["status"] == "complete" for r in runs), runs
assert sorted(r["warmup"] for r in runs) == [0] + [1] * 8
cold_run = next(r["uuid"] for r in runs if r["warmup"] == 0)

check = load("check")
assert [(f["run"], f["kind"], f["count"]) for f in check["findings"]] == \
    [(cold_run, "cold-start", 1)], check["findings"]

floors = {f["metric"]: f for f in load("floors")["floors"]}
assert set(floors) == {"pp", "tg"}, floors
assert abs(floors["tg"]["noise_pct"] - 2.911) < 0.01 and floors["tg"]["n_pairs"] == 3
# The cold request is not an A/A pair member for prefill: 2 pairs left.
assert abs(floors["pp"]["noise_pct"] - 9.44) < 0.01 and floors["pp"]["n_pairs"] == 2

rows = {(r["spec_type"], r["n_max"], r["metric"]): r for r in load("compare")["rows"]}
base_tg = rows[("", None, "tg")]
# An A/A binary pair against one llama.cpp instance: the pair's own spread, or
# the stored floor where larger, is the scatter of the one against the pair (the
# spread method); it decides nothing either way.
assert base_tg["bound"] == "noise" and base_tg["band_pct"] == 2, base_tg
assert base_tg["regression"] == "undecided" and base_tg["verdict"] == "undecided", base_tg
assert base_tg["method"] == "spread" and base_tg["ci_lo_pct"] < -2 < base_tg["ci_hi_pct"], base_tg
assert base_tg["decided"] is False
base_pp = rows[("", None, "pp")]
assert base_pp["excluded_ours"] == 1, base_pp
# One round of a few requests can never make a confident verdict here.
assert all(r["decided"] is False for r in rows.values())

series = {s["engine"]: s for s in load("sweep")["series"]}
# ours' base rung pools its A/A pair (both runs carry the tag gpu-proof): the
# speedup is over their geometric mean; each rung is the geometric mean of its
# requests, as compare reads a cell.
assert [p["instances"] for p in series["ours"]["points"]] == [2, 1, 1, 1]
for eng, speedup3 in (("ours", 1.512), ("llama.cpp", 1.579)):
    s = series[eng]
    assert s["monotone"] and not s["violations"], s
    pts = {p["n_max"]: p for p in s["points"]}
    assert [round(pts[n]["accept"], 3) for n in (1, 2, 3)] == [0.882, 0.821, 0.774]
    assert abs(pts[3]["speedup"] - speedup3) < 0.005, (eng, pts[3]["speedup"])
    assert pts[1]["tg"] < pts[2]["tg"] < pts[3]["tg"]
PY
