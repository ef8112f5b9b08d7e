/* test_changepoint.c: analyze/changepoint on synthetic histories. Noise comes from
 * a fixed-seed LCG and Box-Muller, so every run sees the same series. The exact
 * statistics of the deterministic step are read from what changepoint_step() in
 * tests/data/analyze/reference.py (Python's statistics module and mpmath) prints
 * when ctest runs it (tests/reference.h); the rest are by hand (noise-free steps)
 * or are positions fixed by construction. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyze/changepoint.h"
#include "tests/reference.h"

#define NA NAN

static void check_near(double got, double want, double tol, const char *what)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("%s: got %.17g, want %.17g (tolerance %g)", what, got, want, tol);
}

/* PCG's LCG step and the top 53 bits: uniform in (0, 1). */
static double uniform(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(uint64_t *s)
{
	double u = uniform(s), v = uniform(s);
	return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* n values of mean 100 and standard deviation sd (percent of the mean, then). */
static void noise(double *x, size_t n, double sd, uint64_t seed)
{
	for (size_t i = 0; i < n; i++)
		x[i] = 100 + sd * gauss(&seed);
}

/* Runs the detector and returns the count; cps stay in *out for the caller. */
static size_t detect(const double *x, size_t n, const struct changepoint_params *p,
		struct changepoint **out)
{
	size_t count = 99;

	assert_int_equal(changepoint_detect(x, n, p, out, &count), 0);
	if (count == 0)
		assert_null(*out);
	return count;
}

static void test_changepoint_too_short(void **state)
{
	double x[5] = {100, 90, 80, 70, 60}, nan[4] = {NA, NA, NA, NA};
	struct changepoint *cp;

	(void)state;
	/* n = 0, 1, 2 and five values: no side can hold three values and leave three. */
	assert_int_equal(detect(NULL, 0, NULL, &cp), 0);
	assert_int_equal(detect(x, 1, NULL, &cp), 0);
	assert_int_equal(detect(x, 2, NULL, &cp), 0);
	assert_int_equal(detect(x, 5, NULL, &cp), 0);
	assert_int_equal(detect(nan, 4, NULL, &cp), 0);
}

static void test_changepoint_all_equal(void **state)
{
	double x[40];
	struct changepoint_params p;
	struct changepoint *cp;

	(void)state;
	changepoint_params_init(&p);
	p.min_magnitude_pct = 0;
	p.pvalue = 1;
	for (size_t i = 0; i < 40; i++)
		x[i] = 123.25;
	/* Even with every threshold open, a constant series has p = 1 everywhere. */
	assert_int_equal(detect(x, 40, &p, &cp), 0);
}

static void test_changepoint_noise_only(void **state)
{
	double x[60];
	struct changepoint_params p;
	struct changepoint *cp;

	(void)state;
	/* 1% noise, 50 seeds: the defaults report nothing on any of them. */
	for (uint64_t seed = 1; seed <= 50; seed++) {
		noise(x, 60, 1.0, seed);
		if (detect(x, 60, NULL, &cp) != 0)
			fail_msg("seed %llu: a change point in pure noise at %zu",
					(unsigned long long)seed, cp[0].index);
	}
	/* And on one of them with the magnitude filter off: the t test alone. */
	changepoint_params_init(&p);
	p.min_magnitude_pct = 0;
	noise(x, 60, 1.0, 7);
	assert_int_equal(detect(x, 60, &p, &cp), 0);
}

static void test_changepoint_spike(void **state)
{
	double x[60];
	struct changepoint_params p;
	struct changepoint *cp;

	(void)state;
	changepoint_params_init(&p);
	p.min_magnitude_pct = 0;
	for (uint64_t seed = 1; seed <= 10; seed++) {
		noise(x, 60, 1.0, seed);
		x[20] = 300; /* one request that tripled */
		assert_int_equal(detect(x, 60, NULL, &cp), 0);
		assert_int_equal(detect(x, 60, &p, &cp), 0);
		x[20] = 30; /* and one that collapsed */
		assert_int_equal(detect(x, 60, NULL, &cp), 0);
	}
}

static void test_changepoint_step_reference(void **state)
{
	static const double wiggle[10] = {0.5, -0.3, 0.2, -0.4, 0.1, 0.3, -0.2, -0.1, 0.4, -0.5};
	double x[40];
	struct changepoint *cp;

	(void)state;
	ref_require();
	for (size_t i = 0; i < 40; i++)
		x[i] = 100 + wiggle[i % 10] - (i >= 20 ? 5 : 0);
	assert_int_equal(detect(x, 40, NULL, &cp), 1);
	assert_int_equal(cp[0].index, 20);
	assert_int_equal(cp[0].n_before, 20);
	assert_int_equal(cp[0].n_after, 20);
	check_near(cp[0].mean_before, ref("changepoint.step.mean_before"), 1e-12, "mean before");
	check_near(cp[0].mean_after, ref("changepoint.step.mean_after"), 1e-12, "mean after");
	check_near(cp[0].stddev_before, ref("changepoint.step.sd_before"), 1e-12, "sd before");
	check_near(cp[0].stddev_after, ref("changepoint.step.sd_after"), 1e-12, "sd after");
	check_near(cp[0].change_pct, ref("changepoint.step.change"), 1e-10, "change");
	check_near(cp[0].pvalue / ref("changepoint.step.p"), 1, 1e-6, "p (relative)");
	changepoint_free(cp);
}

static void test_changepoint_one_step(void **state)
{
	double x[60];
	struct changepoint *cp;

	(void)state;
	for (uint64_t seed = 1; seed <= 10; seed++) {
		noise(x, 60, 1.0, seed);
		for (size_t i = 30; i < 60; i++)
			x[i] -= 10;
		if (detect(x, 60, NULL, &cp) != 1 || cp[0].index != 30)
			fail_msg("seed %llu: the -10%% step at 30 was not found alone",
					(unsigned long long)seed);
		check_near(cp[0].mean_before, 100, 0.6, "before");
		check_near(cp[0].mean_after, 90, 0.6, "after");
		check_near(cp[0].change_pct, -10, 1, "change");
		assert_true(cp[0].pvalue < 1e-20);
		changepoint_free(cp);
	}
}

static void test_changepoint_two_steps(void **state)
{
	double x[75];
	struct changepoint *cp;

	(void)state;
	/* Down 10% at 25, then up past the start at 50: the hard case for a split
	 * that tests one side against everything after it. */
	for (uint64_t seed = 1; seed <= 10; seed++) {
		noise(x, 75, 1.0, seed);
		for (size_t i = 25; i < 75; i++)
			x[i] += i < 50 ? -10 : 5;
		if (detect(x, 75, NULL, &cp) != 2 || cp[0].index != 25 || cp[1].index != 50)
			fail_msg("seed %llu: the steps at 25 and 50 were not both found",
					(unsigned long long)seed);
		/* Adjacent segments: the first change's after is the second's before. */
		check_near(cp[0].mean_after, cp[1].mean_before, 0, "shared segment");
		assert_true(cp[0].change_pct < -8 && cp[1].change_pct > 13);
		changepoint_free(cp);
	}
}

static void test_changepoint_exact_step_and_nan(void **state)
{
	/* No noise: 100 x 10, then 90 x 10, with NaN at input indexes 4 and 12. By
	 * hand: the split is between the tenth and eleventh real values, which is
	 * input index 11; the sides are constant, so p = 0. */
	double x[22];
	struct changepoint *cp;
	size_t k = 0;

	(void)state;
	for (size_t i = 0; i < 22; i++)
		x[i] = i == 4 || i == 12 ? NA : k++ < 10 ? 100 : 90;
	x[21] = INFINITY; /* skipped like NaN */
	assert_int_equal(detect(x, 22, NULL, &cp), 1);
	assert_int_equal(cp[0].index, 11);
	check_near(cp[0].mean_before, 100, 0, "before");
	check_near(cp[0].mean_after, 90, 0, "after");
	check_near(cp[0].change_pct, -10, 1e-12, "change");
	check_near(cp[0].pvalue, 0, 0, "p");
	check_near(cp[0].stddev_before, 0, 0, "sd");
	assert_int_equal(cp[0].n_before, 10);
	assert_int_equal(cp[0].n_after, 9);
	changepoint_free(cp);
}

static void test_changepoint_params(void **state)
{
	double x[40], tiny[12] = {100, 100, 90, 90, 90, 90, 90, 90, 90, 90, 90, 90};
	struct changepoint_params p;
	struct changepoint *cp = (struct changepoint *)&p;
	size_t count = 5;

	(void)state;
	changepoint_params_init(&p);
	check_near(p.pvalue, 0.001, 0, "default p");
	check_near(p.min_magnitude_pct, 2, 0, "default magnitude");
	assert_int_equal(p.min_segment, 3);
	/* A clean 1% step: the t test is sure of it, the 2% magnitude floor is not. */
	for (size_t i = 0; i < 40; i++)
		x[i] = (i % 2 ? 100.02 : 99.98) - (i >= 20 ? 1 : 0);
	assert_int_equal(detect(x, 40, &p, &cp), 0);
	p.min_magnitude_pct = 0.5;
	assert_int_equal(detect(x, 40, &p, &cp), 1);
	assert_int_equal(cp[0].index, 20);
	changepoint_free(cp);
	/* min_segment: a change after two values needs min_segment 2 to be placed.
	 * With 3 the nearest legal split puts a 90 among the 100s, and its pooled t
	 * test (t = 3.87, df 10, p = 0.003) fails the 0.001 threshold. */
	changepoint_params_init(&p);
	assert_int_equal(detect(tiny, 12, &p, &cp), 0);
	p.min_segment = 2;
	assert_int_equal(detect(tiny, 12, &p, &cp), 1);
	assert_int_equal(cp[0].index, 2);
	changepoint_free(cp);
	/* Out of range: -1, *out NULL, *count 0. */
	changepoint_params_init(&p);
	p.min_segment = 1;
	assert_int_equal(changepoint_detect(x, 40, &p, &cp, &count), -1);
	assert_null(cp);
	assert_int_equal(count, 0);
	changepoint_params_init(&p);
	p.pvalue = 0;
	assert_int_equal(changepoint_detect(x, 40, &p, &cp, &count), -1);
	p.pvalue = NA;
	assert_int_equal(changepoint_detect(x, 40, &p, &cp, &count), -1);
	changepoint_params_init(&p);
	p.min_magnitude_pct = -1;
	assert_int_equal(changepoint_detect(x, 40, &p, &cp, &count), -1);
	changepoint_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_changepoint_too_short),
		cmocka_unit_test(test_changepoint_all_equal),
		cmocka_unit_test(test_changepoint_noise_only),
		cmocka_unit_test(test_changepoint_spike),
		cmocka_unit_test(test_changepoint_step_reference),
		cmocka_unit_test(test_changepoint_one_step),
		cmocka_unit_test(test_changepoint_two_steps),
		cmocka_unit_test(test_changepoint_exact_step_and_nan),
		cmocka_unit_test(test_changepoint_params),
	};

	return ref_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
