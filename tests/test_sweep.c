/* test_sweep.c: analyze/sweep on hand-built speculative sweeps. Every expected
 * number is arithmetic on the rung sums written here (cycles = predicted_n -
 * accepted, tokens/cycle = predicted_n / cycles, ms/cycle = predicted_ms / cycles),
 * done by hand and checked with a Python one-liner; the comments show the sums.
 * Also analyze/series.c's assembly of series from pools of runs built by hand
 * (tests/run_fixture.h, pooled by cellset_pools() as a command pools them) and
 * the gap wording of reports/sweep_text.c, all without a store. */
/* The rungs below list their sums positionally and leave the instance fields of
 * struct sweep_rung zero on purpose (one run per rung, the pre-pooling view). */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "analyze/cellset.h"
#include "analyze/series.h"
#include "analyze/sweep.h"
#include "reports/sweep_text.h"
#include "tests/run_fixture.h"

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
	/* One run a rung: each step is judged against the default decode scatter
	 * (ESTIMATE_SCATTER_TG_PCT, taken as known: the normal 90% interval of the
	 * log ratio is +-1.645 * 0.08). 100 -> 85 is -15%, whose interval
	 * [-25.5%, -3.0%] reaches inside -5%: an undecided dip, not a decided
	 * violation. 85 -> 84 is -1.2%, inside 5%, but its interval reaches -13.4%:
	 * an undecided dip too. The shape is undecided, never monotone. */
	assert_int_equal(r.n_violations, 2);
	assert_int_equal(r.n_decided, 0);
	assert_int_equal(r.shape, SWEEP_SHAPE_UNDECIDED);
	assert_string_equal(sweep_shape_name(r.shape), "undecided");
	assert_int_equal(r.violations[0].from, 2);
	assert_int_equal(r.violations[0].to, 3);
	assert_int_equal(r.violations[0].from_n_max, 2);
	assert_int_equal(r.violations[0].to_n_max, 3);
	check_near(r.violations[0].change_pct, -15, 1e-9, "drop");
	check_near(r.violations[0].ref_change_pct, NA, 0, "no ref");
	assert_false(r.violations[0].decided);
	check_near(r.violations[0].ci_lo_pct, (exp(log(0.85) - 1.6448536269514722 * 0.08) - 1) * 100,
		   1e-4, "drop: the default scatter's lower end");
	check_near(r.violations[0].ci_hi_pct, (exp(log(0.85) + 1.6448536269514722 * 0.08) - 1) * 100,
		   1e-4, "drop: its upper end");
	assert_true(r.violations[0].ci_hi_pct > -5);
	assert_int_equal(r.violations[1].from_n_max, 3);
	assert_int_equal(r.violations[1].to_n_max, 4);
	check_near(r.violations[1].change_pct, (84.0 / 85 - 1) * 100, 1e-9, "dip");
	assert_false(r.violations[1].decided);
	assert_true(r.violations[1].ci_lo_pct < -5);
	/* 0.5 -> 0.58333 is +16.7%; the 2/3 -> 0.6111 -> 0.5 steps fall as they should. */
	assert_int_equal(r.n_anomalies, 1);
	assert_int_equal(r.anomalies[0].from_n_max, 3);
	assert_int_equal(r.anomalies[0].to_n_max, 4);
	check_near(r.anomalies[0].change_pct, (700.0 / 1200 / 0.5 - 1) * 100, 1e-12, "rise");
	sweep_report_release(&r);
	assert_null(r.points);
	sweep_report_release(&r);
	sweep_report_release(NULL);

	/* A 20% tolerance forgives the 16.7% rise and the 1.2% dip; the 15% drop's
	 * interval still reaches past -20% (-25.5%): undecided. 30% forgives all:
	 * monotone. */
	assert_int_equal(sweep_analyze(ours, 5, 20, &r), 0);
	assert_int_equal(r.n_violations, 1);
	assert_int_equal(r.violations[0].to_n_max, 3);
	assert_int_equal(r.n_decided, 0);
	assert_int_equal(r.shape, SWEEP_SHAPE_UNDECIDED);
	assert_int_equal(r.n_anomalies, 0);
	sweep_report_release(&r);
	assert_int_equal(sweep_analyze(ours, 5, 30, &r), 0);
	assert_int_equal(r.n_violations, 0);
	assert_int_equal(r.n_anomalies, 0);
	assert_int_equal(r.shape, SWEEP_MONOTONE);
	assert_string_equal(sweep_shape_name(r.shape), "monotone");
	sweep_report_release(&r);

	/* A fall far beyond the default scatter decides with one run a rung:
	 * 100 -> 70 is -30%, its interval [-38%, -20.2%] lies below -5%. */
	{
		struct sweep_rung deep[5];

		memcpy(deep, ours, sizeof(deep));
		deep[3].tg = 70;
		assert_int_equal(sweep_analyze(deep, 5, SWEEP_TOLERANCE_PCT, &r), 0);
		assert_int_equal(r.n_violations, 1); /* 70 -> 84 rises */
		assert_int_equal(r.n_decided, 1);
		assert_true(r.violations[0].decided);
		assert_int_equal(r.violations[0].to_n_max, 3);
		assert_true(r.violations[0].ci_hi_pct < -5);
		assert_int_equal(r.shape, SWEEP_NOT_MONOTONE);
		assert_string_equal(sweep_shape_name(r.shape), "not-monotone");
		sweep_report_release(&r);
	}
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
		/* One run a side decides nothing: no side, no cause. */
		assert_int_equal(g.decided, 0);
		assert_int_equal(sweep_text_gap(&g, "ours", "llama.cpp", buf, sizeof(buf)), 0);
		assert_null(strstr(buf, "slower"));
		assert_null(strstr(buf, "faster"));
		assert_null(strstr(buf, "overhead"));
		assert_non_null(strstr(buf, "decides nothing"));
		/* The wording of the same gap once an interval decides it. */
		g.decided = 1;
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
	g.decided = 1; /* as an interval across rounds would */
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

/* A drafting rung where a side drafted no token (draft_n absent or 0: v0.4.0 at
 * a p_min its drafter never reaches) did not speculate: its tokens per cycle of
 * 1 are no acceptance, so the gap names that side and neither part as a cause,
 * decided or not. The base rung drafts nothing by design and is not marked. */
