#!/usr/bin/env bash
# t0523: builds without a git describe all report "b0-unknown" (no build number);
# trend tells them apart by the binary's sha256, orders them by when each binary
# was first seen and says so; the report's trend figures take that order and
# say so, and its runs name each run's build alike. Issue 27's H100 store (gpu-seq.jsonl), with engine
# old's runs (binary bbde6b07, first seen 9 s after new's 601a1b04) relabelled as
# new's: one series of two interleaved b0-unknown builds.
. "${TPSDB_TEST_DATA:?}/report/lib.sh" || exit 1
need jq

jq -c 'if .run.engine.label == "old" then .run.engine.label = "new" | .run.engine.role = "ours"
	else . end' "$TPSDB_TEST_DATA/gpu/gpu-seq.jsonl" >"$TMP/s.jsonl"
"$TPSDB_BIN" import "$TMP/s.jsonl" >/dev/null || fail "import"

tps trend --metric tg --engine new --format md
expect_rc 0 "trend"
grep -Eq '^\| new .*\| +45 \| b0-unknown sha 601a1b04 \| b0-unknown sha bbde6b07 \|' "$TMP/out" ||
	{ cat "$TMP/out" >&2; fail "first and last build by sha256"; }
# In that order the one level change falls where the binary changes: run 24, the
# first of bbde6b07 (old, the slower build).
grep -Eq '^\| new .*\| b0-unknown sha bbde6b07 \| +24 \|.*\*\*-[0-9.]+%\*\*' "$TMP/out" ||
	{ cat "$TMP/out" >&2; fail "the change point at the build change"; }
grep -q '^_Order: a build that names no build number ("b0-unknown": built without git describe) is placed by when its binary (sha256, else its version) was first seen, its runs by start time._$' \
	"$TMP/out" || { cat "$TMP/out" >&2; fail "the order's note"; }

# First-seen order puts all 23 runs of 601a1b04 before the 22 of bbde6b07, so
# the last 22 are bbde6b07's alone; start order would interleave them.
tps trend --metric tg --engine new --limit 22
grep -Eq '^new .* 22 +b0-unknown sha bbde6b07 +b0-unknown sha bbde6b07 ' "$TMP/out" ||
	{ cat "$TMP/out" >&2; fail "--limit 22: the later build's runs alone"; }
tps trend --metric tg --engine new --limit 24 --json
jq -e '.series[0].order == "first-seen" and .series[0].n_runs == 24' "$TMP/out" >/dev/null ||
	fail "json order"
tps trend --metric tg --engine new --limit 24
grep -Eq '^new .* 24 +b0-unknown sha 601a1b04 +b0-unknown sha bbde6b07 ' "$TMP/out" ||
	{ cat "$TMP/out" >&2; fail "--limit 24: the newest run of 601a1b04 then bbde6b07's"; }

# One binary: start order, no note, and the label still names the binary.
tps trend --metric tg --engine aa
grep -Eq '^aa .* 22 +b0-unknown sha 601a1b04 +b0-unknown sha 601a1b04 ' "$TMP/out" ||
	{ cat "$TMP/out" >&2; fail "aa"; }
! grep -q 'Order:' "$TMP/out" || fail "a note without two builds"

# The report's trend figures take that order and say so in their titles.
if command -v gnuplot >/dev/null 2>&1; then
	tps report --format html --out "$TMP/rep"
	expect_rc 0 "report html"
	for f in trend trend-pp; do
		grep -q 'm7b, base: median per run, builds by first seen<' "$TMP/rep/$f.svg" ||
			fail "$f.svg: the order in the title"
	done
fi

# The report, on the store as collected: each engine's runs name their binary.
export TPSDB_DB=$TMP/as-collected.sqlite
"$TPSDB_BIN" import "$TPSDB_TEST_DATA/gpu/gpu-seq.jsonl" >/dev/null || fail "import 2"
tps report --format json --no-plots
expect_rc 0 "report"
[ "$(jq -r '[.runs[] | "\(.engine)=\(.build)"] | unique | join(",")' "$TMP/out")" = \
	"aa=b0-unknown sha 601a1b04,new=b0-unknown sha 601a1b04,old=b0-unknown sha bbde6b07" ] ||
	{ jq -c '[.runs[] | {engine, build}]' "$TMP/out" >&2; fail "report runs' builds"; }
if command -v gnuplot >/dev/null 2>&1; then
	tps report --format html --out "$TMP/rep2"
	! grep -q 'builds by first seen' "$TMP/rep2/trend.svg" || fail "one build a series: no order in the title"
fi
tps report --no-plots
grep -Eq '^\| [0-9a-f-]{36} \| old \| m7b \| base \| [^|]+ \| [^|]+ \| b0-unknown sha bbde6b07 \|$' \
	"$TMP/out" || { grep old "$TMP/out" >&2; fail "report md: the build column"; }
exit 0
