/* test_sweep.c: analyze/sweep on hand-built speculative sweeps. Every expected
 * number is arithmetic on the rung sums written here (cycles = predicted_n -
 * accepted, tokens/cycle = predicted_n / cycles, ms/cycle = predicted_ms / cycles),
 * done by hand and checked with a Python one-liner; the comments show the sums. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analyze/series.h"
#include "analyze/sweep.h"
#include "reports/sweep_text.h"

#define NA NAN
#define ABSENT INT64_MIN /* TPS_NULL */

static void check_near(double got, double want, double tol, const char *what)
{
	if (isnan(want)) {
		if (!isnan(got))
			fail_msg("%s: got %.17g, want NaN", what, got);
		return;
	}
	if (!(fabs(got - want) <= tol))
		fail_msg("%s: got %.17g, want %.17g (tolerance %g)", what, got, want, tol);
}

/* base, then n_max 1..4: tg rises to n_max 2, falls 15% at 3, and acceptance
 * rises from n_max 3 to 4 (0.5 -> 0.5833). */
static const struct sweep_rung ours[] = {
	{-1, 50, 1000, ABSENT, ABSENT, 20000},
	{1, 80, 1000, 600, 400, 12500},  /* 600 cycles, acceptance 2/3 */
	{2, 100, 1000, 900, 550, 10000}, /* 450 cycles, acceptance 0.6111 */
	{3, 85, 1000, 1200, 600, 10500}, /* 400 cycles, acceptance 0.5 */
	{4, 84, 1000, 1200, 700, 10600}, /* 300 cycles, acceptance 0.5833 */
};

static void test_sweep_analyze(void **state)
{
	struct sweep_report r;

	(void)state;
	assert_int_equal(sweep_analyze(ours, 5, SWEEP_TOLERANCE_PCT, &r), 0);
	assert_int_equal(r.base, 0);
	assert_int_equal(r.n_points, 5);
	/* speedup = tg / 50 */
	check_near(r.points[0].speedup, 1, 1e-12, "speedup base");
	check_near(r.points[1].speedup, 1.6, 1e-12, "speedup 1");
	check_near(r.points[2].speedup, 2.0, 1e-12, "speedup 2");
	check_near(r.points[3].speedup, 1.7, 1e-12, "speedup 3");
	check_near(r.points[4].speedup, 1.68, 1e-12, "speedup 4");
	/* The base drafts nothing: one token a cycle, 20 ms a token, no acceptance. */
	check_near(r.points[0].acceptance, NA, 0, "acceptance base");
	check_near(r.points[0].cycles, 1000, 0, "cycles base");
	check_near(r.points[0].tokens_per_cycle, 1, 0, "tpc base");
	check_near(r.points[0].ms_per_cycle, 20, 1e-12, "ms base");
	check_near(r.points[1].acceptance, 400.0 / 600, 1e-15, "acceptance 1");
	check_near(r.points[1].cycles, 600, 0, "cycles 1");
	check_near(r.points[1].tokens_per_cycle, 1000.0 / 600, 1e-15, "tpc 1");
	check_near(r.points[1].ms_per_cycle, 12500.0 / 600, 1e-12, "ms 1");
	check_near(r.points[2].tokens_per_cycle, 1000.0 / 450, 1e-15, "tpc 2");
	check_near(r.points[3].acceptance, 0.5, 0, "acceptance 3");
	check_near(r.points[4].tokens_per_cycle, 1000.0 / 300, 1e-15, "tpc 4");
	check_near(r.points[4].ms_per_cycle, 10600.0 / 300, 1e-12, "ms 4");
	/* 100 -> 85 is -15%; 85 -> 84 is -1.2%, inside 5%. */
	assert_int_equal(r.n_violations, 1);
	assert_int_equal(r.violations[0].from, 2);
	assert_int_equal(r.violations[0].to, 3);
	assert_int_equal(r.violations[0].from_n_max, 2);
	assert_int_equal(r.violations[0].to_n_max, 3);
	check_near(r.violations[0].change_pct, -15, 1e-12, "drop");
	check_near(r.violations[0].ref_change_pct, NA, 0, "no ref");
	/* 0.5 -> 0.58333 is +16.7%; the 2/3 -> 0.6111 -> 0.5 steps fall as they should. */
	assert_int_equal(r.n_anomalies, 1);
	assert_int_equal(r.anomalies[0].from_n_max, 3);
	assert_int_equal(r.anomalies[0].to_n_max, 4);
	check_near(r.anomalies[0].change_pct, (700.0 / 1200 / 0.5 - 1) * 100, 1e-12, "rise");
	sweep_report_release(&r);
	assert_null(r.points);
	sweep_report_release(&r);
	sweep_report_release(NULL);

	/* A 20% tolerance forgives the 15% drop and the 16.7% rise. */
	assert_int_equal(sweep_analyze(ours, 5, 20, &r), 0);
	assert_int_equal(r.n_violations, 0);
	assert_int_equal(r.n_anomalies, 0);
	sweep_report_release(&r);
}

