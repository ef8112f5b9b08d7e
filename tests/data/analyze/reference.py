#!/usr/bin/env python3
"""Reference values for tests/test_stats.c and tests/test_verdict.c.

Independent of the C code: descriptive statistics from Python's statistics module,
distributions from mpmath (arbitrary precision incomplete beta and erf), exact
Wilcoxon and sign-test p-values by brute-force enumeration of all 2^n sign
assignments, and the normal-approximation tests by their textbook formulas (as R's
wilcox.test(exact=FALSE, correct=TRUE)). Run: python3 reference.py
"""
import itertools
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


def midranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    ties = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + 1 + j + 1) / 2
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    return r, ties


def wilcoxon(d):
    d = [v for v in clean(d) if v != 0]
    n = len(d)
    if n == 0:
        return None
    r, ties = midranks([abs(v) for v in d])
    w = sum(ri for ri, v in zip(r, d) if v > 0)
    if n <= 25:
        lo = hi = 0
        for signs in itertools.product((0, 1), repeat=n):
            s = sum(ri for ri, b in zip(r, signs) if b)
            lo += s <= w + 1e-9
            hi += s >= w - 1e-9
        return w, min(1.0, 2 * min(lo, hi) / 2 ** n), None
    mu = n * (n + 1) / 4
    var = n * (n + 1) * (2 * n + 1) / 24 - ties / 48
    z = (w - mu - 0.5 * math.copysign(1, w - mu)) / math.sqrt(var)
    return w, float(mp.erfc(abs(z) / mp.sqrt(2))), z


def sign_test(d):
    d = [v for v in clean(d) if v != 0]
    n, k = len(d), sum(v > 0 for v in d)
    m = min(k, n - k)
    return k, min(1.0, 2 * sum(math.comb(n, i) for i in range(m + 1)) / 2 ** n)


def mann_whitney(x, y):
    x, y = clean(x), clean(y)
    n1, n2 = len(x), len(y)
    r, ties = midranks(x + y)
    u = sum(r[:n1]) - n1 * (n1 + 1) / 2
    big = n1 + n2
    var = n1 * n2 / 12 * ((big + 1) - ties / (big * (big - 1)))
    z = (u - n1 * n2 / 2 - 0.5 * math.copysign(1, u - n1 * n2 / 2)) / math.sqrt(var)
    return u, z, float(mp.erfc(abs(z) / mp.sqrt(2)))


def welch(x, y):
    x, y = clean(x), clean(y)
    a, b = st.variance(x) / len(x), st.variance(y) / len(y)
    t = (st.mean(x) - st.mean(y)) / math.sqrt(a + b)
    df = (a + b) ** 2 / (a * a / (len(x) - 1) + b * b / (len(y) - 1))
    return t, df, float(2 * (1 - t_cdf(abs(t), df)))


def student(x, y):
    x, y = clean(x), clean(y)
    n1, n2 = len(x), len(y)
    var = lambda v: st.variance(v) if len(v) > 1 else 0.0
    sp = ((n1 - 1) * var(x) + (n2 - 1) * var(y)) / (n1 + n2 - 2)
    t = (st.mean(x) - st.mean(y)) / math.sqrt(sp * (1 / n1 + 1 / n2))
    return t, n1 + n2 - 2, float(2 * (1 - t_cdf(abs(t), n1 + n2 - 2)))


def trim_mean(x, trim):
    """scipy.stats.trim_mean: cut int(trim * n) values from each end."""
    c = sorted(clean(x))
    k = int(trim * len(c))
    return st.mean(c[k:len(c) - k])


def show(name, *vals):
    print(name, " ".join(repr(float(v)) if v is not None else "None" for v in vals))


