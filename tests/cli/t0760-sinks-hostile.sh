#!/usr/bin/env bash
# t0760: every output sink stays safe with hostile labels. Each string of
# tests/data/hostile/hostile.txt (newline + "::error", "::add-mask::", ESC and C1
# sequences, "]]>", pipes, invalid UTF-8, ...) is written into a copy of a store as
# a model label prefix, a tag and a host name, with sqlite3 (so the invalid-UTF-8
# strings get in whatever import accepts), then the text, JSON, markdown, GitHub and
# SVG outputs of the read commands, and gate's JUnit file, are checked by
# check_sinks.py.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
need_gnuplot
command -v sqlite3 >/dev/null || { echo "sqlite3 is not installed: skipped"; exit 77; }
check=$TPSDB_TEST_DATA/hostile/check_sinks.py

load study.jsonl
"$TPSDB_BIN" baseline set B --engine ours >/dev/null || fail "baseline set"
cp "$TPSDB_DB" "$TMP/base.sqlite"

# out <name> <kind> <args...>: runs tpsdb and queues stdout to be checked as
# <kind>, stderr as text (one python3 at the end: its start is the slow part). A
# crash (exit above 3) fails the test.
mkdir "$TMP/o"
queue=()
out() {
	local name=$1 kind=$2 f
	shift 2
	tps "$@"
	[ "$rc" -le 3 ] || { cat "$TMP/err" >&2; fail "case $n: $name: exit $rc"; }
	f=$TMP/o/$n-${#queue[@]}
	mv "$TMP/err" "$f.err"
	queue+=("text:$f.err")
	# A refusal (exit 3: compare without --force) prints nothing on stdout.
	if [ "$rc" != 3 ] || [ -s "$TMP/out" ]; then
		mv "$TMP/out" "$f.out"
		queue+=("$kind:$f.out")
	fi
}

n=0
while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	n=$((n + 1))
	hex=$(printf '%b' "$line" | od -An -tx1 | tr -d ' \n')
	cp "$TMP/base.sqlite" "$TPSDB_DB"
	rm -f "$TPSDB_DB-wal" "$TPSDB_DB-shm"
	sqlite3 "$TPSDB_DB" "UPDATE model SET label = CAST(X'$hex' AS TEXT) || label;
		UPDATE run SET tag = CAST(X'$hex' AS TEXT), notes = CAST(X'$hex' AS TEXT);
		UPDATE host SET name = CAST(X'$hex' AS TEXT) || name;" ||
		fail "case $n: sqlite3"
	for json in "" --json; do
		k=${json:+json}
		out "runs $json" "${k:-text}" runs $json
		out "models $json" "${k:-text}" models $json
		out "check $json" "${k:-text}" check $json
		out "compare $json" "${k:-text}" compare --ours ours --vs llama.cpp $json
		out "compare --force $json" "${k:-text}" compare --ours ours --vs llama.cpp --force $json
		out "sweep $json" "${k:-text}" sweep $json
		out "trend $json" "${k:-text}" trend $json
		out "calibrate $json" "${k:-text}" calibrate $json
		out "baseline show $json" "${k:-text}" baseline show B $json
		out "gate $json" "${k:-text}" gate --baseline B --engine ours $json
	done
	out "gate --github" github gate --baseline B --engine ours --github
	# The JUnit file: its class names carry the model label (gate exits 0 or 1).
	tps gate --baseline B --engine ours --junit "$TMP/o/$n-junit.xml"
	[ "$rc" -le 1 ] || { cat "$TMP/err" >&2; fail "case $n: gate --junit: exit $rc"; }
	queue+=("junit:$TMP/o/$n-junit.xml")
	out "report md" md report --no-plots
	out "report json" json report --format json --no-plots
	tps report --out "$TMP/rep$n"
	[ "$rc" = 0 ] || { cat "$TMP/err" >&2; fail "case $n: report --out: exit $rc"; }
	queue+=("md:$TMP/rep$n/report.md" "text:$TMP/rep$n/summary.txt")
	for kind in trend sweep parity; do
		tps plot "$kind" --out "$TMP/o/$n-$kind.svg"
		[ "$rc" = 0 ] || { cat "$TMP/err" >&2; fail "case $n: plot $kind: exit $rc"; }
		queue+=("svg:$TMP/o/$n-$kind.svg")
	done
done <"$TPSDB_TEST_DATA/hostile/hostile.txt"
[ "$n" -ge 15 ] || fail "only $n hostile strings were read"
python3 "$check" "${queue[@]}" || fail "an output is not safe for its sink"
echo "ok: $n hostile strings through every sink"