static void test_sweep_small_and_degenerate(void **state)
{
	struct sweep_rung flat[3] = {
		{ABSENT, 40, 500, ABSENT, ABSENT, 12500},
		{1, 40, 500, 250, 100, 10000},
		{2, 40, 500, 500, 100, 10000}, /* acceptance 0.4 -> 0.2 */
	};
	struct sweep_rung nobase[2] = {
		{1, 60, 100, 50, 50, NA},   /* no time: ms/cycle NaN */
		{2, NA, 100, 100, ABSENT, 1000}, /* drafted but accepted unknown */
	};
	struct sweep_report r;

	(void)state;
	/* n = 0 */
	assert_int_equal(sweep_analyze(NULL, 0, 5, &r), 0);
	assert_int_equal(r.n_points, 0);
	assert_int_equal(r.base, SIZE_MAX);
	assert_int_equal(r.n_violations + r.n_anomalies, 0);
	sweep_report_release(&r);
	/* n = 1: the base alone, TPS_NULL as its n_max. */
	assert_int_equal(sweep_analyze(flat, 1, 5, &r), 0);
	assert_int_equal(r.base, 0);
	check_near(r.points[0].speedup, 1, 0, "speedup");
	check_near(r.points[0].ms_per_cycle, 25, 0, "ms per token");
	sweep_report_release(&r);
	/* All equal tg: no violation at any tolerance, speedups 1. */
	assert_int_equal(sweep_analyze(flat, 3, 0, &r), 0);
	assert_int_equal(r.n_violations, 0);
	assert_int_equal(r.n_anomalies, 0);
	check_near(r.points[2].speedup, 1, 0, "flat speedup");
	sweep_report_release(&r);
	/* n = 2 without a base and with NaN / absent fields. */
	assert_int_equal(sweep_analyze(nobase, 2, 5, &r), 0);
	assert_int_equal(r.base, SIZE_MAX);
	check_near(r.points[0].speedup, NA, 0, "no base");
	check_near(r.points[0].acceptance, 1, 0, "acceptance all");
	check_near(r.points[0].tokens_per_cycle, 2, 0, "tpc");
	check_near(r.points[0].ms_per_cycle, NA, 0, "no time");
	check_near(r.points[1].acceptance, NA, 0, "accepted absent");
	check_near(r.points[1].cycles, NA, 0, "cycles unknown");
	assert_int_equal(r.n_violations, 0); /* NaN tg: the step is skipped */
	sweep_report_release(&r);
	/* Acceptance from zero to something is a rise without a ratio: an anomaly. */
	nobase[0].draft_n_accepted = 0;
	nobase[1].draft_n_accepted = 10;
	assert_int_equal(sweep_analyze(nobase, 2, 5, &r), 0);
	assert_int_equal(r.n_anomalies, 1);
	assert_true(isinf(r.anomalies[0].change_pct));
	sweep_report_release(&r);
	/* Bad tolerance. */
	assert_int_equal(sweep_analyze(flat, 3, -1, &r), -1);
	assert_int_equal(sweep_analyze(flat, 3, NA, &r), -1);
	assert_null(r.points);
}

/* The reference at n_max 2: 450 cycles of 20 ms, 2.2222 tokens a cycle. */
static const struct sweep_rung ref2 = {2, 111.1, 1000, 900, 550, 9000};

struct gap_case {
	const char *name;
	struct sweep_rung ours;
	double tg, tpc, cost;
	const char *text;
};

