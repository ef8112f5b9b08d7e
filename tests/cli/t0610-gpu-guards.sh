#!/usr/bin/env bash
# t0610-gpu-guards.sh: the environment guards on a real H200
# (tests/data/gpu/gpu-guards.jsonl, made by scripts/gpu-guards.sh: four one-run
# batches of one CUDA llama-server and a 7B-shaped model). A run while a second
# process computed on the same GPU carries gpu-contended, one with -ngl 8
# partial-offload (and kv-on-host: the host layers' KV lives on the host), one with
# --no-kv-offload kv-on-host, the clean run none; the facts behind them survive
# import and export byte for byte; compare warns about each and --strict fails it;
# the report's data-quality section lists them; the contended
# cell is not called a regression.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3
tmp_dir
F=$TPSDB_TEST_DATA/gpu/gpu-guards.jsonl
db=$tmp/g.db
fail() { echo "FAIL: $*" >&2; exit 1; }

"$TPSDB_BIN" --db "$db" import "$F" >/dev/null
"$TPSDB_BIN" --db "$db" export --format jsonl >"$tmp/again.jsonl"
cmp -s "$F" "$tmp/again.jsonl" || fail "export after import differs from the fixture"
"$TPSDB_BIN" --db "$db" check --json >"$tmp/check.json" || true

python3 - "$tmp/check.json" "$F" <<'PY'
import json, sys
check = json.load(open(sys.argv[1]))
runs = {json.loads(l)["run"]["engine"]["label"]: json.loads(l)["run"] for l in open(sys.argv[2])}
kinds = {}
for f in check["findings"]:
    kinds.setdefault(f["engine"], {})[f["kind"]] = f["detail"]
assert "clean" not in kinds, kinds
assert set(kinds["contended"]) == {"gpu-contended"}, kinds
assert set(kinds["partial"]) == {"partial-offload", "kv-on-host"}, kinds
assert set(kinds["kvhost"]) == {"kv-on-host"}, kinds
assert kinds["partial"]["partial-offload"] == "partial offload: 8 of 33 layers on the GPU", kinds
assert kinds["kvhost"]["kv-on-host"] == \
    "KV cache in host memory (2048.0 MiB on the host, 0.0 MiB on the GPU)", kinds
# The facts behind each: the busy program's pid on the run's GPU and the GPU busy
# before the server started; the layers and KV buffers from the server's log.
g = runs["contended"]["env"]["gpu"]
assert g["other_procs"] == 1 and len(g["other_pids"]) == 1 and g["util_before"] >= 90, g
assert runs["clean"]["env"]["gpu"]["other_procs"] == 0, runs["clean"]["env"]
assert runs["clean"]["env"]["gpu"]["util_before"] < 10, runs["clean"]["env"]
lg = runs["partial"]["env"]["log"]
assert (lg["layers_offloaded"], lg["layers_total"]) == (8, 33), lg
assert lg["kv_host_mib"] == 1600 and lg["kv_gpu_mib"] == 448, lg
lg = runs["kvhost"]["env"]["log"]
assert lg["layers_offloaded"] == 33 and lg["kv_buffers"] == "CPU", lg
lg = runs["clean"]["env"]["log"]
assert lg["kv_buffers"] == "CUDA0" and lg["kv_gpu_mib"] == 2048, lg
# The contention cost the run most of its decode rate, which is why it must not
# pass for the engine's.
tg = {k: sum(s["predicted_per_second"] for s in json.loads(l)["samples"])
      for k, l in ((json.loads(l)["run"]["engine"]["label"], l) for l in open(sys.argv[2]))}
assert tg["contended"] < 0.6 * tg["clean"], tg
PY

# compare warns about every spoiled cell and --strict fails it; the contended cell
# gets no "yes".
for vs in contended partial kvhost; do
	rc=0
	"$TPSDB_BIN" --db "$db" compare --ours "$vs" --vs clean --json >"$tmp/c.json" 2>"$tmp/c.err" || rc=$?
	[ "$rc" = 0 ] || fail "compare $vs exit $rc"
	grep -q "the runs carry .*($vs)" "$tmp/c.err" || fail "compare $vs did not warn: $(cat "$tmp/c.err")"
	python3 -c '
import json, sys
for r in json.load(open(sys.argv[1]))["rows"]:
    assert r["regression"] != "yes", r' "$tmp/c.json"
	rc=0
	"$TPSDB_BIN" --db "$db" compare --ours "$vs" --vs clean --strict >/dev/null 2>&1 || rc=$?
	[ "$rc" = 1 ] || fail "compare $vs --strict exit $rc, want 1"
done
grep -q "gpu-contended" <("$TPSDB_BIN" --db "$db" compare --ours contended --vs clean 2>&1) ||
	fail "compare text does not name gpu-contended"

"$TPSDB_BIN" --db "$db" report --no-plots --out "$tmp/rep" >/dev/null
grep -q "GPU shared: 1 other compute process(es) on the run's GPU" "$tmp/rep/report.md" ||
	fail "report lacks gpu-contended"
grep -q "partial offload: 8 of 33 layers on the GPU" "$tmp/rep/report.md" ||
	fail "report lacks partial-offload"
grep -q "KV cache in host memory (2048.0 MiB on the host" "$tmp/rep/report.md" ||
	fail "report lacks kv-on-host"
echo ok
