/* test_stats.c: analyze/stats against reference values. Unless a comment says
 * otherwise, each expected value was computed by tests/data/analyze/reference.py:
 * Python's statistics module for the descriptive statistics, mpmath (40 digits)
 * for the distributions, brute-force enumeration of all sign assignments for the
 * exact tests and the textbook formulas (as R's wilcox.test) for the approximate. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyze/stats.h"

#define NA NAN

/* got within rel (relative, absolute below 1) of want; NaN matches only NaN. */
static void check_near(double got, double want, double rel, const char *what)
{
	double scale = fabs(want) > 1 ? fabs(want) : 1;

	if (isnan(want)) {
		if (!isnan(got))
			fail_msg("%s: got %.17g, want NaN", what, got);
		return;
	}
	if (isinf(want)) {
		if (got != want)
			fail_msg("%s: got %.17g, want %g", what, got, want);
		return;
	}
	if (!(fabs(got - want) <= rel * scale))
		fail_msg("%s: got %.17g, want %.17g (tolerance %g)", what, got, want, rel);
}

/* One row of the descriptive-statistics table. */
struct desc_case {
	const char *name;
	double x[10];
	size_t n;
	size_t count;
	double mean, median, sd;
};

static const struct desc_case desc_cases[] = {
	{"empty", {0}, 0, 0, NA, NA, NA},
	{"one", {7.5}, 1, 1, 7.5, 7.5, NA},
	{"two", {3, 5}, 2, 2, 4, 4, 1.4142135623730951},
	{"all equal", {4, 4, 4, 4, 4}, 5, 5, 4, 4, 0},
	{"ties", {1, 2, 2, 2, 3, 9}, 6, 6, 3.1666666666666665, 2, 2.9268868558020253},
	{"nan skipped", {10, NA, 12, 11, NA, 15}, 6, 4, 12, 11.5, 2.160246899469287},
	{"all nan", {NA, NA}, 2, 0, NA, NA, NA},
	/* One outlier among tok/s: the median shrugs it off. */
	{"outlier", {101.2, 99.8, 100.5, 98.9, 100.1, 250.0, 100.7, 99.5, 100.2, 100.0}, 10, 10,
		115.09, 100.15, 47.40680799678928},
};

static void test_stats_descriptive(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(desc_cases) / sizeof(desc_cases[0]); i++) {
		const struct desc_case *c = &desc_cases[i];
		const double *x = c->n ? c->x : NULL;

		print_message("case %s\n", c->name);
		assert_int_equal(stats_count(x, c->n), c->count);
		check_near(stats_mean(x, c->n), c->mean, 1e-14, "mean");
		check_near(stats_median(x, c->n), c->median, 1e-14, "median");
		check_near(stats_stddev(x, c->n), c->sd, 1e-13, "stddev");
	}
}

/* Infinity is a value, not a gap: it sorts last and poisons the mean. By hand. */
static void test_stats_infinity(void **state)
{
	double x[] = {1, INFINITY, 2};

	(void)state;
	assert_true(isinf(stats_mean(x, 3)));
	check_near(stats_median(x, 3), 2, 0, "median");
}

static void test_stats_t_quantile_table(void **state)
{
	/* The printed two-sided 95% table (3 decimals, any textbook) and the same
	 * values to full precision from mpmath. */
	static const struct {
		double df, table, exact;
	} rows[] = {
		{1, 12.706, 12.706204736174694}, {2, 4.303, 4.302652729749462},
		{3, 3.182, 3.1824463052837086}, {4, 2.776, 2.7764451051977934},
		{5, 2.571, 2.5705818356363146}, {6, 2.447, 2.4469118511449692},
		{7, 2.365, 2.364624251592785}, {8, 2.306, 2.3060041352041662},
		{9, 2.262, 2.262157162798205}, {10, 2.228, 2.2281388519862744},
		{15, 2.131, 2.131449545559775}, {20, 2.086, 2.0859634472658644},
		{30, 2.042, 2.0422724563012378}, {60, 2.000, 2.00029782201426},
		{120, 1.980, 1.9799304050824404}, {1000, 1.962, 1.962339080826408},
		/* Fractional df. */
		{0.5, 164.558, 164.55767348048823}, {2.5, 3.575, 3.5746548420036817},
		{7.3, 2.345, 2.345066736547703},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		double t = stats_t_quantile(0.975, rows[i].df);

		print_message("df %g\n", rows[i].df);
		check_near(t, rows[i].table, 5e-4, "table");
		check_near(t, rows[i].exact, 1e-10, "mpmath");
		check_near(stats_t_quantile(0.025, rows[i].df), -rows[i].exact, 1e-10, "lower");
	}
	/* Infinite df is the normal: 1.959963984540054 (mpmath, sqrt(2) erfinv(0.95)). */
	check_near(stats_t_quantile(0.975, 1e300), 1.9599639845400538, 1e-12, "df huge");
	check_near(stats_t_quantile(0.975, 1e7), 1.959964221767205, 1e-11, "df 1e7");
	/* Edges: by definition. */
	assert_true(isnan(stats_t_quantile(0.975, 0)));
	assert_true(isnan(stats_t_quantile(0.975, -1)));
	assert_true(isnan(stats_t_quantile(0.975, NA)));
	assert_true(isnan(stats_t_quantile(NA, 3)));
	assert_true(isnan(stats_t_quantile(1.5, 3)));
	check_near(stats_t_quantile(0.5, 3), 0, 0, "median");
	assert_true(stats_t_quantile(0, 3) == -INFINITY);
	assert_true(stats_t_quantile(1, 3) == INFINITY);
}

