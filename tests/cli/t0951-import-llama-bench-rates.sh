#!/usr/bin/env bash
# t0951-import-llama-bench-rates.sh: a llama-bench repetition's rate is its n_prompt
# or n_gen over its samples_ns (the one definition, schema/record.h), which is
# llama-bench's own samples_ts to the digits it prints, and the mean over a test's
# repetitions is its avg_ts; an aggregate-only sample of -o csv keeps avg_ts.
set -eu
: "${TPSDB_BIN:?}" "${TPSDB_TEST_DATA:?}"
. "${TPSDB_SRC:?}/tests/cli/skip-lib.sh" || exit 1
need python3
tmp_store llama-bench-versions

"$TPSDB_BIN" import --engine old "$D/old-r1.json" >/dev/null
"$TPSDB_BIN" import --engine new "$D/new-r1.json" >/dev/null
"$TPSDB_BIN" import --engine old-csv "$D/old.csv" >/dev/null
"$TPSDB_BIN" export --format csv >"$tmp/out.csv"
python3 - "$tmp/out.csv" "$D/old-r1.json" "$D/new-r1.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
runs = {}
for r in rows:
    runs.setdefault(r["run_uuid"], []).append(r)
tests = [o for f in sys.argv[2:] for o in json.load(open(f))]
matched = 0
for uuid, rs in runs.items():
    if rs[0]["engine"] == "old-csv":
        # One aggregate-only sample per test: its rate is avg_ts as reported,
        # not n over the mean time (which differs: a mean of rates is not n / mean t).
        (r,) = rs
        assert int(r["flags"]) & 32, r["flags"]  # aggregate-only
        col, said = ("pp_rate", "prompt_per_second") if r["prompt_n"] else ("tg_rate", "predicted_per_second")
        assert float(r[col]) == float(r[said]), (r[col], r[said])
        continue
    ts = sorted(json.loads(r["timings"])["llama_bench_ts"] for r in rs)
    (o,) = [o for o in tests if sorted(o["samples_ts"]) == ts]
    col, n = ("pp_rate", o["n_prompt"]) if o["n_gen"] == 0 else ("tg_rate", o["n_gen"])
    rates = []
    for r in rs:
        rate = float(r[col])
        ms = float(r["prompt_ms"] if col == "pp_rate" else r["predicted_ms"])
        assert abs(rate - n / ms * 1000) <= 1e-12 * rate, (rate, n, ms)
        said = json.loads(r["timings"])["llama_bench_ts"]
        # samples_ts is printed to about 6 significant digits.
        assert abs(rate / said - 1) < 1e-5, (rate, said)
        rates.append(rate)
    mean = sum(rates) / len(rates)
    assert abs(mean / o["avg_ts"] - 1) < 1e-9, (mean, o["avg_ts"])
    matched += 1
assert matched == 8, matched
PY
echo ok
