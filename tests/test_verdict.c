/* test_verdict.c: analyze/verdict, the parity verdict and the gate. The numbers
 * of the rows with a reference name (median delta, mean delta, the t interval on
 * log ratios, the exact Wilcoxon and sign p-values) are read from what verdict()
 * in tests/data/analyze/reference.py prints when ctest runs it (tests/reference.h):
 * Python's statistics module, mpmath's t quantile and the exact signed-rank
 * distribution. Decisions (kind, significant, bound) follow from those numbers by
 * the rules in verdict.h. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyze/stats.h"
#include "analyze/verdict.h"
#include "tests/reference.h"

#define NA NAN

static void check_near(double got, double want, double tol, const char *what)
{
	if (isnan(want)) {
		if (!isnan(got))
			fail_msg("%s: got %.17g, want NaN", what, got);
		return;
	}
	if (!(fabs(got - want) <= tol))
		fail_msg("%s: got %.17g, want %.17g (tolerance %g)", what, got, want, tol);
}

struct verdict_case {
	const char *name;
	double ours[10], vs[10];
	size_t n;
	double band, noise, k;
	/* expected */
	enum verdict_kind kind;
	int significant;
	enum verdict_bound bound;
	double band_eff;
	const char *ref; /* "verdict.<ref>.*" of reference.py, or NULL: the numbers below */
	double delta, mean_delta, lo, hi, p_w, p_s;
	size_t used, skipped;
};

/* The six numbers of a row whose values are read from reference.py. */
#define REF 0, 0, 0, 0, 0, 0

