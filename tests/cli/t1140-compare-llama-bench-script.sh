#!/usr/bin/env bash
# t1140-compare-llama-bench-script.sh: llama.cpp's own scripts/compare-llama-bench.py
# (from the source scripts/llama-server.sh builds, kept in its cached tree) run on
# llama-bench output of the real CPU builds, -o json and -o sql, three processes a
# side, and tpsdb compare held to its table row by row at the precision it prints
# (t/s of each side and the speedup, two decimals), in compare's text and --json.
#
# - One version, two builds: the script tells builds apart only by build_commit,
#   so both sides run the same llama-bench binary and the copies given to the
#   script carry the commits aaaaaaa (baseline) and bbbbbbb; tpsdb imports the
#   untouched files under the labels vs and ours. v0.4.0 with its script, and
#   b8390 with its own.
# - A speedup that drifts fails the holding: one test's avg_ts raised by 5% in the
#   files tpsdb imports, and the check must name that row.
# - Two versions, v0.4.0 against b8390: neither script can read the other's rows
#   (the real errors: v0.4.0's "Missing required data key(s) ... load_mode,
#   fit_target, fit_min_ctx", b8390's "use_mmap"; -o sql piped into one sqlite
#   file loses the second build's rows, and the script finds no data for it).
#   tpsdb compares the untouched files, and its table is held to v0.4.0's script
#   run on b8390's rows with the missing keys patched in (v0.4.0's values). The
#   README quotes these errors: its lines are the ones the scripts printed.
#
# The v0.4.0 build is the one every real test uses (real_llama builds it where it
# is missing); b8390 is used where scripts/llama-server.sh --nlc 3.18.1 has built
# it (CI builds only the first: its parts are then left out, and said so).
# Skips (77) only when no python3 has GitPython and tabulate, which
# scripts/deps.sh installs (python3-git, python3-tabulate).
. "$TPSDB_SRC/tests/cli/collect-lib.sh"
need jq

PY=
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import git, tabulate' 2>/dev/null; then
		PY=$p
		break
	fi
done
[ -n "$PY" ] || skip "no python3 with GitPython and tabulate (scripts/deps.sh installs python3-git and python3-tabulate)"

real_llama
NEW=$dir
[ -s "$NEW/scripts/compare-llama-bench.py" ] || fail "scripts/llama-server.sh left no compare-llama-bench.py in $NEW"
OLD=$("$TPSDB_SRC/scripts/llama-server.sh" --nlc 3.18.1 --cached 2>/dev/null | tail -n 1) || true
if [ -z "$OLD" ] || [ ! -x "$OLD/bin/llama-bench" ] || [ ! -s "$OLD/scripts/compare-llama-bench.py" ]; then
	OLD=
	echo "b8390 is not built here (scripts/llama-server.sh --nlc 3.18.1): its parts are not run"
fi

ln -s "$tiny" "$T/tiny.gguf"
# pp32, tg8 and pp32+tg8 at fa 0 and 1: six tests a process. -ngl 0: unset, v0.4.0
# writes -1 and b8390 99, which the script's join would keep apart.
args=(-m tiny.gguf -p 32 -n 8 -pg 32,8 -fa 0,1 -ngl 0 -r 3 -t 1)

# bench <llama-bench> <out> <json|sql>: one llama-bench process.
bench() {
	(cd "$T" && "$1" "${args[@]}" -o "$3" >"$2" 2>"$2.err") ||
		{ tail -n 5 "$2.err" >&2; fail "llama-bench -o $3 failed"; }
}

# script <version dir> <out> <args>...: the version's compare-llama-bench.py,
# run outside any git repository; $rc its exit status.
script() {
	local v=$1 out=$2
	shift 2
	rc=0
	(cd "$T" && "$PY" "$v/scripts/compare-llama-bench.py" -t llama-bench "$@") \
		>"$out" 2>"$out.err" || rc=$?
}

# inputs <file>...: the script's -i options for the files, in the array $opts.
inputs() {
	local c
	opts=()
	for c in "$@"; do
		opts+=(-i "$c")
	done
}

# tps_import <db> <engine> <file>...: one import per file, so each file is one
# process (one instance) of its build.
tps_import() {
	local db=$1 engine=$2 f
	shift 2
	for f in "$@"; do
		"$TPSDB_BIN" --db "$db" import --engine "$engine" "$f" >"$T/import.out" 2>&1 ||
			{ cat "$T/import.out" >&2; fail "import $f"; }
	done
}

