# shellcheck shell=bash
# kill-lib.sh: SIGKILL a command before its k-th system call of a kind, for the
# kill-anywhere tests of import, merge, migrate and export (t1210-t1213), on a
# store whose every column added since the last such attack holds values: the
# client's clock and the rates of every sample (schema v11 fixture, migrated),
# env facts and the collector (same), a history of 39 runs over batches
# (tests/data/report/history.jsonl), two speed-bench files and a spec run with
# its settled knobs (run.spec_settings).
#
# A test defines:
#   prepare      puts the starting files back (the store, an --out file)
#   fingerprint  prints what a reader sees (run through tpsdb first, before any
#                sqlite3 opens the store and so recovers its WAL)
#   the command  in the array CMD (run as "$TPSDB_BIN" "${CMD[@]}")
# and calls kill_sweep <max points>. kill_sweep takes the fingerprints of the
# start (old) and of a completed run (new), counts each kind of system call the
# command makes (strace -f -c), and kills it before the k-th call of each kind
# (strace -e inject=<call>:signal=KILL:when=k): every call of the rare kinds
# (fsync, fdatasync, ftruncate, rename, unlink, ...) and a spread over the
# frequent ones (pwrite64, write, openat) up to <max points> in all. After each
# kill: the fingerprint is the old one or the new one, never a mix; PRAGMA
# integrity_check is ok; and the command run again to its end gives the new one
# (a writer opens what the kill left).
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}" "${TPSDB_SRC:?}"
. "$TPSDB_SRC/tests/cli/skip-lib.sh" || exit 1
need sqlite3 strace python3
# The system call names are x86_64's (aarch64 has only the *at ones).
[ "$(uname -m)" = x86_64 ] || skip "the system call names are x86_64's"
strace -qq -o /dev/null true 2>/dev/null || skip "strace cannot trace here (no ptrace)"
# A SIGKILL is no power cut: what the kernel was given is kept either way, so the
# files may as well sit in memory, where fsync costs nothing (tmpfs; the calls are
# still made, counted and killed at).
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	TMP=$(mktemp -d /dev/shm/tpsdb-kill.XXXXXX)
else
	TMP=$(mktemp -d)
fi
trap 'rm -rf "$TMP"' EXIT
D=$TPSDB_TEST_DATA
# traced <strace args...>: strace with LeakSanitizer off for the traced run
# (it cannot run under ptrace); the runs outside strace keep their leak check.
traced() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace "$@"; }
# A loaded host must not make a writer give up on a lock nobody holds.
export TPSDB_BUSY_TIMEOUT=30

fail() { echo "FAIL: $*" >&2; exit 1; }

# tps_q <args>: the binary, output discarded, fails the test on a non-zero exit.
tps_q() { "$TPSDB_BIN" "$@" >/dev/null 2>"$TMP/err" || fail "tpsdb $*: $(cat "$TMP/err")"; }

# rich_store <db>: the store described above, at the latest schema version.
rich_store() {
	local db=$1
	rm -f "$db" "$db-wal" "$db-shm"
	sqlite3 "$db" <"$D/schema/v11.sql"
	tps_q --db "$db" migrate
	tps_q --db "$db" import --engine sb-spec --engine-version v1 --gpu "GPU A" "$D/speed-bench/spec-1.json"
	tps_q --db "$db" import --engine sb-plain --engine-version v1 --gpu "GPU A" "$D/speed-bench/plain-1.json"
	tps_q --db "$db" import "$D/report/history.jsonl"
	"$TPSDB_BIN" --db "$db" export >"$TMP/rich.jsonl" || fail "export of the rich store"
	python3 - "$TMP/rich.jsonl" >"$TMP/spec.jsonl" <<'PY' || fail "the spec run"
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["run"]["engine"]["label"] == "steady":
        r["run"].update(uuid="5bec0000-0000-4000-8000-000000000001", spec_type="draft-simple",
                        n_max=8, drafter="d.gguf", spec_settings="n_min=0 p_min=0.75")
        print(json.dumps(r))
        break
PY
	tps_q --db "$db" import "$TMP/spec.jsonl"
	# Every kind of value is there.
	local n
	for n in "client_ttft_ms IS NOT NULL" "client_decode_per_second IS NOT NULL" \
		"tg_rate IS NOT NULL" "pp_rate IS NOT NULL"; do
		[ "$(sqlite3 "$db" "SELECT count(*) FROM sample WHERE $n")" -gt 0 ] || fail "no sample with $n"
	done
	for n in "spec_settings <> ''" "env IS NOT NULL AND env <> ''" "source = 'speed-bench'" \
		"collector_host IS NOT NULL"; do
		[ "$(sqlite3 "$db" "SELECT count(*) FROM run WHERE $n")" -gt 0 ] || fail "no run with $n"
	done
}

