/* test_speedup.c: llama-bench speedups as compare-llama-bench.py computes them
 * (analyze/speedup.c): the kind of a test name, the ratio of the two sides' mean
 * avg_ts over the runs each pools, what adds no row, and the geometric mean of
 * each kind. */
#include "analyze/speedup.h"
#include "tests/run_fixture.h"
#include "tpsdb.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static void test_speedup_kind(void **state)
{
	static const struct { const char *test, *want; } cases[] = {
		{ "pp512", "pp" },
		{ "tg128", "tg" },
		{ "pp512+tg128", "pp+tg" },
		{ "pp64@d4096", "pp" },     /* the depth is no kind of its own */
		{ "pp512+tg128@d512", "pp+tg" },
		{ "tg16 fa=1", "tg" },      /* a whole config: the test alone */
		{ "", "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *k = speedup_kind(cases[i].test);
		assert_string_equal(k, cases[i].want);
		free(k);
	}
}

/* Runs r[0..n) of one llama-bench cell with the avg_ts ts[], pooled in p. */
static void bench_pool(struct run *r, const struct run **slots, size_t n, const double *ts,
		       const char *config, const char *endpoint, struct pool *p)
{
	for (size_t k = 0; k < n; k++) {
		fx_run(&r[k], "u", "e", "tiny");
		fx_set(&r[k].endpoint, endpoint);
		fx_set(&r[k].config, config);
		r[k].bench_ts = ts[k];
		slots[k] = &r[k];
	}
	memset(p, 0, sizeof(*p));
	p->runs = slots;
	p->n = n;
}

static void release_runs(struct run *r, size_t n)
{
	for (size_t k = 0; k < n; k++)
		run_release(&r[k]);
}

/* speedup_add() of two pools of one cell: n_a runs with the avg_ts a[] (ours)
 * against n_b with b[] (vs); at most 3 a side. */
static int add_pair(struct speedup_set *s, size_t n_a, const double *a, size_t n_b,
		    const double *b, const char *config, const char *endpoint)
{
	struct run ra[3], rb[3];
	const struct run *sa[3], *sb[3];
	struct pool pa, pb;
	int rc;

	assert_true(n_a <= 3 && n_b <= 3);
	bench_pool(ra, sa, n_a, a, config, endpoint, &pa);
	bench_pool(rb, sb, n_b, b, config, endpoint, &pb);
	rc = speedup_add(s, &pa, &pb);
	release_runs(ra, n_a);
	release_runs(rb, n_b);
	return rc;
}

static void test_speedup_add(void **state)
{
	/* Three processes a side, and one a side, as compare-llama-bench.py
	 * averages every row of a commit: AVG(tc.avg_ts) / AVG(tb.avg_ts). */
	static const double ours_pp[] = { 110, 120, 130 }, vs_pp[] = { 100, 95, 105 };
	static const double ours_tg[] = { 40 }, vs_tg[] = { 50 };
	static const double ours_tg2[] = { 30 }, vs_tg2[] = { 30 };
	static const double ours_pg[] = { 90, NAN }, vs_pg[] = { 100, 0 };
	struct speedup_set s = { 0 };

	(void)state;
	assert_int_equal(add_pair(&s, 3, ours_pp, 3, vs_pp, "pp512 fa=1", "llama-bench"), 1);
	assert_int_equal(add_pair(&s, 1, ours_tg, 1, vs_tg, "tg128 fa=1", "llama-bench"), 1);
	assert_int_equal(add_pair(&s, 1, ours_tg2, 1, vs_tg2, "tg128 fa=0", "llama-bench"), 1);
	/* A run without an avg_ts (NaN, or 0 from a run never loaded) counts on
	 * neither side: ours 90 over vs 100. */
	assert_int_equal(add_pair(&s, 2, ours_pg, 2, vs_pg, "pp512+tg128 fa=1", "llama-bench"), 1);
	/* A server cell is no llama-bench test; nor a side with no avg_ts. */
	assert_int_equal(add_pair(&s, 1, ours_tg, 1, vs_tg, "", "completion"), 0);
	assert_int_equal(add_pair(&s, 1, ours_tg, 1, vs_pg + 1, "tg128 fa=1", "llama-bench"), 0);
	speedup_finish(&s);

	assert_int_equal(s.n_rows, 4);
	assert_string_equal(s.rows[0].test, "pp512");
	assert_string_equal(s.rows[0].kind, "pp");
	assert_string_equal(s.rows[0].config, "pp512 fa=1");
	assert_string_equal(s.rows[0].model, "tiny");
	/* The ratio of the means (1.2), not the mean of ratios nor a geometric one. */
	assert_true(fabs(s.rows[0].speedup - 120.0 / 100.0) < 1e-15);
	assert_true(fabs(s.rows[0].ours_ts - 120) < 1e-12 && fabs(s.rows[0].vs_ts - 100) < 1e-12);
	assert_int_equal(s.rows[0].n_ours, 3);
	assert_int_equal(s.rows[0].n_vs, 3);
	assert_true(fabs(s.rows[1].speedup - 0.8) < 1e-15);
	assert_true(fabs(s.rows[3].speedup - 0.9) < 1e-15);
	assert_int_equal(s.rows[3].n_ours, 1);
	assert_int_equal(s.rows[3].n_vs, 1);
	assert_string_equal(s.rows[3].kind, "pp+tg");

	/* One geomean per kind, in the order first met. */
	assert_int_equal(s.n_kinds, 3);
	assert_string_equal(s.kinds[0].kind, "pp");
	assert_int_equal(s.kinds[0].n, 1);
	assert_true(fabs(s.kinds[0].geomean - 1.2) < 1e-12);
	assert_string_equal(s.kinds[1].kind, "tg");
	assert_int_equal(s.kinds[1].n, 2);
	assert_true(fabs(s.kinds[1].geomean - sqrt(0.8 * 1.0)) < 1e-12);
	assert_string_equal(s.kinds[2].kind, "pp+tg");
	assert_true(fabs(s.kinds[2].geomean - 0.9) < 1e-12);
	speedup_release(&s);
	speedup_release(NULL);
	assert_int_equal(s.n_rows, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_speedup_kind),
		cmocka_unit_test(test_speedup_add),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
