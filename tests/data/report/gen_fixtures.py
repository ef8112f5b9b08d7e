#!/usr/bin/env python3
# gen_fixtures.py: writes the report fixtures as tpsdb export lines ("tpsdb_run": 1),
# so that run uuids and start times are fixed and the golden files stay stable.
# The .jsonl files are committed; rerun this only to change them:
#   python3 tests/data/report/gen_fixtures.py tests/data/report
import hashlib, json, sys, os

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
PROMPTS = ["chat", "code", "math", "summary"]
# Small symmetric wobbles: the median of 12 values is exactly the target.
WOBBLE = [-0.006, -0.004, -0.002, -0.001, 0.0, 0.0, 0.0, 0.0, 0.001, 0.002, 0.004, 0.006]


def phash(name):
    return hashlib.sha256(("prompt:" + name).encode()).hexdigest()


class Gen:
    def __init__(self, prefix):
        self.prefix = prefix
        self.n = 0

    def uuid(self):
        self.n += 1
        return "%s-0000-4000-8000-%012d" % (self.prefix, self.n)

    def time(self, minutes):
        d, rest = divmod(minutes, 24 * 60)
        h, m = divmod(rest, 60)
        return "2025-06-%02dT%02d:%02d:00.000Z" % (1 + d, h, m)


def sample(prompt, rep, seq, pp, tg, flags=0, draft=None, prompt_n=1024, predicted_n=256):
    s = {
        "prompt": prompt, "prompt_hash": phash(prompt), "rep": rep, "seq": seq,
        "cache_n": 0, "prompt_n": prompt_n,
        "prompt_ms": round(prompt_n / pp * 1000, 3), "prompt_per_second": pp,
        "predicted_n": predicted_n, "predicted_ms": round(predicted_n / tg * 1000, 3),
        "predicted_per_second": tg,
        "draft_n": draft[0] if draft else None,
        "draft_n_accepted": draft[1] if draft else None,
        "wall_ms": 1000.0, "http_status": 200, "error": None, "stop_type": "limit",
        "output_hash": None, "flags": flags, "timings": None,
    }
    return s


def run(gen, minutes, engine, role, model, samples, spec_type="", n_max=None, tag="",
        sha="a" * 64, status="complete", load_error=None, version="", file=None):
    return {
        "tpsdb_run": 1,
        "run": {
            "uuid": gen.uuid(), "started_at": gen.time(minutes),
            "ended_at": gen.time(minutes + 1), "status": status, "source": "collect",
            "host": {"name": "h200", "gpu": "NVIDIA H200", "driver": "570.86.15", "cuda": "12.8"},
            "engine": {"label": engine, "role": role, "version": version, "sha256": ""},
            "model": {"label": model, "file": file or (model + ".gguf"), "bytes": 1000,
                      "sha256": sha, "quant": "Q4_K_M"},
            "ctx": 8192, "n_predict": 256, "ignore_eos": 1, "temperature": 0.0, "seed": 42,
            "endpoint": "completion", "spec_type": spec_type, "n_max": n_max,
            "drafter": "", "extra_args": "", "tag": tag, "notes": "",
            "load_error": load_error, "log_path": None, "warmup": 1, "prompt_set": "",
        },
        "samples": samples,
    }


def base_samples(pp, tg, step=5, flags=None):
    # Each engine walks the wobbles in its own order (step 5 or 7, both prime to
    # 12), so pairs differ while every median stays exactly on the target.
    out = []
    k = 0
    for p in PROMPTS:
        for rep in (1, 2, 3):
            w = WOBBLE[(k * step) % 12]
            v = WOBBLE[(k * step + 3) % 12]
            out.append(sample(p, rep, k + 1, round(pp * (1 + w), 2), round(tg * (1 + v), 2)))
            k += 1
    for idx, fl, bad in (flags or []):
        out[idx]["flags"] = fl
        if fl & 1:
            out[idx]["predicted_per_second"] = bad
            out[idx]["predicted_n"] = 40
        if fl & 16:
            out[idx]["prompt_per_second"] = bad
    return out


# Acceptance per prompt kind: code drafts well, chat badly.
ACCEPT = {"chat": -0.08, "code": 0.10, "math": 0.02, "summary": -0.04}


def spec_samples(tg, accept, n_max):
    out = []
    k = 0
    for p in PROMPTS:
        for rep in (1, 2, 3):
            w = WOBBLE[(k * 7) % 12]
            a = max(0.05, min(0.98, accept + ACCEPT[p]))
            drafted = 60 * n_max
            acc = int(round(drafted * a))
            out.append(sample(p, rep, k + 1, 13000.0, round(tg * (1 + w), 2),
                              draft=(drafted, acc)))
            k += 1
    return out