if __name__ == "__main__":
    # descriptive: (x, mean, median, stdev, q25, q75)
    cases = {
        "one": [7.5],
        "two": [3.0, 5.0],
        "equal": [4.0] * 5,
        "ties": [1.0, 2.0, 2.0, 2.0, 3.0, 9.0],
        "nan": [10.0, NAN, 12.0, 11.0, NAN, 15.0],
        "tg": [101.2, 99.8, 100.5, 98.9, 100.1, 250.0, 100.7, 99.5, 100.2, 100.0],
    }
    for k, x in cases.items():
        c = clean(x)
        q = st.quantiles(c, n=4, method="inclusive") if len(c) > 1 else [c[0]] * 3
        sd = st.stdev(c) if len(c) > 1 else None
        show("desc " + k, st.mean(c), st.median(c), sd, q[0], q[2])
        print("   q(0.9)", float(st.quantiles(c, n=10, method="inclusive")[8]) if len(c) > 1 else c[0],
              "trim0.1", trim_mean(c, 0.1), "trim0.2", trim_mean(c, 0.2), "trim0.4", trim_mean(c, 0.4))
    for df in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 30, 60, 120, 1000, 0.5, 2.5, 7.3):
        show(f"tq975 df={df}", t_quantile(0.975, df))
    for t, df in ((0, 3), (1.5, 4), (-2.2, 7.5), (3, 1), (10, 30), (-40, 2), (0.001, 9)):
        show(f"tcdf t={t} df={df}", t_cdf(t, df))
    for a, b, x in ((2, 3, 0.4), (0.5, 0.5, 0.1), (10, 0.5, 0.9), (50, 40, 0.55), (1, 1, 0.3)):
        show(f"incbeta {a} {b} {x}", mp.betainc(a, b, 0, x, regularized=True))
    for p in (0.975, 0.5, 0.001, 1e-10):
        show(f"zq {p}", mp.sqrt(2) * mp.erfinv(2 * mp.mpf(p) - 1))
    tg = clean(cases["tg"])
    m, s, n = st.mean(tg), st.stdev(tg), len(tg)
    h = t_quantile(0.975, n - 1) * s / math.sqrt(n)
    show("ci tg", m, m - h, m + h)
    h = t_quantile(0.95, 1) * st.stdev([3.0, 5.0]) / math.sqrt(2)
    show("ci90 two", 4.0 - h, 4.0 + h)
    wil = {
        "six_pos": [0.5, 1.0, 1.5, 2.0, 2.5, 3.0],
        "five_pos": [0.5, 1.0, 1.5, 2.0, 2.5],
        "mixed": [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30],
        "ties": [1.5, -0.5, 2.0, 2.0, 3.1, -1.0, 0.0, 4.2, 2.0, NAN, 0.5, -2.0],
        "one": [NAN, 0.0, -3.0],
        "two": [2.0, -1.0],
        "equal": [0.25] * 7,
        "large": [((i * 7) % 11) - 3.0 for i in range(33)],
    }
    # "mixed" is Hollander & Wolfe's depression data (x - y differences), p = 0.039.
    wil["mixed"] = [x - y for x, y in zip(
        [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30],
        [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29])]
    for k, d in wil.items():
        show("wilcoxon " + k, *wilcoxon(d))
        show("sign " + k, *sign_test(d))
    show("sign big", *sign_test([1.0] * 40 + [-1.0] * 20))
    x = [12.1, 11.8, 12.5, 12.5, NAN, 13.0, 11.9]
    y = [11.0, 11.8, 11.5, 10.9, 11.2, 11.8, NAN, 11.4]
    show("mw", *mann_whitney(x, y))
    show("welch", *welch(x, y))
    show("student", *student(x, y))
    a = [100.0, 101.0, 99.5, 100.5, 100.2]
    b = [97.0, 98.5, 96.0, 99.0, 97.4, 98.2, 96.9]
    show("welch ab", *welch(a, b))
    show("student ab", *student(a, b))
    show("student 1v3", *student([5.0], [1.0, 2.0, 3.0]))


def verdict(ours, vs):
    """The numbers verdict_paired() reports, by their definitions in verdict.h."""
    pairs = [(o, v) for o, v in zip(ours, vs)
             if math.isfinite(o) and math.isfinite(v) and o > 0 and v > 0]
    r = [o / v for o, v in pairs]
    lr = [math.log(o) - math.log(v) for o, v in pairs]
    out = [(st.median(r) - 1) * 100, st.mean([(x - 1) * 100 for x in r])]
    if len(lr) > 1:
        h = t_quantile(0.975, len(lr) - 1) * st.stdev(lr) / math.sqrt(len(lr))
        out += [math.expm1(st.mean(lr) - h) * 100, math.expm1(st.mean(lr) + h) * 100]
    else:
        out += [None, None]
    w = wilcoxon(lr)
    out += [w[1] if w else None, sign_test(lr)[1] if w else None]
    return out


VERDICT_CASES = {
    "faster": ([110, 111, 109.5, 112, 110.5, 108.9, 111.3, 110.2],
               [100, 100.5, 99.8, 101, 100.2, 99.5, 100.9, 100.1]),
    "parity": ([100.2, 99.9, 100.4, 100.1, 99.7, 100.3, 100.0, 99.8, 100.6, 100.1],
               [100.0, 100.1, 100.0, 99.8, 100.0, 100.1, 100.2, 100.0, 100.3, 99.9]),
    "noisy": ([103, 97, 102, 99, 104, 96, 101, 98, 103, 97],
              [100, 100, 100, 100, 100, 100, 100, 100, 100, 100]),
    "outlier": ([100.5, 100.4, 100.6, 100.5, 100.3, 100.7, 100.5, 180.0, 100.4],
                [100, 100, 100, 100, 100, 100, 100, 100, 100]),
    "slower": ([96.9, 97.1, 97.0, 96.8, 97.2, 97.0, 96.9, 97.1],
               [100, 100, 100, 100, 100, 100, 100, 100]),
    "skips": ([50, NAN, 0, 52, -1, 51, float("inf")], [49, 50, 50, NAN, 50, 50, 50]),
}

if __name__ == "__main__":
    for k, (o, v) in VERDICT_CASES.items():
        show("verdict " + k, *verdict(o, v))


def changepoint_step():
    """The deterministic step series of test_changepoint.c and the pooled t test
    between its two halves (the change point's reported statistics)."""
    wiggle = [0.5, -0.3, 0.2, -0.4, 0.1, 0.3, -0.2, -0.1, 0.4, -0.5]
    x = [100 + wiggle[i % 10] - (5 if i >= 20 else 0) for i in range(40)]
    a, b = x[:20], x[20:]
    t, df, p = student(a, b)
    return st.mean(a), st.mean(b), st.stdev(a), st.stdev(b), (st.mean(b) / st.mean(a) - 1) * 100, p


if __name__ == "__main__":
    show("changepoint step", *changepoint_step())
