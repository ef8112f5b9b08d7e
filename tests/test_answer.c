/* test_answer.c: analyze/answer, the one-line answer: counts by answer, the named
 * regressions, and the geometric mean of the deltas decided as one estimate, with
 * no interval when a cell has none; and the per-metric answers of a comparison
 * (parity_answer()) and of a gate (gate_answer()) that compare and gate word. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analyze/answer.h"
#include "analyze/gate.h"
#include "analyze/parity.h"
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

/* A spoiled cell is counted apart and is no part of the mean: the answer over a
 * decided cell and a spoiled one is the decided cell's, point and interval; over
 * spoiled cells alone there is no mean. */
static void test_answer_spoiled(void **state)
{
	struct verdict v[2];
	const struct verdict *p[2] = { &v[0], &v[1] };
	struct answer a, one;

	(void)state;
	cell(&v[0], log(0.90), 0.005, 9); /* a regression */
	cell(&v[1], log(1.10), 0.005, 9); /* would be faster, but spoiled: */
	v[1].spoiled = 1u << 0;
	v[1].regression = VERDICT_REG_SPOILED;
	v[1].kind = VERDICT_SPOILED;
	v[1].decided = 0;
	answer_build(p, 2, 3, &a);
	answer_build(p, 1, 3, &one);
	assert_int_equal(a.n, 2);
	assert_int_equal(a.yes, 1);
	assert_int_equal(a.spoiled, 1);
	assert_int_equal(a.spoiled_env, 1u);
	assert_int_equal(a.undecided + a.no, 0);
	assert_int_equal(a.faster, 0);
	assert_true(fabs(a.geomean.delta_pct - one.geomean.delta_pct) < 1e-12);
	assert_true(fabs(a.geomean.ci_lo_pct - one.geomean.ci_lo_pct) < 1e-12);
	assert_true(fabs(a.geomean.ci_hi_pct - one.geomean.ci_hi_pct) < 1e-12);
	assert_int_equal(a.geomean.regression, VERDICT_REG_YES);
	answer_build(p + 1, 1, 3, &a);
	assert_int_equal(a.spoiled, 1);
	assert_true(isnan(a.geomean.delta_pct));
	assert_int_equal(a.geomean.kind, VERDICT_UNKNOWN);
}

/* A comparison's rows, pp and tg interleaved: each metric counts its own rows in
 * order, names its regressions by the result's row index, and holds the band. */
/* A cell with no delta at all (no usable value: llama-bench csv or sql averages,
 * whose verdict keeps log_m 0) is no part of the geometric mean. */
static void test_answer_no_delta(void **state)
{
	struct verdict v[2];
	const struct verdict *p[2] = { &v[0], &v[1] };
	struct answer a;

	(void)state;
	cell(&v[0], log(1.05), 0.004, 9);
	memset(&v[1], 0, sizeof(v[1]));
	v[1].regression = VERDICT_REG_UNKNOWN;
	v[1].kind = VERDICT_UNKNOWN;
	v[1].delta_pct = v[1].ci_lo_pct = v[1].ci_hi_pct = NAN;
	answer_build(p, 2, 2, &a);
	assert_int_equal(a.n, 2);
	assert_int_equal(a.undecided, 1);
	/* +5%, not the +2.5% of averaging in a log ratio of 0. */
	assert_true(fabs(a.geomean.delta_pct - 5) < 1e-9);
	assert_true(isnan(a.geomean.ci_lo_pct));
	/* No cell with a delta: no mean, not +0.0%. */
	answer_build(p + 1, 1, 2, &a);
	assert_true(isnan(a.geomean.delta_pct));
}

