#!/usr/bin/env bash
# t0985-gpu-seq.sh: issue 27's batches on a real H100 (tests/data/gpu/gpu-seq.jsonl and
# what collect printed, gpu-seq.collect.txt; made by scripts/gpu-versions.sh seq: new =
# v0.4.0, old = b8390, aa = v0.4.0 again, one earlier batch 'hist' of 3 fixed rounds,
# then six --until-decided --max-rounds 10 batches seq1..seq6). The store as it stood
# when each batch ended (hist and seq1..seqK imported) gives, under a plain compare, the
# very lines collect printed for batch K: its history pooled or refused as collect's
# looks pooled it; 'hist' (2 reps of every prompt, another design) is no longer pooled
# into the 1-rep seq batches, so where it was among their history (seq1..seq4) the
# answer, delta and rounds are collect's and the interval rests on the seq batches
# alone (and on issue 41's scatter floor, which widened five of those intervals
# while 'hist' was pooled; seq5 and seq6 are the very lines). Every batch decided by round 4, every answer right (pp "yes", tg
# "no" against b8390; "no" both against the A/A label), and the median server time to
# an answer is under 60 s.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3
G=$TPSDB_TEST_DATA/gpu
T=$(mktemp -d "${TMPDIR:-/tmp}/tpsdb-t0985.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# The collect lines, batch by batch.
python3 - "$G/gpu-seq.collect.txt" "$T" <<'PY'
import re, sys
batch, out = None, {}
for line in open(sys.argv[1], encoding="utf-8"):
    if line.startswith("# seq"):
        batch = line[2:].strip()
        out[batch] = []
    elif batch and line.startswith("decided: "):
        out[batch].append(line)
assert sorted(out) == ["seq%d" % i for i in range(1, 7)], sorted(out)
for b, lines in out.items():
    assert len(lines) == 4, (b, lines)
    open("%s/%s.lines" % (sys.argv[2], b), "w").writelines(lines)
PY

for k in 1 2 3 4 5 6; do
	db=$T/s$k.sqlite
	python3 - "$G/gpu-seq.jsonl" "$k" >"$T/s$k.jsonl" <<'PY'
import json, sys
keep = {"hist"} | {"seq%d" % i for i in range(1, int(sys.argv[2]) + 1)}
for line in open(sys.argv[1], encoding="utf-8"):
    if json.loads(line)["run"]["tag"] in keep:
        sys.stdout.write(line)
PY
	"$TPSDB_BIN" --db "$db" import "$T/s$k.jsonl" >/dev/null 2>"$T/err" ||
		fail "import up to seq$k: $(cat "$T/err")"
	for vs in old aa; do
		"$TPSDB_BIN" --db "$db" compare --ours new --vs "$vs" --json >"$T/c-$k-$vs.json" 2>/dev/null ||
			fail "compare new vs $vs up to seq$k: $?"
	done
	# compare's figures in collect's words: the line of each cell and metric.
	python3 - "$T/c-$k-old.json" "$T/c-$k-aa.json" "$T/seq$k.lines" "$k" <<'PY'
import json, re, sys
want = {}
for line in open(sys.argv[3]):
    m = re.match(r"decided: m7b (pp|tg) new vs (old|aa): regression (yes|no), (\w+) "
                 r"\(([+-][0-9.]+)% \[([+-][0-9.]+)%, ([+-][0-9.]+)%\]\) after (\d+) rounds, "
                 r"([0-9.]+) s of server time$", line)
    assert m, line
    want[(m[2], m[1])] = m
secs = []
for path, vs in ((sys.argv[1], "old"), (sys.argv[2], "aa")):
    for r in json.load(open(path))["rows"]:
        w = want[(vs, r["metric"])]
        got = (r["regression"], r["verdict"], "%+.2f" % r["delta_pct"],
               "%+.2f" % r["ci_lo_pct"], "%+.2f" % r["ci_hi_pct"], r["rounds"])
        exp = (w[3], w[4], w[5], w[6], w[7], int(w[8]))
        k = int(sys.argv[4])
        # 'hist' asked 2 reps of every prompt, the seq batches 1: another design,
        # which compare no longer pools (collect did, then). Where it was among the
        # 4 earlier batches (seq1..seq4), the answer is the same and the interval
        # the seq batches' own history's; from seq5 on, the very line.
        if k <= 4:
            assert r["hist_batches"] == k - 1, (k, vs, r)
            got, exp = got[:3] + got[5:], exp[:3] + exp[5:]
        assert got == exp, ("seq" + sys.argv[4], vs, r["metric"], got, exp)
        # The answers are right, decided by round 4.
        truth = "yes" if (vs, r["metric"]) == ("old", "pp") else "no"
        assert r["regression"] == truth and r["rounds"] <= 4, r
        secs.append(float(w[9]))
open(sys.argv[3] + ".secs", "w").write(" ".join(map(str, secs)))
PY
done

# The median server time to an answer, per pair, over the six batches.
python3 - "$T" <<'PY'
import statistics, sys
old, aa = [], []
for k in range(1, 7):
    s = list(map(float, open("%s/seq%d.lines.secs" % (sys.argv[1], k)).read().split()))
    old += s[:2]
    aa += s[2:]
for name, v in (("old", old), ("aa", aa)):
    assert statistics.median(v) <= 60, (name, v)
PY
# The design the batches ran: planned from the earlier batch's two cells.
[ "$(grep -c '^design: 1 rep of every prompt, planned from 2 stored cells of host vm ' "$G/gpu-seq.collect.txt")" = 3 ] ||
	fail "the planned design lines of seq1..seq3"
echo ok
