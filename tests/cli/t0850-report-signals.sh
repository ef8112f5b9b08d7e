#!/usr/bin/env bash
# t0850-report-signals.sh: 'report --out' into a folder that also holds the user's
# files is whole or old under any signal: SIGKILL or SIGTERM at any stage leaves
# every report page from the one report or the other, never a mix, and the user's
# file untouched. SIGTERM leaves no temporary folder; what SIGKILL leaves is
# removed by the next report into the same folder.
. "${TPSDB_SRC:?}/tests/cli/outfile-lib.sh" || exit 1
need_gnuplot

big_store 6
two_stores

gen() { # db out
	"$TPSDB_BIN" --db "$1" report --format html --out "$2" >/dev/null 2>"$TMP/err"
}
gen "$TMP/a.db" "$TMP/refA" || fail "report A"
gen "$TMP/b.db" "$TMP/refB" || fail "report B"
gen "$TMP/a.db" "$TMP/refA2" && diff -r "$TMP/refA" "$TMP/refA2" >/dev/null ||
	skip "the html report is not byte-reproducible here"
diff -r "$TMP/refA" "$TMP/refB" >/dev/null && fail "reports A and B are the same"

names=$( (ls "$TMP/refA"; ls "$TMP/refB") | sort -u)
# whole <dir>: every report name in <dir> matches refA, or every one matches refB.
whole() {
	local ref n ok
	for ref in refA refB; do
		ok=1
		for n in $names; do
			if [ -e "$TMP/$ref/$n" ]; then
				cmp -s "$TMP/$ref/$n" "$1/$n" || { ok=0; break; }
			elif [ -e "$1/$n" ]; then
				ok=0; break
			fi
		done
		[ $ok = 1 ] && return 0
	done
	return 1
}

mix=$TMP/mixed
mkdir "$mix"
echo mine >"$mix/notes.txt"
gen "$TMP/a.db" "$mix" || fail "first report into the folder"
whole "$mix" || fail "the first report is not whole"

# Each kill waits for an event of the report's life, not for a time (a sleep
# lands anywhere on a loaded host: before the exec, or after the end):
#   0 at once, 1 tpsdb runs (exec done), 2 its temporary folder beside the
#   target exists, 3 that folder holds half the pages, 4 it became a generation
#   inside the target (publishing), 5 the live link names it (published, not yet
#   cleaned up). A report that ends before its event is killed as it ends.
exe=$(readlink -f "$TPSDB_BIN")
half=$(( $(printf '%s\n' $names | wc -l) / 2 ))
first() { compgen -G "$1" | head -n 1; }
reached() { # <stage> <pid>
	local g
	case $1 in
	0) return 0 ;;
	1) [ "$(readlink "/proc/$2/exe" 2>/dev/null)" = "$exe" ] ;;
	2) [ -n "$(first "$mix.tmp.$2.*")" ] ;;
	3) g=$(first "$mix.tmp.$2.*") && [ -n "$g" ] &&
		[ "$(ls -A "$g" 2>/dev/null | wc -l)" -ge "$half" ] ;;
	4) [ -n "$(first "$mix/.tpsdb-report.$2.*")" ] ;;
	5) case $(readlink "$mix/.tpsdb-current" 2>/dev/null) in
		.tpsdb-report."$2".*) return 0 ;;
		esac
		return 1 ;;
	esac
}
# running <pid>: not yet ended (a child that ended is a zombie until waited for).
running() { [ -e "/proc/$1" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]; }
# wait_stage <stage> <pid>: until the report reaches <stage> or ends; 30 s at most.
wait_stage() {
	local deadline=$((SECONDS + 30))
	until reached "$1" "$2"; do
		running "$2" || return 0
		[ "$SECONDS" -lt "$deadline" ] || fail "report $2 reached no stage $1 in 30 s"
		sleep 0.01
	done
}
kills=0 landed=0
for sig in KILL TERM; do
	for i in $(seq 1 12); do
		db=$TMP/b.db; [ $((i % 2)) = 0 ] && db=$TMP/a.db
		"$TPSDB_BIN" --db "$db" report --format html --out "$mix" >/dev/null 2>&1 &
		pid=$!
		wait_stage $((i % 6)) "$pid"
		running "$pid" && landed=$((landed + 1))
		kill -"$sig" "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		kills=$((kills + 1))
		whole "$mix" || { ls -la "$mix" >&2; fail "SIG$sig $i: a mix of two reports"; }
		[ "$(cat "$mix/notes.txt")" = mine ] || fail "SIG$sig $i: the user's file changed"
		if [ "$sig" = TERM ]; then
			# Nothing of this process is left (a SIGKILLed one's may be, until
			# a report gets as far as starting its folder).
			left=$(ls -d "$mix".tmp."$pid".* "$mix".old."$pid" 2>/dev/null || true)
			[ -z "$left" ] || fail "SIGTERM $i: left $left"
			cur=$(readlink "$mix/.tpsdb-current")
			for g in "$mix"/.tpsdb-report."$pid".*; do
				[ -e "$g" ] || continue
				[ "${g##*/}" = "$cur" ] || fail "SIGTERM $i: left $g"
			done
		fi
	done
