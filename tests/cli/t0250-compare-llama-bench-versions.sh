#!/usr/bin/env bash
# t0250-compare-llama-bench-versions.sh: real llama-bench output of two llama.cpp
# versions (tests/data/llama-bench-versions: flash_attn true/false against 0/1,
# n_gpu_layers 99 against -1). compare and gate name the config key that keeps the
# cells apart; --ignore-config pairs them with a warning; each test has a row for
# its own metric only; one process a side says what a decision needs, rounds do not.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"
D=$TPSDB_TEST_DATA/llama-bench-versions

tps import --engine new "$D/new-r1.json"
expect_rc 0 "import new"
grep -qx "imported 20 sample(s) from llama-bench into 4 new runs (the first: .*; see 'tpsdb runs')" "$TMP/out" ||
	fail "import counts the runs it made: $(cat "$TMP/out")"
tps import --engine old "$D/old-r1.json"
expect_rc 0 "import old"

# No shared cell: one error line naming ngl and both values (not fa: true/false
# and 0/1 are one spelling), and the option that pairs them.
tps compare --ours new --vs old
expect_rc 3 "compare without a shared cell"
[ "$(grep -c '^tpsdb: error: ' "$TMP/err")" = 1 ] || fail "one error line"
grep -qx "tpsdb: error: no cell measured by both 'new' and 'old'; the nearest cells differ only in config ngl ('new' -1, 'old' 99): --ignore-config ngl pairs 4 cells" "$TMP/err" ||
	fail "names ngl: $(grep error "$TMP/err")"

# A key that is not a config key is a usage error listing the keys.
tps compare --ours new --vs old --ignore-config gpu
expect_rc 2 "--ignore-config gpu"
grep -q "^tpsdb: error: --ignore-config: unknown config key 'gpu' (keys: fa, ngl, b, ub, ctk, ctv, t, sm, nkvo, backend)$" "$TMP/err" ||
	fail "unknown key"

# --ignore-config ngl: paired, warned, one row per test and its metric.
tps compare --ours new --vs old --ignore-config ngl --json
expect_rc 0 "compare --ignore-config ngl"
grep -qx "tpsdb: warning: --ignore-config ngl: cells paired regardless of ngl ('new' ran ngl=-1; 'old' ran ngl=99)" "$TMP/err" ||
	fail "warning names what was ignored: $(cat "$TMP/err")"
check '.rows | length == 4' "4 tests, 4 rows"
check 'all(.rows[]; .metric == (if (.config | startswith("pp")) then "pp" else "tg" end))' \
	"a pp test has no tg row, a tg test no pp row"
# One round of one instance without a floor, imported without environment
# facts: no evidence of the instance scatter, so nothing decides, not even
# fa=1's +35.8% pp (which the default scatter taken as known decided faster).
check 'all(.rows[]; .reason == "one-instance" and .rounds == 1 and .bound == "band" and .noise_pct == null)' "one round of one instance: no evidence"
check 'all(.rows[]; .scatter_pct == null and .decided == false)' "no scatter taken as known"
check '[.rows[] | select(.verdict != "undecided") | .config] == []' "nothing decides"
check '.rows[] | select(.config | startswith("pp512 fa=1")) | .regression == "undecided" and .delta_pct > 35' "+35.8% pp: shown"
check '[.rows[].config] | sort == ["pp512 fa=0 b=2048 ub=512 ctk=f16 ctv=f16 t=1 sm=layer nkvo=0 backend=CPU",
	"pp512 fa=1 b=2048 ub=512 ctk=f16 ctv=f16 t=1 sm=layer nkvo=0 backend=CPU",
	"tg128 fa=0 b=2048 ub=512 ctk=f16 ctv=f16 t=1 sm=layer nkvo=0 backend=CPU",
	"tg128 fa=1 b=2048 ub=512 ctk=f16 ctv=f16 t=1 sm=layer nkvo=0 backend=CPU"]' "ngl left out"

# One llama-bench process a side, -r 5: more repetitions cannot decide it (they
# do not show the scatter between processes); the text says what would.
tps compare --ours new --vs old --ignore-config ngl
expect_rc 0 "compare text"
grep -qx "llama-bench: 4 rows compare one llama-bench process a side, undecided: one process is one instance, whose repetitions cannot show the scatter between instances; a decision needs two processes or more a side (run llama-bench a few more times and import each file: each file is one instance of its build; a build whose commit is unknown names none, so give its files one --tag), or a stored A/A floor (tpsdb calibrate)" "$TMP/out" ||
	fail "says what a decision needs"

tps compare --ours new --vs old --ignore-config ngl --format md
grep -qxF "4 rows compare one llama-bench process a side, undecided: one process is one instance, whose repetitions cannot show the scatter between instances; a decision needs two processes or more a side (run llama-bench a few more times and import each file: each file is one instance of its build; a build whose commit is unknown names none, so give its files one --tag), or a stored A/A floor (\`tpsdb calibrate\`)." "$TMP/out" ||
	fail "md: says what a decision needs"

# gate: the same hint when nothing is shared, and --ignore-config there too.
tps baseline set old-base --engine old
expect_rc 0 "baseline set"
tps gate --baseline old-base --engine new
expect_rc 3 "gate without a shared cell"
grep -qx "tpsdb: error: nothing to gate: no cell of 'new' is in the baseline 'old-base'; the nearest cells differ only in config ngl ('new' -1, 'old-base' 99): --ignore-config ngl pairs 4 cells" "$TMP/err" ||
	fail "gate names ngl: $(cat "$TMP/err")"
tps gate --baseline old-base --engine new --ignore-config ngl --json
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "gate --ignore-config: exit $rc"
check '.cells | length == 4' "gate: 4 cells, one metric each"
grep -q "no usable values" "$TMP/err" && fail "gate warns about the metric a test does not measure"
grep -qx "tpsdb: warning: --ignore-config ngl: cells paired regardless of ngl ('new' ran ngl=-1; 'old-base' ran ngl=99)" "$TMP/err" ||
	fail "gate warning"

# The csv of the two versions (averages only) names the same key.
export TPSDB_DB=$TMP/csv.sqlite
"$TPSDB_BIN" import --engine new "$D/new.csv" >/dev/null
"$TPSDB_BIN" import --engine old "$D/old.csv" >/dev/null
tps compare --ours new --vs old
expect_rc 3 "csv: no shared cell"
grep -q "differ only in config ngl ('new' -1, 'old' 99): --ignore-config ngl pairs 4 cells$" "$TMP/err" ||
	fail "csv: names ngl"

# Three llama-bench files of each build under one tag are three rounds: no -r line.
export TPSDB_DB=$TMP/rounds.sqlite
for r in 1 2 3; do
	"$TPSDB_BIN" import --engine new --tag v1 "$D/new-r$r.json" >/dev/null
	"$TPSDB_BIN" import --engine old --tag v1 "$D/old-r$r.json" >/dev/null
done
tps compare --ours new --vs old --ignore-config ngl
expect_rc 0 "compare rounds"
grep -q '^llama-bench: ' "$TMP/out" && fail "rounds: no hint"
tps compare --ours new --vs old --ignore-config ngl --json
check 'all(.rows[]; .rounds == 3 and .instances_ours == 3 and .instances_vs == 3)' "3 rounds"
exit 0