static const struct verdict_case cases[] = {
	/* About +10% on every pair: faster, p = 2/2^8, CI well above the band. */
	{"faster", {110, 111, 109.5, 112, 110.5, 108.9, 111.3, 110.2},
		{100, 100.5, 99.8, 101, 100.2, 99.5, 100.9, 100.1}, 8, 2, 0, 2,
		VERDICT_FASTER, 1, VERDICT_BOUND_BAND, 2, "faster", REF, 8, 0},
	/* Within 0.3% everywhere: parity, and the CI sits inside the band. */
	{"parity", {100.2, 99.9, 100.4, 100.1, 99.7, 100.3, 100.0, 99.8, 100.6, 100.1},
		{100.0, 100.1, 100.0, 99.8, 100.0, 100.1, 100.2, 100.0, 100.3, 99.9}, 10, 2, 0, 2,
		VERDICT_PARITY, 1, VERDICT_BOUND_BAND, 2, "parity", REF, 10, 0},
	/* +-3% scatter around 0: parity by the median, but the CI crosses the band. */
	{"noisy parity", {103, 97, 102, 99, 104, 96, 101, 98, 103, 97},
		{100, 100, 100, 100, 100, 100, 100, 100, 100, 100}, 10, 2, 0, 2,
		VERDICT_PARITY, 0, VERDICT_BOUND_BAND, 2, "noisy", REF, 10, 0},
	/* One pair at +80%: the median stays at +0.5% (parity) while the mean jumps
	 * to +9.3%; every pair is positive, so p is small, yet parity is the verdict
	 * and the wide CI keeps it from being significant. */
	{"one outlier", {100.5, 100.4, 100.6, 100.5, 100.3, 100.7, 100.5, 180.0, 100.4},
		{100, 100, 100, 100, 100, 100, 100, 100, 100}, 9, 2, 0, 2,
		VERDICT_PARITY, 0, VERDICT_BOUND_BAND, 2, "outlier", REF, 9, 0},
	/* -3%: slower against the 2% band ... */
	{"slower", {96.9, 97.1, 97.0, 96.8, 97.2, 97.0, 96.9, 97.1},
		{100, 100, 100, 100, 100, 100, 100, 100}, 8, 2, 0, 2,
		VERDICT_SLOWER, 1, VERDICT_BOUND_BAND, 2, "slower", REF, 8, 0},
	/* ... but parity once the A/A noise (2%, k = 2) widens the bound to 4%. */
	{"slower inside noise", {96.9, 97.1, 97.0, 96.8, 97.2, 97.0, 96.9, 97.1},
		{100, 100, 100, 100, 100, 100, 100, 100}, 8, 2, 2, 2,
		VERDICT_PARITY, 1, VERDICT_BOUND_NOISE, 4, "slower", REF, 8, 0},
	/* A noise floor below the band changes nothing: 0.5% x 2 < 2%. */
	{"small noise", {96.9, 97.1, 97.0, 96.8, 97.2, 97.0, 96.9, 97.1},
		{100, 100, 100, 100, 100, 100, 100, 100}, 8, 2, 0.5, 2,
		VERDICT_SLOWER, 1, VERDICT_BOUND_BAND, 2, "slower", REF, 8, 0},
	/* NaN, zero, negative and infinite values drop their pairs: 2 of 7 remain. */
	{"skips", {50, NA, 0, 52, -1, 51, INFINITY}, {49, 50, 50, NA, 50, 50, 50}, 7, 2, 0, 2,
		VERDICT_FASTER, 0, VERDICT_BOUND_BAND, 2, "skips", REF, 2, 5},
	/* By hand from here on. No pairs: unknown, everything NaN. */
	{"empty", {0}, {0}, 0, 2, 0, 2, VERDICT_UNKNOWN, 0, VERDICT_BOUND_BAND, 2, NULL,
		NA, NA, NA, NA, NA, NA, 0, 0},
	/* One pair: a verdict from the point estimate, no CI, no test. */
	{"one pair", {110}, {100}, 1, 2, 0, 2, VERDICT_FASTER, 0, VERDICT_BOUND_BAND, 2, NULL,
		10.000000000000009, 10.000000000000009, NA, NA, 1, 1, 1, 0},
	/* Two pairs at exactly +5%: the CI degenerates to the point, p is 2/4. */
	{"two pairs", {105, 210}, {100, 200}, 2, 2, 0, 2, VERDICT_FASTER, 0,
		VERDICT_BOUND_BAND, 2, NULL, 5.0000000000000044, 5.0000000000000044,
		5.0000000000000044, 5.0000000000000044, 0.5, 0.5, 2, 0},
	/* Identical engines: every log ratio is zero, so the tests have nothing to rank
	 * (p NaN), but the CI [0, 0] is inside the band: significant parity. */
	{"all equal", {100, 100, 100, 100, 100, 100}, {100, 100, 100, 100, 100, 100}, 6, 2, 0, 2,
		VERDICT_PARITY, 1, VERDICT_BOUND_BAND, 2, NULL, 0, 0, 0, 0, NA, NA, 6, 0},
	/* Exactly +2% is parity in a 2% band (the rounding slack). */
	{"on the band", {102, 102}, {100, 100}, 2, 2, 0, 2, VERDICT_PARITY, 0,
		VERDICT_BOUND_BAND, 2, NULL, 2.0000000000000018, 2.0000000000000018,
		2.0000000000000018, 2.0000000000000018, 0.5, 0.5, 2, 0},
	/* Five identical +10% pairs: p = 2/2^5 = 0.0625 can never pass, hence the
	 * minimum of six pairs; the sixth pair makes it 2/2^6 = 0.03125. */
	{"five pairs", {110, 110, 110, 110, 110}, {100, 100, 100, 100, 100}, 5, 2, 0, 2,
		VERDICT_FASTER, 0, VERDICT_BOUND_BAND, 2, NULL, 10.000000000000009, 10.000000000000009,
		10.000000000000009, 10.000000000000009, 0.0625, 0.0625, 5, 0},
	{"six pairs", {110, 110, 110, 110, 110, 110}, {100, 100, 100, 100, 100, 100}, 6, 2, 0, 2,
		VERDICT_FASTER, 1, VERDICT_BOUND_BAND, 2, NULL, 10.000000000000009, 10.000000000000009,
		10.000000000000009, 10.000000000000009, 0.03125, 0.03125, 6, 0},
};

