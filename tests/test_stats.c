/* test_stats.c: analyze/stats against reference values. Unless a comment says
 * otherwise (by hand, by definition, a printed table), each expected value is read
 * from what tests/data/analyze/reference.py prints when ctest runs it (ref(), see
 * tests/reference.h): Python's statistics module for the descriptive statistics,
 * mpmath (40 digits) for the distributions, and the textbook formulas for the
 * two-sample tests. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyze/stats.h"
#include "tests/reference.h"

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

/* One row of the descriptive-statistics table: ref names its values in
 * reference.py ("desc.<ref>.mean" ...); without one they are NaN by definition. */
struct desc_case {
	const char *name;
	double x[10];
	size_t n;
	size_t count;
	const char *ref;
};

static const struct desc_case desc_cases[] = {
	{"empty", {0}, 0, 0, NULL},
	{"all nan", {NA, NA}, 2, 0, NULL},
	{"one", {7.5}, 1, 1, "one"},
	{"two", {3, 5}, 2, 2, "two"},
	{"all equal", {4, 4, 4, 4, 4}, 5, 5, "equal"},
	{"ties", {1, 2, 2, 2, 3, 9}, 6, 6, "ties"},
	{"nan skipped", {10, NA, 12, 11, NA, 15}, 6, 4, "nan"},
	/* One outlier among tok/s: the median shrugs it off. */
	{"outlier", {101.2, 99.8, 100.5, 98.9, 100.1, 250.0, 100.7, 99.5, 100.2, 100.0}, 10, 10,
		"tg"},
};

static void test_stats_descriptive(void **state)
{
	(void)state;
	/* The by-definition rows first, so they run even where the reference cannot. */
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1)
			ref_require();
		for (size_t i = 0; i < sizeof(desc_cases) / sizeof(desc_cases[0]); i++) {
			const struct desc_case *c = &desc_cases[i];
			const double *x = c->n ? c->x : NULL;

			if ((c->ref != NULL) != pass)
				continue;
			print_message("case %s\n", c->name);
			assert_int_equal(stats_count(x, c->n), c->count);
			check_near(stats_mean(x, c->n), c->ref ? ref("desc.%s.mean", c->ref) : NA,
				   1e-14, "mean");
			check_near(stats_median(x, c->n), c->ref ? ref("desc.%s.median", c->ref) : NA,
				   1e-14, "median");
			check_near(stats_stddev(x, c->n), c->ref ? ref("desc.%s.sd", c->ref) : NA,
				   1e-13, "stddev");
		}
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
	/* The printed two-sided 95% table (3 decimals, any textbook); the same values
	 * to full precision come from mpmath ("tq975.<df>"). */
	static const struct {
		double df, table;
	} rows[] = {
		{1, 12.706}, {2, 4.303}, {3, 3.182}, {4, 2.776}, {5, 2.571}, {6, 2.447},
		{7, 2.365}, {8, 2.306}, {9, 2.262}, {10, 2.228}, {15, 2.131}, {20, 2.086},
		{30, 2.042}, {60, 2.000}, {120, 1.980}, {1000, 1.962},
		/* Fractional df. */
		{0.5, 164.558}, {2.5, 3.575}, {7.3, 2.345},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		check_near(stats_t_quantile(0.975, rows[i].df), rows[i].table, 5e-4, "table");
	ref_require();
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		double t = stats_t_quantile(0.975, rows[i].df), exact = ref("tq975.%g", rows[i].df);

		print_message("df %g\n", rows[i].df);
		check_near(t, exact, 1e-10, "mpmath");
		check_near(stats_t_quantile(0.025, rows[i].df), -exact, 1e-10, "lower");
	}
	/* Infinite df is the normal, sqrt(2) erfinv(0.95). */
	check_near(stats_t_quantile(0.975, 1e300), ref("zq975"), 1e-12, "df huge");
	check_near(stats_t_quantile(0.975, 1e7), ref("tq975.%g", 1e7), 1e-11, "df 1e7");
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

	ref_require();
	m = stats_mean_ci(tg, 10, 0.95, &lo, &hi);
	check_near(m, ref("ci.tg.mean"), 1e-14, "mean");
	check_near(lo, ref("ci.tg.lo"), 1e-12, "lo");
	check_near(hi, ref("ci.tg.hi"), 1e-12, "hi");
	/* n = 2 at 90%: df 1, the widest t there is. */
	m = stats_mean_ci(two, 3, 0.90, &lo, &hi);
	check_near(m, 4, 0, "mean two");
	check_near(lo, ref("ci90.two.lo"), 1e-12, "lo two");
	check_near(hi, ref("ci90.two.hi"), 1e-12, "hi two");
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

	ref_require();
	stats_student(x, 7, y, 8, &t);
	check_near(t.statistic, ref("student.xy.t"), 1e-12, "t student");
	check_near(t.df, ref("student.xy.df"), 0, "df student");
	check_near(t.p, ref("student.xy.p"), 1e-10, "p student");
	stats_student(a, 5, b, 7, &t);
	check_near(t.p, ref("student.ab.p"), 1e-10, "p student ab");
	stats_student(one, 1, three, 3, &t);
	check_near(t.statistic, ref("student.1v3.t"), 1e-12, "t student 1v3");
	check_near(t.p, ref("student.1v3.p"), 1e-10, "p student 1v3");
}

/* Welch's difference, its standard error and the Welch-Satterthwaite df. */
static void test_stats_welch(void **state)
{
	double x[] = {12.1, 11.8, 12.5, 12.5, NA, 13.0, 11.9};
	double y[] = {11.0, 11.8, 11.5, 10.9, 11.2, 11.8, NA, 11.4};
	double a[] = {100.0, 101.0, 99.5, 100.5, 100.2};
	double b[] = {97.0, 98.5, 96.0, 99.0, 97.4, 98.2, 96.9};
	double one[] = {5}, c1[] = {4, 4, 4}, se, df, m;

	(void)state;
	/* By definition: a side of one has no se; two constant sides have df inf. */
	m = stats_welch(one, 1, a, 5, &se, &df);
	check_near(m, 5 - 100.24, 1e-12, "diff one");
	assert_true(isnan(se) && isnan(df));
	stats_welch(c1, 3, c1, 3, &se, &df);
	check_near(se, 0, 0, "se constant");
	assert_true(isinf(df));

	ref_require();
	m = stats_welch(x, 7, y, 8, &se, &df);
	check_near(m, ref("welch.xy.diff"), 1e-12, "diff xy");
	check_near(se, ref("welch.xy.se"), 1e-12, "se xy");
	check_near(df, ref("welch.xy.df"), 1e-10, "df xy");
	m = stats_welch(a, 5, b, 7, &se, &df);
	check_near(m, ref("welch.ab.diff"), 1e-12, "diff ab");
	check_near(se, ref("welch.ab.se"), 1e-12, "se ab");
	check_near(df, ref("welch.ab.df"), 1e-10, "df ab");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_descriptive),
		cmocka_unit_test(test_stats_infinity),
		cmocka_unit_test(test_stats_t_quantile_table),
		cmocka_unit_test(test_stats_mean_ci),
		cmocka_unit_test(test_stats_two_sample),
		cmocka_unit_test(test_stats_welch),
	};

	return ref_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
