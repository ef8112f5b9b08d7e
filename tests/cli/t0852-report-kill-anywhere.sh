#!/usr/bin/env bash
# t0852-report-kill-anywhere.sh: 'report --out' into a folder that holds a user's
# files, SIGKILLed before each of its file-system changes in turn (strace injects
# the kill before the k-th symlink, rename, link, mkdir, rmdir or unlink, k = 1,
# 2, ... until a run completes): after every kill each name a reader can open is the
# old report's or the new one's, never a mix, and nothing else is in the folder (no
# "<page>.link.<pid>"); the user's files are untouched. A report afterwards mends
# what the kills and an older version left (stray "*.link.<pid>" links of dead
# pids), and leaves a user's file of such a name alone.
. "${TPSDB_SRC:?}/tests/cli/outfile-lib.sh" || exit 1
need gnuplot
need strace
# The system calls are named as x86_64 has them (aarch64 has only the *at ones).
[ "$(uname -m)" = x86_64 ] || skip "the system call names are x86_64's"
# ptrace may be refused (a container without CAP_SYS_PTRACE): then nothing to do.
strace -qq -o /dev/null true 2>/dev/null || skip "strace cannot trace here"

load study.jsonl
two_stores
for r in a b; do
	"$TPSDB_BIN" --db "$TMP/$r.db" report --format html --out "$TMP/ref-$r" >/dev/null ||
		fail "report $r"
done
diff -r "$TMP/ref-a" "$TMP/ref-b" >/dev/null && fail "reports a and b are the same"
"$TPSDB_BIN" --db "$TMP/a.db" report --format html --out "$TMP/ref-a2" >/dev/null &&
	diff -r "$TMP/ref-a" "$TMP/ref-a2" >/dev/null ||
	skip "the html report is not byte-reproducible here"

mix=$TMP/mix
# The report is first written as plain files (a new folder is renamed into place),
# then the user's file joins it: the first kills land in turning those plain files
# into a generation of links.
"$TPSDB_BIN" --db "$TMP/a.db" report --format html --out "$mix" >/dev/null ||
	fail "first report"
echo mine >"$mix/notes.txt"
# What an older version left after a SIGKILL: a stray link temporary of a dead
# pid; and a user's file that only looks like one.
sh -c 'echo $$ >"$1"' sh "$TMP/deadpid"
dead=$(cat "$TMP/deadpid")
ln -s .tpsdb-current/index.html "$mix/index.html.link.$dead"
ln -s .tpsdb-report.$dead.x "$mix/.tpsdb-current.link.$dead"
echo mine too >"$mix/report.md.link.$dead"
export DEAD=$dead

# state <what>: which report the folder shows ("a" or "b"); fails on a mix or a
# stray entry. <what> = "any" after a kill; "final" also wants no leftovers.
state() {
	python3 - "$mix" "$TMP" "$1" <<'PY'
import filecmp, os, sys
mix, tmp, what = sys.argv[1:4]
dead = os.environ["DEAD"]
user = {"notes.txt": b"mine\n", "report.md.link." + dead: b"mine too\n"}
refs = {r: os.path.join(tmp, "ref-" + r) for r in "ab"}
names = set().union(*(os.listdir(p) for p in refs.values()))
entries = os.listdir(mix)
for n, b in user.items():
    with open(os.path.join(mix, n), "rb") as f:
        if f.read() != b:
            sys.exit("the user's file %s changed" % n)
for e in entries:
    p = os.path.join(mix, e)
    if e in user:
        continue
    if e == ".tpsdb-current" or (e.startswith(".tpsdb-report.") and os.path.isdir(p)):
        continue
    if e in names:
        continue
    if what != "final" and e in ("index.html.link." + dead, ".tpsdb-current.link." + dead):
        continue  # the older version's strays, until a report completes
    sys.exit("a stray entry %r: %s" % (e, sorted(entries)))
for r, ref in refs.items():
    want = set(os.listdir(ref))
    # what a reader sees: a name it can open (a dangling link is no page)
    seen = {e for e in entries if e in names and os.path.exists(os.path.join(mix, e))}
    if seen == want and all(filecmp.cmp(os.path.join(ref, n), os.path.join(mix, n), shallow=False)
                            for n in want):
        break
else:
    sys.exit("neither report a nor report b: %s" % sorted(entries))
if what == "final":
    gens = [e for e in entries if e.startswith(".tpsdb-report.")]
    if len(gens) != 1 or os.readlink(os.path.join(mix, ".tpsdb-current")) != gens[0]:
        sys.exit("generations left: %s" % gens)
    if sorted(os.listdir(os.path.join(mix, gens[0]))) != sorted(want):
        sys.exit("the generation holds more: %s" % os.listdir(os.path.join(mix, gens[0])))
    dangling = [e for e in entries if os.path.islink(os.path.join(mix, e))
                and not os.path.exists(os.path.join(mix, e))]
    if dangling:
        sys.exit("dangling links left: %s" % dangling)
    beside = [e for e in os.listdir(tmp) if e.startswith("mix.")]
    if beside:
        sys.exit("left beside the folder: %s" % beside)
print(r)
PY
}

cur=$(state any) || fail "before the kills"
[ "$cur" = a ] || fail "the first report is $cur"
cp -a "$mix" "$TMP/plain"
# strace counts each system call on its own (when=k is the k-th of that call), so
# one pass per call: a pass kills before its 1st, 2nd, ... call until a run
# completes, each run going on from what the last kill left. Every pass starts
# from the plain files and the strays above.
kills=0
for sc in symlink rename link mkdir rmdir unlink; do
	rm -rf "$mix"
	cp -a "$TMP/plain" "$mix"
	cur=a
	k=1
	while :; do
		next=a; [ "$cur" = a ] && next=b
		rc=0
		# (the braces keep bash's "Killed" line out of the log)
		# (LeakSanitizer cannot run under ptrace: a sanitized build's leaks are
		# its other tests' to find)
		{ ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			strace -qq -o /dev/null -e trace="$sc" -e inject="$sc:signal=KILL:when=$k" \
			"$TPSDB_BIN" --db "$TMP/$next.db" report --format html --out "$mix" \
			>/dev/null 2>"$TMP/err"; } 2>/dev/null || rc=$?
		[ "$rc" = 0 ] && break
		[ "$rc" = 137 ] || fail "$sc $k: exit $rc: $(cat "$TMP/err")"
		cur=$(state any) || fail "SIGKILL before $sc $k (old $cur, new $next)"
		k=$((k + 1))
		[ "$k" -lt 2000 ] || fail "a report that never ends"
	done
	kills=$((kills + k - 1))
	cur=$(state final) || fail "$sc: the report that completed left leftovers"
done
[ "$kills" -gt 100 ] || fail "only $kills kill points"
echo "t0852: $kills SIGKILLs, one before each symlink, rename, link, mkdir, rmdir and unlink; each left a whole report" >&2

# And the one after it.
next=a; [ "$cur" = a ] && next=b
"$TPSDB_BIN" --db "$TMP/$next.db" report --format html --out "$mix" >/dev/null ||
	fail "a report after the kills"
[ "$(state final)" = "$next" ] || fail "the last report is not $next"
exit 0
