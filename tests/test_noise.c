/* test_noise.c: the A/A noise floor, against values worked out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "analyze/noise.h"

static void test_noise_rms_of_paired_deltas(void **state)
{
	/* deltas +2%, -2%, +4%: sqrt((4 + 4 + 16) / 3) = sqrt(8) = 2.8284 */
	const double a[] = { 100, 200, 50 };
	const double b[] = { 102, 196, 52 };
	size_t used = 0;

	(void)state;
	assert_float_equal(noise_floor_pct(a, b, 3, &used), sqrt(8.0), 1e-9);
	assert_int_equal(used, 3);
}

static void test_noise_shift_alone(void **state)
{
	/* A restart that moves every request by -2% has a 2% floor. */
	const double a[] = { 190, 191, 192, 193 };
	double b[4];
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++)
		b[i] = a[i] * 0.98;
	assert_float_equal(noise_floor_pct(a, b, 4, NULL), 2.0, 1e-9);
}

static void test_noise_edges(void **state)
{
	const double a[] = { 100, NAN, 0, -5, 100 };
	const double b[] = { 100, 100, 100, 100, INFINITY };
	const double one_a[] = { 100 }, one_b[] = { 103 };
	size_t used = 9;

	(void)state;
	/* All equal: no noise. */
	assert_float_equal(noise_floor_pct(a, b, 1, &used), 0.0, 0);
	assert_int_equal(used, 1);
	/* NaN, zero, negative and infinite values are skipped. */
	assert_float_equal(noise_floor_pct(a, b, 5, &used), 0.0, 0);
	assert_int_equal(used, 1);
	assert_true(isnan(noise_floor_pct(a + 1, b + 1, 4, &used)));
	assert_int_equal(used, 0);
	assert_true(isnan(noise_floor_pct(a, b, 0, NULL)));
	/* One pair: its |delta|. */
	assert_float_equal(noise_floor_pct(one_a, one_b, 1, NULL), 3.0, 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_noise_rms_of_paired_deltas),
		cmocka_unit_test(test_noise_shift_alone),
		cmocka_unit_test(test_noise_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
