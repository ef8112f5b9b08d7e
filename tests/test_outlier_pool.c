/* test_outlier_pool.c: `tpsdb check`'s outlier instances (analyze/outlier_pool.c)
 * over the values runs hold: pools are one cell, tag, batch and metric, a run far
 * from the rest of its pool is marked with its value and the pool's median, and a
 * pool of fewer than three runs judges nothing. */
#include "analyze/outlier_pool.h"
#include "tpsdb.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* Decode tok/s of four repetitions of each run. */
static const double v1[] = { 101.0, 99.5, 100.2, 100.8 };
static const double v2[] = { 98.9, 99.7, 101.4, 100.1 };
static const double v3[] = { 100.5, 100.0, 99.1, 101.2 };
static const double slow[] = { 52.1, 50.3, 49.8, 51.0 }; /* half the others */

static struct outlier_instance inst(const char *tag, int metric, const double *v, size_t n)
{
	struct outlier_instance in = {
		.engine = "ours", .model = "q35", .spec_type = "", .endpoint = "completion",
		.config = "", .tag = tag, .batch = "b1", .n_max = INT64_MIN, .metric = metric,
		.v = v, .n = n,
	};
	return in;
}

static void test_outlier_pool_marks_the_far_run(void **state)
{
	struct outlier_instance in[8];
	struct outlier_verdict out[8];
	size_t i;

	(void)state;
	in[0] = inst("b9859", 1, v1, 4);
	in[1] = inst("b9859", 1, v2, 4);
	in[2] = inst("b9859", 1, slow, 4);
	in[3] = inst("b9859", 1, v3, 4);
	/* The same runs' other metric, all alike: its own pool, nothing marked. */
	in[4] = inst("b9859", 0, v1, 4);
	in[5] = inst("b9859", 0, v2, 4);
	in[6] = inst("b9859", 0, v3, 4);
	/* Another tag pools apart: one run alone is never judged. */
	in[7] = inst("b9860", 1, slow, 4);
	assert_int_equal(outlier_pool_find(in, 8, out), 1);
	assert_int_equal(out[2].outlier, 1);
	/* Its geometric mean, against the median of the pool's four instance values. */
	assert_true(fabs(out[2].value - exp((log(52.1) + log(50.3) + log(49.8) + log(51.0)) /
					    4)) < 1e-9);
	assert_true(out[2].median > 99.5 && out[2].median < 101.0);
	for (i = 0; i < 8; i++)
		if (i != 2)
			assert_int_equal(out[i].outlier, 0);
	assert_true(isnan(out[7].median));
	assert_true(fabs(out[7].value - out[2].value) < 1e-9);
}

static void test_outlier_pool_no_values(void **state)
{
	struct outlier_instance in[3];
	struct outlier_verdict out[3];

	(void)state;
	/* A run without usable values has no instance value and is never an outlier;
	 * the two left are too few to judge. */
	in[0] = inst(NULL, 1, v1, 4);
	in[1] = inst(NULL, 1, slow, 4);
	in[2] = inst(NULL, 1, v2, 0);
	assert_int_equal(outlier_pool_find(in, 3, out), 0);
	assert_true(isnan(out[2].value));
	assert_int_equal(out[1].outlier, 0);
	assert_int_equal(outlier_pool_find(in, 0, out), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outlier_pool_marks_the_far_run),
		cmocka_unit_test(test_outlier_pool_no_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