# renamed_export <db> <prefix>: the store's export with every run under another
# uuid (its first four hex digits <prefix>) and another model label, on stdout.
renamed_export() {
	"$TPSDB_BIN" --db "$1" export >"$TMP/renamed.in" || fail "export of $1"
	python3 - "$TMP/renamed.in" "$2" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    r["run"]["uuid"] = sys.argv[2] + r["run"]["uuid"][4:]
    r["run"]["model"]["label"] += "-" + sys.argv[2]
    print(json.dumps(r))
PY
}

# store_print <db>: what a reader sees of a store at the latest version: the export
# through tpsdb (read-only), then the row count of every table.
store_print() {
	local t
	"$TPSDB_BIN" --db "$1" export 2>"$TMP/fp-err" | sha256sum | cut -c1-16 ||
		{ echo "tpsdb export failed: $(cat "$TMP/fp-err")"; return 0; }
	[ -s "$TMP/fp-err" ] && echo "export said: $(cat "$TMP/fp-err")"
	for t in $(sqlite3 "$1" "SELECT name FROM sqlite_schema WHERE type='table' ORDER BY name"); do
		printf '%s=%s ' "$t" "$(sqlite3 "$1" "SELECT count(*) FROM $t")"
	done
	echo
}

# integrity <db>: PRAGMA integrity_check and foreign_key_check of the store.
integrity() {
	local r
	r=$(sqlite3 "$1" 'PRAGMA integrity_check; PRAGMA foreign_key_check' 2>&1)
	[ "$r" = ok ] || fail "$2: integrity: $r"
}

# left_beside: the names in the folder $OUTD other than the file $OUT.
left_beside() {
	local e
	for e in "$OUTD"/* "$OUTD"/.[!.]*; do
		[ -e "$e" ] || [ -L "$e" ] || continue
		[ "${e##*/}" = "${OUT##*/}" ] || echo "${e##*/}"
	done
}

# out_left_dead_tmp <what>: for a command writing --out $OUT beside nothing else:
# nothing is beside it but what a SIGKILL cannot clean up (its own
# "<out>.tmp.<pid>.XXXXXX", that pid gone), and the store $DB still sums to $db_sum.
out_left_dead_tmp() {
	local e pid
	for e in $(left_beside); do
		case $e in
		"${OUT##*/}".tmp.*.??????) ;;
		*) fail "$1: left beside --out: $e" ;;
		esac
		pid=${e#"${OUT##*/}".tmp.}
		pid=${pid%%.*}
		! kill -0 "$pid" 2>/dev/null || fail "$1: $e of a live pid"
	done
	[ "$(sha256sum <"$DB")" = "$db_sum" ] || fail "$1: the store changed"
}

# out_left_nothing <what>: nothing at all is beside --out $OUT.
out_left_nothing() { [ -z "$(left_beside)" ] || fail "$1: left beside --out: $(left_beside | tr '\n' ' ')"; }

# check_after <what>: after each kill, once the fingerprint was taken; a test may
# define its own. By default the integrity of $DB.
check_after() { integrity "$DB" "$1"; }

# check_recovered <what>: after the command ran again to its end; by default the
# integrity of $DB.
check_recovered() { integrity "$DB" "$1"; }

# accept_between <fingerprint>: whether a state other than the old and the new one
# is whole (migrate's steps, each its own transaction); by default none is.
accept_between() { return 1; }

# run_cmd: the command once, to its end, from what prepare (or a kill) left.
run_cmd() {
	"$TPSDB_BIN" "${CMD[@]}" >/dev/null 2>"$TMP/err" || fail "${CMD[*]} after $1: exit $?: $(cat "$TMP/err")"
}