static void test_stats_mean_ci(void **state)
{
	double tg[] = {101.2, 99.8, 100.5, 98.9, 100.1, 250.0, 100.7, 99.5, 100.2, 100.0};
	double two[] = {3, NA, 5}, one[] = {7}, eq[] = {4, 4, 4};
	double lo, hi, m;

	(void)state;
	m = stats_mean_ci(tg, 10, 0.95, &lo, &hi);
	check_near(m, 115.09, 1e-14, "mean");
	check_near(lo, 81.17721250947146, 1e-12, "lo");
	check_near(hi, 149.00278749052856, 1e-12, "hi");
	/* n = 2 at 90%: df 1, the widest t there is. */
	m = stats_mean_ci(two, 3, 0.90, &lo, &hi);
	check_near(m, 4, 0, "mean two");
	check_near(lo, -2.3137515146750376, 1e-12, "lo two");
	check_near(hi, 10.313751514675037, 1e-12, "hi two");
	/* n = 1 and n = 0 have no interval; all-equal has a point interval (by hand). */
	m = stats_mean_ci(one, 1, 0.95, &lo, &hi);
	check_near(m, 7, 0, "mean one");
	assert_true(isnan(lo) && isnan(hi));
	m = stats_mean_ci(NULL, 0, 0.95, &lo, &hi);
	assert_true(isnan(m) && isnan(lo) && isnan(hi));
	stats_mean_ci(eq, 3, 0.95, &lo, &hi);
	check_near(lo, 4, 0, "lo equal");
	check_near(hi, 4, 0, "hi equal");
	stats_mean_ci(tg, 10, 1.0, &lo, &hi);
	assert_true(isnan(lo) && isnan(hi));
	stats_mean_ci(tg, 10, 0.95, NULL, NULL);
}

/* One Wilcoxon / sign-test row: the differences and what both tests say. */
struct paired_case {
	const char *name;
	double d[12];
	size_t n;
	size_t used, zeros, nans;
	double w, p_w;    /* W+ and its p */
	double z;         /* NaN when exact */
	double pos, p_s;  /* sign test */
};

static const struct paired_case paired_cases[] = {
	{"empty", {0}, 0, 0, 0, 0, NA, NA, NA, NA, NA},
	{"zeros and nan only", {0, NA, 0}, 3, 0, 2, 1, NA, NA, NA, NA, NA},
	{"one", {NA, 0, -3}, 3, 1, 1, 1, 0, 1, NA, 0, 1},
	{"two", {2, -1}, 2, 2, 0, 0, 2, 1, NA, 1, 1},
	/* All equal: every |d| tied at rank 4; still 2 of 2^7 assignments as extreme. */
	{"all equal", {0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25}, 7, 7, 0, 0, 28, 0.015625, NA,
		7, 0.015625},
	/* The smallest n where p < 0.05 is reachable, and the one below it (by hand:
	 * 2/2^6 and 2/2^5). */
	{"six positive", {0.5, 1, 1.5, 2, 2.5, 3}, 6, 6, 0, 0, 21, 0.03125, NA, 6, 0.03125},
	{"five positive", {0.5, 1, 1.5, 2, 2.5}, 5, 5, 0, 0, 15, 0.0625, NA, 5, 0.0625},
	/* Hollander and Wolfe's depression data, R: V = 40, p-value = 0.03906. */
	{"hollander wolfe", {1.83 - 0.878, 0.50 - 0.647, 1.62 - 0.598, 2.48 - 2.05, 1.68 - 1.06,
		1.88 - 1.29, 1.55 - 1.06, 3.06 - 3.14, 1.30 - 1.29}, 9, 9, 0, 0, 40,
		0.0390625, NA, 7, 0.1796875},
	/* Ties, a zero and a NaN together; exact over the mid-ranks. */
	{"ties", {1.5, -0.5, 2.0, 2.0, 3.1, -1.0, 0.0, 4.2, 2.0, NA, 0.5, -2.0}, 12, 10, 1, 1,
		44, 0.1015625, NA, 7, 0.34375},
};

