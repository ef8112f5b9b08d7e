#!/usr/bin/env bash
# t1120-import-llama-bench-identity.sh: a llama-bench file's build and machine are
# its identity. From the real output of two llama.cpp builds
# (tests/data/llama-bench-speedup), rewritten here as a build without git writes
# it (build_commit "unknown", build_number 0) or as another machine does
# (cpu_info):
# - two b0-unknown builds imported untagged under one engine label never pool as
#   one build: each file is its own instance (nothing tells the builds apart);
#   so neither do two files of one b0-unknown build, which --tag pools;
# - in one import, the rows of two such files are two runs each config, not one;
# - one commit on two machines: the newest file pools with its own machine's
#   files only, and in one import the rows of the two machines are two runs,
#   each with its cpu_info; compare refuses the two machines (--across-machines
#   compares them unpaired), as it does for collected runs.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"
need python3
D=$TPSDB_TEST_DATA/llama-bench-speedup

python3 - "$D" "$TMP" <<'PY'
import json, sys
d, out = sys.argv[1:]
for v in ("old", "new"):
    for r in (1, 2, 3):
        rows = json.load(open("%s/%s-r%d.json" % (d, v, r)))
        for x in rows:
            x["build_commit"], x["build_number"] = "unknown", 0
        json.dump(rows, open("%s/uk-%s-r%d.json" % (out, v, r), "w"), indent=1)
for r in (2, 3):
    rows = json.load(open("%s/new-r%d.json" % (d, r)))
    for x in rows:
        x["cpu_info"] = "Other CPU"
    json.dump(rows, open("%s/mb-new-r%d.json" % (out, r), "w"), indent=1)
PY

# pooled <engine>: the runs compare would pool for it, as "<runs> <distinct configs>".
pooled() {
	tps runs --pooled --engine "$1" --json
	expect_rc 0 "runs --pooled --engine $1"
	jq -r '"\(length) \([.[].config] | unique | length)"' "$TMP/out"
}

# Two b0-unknown builds (old, then new), each file its own import, one label.
for f in uk-old-r1 uk-old-r2 uk-new-r1; do
	tps import --engine nightly "$TMP/$f.json"
	expect_rc 0 "import $f"
done
tps runs --engine nightly --json
check 'length == 18 and all(.[]; .engine_version == "b0-unknown")' "three files, six tests each"
[ "$(pooled nightly)" = "4 4" ] ||
	fail "two b0-unknown builds pooled as one: $(pooled nightly) pooled runs (configs), want 4 4 (pp and tg, fa 0 and 1; a pp+tg test pools no rate)"
# compare says so: one process a side, and a tag pools a build of no commit.
tps import --engine ref "$TMP/uk-old-r1.json" --allow-duplicate
expect_rc 0 "import uk-old-r1 as ref"
tps compare --ours nightly --vs ref
expect_rc 0 "compare two b0-unknown files"
grep -q "one llama-bench process a side, .* import each file: each file is one instance of its build; a build whose commit is unknown names none, so give its files one --tag" "$TMP/out" ||
	{ cat "$TMP/out" >&2; fail "the hint names --tag for a build of no commit"; }
# One b0-unknown build's files pool under a --tag, as the user names them one build.
for f in uk-new-r2 uk-new-r3; do
	tps import --engine tagged --tag nightly-1 "$TMP/$f.json"
	expect_rc 0 "import $f tagged"
done
[ "$(pooled tagged)" = "8 4" ] || fail "a tag pools one b0-unknown build: $(pooled tagged)"

# In one import, the rows of two b0-unknown files are each file's runs.
tps import --engine one "$TMP/uk-old-r3.json" "$TMP/uk-new-r2.json" --allow-duplicate
expect_rc 0 "import two b0-unknown files at once"
tps runs --engine one --json
check 'length == 12 and all(.[]; .n_samples == 3)' "two unknown builds in one import: two runs a test"

# One commit (b1-80fb11a) on two machines.
tps import --engine m "$D/new-r1.json"
expect_rc 0 "import new-r1"
tps import --engine m "$TMP/mb-new-r2.json"
expect_rc 0 "import mb-new-r2"
tps import --engine m "$D/new-r3.json"
expect_rc 0 "import new-r3"
[ "$(pooled m)" = "8 4" ] || fail "the newest file pools with the other machine's: $(pooled m)"
tps runs --pooled --engine m --json
check 'all(.[]; .cpu == "Intel(R) Xeon(R) Processor")' "the pool is the newest file's machine"

# In one import, two machines' rows are two runs each, each with its machine.
tps import --engine mix "$D/new-r2.json" "$TMP/mb-new-r3.json" --allow-duplicate
expect_rc 0 "import two machines at once"
tps runs --engine mix --json
check 'length == 12 and all(.[]; .n_samples == 3) and
	([.[] | select(.cpu == "Other CPU")] | length) == 6' "two machines in one import: two runs a test"

# The same from -o csv and -o sql: one file holding two machines' rows.
python3 - "$D" "$TMP" <<'PY'
import csv, sys
d, out = sys.argv[1:]
rows = list(csv.reader(open(d + "/new.csv")))
i = rows[0].index("cpu_info")
more = [r[:i] + ["Other CPU"] + r[i + 1:] for r in rows[1:]]
csv.writer(open(out + "/two.csv", "w"), lineterminator="\n").writerows(rows + more)
sql = open(d + "/new.sql").read()
ins = [l for l in sql.splitlines() if l.startswith("INSERT")]
cpu = ins[0].split("VALUES (")[1].split(", ")[2]
open(out + "/two.sql", "w").write(sql + "\n".join(l.replace(cpu, "'Other CPU'", 1) for l in ins) + "\n")
PY
for f in two.csv two.sql; do
	tps import --engine "$f" "$TMP/$f"
	expect_rc 0 "import $f"
	tps runs --engine "$f" --json
	check 'length == 12 and all(.[]; .n_samples == 1) and
		([.[] | select(.cpu == "Other CPU")] | length) == 6' "$f: two machines, two runs a test"
done

# compare refuses two machines' llama-bench runs, as it refuses collected runs.
tps import --engine base "$D/old-r1.json"
expect_rc 0 "import old-r1"
tps import --engine base "$D/old-r2.json"
expect_rc 0 "import old-r2"
tps import --engine other "$TMP/mb-new-r2.json" --allow-duplicate
expect_rc 0 "import mb-new-r2 as other"
tps compare --ours other --vs base
expect_rc 3 "compare across machines"
grep -q "^tpsdb: error: refusing to compare cell .*: measured on different machines: other on 'unknown (Other CPU)', base on 'unknown (Intel(R) Xeon(R) Processor)'" "$TMP/err" ||
	{ cat "$TMP/err" >&2; fail "the refusal names both machines"; }
tps compare --ours other --vs base --across-machines --json
expect_rc 0 "compare --across-machines"
check '(.rows | length) == 4' "--across-machines compares them unpaired"
# The same commit on the same machine compares (the speedup test's pair).
tps compare --ours m --vs base --json
expect_rc 0 "compare on one machine"
check '(.rows | length) == 4 and (.llama_bench.speedups | length) == 6' "one machine's rows and speedups"
echo ok
