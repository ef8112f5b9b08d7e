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
	double mean, median, sd, q25, q75, q90, trim10, trim20, trim40;
};

static const struct desc_case desc_cases[] = {
	{"empty", {0}, 0, 0, NA, NA, NA, NA, NA, NA, NA, NA, NA},
	{"one", {7.5}, 1, 1, 7.5, 7.5, NA, 7.5, 7.5, 7.5, 7.5, 7.5, 7.5},
	{"two", {3, 5}, 2, 2, 4, 4, 1.4142135623730951, 3.5, 4.5, 4.8, 4, 4, 4},
	{"all equal", {4, 4, 4, 4, 4}, 5, 5, 4, 4, 0, 4, 4, 4, 4, 4, 4},
	{"ties", {1, 2, 2, 2, 3, 9}, 6, 6, 3.1666666666666665, 2, 2.9268868558020253,
		2, 2.75, 6, 3.1666666666666665, 2.25, 2},
	{"nan skipped", {10, NA, 12, 11, NA, 15}, 6, 4, 12, 11.5, 2.160246899469287,
		10.75, 12.75, 14.1, 12, 12, 11.5},
	{"all nan", {NA, NA}, 2, 0, NA, NA, NA, NA, NA, NA, NA, NA, NA},
	/* One outlier among tok/s: the median and the trimmed means shrug it off. */
	{"outlier", {101.2, 99.8, 100.5, 98.9, 100.1, 250.0, 100.7, 99.5, 100.2, 100.0}, 10, 10,
		115.09, 100.15, 47.40680799678928, 99.85, 100.65, 116.08000000000001,
		100.25, 100.21666666666667, 100.15},
};

static void test_stats_descriptive(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(desc_cases) / sizeof(desc_cases[0]); i++) {
		const struct desc_case *c = &desc_cases[i];
		const double *x = c->n ? c->x : NULL;
		double p[3] = {0.25, 0.75, 0.9}, q[3];

		print_message("case %s\n", c->name);
		assert_int_equal(stats_count(x, c->n), c->count);
		check_near(stats_mean(x, c->n), c->mean, 1e-14, "mean");
		check_near(stats_median(x, c->n), c->median, 1e-14, "median");
		check_near(stats_stddev(x, c->n), c->sd, 1e-13, "stddev");
		check_near(stats_trimmed_mean(x, c->n, 0), c->mean, 1e-14, "trim 0");
		check_near(stats_trimmed_mean(x, c->n, 0.1), c->trim10, 1e-14, "trim 0.1");
		check_near(stats_trimmed_mean(x, c->n, 0.2), c->trim20, 1e-14, "trim 0.2");
		check_near(stats_trimmed_mean(x, c->n, 0.4), c->trim40, 1e-14, "trim 0.4");
		stats_quantiles(x, c->n, p, 3, q);
		check_near(q[0], c->q25, 1e-14, "q25");
		check_near(q[1], c->q75, 1e-14, "q75");
		check_near(q[2], c->q90, 1e-14, "q90");
		check_near(stats_quantile(x, c->n, 0.75), c->q75, 1e-14, "quantile");
		check_near(stats_quantile(x, c->n, 0.5), c->median, 1e-14, "q50 = median");
	}
}

static void test_stats_bad_arguments(void **state)
{
	double x[] = {1, 2, 3};

	(void)state;
	assert_true(isnan(stats_quantile(x, 3, -0.1)));
	assert_true(isnan(stats_quantile(x, 3, 1.1)));
	assert_true(isnan(stats_quantile(x, 3, NA)));
	assert_true(isnan(stats_trimmed_mean(x, 3, 0.5)));
	assert_true(isnan(stats_trimmed_mean(x, 3, -0.1)));
	assert_true(isnan(stats_trimmed_mean(x, 3, NA)));
	/* By hand: the extremes of {1, 2, 3}. */
	check_near(stats_quantile(x, 3, 0), 1, 0, "q0");
	check_near(stats_quantile(x, 3, 1), 3, 0, "q1");
}

