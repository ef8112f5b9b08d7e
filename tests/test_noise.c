/* test_noise.c: the A/A noise floor, against values worked out by hand, and the
 * choice of which A/A pairs give one (noise_calibrate: the two latest runs of each
 * history), over plain runs and pools. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "analyze/noise.h"
#include "tests/run_fixture.h"

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

/* Series 0 is an A/A pair with a usable pp and no usable tg; series 1 ran another
 * n_predict and gives nothing. noise_calibrate() now reads histories (one pool
 * per series, oldest first) instead of stored pairs of cells: each series' two
 * runs are its pair, the older as a, as cells[i].ours and .vs were. */
static void test_noise_calibrate_pairs(void **state)
{
	static const struct run_value a[] = { { 1, 1, 100 }, { 2, 1, 200 }, { 3, 1, 50 } };
	static const struct run_value b[] = { { 1, 1, 102 }, { 2, 1, 196 }, { 3, 1, 52 } };
	static const struct run_value zero[] = { { 1, 1, 0 } };
	static const char *const uuid[4] = { "a", "b", "c", "d" };
	struct run runs[4];
	struct pool h[2];
	struct noise_pair *p = NULL;
	size_t n = 0, floors = 9, i;

	(void)state;
	for (i = 0; i < 4; i++) {
		fx_run(&runs[i], uuid[i], "e", "m");
		runs[i].n_predict = i == 3 ? 128 : 256;
		/* Each history's older run holds a's values, its newer b's. */
		fx_keyed(&runs[i], RUN_PP, i % 2 ? b : a, 3, 0);
		fx_keyed(&runs[i], RUN_TG, zero, 1, i % 2 ? 0 : 2);
	}
	fx_pool(&h[0], &runs[0], 2);
	fx_pool(&h[1], &runs[2], 2);
	noise_calibrate(h, 2, &p, &n, &floors);
	assert_int_equal(n, 2);
	assert_int_equal(floors, 1);
	assert_ptr_equal(p[0].a, &runs[0]);
	assert_ptr_equal(p[0].b, &runs[1]);
	assert_int_equal(p[0].diff.kind, RUN_DIFF_NONE);
	assert_float_equal(p[0].pct[PARITY_METRIC_PP], sqrt(8.0), 1e-9);
	assert_int_equal(p[0].n_pairs[PARITY_METRIC_PP], 3);
	assert_true(isnan(p[0].pct[PARITY_METRIC_TG]));
	assert_int_equal(p[1].diff.kind, RUN_DIFF_N_PREDICT);
	assert_ptr_equal(p[1].b, &runs[3]);
	assert_true(isnan(p[1].pct[PARITY_METRIC_PP]) && isnan(p[1].pct[PARITY_METRIC_TG]));
	free(p);

	/* New with histories: a series measured once gives no pair (rather than a
	 * pair of a run with itself, which would read as a 0.00% floor), and of
	 * three runs the two latest pair (were it the two oldest, runs 0 and 1,
	 * the floor would be sqrt(8) instead of 0: runs 1 and 2 hold b's values
	 * in pp, and runs 1's and 2's tg differ so the pair is no copy). */
	free(h[0].runs);
	free(h[1].runs);
	fx_pool(&h[0], &runs[0], 1);
	noise_calibrate(h, 1, &p, &n, &floors);
	assert_int_equal(n, 0);
	assert_int_equal(floors, 0);
	free(p);
	free(h[0].runs);
	fx_keyed(&runs[2], RUN_PP, b, 3, 0);
	fx_keyed(&runs[2], RUN_TG, a, 3, 0);
	fx_pool(&h[0], &runs[0], 3);
	noise_calibrate(h, 1, &p, &n, &floors);
	assert_int_equal(n, 1);
	assert_ptr_equal(p[0].a, &runs[1]);
	assert_ptr_equal(p[0].b, &runs[2]);
	assert_false(p[0].identical);
	assert_float_equal(p[0].pct[PARITY_METRIC_PP], 0.0, 0);
	free(p);
	/* Only clean runs of one host pair: the newest contended, the older pair
	 * (runs 0 and 1) gives the floor; an incomplete newer run too; one clean
	 * run left on the newest clean run's host, no pair. */
	runs[2].env_flags = RUN_ENV_GPU_CONTENDED;
	noise_calibrate(h, 1, &p, &n, &floors);
	assert_int_equal(n, 1);
	assert_ptr_equal(p[0].a, &runs[0]);
	assert_ptr_equal(p[0].b, &runs[1]);
	assert_float_equal(p[0].pct[PARITY_METRIC_PP], sqrt(8.0), 1e-9);
	free(p);
	runs[2].env_flags = 0;
	free(runs[2].status);
	runs[2].status = tps_xstrdup("partial");
	noise_calibrate(h, 1, &p, &n, &floors);
	assert_int_equal(n, 1);
	assert_ptr_equal(p[0].b, &runs[1]);
	free(p);
	free(runs[0].host);
	runs[0].host = tps_xstrdup("other");
	noise_calibrate(h, 1, &p, &n, &floors);
	assert_int_equal(n, 0);
	free(p);
	free(h[0].runs);
	for (i = 0; i < 4; i++)
		run_release(&runs[i]);
}

/* Two runs with identical samples (one result file imported twice) are refused: no
 * 0.00% floor (issue 12, defect 6). One value apart, they are a pair again. */
static void test_noise_calibrate_identical_refused(void **state)
{
	static const struct run_value a[] = { { 1, 1, 100 }, { 2, 1, 200 } };
	static const struct run_value c[] = { { 1, 1, 100 }, { 2, 1, 201 } };
	struct run runs[2];
	struct pool h;
	struct noise_pair *p = NULL;
	size_t n = 0, floors = 9, i;

	(void)state;
	for (i = 0; i < 2; i++) {
		fx_run(&runs[i], i ? "b" : "a", "e", "m");
		runs[i].n_predict = 256;
		fx_keyed(&runs[i], RUN_PP, a, 2, 0);
		fx_keyed(&runs[i], RUN_TG, a, 2, 0);
	}
	fx_pool(&h, runs, 2);
	noise_calibrate(&h, 1, &p, &n, &floors);
	assert_int_equal(n, 1);
	assert_int_equal(floors, 0);
	assert_true(p[0].identical);
	assert_true(isnan(p[0].pct[PARITY_METRIC_PP]) && isnan(p[0].pct[PARITY_METRIC_TG]));
	free(p);
	/* One tg value differs: a real pair, pp's floor is a true 0. */
	fx_keyed(&runs[1], RUN_TG, c, 2, 0);
	noise_calibrate(&h, 1, &p, &n, &floors);
	assert_false(p[0].identical);
	assert_int_equal(floors, 2);
	assert_float_equal(p[0].pct[PARITY_METRIC_PP], 0.0, 0);
	assert_true(p[0].pct[PARITY_METRIC_TG] > 0);
	free(p);
	free(h.runs);
	for (i = 0; i < 2; i++)
		run_release(&runs[i]);
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