static const struct gap_case gap_cases[] = {
	/* 447 cycles: tpc +0.67%; 10500 / 447 = 23.49 ms: +17.45%; 1.0067 / 1.1745. */
	{"host overhead", {2, 95, 1000, 900, 553, 10500}, -14.285714285714285, 0.67114093959731,
		17.449664429530202, "ours decodes 14.3% slower than llama.cpp at n_max=2: "
		"acceptance is equal (+0.7% tokens/cycle) but each cycle costs 17.4% more: "
		"per-cycle host overhead, not the drafter"},
	/* 400 cycles: tpc 2.5 (+12.5%), 25 ms (+25%): 1.125 / 1.25 = 0.9. */
	{"acceptance outweighed", {2, 100, 1000, 900, 600, 10000}, -10, 12.5, 25,
		"ours decodes 10.0% slower than llama.cpp at n_max=2: acceptance is higher "
		"(+12.5% tokens/cycle) but each cycle costs 25.0% more, which outweighs the "
		"acceptance"},
	/* 500 cycles: tpc 2 (-10%), 20 ms (0%). */
	{"drafter", {2, 100, 1000, 900, 500, 10000}, -10, -10, 0,
		"ours decodes 10.0% slower than llama.cpp at n_max=2: acceptance is lower "
		"(-10.0% tokens/cycle) and each cycle costs the same (+0.0%): the drafter's "
		"acceptance, not per-cycle cost"},
	/* 500 cycles of 22 ms: 0.9 / 1.1; shares log 0.9 : -log 1.1 = 52.5% : 47.5%. */
	{"both", {2, 100, 1000, 900, 500, 11000}, -18.181818181818183, -10, 10,
		"ours decodes 18.2% slower than llama.cpp at n_max=2: acceptance is lower "
		"(-10.0% tokens/cycle) and each cycle costs 10.0% more (53% of the gap from "
		"acceptance, 47% from cycle cost)"},
	/* 450 cycles of 18 ms: 1 / 0.9. */
	{"cheaper cycles", {2, 100, 1000, 900, 550, 8100}, 11.111111111111111, 0, -10,
		"ours decodes 11.1% faster than llama.cpp at n_max=2: acceptance is equal "
		"(+0.0% tokens/cycle) but each cycle costs 10.0% less: cheaper cycles, not "
		"the drafter"},
	/* Identical sums. */
	{"equal", {2, 100, 1000, 900, 550, 9000}, 0, 0, 0,
		"ours decodes on par with llama.cpp at n_max=2 (+0.0%): acceptance is equal "
		"(+0.0% tokens/cycle) and each cycle costs the same (+0.0%)"},
	/* 400 cycles of 22.5 ms against 450 of 20 ms: both +12.5%, so they cancel. */
	{"cancel", {2, 100, 1000, 900, 600, 9000}, 0, 12.5, 12.5,
		"ours decodes on par with llama.cpp at n_max=2 (+0.0%): acceptance is higher "
		"(+12.5% tokens/cycle) but each cycle costs 12.5% more, and the two cancel"},
};

static void test_sweep_gap_explain(void **state)
{
	char buf[512];

	(void)state;
	for (size_t i = 0; i < sizeof(gap_cases) / sizeof(gap_cases[0]); i++) {
		const struct gap_case *c = &gap_cases[i];
		struct sweep_gap g;

		print_message("case %s\n", c->name);
		assert_int_equal(sweep_gap(&c->ours, &ref2, &g), 0);
		assert_int_equal(g.n_max, 2);
		check_near(g.tg_pct, c->tg, 1e-9, "tg");
		check_near(g.tpc_pct, c->tpc, 1e-9, "tpc");
		check_near(g.cost_pct, c->cost, 1e-9, "cost");
		check_near(g.log_gap, g.log_tpc - g.log_cost, 1e-15, "identity");
		if (!isnan(g.share_acceptance))
			check_near(g.share_acceptance + g.share_cost, 1, 1e-9, "shares");
		assert_int_equal(sweep_text_gap(&g, "ours", "llama.cpp", buf, sizeof(buf)), 0);
		assert_string_equal(buf, c->text);
	}
}

