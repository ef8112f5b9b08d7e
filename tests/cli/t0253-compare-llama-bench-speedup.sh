#!/usr/bin/env bash
# t0253-compare-llama-bench-speedup.sh: real llama-bench output of two llama.cpp
# versions (tests/data/llama-bench-speedup) read as compare-llama-bench.py reads
# it. From -o sql, csv, jsonl and json alike, every paired test (pp, tg and the
# combined pp+tg) shows its speedup, AVG(avg_ts) of ours over AVG(avg_ts) of vs,
# computed here from the files by that script's formula, and each kind's
# geomean; sql and csv hold only averages: no interval, and no "geomean +0.0%".
# Three llama-bench files a side, imported untagged, pool as three instances
# with an interval where one file a side has none; the hint says to run llama-bench
# more and import each file, not a collect option.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"
need python3
D=$TPSDB_TEST_DATA/llama-bench-speedup

# expected <vs files> -- <ours files>: compare-llama-bench.py's rows: the rows of
# both builds in one llama_bench table, joined on the test and its settings,
# speedup = AVG(tc.avg_ts) / AVG(tb.avg_ts) (tb the baseline: vs), one line a
# test "<test> fa=<0|1> <speedup %.17g> <speedup %.2f>", then one line a kind
# "geomean <kind> <%.17g> <%.2f>".
expected() {
	python3 - "$@" <<'PY'
import csv, json, math, sqlite3, sys
args = sys.argv[1:]
cut = args.index("--")
sides = {"vs": args[:cut], "ours": args[cut + 1:]}
keys = ["model_filename", "n_batch", "n_ubatch", "n_threads", "type_k", "type_v",
        "n_gpu_layers", "flash_attn", "n_prompt", "n_gen", "n_depth"]
db = sqlite3.connect(":memory:")
db.execute("CREATE TABLE llama_bench (side TEXT, %s, avg_ts REAL)" % ", ".join(keys))

def rows_of(path):
    if path.endswith(".sql"):
        t = sqlite3.connect(":memory:")
        t.executescript(open(path).read())
        t.row_factory = sqlite3.Row
        return [dict(r) for r in t.execute("SELECT * FROM llama_bench")]
    if path.endswith(".csv"):
        return list(csv.DictReader(open(path)))
    if path.endswith(".jsonl"):
        return [json.loads(l) for l in open(path) if l.strip()]
    return json.load(open(path))

def norm(k, v):
    if k == "flash_attn":  # the older build wrote true/false, the newer 0/1
        return 1 if str(v).lower() in ("1", "true") else 0
    return str(v)

for side, files in sides.items():
    for f in files:
        for r in rows_of(f):
            db.execute("INSERT INTO llama_bench VALUES (?, %s, ?)" % ", ".join("?" * len(keys)),
                       [side] + [norm(k, r[k]) for k in keys] + [float(r["avg_ts"])])
on = " AND ".join("tb.%s = tc.%s" % (k, k) for k in keys)
q = ("SELECT tb.n_prompt, tb.n_gen, tb.n_depth, tb.flash_attn, AVG(tb.avg_ts), AVG(tc.avg_ts)"
     " FROM llama_bench tb JOIN llama_bench tc ON %s AND tb.side = 'vs' AND tc.side = 'ours'"
     " GROUP BY tb.flash_attn, tb.n_gen, tb.n_prompt, tb.n_depth" % on)
kinds = {}
for n_prompt, n_gen, n_depth, fa, avg_b, avg_c in db.execute(q):
    n_prompt, n_gen, n_depth = int(n_prompt), int(n_gen), int(n_depth)
    if n_prompt != 0 and n_gen == 0:
        test = "pp%d" % n_prompt
    elif n_prompt == 0 and n_gen != 0:
        test = "tg%d" % n_gen
    else:
        test = "pp%d+tg%d" % (n_prompt, n_gen)
    if n_depth != 0:
        test += "@d%d" % n_depth
    speedup = float(avg_c) / float(avg_b)  # the script's Speedup column
    print("%s fa=%s %.17g %.2f" % (test, fa, speedup, speedup))
    kind = "".join(c for c in test.split("@")[0] if not c.isdigit())
    kinds.setdefault(kind, []).append(speedup)
for kind, v in sorted(kinds.items()):
    g = math.exp(sum(math.log(x) for x in v) / len(v))
    print("geomean %s %.17g %.2f" % (kind, g, g))
PY
}