static void test_answer_compare(void **state)
{
	static const char *const metric[5] = { "tg", "pp", "tg", "pp", "pp" };
	static const double m[5] = { 1.004, 0.94, 0.93, 1.03, 0.92 };
	struct parity_row rows[5];
	struct parity_result r;
	struct answer_set set;
	size_t i;

	(void)state;
	memset(rows, 0, sizeof(rows));
	memset(&r, 0, sizeof(r));
	for (i = 0; i < 5; i++) {
		rows[i].metric = metric[i];
		cell(&rows[i].v, log(m[i]), 0.004, 9);
	}
	r.rows = rows;
	r.n_rows = 5;
	parity_answer(&r, 3, &set);
	assert_int_equal(set.n, 2);
	/* pp first, whatever the rows' order. */
	assert_int_equal(set.m[0].metric, PARITY_METRIC_PP);
	assert_int_equal(set.m[0].a.n, 3);
	assert_int_equal(set.m[0].rows[0], 1);
	assert_int_equal(set.m[0].rows[1], 3);
	assert_int_equal(set.m[0].rows[2], 4);
	assert_ptr_equal(set.m[0].v[2], &rows[4].v);
	assert_int_equal(set.m[0].a.yes, 2);
	assert_int_equal(set.m[0].a.no, 1);
	assert_int_equal(set.m[0].a.n_named, 2);
	assert_int_equal(set.m[0].rows[set.m[0].a.named[0]], 1);
	assert_int_equal(set.m[0].rows[set.m[0].a.named[1]], 4);
	assert_true(set.m[0].a.geomean.band_pct == 3);
	assert_int_equal(set.m[1].metric, PARITY_METRIC_TG);
	assert_int_equal(set.m[1].a.n, 2);
	assert_int_equal(set.m[1].rows[0], 0);
	assert_int_equal(set.m[1].rows[1], 2);
	assert_int_equal(set.m[1].a.yes, 1);
	assert_int_equal(set.m[1].rows[set.m[1].a.named[0]], 2);
	answer_set_release(&set);
	assert_int_equal(set.n, 0);
	/* No rows, no answer; releasing twice is harmless. */
	r.n_rows = 0;
	parity_answer(&r, 3, &set);
	assert_int_equal(set.n, 0);
	answer_set_release(&set);
	answer_set_release(&set);
	answer_set_release(NULL);
}

/* A gate's rows: a metric without rows has no answer, and each metric is held
 * against the threshold of its last row. */
static void test_answer_gate(void **state)
{
	static const int metric[4] = { GATE_TG, GATE_ACCEPT, GATE_TG, GATE_TG };
	static const double thr[4] = { 5, 9, 6, 7 };
	static const double m[4] = { 0.94, 1.001, 1.002, 0.999 };
	struct gate_row rows[4];
	struct gate_result r;
	struct answer_set set;
	size_t i;

	(void)state;
	memset(rows, 0, sizeof(rows));
	memset(&r, 0, sizeof(r));
	for (i = 0; i < 4; i++) {
		rows[i].metric = metric[i];
		rows[i].g.threshold_pct = thr[i];
		cell(&rows[i].g.v, log(m[i]), 0.004, 9);
	}
	r.rows = rows;
	r.n_rows = 4;
	gate_answer(&r, &set);
	assert_int_equal(set.n, 2);
	assert_int_equal(set.m[0].metric, GATE_TG);
	assert_int_equal(set.m[0].a.n, 3);
	assert_int_equal(set.m[0].rows[0], 0);
	assert_int_equal(set.m[0].rows[1], 2);
	assert_int_equal(set.m[0].rows[2], 3);
	assert_ptr_equal(set.m[0].v[0], &rows[0].g.v);
	assert_int_equal(set.m[0].a.yes, 1);
	assert_int_equal(set.m[0].a.no, 2);
	assert_int_equal(set.m[0].a.n_named, 1);
	assert_int_equal(set.m[0].rows[set.m[0].a.named[0]], 0);
	assert_true(set.m[0].a.geomean.band_pct == 7);
	assert_int_equal(set.m[1].metric, GATE_ACCEPT);
	assert_int_equal(set.m[1].a.n, 1);
	assert_int_equal(set.m[1].rows[0], 1);
	assert_int_equal(set.m[1].a.yes, 0);
	assert_true(set.m[1].a.geomean.band_pct == 9);
	answer_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_answer_counts_and_geomean),
		cmocka_unit_test(test_answer_spoiled),
		cmocka_unit_test(test_answer_no_delta),
		cmocka_unit_test(test_answer_compare),
		cmocka_unit_test(test_answer_gate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