/* Infinity is a value, not a gap: it sorts last and poisons the mean. By hand. */
static void test_stats_infinity(void **state)
{
	double x[] = {1, INFINITY, 2};

	(void)state;
	assert_true(isinf(stats_mean(x, 3)));
	check_near(stats_median(x, 3), 2, 0, "median");
	assert_true(isinf(stats_quantile(x, 3, 1)));
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
		/* Fractional df, as Welch produces. */
		{0.5, 164.558, 164.55767348048823}, {2.5, 3.575, 3.5746548420036817},
		{7.3, 2.345, 2.345066736547703},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		double t = stats_t_crit95(rows[i].df);

		print_message("df %g\n", rows[i].df);
		check_near(t, rows[i].table, 5e-4, "table");
		check_near(t, rows[i].exact, 1e-10, "mpmath");
		check_near(stats_t_quantile(0.025, rows[i].df), -rows[i].exact, 1e-10, "lower");
		check_near(stats_t_cdf(t, rows[i].df), 0.975, 1e-12, "round trip");
	}
	/* Infinite df is the normal: 1.959963984540054 (mpmath, sqrt(2) erfinv(0.95)). */
	check_near(stats_t_crit95(1e300), 1.9599639845400538, 1e-12, "df huge");
	check_near(stats_t_crit95(1e7), 1.959964221767205, 1e-11, "df 1e7");
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

