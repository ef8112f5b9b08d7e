#!/usr/bin/env bash
# t1172-matrix-replay.sh: issue 37's matrix, replayed from what collect printed
# and the store it wrote. Each fixture is one 'collect --until-decided
# --max-rounds 10 --budget B' of three models m1b, m3b, m7b x new = v0.4.0,
# old = b8390 (role upstream), aa = v0.4.0 again, base, plus the speculative arm
# n_max 1-3 on m1b ('drafter=' m1b itself): <name>.jsonl is the store's export,
# <name>.collect.txt collect's stdout.
# Both were made by 'scripts/gpu-versions.sh matrix' (the three prompts of
# scripts/gpu-lib.sh, --n-predict 128 --ban-byte-tokens):
# - tests/data/matrix/cpu-matrix: the CPU llama-servers of scripts/llama-server.sh
#   (both versions) on the 2-core machine, three random-weight models of
#   scripts/tiny-model.sh (tiny; n_embd 128, 4 layers; n_embd 256, 4 layers),
#   BUDGET=3m;
# - tests/data/gpu/gpu-matrix: CUDA builds of both versions on an NVIDIA H100
#   (the lent device), random-weight models of Llama-3.2-1B, Llama-3.2-3B and
#   Llama-2-7B shapes (f16), the default --budget 8m.
# For each: the run ended within its budget; every row of the matrix table is an
# answer, unanswerable, open or open (budget), with its numbers; every row with
# numbers is what compare prints of that cell over the same runs (the answer, an
# open or unanswerable row being undecided there, delta, interval and rounds);
# the spec arm ran all three engines with the one p_min collect stated before
# the first run, 0 (the one value both releases read alike), stored it as each
# run's spec settings, and every request of every spec run drafted (at b8390's
# default 0.75, v0.4.0 drafted nothing in the CPU fixture this one replaced).
# collect's side is the table as the fixture printed it (test_until holds the
# code that writes it); compare's side runs here, so a change to how compare pools
# or decides that would make the two disagree fails this test.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3
T=$(mktemp -d "${TMPDIR:-/tmp}/tpsdb-t1172.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $NAME: $*" >&2; exit 1; }

# replay <fixture path without its suffix>
replay() {
	NAME=${1##*/}
	OUT=$1.collect.txt
	DB=$T/$NAME.sqlite
	"$TPSDB_BIN" --db "$DB" import "$1.jsonl" >/dev/null 2>"$T/err" ||
		fail "import: $(cat "$T/err")"

	# Within the budget: the last line's server time against the budget.
	line=$(grep '^until-decided: ' "$OUT") || fail "no until-decided line"
	python3 - "$line" <<-'PY' || fail "over budget: $line"
	import re, sys
	m = re.search(r"; ([0-9.]+) s of server time of a ([0-9.]+) s budget$", sys.argv[1])
	assert m and float(m[1]) <= float(m[2]), sys.argv[1]
	PY

	# Equal p_min on every engine, said before the first run.
	pmin=$(sed -n 's/^spec settings: p_min \([0-9.]*\) on every engine (defaults differ: new 0\.00, old 0\.75, aa 0\.00).*/\1/p' "$OUT")
	[ -n "$pmin" ] || fail "no spec settings line"
	[ "$pmin" = 0 ] || fail "p_min $pmin, not the 0 both releases read alike"

	# Each row of the matrix table against compare's row of the same cell.
	for vs in old aa; do
		for m in m1b m3b m7b; do
			"$TPSDB_BIN" --db "$DB" compare --ours new --vs "$vs" --model "$m" --tag matrix \
				--json >"$T/c-$vs-$m.json" 2>/dev/null || fail "compare new vs $vs on $m"
		done
	done
	"$TPSDB_BIN" --db "$DB" export --format jsonl >"$T/runs.jsonl" || fail "export"
	python3 - "$OUT" "$T" "$pmin" <<-'PY' || fail "the matrix table against compare"
	import json, re, sys
	out, tmp, pmin = sys.argv[1], sys.argv[2], float(sys.argv[3])
	lines = open(out, encoding="utf-8").read().split("\n")
	start = lines.index("matrix:")
	rows = [l for l in lines[start + 3:] if l.strip()]
	assert rows, "an empty matrix table"
	row_re = re.compile(r"^(\S+)\s+new vs (old|aa)(?: (\S+) n_max=(\d+))?\s+(pp|tg)\s+"
	                    r"(yes|no|unanswerable|open \(budget\)|open|not compared)\s+"
	                    r"(-|[+-][0-9.]+%)\s+(-|\[[+-][0-9.]+%, [+-][0-9.]+%\])\s+(\d+)\s+([0-9.]+)$")
	seen = set()
	answered = 0
	for l in rows:
	    m = row_re.match(l)
	    assert m, "a row that is not an answer, unanswerable, open or open (budget): %r" % l
	    model, vs, spec, n_max, metric, ans, delta, interval, rounds, server = m.groups()
	    key = (model, vs, spec or "", int(n_max) if n_max else None, metric)
	    assert key not in seen, l
	    seen.add(key)
	    assert ans != "not compared", "a cell never compared: %r" % l
	    if delta == "-":
	        assert ans == "open (budget)", l
	        continue
	    cmp = [r for r in json.load(open("%s/c-%s-%s.json" % (tmp, vs, model)))["rows"]
	           if (r["spec_type"] or "", r["n_max"], r["metric"]) == key[2:]]
	    assert len(cmp) == 1, (l, cmp)
	    r = cmp[0]
	    want = ans if ans in ("yes", "no") else "undecided"
	    lo, hi = re.findall(r"[+-][0-9.]+", interval)
	    got = (r["regression"], "%+.2f%%" % r["delta_pct"], "%+.2f" % r["ci_lo_pct"],
	           "%+.2f" % r["ci_hi_pct"], r["rounds"])
	    assert got == (want, delta, lo, hi, int(rounds)), (l, got)
	    answered += ans in ("yes", "no")
	    assert float(server) > 0, l
	# Every watched cell has its two rows: 3 models x 2 comparisons, and the spec
	# arm's 3 depths x 2 on m1b, each of pp and tg.
	assert len(seen) == (3 * 2 + 3 * 2) * 2, sorted(seen)
	assert answered > 0, "no row answered"
	# The spec arm: every speculative run of both versions decoded with one p_min,
	# and drafted on every request.
	p, engines = set(), set()
	for line in open("%s/runs.jsonl" % tmp, encoding="utf-8"):
	    d = json.loads(line)
	    run = d["run"]
	    if run["n_max"] is None:
	        continue
	    engines.add(run["engine"]["label"])
	    assert d["samples"] and all((x["draft_n"] or 0) > 0 for x in d["samples"]), \
	        "a spec run of %s that did not draft: %s" % (run["engine"]["label"], run["uuid"])
	    m = re.search(r"(?:^| )p_min=(\S+)", run.get("spec_settings", ""))
	    assert m, run
	    p.add(float(m[1]))
	assert engines == {"new", "old", "aa"} and p == {pmin}, (engines, p, pmin)
	PY
}

for f in "$TPSDB_TEST_DATA/matrix/cpu-matrix" "$TPSDB_TEST_DATA/gpu/gpu-matrix"; do
	replay "$f"
done
echo ok
