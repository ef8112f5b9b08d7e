#!/usr/bin/env bash
# t0406: ours v2 against a baseline of ours v1: the MoE decodes 6% slower, beyond the
# default 3% threshold; the other three cells and metrics pass. Exit 1, JSON pass
# false, exactly that cell failing, a JUnit file with one failure, and GitHub
# annotations when GITHUB_ACTIONS=true. Per-metric thresholds let it pass.
. "$TPSDB_TEST_DATA/analyze-cli/lib.sh"

for v in v1 v2; do
	imp_rounds ours ours dense-8b "gate-dense-$v" --tag "$v"
	imp_rounds ours ours moe-30b "gate-moe-$v" --tag "$v"
done
tps baseline set rel-1 --engine ours --tag v1
expect_rc 0 "baseline set"

tps gate --baseline rel-1 --engine ours --tag v2 --json --junit "$TMP/junit.xml"
expect_rc 1 "one regression fails the gate"
check '.pass == false' "pass false"
check '.cells | length == 4' "2 cells x pp, tg"
check '[.cells[] | select(.status == "fail")] | length == 1' "exactly one failure"
check '.cells[] | select(.status == "fail") | .model == "moe-30b" and .metric == "tg" and .delta_pct < -5.5 and .delta_pct > -6.5 and .threshold_pct == 3 and .bound == "band"' "the MoE decode"
check 'all(.cells[]; has("baseline") and has("candidate") and .spec_type == "" and .n_max == null)' "keys"
check '.warnings == [] and .sweep_violations == [] and .findings == []' "nothing else"
python3 - "$TMP/junit.xml" <<'PY' || fail "JUnit"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = root.findall(".//testcase")
fails = [c for c in cases if c.find("failure") is not None]
assert len(cases) == 4, len(cases)
assert len(fails) == 1 and fails[0].get("name") == "moe-30b tg", [f.get("name") for f in fails]
assert "rel-1" in fails[0].find("failure").get("message")
assert root.get("failures") == "1"
PY

tps gate --baseline rel-1 --engine ours --tag v2
expect_rc 1 "text"
grep -q '^gate: .ours. tag .v2. against baseline .rel-1.: FAIL (1 failure(s))' "$TMP/out" || fail "summary"
grep -q 'moe-30b .* tg .* FAIL$' "$TMP/out" || fail "the failing row"
sed -n 2p "$TMP/out" | grep -Eq '^  answer: pp no regression in 2 of 2 cells .*; tg no regression in 1 of 2 cells, 1 regression \(moe-30b -6\.[0-9]% \[-6\.[0-9]+%, -[56]\.[0-9]+%\]\)' ||
	fail "the one-line answer: $(sed -n 2p "$TMP/out")"

GITHUB_ACTIONS=true "$TPSDB_BIN" gate --baseline rel-1 --engine ours --tag v2 >"$TMP/out" 2>&1 && fail "exit"
[ "$(grep -c '^::error title=tpsdb gate::moe-30b tg: ' "$TMP/out")" = 1 ] || fail "one ::error line"

# Thresholds: per metric from flags, from a file, and a flag over the file.
tps gate --baseline rel-1 --engine ours --tag v2 --max-regress tg=7 --json
expect_rc 0 "tg=7"
check '.pass and all(.cells[] | select(.metric == "tg"); .threshold_pct == 7)' "tg threshold 7"
check 'all(.cells[] | select(.metric == "pp"); .threshold_pct == 3)' "pp keeps 3"
printf '# gate thresholds\ntg = 8   # decode\n\npp=1\n' >"$TMP/th.conf"
tps gate --baseline rel-1 --engine ours --tag v2 --thresholds "$TMP/th.conf" --json
expect_rc 0 "file"
check '[.cells[] | .threshold_pct] == [1,8,1,8]' "file thresholds"
tps gate --baseline rel-1 --engine ours --tag v2 --thresholds "$TMP/th.conf" --max-regress 2
expect_rc 1 "a flag overrides the file"
tps gate --baseline rel-1 --engine ours --tag v2 --metric pp --json
expect_rc 0 "--metric pp only"
check '.pass and all(.cells[]; .metric == "pp")' "pp only"
printf 'tok = 3\n' >"$TMP/bad.conf"
tps gate --baseline rel-1 --engine ours --thresholds "$TMP/bad.conf"
expect_rc 2 "bad thresholds file"
grep -q "line 1: unknown metric 'tok'" "$TMP/err" || fail "names the line"

# Missing cells are warnings; an unknown baseline and nothing shared are errors.
imp ours ours gemma-4b dense-ours.jsonl --tag v2
tps gate --baseline rel-1 --engine ours --tag v2 --metric pp --json
expect_rc 0 "a new cell"
check '.warnings | length == 1 and (.[0] | test("gemma-4b.*baseline .rel-1. does not"))' "warned"
GITHUB_ACTIONS=true "$TPSDB_BIN" gate --baseline rel-1 --engine ours --tag v2 --metric pp >"$TMP/out" 2>&1
grep -q '^::warning::cell .gemma-4b.' "$TMP/out" || fail "::warning"
tps gate --baseline nope --engine ours
expect_rc 3 "no such baseline"
tps gate --baseline rel-1 --engine llama.cpp
expect_rc 3 "nothing to gate"
tps gate --engine ours
expect_rc 2 "usage"
exit 0