# hold <what> <script table> <db> <ours> <vs>: tpsdb compare's speedup table, text
# and --json, holds the script's rows: "<test> fa=<0|1> <t/s vs> <t/s ours>
# <speedup>" at two decimals, the same six tests in all three.
hold() {
	local what=$1 table=$2 db=$3 ours=$4 vs=$5
	"$TPSDB_BIN" --db "$db" compare --ours "$ours" --vs "$vs" >"$T/hold.txt" 2>"$T/hold.err" ||
		{ cat "$T/hold.err" >&2; return 1; }
	"$TPSDB_BIN" --db "$db" compare --ours "$ours" --vs "$vs" --json >"$T/hold.json" 2>"$T/hold.err" ||
		{ cat "$T/hold.err" >&2; return 1; }
	"$PY" - "$what" "$table" "$T/hold.txt" "$T/hold.json" <<'PY'
import json, re, sys
what, table, text, js = sys.argv[1:5]

lines = [l.strip() for l in open(table) if l.startswith("|")]
cells = lambda l: [c.strip() for c in l.strip("|").split("|")]
head = cells(lines[0])
assert head[-1] == "Speedup" and head[-3].startswith("t/s ") and head[-2].startswith("t/s "), head
t, fa = head.index("Test"), head.index("FlashAttention")
script = set()
for l in lines[2:]:
    c = cells(l)
    script.add("%s fa=%d %s %s %s" % (c[t], {"No": 0, "Yes": 1}[c[fa]], c[-3], c[-2], c[-1]))

txt = open(text).read().split("\n")
i = next(k for k, l in enumerate(txt) if l.startswith("llama-bench speedup, "))
ours_text = set()
for l in txt[i + 2:]:
    if l.startswith("llama-bench geomean"):
        break
    m = re.match(r"tiny +(\S+) fa=(\d) +([0-9.]+) +([0-9.]+) +([0-9.]+) ", l)
    assert m, l
    ours_text.add("%s fa=%s %s %s %s" % m.groups())

ours_json = set()
for w in json.load(open(js))["llama_bench"]["speedups"]:
    f = re.search(r"\bfa=(\d)\b", w["config"])[1]
    ours_json.add("%s fa=%s %.2f %.2f %.2f" % (w["test"], f, w["vs_avg_ts"], w["ours_avg_ts"], w["speedup"]))

ok = True
tests = {r.rsplit(" ", 3)[0] for r in script}
want = {"%s fa=%d" % (x, f) for x in ("pp32", "tg8", "pp32+tg8") for f in (0, 1)}
if tests != want or len(script) != 6:
    print("%s: the script's rows are not the six tests: %s" % (what, sorted(script)), file=sys.stderr)
    ok = False
for name, got in (("text", ours_text), ("--json", ours_json)):
    if got != script:
        ok = False
        for r in sorted(script - got):
            print("%s: compare-llama-bench.py: %s" % (what, r), file=sys.stderr)
        for r in sorted(got - script):
            print("%s: tpsdb compare %s:  %s" % (what, name, r), file=sys.stderr)
sys.exit(0 if ok else 1)
PY
}

# relabel <commit> <in> <out>: a copy of one llama-bench output, json or sql,
# every row's build_commit <commit>.
relabel() {
	local c=$1 in=$2 out=$3 was n
	case $in in
	*.json)
		jq --arg c "$c" '[.[] | .build_commit = $c]' "$in" >"$out" ;;
	*.sql)
		was=$(sed -n "s/^INSERT INTO llama_bench .* VALUES ('\([0-9a-f]*\)', .*/\1/p" "$in" | sort -u)
		[ -n "$was" ] && [ "$(printf '%s\n' "$was" | wc -l)" = 1 ] || fail "$in: one build_commit: $was"
		sed "s/) VALUES ('$was', /) VALUES ('$c', /" "$in" >"$out"
		n=$(grep -c "^INSERT INTO llama_bench .* VALUES ('$c', " "$out")
		[ "$n" = 6 ] || fail "$out: 6 rows relabelled, not $n" ;;
	esac
}