# kill_sweep <max points>: strace follows the command's children (-f) unless
# TRACE_FOLLOW is set empty (then only the command itself is counted and killed).
kill_sweep() {
	local max=$1 old new s k n pts total stride i rc fp olds=0 news=0 mids=0 late=0 follow=(-f)
	[ -n "${TRACE_FOLLOW--f}" ] || follow=()
	prepare
	old=$(fingerprint)
	run_cmd "nothing"
	new=$(fingerprint)
	[ "$old" != "$new" ] || fail "the command changes nothing a reader sees: $old"
	prepare
	traced "${follow[@]}" -qq -c -o "$TMP/count" "$TPSDB_BIN" "${CMD[@]}" >/dev/null 2>"$TMP/err" ||
		fail "${CMD[*]} under strace: $(cat "$TMP/err")"
	# The points: "<call> <k>", every call of a rare kind, a spread over the rest.
	pts=$TMP/points
	: >"$pts"
	for s in fsync fdatasync ftruncate rename renameat renameat2 unlink unlinkat link symlink mkdir rmdir; do
		n=$(awk -v s="$s" '$NF == s { print $4 }' "$TMP/count")
		for k in $(seq 1 "${n:-0}"); do echo "$s $k" >>"$pts"; done
	done
	total=0
	for s in pwrite64 write openat; do
		n=$(awk -v s="$s" '$NF == s { print $4 }' "$TMP/count")
		total=$((total + ${n:-0}))
	done
	k=$(( max - $(wc -l <"$pts") ))
	[ "$k" -ge 10 ] || k=10
	stride=$(( (total + k - 1) / k ))
	[ "$stride" -ge 1 ] || stride=1
	for s in pwrite64 write openat; do
		n=$(awk -v s="$s" '$NF == s { print $4 }' "$TMP/count")
		for k in $(seq 1 "$stride" "${n:-0}"); do echo "$s $k" >>"$pts"; done
		# and always the last of each kind
		[ "${n:-0}" -gt 0 ] && [ $(( (n - 1) % stride )) != 0 ] && echo "$s $n" >>"$pts"
	done
	i=0
	while read -r s k; do
		i=$((i + 1))
		prepare
		rc=0
		# (the braces keep bash's "Killed" line out of the log)
		{ traced "${follow[@]}" -qq -o /dev/null -e trace="$s" -e inject="$s:signal=KILL:when=$k" \
			"$TPSDB_BIN" "${CMD[@]}" >/dev/null 2>"$TMP/err"; } 2>/dev/null || rc=$?
		case $rc in
		137) ;;
		0) late=$((late + 1)) ;; # the run made fewer such calls this time
		*) fail "SIGKILL before $s $k: exit $rc: $(cat "$TMP/err")" ;;
		esac
		fp=$(fingerprint)
		if [ "$fp" = "$old" ]; then
			olds=$((olds + 1))
		elif [ "$fp" = "$new" ]; then
			news=$((news + 1))
		elif accept_between "$fp"; then
			mids=$((mids + 1))
		else
			printf 'old: %s\nnew: %s\nnow: %s\n' "$old" "$new" "$fp" >&2
			fail "SIGKILL before $s $k: neither the old nor the new content"
		fi
		check_after "SIGKILL before $s $k"
		run_cmd "SIGKILL before $s $k"
		[ "$(fingerprint)" = "$new" ] || fail "SIGKILL before $s $k, then the command again: not the new content"
		check_recovered "SIGKILL before $s $k, then the command again"
	done <"$pts"
	[ $((olds + news + mids)) -ge 30 ] || fail "only $((olds + news)) kills"
	if [ "$olds" = 0 ] || [ "$news" = 0 ]; then
		fail "the kills never landed on both sides (old $olds, new $news)"
	fi
	echo "${0##*/}: ${CMD[*]}: $i SIGKILLs (before every fsync, ftruncate, rename and unlink, and $([ "$stride" = 1 ] && echo "every one" || echo "one in $stride") of $total writes and opens): $olds left the old content, $news the new, $mids a whole step between, $late came too late; integrity ok after each" >&2
}