static void test_stats_distributions(void **state)
{
	static const struct {
		double t, df, cdf;
	} tc[] = {
		{0, 3, 0.5}, {1.5, 4, 0.896}, {-2.2, 7.5, 0.030599732953058033},
		{3, 1, 0.8975836176504333}, {10, 30, 0.9999999999771237},
		{-40, 2, 0.0003122073360923703}, {0.001, 9, 0.5003880348370133},
	};
	static const struct {
		double a, b, x, v;
	} ib[] = {
		{2, 3, 0.4, 0.5248}, {0.5, 0.5, 0.1, 0.20483276469913345},
		{10, 0.5, 0.9, 0.15164090963470997}, {50, 40, 0.55, 0.4547952108638694},
		{1, 1, 0.3, 0.3},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(tc) / sizeof(tc[0]); i++)
		check_near(stats_t_cdf(tc[i].t, tc[i].df), tc[i].cdf, 1e-12, "t cdf");
	for (size_t i = 0; i < sizeof(ib) / sizeof(ib[0]); i++)
		check_near(stats_incbeta(ib[i].a, ib[i].b, ib[i].x), ib[i].v, 1e-12, "incbeta");
	check_near(stats_t_cdf(INFINITY, 3), 1, 0, "t cdf +inf");
	check_near(stats_t_cdf(-INFINITY, 3), 0, 0, "t cdf -inf");
	assert_true(isnan(stats_t_cdf(NA, 3)));
	assert_true(isnan(stats_t_cdf(1, 0)));
	assert_true(isnan(stats_incbeta(0, 1, 0.5)));
	assert_true(isnan(stats_incbeta(1, 1, 1.5)));
	assert_true(isnan(stats_incbeta(1, 1, NA)));
	check_near(stats_incbeta(2, 3, 0), 0, 0, "I_0");
	check_near(stats_incbeta(2, 3, 1), 1, 0, "I_1");
	check_near(stats_normal_quantile(0.975), 1.9599639845400538, 1e-13, "z 0.975");
	check_near(stats_normal_quantile(0.001), -3.0902323061678136, 1e-13, "z 0.001");
	check_near(stats_normal_quantile(1e-10), -6.361340902404057, 1e-13, "z 1e-10");
	check_near(stats_normal_quantile(0.5), 0, 0, "z 0.5");
	assert_true(isnan(stats_normal_quantile(NA)));
	assert_true(isnan(stats_normal_quantile(-0.5)));
	assert_true(stats_normal_quantile(1) == INFINITY);
	check_near(stats_normal_cdf(1.9599639845400538), 0.975, 1e-15, "Phi");
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
	stats_mann_whitney(x, 7, y, 8, &t);
	assert_int_equal(t.n, 13);
	assert_int_equal(t.n_nan, 2);
	check_near(t.statistic, 41, 1e-12, "U");
	check_near(t.z, 2.80504633088728, 1e-12, "z");
	check_near(t.p, 0.005030934769450434, 1e-12, "p mw");

	stats_welch(x, 7, y, 8, &t);
	check_near(t.statistic, 4.055114589399461, 1e-12, "t welch");
	check_near(t.df, 9.551944880926495, 1e-12, "df welch");
	check_near(t.p, 0.00253183145744483, 1e-10, "p welch");
	stats_welch(a, 5, b, 7, &t);
	check_near(t.statistic, 5.700688435724057, 1e-12, "t welch ab");
	check_near(t.df, 9.48352901489122, 1e-12, "df welch ab");
	check_near(t.p, 0.00024184159226414616, 1e-10, "p welch ab");

	stats_student(x, 7, y, 8, &t);
	check_near(t.statistic, 4.132556772472341, 1e-12, "t student");
	check_near(t.df, 11, 0, "df student");
	check_near(t.p, 0.0016648923836835201, 1e-10, "p student");
	stats_student(a, 5, b, 7, &t);
	check_near(t.p, 0.00043042795992392923, 1e-10, "p student ab");
	stats_student(one, 1, three, 3, &t);
	check_near(t.statistic, 2.598076211353316, 1e-12, "t student 1v3");
	check_near(t.p, 0.12168993434632014, 1e-10, "p student 1v3");

	/* Too little data: n = 0, n = 1 (Welch needs two a side). */
	stats_welch(one, 1, three, 3, &t);
	assert_true(isnan(t.p));
	stats_welch(NULL, 0, three, 3, &t);
	assert_true(isnan(t.p));
	stats_student(one, 1, one, 1, &t);
	assert_true(isnan(t.p));
	stats_mann_whitney(NULL, 0, three, 3, &t);
	assert_true(isnan(t.p));
	/* Constant samples, by definition: equal means p 1, different means p 0. */
	stats_welch(c1, 3, c1, 3, &t);
	check_near(t.p, 1, 0, "welch equal");
	check_near(t.statistic, 0, 0, "welch equal t");
	stats_welch(c1, 3, c2, 2, &t);
	check_near(t.p, 0, 0, "welch differ");
	assert_true(t.statistic == -INFINITY);
	stats_student(c2, 2, c1, 3, &t);
	check_near(t.p, 0, 0, "student differ");
	/* Mann-Whitney with every value tied has no variance: p 1 (by hand). */
	stats_mann_whitney(c1, 3, c1, 3, &t);
	check_near(t.p, 1, 0, "mw all tied");
	check_near(t.statistic, 4.5, 0, "U all tied");
	/* One value each side, by hand: U = 1, var = 1/4, and the continuity
	 * correction takes z to 0. */
	stats_mann_whitney(one, 1, three, 1, &t);
	check_near(t.statistic, 1, 0, "U one each");
	check_near(t.z, 0, 0, "z one each");
	check_near(t.p, 1, 0, "p one each");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_descriptive),
		cmocka_unit_test(test_stats_bad_arguments),
		cmocka_unit_test(test_stats_infinity),
		cmocka_unit_test(test_stats_t_quantile_table),
		cmocka_unit_test(test_stats_distributions),
		cmocka_unit_test(test_stats_mean_ci),
		cmocka_unit_test(test_stats_wilcoxon_sign),
		cmocka_unit_test(test_stats_wilcoxon_normal),
		cmocka_unit_test(test_stats_two_sample),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
