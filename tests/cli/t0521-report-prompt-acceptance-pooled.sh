#!/usr/bin/env bash
# t0521-report-prompt-acceptance-pooled.sh: the report's per-prompt acceptance is
# accepted / drafted summed over the rung's pooled runs, as its "all prompts" row
# (the sweep's rung acceptance) and compare's acceptance by prompt are, not the
# newest run's alone: two speed-bench files of one rung, one greedy (every draft
# accepted) and one sampled (about 1%), give each category the counts' ratio.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3
tmp_store speed-bench

"$TPSDB_BIN" import --engine e --tag m --spec-type draft-simple --n-max 4 \
	"$D/spec-1.json" "$D/hot-1.json" >/dev/null
"$TPSDB_BIN" report --tag m --format json >"$tmp/report.json"
python3 - "$tmp/report.json" "$D" <<'PY'
import json, sys
tables = json.load(open(sys.argv[1]))["prompts"]
assert len(tables) == 1 and tables[0]["columns"] == [{"engine": "e", "n_max": 4}], tables
t = tables[0]
sums, alone = {}, {}
for f in ("spec-1.json", "hot-1.json"):
    for x in json.load(open(sys.argv[2] + "/" + f))["results"]:
        for c in (x["category"], None):
            s = sums.setdefault(c, [0, 0])
            s[0] += x["draft_n_accepted"]
            s[1] += x["draft_n"]
            a = alone.setdefault((f, c), [0, 0])
            a[0] += x["draft_n_accepted"]
            a[1] += x["draft_n"]
rows = {r["prompt"]: r["acceptance"][0] for r in t["rows"]}
assert sorted(rows) == ["coding", "math", "writing"], rows
for c, got in rows.items():
    want = sums[c][0] / sums[c][1]
    assert abs(got - want) < 5e-5, (c, got, want)
    for f in ("spec-1.json", "hot-1.json"):
        a = alone[(f, c)]
        assert abs(got - a[0] / a[1]) > 0.1, (c, got, f)
assert abs(t["all"][0] - sums[None][0] / sums[None][1]) < 5e-5, t["all"]
PY