# check_speedups <what> <vs files> -- <ours files>: the store holds those files;
# compare's speedups, in JSON and text, are the script's.
check_speedups() {
	local what=$1 line test fa full short kind
	shift
	expected "$@" >"$TMP/want" || fail "$what: python"
	[ "$(grep -c ' fa=' "$TMP/want")" = 6 ] || fail "$what: 6 paired tests: $(cat "$TMP/want")"
	tps compare --ours new --vs old --json
	expect_rc 0 "$what: compare --json"
	cp "$TMP/out" "$TMP/compare.json"
	check '.llama_bench.speedups | length == 6' "$what: six speedups"
	while read -r test fa full short; do
		if [ "$test" = geomean ]; then
			kind=$fa
			check "[.llama_bench.geomean[] | select(.kind == \"$kind\")] | length == 1 and
				(.[0].speedup / $full - 1 | fabs) < 1e-12 and .[0].tests == 2" \
				"$what: geomean of $kind"
			continue
		fi
		check "[.llama_bench.speedups[] | select(.test == \"$test\" and
			(.config | test(\" $fa \")))] | length == 1 and
			(.[0].speedup / $full - 1 | fabs) < 1e-12" "$what: $test $fa speedup $full"
	done <"$TMP/want"
	tps compare --ours new --vs old
	expect_rc 0 "$what: compare"
	while read -r test fa full short; do
		if [ "$test" = geomean ]; then
			grep -q "^llama-bench geomean speedup: .*$fa $short (2 tests)" "$TMP/out" ||
				fail "$what: text geomean $fa $short: $(grep geomean "$TMP/out")"
			continue
		fi
		grep -Eq "^tiny +${test//+/[+]} $fa +[0-9.]+ +[0-9.]+ +$short +" "$TMP/out" ||
			fail "$what: text row $test $fa $short: $(grep "^tiny " "$TMP/out")"
	done <"$TMP/want"
	# Each speedup row carries compare's interval and answer of its test's row
	# (the metric the test measures), '-' for a combined pp+tg test.
	python3 - "$TMP/compare.json" "$TMP/out" "$what" <<'PY' || fail "$what: the answer columns"
import json, re, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().split("\n")
i = next(k for k, l in enumerate(text) if l.startswith("llama-bench speedup, "))
head = text[i + 1]
assert re.search(r"speedup +9[0-9.]*% interval +regression +processes$", head), head
seen = 0
for w in d["llama_bench"]["speedups"]:
    fa = re.search(r"\bfa=(\d)", w["config"])[1]
    line = next(l for l in text[i + 2:] if re.match(r"tiny +%s fa=%s " % (re.escape(w["test"]), fa), l))
    kind = w["test"].split("@")[0].rstrip("0123456789")
    rows = [r for r in d["rows"] if r["config"] == w["config"] and r["metric"] == kind]
    if "+" in w["test"]:
        assert not rows and re.search(r" - +- +\d+/\d+$", line), (sys.argv[3], line)
    else:
        (r,) = rows
        ci = "-" if r["ci_lo_pct"] is None else \
            "[%+.2f%%, %+.2f%%]" % (r["ci_lo_pct"], r["ci_hi_pct"])
        reg = r["regression"] or "unknown"
        assert re.search(r" %s +%s +\d+/\d+$" % (re.escape(ci), reg), line), \
            (sys.argv[3], line, ci, reg)
    seen += 1
assert seen == 6, seen
PY
}

# sql and csv: averages only. The speedups, and no geomean delta of nothing.
for f in sql csv; do
	export TPSDB_DB=$TMP/$f.sqlite
	tps import --engine new "$D/new.$f"
	expect_rc 0 "import new.$f"
	tps import --engine old "$D/old.$f"
	expect_rc 0 "import old.$f"
	check_speedups "$f" "$D/old.$f" -- "$D/new.$f"
	head -n 1 "$TMP/out" | grep -q "geomean" && fail "$f: a geomean delta of no delta: $(head -n 1 "$TMP/out")"
	grep -qx "llama-bench: 4 rows hold only llama-bench's averages (-o csv or -o sql), which give the speedup but no interval: import -o json or -o jsonl files for a decision" "$TMP/out" ||
		fail "$f: says what averages cannot do"
	tps compare --ours new --vs old --json
	check 'all(.rows[]; .delta_pct == null and .verdict == "unknown")' "$f: no interval from averages"
	check '[.rows[].config | select(contains("+"))] == []' "$f: pp+tg has no pp or tg row"
done

# jsonl, and one json file a side: one process a side, undecided; the hint.
for f in jsonl r1.json; do
	export TPSDB_DB=$TMP/$f.sqlite
	[ "$f" = jsonl ] && a=$D/old.jsonl b=$D/new.jsonl || a=$D/old-r1.json b=$D/new-r1.json
	tps import --engine old "$a"
	expect_rc 0 "import $a"
	tps import --engine new "$b"
	expect_rc 0 "import $b"
	check_speedups "$f" "$a" -- "$b"
	grep -q -- "--rounds" "$TMP/out" && fail "$f: a collect option for an import"
	grep -qx "llama-bench: 4 rows compare one llama-bench process a side, undecided: one process is one instance, whose repetitions cannot show the scatter between instances; a decision needs two processes or more a side (run llama-bench a few more times and import each file: each file is one instance of its build; a build whose commit is unknown names none, so give its files one --tag), or a stored A/A floor (tpsdb calibrate)" "$TMP/out" ||
		fail "$f: the llama-bench hint: $(grep llama-bench: "$TMP/out")"
	tps compare --ours new --vs old --json
	check 'all(.rows[]; .decided == false and .regression == "undecided" and
		.instances_ours == 1 and .instances_vs == 1)' \
		"$f: one process a side decides nothing"
done

# Three json files a side, untagged: each one instance of its build, pooled;
# the speedup is the mean avg_ts of the three over the other three's.
export TPSDB_DB=$TMP/three.sqlite
for r in 1 2 3; do
	tps import --engine new "$D/new-r$r.json"
	expect_rc 0 "import new-r$r.json"
	tps import --engine old "$D/old-r$r.json"
	expect_rc 0 "import old-r$r.json"
done
check_speedups "three a side" "$D/old-r1.json" "$D/old-r2.json" "$D/old-r3.json" -- \
	"$D/new-r1.json" "$D/new-r2.json" "$D/new-r3.json"
grep -Eq "^tiny +pp64 fa=0 .* 3/3$" "$TMP/out" || fail "three processes a side in the table"
grep -q '^llama-bench: ' "$TMP/out" && fail "three a side: no one-process hint"
tps compare --ours new --vs old --json
check 'all(.rows[]; .instances_ours == 3 and .instances_vs == 3)' "three instances a side"
# Each process one instance: an interval of three rounds, with no one-process
# reason; at 2 degrees of freedom it holds the processes' own spread (2-6% here,
# issue 41) and decides no cell yet.
check 'all(.rows[]; .method == "rounds" and .reason == null and .ci_lo_pct < .ci_hi_pct and .scatter_source != null)' \
	"three processes a side: an interval of rounds"
check '[.rows[] | select(.scatter_source == "instances")] | length >= 1' \
	"three processes a side: the interval holds the processes' spread"
check 'all(.llama_bench.speedups[]; .processes_ours == 3 and .processes_vs == 3)' \
	"three processes a side in the speedups"

# The measured versions of t0250 (ngl differs: --ignore-config), untagged: three
# processes a side pool (t0250 needed a --tag). Their pp processes scatter by 24%:
# three rounds decide no cell faster (before issue 41 the rounds' chance
# agreement decided two); tg answers "no regression".
export TPSDB_DB=$TMP/versions.sqlite
V=$TPSDB_TEST_DATA/llama-bench-versions
for r in 1 2 3; do
	"$TPSDB_BIN" import --engine new "$V/new-r$r.json" >/dev/null
	"$TPSDB_BIN" import --engine old "$V/old-r$r.json" >/dev/null
done
tps compare --ours new --vs old --ignore-config ngl --json
expect_rc 0 "versions: compare"
check 'all(.rows[]; .instances_ours == 3)' "versions: three instances a side"
check '[.rows[] | select(.verdict == "faster" or .verdict == "slower")] | length == 0' "versions: no side decided"
check '[.rows[] | select(.metric == "tg" and .regression == "no")] | length == 1' "versions: tg no regression"
check '[.rows[] | select(.metric == "pp" and .scatter_source == "instances" and .round_scatter_pct > 20)] | length == 1' \
	"versions: pp at its processes' spread"
exit 0
