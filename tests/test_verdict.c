/* test_verdict.c: analyze/verdict, an interval in words: the regression answer
 * (one-sided, at the interval's level) and the two-sided description against the
 * band, decided from one interval, and the gate's outcome read off the first.
 * Expected bounds are computed here from the t quantile, which test_stats checks
 * against mpmath. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analyze/stats.h"
#include "analyze/verdict.h"

struct interval_case {
	const char *name;
	double m, se, df, band;
	enum verdict_regression regression;
	enum verdict_kind kind;
};

static void test_verdict_interval_table(void **state)
{
	static const struct interval_case cases[] = {
		/* -4% with a tight interval: a regression, and slower. */
		{ "slower", -0.040821994520255166, 0.005, 9, 2, VERDICT_REG_YES, VERDICT_SLOWER },
		/* +3.24% [+1.84, +4.67]-like: no regression, though not decided faster
		 * against a 2% band: the one-sided question is answered. */
		{ "faster-ish", 0.031887, 0.007, 13, 2, VERDICT_REG_NO, VERDICT_UNDECIDED },
		/* An A/A pair: no regression, parity. */
		{ "aa", 0, 0.005, 9, 2, VERDICT_REG_NO, VERDICT_PARITY },
		/* -2% with a wide interval: holds the edge. */
		{ "edge-wide", -0.020202707317519466, 0.01, 5, 2, VERDICT_REG_UNDECIDED,
		  VERDICT_UNDECIDED },
		/* Exactly the band, no spread: a slowdown of the band is no regression. */
		{ "edge-exact", -0.020202707317519466, 0, 5, 2, VERDICT_REG_NO, VERDICT_PARITY },
		/* No interval: nothing decided either way. */
		{ "no-se", -0.5, NAN, 3, 2, VERDICT_REG_UNDECIDED, VERDICT_UNDECIDED },
		{ "no-m", NAN, 0.01, 3, 2, VERDICT_REG_UNKNOWN, VERDICT_UNKNOWN },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct interval_case *c = &cases[i];
		struct verdict v;
		double q = stats_t_quantile(0.95, c->df);

		memset(&v, 0, sizeof(v));
		verdict_decide_interval(c->m, c->se, c->df, 0.05, c->band, &v);
		if (v.regression != c->regression || v.kind != c->kind)
			fail_msg("%s: regression %d kind %d, want %d %d", c->name, v.regression,
				 v.kind, c->regression, c->kind);
		assert_true(fabs(v.ci_level - 0.90) < 1e-12);
		if (isfinite(c->m) && isfinite(c->se)) {
			assert_true(fabs(v.ci_lo_pct - (exp(c->m - q * c->se) - 1) * 100) < 1e-9);
			assert_true(fabs(v.ci_hi_pct - (exp(c->m + q * c->se) - 1) * 100) < 1e-9);
			assert_true(fabs(v.mde_pct - (v.ci_hi_pct - v.ci_lo_pct) / 2) < 1e-12);
			assert_true(fabs(v.delta_pct - (exp(c->m) - 1) * 100) < 1e-9);
		} else {
			assert_true(isnan(v.ci_lo_pct) && isnan(v.ci_hi_pct));
		}
		/* No answer contradicts its own interval. */
		if (v.regression == VERDICT_REG_YES)
			assert_true(v.ci_hi_pct < -c->band);
		if (v.regression == VERDICT_REG_NO)
			assert_true(v.ci_lo_pct >= -c->band - 1e-9);
		assert_int_equal(v.decided, v.kind == VERDICT_FASTER || v.kind == VERDICT_SLOWER ||
				 v.kind == VERDICT_PARITY);
	}
}

/* A smaller alpha (a sequential design's per-look level) widens the interval,
 * and an answer at 5% may be undecided at 0.5%. */
static void test_verdict_interval_level(void **state)
{
	struct verdict a, b;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	verdict_decide_interval(-0.035, 0.006, 4, 0.05, 2, &a);
	verdict_decide_interval(-0.035, 0.006, 4, 0.005, 2, &b);
	assert_true(b.mde_pct > a.mde_pct);
	assert_true(fabs(b.ci_level - 0.99) < 1e-12);
	assert_int_equal(a.regression, VERDICT_REG_YES);
	assert_int_equal(b.regression, VERDICT_REG_UNDECIDED);
}

/* The gate's outcome is the regression answer: fail iff yes, pass iff no,
 * spoiled iff an environment finding spoiled it (then it is not asked). */
/* The level a title may claim: the one every interval shares, none when they
 * differ (a per-look level beside a fixed batch's 90%). */
static void test_verdict_common_level(void **state)
{
	struct verdict a = { 0 }, b = { 0 };
	const struct verdict *v[2] = { &a, &b };

	(void)state;
	a.ci_level = b.ci_level = 0.975;
	assert_true(verdict_common_level(v, 2) == 0.975);
	assert_true(verdict_common_level(v, 0) == 0.9);
	b.ci_level = 0.9;
	assert_true(isnan(verdict_common_level(v, 2)));
	assert_true(verdict_common_level(v, 1) == 0.975);
}

static void test_verdict_gate_outcome(void **state)
{
	struct verdict v;

	(void)state;
	memset(&v, 0, sizeof(v));
	v.regression = VERDICT_REG_YES;
	assert_int_equal(verdict_gate_outcome_of(&v), VERDICT_GATE_FAIL);
	v.regression = VERDICT_REG_NO;
	assert_int_equal(verdict_gate_outcome_of(&v), VERDICT_GATE_PASS);
	v.regression = VERDICT_REG_UNDECIDED;
	assert_int_equal(verdict_gate_outcome_of(&v), VERDICT_GATE_INCONCLUSIVE);
	v.regression = VERDICT_REG_SPOILED;
	assert_int_equal(verdict_gate_outcome_of(&v), VERDICT_GATE_SPOILED);
	v.regression = VERDICT_REG_UNKNOWN;
	assert_int_equal(verdict_gate_outcome_of(&v), VERDICT_GATE_NODATA);
	assert_string_equal(verdict_regression_name(VERDICT_REG_YES), "yes");
	assert_string_equal(verdict_regression_name(VERDICT_REG_NO), "no");
	assert_string_equal(verdict_regression_name(VERDICT_REG_UNDECIDED), "undecided");
	assert_string_equal(verdict_regression_name(VERDICT_REG_SPOILED), "spoiled");
	assert_null(verdict_regression_name(VERDICT_REG_UNKNOWN));
	assert_string_equal(verdict_kind_name(VERDICT_SPOILED), "spoiled");
	assert_string_equal(verdict_kind_name(VERDICT_UNDECIDED), "undecided");
	assert_string_equal(verdict_kind_name(VERDICT_UNKNOWN), "unknown");
	assert_string_equal(verdict_gate_outcome_name(VERDICT_GATE_SPOILED), "spoiled");
	assert_string_equal(verdict_gate_outcome_name(VERDICT_GATE_INCONCLUSIVE), "inconclusive");
	assert_string_equal(verdict_gate_outcome_name(VERDICT_GATE_FAIL), "fail");
	assert_string_equal(verdict_gate_outcome_name(VERDICT_GATE_PASS), "pass");
	assert_string_equal(verdict_gate_outcome_name(VERDICT_GATE_NODATA), "no-data");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdict_interval_table),
		cmocka_unit_test(test_verdict_interval_level),
		cmocka_unit_test(test_verdict_common_level),
		cmocka_unit_test(test_verdict_gate_outcome),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