static void test_verdict_paired_table(void **state)
{
	(void)state;
	/* The by-hand rows first, so they run even where the reference cannot. */
	for (size_t j = 0; j < 2 * sizeof(cases) / sizeof(cases[0]); j++) {
		size_t i = j % (sizeof(cases) / sizeof(cases[0]));
		const struct verdict_case *c = &cases[i];
		struct verdict_params p = {c->band, c->noise, c->k};
		struct verdict v;
		const char *r = c->ref;

		if ((r != NULL) != (j >= sizeof(cases) / sizeof(cases[0])))
			continue;
		if (r)
			ref_require();
		print_message("case %s\n", c->name);
		assert_int_equal(verdict_paired(c->n ? c->ours : NULL, c->n ? c->vs : NULL, c->n,
				&p, &v), 0);
		assert_string_equal(verdict_kind_name(v.kind), verdict_kind_name(c->kind));
		assert_int_equal(v.significant, c->significant);
		assert_string_equal(verdict_bound_name(v.bound), verdict_bound_name(c->bound));
		assert_int_equal(v.n_pairs, c->used);
		assert_int_equal(v.n_skipped, c->skipped);
		check_near(v.band_pct, c->band_eff, 1e-12, "band");
		check_near(v.delta_pct, r ? ref("verdict.%s.delta", r) : c->delta, 1e-9, "delta");
		check_near(v.mean_delta_pct, r ? ref("verdict.%s.mean_delta", r) : c->mean_delta,
			   1e-9, "mean delta");
		check_near(v.ci_lo_pct, r ? ref("verdict.%s.lo", r) : c->lo, 1e-9, "ci lo");
		check_near(v.ci_hi_pct, r ? ref("verdict.%s.hi", r) : c->hi, 1e-9, "ci hi");
		check_near(v.p_wilcoxon, r ? ref("verdict.%s.p_w", r) : c->p_w, 1e-12, "p wilcoxon");
		check_near(v.p_sign, r ? ref("verdict.%s.p_s", r) : c->p_s, 1e-12, "p sign");
	}
}

/* NULL parameters are the documented defaults: band 2, no noise, k 2. */
static void test_verdict_defaults(void **state)
{
	double ours[] = {96.9, 97.1, 97.0, 96.8, 97.2, 97.0, 96.9, 97.1};
	double vs[] = {100, 100, 100, 100, 100, 100, 100, 100};
	struct verdict_params p;
	struct verdict v;

	(void)state;
	verdict_params_init(&p);
	check_near(p.band_pct, 2, 0, "band");
	check_near(p.noise_pct, 0, 0, "noise");
	check_near(p.noise_k, 2, 0, "k");
	assert_int_equal(verdict_paired(ours, vs, 8, NULL, &v), 0);
	assert_int_equal(v.kind, VERDICT_SLOWER);
	assert_int_equal(v.significant, 1);
	assert_string_equal(verdict_kind_name(VERDICT_UNKNOWN), "unknown");
	assert_string_equal(verdict_kind_name(VERDICT_PARITY), "parity");
	assert_string_equal(verdict_kind_name(VERDICT_FASTER), "faster");
	assert_string_equal(verdict_kind_name(VERDICT_SLOWER), "slower");
	assert_string_equal(verdict_bound_name(VERDICT_BOUND_BAND), "band");
	assert_string_equal(verdict_bound_name(VERDICT_BOUND_NOISE), "noise");
}

/* Swapping the engines mirrors the verdict: faster becomes slower with the same
 * p-values and a negated log-scale interval (by the definitions). */
static void test_verdict_mirror(void **state)
{
	const struct verdict_case *c = &cases[0];
	struct verdict a, b;

	(void)state;
	assert_int_equal(verdict_paired(c->ours, c->vs, c->n, NULL, &a), 0);
	assert_int_equal(verdict_paired(c->vs, c->ours, c->n, NULL, &b), 0);
	assert_int_equal(a.kind, VERDICT_FASTER);
	assert_int_equal(b.kind, VERDICT_SLOWER);
	assert_int_equal(b.significant, 1);
	check_near(b.p_wilcoxon, a.p_wilcoxon, 0, "p");
	check_near(log1p(b.ci_lo_pct / 100), -log1p(a.ci_hi_pct / 100), 1e-12, "lo");
	check_near(log1p(b.ci_hi_pct / 100), -log1p(a.ci_lo_pct / 100), 1e-12, "hi");
}

static void test_verdict_bad_params(void **state)
{
	double a[] = {1, 2}, b[] = {1, 2};
	struct verdict_params bad[] = {{-1, 0, 2}, {NA, 0, 2}, {2, -1, 2}, {2, NA, 2}, {2, 1, -2},
		{2, 1, NA}};
	struct verdict_gate_params gbad[] = {{-3, 0, 2}, {NA, 0, 2}, {3, -1, 2}, {3, 1, NA}};
	struct verdict v;
	struct verdict_gate_result g;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(verdict_paired(a, b, 2, &bad[i], &v), -1);
	for (size_t i = 0; i < sizeof(gbad) / sizeof(gbad[0]); i++)
		assert_int_equal(verdict_gate(a, 2, b, 2, &gbad[i], &g), -1);
}

