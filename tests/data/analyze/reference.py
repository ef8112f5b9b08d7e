#!/usr/bin/env python3
"""Reference values for tests/test_stats.c and tests/test_changepoint.c, derived independently of the C code.

Descriptive statistics come from Python's statistics module, distributions from
mpmath (40-digit incomplete beta and erf), the two-sample tests from their
textbook formulas.

ctest runs it as the fixture `reference_values` (tests/data/analyze/reference.sh),
and the C tests read what it prints: one value a line, "<key> <value>", the key
without spaces, the value as Python's repr of a float ("nan" for none).
Run: python3 reference.py
"""
import math
import statistics as st

import mpmath as mp

mp.mp.dps = 40
NAN = float("nan")


def clean(x):
    return [v for v in x if not math.isnan(v)]


def t_cdf(t, df):
    t, df = mp.mpf(t), mp.mpf(df)
    tail = mp.betainc(df / 2, mp.mpf(1) / 2, 0, df / (df + t * t), regularized=True) / 2
    return 1 - tail if t > 0 else tail


def t_quantile(p, df):
    return mp.findroot(lambda t: t_cdf(t, df) - mp.mpf(p), 2 if p > 0.5 else -2)


def welch(x, y):
    """stats_welch(): the difference of the means, its standard error and df."""
    x, y = clean(x), clean(y)
    a, b = st.variance(x) / len(x), st.variance(y) / len(y)
    df = (a + b) ** 2 / (a * a / (len(x) - 1) + b * b / (len(y) - 1))
    return st.mean(x) - st.mean(y), math.sqrt(a + b), df


def student(x, y):
    x, y = clean(x), clean(y)
    n1, n2 = len(x), len(y)
    var = lambda v: st.variance(v) if len(v) > 1 else 0.0
    sp = ((n1 - 1) * var(x) + (n2 - 1) * var(y)) / (n1 + n2 - 2)
    t = (st.mean(x) - st.mean(y)) / math.sqrt(sp * (1 / n1 + 1 / n2))
    return t, n1 + n2 - 2, float(2 * (1 - t_cdf(abs(t), n1 + n2 - 2)))


def changepoint_step():
    """The deterministic step series of test_changepoint.c and the pooled t test
    between its two halves (the change point's reported statistics)."""
    wiggle = [0.5, -0.3, 0.2, -0.4, 0.1, 0.3, -0.2, -0.1, 0.4, -0.5]
    x = [100 + wiggle[i % 10] - (5 if i >= 20 else 0) for i in range(40)]
    a, b = x[:20], x[20:]
    p = student(a, b)[2]
    return st.mean(a), st.mean(b), st.stdev(a), st.stdev(b), (st.mean(b) / st.mean(a) - 1) * 100, p


def put(key, value):
    assert " " not in key, key
    print(key, "nan" if value is None else repr(float(value)))


def main():
    desc = {
        "one": [7.5],
        "two": [3.0, 5.0],
        "equal": [4.0] * 5,
        "ties": [1.0, 2.0, 2.0, 2.0, 3.0, 9.0],
        "nan": [10.0, NAN, 12.0, 11.0, NAN, 15.0],
        "tg": [101.2, 99.8, 100.5, 98.9, 100.1, 250.0, 100.7, 99.5, 100.2, 100.0],
    }
    for k, x in desc.items():
        c = clean(x)
        put(f"desc.{k}.mean", st.mean(c))
        put(f"desc.{k}.median", st.median(c))
        put(f"desc.{k}.sd", st.stdev(c) if len(c) > 1 else None)
    for df in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 30, 60, 120, 1000, 0.5, 2.5, 7.3, 1e7):
        put(f"tq975.{df:g}", t_quantile(0.975, df))
    put("tq95.4", t_quantile(0.95, 4))
    put("zq975", mp.sqrt(2) * mp.erfinv(mp.mpf("0.95")))
    tg = clean(desc["tg"])
    m, s, n = st.mean(tg), st.stdev(tg), len(tg)
    h = t_quantile(0.975, n - 1) * s / math.sqrt(n)
    put("ci.tg.mean", m)
    put("ci.tg.lo", m - h)
    put("ci.tg.hi", m + h)
    h = t_quantile(0.95, 1) * st.stdev([3.0, 5.0]) / math.sqrt(2)
    put("ci90.two.lo", 4.0 - h)
    put("ci90.two.hi", 4.0 + h)

    x = [12.1, 11.8, 12.5, 12.5, NAN, 13.0, 11.9]
    y = [11.0, 11.8, 11.5, 10.9, 11.2, 11.8, NAN, 11.4]
    a = [100.0, 101.0, 99.5, 100.5, 100.2]
    b = [97.0, 98.5, 96.0, 99.0, 97.4, 98.2, 96.9]
    for k, (u, v) in (("xy", (x, y)), ("ab", (a, b)), ("1v3", ([5.0], [1.0, 2.0, 3.0]))):
        t, df, p = student(u, v)
        put(f"student.{k}.t", t)
        put(f"student.{k}.df", df)
        put(f"student.{k}.p", p)
    for k, (u, v) in (("xy", (x, y)), ("ab", (a, b))):
        diff, se, df = welch(u, v)
        put(f"welch.{k}.diff", diff)
        put(f"welch.{k}.se", se)
        put(f"welch.{k}.df", df)

    for name, val in zip(("mean_before", "mean_after", "sd_before", "sd_after", "change", "p"),
                         changepoint_step()):
        put(f"changepoint.step.{name}", val)


if __name__ == "__main__":
    main()
