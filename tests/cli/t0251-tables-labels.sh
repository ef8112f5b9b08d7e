#!/usr/bin/env bash
# t0251-tables-labels.sh: tables people read. compare's and gate's cell labels (text, md)
# show only the config keys that vary among the rows shown, the constant ones once
# above the table; runs shows the engine version (text column, JSON key, md).
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"
D=$TPSDB_TEST_DATA/llama-bench-versions
"$TPSDB_BIN" import --engine new "$D/new-r1.json" >/dev/null
"$TPSDB_BIN" import --engine old "$D/old-r1.json" >/dev/null

tps compare --ours new --vs old --ignore-config ngl
expect_rc 0 "compare text"
grep -qx 'config of every row: b=2048 ub=512 ctk=f16 ctv=f16 t=1 sm=layer nkvo=0 backend=CPU' "$TMP/out" ||
	fail "the constant keys once above the table"
for c in 'pp512 fa=0' 'pp512 fa=1' 'tg128 fa=0' 'tg128 fa=1'; do
	grep -q "^tiny (llama-bench) {$c}  " "$TMP/out" || fail "label {$c}"
done
grep -q '^tiny .*{[^}]*b=2048' "$TMP/out" && fail "a label repeats a constant key"

# Only one fa shown: fa is constant then, and leaves the labels too.
tps compare --ours new --vs old --ignore-config ngl --metric tg --format md
expect_rc 0 "compare md"
grep -qx 'Config of every row: b=2048 ub=512 ctk=f16 ctv=f16 t=1 sm=layer nkvo=0 backend=CPU' "$TMP/out" ||
	fail "md: the constant keys"
[ "$(grep -c '^| tiny (llama-bench) {tg128 fa=[01]} ' "$TMP/out")" = 2 ] || fail "md labels"

# The JSON keeps the whole config.
tps compare --ours new --vs old --ignore-config ngl --json
check 'all(.rows[]; .config | test("b=2048 ub=512"))' "json: the whole config"

# gate: the same labels, text and md.
"$TPSDB_BIN" baseline set old-base --engine old >/dev/null
tps gate --baseline old-base --engine new --ignore-config ngl
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "gate: exit $rc"
grep -qx '  config of every row: b=2048 ub=512 ctk=f16 ctv=f16 t=1 sm=layer nkvo=0 backend=CPU' "$TMP/out" ||
	fail "gate: the constant keys"
[ "$(grep -c '^  tiny (llama-bench) {\(pp512\|tg128\) fa=[01]}  ' "$TMP/out")" = 4 ] || fail "gate labels"
tps gate --baseline old-base --engine new --ignore-config ngl --format md
grep -qx 'Config of every row: b=2048 ub=512 ctk=f16 ctv=f16 t=1 sm=layer nkvo=0 backend=CPU' "$TMP/out" ||
	fail "gate md: the constant keys"
[ "$(grep -c '^| tiny (llama-bench) {\(pp512\|tg128\) fa=[01]} ' "$TMP/out")" = 4 ] || fail "gate md labels"

# runs: the engine version in all three forms.
tps runs --engine old --limit 1
expect_rc 0 "runs"
head -n 1 "$TMP/out" | grep -q ' ENGINE  *VERSION  *MODEL ' || fail "runs: VERSION column"
grep -q ' old  *b1-b10e98a  *tiny ' "$TMP/out" || fail "runs: the old build's version"
tps runs --engine new --json
check 'all(.[]; .engine_version == "b1-80fb11a")' "runs --json engine_version"
tps runs --engine new --limit 1 --format md
grep -q '^| .* | new  *| b1-80fb11a  *| tiny ' "$TMP/out" || fail "runs md: version"
exit 0