def study():
    g = Gen("00000000")
    lines = []
    t = 0
    # Base: q35 at parity for ours, stock-llamafile slower; g4 on another GGUF for ours.
    base = [
        ("llama.cpp", "upstream", "q35", 13100.0, 143.0, 5, None, "a" * 64),
        ("ours", "ours", "q35", 13150.0, 142.6, 7, [(3, 1, 20.0), (0, 16, 9000.0)], "a" * 64),
        ("stock-llamafile", "other", "q35", 11800.0, 120.4, 7, None, "a" * 64),
        ("llama.cpp", "upstream", "g4", 5600.0, 92.5, 5, None, "b" * 64),
        ("ours", "ours", "g4", 5400.0, 88.1, 7, None, "c" * 64),
        ("stock-llamafile", "other", "g4", 5390.0, 88.0, 7, None, "b" * 64),
    ]
    for eng, role, model, pp, tg, step, flags, sha in base:
        lines.append(run(g, t, eng, role, model, base_samples(pp, tg, step, flags),
                         tag="b9859" if eng == "llama.cpp" else "v1", sha=sha))
        t += 5
    spec = {
        "ours": [(1, 190.2, 0.80), (2, 230.7, 0.71), (3, 221.0, 0.62)],
        "llama.cpp": [(1, 195.1, 0.81), (2, 236.4, 0.72), (3, 240.3, 0.64)],
    }
    for eng, role in (("llama.cpp", "upstream"), ("ours", "ours")):
        for n_max, tg, acc in spec[eng]:
            lines.append(run(g, t, eng, role, "q35", spec_samples(tg, acc, n_max),
                             spec_type="draft", n_max=n_max,
                             tag="b9859" if eng == "llama.cpp" else "v1"))
            t += 5
    # An engine that never served a model: a LOADFAIL with no samples.
    lines.append(run(g, t, "ours", "ours", "mx", [], status="failed",
                     load_error="llama_model_load: loading model\nerror: unknown model "
                     "architecture: 'mx9'\n", tag="v1"))
    return lines


def history():
    """Three tg histories on model m1: steady, one outlier, two steps."""
    g = Gen("11111111")
    lines = []
    noise = [0.003, -0.002, 0.001, -0.004, 0.002, 0.0, -0.001, 0.004, -0.003, 0.001,
             0.002, -0.002, 0.003, -0.001, 0.0]
    series = {
        "steady": [100.0] * 12,
        "outlier": [100.0] * 5 + [140.0] + [100.0] * 6,
        "steps": [100.0] * 5 + [90.0] * 5 + [110.0] * 5,
    }
    t = 0
    for eng, levels in series.items():
        for i, lv in enumerate(levels):
            v = lv * (1 + noise[i % len(noise)])
            samples = []
            for k, p in enumerate(PROMPTS[:3]):
                samples.append(sample(p, 1, k + 1, 9000.0 + 10 * i,
                                      round(v * (1 + (k - 1) * 0.001), 3)))
            lines.append(run(g, t, eng, "ours", "m1", samples, tag="b%d" % (100 + i)))
            t += 60
    return lines


def hostile():
    """Labels that would run commands if they reached gnuplot or break a markdown
    row: @MARK@ is replaced by the test with a folder the commands would touch."""
    g = Gen("22222222")
    ours = "ours\"'\n`touch @MARK@/bq1`"
    up = "up; ! touch @MARK@/bang\nset output '@MARK@/evil.png'; system(\"touch @MARK@/sys1\")"
    model = "q|35 system(\"touch @MARK@/sys2\") `touch @MARK@/bq2` @x #c\ttab \\"
    tag = "t`touch @MARK@/bq3`\"'; ! touch @MARK@/bang2 | x"
    spec = "dr|aft\n`touch @MARK@/bq4`"
    lines = []
    t = 0
    for i in range(8):
        for eng, role, f in ((ours, "ours", 1.0 if i < 4 else 0.85), (up, "upstream", 1.0)):
            samples = base_samples(5000.0 * f, 100.0 * f)
            samples[0]["prompt"] = "p|1\n`touch @MARK@/bq5`"
            samples[0]["prompt_hash"] = phash(samples[0]["prompt"])
            lines.append(run(g, t, eng, role, model, samples, tag=tag))
            t += 30
    for eng, role in ((ours, "ours"), (up, "upstream")):
        for n_max, tg, acc in ((1, 150.0, 0.8), (2, 170.0, 0.7)):
            samples = spec_samples(tg, acc, n_max)
            samples[0]["prompt"] = "p|1\n`touch @MARK@/bq5`"
            samples[0]["prompt_hash"] = phash(samples[0]["prompt"])
            lines.append(run(g, t, eng, role, model, samples, spec_type=spec, n_max=n_max,
                             tag=tag))
            t += 5
    return lines


def write(name, lines):
    with open(os.path.join(OUT, name), "w") as f:
        for l in lines:
            f.write(json.dumps(l, separators=(",", ":")) + "\n")


write("study.jsonl", study())
write("history.jsonl", history())
write("hostile.jsonl.in", hostile())