done
echo "t0850: $kills kills at events ($landed while the report ran), every one left a whole report" >&2

# Aimed: SIGKILL the moment the first report name or the live link changes, i.e.
# in the middle of publishing.
python3 - "$TPSDB_BIN" "$mix" "$TMP" <<'PY' || fail "aimed kills"
import os, signal, subprocess, sys, filecmp
tpsdb, mix, tmp = sys.argv[1:4]
refs = [os.path.join(tmp, r) for r in ("refA", "refB")]
names = sorted(set(os.listdir(refs[0])) | set(os.listdir(refs[1])))
def state(path):
    try:
        st = os.lstat(path)
        return (st.st_ino, st.st_mtime_ns, st.st_size)
    except FileNotFoundError:
        return None
def whole():
    for ref in refs:
        ok = True
        for n in names:
            r, m = os.path.join(ref, n), os.path.join(mix, n)
            if os.path.exists(r) != os.path.exists(m) or (os.path.exists(r) and not filecmp.cmp(r, m, shallow=False)):
                ok = False
                break
        if ok:
            return True
    return False
watch = [os.path.join(mix, n) for n in names] + [os.path.join(mix, ".tpsdb-current")]
hits = 0
for i in range(12):
    db = os.path.join(tmp, "ab"[i % 2] + ".db")
    before = [state(w) for w in watch]
    p = subprocess.Popen([tpsdb, "--db", db, "report", "--format", "html", "--out", mix],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while p.poll() is None:
        if [state(w) for w in watch] != before:
            os.kill(p.pid, signal.SIGKILL)
            hits += 1
            break
    p.wait()
    if not whole():
        sys.exit("aimed kill %d: a mix of two reports" % (i + 1))
    with open(os.path.join(mix, "notes.txt")) as f:
        assert f.read() == "mine\n"
print("t0850: %d of 12 aimed SIGKILLs landed while publishing; every one left a whole report" % hits, file=sys.stderr)
PY

# The next run removes what the SIGKILLs left, and stale generations inside.
gen "$TMP/b.db" "$mix" || fail "a report after the kills"
whole "$mix" || fail "the last report is not whole"
cmp -s "$mix/index.html" "$TMP/refB/index.html" || fail "the last report is not B"
no_temps "$mix"
[ "$(ls -d "$mix"/.tpsdb-report.* | wc -l)" = 1 ] || fail "stale generations left: $(ls -a "$mix")"
[ "$(cat "$mix/notes.txt")" = mine ] || fail "the user's file changed"
# And a report that no longer has some page removes that page's link.
"$TPSDB_BIN" --db "$TMP/b.db" report --no-plots --out "$mix" >/dev/null || fail "md report"
[ -s "$mix/report.md" ] && [ ! -e "$mix/index.html" ] && [ ! -L "$mix/index.html" ] ||
	fail "the html pages outlived their report: $(ls "$mix")"

# A full disk (a 300 KiB tmpfs, as root): one error line, exit 3, nothing left.
mkdir "$TMP/full"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=300k tmpfs "$TMP/full" 2>/dev/null; then
	rc=0
	"$TPSDB_BIN" --db "$TMP/a.db" report --format html --out "$TMP/full/rep" >"$TMP/out" \
		2>"$TMP/err" || rc=$?
	left=$(ls -A "$TMP/full")
	umount "$TMP/full"
	[ "$rc" = 3 ] || fail "a report on a full disk: exit $rc"
	[ "$(wc -l <"$TMP/err")" = 1 ] || fail "a full disk: not one line: $(cat "$TMP/err")"
	grep -q "No space left on device" "$TMP/err" || fail "a full disk: $(cat "$TMP/err")"
	[ -z "$left" ] || fail "a full disk left: $left"
else
	echo "t0850: not root or no tmpfs mount: the full-disk part not run" >&2
fi
exit 0