struct gate_case {
	const char *name;
	double cand[6], base[6];
	size_t nc, nb;
	double max_regress, noise, k;
	enum verdict_gate_outcome outcome;
	enum verdict_bound bound;
	double threshold, delta;
};

/* By hand: delta = (mean(candidate) / mean(baseline) - 1) * 100. */
static const struct gate_case gate_cases[] = {
	{"small regression passes", {97.5, 97.5}, {100, 100}, 2, 2, 3, 0, 2,
		VERDICT_GATE_PASS, VERDICT_BOUND_BAND, 3, -2.5},
	{"large regression fails", {96, 97}, {100, 100}, 2, 2, 3, 0, 2,
		VERDICT_GATE_FAIL, VERDICT_BOUND_BAND, 3, -3.5},
	{"exactly the threshold passes", {97}, {100}, 1, 1, 3, 0, 2,
		VERDICT_GATE_PASS, VERDICT_BOUND_BAND, 3, -3},
	{"noise widens the threshold", {96, 97}, {100, 100}, 2, 2, 3, 2, 2,
		VERDICT_GATE_PASS, VERDICT_BOUND_NOISE, 4, -3.5},
	{"noise below threshold", {96, 97}, {100, 100}, 2, 2, 3, 1, 2,
		VERDICT_GATE_FAIL, VERDICT_BOUND_BAND, 3, -3.5},
	{"faster passes", {120, NA, 130}, {100, 100}, 3, 2, 3, 0, 2,
		VERDICT_GATE_PASS, VERDICT_BOUND_BAND, 3, 25},
	{"all equal", {100, 100, 100}, {100, 100, 100}, 3, 3, 3, 0, 2,
		VERDICT_GATE_PASS, VERDICT_BOUND_BAND, 3, 0},
	{"no candidate", {0}, {100}, 0, 1, 3, 0, 2, VERDICT_GATE_NODATA, VERDICT_BOUND_BAND, 3, NA},
	{"nan candidate", {NA, NA}, {100}, 2, 1, 3, 0, 2,
		VERDICT_GATE_NODATA, VERDICT_BOUND_BAND, 3, NA},
	{"no baseline", {100}, {0}, 1, 0, 3, 0, 2, VERDICT_GATE_NODATA, VERDICT_BOUND_BAND, 3, NA},
	{"zero baseline", {100}, {0}, 1, 1, 3, 0, 2, VERDICT_GATE_NODATA, VERDICT_BOUND_BAND, 3, NA},
};

static void test_verdict_gate_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(gate_cases) / sizeof(gate_cases[0]); i++) {
		const struct gate_case *c = &gate_cases[i];
		struct verdict_gate_params p = {c->max_regress, c->noise, c->k};
		struct verdict_gate_result g;

		print_message("case %s\n", c->name);
		assert_int_equal(verdict_gate(c->nc ? c->cand : NULL, c->nc, c->nb ? c->base : NULL,
				c->nb, &p, &g), 0);
		assert_string_equal(verdict_gate_outcome_name(g.outcome),
				verdict_gate_outcome_name(c->outcome));
		assert_string_equal(verdict_bound_name(g.bound), verdict_bound_name(c->bound));
		check_near(g.threshold_pct, c->threshold, 1e-12, "threshold");
		check_near(g.delta_pct, c->delta, 1e-9, "delta");
	}
}

static void test_verdict_gate_defaults(void **state)
{
	double cand[] = {96, 97}, base[] = {100, 100};
	struct verdict_gate_params p;
	struct verdict_gate_result g;

	(void)state;
	verdict_gate_params_init(&p);
	check_near(p.max_regress_pct, 3, 0, "max regress");
	check_near(p.noise_k, 2, 0, "k");
	assert_int_equal(verdict_gate(cand, 2, base, 2, NULL, &g), 0);
	assert_int_equal(g.outcome, VERDICT_GATE_FAIL);
	assert_int_equal(g.n_candidate, 2);
	assert_int_equal(g.n_baseline, 2);
	check_near(g.candidate_mean, 96.5, 0, "candidate mean");
	check_near(g.baseline_mean, 100, 0, "baseline mean");
	assert_string_equal(verdict_gate_outcome_name(VERDICT_GATE_PASS), "pass");
	assert_string_equal(verdict_gate_outcome_name(VERDICT_GATE_FAIL), "fail");
	assert_string_equal(verdict_gate_outcome_name(VERDICT_GATE_NODATA), "no-data");
}


