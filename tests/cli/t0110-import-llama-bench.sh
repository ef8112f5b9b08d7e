#!/usr/bin/env bash
# t0110-import-llama-bench.sh: a real llama-bench file (-fa 0,1 -p 64,128 -n 16 -d 0,512)
# becomes one run per configuration, with its depth, build, time, CPU and config kept
# and shown by `runs` (text, JSON and markdown); two builds compare cell by cell
# with pp judged (not short-prompt); csv/sql averages have no per-repetition
# pairs; -o md is refused.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3
tmp_store llama-bench

"$TPSDB_BIN" import --engine b1 "$D/lb.json" >/dev/null
"$TPSDB_BIN" import --engine b2 "$D/lb-commit2.json" >/dev/null

# runs: 12 configurations per build, each with its config and test_time.
"$TPSDB_BIN" runs --json >"$tmp/runs.json"
python3 - "$tmp/runs.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))
assert len(runs) == 24, len(runs)
for eng in ("b1", "b2"):
    mine = [r for r in runs if r["engine"] == eng]
    configs = {r["config"] for r in mine}
    assert len(configs) == 12, configs
    tests = {c.split(" ")[0] for c in configs}
    assert tests == {"pp64", "pp128", "tg16", "pp64@d512", "pp128@d512", "tg16@d512"}, tests
    assert {c.split(" ")[1] for c in configs} == {"fa=0", "fa=1"}
    for r in mine:
        assert r["n_samples"] == 3 and r["n_flagged"] == 0, r
        assert r["started_at"].startswith("2026-11-30T18:28:2"), r["started_at"]
        assert r["cpu"] == "Intel(R) Xeon(R) Processor", r["cpu"]
PY
"$TPSDB_BIN" runs | head -1 | grep -q 'CONFIG$'
"$TPSDB_BIN" runs | grep -q ' pp64@d512 fa=1 ngl=-1 b=2048 ub=512 ctk=f16 ctv=f16 t=1 sm=layer nkvo=0 backend=CPU$'
# ... and in the markdown table, filters and all.
"$TPSDB_BIN" runs --format md --engine b2 --limit 1 | head -1 | grep -q '| CONFIG  *|$'
test "$("$TPSDB_BIN" runs --format md --engine b2 --limit 1 | grep -c ' [pt][gp][0-9]*@d[0-9]* fa=[01] .* backend=CPU  *|$')" = 1

# The build becomes the engine version.
"$TPSDB_BIN" export --engine b2 | python3 -c '
import json, sys
for line in sys.stdin:
    run = json.loads(line)["run"]
    assert run["engine"]["version"] == "b2-1a2b3c4", run["engine"]
    assert run["model"]["bytes"] == 8357120 and run["model_n_params"] == 4178240
'

# compare: one cell per configuration; pp and tg estimated, -20% everywhere. One
# llama-bench process is one instance a side, without a stored floor and without
# environment facts (an import): no evidence of the instance scatter, so every
# cell is shown (-20%), not decided (-20% tg was decided slower against the
# default scatter taken as known); the text says how to decide it.
"$TPSDB_BIN" compare --ours b2 --vs b1 --json >"$tmp/cmp.json"
python3 - "$tmp/cmp.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = doc["rows"] if isinstance(doc, dict) else doc
judged = [r for r in rows if r["verdict"] != "unknown"]
cells = {r["config"] for r in rows}
assert len(cells) == 12, cells
assert len(judged) == 12, [(r["config"], r["metric"], r["verdict"]) for r in rows]
for r in judged:
    want = "pp" if r["config"].startswith("pp") else "tg"
    assert r["metric"] == want and r["reason"] == "one-instance", r
    assert r["rounds"] == 1 and r["instances_ours"] == 1 and r["instances_vs"] == 1, r
    assert r["bound"] == "band" and r["noise_pct"] is None and r["scatter_pct"] is None, r
    assert r["verdict"] == "undecided" and r["regression"] == "undecided", r
    assert r["decided"] is False, r
    assert abs(r["delta_pct"] + 20) < 0.01, r
PY
"$TPSDB_BIN" compare --ours b2 --vs b1 >"$tmp/cmp.txt"
grep -q '{pp64 fa=0} pp: regression undecided: one llama-bench process a side, whose repetitions cannot show the scatter between instances; to decide it, run llama-bench a few more times and import each file: each file is one instance of its build; a build whose commit is unknown names none, so give its files one --tag, or store an A/A floor (tpsdb calibrate)' "$tmp/cmp.txt"

# compare --format md names each configuration in its cell: 12 cells, 12 names.
test "$("$TPSDB_BIN" compare --ours b2 --vs b1 --format md | grep -o '^| [^|]* {[^}]*} ' | sort -u | wc -l)" = 12

# csv and sql: averages only; compare has nothing to pair and says why.
export TPSDB_DB=$tmp/agg.db
"$TPSDB_BIN" import --engine a "$D/lb.csv" >/dev/null
"$TPSDB_BIN" import --engine b "$D/lb.sql" >/dev/null
test "$("$TPSDB_BIN" runs --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 24
"$TPSDB_BIN" check | grep -q 'aggregate-only'
"$TPSDB_BIN" compare --ours a --vs b --json >"$tmp/agg.json" || true
python3 - "$tmp/agg.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = doc["rows"] if isinstance(doc, dict) else doc
# one row per test: a llama-bench test has a row only for the metric it measures
assert len(rows) == 12, len(rows)
for r in rows:
    assert r["metric"] == ("pp" if r["config"].startswith("pp") else "tg"), r
    assert r["verdict"] == "unknown" and r["n_pairs"] == 0, r
    assert r["excluded_ours"] == 1 and r["excluded_vs"] == 1, r
PY

# -o md: refused, naming the formats; nothing stored.
rc=0; "$TPSDB_BIN" import "$D/lb.md" 2>"$tmp/err" >/dev/null || rc=$?
test "$rc" = 3
test "$(wc -l <"$tmp/err")" = 1
grep -q '^tpsdb: error: .*lb.md: a markdown table (llama-bench -o md) is not importable: import reads .*llama-bench -o json, -o jsonl, -o csv or -o sql, speed_bench.py --output; nothing was imported$' "$tmp/err"
test "$("$TPSDB_BIN" runs --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 24
