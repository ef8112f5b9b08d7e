#!/usr/bin/env bash
# t1123-compare-csv-speedup.sh: compare --format csv carries llama-bench's speedup
# columns, the figures text, markdown and json print: after compare's own columns,
# "t/s <vs>", "t/s <ours>", "speedup" and "processes" (vs/ours), filled on each
# row of a llama-bench test and empty on other rows, and a row more for each test
# that has no row of its own (a combined pp+tg test: its kind as the metric). From
# real llama-bench json of two builds (tests/data/llama-bench-speedup), three files
# a side; every figure is held to compare --json's llama_bench.speedups and to the
# text table. A comparison without llama-bench keeps compare's columns alone.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"
need python3

imp_speedup_each
tps compare --ours new --vs old --format csv
expect_rc 0 "compare --format csv"
cp "$TMP/out" "$TMP/cmp.csv"
tps compare --ours new --vs old --json
expect_rc 0 "compare --json"
cp "$TMP/out" "$TMP/cmp.json"
tps compare --ours new --vs old
expect_rc 0 "compare"
cp "$TMP/out" "$TMP/cmp.txt"
python3 - "$TMP/cmp.csv" "$TMP/cmp.json" "$TMP/cmp.txt" <<'PY'
import csv, json, re, sys
rows = list(csv.reader(open(sys.argv[1])))
head, body = rows[0], rows[1:]
assert head[-4:] == ["t/s old", "t/s new", "speedup", "processes"], head
assert head[:4] == ["cell", "metric", "new", "old"], head
doc = json.load(open(sys.argv[2]))
sp = doc["llama_bench"]["speedups"]
assert len(sp) == 6 and len(doc["rows"]) == 4, (len(sp), len(doc["rows"]))
assert len(body) == 6, body
# The text table's rows: "<model> <test> [fa=..] <vs> <ours> <speedup> ... <vs>/<ours>".
text = {}
for line in open(sys.argv[3]):
    m = re.match(r"^tiny\s+(\S+ fa=\d)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s.*\s(\d+/\d+)$", line.rstrip())
    if m:
        text[m.group(1)] = m.groups()[1:]
assert len(text) == 6, text
seen = set()
for r in body:
    m = re.search(r"\{(\S+) (fa=\d)", r[0])
    assert m, r
    test = m.group(1) + " " + m.group(2)
    kind = "pp+tg" if "+" in m.group(1) else m.group(1)[:2]
    assert r[1] == kind, r
    if kind == "pp+tg":
        assert all(c == "" for c in r[2:-4]), r       # no row of compare's own
    else:
        assert r[2] and r[4] and r[5].startswith("["), r
    want = text[test]
    assert tuple(r[-4:]) == want, (r, want)
    j = [s for s in sp if s["test"] == m.group(1) and m.group(2) in s["config"].split()]
    assert len(j) == 1, (test, j)
    j = j[0]
    assert r[-4] == "%.2f" % j["vs_avg_ts"] and r[-3] == "%.2f" % j["ours_avg_ts"], (r, j)
    assert r[-2] == "%.2f" % j["speedup"] and j["kind"] == kind, (r, j)
    assert r[-1] == "%d/%d" % (j["processes_vs"], j["processes_ours"]) == "3/3", (r, j)
    seen.add(test)
assert len(seen) == 6, seen
PY
[ $? = 0 ] || fail "the csv's speedup columns"

# No llama-bench: compare's columns only.
imp_rounds ours ours dense dense-ours --tag a
imp_rounds upstream upstream dense dense-llamacpp --tag a
tps compare --ours ours --vs upstream --tag a --format csv
expect_rc 0 "compare --format csv without llama-bench"
head -1 "$TMP/out" | grep -qx 'cell,metric,ours,upstream,delta,90% interval,regression,verdict,rounds,mde,excl' ||
	fail "csv header without llama-bench: $(head -1 "$TMP/out")"
echo ok
