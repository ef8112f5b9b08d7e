/* test_answer.c: analyze/answer, the one-line answer: counts by answer, the named
 * regressions, and the geometric mean of the deltas decided as one estimate, with
 * no interval when a cell has none. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analyze/answer.h"
#include "analyze/stats.h"

static void cell(struct verdict *v, double m, double se, double df)
{
	memset(v, 0, sizeof(*v));
	v->method = VERDICT_METHOD_ROUNDS;
	verdict_decide_interval(m, se, df, 0.05, 2, v);
}

static void test_answer_counts_and_geomean(void **state)
{
	struct verdict v[4];
	const struct verdict *p[4] = { &v[0], &v[1], &v[2], &v[3] };
	struct answer a;
	double m, se, q;

	(void)state;
	cell(&v[0], log(1.004), 0.003, 9);  /* no regression, parity */
	cell(&v[1], log(0.94), 0.004, 9);   /* a regression, slower */
	cell(&v[2], log(0.985), 0.02, 4);   /* undecided */
	cell(&v[3], log(1.03), 0.004, 6);   /* no regression, faster */
	answer_build(p, 4, 2, &a);
	assert_int_equal(a.n, 4);
	assert_int_equal(a.yes, 1);
	assert_int_equal(a.no, 2);
	assert_int_equal(a.undecided, 1);
	assert_int_equal(a.n_named, 1);
	assert_int_equal(a.named[0], 1);
	assert_int_equal(a.parity + a.slower + a.faster, 3);
	/* The mean log ratio, its error combined as independent, the fewest df. */
	m = (log(1.004) + log(0.94) + log(0.985) + log(1.03)) / 4;
	se = sqrt(0.003 * 0.003 + 0.004 * 0.004 + 0.02 * 0.02 + 0.004 * 0.004) / 4;
	q = stats_t_quantile(0.95, 4);
	assert_true(fabs(a.geomean.delta_pct - (exp(m) - 1) * 100) < 1e-9);
	assert_true(fabs(a.geomean.ci_lo_pct - (exp(m - q * se) - 1) * 100) < 1e-9);
	assert_true(fabs(a.geomean.ci_hi_pct - (exp(m + q * se) - 1) * 100) < 1e-9);
	/* One instance a side without a floor: its requests' interval cannot lend
	 * the mean one. */
	v[0].method = VERDICT_METHOD_REQUESTS;
	answer_build(p, 4, 2, &a);
	assert_true(isnan(a.geomean.ci_lo_pct));
	v[0].method = VERDICT_METHOD_ROUNDS;
	/* A cell without an interval leaves the mean without one. */
	cell(&v[2], log(0.985), NAN, NAN);
	answer_build(p, 4, 2, &a);
	assert_true(isfinite(a.geomean.delta_pct));
	assert_true(isnan(a.geomean.ci_lo_pct) && isnan(a.geomean.ci_hi_pct));
	answer_build(p, 0, 2, &a);
	assert_int_equal(a.n, 0);
	assert_true(isnan(a.geomean.delta_pct));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_answer_counts_and_geomean),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
