#!/usr/bin/env bash
# t0103-check-findings.sh: `tpsdb check` groups the ingest-time flags per run with
# an example, reports failed (LOADFAIL) and partial runs, and exits 1 on any finding,
# 0 on a clean store; --json has the documented shape.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3
tmp_store import

# Clean: full-length decodes of a long prompt after a warmup request.
"$TPSDB_BIN" import --engine ours --model q35 --warmup 1 --tag clean \
	"$D/completion.json" "$D/completion-reps.jsonl" >/dev/null
"$TPSDB_BIN" check >"$tmp/out"
test "$(cat "$tmp/out")" = "no findings; integrity ok"
"$TPSDB_BIN" check --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d == {"findings": [], "alarms": [], "integrity": "ok"}, d'

# An EOS stop on a 6-token prompt, the first request of its server.
"$TPSDB_BIN" import --engine ours --model q35 --tag eos "$D/eos.json" >/dev/null
eos=$("$TPSDB_BIN" runs --json --tag eos | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["uuid"])')
"$TPSDB_BIN" import --engine ours --model q35 --warmup 1 --tag cache \
	"$TPSDB_TEST_DATA/import-bad/good-cached.json" >/dev/null
# A run that never loaded and one that stopped early, as a collector records them.
H=9f8fbd5b6a53ea89d7c28eb85b82ef7923051f51918305266e99e64be4a55e40
cat >"$tmp/runs.jsonl" <<JSON
{"tpsdb_run":1,"run":{"uuid":"11111111-1111-4111-8111-111111111111","started_at":"2026-01-01T00:00:00.000Z","status":"failed","host":{"name":"a"},"engine":{"label":"ours","role":"ours"},"model":{"label":"q35"},"tag":"bad","load_error":"llama_model_load: error loading model\nerror: failed to load model 'q35.gguf'\n"},"samples":[]}
{"tpsdb_run":1,"run":{"uuid":"22222222-2222-4222-8222-222222222222","started_at":"2026-01-01T00:01:00.000Z","status":"partial","host":{"name":"a"},"engine":{"label":"ours","role":"ours"},"model":{"label":"q35"},"tag":"bad"},"samples":[{"prompt":"p","prompt_hash":"$H","rep":1,"prompt_n":1802,"prompt_per_second":5000,"predicted_n":512,"predicted_per_second":100,"flags":0}]}
JSON
"$TPSDB_BIN" import "$tmp/runs.jsonl" >/dev/null

rc=0; "$TPSDB_BIN" check >"$tmp/out" || rc=$?
test $rc = 1
grep -qxF "run $eos ours/q35: 1 of 1 samples truncated decode (predicted_n 4 < n_predict 32)" "$tmp/out"
grep -qxF "run $eos ours/q35: 1 of 1 samples short prompt (prompt_n 6 < 512)" "$tmp/out"
grep -qxF "run $eos ours/q35: 1 of 1 samples cold-start prefill (first request after the server started)" "$tmp/out"
grep -qF "1 of 1 samples cache-inflated prefill (cache_n 1712)" "$tmp/out"
grep -qxF "run 11111111-1111-4111-8111-111111111111 ours/q35: LOADFAIL: error: failed to load model 'q35.gguf'" "$tmp/out"
grep -qF "run 22222222-2222-4222-8222-222222222222 ours/q35: partial run:" "$tmp/out"
test "$(tail -n 1 "$tmp/out")" = "6 finding(s), 0 alarm(s), integrity ok"

rc=0; "$TPSDB_BIN" check --json >"$tmp/out.json" || rc=$?
test $rc = 1
python3 - "$tmp/out.json" "$eos" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert set(d) == {"findings", "alarms", "integrity"} and d["integrity"] == "ok"
for f in d["findings"]:
    assert set(f) == {"run", "engine", "model", "kind", "count", "total", "detail"}, f
kinds = sorted((f["run"][:8], f["kind"], f["count"], f["total"]) for f in d["findings"])
eos = sys.argv[2][:8]
want = sorted([(eos, "truncated", 1, 1), (eos, "short-prompt", 1, 1), (eos, "cold-start", 1, 1),
               ("11111111", "load-failed", 1, 1), ("22222222", "partial", 1, 1)])
got = [k for k in kinds if k[1] != "cache-inflated"]
assert got == want, got
assert [f["detail"] for f in d["findings"] if f["kind"] == "cache-inflated"] == \
    ["cache-inflated prefill (cache_n 1712)"]
PY

# Filters narrow the findings; a filter that leaves only clean runs exits 0.
rc=0; "$TPSDB_BIN" check --tag bad >"$tmp/out" || rc=$?
test $rc = 1
test "$(grep -c '^run ' "$tmp/out")" = 2
"$TPSDB_BIN" check --tag clean >/dev/null
"$TPSDB_BIN" check --engine ours --since 2099-01-01 >/dev/null
