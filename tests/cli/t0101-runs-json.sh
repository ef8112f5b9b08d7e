#!/usr/bin/env bash
# t0101-runs-json.sh: `tpsdb runs --json` is the contract CI scripts parse: an array
# with the documented keys, n_max null for a base run, and working filters; the
# human table is aligned.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3
tmp_store import

"$TPSDB_BIN" import --engine ours --role ours --model q35 --host a --tag b1 --warmup 1 \
	"$D/completion.json" "$D/completion-reps.jsonl" >/dev/null
"$TPSDB_BIN" import --engine ours --role ours --model q35 --host a --tag b1 \
	--spec-type draft-simple --n-max 8 "$D/spec.jsonl" >/dev/null
"$TPSDB_BIN" import --engine llama.cpp --role upstream --host b "$D/llama-bench.json" >/dev/null

"$TPSDB_BIN" runs --json >"$tmp/all.json"
python3 - "$tmp/all.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))
assert isinstance(runs, list) and len(runs) == 4, runs
need = {"uuid", "engine", "model", "host", "tag", "spec_type", "n_max", "status",
        "n_samples", "started_at", "ended_at", "role", "endpoint", "ctx", "n_predict",
        "warmup", "source", "load_error", "n_failed", "n_flagged", "pp_median", "tg_median",
        "config", "cpu", "engine_version", "gpu", "driver", "cuda", "machine"}
for r in runs:
    missing = need - set(r)
    assert not missing, missing
    assert len(r["uuid"]) == 36
# llama-bench: one run per test, started at its test_time (older than the others).
bench, bench_tg, base, spec = runs
assert base["n_max"] is None and base["spec_type"] == "", base
assert base["n_samples"] == 4 and base["status"] == "complete" and base["warmup"] == 1
assert base["engine"] == "ours" and base["role"] == "ours" and base["model"] == "q35"
assert base["host"] == "a" and base["tag"] == "b1" and base["n_predict"] == 512
assert base["endpoint"] == "completion" and base["source"] == "import"
assert base["ctx"] is None and base["load_error"] is None
# the engine version is shown: llama-bench's build, "" when the import named none
assert bench["engine_version"].startswith("b") and "-" in bench["engine_version"], bench
assert base["engine_version"] == "", base["engine_version"]
assert base["pp_median"] > 0 and base["tg_median"] > 0
assert spec["n_max"] == 8 and spec["spec_type"] == "draft-simple" and spec["n_samples"] == 2
assert bench["source"] == "llama-bench" and bench["endpoint"] == "llama-bench"
assert bench["model"] == "tiny" and bench["n_samples"] == 3 and bench["role"] == "upstream"
assert bench["config"].startswith("pp512 ") and bench_tg["config"].startswith("tg128 ")
assert base["config"] == "" and bench["cpu"] != ""
# the machine: host, then what it records of GPU, driver, CUDA and CPU
assert base["machine"] == "a" and bench["machine"] == "b (%s)" % bench["cpu"], bench["machine"]
PY

# Filters.
test "$("$TPSDB_BIN" runs --json --engine ours | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 2
test "$("$TPSDB_BIN" runs --json --host b | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 2
test "$("$TPSDB_BIN" runs --json --tag b1 --since 2099-01-01)" = "[]"
# A tag the store does not hold is an error naming the known ones, not an empty list.
rc=0; "$TPSDB_BIN" runs --json --tag nope >"$tmp/nope.out" 2>"$tmp/nope.err" || rc=$?
test "$rc" = 3 && test ! -s "$tmp/nope.out"
grep -qx "tpsdb: error: --tag 'nope': no tag of that name in the store (known, closest first: b1.*)" "$tmp/nope.err"

# The table: a header and one line per run, the UUID column starting at one offset;
# the runs come from two machines, so a MACHINE column names each run's.
"$TPSDB_BIN" runs >"$tmp/table"
test "$(wc -l <"$tmp/table")" = 5
head -n 1 "$tmp/table" | grep -q '^STARTED *UUID *STATUS *HOST *MACHINE *ENGINE *VERSION *MODEL'
"$TPSDB_BIN" runs --host a | head -n 1 | grep -q '^STARTED *UUID *STATUS *HOST *ENGINE *VERSION *MODEL'
col=$(head -n 1 "$tmp/table" | awk '{ print index($0, "UUID") }')
test "$(tail -n +2 "$tmp/table" | cut -c "$col-$((col + 36))" | grep -Ec '^[0-9a-f-]{36} $')" = 4
grep -q ' draft-simple  *8 ' "$tmp/table"

# An empty store lists nothing.
TPSDB_DB=$tmp/empty.db "$TPSDB_BIN" import --prompt p "$D/eos.json" >/dev/null
test -z "$(TPSDB_DB=$tmp/empty.db "$TPSDB_BIN" runs --tag none)"