static void test_stats_wilcoxon_sign(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(paired_cases) / sizeof(paired_cases[0]); i++) {
		const struct paired_case *c = &paired_cases[i];
		struct stats_test t;

		print_message("case %s\n", c->name);
		stats_wilcoxon(c->n ? c->d : NULL, c->n, &t);
		assert_int_equal(t.n, c->used);
		assert_int_equal(t.n_zero, c->zeros);
		assert_int_equal(t.n_nan, c->nans);
		check_near(t.statistic, c->w, 1e-12, "W+");
		check_near(t.p, c->p_w, 1e-12, "p wilcoxon");
		check_near(t.z, c->z, 1e-12, "z");
		assert_int_equal(t.exact, c->used > 0);
		stats_sign_test(c->n ? c->d : NULL, c->n, &t);
		assert_int_equal(t.n, c->used);
		check_near(t.statistic, c->pos, 0, "positives");
		check_near(t.p, c->p_s, 1e-12, "p sign");
	}
}

static void test_stats_wilcoxon_normal(void **state)
{
	double d[33], big[60];
	struct stats_test t;

	(void)state;
	/* d_i = (7 i mod 11) - 3 for i = 0..32: 3 zeros, many ties. */
	for (int i = 0; i < 33; i++)
		d[i] = (double)((i * 7) % 11) - 3;
	stats_wilcoxon(d, 33, &t);
	assert_int_equal(t.n, 30);
	assert_int_equal(t.n_zero, 3);
	assert_int_equal(t.exact, 0);
	check_near(t.statistic, 379.5, 1e-12, "W+");
	check_near(t.z, 3.0229487542450038, 1e-12, "z");
	check_near(t.p, 0.002503246295769368, 1e-12, "p");
	stats_sign_test(d, 33, &t);
	check_near(t.statistic, 21, 0, "positives");
	check_near(t.p, 0.04277394525706768, 1e-12, "p sign");
	/* 40 up, 20 down: binomial tail by math.comb. */
	for (int i = 0; i < 60; i++)
		big[i] = i < 40 ? 1 : -1;
	stats_sign_test(big, 60, &t);
	check_near(t.p, 0.01348929373119186, 1e-12, "p sign 60");
}

static void test_stats_two_sample(void **state)
{
	double x[] = {12.1, 11.8, 12.5, 12.5, NA, 13.0, 11.9};
	double y[] = {11.0, 11.8, 11.5, 10.9, 11.2, 11.8, NA, 11.4};
	double a[] = {100.0, 101.0, 99.5, 100.5, 100.2};
	double b[] = {97.0, 98.5, 96.0, 99.0, 97.4, 98.2, 96.9};
	double one[] = {5}, three[] = {1, 2, 3}, c1[] = {4, 4, 4}, c2[] = {6, 6};
	struct stats_test t;

	(void)state;
	stats_student(x, 7, y, 8, &t);
	check_near(t.statistic, 4.132556772472341, 1e-12, "t student");
	check_near(t.df, 11, 0, "df student");
	check_near(t.p, 0.0016648923836835201, 1e-10, "p student");
	stats_student(a, 5, b, 7, &t);
	check_near(t.p, 0.00043042795992392923, 1e-10, "p student ab");
	stats_student(one, 1, three, 3, &t);
	check_near(t.statistic, 2.598076211353316, 1e-12, "t student 1v3");
	check_near(t.p, 0.12168993434632014, 1e-10, "p student 1v3");

	/* Too little data: df 0, or an empty side. */
	stats_student(one, 1, one, 1, &t);
	assert_true(isnan(t.p));
	stats_student(NULL, 0, three, 3, &t);
	assert_true(isnan(t.p));
	/* Constant samples, by definition: equal means p 1, different means p 0. */
	stats_student(c1, 3, c1, 3, &t);
	check_near(t.p, 1, 0, "student equal");
	check_near(t.statistic, 0, 0, "student equal t");
	stats_student(c2, 2, c1, 3, &t);
	check_near(t.p, 0, 0, "student differ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_descriptive),
		cmocka_unit_test(test_stats_infinity),
		cmocka_unit_test(test_stats_t_quantile_table),
		cmocka_unit_test(test_stats_mean_ci),
		cmocka_unit_test(test_stats_wilcoxon_sign),
		cmocka_unit_test(test_stats_wilcoxon_normal),
		cmocka_unit_test(test_stats_two_sample),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
