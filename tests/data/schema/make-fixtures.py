#!/usr/bin/env python3
"""make-fixtures.py: writes tests/data/schema/v<N>.sql, a tpsdb store at schema
version N as text: the migrations 0001..000N as they are in schema/, then a few
rows valid at that version, then the application_id and user_version marks. Run
from the repository root:

    python3 tests/data/schema/make-fixtures.py [N ...]     (default: 3 4 6 7 8 9 10 11)

Deterministic: the same schema/ gives the same bytes. v1, v2 and v5 were written by
hand earlier and are kept as they are (t0107, t0723 and test_migrate.c use them).

Each version's rows are the same data, with every column that exists at that
version filled, so a migration that loses a column's values is caught
(t1200-store-old-versions.sh checks row counts and key values after migrate):
two server runs of one cell (ours and upstream, two prompts, two repetitions,
one of them a spec run at v1..), a llama-bench run, a baseline, a noise floor, a
file hash and, from v4, an imported file.

0009_sample_rate.sql computes the new columns of stored samples with tps_rate(), an
SQL function tpsdb registers; the sqlite3 shell has none. The fixture applies 0009
while `sample` is still empty, so its UPDATE is left out (marked in the text) and
the rows carry the rates that record_rate() gives for them."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SCHEMA = os.path.join(ROOT, "schema")
OUT = os.path.join(ROOT, "tests", "data", "schema")
APP_ID = 1414550340


def migrations(n):
    files = sorted(f for f in os.listdir(SCHEMA) if f.endswith(".sql") and f[:4].isdigit())
    out = []
    for f in files:
        v = int(f[:4])
        if v > n:
            break
        text = open(os.path.join(SCHEMA, f)).read()
        if v == 9:
            cut = text.index("UPDATE sample SET")
            text = text[:cut] + ("-- (make-fixtures.py: the UPDATE over stored samples is left out: "
                                 "`sample` is empty here\n-- and the sqlite3 shell has no tps_rate())\n")
        out.append(text if text.endswith("\n") else text + "\n")
    return "".join(out)


def lit(v):
    if v is None:
        return "NULL"
    if isinstance(v, str):
        return "'" + v.replace("'", "''") + "'"
    return repr(v)


def insert(table, row):
    cols = ",".join(k for k, _ in row)
    vals = ",".join(lit(v) for _, v in row)
    return "INSERT INTO %s(%s)\n  VALUES(%s);\n" % (table, cols, vals)


def pick(n, cols):
    """cols: (name, value, since) triples; keeps those present at version n."""
    return [(c, v) for c, v, since in cols if since <= n]


def run_row(n, rid, uuid, engine, source, started, looks, rnd, cfg=None, env=None, spec=None):
    llama_bench = source == "llama-bench"
    return pick(n, [
        ("id", rid, 1), ("uuid", uuid, 1), ("started_at", started, 1),
        ("ended_at", started.replace(":00.000Z", ":40.000Z"), 1), ("status", "complete", 1),
        ("source", source, 1), ("host_id", 1, 1), ("engine_id", engine, 1), ("model_id", 1, 1),
        ("ctx", None if llama_bench else 4096, 1), ("n_predict", 128, 1),
        ("ignore_eos", None if llama_bench else 1, 1),
        ("temperature", None if llama_bench else 0.0, 1), ("seed", None if llama_bench else 42, 1),
        ("endpoint", "llama-bench" if llama_bench else "completion", 1),
        ("spec_type", spec[0] if spec else "", 1), ("n_max", spec[1] if spec else None, 1),
        ("tag", "v%d" % n, 1), ("notes", "fixture v%d" % n, 1),
        ("warmup", None if llama_bench else 1, 1), ("prompt_set", "" if llama_bench else "ps-%d" % n, 1),
        ("round", None if llama_bench else rnd, 3), ("batch", None if llama_bench else "batch-%d" % n, 3),
        ("config", cfg or "", 5), ("cpu", "AMD EPYC 9654" if llama_bench else "", 5),
        ("model_type", "qwen35 9B Q4_K - Medium" if llama_bench else "", 5),
        ("model_n_params", 8950000000 if llama_bench else None, 5),
        ("looks_to", looks, 6),
        ("env", env, 7), ("env_flags", 1 if env and "busy" in env else 0, 7),
        ("collector_host", None if llama_bench else "bench-01", 8),
        ("collector_boot", None if llama_bench else "0b0b0b0b-0000-4000-8000-00000000000%d" % rid, 8),
        ("collector_pid", None if llama_bench else 4000 + rid, 8),
        ("collector_start", None if llama_bench else 100000 + rid, 8),
        ("looks_metric", "tg" if looks else None, 11),
    ])


def rate(n, ms):
    return round(n / ms * 1000.0, 6)


def sample_row(n, sid, rid, prompt, rep, pn, pms, tn, tms, draft=None, agg=False):
    flags = 32 if agg else 0
    lb = pn is None  # a llama-bench row: no request behind it
    return pick(n, [
        ("id", sid, 1), ("run_id", rid, 1), ("prompt_id", prompt, 1), ("rep", rep, 1),
        ("seq", None if lb else sid, 1), ("cache_n", None if lb else 0, 1),
        ("prompt_n", pn, 1), ("prompt_ms", pms, 1),
        ("prompt_per_second", rate(pn, pms) if pn else None, 1),
        ("predicted_n", tn, 1), ("predicted_ms", tms, 1),
        ("predicted_per_second", 61.5 if lb else rate(tn - 1, tms), 1),
        ("draft_n", draft[0] if draft else None, 1), ("draft_n_accepted", draft[1] if draft else None, 1),
        ("wall_ms", None if lb else round(pms + tms + 7.5, 3), 1),
        ("http_status", None if lb else 200, 1), ("stop_type", None if lb else "limit", 1),
        ("output_hash", None if lb else "%064x" % (sid * 0x1111), 1),
        ("timings", None if lb else '{"predicted_n":%d,"prompt_n":%d}' % (tn, pn), 1),
        ("flags", flags, 1),
        ("repeat_share", None if lb else round(0.05 * sid, 4), 7),
        ("pp_rate", rate(pn, pms) if pn else None, 9),
        ("tg_rate", 61.5 if agg else rate(tn, tms), 9),
        ("client_ttft_ms", None if lb else round(pms + 3.25, 3), 10),
        ("client_decode_per_second", None if lb else round(rate(tn - 1, tms) * 0.99, 6), 10),
        ("client_e2e_ms", None if lb else round(pms + tms + 6.5, 3), 10),
    ])


def rows(n):
    out = []
    out.append(insert("host", [("id", 1), ("name", "gpu-a"), ("gpu", "NVIDIA H200"),
                               ("driver", "580.159.04"), ("cuda", "13.0")]))
    out.append(insert("engine", [("id", 1), ("label", "ours"), ("role", "ours"),
                                 ("version", "b9859-abc"), ("sha256", "e1" * 32)]))
    out.append(insert("engine", [("id", 2), ("label", "llama.cpp"), ("role", "upstream"),
                                 ("version", "b9859"), ("sha256", "e2" * 32)]))
    out.append(insert("model", [("id", 1), ("label", "q35"), ("file", "q35-Q4_K_M.gguf"),
                                ("bytes", 5680000000), ("sha256", "5a" * 32), ("quant", "Q4_K_M")]))
    out.append(insert("prompt", [("id", 1), ("name", "code"), ("text_hash", "1" * 64), ("n_tokens", 1762)]))
    out.append(insert("prompt", [("id", 2), ("name", "math"), ("text_hash", "2" * 64), ("n_tokens", 1650)]))
    looks = 3 if n >= 6 else None
    env = '{"host":{"load1":0.42},"gpu":{"util_pct":97}}'
    out.append(insert("run", run_row(n, 1, "11111111-1111-4111-8111-%012d" % n, 1, "collect",
                                     "2026-11-30T10:00:00.000Z", looks, 1, env=env)))
    out.append(insert("run", run_row(n, 2, "22222222-2222-4222-8222-%012d" % n, 2, "collect",
                                     "2026-11-30T10:01:00.000Z", looks, 1, env=env)))
    out.append(insert("run", run_row(n, 3, "33333333-3333-4333-8333-%012d" % n, 1, "collect",
                                     "2026-11-30T10:02:00.000Z", None, 2, spec=("draft-simple", 8))))
    out.append(insert("run", run_row(n, 4, "44444444-4444-4444-8444-%012d" % n, 2, "llama-bench",
                                     "2026-11-30T11:00:00.000Z", None, None, cfg="tg128@d0 fa=1 ngl=99")))
    sid = 0
    for rid, speed in ((1, 1.0), (2, 1.04), (3, 0.8)):
        for prompt, pn in ((1, 1762), (2, 1650)):
            for rep in (1, 2):
                sid += 1
                tms = round(2000.0 * speed + 10 * rep + prompt, 3)
                pms = round(120.0 * speed + rep, 3)
                draft = (96, 70 + rep) if rid == 3 else None
                out.append(insert("sample", sample_row(n, sid, rid, prompt, rep, pn, pms, 128, tms, draft)))
    sid += 1
    out.append(insert("sample", sample_row(n, sid, 4, 1, 1, None, None, 128, 2081.3, agg=n >= 5)))
    out.append(insert("baseline", [("id", 1), ("name", "upstream-b9859"), ("created_at", "2026-11-30T12:00:00.000Z")]))
    out.append(insert("baseline_run", [("baseline_id", 1), ("run_id", 2)]))
    out.append(insert("file_hash", [("path", "/models/q35-Q4_K_M.gguf"), ("bytes", 5680000000),
                                    ("mtime_ns", 1764000000000000000), ("sha256", "5a" * 32)]))
    if n >= 2:
        out.append(insert("noise_floor", [("id", 1), ("measured_at", "2026-11-30T12:00:00.000Z"), ("host_id", 1),
                                          ("engine_id", 1), ("model_id", 1), ("ctx", 4096), ("n_predict", 128),
                                          ("endpoint", "completion"), ("spec_type", ""), ("n_max", None),
                                          ("metric", "tg"), ("noise_pct", 1.7), ("n_pairs", 3),
                                          ("run_a", 1), ("run_b", 1)]))
    if n >= 4:
        out.append(insert("imported_file", [("id", 1), ("sha256", "c" * 64), ("name", "llama-bench.json"),
                                            ("bytes", 2048), ("imported_at", "2026-11-30T11:01:00.000Z"),
                                            ("kind", "llama-bench"), ("run_uuid", "44444444-4444-4444-8444-%012d" % n),
                                            ("samples", 1)]))
    return "".join(out)


def fixture(n):
    head = ("-- v%d.sql: a tpsdb store at schema version %d, written by make-fixtures.py (do not\n"
            "-- edit; run it again): migrations 0001 to %04d as they are in schema/, then rows\n"
            "-- with every column of that version filled. t1200-store-old-versions.sh migrates\n"
            "-- it and checks that nothing is lost; t1201-store-damaged.sh damages it.\n" % (n, n, n))
    return (head + migrations(n) + "\n" + rows(n) +
            "PRAGMA application_id = %d;\nPRAGMA user_version = %d;\n" % (APP_ID, n))


def main():
    versions = [int(a) for a in sys.argv[1:]] or [3, 4, 6, 7, 8, 9, 10, 11]
    for n in versions:
        with open(os.path.join(OUT, "v%d.sql" % n), "w") as f:
            f.write(fixture(n))


if __name__ == "__main__":
    main()