# One version: three processes a side of one binary, in json and in sql, run
# alternately; the script's table of aaaaaaa against bbbbbbb; tpsdb's of ours
# against vs from the untouched files.
same_version() {
	local v=$1 name=$2 r side f c
	for r in 1 2 3; do
		for side in vs ours; do
			for f in json sql; do
				bench "$v/bin/llama-bench" "$T/$name-$side-$r.$f" "$f"
			done
		done
	done
	for f in json sql; do
		for r in 1 2 3; do
			relabel aaaaaaa "$T/$name-vs-$r.$f" "$T/$name-vs-$r.s.$f"
			relabel bbbbbbb "$T/$name-ours-$r.$f" "$T/$name-ours-$r.s.$f"
		done
		tps_import "$T/$name-$f.sqlite" vs "$T/$name-vs-"[123].$f
		tps_import "$T/$name-$f.sqlite" ours "$T/$name-ours-"[123].$f
	done
	# json: the files as inputs; sql: piped into one sqlite file, as the
	# script's own help says (llama-bench -o sql | sqlite3 llama-bench.sqlite).
	inputs "$T/$name-"{vs,ours}-[123].s.json
	script "$v" "$T/$name-json.table" -b aaaaaaa -c bbbbbbb "${opts[@]}"
	[ "$rc" = 0 ] || { cat "$T/$name-json.table.err" >&2; fail "$name: the script on json, exit $rc"; }
	cat "$T/$name-"{vs,ours}-[123].s.sql | sqlite3 "$T/$name.script.sqlite"
	script "$v" "$T/$name-sql.table" -i "$T/$name.script.sqlite" -b aaaaaaa -c bbbbbbb
	[ "$rc" = 0 ] || { cat "$T/$name-sql.table.err" >&2; fail "$name: the script on sql, exit $rc"; }
	for f in json sql; do
		hold "$name $f" "$T/$name-$f.table" "$T/$name-$f.sqlite" ours vs ||
			fail "$name $f: tpsdb's speedups are not the script's"
		grep -Eq "^tiny +pp32 fa=0 .* 3/3$" "$T/hold.txt" || fail "$name $f: three processes a side"
	done
}

same_version "$NEW" v0.4.0
[ -n "$OLD" ] && same_version "$OLD" b8390

# A drifted speedup fails: pp32 fa=0's avg_ts 5% higher in the files of ours that
# tpsdb imports (the script keeps the true ones); the check names that row only,
# in compare's text and --json.
for r in 1 2 3; do
	jq '[.[] | if .n_prompt == 32 and .n_gen == 0 and (.flash_attn == 0 or .flash_attn == false)
		then .avg_ts *= 1.05 else . end]' "$T/v0.4.0-ours-$r.json" >"$T/drift-$r.json"
done
tps_import "$T/drift.sqlite" vs "$T/v0.4.0-vs-"[123].json
tps_import "$T/drift.sqlite" ours "$T/drift-"[123].json
if hold "drift" "$T/v0.4.0-json.table" "$T/drift.sqlite" ours vs 2>"$T/drift.err"; then
	fail "a speedup 5% off was held to the script's"
fi
[ "$(grep -c "^drift: tpsdb compare \(text\|--json\): *pp32 fa=0 " "$T/drift.err")" = 2 ] &&
	! grep -v "^drift: [^:]*: *pp32 fa=0 " "$T/drift.err" >/dev/null ||
	fail "drift: pp32 fa=0 named, in text and --json, and no other row: $(cat "$T/drift.err")"

if [ -z "$OLD" ]; then
	echo ok
	exit 0
fi

# Two versions. Commits as each build reports them.
cn=$(jq -r '.[0].build_commit' "$T/v0.4.0-vs-1.json")
co=$(jq -r '.[0].build_commit' "$T/b8390-vs-1.json")
[ -n "$cn" ] && [ -n "$co" ] && [ "$cn" != "$co" ] || fail "two commits: '$cn' '$co'"

# v0.4.0's script stops on b8390's rows, b8390's on v0.4.0's.
inputs "$T/b8390-vs-"[123].json "$T/v0.4.0-vs-"[123].json
script "$NEW" "$T/x-new.table" -b "$co" -c "$cn" "${opts[@]}"
[ "$rc" != 0 ] || fail "v0.4.0's script read b8390's rows"
last=$(tail -n 1 "$T/x-new.table.err")
keys=$(printf '%s\n' "$last" | sed -n 's/^RuntimeError: Missing required data key(s) at entry 1: //p' |
	tr -d ' ' | tr ',' '\n' | sort | tr '\n' ' ')
