/* test_noise.c: the A/A noise floor, against values worked out by hand, and the
 * choice of which A/A pairs give one (noise_calibrate), over plain structs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

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

/* Pair 0 is an A/A pair with a usable pp and no usable tg; pair 1 ran another
 * n_predict and gives nothing. */
static void test_noise_calibrate_pairs(void **state)
{
	static const struct parity_value a[] = { { 1, 1, 100 }, { 2, 1, 200 }, { 3, 1, 50 } };
	static const struct parity_value b[] = { { 1, 1, 102 }, { 2, 1, 196 }, { 3, 1, 52 } };
	static const struct parity_value zero[] = { { 1, 1, 0 } };
	struct parity_side runs[4] = {
		{ .uuid = "a", .model = "m", .endpoint = "completion", .n_predict = 256 },
		{ .uuid = "b", .model = "m", .endpoint = "completion", .n_predict = 256 },
		{ .uuid = "c", .model = "m", .endpoint = "completion", .n_predict = 256 },
		{ .uuid = "d", .model = "m", .endpoint = "completion", .n_predict = 128 },
	};
	struct parity_cell cells[2] = { { .ours = 0, .vs = 1 }, { .ours = 2, .vs = 3 } };
	struct parity_input in = { .ours = runs, .vs = runs, .n_ours = 4, .n_vs = 4,
				   .cells = cells, .n_cells = 2 };
	struct noise_pair *p = NULL;
	size_t n = 0, floors = 9, i;

	(void)state;
	for (i = 0; i < 2; i++) {
		cells[i].ours_values[PARITY_METRIC_PP] = (struct parity_series){ a, 3, 0 };
		cells[i].vs_values[PARITY_METRIC_PP] = (struct parity_series){ b, 3, 0 };
		cells[i].ours_values[PARITY_METRIC_TG] = (struct parity_series){ zero, 1, 2 };
		cells[i].vs_values[PARITY_METRIC_TG] = (struct parity_series){ zero, 1, 0 };
	}
	noise_calibrate(&in, &p, &n, &floors);
	assert_int_equal(n, 2);
	assert_int_equal(floors, 1);
	assert_ptr_equal(p[0].a, &runs[0]);
	assert_ptr_equal(p[0].b, &runs[1]);
	assert_int_equal(p[0].diff.kind, PARITY_DIFF_NONE);
	assert_float_equal(p[0].pct[PARITY_METRIC_PP], sqrt(8.0), 1e-9);
	assert_int_equal(p[0].n_pairs[PARITY_METRIC_PP], 3);
	assert_true(isnan(p[0].pct[PARITY_METRIC_TG]));
	assert_int_equal(p[1].diff.kind, PARITY_DIFF_N_PREDICT);
	assert_ptr_equal(p[1].b, &runs[3]);
	assert_true(isnan(p[1].pct[PARITY_METRIC_PP]) && isnan(p[1].pct[PARITY_METRIC_TG]));
	free(p);
}

/* Two runs with identical samples (one result file imported twice) are refused: no
 * 0.00% floor (issue 12, defect 6). One value apart, they are a pair again. */
static void test_noise_calibrate_identical_refused(void **state)
{
	static const struct parity_value a[] = { { 1, 1, 100 }, { 2, 1, 200 } };
	static const struct parity_value c[] = { { 1, 1, 100 }, { 2, 1, 201 } };
	struct parity_side runs[2] = {
		{ .uuid = "a", .model = "m", .endpoint = "completion", .n_predict = 256 },
		{ .uuid = "b", .model = "m", .endpoint = "completion", .n_predict = 256 },
	};
	struct parity_cell cell = { .ours = 0, .vs = 1 };
	struct parity_input in = { .ours = runs, .vs = runs, .n_ours = 2, .n_vs = 2,
				   .cells = &cell, .n_cells = 1 };
	struct noise_pair *p = NULL;
	size_t n = 0, floors = 9;

	(void)state;
	cell.ours_values[PARITY_METRIC_PP] = (struct parity_series){ a, 2, 0 };
	cell.vs_values[PARITY_METRIC_PP] = (struct parity_series){ a, 2, 0 };
	cell.ours_values[PARITY_METRIC_TG] = (struct parity_series){ a, 2, 0 };
	cell.vs_values[PARITY_METRIC_TG] = (struct parity_series){ a, 2, 0 };
	noise_calibrate(&in, &p, &n, &floors);
	assert_int_equal(n, 1);
	assert_int_equal(floors, 0);
	assert_true(p[0].identical);
	assert_true(isnan(p[0].pct[PARITY_METRIC_PP]) && isnan(p[0].pct[PARITY_METRIC_TG]));
	free(p);
	/* One tg value differs: a real pair, pp's floor is a true 0. */
	cell.vs_values[PARITY_METRIC_TG] = (struct parity_series){ c, 2, 0 };
	noise_calibrate(&in, &p, &n, &floors);
	assert_false(p[0].identical);
	assert_int_equal(floors, 2);
	assert_float_equal(p[0].pct[PARITY_METRIC_PP], 0.0, 0);
	assert_true(p[0].pct[PARITY_METRIC_TG] > 0);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_noise_rms_of_paired_deltas),
		cmocka_unit_test(test_noise_shift_alone),
		cmocka_unit_test(test_noise_edges),
		cmocka_unit_test(test_noise_calibrate_pairs),
		cmocka_unit_test(test_noise_calibrate_identical_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