/* A subnormal rate overflows the ratio: no usable pair, unknown, never faster. */
static void test_verdict_nonfinite_unknown(void **state)
{
	double ours[] = { 200.0 }, vs[] = { 5e-324 };
	double ours2[] = { 5e-324 }, vs2[] = { 200.0 };
	struct verdict v;

	(void)state;
	assert_int_equal(verdict_paired(ours, vs, 1, NULL, &v), 0);
	assert_int_equal(v.kind, VERDICT_UNKNOWN);
	assert_int_equal(v.significant, 0);
	assert_int_equal(v.n_pairs, 0);
	assert_int_equal(v.n_skipped, 1);
	assert_int_equal(verdict_paired(ours2, vs2, 1, NULL, &v), 0);
	assert_int_equal(v.kind, VERDICT_UNKNOWN);
}

/* Round log ratios of +0.5 -0.4 +0.3 -0.2 +2.6%: mean 0.56%, sd 1.197% (in log
 * space a little less); t(0.95, 4) = 2.132 puts the 90% interval at about
 * [-0.58, +1.70]: inside 2%, parity decided; inside 1% it is not, undecided. */
static void test_verdict_rounds_parity_tost(void **state)
{
	double pc[] = { 0.5, -0.4, 0.3, -0.2, 2.6 }, d[5], m = 0, ss = 0, se, t95, t90;
	struct verdict_params p;
	struct verdict v;

	(void)state;
	for (int i = 0; i < 5; i++) {
		d[i] = log1p(pc[i] / 100);
		m += d[i] / 5;
	}
	for (int i = 0; i < 5; i++)
		ss += (d[i] - m) * (d[i] - m);
	se = sqrt(ss / 4 / 5);
	ref_require();
	t95 = ref("tq975.4");
	t90 = ref("tq95.4");
	verdict_params_init(&p);
	p.noise_pct = 5; /* a stored floor does not widen the pooled band */
	assert_int_equal(verdict_rounds(d, 5, NULL, 0, NULL, 0, &p, &v), 0);
	assert_int_equal(v.method, VERDICT_METHOD_ROUNDS);
	assert_int_equal(v.rounds, 5);
	check_near(v.delta_pct, (exp(m) - 1) * 100, 1e-9, "delta");
	check_near(v.ci_lo_pct, (exp(m - t95 * se) - 1) * 100, 1e-6, "lo");
	check_near(v.ci_hi_pct, (exp(m + t95 * se) - 1) * 100, 1e-6, "hi");
	check_near(v.mde_pct, (v.ci_hi_pct - v.ci_lo_pct) / 2, 1e-12, "mde");
	check_near(v.band_pct, 2, 0, "band");
	/* The 95% interval pokes out of the band; the 90% one (TOST) does not. */
	assert_true(v.ci_hi_pct > 2);
	assert_true((exp(m + t90 * se) - 1) * 100 < 2);
	assert_int_equal(v.kind, VERDICT_PARITY);
	assert_int_equal(v.decided, 1);
	assert_int_equal(v.significant, 1);
	check_near(v.rounds_more, 0, 0, "nothing more");

	p.band_pct = 1;
	assert_int_equal(verdict_rounds(d, 5, NULL, 0, NULL, 0, &p, &v), 0);
	assert_int_equal(v.kind, VERDICT_UNDECIDED);
	assert_int_equal(v.lean, VERDICT_PARITY);
	assert_int_equal(v.decided, 0);
	assert_true(v.rounds_more >= 1);
}

/* -5.0 -4.2 -4.6%: the whole 95% interval lies below -2%: slower, decided. +1.5
 * -1.0 +2.5% settles nothing in a 2% band: undecided, leaning parity. */
static void test_verdict_rounds_slower_undecided(void **state)
{
	double slow[] = { log1p(-0.050), log1p(-0.042), log1p(-0.046) };
	double open[] = { log1p(0.015), log1p(-0.010), log1p(0.025) };
	struct verdict v;

	(void)state;
	assert_int_equal(verdict_rounds(slow, 3, NULL, 0, NULL, 0, NULL, &v), 0);
	assert_int_equal(v.kind, VERDICT_SLOWER);
	assert_int_equal(v.decided, 1);
	assert_true(v.ci_hi_pct < -2);
	assert_int_equal(verdict_rounds(open, 3, NULL, 0, NULL, 0, NULL, &v), 0);
	assert_int_equal(v.kind, VERDICT_UNDECIDED);
	assert_int_equal(v.decided, 0);
	assert_int_equal(v.significant, 0);
	assert_true(v.ci_lo_pct < -2 && v.ci_hi_pct > 2);
	assert_true(v.rounds_more >= 1 && isfinite(v.rounds_more));
}