static void test_sweep_gap_edges(void **state)
{
	struct sweep_rung base_o = {-1, 47, 1000, ABSENT, ABSENT, 21000};
	struct sweep_rung base_r = {-1, 50, 1000, ABSENT, ABSENT, 20000};
	struct sweep_rung missing = {2, 100, 1000, 900, ABSENT, 9000};
	struct sweep_rung other = {3, 100, 1000, 900, 550, 9000};
	struct sweep_gap g;
	char buf[256], tiny[16];

	(void)state;
	/* Without drafting every cycle is one token: 21 ms against 20 ms a token. */
	assert_int_equal(sweep_gap(&base_o, &base_r, &g), 0);
	check_near(g.tpc_pct, 0, 0, "tpc base");
	check_near(g.cost_pct, 5, 1e-12, "cost base");
	check_near(g.tg_pct, (1 / 1.05 - 1) * 100, 1e-12, "tg base");
	assert_int_equal(sweep_text_gap(&g, "ours", "llama.cpp", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "ours decodes 4.8% slower than llama.cpp without speculation: "
			"each token costs 5.0% more");
	/* Truncation is reported and the buffer stays a string. */
	assert_int_equal(sweep_text_gap(&g, "ours", "llama.cpp", tiny, sizeof(tiny)), -1);
	assert_int_equal(strlen(tiny), sizeof(tiny) - 1);
	assert_int_equal(sweep_text_gap(&g, "ours", "llama.cpp", tiny, 0), -1);
	/* Accepted count absent while drafting, or mismatched rungs: no gap. */
	assert_int_equal(sweep_gap(&missing, &ref2, &g), -1);
	check_near(g.tg_pct, NA, 0, "nan gap");
	assert_int_equal(sweep_text_gap(&g, "ours", "llama.cpp", buf, sizeof(buf)), -1);
	assert_string_equal(buf, "");
	assert_int_equal(sweep_gap(&other, &ref2, &g), -1);
}

static void test_sweep_shape(void **state)
{
	/* Ours falls 15% at 2 -> 3 while the reference rises 1%: listed. At 4 -> 5
	 * both fall ~17%: a shared limit, not ours. */
	struct sweep_rung o[6] = {
		{-1, 50, 0, 0, 0, 0}, {1, 80, 0, 0, 0, 0}, {2, 100, 0, 0, 0, 0},
		{3, 85, 0, 0, 0, 0}, {4, 84, 0, 0, 0, 0}, {5, 70, 0, 0, 0, 0},
	};
	struct sweep_rung r[6] = {
		{-1, 52, 0, 0, 0, 0}, {1, 82, 0, 0, 0, 0}, {2, 98, 0, 0, 0, 0},
		{3, 99, 0, 0, 0, 0}, {4, 97, 0, 0, 0, 0}, {5, 80, 0, 0, 0, 0},
	};
	struct sweep_step out[6];
	size_t count = 99;

	(void)state;
	assert_int_equal(sweep_shape(o, r, 6, 5, out, &count), 0);
	assert_int_equal(count, 1);
	assert_int_equal(out[0].from_n_max, 2);
	assert_int_equal(out[0].to_n_max, 3);
	check_near(out[0].change_pct, -15, 1e-12, "ours");
	check_near(out[0].ref_change_pct, (99.0 / 98 - 1) * 100, 1e-12, "ref");
	/* Same series on both sides: nothing diverges; n = 0 and n = 1 neither. */
	assert_int_equal(sweep_shape(o, o, 6, 5, out, &count), 0);
	assert_int_equal(count, 0);
	assert_int_equal(sweep_shape(NULL, NULL, 0, 5, out, &count), 0);
	assert_int_equal(count, 0);
	assert_int_equal(sweep_shape(o, r, 1, 5, out, &count), 0);
	assert_int_equal(count, 0);
	/* A NaN tg on ours skips its steps; the ref's NaN too. */
	o[3].tg = NA;
	assert_int_equal(sweep_shape(o, r, 6, 5, out, &count), 0);
	assert_int_equal(count, 0);
	/* Rungs must line up, and the tolerance must be a number >= 0. */
	r[2].n_max = 7;
	assert_int_equal(sweep_shape(o, r, 6, 5, out, &count), -1);
	assert_int_equal(count, 0);
	assert_int_equal(sweep_shape(o, o, 6, NA, out, &count), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep_analyze),
		cmocka_unit_test(test_sweep_small_and_degenerate),
		cmocka_unit_test(test_sweep_gap_explain),
		cmocka_unit_test(test_sweep_gap_edges),
		cmocka_unit_test(test_sweep_shape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
