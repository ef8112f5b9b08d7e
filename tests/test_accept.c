/* test_accept.c: analyze/accept.c: a compared cell's acceptance by prompt sums
 * each side's pooled runs (accepted and drafted apart, never a mean of shares),
 * leaves out runs whose per-prompt figures were not loaded, totals the cell, and
 * adds nothing for a cell where neither side drafted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "analyze/accept.h"

/* A run whose per-prompt figures are loaded (loaded: 1) or not. */
static void run_set(struct run *r, struct run_prompt *p, size_t n, int loaded)
{
	memset(r, 0, sizeof(*r));
	r->loaded = loaded ? RUN_LOAD_VALUES | RUN_LOAD_PROMPTS : RUN_LOAD_VALUES;
	r->prompts = p;
	r->n_prompts = n;
}

static void test_accept_sums_pools(void **state)
{
	/* ours: two runs (the second without math); vs: one run, and one whose
	 * prompts were not loaded (left out). */
	struct run_prompt o1[] = { { "coding", 0, 10, 9 }, { "math", 0, 20, 5 } };
	struct run_prompt o2[] = { { "coding", 0, 30, 3 } };
	struct run_prompt v1[] = { { "math", 0, 8, 8 } };
	struct run_prompt v2[] = { { "math", 0, 100, 0 } };
	struct run ro1, ro2, rv1, rv2;
	const struct run *po[] = { &ro1, &ro2 }, *pv[] = { &rv1, &rv2 };
	struct pool ours = { .runs = po, .n = 2 }, vs = { .runs = pv, .n = 2 };
	struct accept_set s = { 0 };

	(void)state;
	run_set(&ro1, o1, 2, 1);
	run_set(&ro2, o2, 1, 1);
	run_set(&rv1, v1, 1, 1);
	run_set(&rv2, v2, 1, 0);
	assert_int_equal(accept_add(&s, &ours, &vs, 4), 1);
	assert_int_equal(s.n_rows, 3);
	/* By name, then the cell's total. */
	assert_string_equal(s.rows[0].prompt, "coding");
	assert_string_equal(s.rows[1].prompt, "math");
	assert_null(s.rows[2].prompt);
	assert_int_equal(s.rows[0].row, 4);
	/* coding: (9 + 3) / (10 + 30), not the mean of 0.9 and 0.1. */
	assert_int_equal(s.rows[0].drafted[0], 40);
	assert_int_equal(s.rows[0].accepted[0], 12);
	assert_true(fabs(accept_share(&s.rows[0], 0) - 0.3) < 1e-15);
	assert_true(isnan(accept_share(&s.rows[0], 1)));
	assert_int_equal(s.rows[0].runs[0], 2);
	/* math: ours 5 / 20; vs only its loaded run, 8 / 8. */
	assert_true(fabs(accept_share(&s.rows[1], 0) - 0.25) < 1e-15);
	assert_true(fabs(accept_share(&s.rows[1], 1) - 1.0) < 1e-15);
	assert_int_equal(s.rows[1].runs[1], 1);
	/* The total: ours 17 / 60, vs 8 / 8. */
	assert_int_equal(s.rows[2].drafted[0], 60);
	assert_int_equal(s.rows[2].accepted[0], 17);
	assert_int_equal(s.rows[2].drafted[1], 8);
	assert_int_equal(s.rows[2].runs[0], 2);
	accept_release(&s);
	assert_null(s.rows);
}

static void test_accept_none_drafted(void **state)
{
	struct run_prompt o1[] = { { "coding", 0, 0, 0 } };
	struct run ro1, rv1;
	const struct run *po[] = { &ro1 }, *pv[] = { &rv1 };
	struct pool ours = { .runs = po, .n = 1 }, vs = { .runs = pv, .n = 1 };
	struct accept_set s = { 0 };

	(void)state;
	run_set(&ro1, o1, 1, 1);
	run_set(&rv1, NULL, 0, 0);
	assert_int_equal(accept_add(&s, &ours, &vs, 0), 0);
	assert_int_equal(s.n_rows, 0);
	accept_release(&s);
	accept_release(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accept_sums_pools),
		cmocka_unit_test(test_accept_none_drafted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
