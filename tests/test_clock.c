/* test_clock.c: the timings-disagree rule (analyze/clock.h): medians of each
 * side, pairs with a missing side left out, the share's edge both ways. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "analyze/clock.h"

static void test_clock_share(void **state)
{
	static const struct {
		double server, client; /* every sample's */
		int disagree;
	} cases[] = {
		{ 100, 100, 0 },
		{ 100 * (1 + CLOCK_DISAGREE_SHARE) - 0.01, 100, 0 },
		{ 100 * (1 + CLOCK_DISAGREE_SHARE) + 0.01, 100, 1 },
		{ 100 * (1 - CLOCK_DISAGREE_SHARE) + 0.01, 100, 0 },
		{ 100 * (1 - CLOCK_DISAGREE_SHARE) - 0.01, 100, 1 },
		{ 200, 100, 1 }, /* an engine that times twice as fast as its tokens come */
	};
	double s[3], c[3];
	struct clock_check cc;
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (k = 0; k < 3; k++) {
			s[k] = cases[i].server;
			c[k] = cases[i].client;
		}
		clock_check(s, c, 3, &cc);
		assert_int_equal(cc.n, 3);
		assert_int_equal(cc.disagree, cases[i].disagree);
	}
}

static void test_clock_medians(void **state)
{
	/* One wild sample does not decide; a NaN pair is left out. */
	const double s[] = { 100, 101, 400, 99, NAN, 100 };
	const double c[] = { 100, 100, 100, 100, 100, NAN };
	struct clock_check cc;

	(void)state;
	clock_check(s, c, 6, &cc);
	assert_int_equal(cc.n, 4);
	assert_float_equal(cc.server, 100.5, 1e-12);
	assert_float_equal(cc.client, 100, 1e-12);
	assert_false(cc.disagree);
	clock_check(s, c, 0, &cc);
	assert_int_equal(cc.n, 0);
	assert_true(isnan(cc.share));
	assert_false(cc.disagree);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clock_share),
		cmocka_unit_test(test_clock_medians),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