/* One round: not enough to pool (1); unpaired runs, two per side: Welch on the
 * log run values. */
static void test_verdict_rounds_welch_and_fallback(void **state)
{
	double one[] = { 0.01 }, a[] = { log(100), log(102) }, b[] = { log(110), log(112) };
	double se, df, m;
	struct verdict v = { 0 };

	(void)state;
	assert_int_equal(verdict_rounds(one, 1, a, 1, b, 1, NULL, &v), 1);
	assert_int_equal(verdict_rounds(NULL, 0, a, 2, b, 2, NULL, &v), 0);
	assert_int_equal(v.method, VERDICT_METHOD_WELCH);
	assert_int_equal(v.rounds, 0);
	assert_int_equal(v.instances_ours, 2);
	m = stats_welch(a, 2, b, 2, &se, &df);
	check_near(v.delta_pct, (exp(m) - 1) * 100, 1e-9, "welch delta");
	assert_int_equal(v.kind, VERDICT_SLOWER);
	assert_int_equal(verdict_rounds(one, 1, a, 1, b, 1, NULL, &v), 1);
	{
		struct verdict_params p;
		verdict_params_init(&p);
		p.band_pct = -1;
		assert_int_equal(verdict_rounds(one, 1, a, 2, b, 2, &p, &v), -1);
	}
}

/* The pooled gate: -5.0 -4.8 -5.2% fails a 3% threshold significantly; -6 -2 -4%
 * is past it by the estimate only: inconclusive, with rounds to go; -1 -2 -1.5%
 * passes. */
static void test_verdict_gate_rounds(void **state)
{
	double base[3] = { 0, 0, 0 }, fail[3], incon[3], ok[3];
	double f[] = { -5.0, -4.8, -5.2 }, in[] = { -6.0, -2.0, -4.0 }, o[] = { -1, -2, -1.5 };
	size_t pairs[] = { 0, 0, 1, 1, 2, 2 };
	struct verdict_gate_result g;

	(void)state;
	for (int i = 0; i < 3; i++) {
		fail[i] = log1p(f[i] / 100);
		incon[i] = log1p(in[i] / 100);
		ok[i] = log1p(o[i] / 100);
	}
	assert_int_equal(verdict_gate_rounds(fail, 3, base, 3, pairs, 3, NULL, &g), 0);
	assert_int_equal(g.outcome, VERDICT_GATE_FAIL);
	assert_int_equal(g.decided, 1);
	assert_int_equal(g.rounds, 3);
	assert_true(g.ci_hi_pct < -3);
	assert_int_equal(verdict_gate_rounds(incon, 3, base, 3, pairs, 3, NULL, &g), 0);
	assert_int_equal(g.outcome, VERDICT_GATE_INCONCLUSIVE);
	assert_int_equal(g.decided, 0);
	assert_true(g.delta_pct < -3 && g.ci_hi_pct > -3);
	assert_true(g.rounds_more >= 1);
	assert_string_equal(verdict_gate_outcome_name(g.outcome), "inconclusive");
	assert_int_equal(verdict_gate_rounds(ok, 3, base, 3, pairs, 3, NULL, &g), 0);
	assert_int_equal(g.outcome, VERDICT_GATE_PASS);
	assert_int_equal(verdict_gate_rounds(ok, 1, base, 1, pairs, 1, NULL, &g), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdict_paired_table),
		cmocka_unit_test(test_verdict_defaults),
		cmocka_unit_test(test_verdict_mirror),
		cmocka_unit_test(test_verdict_bad_params),
		cmocka_unit_test(test_verdict_gate_table),
		cmocka_unit_test(test_verdict_gate_defaults),
		cmocka_unit_test(test_verdict_nonfinite_unknown),
		cmocka_unit_test(test_verdict_rounds_parity_tost),
		cmocka_unit_test(test_verdict_rounds_slower_undecided),
		cmocka_unit_test(test_verdict_rounds_welch_and_fallback),
		cmocka_unit_test(test_verdict_gate_rounds),
	};

	return ref_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
