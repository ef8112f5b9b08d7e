#!/usr/bin/env python3
# gen.py: writes the llama-server-like responses behind the pooled sweep CLI test
# (tests/cli/t0435-sweep-pooled.sh): a speculative series (base, n_max 1, 2, 3) of
# two engines, three runs (server instances) per rung, each a file of 6 prompts x
# 1 repetition. A run's values are tg * spread[k] * shape[prompt], chosen by hand
# so that each decision of the test follows from them (see below). Deterministic:
# `python3 gen.py` from this folder.
import json

N_PROMPTS, N_PREDICT = 6, 256
SHAPE = [1.000, 1.011, 0.989, 1.006, 0.994, 1.002]  # ~1% request scatter
TIGHT = [1.000, 1.002, 0.998]                       # instances within 0.2%
WIDE = [1.00, 1.10, 0.90]                           # instances scattered 10%
TPC = {1: 1.8, 2: 2.4, 3: 2.8}                      # tokens per verify cycle


def prompt(k):
    return "<s> prompt %d: the quick brown fox jumps over the lazy dog" % k


def response(k, tg, draft):
    t = {
        "cache_n": 0, "prompt_n": 1024,
        "prompt_ms": round(1024 / 12000 * 1000, 3),
        "prompt_per_token_ms": round(1000 / 12000, 6),
        "prompt_per_second": 12000.0,
        "predicted_n": N_PREDICT,
        "predicted_ms": round(N_PREDICT / tg * 1000, 3),
        "predicted_per_token_ms": round(1000 / tg, 6),
        "predicted_per_second": round(tg, 3),
    }
    if draft is not None:
        t["draft_n"], t["draft_n_accepted"] = draft
    return {
        "index": 0, "content": "out %d" % k, "model": "m.gguf", "stop": True,
        "stop_type": "limit", "tokens_predicted": N_PREDICT,
        "generation_settings": {"n_predict": N_PREDICT, "ignore_eos": True, "seed": 42,
                                "temperature": 0.0},
        "prompt": prompt(k), "timings": t,
    }


def run(name, tg, n_max, tpc_scale=1.0):
    with open(name, "w") as f:
        for k in range(N_PROMPTS):
            draft = None
            if n_max:
                cycles = round(N_PREDICT / (TPC[n_max] * tpc_scale))
                draft = (cycles * n_max, N_PREDICT - cycles)
            f.write(json.dumps(response(k, tg * SHAPE[k], draft)) + "\n")


def rung(eng, n_max, tg, spread):
    name = "base" if n_max is None else "n%d" % n_max
    for i, s in enumerate(spread):
        # Acceptance moves a little from instance to instance: an interval to show.
        run("%s-%s-%d.jsonl" % (eng, name, i + 1), tg * s, n_max, [1.0, 1.01, 0.99][i])


# ours: tight instances everywhere, and a 6% fall from n_max=2 to 3 (180 -> 169.2):
# a violation, decided (its 95% interval lies wholly below -5%).
for n, tg in ((None, 100.0), (1, 160.0), (2, 180.0), (3, 169.2)):
    rung("ours", n, tg, TIGHT)
# An older run of ours at n_max=3 under another tag, half as fast: never pooled
# by default (it would be a 50% collapse).
run("ours-n3-old.jsonl", 90.0, 3)
# llama.cpp: the same 6% fall, but from instances scattered 10%, and not by the
# same amount in a round (the n_max=3 instances take the spread in another order),
# so the rounds' ratios scatter too: undecided. At n_max=1 it is tight and 8%
# slower than ours (160 / 148.15): a decided gap, from cheaper cycles (acceptance
# is the same); at n_max=3 the gap is not decided.
WIDE_ROUND = [1.10, 0.90, 1.00]
for n, tg, sp in ((None, 99.9, TIGHT), (1, 148.15, TIGHT), (2, 181.0, WIDE),
                  (3, 170.14, WIDE_ROUND)):
    rung("llama", n, tg, sp)