static void test_sweep_gap_undrafted(void **state)
{
	struct sweep_rung none = {2, 50, 1000, ABSENT, ABSENT, 20000};
	struct sweep_rung zero = {2, 50, 1000, 0, 0, 20000};
	struct sweep_rung base_o = {-1, 47, 1000, ABSENT, ABSENT, 21000};
	struct sweep_rung base_r = {-1, 50, 1000, ABSENT, ABSENT, 20000};
	struct sweep_gap g;
	struct sweep_why w;
	char buf[512];

	(void)state;
	assert_int_equal(sweep_gap(&none, &ref2, &g), 0);
	assert_int_equal(g.undrafted, 1);
	g.decided = 1;
	assert_int_equal(sweep_gap_why(&g, &w), 0);
	assert_int_equal(w.undrafted, 1);
	assert_int_equal(w.cause, SWEEP_CAUSE_NONE);
	assert_int_equal(sweep_text_gap(&g, "new", "old", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "new decodes 55.0% slower than old at n_max=2, and new drafted "
			    "no token there (no request reported one): speculation did not run "
			    "on that side, so the gap is not one of acceptance or cycle cost");
	/* Undecided: the clause closes the line. */
	g.decided = 0;
	g.ci_lo_pct = -60;
	g.ci_hi_pct = -50;
	g.mde_pct = 5;
	assert_int_equal(sweep_text_gap(&g, "new", "old", buf, sizeof(buf)), 0);
	assert_non_null(strstr(buf, "decides neither"));
	assert_non_null(strstr(buf, "(mde 5.0%), and new drafted no token there (no request "
				    "reported one)"));
	/* The reference's side, and a count of 0 alike. */
	assert_int_equal(sweep_gap(&ref2, &zero, &g), 0);
	assert_int_equal(g.undrafted, 2);
	g.decided = 1;
	assert_int_equal(sweep_text_gap(&g, "new", "old", buf, sizeof(buf)), 0);
	assert_non_null(strstr(buf, ", and old drafted no token there"));
	/* Both sides. */
	assert_int_equal(sweep_gap(&none, &zero, &g), 0);
	assert_int_equal(g.undrafted, 3);
	g.decided = 1;
	assert_int_equal(sweep_text_gap(&g, "new", "old", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "new decodes on par with old at n_max=2 (+0.0%), and neither "
			    "drafted a token there (no request reported one): speculation did "
			    "not run on either side, so the gap is not one of acceptance or "
			    "cycle cost");
	/* The base drafts nothing by design. */
	assert_int_equal(sweep_gap(&base_o, &base_r, &g), 0);
	assert_int_equal(g.undrafted, 0);
	/* Both sides drafted: no mark. */
	assert_int_equal(sweep_gap(&ref2, &ref2, &g), 0);
	assert_int_equal(g.undrafted, 0);
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

/* The decision behind each sentence, without the words: table of gap cases. */
static void test_sweep_gap_why(void **state)
{
	static const struct {
		struct sweep_gap gap;
		int base, g, a, c, against;
		enum sweep_cause cause;
	} cases[] = {
		{ {.n_max = 2, .tg_pct = -13.7, .tpc_pct = 0.3, .cost_pct = 16.2},
		  0, -1, 0, 1, 1, SWEEP_CAUSE_HOST },
		{ {.n_max = 2, .tg_pct = 10, .tpc_pct = 0, .cost_pct = -9},
		  0, 1, 0, -1, 1, SWEEP_CAUSE_HOST },
		{ {.n_max = 2, .tg_pct = 12, .tpc_pct = 12, .cost_pct = 0},
		  0, 1, 1, 0, 0, SWEEP_CAUSE_DRAFTER },
		{ {.n_max = 2, .tg_pct = 20, .tpc_pct = 10, .cost_pct = -8},
		  0, 1, 1, -1, 0, SWEEP_CAUSE_BOTH },
		{ {.n_max = 2, .tg_pct = -5, .tpc_pct = 10, .cost_pct = 16},
		  0, -1, 1, 1, 1, SWEEP_CAUSE_COST_WINS },
		{ {.n_max = 2, .tg_pct = 5, .tpc_pct = 16, .cost_pct = 10},
		  0, 1, 1, 1, 1, SWEEP_CAUSE_ACCEPT_WINS },
		{ {.n_max = 2, .tg_pct = 0, .tpc_pct = 12.5, .cost_pct = 12.5},
		  0, 0, 1, 1, 1, SWEEP_CAUSE_CANCEL },
		{ {.n_max = 2, .tg_pct = 0.5, .tpc_pct = 0.2, .cost_pct = -0.3},
		  0, 0, 0, 0, 0, SWEEP_CAUSE_NONE },
		{ {.n_max = -1, .tg_pct = -4.8, .tpc_pct = 0, .cost_pct = 5},
		  1, -1, 0, 1, 0, SWEEP_CAUSE_NONE },
	};
	struct sweep_gap nan_gap = {.n_max = 2, .tg_pct = NA, .tpc_pct = 1, .cost_pct = 1};
	struct sweep_why w;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sweep_gap gp = cases[i].gap;
		print_message("case %zu\n", i);
		gp.sums_pct = gp.tg_pct; /* the figure is the sums' own */
		assert_int_equal(sweep_gap_why(&gp, &w), 0);
		assert_true(w.split);
		assert_int_equal(w.base, cases[i].base);
		assert_int_equal(w.gap, cases[i].g);
		assert_int_equal(w.accept, cases[i].a);
		assert_int_equal(w.cost, cases[i].c);
		assert_int_equal(w.against, cases[i].against);
		assert_int_equal(w.cause, cases[i].cause);
	}
	assert_int_equal(sweep_gap_why(&nan_gap, &w), -1);
	assert_int_equal(w.cause, SWEEP_CAUSE_NONE);
	/* The host case again, but the sums hold an instance the figure left out, or
	 * they lie on the other side: the parts name no cause. An outlier left out of
	 * both (a screened rung) leaves the split whole. */
	{
		struct sweep_gap gp = cases[0].gap;
		gp.sums_pct = gp.tg_pct;
		gp.outliers = 1;
		assert_int_equal(sweep_gap_why(&gp, &w), 0);
		assert_true(w.split);
		assert_int_equal(w.cause, SWEEP_CAUSE_HOST);
		gp.sums_wider = 1;
		assert_int_equal(sweep_gap_why(&gp, &w), 0);
		assert_false(w.split);
		assert_int_equal(w.cause, SWEEP_CAUSE_NONE);
		gp.outliers = 0;
		gp.sums_wider = 0;
		gp.sums_pct = 3;
		assert_int_equal(sweep_gap_why(&gp, &w), 0);
		assert_false(w.split);
		assert_int_equal(w.cause, SWEEP_CAUSE_NONE);
	}
}


static void test_sweep_rung_is_base(void **state)
{
	(void)state;
	assert_true(sweep_rung_is_base(INT64_MIN));
	assert_true(sweep_rung_is_base(-1));
	assert_true(sweep_rung_is_base(0));
	assert_false(sweep_rung_is_base(1));
	assert_false(sweep_rung_is_base(8));
	assert_int_equal(sweep_sign(1.5), 1);
	assert_int_equal(sweep_sign(-1.5), -1);
	assert_int_equal(sweep_sign(0.9), 0);
	assert_int_equal(sweep_sign(NA), 0);
}

/* A run of the assembly: engine, spec_type, n_max, its decode values tg[0..n)
 * (keyed prompt k + 1, rep 1) and tokens per cycle (0: no draft counts), its
 * sums over three samples. Release with run_release(). */
static void run_of(struct run *r, const char *engine, const char *role, const char *spec_type,
		   int64_t n_max, const double *tg, size_t n, double tpc)
{
	fx_run(r, "u", engine, "m");
	fx_set(&r->role, role);
	fx_set(&r->spec_type, spec_type);
	r->n_max = n_max;
	r->id = n_max == INT64_MIN ? 100 : n_max;
	fx_values(r, RUN_TG, tg, n, NULL);
	r->agg.n = 3;
	r->agg.predicted_n = 1000;
	r->agg.predicted_ms = 1000 / tg[0] * 1000;
	if (tpc > 0) {
		r->agg.has_draft = 1;
		r->agg.draft_n = (int64_t)(1000 - 1000 / tpc) * 2;
		r->agg.draft_n_accepted = (int64_t)(1000 - 1000 / tpc);
	}
}

/* The pools of runs[0..n) as a command takes a filter's runs: every run of a
 * series (engine and cell) in one pool, oldest first (cellset_pools(),
 * POOL_ALL). The pools borrow the runs; free them with pools_free(). */
static void pool_runs(struct run *runs, size_t n, struct pool **p, size_t *np)
{
	struct cellset set = { runs, n };

	cellset_pools(&set, POOL_ALL, p, np);
}

static void runs_release(struct run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		run_release(&runs[i]);
}

/* Rungs sort by depth with the base first; every run of a rung is pooled; the base
 * with the series' own spec type wins over a plain one; a lone base forms nothing;
 * series sort by model, spec type, endpoint, engine. */
static void test_series_assemble(void **state)
{
	static const double t100[3] = { 100, 100, 100 }, t120[3] = { 120, 120, 120 };
	static const double t150[3] = { 150, 150, 150 };
	static const double t140[3] = { 140, 140, 140 }, t125[3] = { 125, 125, 125 };
	static const double t259[3] = { 259.2, 259.2, 259.2 };
	struct run runs[9];
	struct pool *pools;
	struct series_set set;
	const struct series *se;
	size_t n = 0, np;

	(void)state;
	run_of(&runs[n++], "ours", "ours", "draft", 2, t125, 3, 2);
	run_of(&runs[n++], "ours", "ours", "draft", 1, t150, 3, 1.5);
	run_of(&runs[n++], "ours", "ours", "draft", 2, t259, 3, 2); /* a second instance: pooled */
	run_of(&runs[n++], "ours", "ours", "", INT64_MIN, t100, 3, 0);
	run_of(&runs[n++], "ours", "ours", "draft", INT64_MIN, t120, 3, 0);
	run_of(&runs[n++], "up", "upstream", "draft", 1, t140, 3, 1.4);
	run_of(&runs[n++], "lone", "other", "", INT64_MIN, t100, 3, 0);
	run_of(&runs[n++], "ours", "ours", "ngram", 3, t140, 3, 1.2);
	run_of(&runs[n++], "ours", "ours", "ngram", 2, t150, 3, 1.3);
	pool_runs(runs, n, &pools, &np);
	assert_int_equal(np, 8); /* the two runs of ours/draft n_max 2 are one pool */
	assert_int_equal(series_assemble(pools, np, SWEEP_TOLERANCE_PCT, &set), 0);
	assert_int_equal(set.n, 3);
	assert_string_equal(set.v[0].engine, "ours");
	assert_string_equal(set.v[0].spec_type, "draft");
	assert_string_equal(set.v[1].engine, "up");
	assert_string_equal(set.v[2].spec_type, "ngram");

	se = &set.v[0];
	assert_int_equal(se->n_rungs, 3);
	assert_true(se->rungs[0].n_max == INT64_MIN);
	assert_int_equal(se->rungs[0].rung.n_max, -1);
	check_near(se->rungs[0].rung.tg, 120, 1e-9, "own base");
	assert_int_equal(se->rungs[0].rung.draft_n, -1);
	assert_int_equal(se->rungs[1].n_max, 1);
	assert_int_equal(se->rungs[2].n_max, 2);
	check_near(se->rungs[2].rung.tg, 180, 1e-9, "geometric mean of the two runs");
	assert_int_equal(se->rungs[2].n_runs, 2);
	assert_int_equal(se->rungs[2].point.instances, 2);
	assert_int_equal(se->rungs[1].point.instances, 1);
	check_near(se->rungs[1].point.tg_ci_lo, NA, 0, "one run: no interval");
	check_near(se->rungs[2].point.speedup, 1.5, 1e-9, "speedup");
	assert_int_equal(se->report.n_violations, 0);
	assert_int_equal(series_find(se, INT64_MIN), 0);
	assert_int_equal(series_find(se, -1), 0);
	assert_int_equal(series_find(se, 2), 2);
	assert_int_equal(series_find(se, 5), -1);

	/* The upstream series takes the plain base of its own engine: it has none. */
	se = &set.v[1];
	assert_int_equal(se->n_rungs, 1);
	check_near(se->rungs[0].point.speedup, NA, 0, "no base");

	/* ngram: no own base, so the plain one; 150 -> 140 falls 6.7%. */
	se = &set.v[2];
	assert_int_equal(se->n_rungs, 3);
	check_near(se->rungs[0].rung.tg, 100, 1e-9, "plain base");
	assert_int_equal(se->report.n_violations, 1);
	assert_int_equal(se->report.violations[0].to_n_max, 3);
	series_set_release(&set);
	series_set_release(&set);

	assert_int_equal(series_assemble(pools, np, NA, &set), -1);
	series_set_release(&set);
	assert_int_equal(series_assemble(NULL, 0, SWEEP_TOLERANCE_PCT, &set), 0);
	assert_int_equal(set.n, 0);
	series_set_release(&set);
	pools_free(pools, np);
	runs_release(runs, n);
}

/* Which series are shown, held against which, and which pairs get gap lines. */
static void test_series_view(void **state)
{
	struct series a = { .engine = "ours", .role = "ours", .model = "m", .spec_type = "d",
			    .endpoint = "completion" };
	struct series b = a, c = a, d = a;
	struct series_view all = { 0 }, eng = { .engine = "llama" }, ref = { .ref = "llama" };

	(void)state;
	b.engine = "llama";
	b.role = "upstream";
	c.engine = "other";
	c.role = "other";
	d.engine = "llama";
	d.role = "upstream";
	d.spec_type = "ngram";
	assert_true(series_shown(&all, &a));
	assert_false(series_shown(&eng, &a));
	assert_true(series_shown(&eng, &b));
	assert_true(series_is_ref(&all, &a, &b));
	assert_false(series_is_ref(&all, &a, &a));
	assert_false(series_is_ref(&all, &a, &d));
	assert_true(series_is_ref(&ref, &a, &b));
	assert_false(series_is_ref(&ref, &a, &c));
	/* ours before other before upstream, each pair once. */
	assert_true(series_gap_pair(&all, &a, &b));
	assert_false(series_gap_pair(&all, &b, &a));
	assert_true(series_gap_pair(&all, &a, &c));
	assert_true(series_gap_pair(&all, &c, &b));
	assert_false(series_gap_pair(&all, &a, &d));
	/* --ref: every shown series against it, whatever the roles. */
	assert_true(series_gap_pair(&ref, &c, &b));
	assert_false(series_gap_pair(&ref, &b, &c));
	/* --engine: pairs that touch a shown series. */
	assert_true(series_gap_pair(&eng, &a, &b));
	assert_false(series_gap_pair(&eng, &a, &c));
}


/* A rung of n runs with these median tg (and, when tpc > 0, draft counts giving
 * that acceptance run by run); rounds NULL: unknown. */
static void pooled_rung(struct sweep_rung *r, int64_t n_max, const double *tg, const double *acc,
			const int64_t *rounds, size_t n)
{
	double lsum = 0;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->n_max = n_max;
	for (i = 0; i < n; i++)
		lsum += log(tg[i]);
	r->tg = exp(lsum / (double)n);
	r->predicted_n = 1000 * (int64_t)n;
	r->predicted_ms = 1000 * (double)n / r->tg * 1000;
	r->draft_n = acc ? 1000 * (int64_t)n : -1;
	r->draft_n_accepted = -1;
	if (acc) {
		double a = 0;
		for (i = 0; i < n; i++)
			a += acc[i];
		r->draft_n_accepted = (int64_t)llround(a * 1000);
	}
	r->n_runs = n;
	r->tg_runs = tg;
	r->rate_runs = tg;
	r->accept_runs = acc;
	r->round_runs = rounds;
}

/* Each rung's decode and acceptance carry a 95% t interval across its runs, and
 * series_assemble() pools every run it is handed, the base included. */
static void test_sweep_pooled_interval(void **state)
{
	static const double tg[3] = { 100, 104, 96 }, acc[3] = { 0.80, 0.84, 0.76 };
	static const double b1[1] = { 60 }, b2[1] = { 66 }, b3[1] = { 63 };
	struct sweep_rung r;
	struct sweep_point pt;
	struct run runs[6];
	struct pool *pools;
	struct series_set set;
	double l[3], m, sd, h;
	size_t i, np;

	(void)state;
	pooled_rung(&r, 2, tg, acc, NULL, 3);
	sweep_point_compute(&r, &pt);
	for (i = 0; i < 3; i++)
		l[i] = log(tg[i]);
	m = (l[0] + l[1] + l[2]) / 3;
	sd = sqrt(((l[0] - m) * (l[0] - m) + (l[1] - m) * (l[1] - m) + (l[2] - m) * (l[2] - m)) / 2);
	h = 2.919985580355516 * sd / sqrt(3); /* t(0.95, 2): the 90% interval */
	assert_int_equal(pt.instances, 3);
	check_near(pt.tg_ci_lo, exp(m - h), 1e-6, "tg ci lo");
	check_near(pt.tg_ci_hi, exp(m + h), 1e-6, "tg ci hi");
	check_near(pt.mde_pct, sinh(h) * 100, 1e-6, "mde");
	assert_true(pt.tg_ci_lo < r.tg && r.tg < pt.tg_ci_hi);
	check_near(pt.acceptance, 0.80, 1e-9, "pooled acceptance");
	h = 2.919985580355516 * 0.04 / sqrt(3);
	check_near(pt.accept_ci_lo, 0.80 - h, 1e-6, "accept ci lo");
	check_near(pt.accept_ci_hi, 0.80 + h, 1e-6, "accept ci hi");

	/* One run: instances 1, no interval. */
	r.n_runs = 0;
	sweep_point_compute(&r, &pt);
	assert_int_equal(pt.instances, 1);
	check_near(pt.tg_ci_lo, NA, 0, "one run");
	check_near(pt.mde_pct, NA, 0, "one run: no mde");

	/* Three plain base runs pool into one base rung of 63 (the geometric mean
	 * of 60, 66, 63 is 62.93), beside two rungs of one run. */
	run_of(&runs[0], "ours", "ours", "", INT64_MIN, b1, 1, 0);
	run_of(&runs[1], "ours", "ours", "", INT64_MIN, b2, 1, 0);
	run_of(&runs[2], "ours", "ours", "", INT64_MIN, b3, 1, 0);
	run_of(&runs[3], "ours", "ours", "draft", 1, tg, 1, 1.5);
	run_of(&runs[4], "ours", "ours", "draft", 1, tg + 1, 1, 1.5);
	run_of(&runs[5], "ours", "ours", "draft", 1, tg + 2, 1, 1.5);
	pool_runs(runs, 6, &pools, &np);
	assert_int_equal(np, 2);
	assert_int_equal(series_assemble(pools, np, SWEEP_TOLERANCE_PCT, &set), 0);
	assert_int_equal(set.n, 1);
	assert_int_equal(set.v[0].n_rungs, 2);
	assert_int_equal(set.v[0].rungs[0].n_runs, 3);
	assert_int_equal(set.v[0].rungs[0].n_values, 3);
	check_near(set.v[0].rungs[0].rung.tg, cbrt(60.0 * 66 * 63), 1e-9, "pooled base");
	assert_int_equal(set.v[0].rungs[1].point.instances, 3);
	check_near(set.v[0].rungs[1].rung.tg, cbrt(100.0 * 104 * 96), 1e-9, "pooled rung");
	assert_true(set.v[0].rungs[1].point.tg_ci_lo < set.v[0].rungs[1].rung.tg);
	assert_int_equal(set.v[0].rungs[1].rung.predicted_n, 3000);
	series_set_release(&set);
	pools_free(pools, np);
	runs_release(runs, 6);
}

/* A 6% fall is a violation when the runs are tight, undecided when the same mean
 * fall comes from scattered pairs; runs pair by start order without round
 * numbers and round by round with them, so a drift shared by each round
 * cancels. */
static void test_sweep_dip_decided(void **state)
{
	static const double tight_a[3] = { 100, 100.2, 99.8 }, tight_b[3] = { 94, 94.19, 93.81 };
	static const double wide_a[3] = { 100, 110, 90 }, wide_b[3] = { 103.4, 84.6, 94 };
	static const int64_t rounds[3] = { 1, 2, 3 }, rounds_b[3] = { 2, 3, 1 };
	struct sweep_rung r[2];
	struct sweep_report rep;

	(void)state;
	pooled_rung(&r[0], 2, tight_a, NULL, NULL, 3);
	pooled_rung(&r[1], 3, tight_b, NULL, NULL, 3);
	assert_int_equal(sweep_analyze(r, 2, 5, &rep), 0);
	assert_int_equal(rep.n_violations, 1);
	assert_int_equal(rep.n_decided, 1);
	assert_true(rep.violations[0].decided);
	check_near(rep.violations[0].change_pct, -6, 0.01, "tight: -6%");
	assert_true(rep.violations[0].ci_hi_pct < -5 && rep.violations[0].ci_lo_pct > -7);
	assert_int_equal(rep.violations[0].rounds, 3); /* paired by start order */
	sweep_report_release(&rep);

	/* The same -6% from pairs scattered +-10%: the interval straddles -5%. */
	pooled_rung(&r[0], 2, wide_a, NULL, NULL, 3);
	pooled_rung(&r[1], 3, wide_b, NULL, NULL, 3);
	assert_int_equal(sweep_analyze(r, 2, 5, &rep), 0);
	assert_int_equal(rep.n_violations, 1);
	assert_int_equal(rep.n_decided, 0);
	assert_false(rep.violations[0].decided);
	assert_true(rep.violations[0].ci_lo_pct < -5 && rep.violations[0].ci_hi_pct > -5);
	check_near(rep.violations[0].mde_pct,
		   (rep.violations[0].ci_hi_pct - rep.violations[0].ci_lo_pct) / 2, 1e-9, "mde");
	sweep_report_release(&rep);

	/* Known rounds: each round falls exactly 6%, so the pairs decide it. */
	r[0].round_runs = rounds;
	r[1].round_runs = rounds_b;
	assert_int_equal(sweep_analyze(r, 2, 5, &rep), 0);
	assert_int_equal(rep.n_decided, 1);
	assert_int_equal(rep.violations[0].rounds, 3);
	sweep_report_release(&rep);

	/* A 3% dip within the tolerance from scattered runs is undecided too: its
	 * interval reaches past -5%. */
	{
		static const double dip_b[3] = { 106.7, 87.3, 97 };
		r[0].round_runs = r[1].round_runs = NULL;
		pooled_rung(&r[1], 3, dip_b, NULL, NULL, 3);
		assert_int_equal(sweep_analyze(r, 2, 5, &rep), 0);
		assert_int_equal(rep.n_violations, 1);
		assert_int_equal(rep.n_decided, 0);
		sweep_report_release(&rep);
	}

	/* One run a side: the interval is the default decode scatter's
	 * (ESTIMATE_SCATTER_TG_PCT, the normal quantile), so a 10% fall past the
	 * tolerance is an undecided dip ([-21.1%, +2.7%]), never a decided
	 * violation; only a fall far beyond that scatter (-25%) decides. */
	pooled_rung(&r[0], 2, wide_a, NULL, NULL, 3);
	pooled_rung(&r[1], 3, wide_b, NULL, NULL, 1);
	r[0].n_runs = r[1].n_runs = 0;
	r[0].tg = 100;
	r[1].tg = 90;
	assert_int_equal(sweep_analyze(r, 2, 5, &rep), 0);
	assert_int_equal(rep.n_violations, 1);
	assert_int_equal(rep.n_decided, 0);
	assert_int_equal(rep.shape, SWEEP_SHAPE_UNDECIDED);
	assert_false(rep.violations[0].decided);
	check_near(rep.violations[0].ci_lo_pct, (exp(log(0.9) - 1.6448536269514722 * 0.08) - 1) * 100,
		   1e-4, "one run: the default scatter's interval");
	check_near(rep.violations[0].ci_hi_pct, (exp(log(0.9) + 1.6448536269514722 * 0.08) - 1) * 100,
		   1e-4, "its upper end");
	check_near(rep.violations[0].mde_pct, 0.9 * sinh(1.6448536269514722 * 0.08) * 100, 1e-4,
		   "one run: the default scatter's mde");
	sweep_report_release(&rep);
	r[1].tg = 75;
	assert_int_equal(sweep_analyze(r, 2, 5, &rep), 0);
	assert_int_equal(rep.n_violations, 1);
	assert_int_equal(rep.n_decided, 1);
	assert_true(rep.violations[0].decided);
	assert_true(rep.violations[0].ci_hi_pct < -5);
	assert_int_equal(rep.shape, SWEEP_NOT_MONOTONE);
	sweep_report_release(&rep);
}

/* A gap across scattered runs is not decided and its sentence says so, with the
 * difference the data could have seen; tight runs decide it and keep the old one. */
static void test_sweep_gap_undecided(void **state)
{
	static const double o_wide[3] = { 108, 97, 120 }, r_wide[3] = { 100, 110, 91 };
	static const double o_tight[3] = { 108, 108.5, 107.5 }, r_tight[3] = { 100, 100.4, 99.6 };
	static const double acc[3] = { 0.8, 0.8, 0.8 };
	struct sweep_rung o, r;
	struct sweep_gap g;
	char msg[512], want[64];

	(void)state;
	pooled_rung(&o, 2, o_wide, acc, NULL, 3);
	pooled_rung(&r, 2, r_wide, acc, NULL, 3);
	assert_int_equal(sweep_gap(&o, &r, &g), 0);
	assert_false(g.decided); /* sweep_gap alone: no interval yet */
	sweep_gap_decide(&o, &r, &g);
	assert_false(g.decided);
	assert_true(g.ci_lo_pct < -1 && g.ci_hi_pct > 1);
	assert_true(g.mde_pct > 5);
	assert_int_equal(sweep_text_gap(&g, "ours", "llama.cpp", msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "ours against llama.cpp decode at n_max=2"));
	snprintf(want, sizeof(want), "(mde %.1f%%)", g.mde_pct);
	assert_non_null(strstr(msg, want));
	assert_null(strstr(msg, "faster"));
	assert_null(strstr(msg, "drafter"));

	pooled_rung(&o, 2, o_tight, acc, NULL, 3);
	pooled_rung(&r, 2, r_tight, acc, NULL, 3);
	assert_int_equal(sweep_gap(&o, &r, &g), 0);
	sweep_gap_decide(&o, &r, &g);
	assert_true(g.decided);
	assert_true(g.ci_lo_pct > 1);
	assert_int_equal(sweep_text_gap(&g, "ours", "llama.cpp", msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "ours decodes 8.0% faster than llama.cpp at n_max=2"));
}

/* The main job's case: ours 4 runs near 200 tok/s, the reference 4 runs of which one
 * (320) is an outlier the estimate leaves out (a clear majority: 1 of 4). The sums
 * over every instance put the two at par (+0.8%), the estimate puts ours ahead: the
 * sentence gives the estimate's figure, says the outlier was left out, and names
 * no cause from sums that do not explain it. With three runs a side (one of three
 * far off) no majority is clear: nothing is left out and the gap decides nothing
 * (instances-disagree). */
static void test_sweep_gap_outlier_not_explained(void **state)
{
	static const double o_tg[4] = { 201, 199, 198.8, 200.2 }, r_tg[4] = { 170, 320, 168, 169 };
	static const double r3_tg[3] = { 170, 263.8, 168 };
	static const double acc[4] = { 0.995, 0.995, 0.995, 0.995 };
	static const int64_t rounds[4] = { 1, 2, 3, 4 };
	struct sweep_rung o, r;
	struct sweep_gap g;
	char msg[512];

	(void)state;
	pooled_rung(&o, 2, o_tg, acc, rounds, 4);
	pooled_rung(&r, 2, r_tg, acc, rounds, 4);
	assert_int_equal(sweep_gap(&o, &r, &g), 0);
	sweep_gap_decide(&o, &r, &g);
	assert_int_equal(g.outliers, 1);
	assert_int_equal(g.reason, ESTIMATE_REASON_NONE);
	assert_true(g.tg_pct > 10);
	assert_true(g.sums_pct < 2 && g.sums_pct > -10);
	assert_int_equal(sweep_text_gap(&g, "ours", "llama.cpp", msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "with 1 outlier instance left out"));
	assert_non_null(strstr(msg, "do not explain it"));
	assert_null(strstr(msg, "drafter"));
	assert_null(strstr(msg, "cheaper"));
	assert_null(strstr(msg, "acceptance is"));

	/* Three a side, one of the reference's far off: no clear majority. */
	pooled_rung(&o, 2, o_tg, acc, rounds, 3);
	pooled_rung(&r, 2, r3_tg, acc, rounds, 3);
	assert_int_equal(sweep_gap(&o, &r, &g), 0);
	sweep_gap_decide(&o, &r, &g);
	assert_int_equal(g.outliers, 0);
	assert_false(g.decided);
	assert_int_equal(sweep_text_gap(&g, "ours", "llama.cpp", msg, sizeof(msg)), 0);
	assert_null(strstr(msg, "faster"));
	assert_null(strstr(msg, "left out"));
}

/* The main job's case through series_assemble(): the reference's 263.8 tok/s
 * instance, one of four, is screened out of its rung, so the rung's speed, its
 * sums and the gap's parts cover the same three instances as the gap's estimate.
 * The table's tg then sits beside the gap it explains (170, 168 and 169, not a
 * pooled 189), and the cause is named from the kept instances, with the outlier
 * said. With three runs a side the screen has no clear majority: it leaves
 * nothing out and the gap decides nothing (instances-disagree). */
static void test_series_screens_outlier(void **state)
{
	static const double o_tg[4][1] = { { 201 }, { 199 }, { 198.8 }, { 200.2 } };
	static const double r_tg[4][1] = { { 170 }, { 263.8 }, { 168 }, { 169 } };
	static const char *const uuids[4] = { "r1aaaaaa", "r2bbbbbb", "r3cccccc", "r4dddddd" };
	struct run runs[8];
	struct pool *pools;
	struct series_set set;
	struct series_verdict vd;
	struct series_view view = { NULL, NULL };
	const struct series_rung *rr, *orr;
	const struct series *ours, *ref;
	char msg[512];
	size_t i, np;

	(void)state;
	for (i = 0; i < 4; i++) {
		/* equal acceptance, so only the cycle cost parts them */
		run_of(&runs[i], "ours", "ours", "draft", 2, o_tg[i], 1, 1.5);
		run_of(&runs[4 + i], "llama.cpp", "upstream", "draft", 2, r_tg[i], 1, 1.5);
		runs[i].round = runs[4 + i].round = (int64_t)i + 1;
		snprintf(runs[4 + i].uuid, sizeof(runs[4 + i].uuid), "%s", uuids[i]);
	}
	pool_runs(runs, 8, &pools, &np);
	assert_int_equal(series_assemble(pools, np, SWEEP_TOLERANCE_PCT, &set), 0);
	assert_int_equal(set.n, 2);
	ref = !strcmp(set.v[0].engine, "llama.cpp") ? &set.v[0] : &set.v[1];
	ours = ref == &set.v[0] ? &set.v[1] : &set.v[0];
	rr = &ref->rungs[0];
	orr = &ours->rungs[0];
	assert_int_equal(rr->n_runs, 3);
	assert_int_equal(rr->n_screened, 1);
	assert_string_equal(rr->screened_out[0].run_uuid, "r2bbbbbb");
	check_near(rr->screened_out[0].tg, 263.8, 1e-9, "the outlier's speed");
	check_near(exp(rr->screen_median), sqrt(169.0 * 170), 1e-9, "the median it was measured from");
	check_near(rr->rung.tg, cbrt(170.0 * 168 * 169), 1e-9, "the kept instances' speed");
	assert_int_equal(rr->rung.predicted_n, 3000);
	assert_int_equal(rr->n_values, 3);
	assert_int_equal(rr->point.instances, 3);
	assert_true(rr->point.tg_ci_hi < 200); /* the interval of the kept three */
	assert_int_equal(orr->n_runs, 4);
	assert_int_equal(orr->n_screened, 0);

	assert_int_equal(series_decide(&view, &set, SWEEP_TOLERANCE_PCT, &vd), 0);
	assert_int_equal(vd.n_gaps, 1);
	assert_false(vd.ref_missing); /* no --ref */
	{
		const struct sweep_gap *g = &vd.gaps[0].gap;
		double rungs_pct = (orr->rung.tg / rr->rung.tg - 1) * 100;

		assert_int_equal(g->outliers, 1);
		assert_false(g->sums_wider);
		assert_true(g->decided);
		/* the figure, the sums and the rungs' speeds tell one story */
		assert_true(g->tg_pct > 15 && g->tg_pct < 20);
		assert_true(g->sums_pct > 15 && g->sums_pct < 20);
		assert_true(fabs(rungs_pct - g->tg_pct) < 1);
		assert_true(vd.gaps[0].why.split);
		assert_int_equal(vd.gaps[0].why.cause, SWEEP_CAUSE_HOST);
		assert_int_equal(sweep_text_gap(g, "ours", "llama.cpp", msg, sizeof(msg)), 0);
		assert_non_null(strstr(msg, "ours decodes"));
		assert_non_null(strstr(msg, "faster than llama.cpp at n_max=2 (1 outlier instance "
					    "left out)"));
		assert_non_null(strstr(msg, "cheaper cycles"));
		assert_null(strstr(msg, "do not explain"));
	}
	series_verdict_release(&vd);
	/* A reference that has a series, and one that has none. */
	view.ref = "llama.cpp";
	assert_int_equal(series_decide(&view, &set, SWEEP_TOLERANCE_PCT, &vd), 0);
	assert_false(vd.ref_missing);
	series_verdict_release(&vd);
	view.ref = "nosuch";
	assert_int_equal(series_decide(&view, &set, SWEEP_TOLERANCE_PCT, &vd), 0);
	assert_true(vd.ref_missing);
	series_verdict_release(&vd);
	series_set_release(&set);
	pools_free(pools, np);

	/* Three runs a side (the fourth round of each left off): 263.8 against 170
	 * and 168 is one of three, no clear majority. Nothing is screened out, and
	 * the gap decides nothing. */
	{
		struct run *three[6] = { &runs[0], &runs[1], &runs[2], &runs[4], &runs[5], &runs[6] };
		struct run sub[6];

		for (i = 0; i < 6; i++)
			sub[i] = *three[i];
		pool_runs(sub, 6, &pools, &np);
		assert_int_equal(series_assemble(pools, np, SWEEP_TOLERANCE_PCT, &set), 0);
		ref = !strcmp(set.v[0].engine, "llama.cpp") ? &set.v[0] : &set.v[1];
		rr = &ref->rungs[0];
		assert_int_equal(rr->n_runs, 3);
		assert_int_equal(rr->n_screened, 0);
		view.ref = NULL;
		assert_int_equal(series_decide(&view, &set, SWEEP_TOLERANCE_PCT, &vd), 0);
		assert_int_equal(vd.n_gaps, 1);
		assert_int_equal(vd.gaps[0].gap.reason, ESTIMATE_REASON_DISAGREE);
		assert_int_equal(vd.gaps[0].gap.outliers, 0);
		assert_false(vd.gaps[0].gap.decided);
		assert_int_equal(sweep_text_gap(&vd.gaps[0].gap, "ours", "llama.cpp", msg, sizeof(msg)), 0);
		assert_null(strstr(msg, "faster"));
		series_verdict_release(&vd);
		series_set_release(&set);
		pools_free(pools, np);
	}
	runs_release(runs, 8);
}

/* A gap is compare's estimate of the cell, exactly: three rounds of one
 * --until-decided batch (--max-rounds 6) in alternating engine order, each run's
 * requests keyed. The gap's figure and interval equal estimate_cell() over the
 * same instances as parity builds them (keys, start order, the sequential
 * design), and differ from the plain estimate on run speeds, which neither
 * balances the order nor pays for the looks. */
static void test_series_gap_is_compares(void **state)
{
	static const double o_v[3][3] = { { 200, 204, 198 }, { 190, 193, 188 }, { 209, 211, 207 } };
	static const double r_v[3][3] = { { 180, 183, 179 }, { 186, 184, 189 }, { 181, 182, 178 } };
	static const int64_t keys[6] = { 1, 1, 2, 1, 3, 1 };
	/* rounds 1 and 3: ours starts; round 2: llama.cpp does */
	static const char *const o_at[3] = { "2026-12-01T10:00:00Z", "2026-12-01T10:03:00Z",
					     "2026-12-01T10:04:00Z" };
	static const char *const r_at[3] = { "2026-12-01T10:01:00Z", "2026-12-01T10:02:00Z",
					     "2026-12-01T10:05:00Z" };
	struct run runs[6];
	struct pool *pools;
	struct series_set set;
	struct series_verdict vd;
	struct series_view view = { NULL, NULL };
	struct run_value ov[3][3], rv[3][3];
	struct estimate_unit uo[3], ur[3];
	struct estimate_params p;
	struct estimate e;
	struct verdict plain;
	const struct sweep_gap *g;
	const struct series *ours, *ref;
	size_t i, k, np;

	(void)state;
	memset(uo, 0, sizeof(uo));
	memset(ur, 0, sizeof(ur));
	for (i = 0; i < 3; i++) {
		run_of(&runs[i], "ours", "ours", "draft", 2, o_v[i], 3, 1.5);
		run_of(&runs[3 + i], "llama.cpp", "upstream", "draft", 2, r_v[i], 3, 1.5);
		fx_values(&runs[i], RUN_TG, o_v[i], 3, keys);
		fx_values(&runs[3 + i], RUN_TG, r_v[i], 3, keys);
		runs[i].round = runs[3 + i].round = (int64_t)i + 1;
		fx_set(&runs[i].batch, "b1");
		fx_set(&runs[3 + i].batch, "b1");
		runs[i].looks_to = runs[3 + i].looks_to = 6;
		fx_set(&runs[i].started_at, o_at[i]);
		fx_set(&runs[3 + i].started_at, r_at[i]);
		/* The oracle's instances, built apart from the runs. */
		for (k = 0; k < 3; k++) {
			ov[i][k] = (struct run_value){ keys[2 * k], keys[2 * k + 1], o_v[i][k] };
			rv[i][k] = (struct run_value){ keys[2 * k], keys[2 * k + 1], r_v[i][k] };
		}
		uo[i] = (struct estimate_unit){ .vals = ov[i], .n = 3, .value = NAN,
						.round = (int64_t)i + 1, .batch = "b1",
						.started_at = o_at[i], .uuid = "u" };
		ur[i] = (struct estimate_unit){ .vals = rv[i], .n = 3, .value = NAN,
						.round = (int64_t)i + 1, .batch = "b1",
						.started_at = r_at[i], .uuid = "u" };
	}
	pool_runs(runs, 6, &pools, &np);
	assert_int_equal(series_assemble(pools, np, SWEEP_TOLERANCE_PCT, &set), 0);
	assert_int_equal(series_decide(&view, &set, SWEEP_TOLERANCE_PCT, &vd), 0);
	assert_int_equal(vd.n_gaps, 1);
	g = &vd.gaps[0].gap;

	/* The oracle: the estimate as parity makes it (analyze/parity.c judge()). */
	estimate_params_init(&p);
	p.band_pct = SWEEP_EQUAL_PCT;
	p.looks_to = 6;
	assert_int_equal(estimate_cell(uo, 3, ur, 3, &p, &e), 0);
	assert_int_equal(e.n_ours_first, 2);
	assert_int_equal(e.n_vs_first, 1);
	check_near(g->tg_pct, e.v.delta_pct, 1e-12, "the figure is compare's");
	check_near(g->ci_lo_pct, e.v.ci_lo_pct, 1e-12, "its interval's lower end");
	check_near(g->ci_hi_pct, e.v.ci_hi_pct, 1e-12, "its upper end");
	check_near(g->mde_pct, e.v.mde_pct, 1e-12, "its mde");
	assert_int_equal(g->decided, e.v.decided);
	assert_int_equal(g->reason, ESTIMATE_REASON_NONE);
	assert_int_equal(g->outliers, 0);
	assert_false(g->sums_wider);

	/* The plain estimate on run speeds reads otherwise: the test sees the
	 * difference. */
	ref = !strcmp(set.v[0].engine, "llama.cpp") ? &set.v[0] : &set.v[1];
	ours = ref == &set.v[0] ? &set.v[1] : &set.v[0];
	{
		struct sweep_rung a = ref->rungs[0].rung, b = ours->rungs[0].rung;

		a.units = b.units = NULL;
		a.pool = b.pool = NULL;
		assert_int_equal(sweep_step_interval(&a, &b, 0, SWEEP_EQUAL_PCT, &plain), 0);
	}
	assert_true(fabs(plain.delta_pct - g->tg_pct) > 0.1);
	assert_true(plain.ci_hi_pct - plain.ci_lo_pct < g->ci_hi_pct - g->ci_lo_pct);
	estimate_release(&e);

	/* All three rounds started by ours: reported, decided nothing, and said why. */
	for (i = 0; i < 3; i++)
		fx_set(&runs[3 + i].started_at, "2026-12-01T11:00:00Z");
	series_verdict_release(&vd);
	series_set_release(&set);
	assert_int_equal(series_assemble(pools, np, SWEEP_TOLERANCE_PCT, &set), 0);
	assert_int_equal(series_decide(&view, &set, SWEEP_TOLERANCE_PCT, &vd), 0);
	assert_int_equal(vd.n_gaps, 1);
	g = &vd.gaps[0].gap;
	assert_int_equal(g->reason, ESTIMATE_REASON_ORDER);
	assert_false(g->decided);
	assert_true(isfinite(g->ci_lo_pct));
	{
		char msg[512];

		assert_int_equal(sweep_text_gap(g, "ours", "llama.cpp", msg, sizeof(msg)), 0);
		assert_non_null(strstr(msg, "decides nothing: every round started with the same "
					    "side"));
		assert_null(strstr(msg, "faster"));
	}

	/* Issue 37: the two engines decoded with different settled knobs (p_min
	 * 0.75 against 0.00): no gap line (nor shape step) is ever computed, and
	 * the verdict names the clash; a knob one side does not name clashes not. */
	for (i = 0; i < 3; i++) {
		fx_set(&runs[i].spec_settings, "n_min=0 p_min=0");
		fx_set(&runs[3 + i].spec_settings, "n_min=0 p_min=0.75");
	}
	series_verdict_release(&vd);
	series_set_release(&set);
	assert_int_equal(series_assemble(pools, np, SWEEP_TOLERANCE_PCT, &set), 0);
	assert_int_equal(series_decide(&view, &set, SWEEP_TOLERANCE_PCT, &vd), 0);
	assert_int_equal(vd.n_gaps, 0);
	assert_true(vd.clashed);
	assert_int_equal(vd.clash.n_max, 2);
	assert_string_equal(set.v[vd.clash.ours].engine, "ours");
	assert_string_equal(set.v[vd.clash.ref].engine, "llama.cpp");
	for (i = 0; i < set.n; i++)
		assert_int_equal(vd.n_shape[i], 0);
	for (i = 0; i < 3; i++)
		fx_set(&runs[3 + i].spec_settings, "n_min=0");
	series_verdict_release(&vd);
	series_set_release(&set);
	assert_int_equal(series_assemble(pools, np, SWEEP_TOLERANCE_PCT, &set), 0);
	assert_int_equal(series_decide(&view, &set, SWEEP_TOLERANCE_PCT, &vd), 0);
	assert_false(vd.clashed);
	assert_int_equal(vd.n_gaps, 1);
	series_verdict_release(&vd);
	series_set_release(&set);
	pools_free(pools, np);
	runs_release(runs, 6);
}

/* A gap of two pooled rungs is pool_estimate() of their pools, the cell's
 * stored floor included (the old gap estimated the rungs' instances without it,
 * so one instance a side never decided a gap). One run a side at n_max 2 of one
 * --until-decided batch (looks_to 6), its requests keyed, and the stored decode
 * floor on ours' face: the gap's figure, interval and mde are the estimate's,
 * whose level is the batch's sequential one and whose interval holds the floor;
 * the regression answer is the same interval's at the regression band. Without
 * the floor the same gap is a point that decides nothing. */
static void test_series_gap_floor(void **state)
{
	static const double o_v[4] = { 200, 204, 198, 201 }, r_v[4] = { 180, 183, 179, 182 };
	struct run runs[2];
	struct pool *pools;
	struct series_set set;
	struct sweep_gap g;
	struct estimate_params p;
	struct estimate e, reg;
	const struct series *ours, *ref;
	double alpha = estimate_look_alpha(6, VERDICT_ALPHA * ESTIMATE_SEQ_ALPHA_SHARE);
	size_t np, i;

	(void)state;
	run_of(&runs[0], "ours", "ours", "draft", 2, o_v, 4, 1.5);
	run_of(&runs[1], "llama.cpp", "upstream", "draft", 2, r_v, 4, 1.5);
	for (i = 0; i < 2; i++) {
		runs[i].round = 1;
		runs[i].looks_to = 6;
		fx_set(&runs[i].batch, "b1");
	}
	runs[0].floor_pct[RUN_TG] = 1.5;
	pool_runs(runs, 2, &pools, &np);
	assert_int_equal(np, 2);
	assert_int_equal(series_assemble(pools, np, SWEEP_TOLERANCE_PCT, &set), 0);
	assert_int_equal(set.n, 2);
	ref = !strcmp(set.v[0].engine, "llama.cpp") ? &set.v[0] : &set.v[1];
	ours = ref == &set.v[0] ? &set.v[1] : &set.v[0];
	assert_ptr_equal(ours->rungs[0].rung.pool, ours->rungs[0].pool);
	assert_int_equal(series_gap(ours, ref, 2, &g), 0);

	estimate_params_init(&p);
	p.band_pct = SWEEP_EQUAL_PCT;
	assert_int_equal(pool_estimate(ours->rungs[0].pool, ref->rungs[0].pool, RUN_TG, &p, &e,
				       NULL, NULL), 0);
	/* The oracle itself: the floor bounds its one pair, at the batch's level. */
	assert_int_equal(e.reason, ESTIMATE_REASON_NONE);
	assert_int_equal(e.v.method, VERDICT_METHOD_REQUESTS);
	assert_int_equal(e.v.bound, VERDICT_BOUND_NOISE);
	check_near(e.v.ci_level, 1 - 2 * alpha, 1e-12, "the sequential level");
	assert_true(e.v.ci_level > 0.90);
	/* The gap is the estimate. */
	check_near(g.tg_pct, e.v.delta_pct, 1e-12, "the figure");
	check_near(g.ci_lo_pct, e.v.ci_lo_pct, 1e-12, "the interval's lower end");
	check_near(g.ci_hi_pct, e.v.ci_hi_pct, 1e-12, "its upper end");
	check_near(g.mde_pct, e.v.mde_pct, 1e-12, "its mde");
	assert_int_equal(g.decided, e.v.decided);
	assert_int_equal(g.reason, ESTIMATE_REASON_NONE);
	p.band_pct = VERDICT_BAND_PCT;
	assert_int_equal(pool_estimate(ours->rungs[0].pool, ref->rungs[0].pool, RUN_TG, &p, &reg,
				       NULL, NULL), 0);
	assert_int_equal(g.regression, reg.v.regression);
	/* About +11% and a 1.5% floor: a decided gap, and no regression. */
	assert_true(g.decided);
	assert_true(g.ci_lo_pct > SWEEP_EQUAL_PCT);
	assert_int_equal(g.regression, VERDICT_REG_NO);
	estimate_release(&reg);
	estimate_release(&e);

	/* No floor, and runs stored without environment facts or an earlier batch:
	 * one instance a side has no evidence of its scatter, not even the default
	 * decode scatter's (analyze/estimate.h): the gap is a point that decides
	 * nothing (it was the default's interval). */
	runs[0].floor_pct[RUN_TG] = NAN;
	assert_int_equal(series_gap(ours, ref, 2, &g), 0);
	p.band_pct = SWEEP_EQUAL_PCT;
	assert_int_equal(pool_estimate(ours->rungs[0].pool, ref->rungs[0].pool, RUN_TG, &p, &e,
				       NULL, NULL), 0);
	assert_int_equal(e.reason, ESTIMATE_REASON_ONE_INSTANCE);
	assert_int_equal(e.v.bound, VERDICT_BOUND_BAND);
	assert_int_equal(g.reason, ESTIMATE_REASON_ONE_INSTANCE);
	assert_false(g.decided);
	check_near(g.tg_pct, e.v.delta_pct, 1e-12, "the figure");
	estimate_release(&e);
	series_set_release(&set);
	pools_free(pools, np);
	runs_release(runs, 2);
}

/* Rounds restart at 1 in every collect batch: two batches of rounds 1..3 on each
 * rung pair within their batch, each run once. Every pair falls exactly 6%, so
 * the interval collapses on -6%; pairing batch 2 of one rung with batch 1 of the
 * other would scatter it. */
static void test_sweep_rounds_per_batch(void **state)
{
	static const double a[6] = { 100, 110, 90, 130, 70, 105 };
	static const int64_t rounds[6] = { 1, 2, 3, 1, 2, 3 };
	static const char *const batch[6] = { "b1", "b1", "b1", "b2", "b2", "b2" };
	double b[6];
	struct sweep_rung r[2];
	struct sweep_report rep;
	int i;

	(void)state;
	for (i = 0; i < 6; i++)
		b[i] = a[i] * 0.94;
	pooled_rung(&r[0], 1, a, NULL, rounds, 6);
	pooled_rung(&r[1], 2, b, NULL, rounds, 6);
	r[0].batch_runs = r[1].batch_runs = batch;
	assert_int_equal(sweep_analyze(r, 2, 5, &rep), 0);
	assert_int_equal(rep.n_violations, 1);
	assert_int_equal(rep.violations[0].rounds, 6);
	assert_int_equal(rep.n_decided, 1);
	check_near(rep.violations[0].ci_lo_pct, -6, 1e-6, "per-batch lo");
	check_near(rep.violations[0].ci_hi_pct, -6, 1e-6, "per-batch hi");
	sweep_report_release(&rep);
}

/* A run of run_of() measured on host with this GPU. */
static void run_on(struct run *r, const char *engine, const char *role, int64_t n_max,
		   const double *tg, double tpc, const char *host, const char *gpu)
{
	run_of(r, engine, role, "draft", n_max, tg, 3, tpc);
	fx_set(&r->host, host);
	fx_set(&r->gpu, gpu);
}

/* One comparison is on one machine: ours' n_max=2 on another machine than its
 * n_max=1 falls -33%, which on one machine is a decided violation; across two it
 * is no violation, no anomaly and no pass (an across step, the shape undecided),
 * the speedup over a base of the other machine is none, and the shape step and
 * the gap against upstream (all on alpha) are across machines too: counted,
 * the first kept, refused unless the view goes across machines. A host that
 * records nothing tells nothing either way. */
static void test_series_across_machines(void **state)
{
	static const double t100[3] = { 100, 100, 100 }, t150[3] = { 150, 150, 150 };
	static const double t160[3] = { 160, 160, 160 }, t170[3] = { 170, 170, 170 };
	const double *up_tg[2] = { t160, t170 };
	const struct series_view all = { 0 }, across = { .across_machines = 1 };
	const char *beta[3] = { "beta", "alpha", "" };
	const char *gpu[3] = { "H100", "H200", "H200" };
	struct run runs[5];
	struct pool *pools;
	struct series_set set;
	struct series_verdict vd;
	const struct series *se;
	size_t np, k, n;

	(void)state;
	for (k = 0; k < 3; k++) {
		/* k 0: n_max=2 on beta; 1: all on alpha; 2: n_max=2's host unknown. */
		n = 0;
		run_on(&runs[n++], "ours", "ours", INT64_MIN, t100, 0, "alpha", "H200");
		run_on(&runs[n++], "ours", "ours", 1, t150, 1.5, "alpha", "H200");
		run_on(&runs[n++], "ours", "ours", 2, t100, 2, beta[k], gpu[k]);
		for (size_t j = 0; j < 2; j++)
			run_on(&runs[n++], "up", "upstream", (int64_t)j + 1, up_tg[j], 1.5 + j / 2.0,
			       "alpha", "H200");
		pool_runs(runs, n, &pools, &np);
		assert_int_equal(series_assemble(pools, np, SWEEP_TOLERANCE_PCT, &set), 0);
		assert_int_equal(set.n, 2);
		se = &set.v[0];
		assert_string_equal(se->engine, "ours");
		assert_int_equal(se->n_rungs, 3);
		assert_int_equal(series_decide(&all, &set, SWEEP_TOLERANCE_PCT, &vd), 0);
		if (k) {
			/* One machine (or one that says nothing): checked as always. */
			assert_int_equal(se->report.n_across, 0);
			assert_int_equal(se->report.n_violations, 1);
			assert_int_equal(se->report.n_decided, 1);
			assert_int_equal(se->report.shape, SWEEP_NOT_MONOTONE);
			check_near(se->rungs[2].point.speedup, 1, 1e-9, "speedup");
			assert_int_equal(vd.n_across, 0);
			assert_false(vd.machines_refused);
			assert_int_equal(vd.n_violations, 1);
			for (size_t i = 0; i < vd.n_gaps; i++)
				assert_null(vd.gaps[i].gap.machine_a);
			series_verdict_release(&vd);
			series_set_release(&set);
			pools_free(pools, np);
			runs_release(runs, n);
			continue;
		}
		assert_int_equal(se->report.n_violations, 0);
		assert_int_equal(se->report.n_anomalies, 0);
		assert_int_equal(se->report.n_across, 1);
		assert_int_equal(se->report.across[0].from_n_max, 1);
		assert_int_equal(se->report.across[0].to_n_max, 2);
		assert_string_equal(se->report.across[0].machine_a->host, "alpha");
		assert_string_equal(se->report.across[0].machine_b->host, "beta");
		check_near(se->report.across[0].change_pct, NA, 0, "no change across machines");
		assert_int_equal(se->report.shape, SWEEP_SHAPE_UNDECIDED);
		check_near(se->rungs[1].point.speedup, 1.5, 1e-9, "speedup on one machine");
		check_near(se->rungs[2].point.speedup, NA, 0, "none over another machine's base");
		assert_false(sweep_rungs_same_machine(&se->sweep[1], &se->sweep[2], NULL, NULL));
		assert_true(sweep_rungs_same_machine(&se->sweep[0], &se->sweep[1], NULL, NULL));

		/* ours' step, ours' and up's shape steps 1 -> 2, the gap at n_max=2. */
		assert_int_equal(vd.n_violations, 0);
		assert_int_equal(vd.n_across, 4);
		assert_true(vd.machines_refused);
		assert_int_equal(vd.across.ours, 0);
		assert_int_equal(vd.across.ref, 0);
		assert_int_equal(vd.across.from_n_max, 1);
		assert_int_equal(vd.across.to_n_max, 2);
		assert_ptr_equal(vd.across.cell, pool_face(se->rungs[2].pool));
		assert_int_equal(vd.n_shape[0], 1);
		assert_non_null(vd.shape[0][0].step.machine_a);
		assert_int_equal(vd.shape[0][0].step.decided, 0);
		check_near(vd.shape[0][0].step.change_pct, NA, 0, "shape: no change");
		assert_int_equal(vd.n_gaps, 2);
		assert_null(vd.gaps[0].gap.machine_a);
		assert_int_equal(vd.gaps[1].n_max, 2);
		assert_string_equal(vd.gaps[1].gap.machine_a->host, "beta");
		assert_string_equal(vd.gaps[1].gap.machine_b->host, "alpha");
		assert_int_equal(vd.gaps[1].gap.decided, 0);
		check_near(vd.gaps[1].gap.tg_pct, NA, 0, "no gap across machines");
		assert_int_equal(vd.gaps[1].why.cause, SWEEP_CAUSE_NONE);
		series_verdict_release(&vd);
		assert_int_equal(series_decide(&across, &set, SWEEP_TOLERANCE_PCT, &vd), 0);
		assert_int_equal(vd.n_across, 4);
		assert_false(vd.machines_refused);
		series_verdict_release(&vd);
		series_set_release(&set);
		pools_free(pools, np);
		runs_release(runs, n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep_analyze),
		cmocka_unit_test(test_sweep_small_and_degenerate),
		cmocka_unit_test(test_sweep_gap_explain),
		cmocka_unit_test(test_sweep_gap_edges),
		cmocka_unit_test(test_sweep_shape),
		cmocka_unit_test(test_sweep_gap_why),
		cmocka_unit_test(test_sweep_gap_undrafted),
		cmocka_unit_test(test_sweep_rung_is_base),
		cmocka_unit_test(test_series_assemble),
		cmocka_unit_test(test_series_view),
		cmocka_unit_test(test_sweep_pooled_interval),
		cmocka_unit_test(test_sweep_rounds_per_batch),
		cmocka_unit_test(test_sweep_dip_decided),
		cmocka_unit_test(test_sweep_gap_undecided),
		cmocka_unit_test(test_sweep_gap_outlier_not_explained),
		cmocka_unit_test(test_series_screens_outlier),
		cmocka_unit_test(test_series_gap_is_compares),
		cmocka_unit_test(test_series_gap_floor),
		cmocka_unit_test(test_series_across_machines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