expect_eq "$keys" "fit_min_ctx fit_target load_mode " "v0.4.0's script on b8390's rows: $last"
script "$OLD" "$T/x-old.table" -b "$co" -c "$cn" "${opts[@]}"
[ "$rc" != 0 ] || fail "b8390's script read v0.4.0's rows"
expect_eq "$(tail -n 1 "$T/x-old.table.err")" "RuntimeError: Missing required data key(s) at entry 1: use_mmap" \
	"b8390's script on v0.4.0's rows"
# -o sql of both into one sqlite file: the second build's rows are refused by the
# first's table, and the script finds no data for that build.
cat "$T/b8390-vs-"[123].sql "$T/v0.4.0-vs-"[123].sql | sqlite3 "$T/x.sqlite" 2>"$T/x.sqlite.err" || true
grep -q "table llama_bench has no column named load_mode" "$T/x.sqlite.err" ||
	fail "sqlite3 on both builds' sql: $(head -n 2 "$T/x.sqlite.err")"
script "$NEW" "$T/x-sql.table" -i "$T/x.sqlite" -b "$co" -c "$cn"
[ "$rc" != 0 ] || fail "the script compared a build whose rows were refused"
expect_eq "$(tail -n 1 "$T/x-sql.table.err")" "ERROR:compare-llama-bench:cannot find data for compare=$cn." \
	"the script on the sqlite file of both builds"

# README quotes these errors.
R=$TPSDB_SRC/README.md
grep -qxF "$(tail -n 1 "$T/x-old.table.err")" "$R" || fail "README: b8390's script's error"
grep -qxF "$(tail -n 1 "$T/x-sql.table.err")" "$R" || fail "README: the script's error on the sqlite file"
grep -qF "table llama_bench has no column named load_mode" "$R" || fail "README: sqlite3's error"
readme_keys=$(sed -n 's/^RuntimeError: Missing required data key(s) at entry 1: \(.*load_mode.*\)$/\1/p' "$R" |
	tr -d ' ' | tr ',' '\n' | sort | tr '\n' ' ')
expect_eq "$readme_keys" "$keys" "README: v0.4.0's script's error"

# tpsdb reads the untouched files of both versions, json and sql ...
for f in json sql; do
	tps_import "$T/x-$f.sqlite" b8390 "$T/b8390-vs-"[123].$f
	tps_import "$T/x-$f.sqlite" v0.4.0 "$T/v0.4.0-vs-"[123].$f
done
# ... and its table is v0.4.0's script's on b8390's rows with load_mode,
# fit_target and fit_min_ctx patched in (v0.4.0's values; use_mmap is dropped).
for r in 1 2 3; do
	jq --slurpfile n "$T/v0.4.0-vs-1.json" '[.[] | . + ($n[0][0] | {load_mode, fit_target, fit_min_ctx})]' \
		"$T/b8390-vs-$r.json" >"$T/b8390-vs-$r.p.json"
done
inputs "$T/b8390-vs-"[123].p.json "$T/v0.4.0-vs-"[123].json
script "$NEW" "$T/x-json.table" -b "$co" -c "$cn" "${opts[@]}"
[ "$rc" = 0 ] || { cat "$T/x-json.table.err" >&2; fail "v0.4.0's script on patched json, exit $rc"; }
{
	cat "$T/v0.4.0-vs-"[123].sql
	echo "ALTER TABLE llama_bench ADD COLUMN use_mmap INTEGER;"
	echo "ALTER TABLE llama_bench ADD COLUMN use_direct_io INTEGER;"
	cat "$T/b8390-vs-"[123].sql
	for k in load_mode fit_target fit_min_ctx; do
		echo "UPDATE llama_bench SET $k = (SELECT $k FROM llama_bench WHERE build_commit = '$cn' LIMIT 1) WHERE build_commit = '$co';"
	done
} | sqlite3 -bail "$T/x-patched.sqlite" || fail "the patched sqlite file"
script "$NEW" "$T/x-sql.table" -i "$T/x-patched.sqlite" -b "$co" -c "$cn"
[ "$rc" = 0 ] || { cat "$T/x-sql.table.err" >&2; fail "v0.4.0's script on patched sql, exit $rc"; }
for f in json sql; do
	hold "versions $f" "$T/x-$f.table" "$T/x-$f.sqlite" v0.4.0 b8390 ||
		fail "versions $f: tpsdb's speedups are not the script's on patched rows"
done
echo ok
