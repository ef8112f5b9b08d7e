/* test_estimate.c: analyze/estimate, the one estimate of a cell: rounds of
 * instance medians, the order of a round's starts entering the point, outlier
 * instances left out by the robust rule, one instance a side deciding only with
 * a stored floor, Welch for unpaired instances, each method's numbers by hand
 * (rounds with history, Welch, one a side), and the sequential per-look level
 * of an --until-decided batch. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analyze/estimate.h"
#include "analyze/stats.h"

/* An instance of 4 requests around v (a spread of +-0.5%), in round r, started
 * at the given time within batch "b". */
struct inst {
	double v[4];
	struct estimate_unit u;
};

static void inst(struct inst *x, double v, int64_t round, const char *started)
{
	x->v[0] = v * 0.995;
	x->v[1] = v;
	x->v[2] = v;
	x->v[3] = v * 1.005;
	memset(&x->u, 0, sizeof(x->u));
	x->u.v = x->v;
	x->u.n = 4;
	x->u.value = NAN;
	x->u.round = round;
	x->u.batch = "b";
	x->u.started_at = started;
	x->u.uuid = started;
}

static void units(struct inst *x, size_t n, struct estimate_unit *u)
{
	for (size_t i = 0; i < n; i++)
		u[i] = x[i].u;
}

/* Three rounds, ours first in two: a +3% edge for whoever starts first shows as
 * +5% in those rounds and -1% in the other. The point takes each order group at
 * half weight (+2%), not the plain mean (+3%); the centres' ratio is the point. */
static void test_estimate_order_enters(void **state)
{
	struct inst a[3], b[3];
	struct estimate_unit ua[3], ub[3];
	struct estimate_params p;
	struct estimate e;
	double want = (exp((log(1.05) + log(0.99)) / 2) - 1) * 100;

	(void)state;
	inst(&a[0], 105, 1, "t01");
	inst(&b[0], 100, 1, "t02");
	inst(&b[1], 100, 2, "t03");
	inst(&a[1], 99, 2, "t04");
	inst(&a[2], 105, 3, "t05");
	inst(&b[2], 100, 3, "t06");
	units(a, 3, ua);
	units(b, 3, ub);
	estimate_params_init(&p);
	assert_int_equal(estimate_cell(ua, 3, ub, 3, &p, &e), 0);
	assert_int_equal(e.n_rounds, 3);
	assert_int_equal(e.n_ours_first, 2);
	assert_int_equal(e.n_vs_first, 1);
	assert_int_equal(e.v.method, VERDICT_METHOD_ROUNDS);
	assert_true(fabs(e.v.delta_pct - want) < 1e-9);
	assert_true(fabs((e.ours_center / e.vs_center - 1) * 100 - e.v.delta_pct) < 1e-9);
	assert_int_equal(e.reason, ESTIMATE_REASON_NONE);
	estimate_release(&e);
}

/* Every round started with ours: the estimate is shown and decides nothing,
 * however tight it is. Across batches the order is not the collector's and
 * does not count. */
static void test_estimate_order_unbalanced(void **state)
{
	struct inst a[3], b[3];
	struct estimate_unit ua[3], ub[3];
	struct estimate_params p;
	struct estimate e;
	static const char *ta[3] = { "t1", "t3", "t5" }, *tb[3] = { "t2", "t4", "t6" };

	(void)state;
	for (int i = 0; i < 3; i++) {
		inst(&a[i], 80, i + 1, ta[i]);
		inst(&b[i], 100, i + 1, tb[i]);
	}
	units(a, 3, ua);
	units(b, 3, ub);
	estimate_params_init(&p);
	assert_int_equal(estimate_cell(ua, 3, ub, 3, &p, &e), 0);
	assert_int_equal(e.reason, ESTIMATE_REASON_ORDER);
	assert_int_equal(e.v.regression, VERDICT_REG_UNDECIDED);
	assert_int_equal(e.v.decided, 0);
	assert_true(fabs(e.v.delta_pct + 20) < 1e-9);
	estimate_release(&e);
	/* by_batch is gone: vs' runs now come from a batch ours does not hold
	 * (a baseline frozen from an earlier batch), and estimate_rounds() pairs
	 * those by round number alone, as by_batch = 0 did before. */
	for (int i = 0; i < 3; i++)
		ub[i].batch = "other";
	assert_int_equal(estimate_cell(ua, 3, ub, 3, &p, &e), 0);
	assert_int_equal(e.reason, ESTIMATE_REASON_NONE);
	assert_int_equal(e.v.regression, VERDICT_REG_YES);
	estimate_release(&e);
}

/* A busy host's instance (66 tok/s beside 634, 691 and 700) is left out and
 * named: three of four agree, a clear majority; the others' ordinary spread
 * (592, 756, 939) is not. */
static void test_estimate_outlier(void **state)
{
	struct inst a[4], b[4];
	struct estimate_unit ua[4], ub[4];
	struct estimate_params p;
	struct estimate e;

	(void)state;
	inst(&a[0], 66.1, 1, "t1");
	inst(&b[0], 650, 1, "t2");
	inst(&b[1], 640, 2, "t3");
	inst(&a[1], 634.4, 2, "t4");
	inst(&a[2], 691.1, 3, "t5");
	inst(&b[2], 660, 3, "t6");
	inst(&b[3], 655, 4, "t7");
	inst(&a[3], 700, 4, "t8");
	units(a, 4, ua);
	units(b, 4, ub);
	estimate_params_init(&p);
	assert_int_equal(estimate_cell(ua, 4, ub, 4, &p, &e), 0);
	assert_int_equal(e.reason, ESTIMATE_REASON_NONE);
	assert_int_equal(e.n_out_ours, 1);
	assert_int_equal(e.out_ours[0], 0);
	assert_int_equal(e.n_out_vs, 0);
	assert_int_equal(e.n_rounds, 3);
	assert_true(e.ours_center > 600);
	estimate_release(&e);
	/* Without the robust rule the 66 pulls the centre down by far. */
	p.robust = 0;
	assert_int_equal(estimate_cell(ua, 4, ub, 4, &p, &e), 0);
	assert_int_equal(e.n_out_ours, 0);
	assert_true(e.ours_center < 400);
	estimate_release(&e);
	p.robust = 1;
	inst(&a[0], 592, 1, "t1");
	inst(&a[1], 756, 2, "t4");
	inst(&a[2], 939, 3, "t5");
	inst(&a[3], 800, 4, "t8");
	units(a, 4, ua);
	assert_int_equal(estimate_cell(ua, 4, ub, 4, &p, &e), 0);
	assert_int_equal(e.n_out_ours, 0);
	assert_int_equal(e.reason, ESTIMATE_REASON_NONE);
	estimate_release(&e);
}

/* Two of three instances 3x slower: which group measured the engine is not
 * known, so nothing is left out and nothing decided, however large the point
 * (the screen once left the good one out and answered "yes, -66.9%"). One odd
 * instance of three is no clear majority either. */
static void test_estimate_outlier_no_flip(void **state)
{
	struct inst a[3], b[3];
	struct estimate_unit ua[3], ub[3];
	struct estimate_params p;
	struct estimate e;
	char bad[3] = { 0 };
	double lg[3], med;
	int disagree = 0;

	(void)state;
	inst(&a[0], 650, 1, "t1");
	inst(&b[0], 650, 1, "t2");
	inst(&b[1], 640, 2, "t3");
	inst(&a[1], 215, 2, "t4");
	inst(&a[2], 212, 3, "t5");
	inst(&b[2], 660, 3, "t6");
	units(a, 3, ua);
	units(b, 3, ub);
	estimate_params_init(&p);
	assert_int_equal(estimate_cell(ua, 3, ub, 3, &p, &e), 0);
	assert_int_equal(e.reason, ESTIMATE_REASON_DISAGREE);
	assert_string_equal(estimate_reason_name(e.reason), "instances-disagree");
	assert_int_equal(e.n_out_ours, 0);
	assert_int_equal(e.n_rounds, 3);
	assert_int_equal(e.v.decided, 0);
	assert_int_equal(e.v.regression, VERDICT_REG_UNDECIDED);
	assert_int_equal(e.v.kind, VERDICT_UNDECIDED);
	estimate_release(&e);
	for (int i = 0; i < 3; i++)
		lg[i] = estimate_unit_log(&ua[i]);
	assert_int_equal(estimate_outliers(lg, 3, bad, &med, &disagree), 0);
	assert_int_equal(disagree, 1);
	assert_int_equal(bad[0] | bad[1] | bad[2], 0);
	/* One slow of three: still no clear majority. */
	inst(&a[1], 640, 2, "t4");
	units(a, 3, ua);
	assert_int_equal(estimate_cell(ua, 3, ub, 3, &p, &e), 0);
	assert_int_equal(e.reason, ESTIMATE_REASON_DISAGREE);
	assert_int_equal(e.v.decided, 0);
	estimate_release(&e);
}

/* One instance a side: the requests' interval cannot see the scatter between
 * instances. Widened by a stored floor it decides what lies beyond it. The
 * metric's default scatter (15% prefill) serves only with evidence: both
 * instances kept environment facts of a quiet machine and this machine's
 * earlier batches scattered within it; then -65% is yes, -1.5% and -10% stay
 * undecided. Without facts (an import), or without that history, or with a
 * history that scattered more than the default, nothing is decided. */
static void test_estimate_one_instance(void **state)
{
	struct inst a, b;
	struct estimate_params p;
	struct estimate e;
	struct estimate_history quiet = { 9 * 0.05 * 0.05, 9, 2, 0, 0 }; /* sd 5% */
	struct estimate_history loud = { 9 * 0.30 * 0.30, 9, 2, 0, 0 }; /* sd 30% */

	(void)state;
	inst(&a, 90, INT64_MIN, NULL);
	inst(&b, 100, INT64_MIN, NULL);
	estimate_params_init(&p);
	assert_int_equal(estimate_cell(&a.u, 1, &b.u, 1, &p, &e), 0);
	assert_int_equal(e.v.method, VERDICT_METHOD_REQUESTS);
	assert_int_equal(e.reason, ESTIMATE_REASON_ONE_INSTANCE);
	assert_int_equal(e.v.regression, VERDICT_REG_UNDECIDED);
	assert_true(e.v.ci_hi_pct < -2); /* shown, but not trusted */
	assert_true(fabs(e.v.delta_pct + 10) < 1e-9);
	assert_true(isnan(e.v.scatter_pct));
	estimate_release(&e);
	p.noise_pct = 1.0;
	assert_int_equal(estimate_cell(&a.u, 1, &b.u, 1, &p, &e), 0);
	assert_int_equal(e.reason, ESTIMATE_REASON_NONE);
	assert_int_equal(e.v.bound, VERDICT_BOUND_NOISE);
	assert_int_equal(e.v.regression, VERDICT_REG_YES);
	assert_true(fabs(e.v.scatter_pct - 1.0) < 1e-12);
	estimate_release(&e);
	p.noise_pct = 10.0;
	assert_int_equal(estimate_cell(&a.u, 1, &b.u, 1, &p, &e), 0);
	assert_int_equal(e.v.regression, VERDICT_REG_UNDECIDED);
	estimate_release(&e);

	/* No floor, the default prefill scatter, -65% (-ub 64 on an H200): without
	 * facts and history (a llama-bench file, a hand-made table) it is shown,
	 * not decided. */
	p.noise_pct = 0;
	p.scatter_pct = ESTIMATE_SCATTER_PP_PCT;
	inst(&a, 35, INT64_MIN, NULL);
	assert_int_equal(estimate_cell(&a.u, 1, &b.u, 1, &p, &e), 0);
	assert_int_equal(e.reason, ESTIMATE_REASON_ONE_INSTANCE);
	assert_int_equal(e.v.regression, VERDICT_REG_UNDECIDED);
	assert_true(fabs(e.v.delta_pct + 65) < 1e-9);
	estimate_release(&e);
	/* Facts of a quiet machine, but no earlier batch: still nothing. */
	a.u.facts = b.u.facts = 1;
	assert_int_equal(estimate_cell(&a.u, 1, &b.u, 1, &p, &e), 0);
	assert_int_equal(e.reason, ESTIMATE_REASON_ONE_INSTANCE);
	estimate_release(&e);
	/* Earlier batches that scattered 30%, twice the default: nothing. */
	p.hist = &loud;
	assert_int_equal(estimate_cell(&a.u, 1, &b.u, 1, &p, &e), 0);
	assert_int_equal(e.reason, ESTIMATE_REASON_ONE_INSTANCE);
	estimate_release(&e);
	/* A busy machine's facts on one side: spoiled, not decided. */
	p.hist = &quiet;
	a.u.env = 1;
	assert_int_equal(estimate_cell(&a.u, 1, &b.u, 1, &p, &e), 0);
	assert_int_equal(e.v.regression, VERDICT_REG_SPOILED);
	estimate_release(&e);
	a.u.env = 0;
	/* Facts and a history within the default: decided as before. */
	assert_int_equal(estimate_cell(&a.u, 1, &b.u, 1, &p, &e), 0);
	assert_int_equal(e.reason, ESTIMATE_REASON_NONE);
	assert_int_equal(e.v.bound, VERDICT_BOUND_DEFAULT);
	assert_string_equal(verdict_bound_name(e.v.bound), "default");
	assert_true(fabs(e.v.scatter_pct - ESTIMATE_SCATTER_PP_PCT) < 1e-12);
	assert_int_equal(e.v.regression, VERDICT_REG_YES);
	assert_int_equal(e.v.kind, VERDICT_SLOWER);
	assert_int_equal(e.v.decided, 1);
	estimate_release(&e);
	/* -10% stays open against it. */
	inst(&a, 90, INT64_MIN, NULL);
	a.u.facts = 1;
	assert_int_equal(estimate_cell(&a.u, 1, &b.u, 1, &p, &e), 0);
	assert_int_equal(e.v.bound, VERDICT_BOUND_DEFAULT);
	assert_int_equal(e.v.regression, VERDICT_REG_UNDECIDED);
	estimate_release(&e);
	/* +55% decode against the default decode scatter: no regression. */
	inst(&a, 155, INT64_MIN, NULL);
	a.u.facts = 1;
	p.scatter_pct = ESTIMATE_SCATTER_TG_PCT;
	assert_int_equal(estimate_cell(&a.u, 1, &b.u, 1, &p, &e), 0);
	assert_int_equal(e.v.regression, VERDICT_REG_NO);
	assert_int_equal(e.v.kind, VERDICT_FASTER);
	estimate_release(&e);
	/* -1.5%, and a +-2% parity claim, stay open. */
	inst(&a, 98.5, INT64_MIN, NULL);
	a.u.facts = 1;
	assert_int_equal(estimate_cell(&a.u, 1, &b.u, 1, &p, &e), 0);
	assert_int_equal(e.v.regression, VERDICT_REG_UNDECIDED);
	assert_int_equal(e.v.kind, VERDICT_UNDECIDED);
	assert_int_equal(e.v.decided, 0);
	estimate_release(&e);
}

/* One instance of ours, ten of vs scattering +-30% (the case): the one
 * pairs with its round-1 partner, not vs's newest, and vs's own spread is the
 * scatter: -29% against the newest was "yes"; now the round's ratio (-2%) is
 * judged against a 30%-scale spread and stays open. */
static void test_estimate_spread(void **state)
{
	static const double vs[10] = { 100, 140, 75, 130, 80, 135, 70, 120, 90, 141 };
	static const char *const t[11] = { "t00", "t01", "t02", "t03", "t04", "t05", "t06",
					   "t07", "t08", "t09", "t10" };
	struct inst a, b[10];
	struct estimate_unit ub[10];
	struct estimate_params p;
	struct estimate e;

	(void)state;
	inst(&a, 98, 1, "t10");
	for (int i = 0; i < 10; i++)
		inst(&b[i], vs[i], i + 1, t[i]);
	units(b, 10, ub);
	estimate_params_init(&p);
	assert_int_equal(estimate_cell(&a.u, 1, ub, 10, &p, &e), 0);
	assert_int_equal(e.v.method, VERDICT_METHOD_SPREAD);
	assert_string_equal(verdict_method_name(e.v.method), "spread");
	assert_true(fabs(e.v.delta_pct + 2) < 1e-9); /* against round 1's 100 */
	assert_true(e.v.scatter_pct > 30);
	assert_int_equal(e.v.regression, VERDICT_REG_UNDECIDED);
	estimate_release(&e);
	/* A quiet several side (+-1%) decides a -30% single instance. */
	for (int i = 0; i < 10; i++)
		inst(&b[i], 100 + (i % 3) - 1, i + 1, t[i]);
	units(b, 10, ub);
	inst(&a, 70, 1, "t10");
	assert_int_equal(estimate_cell(&a.u, 1, ub, 10, &p, &e), 0);
	assert_int_equal(e.v.method, VERDICT_METHOD_SPREAD);
	assert_int_equal(e.v.regression, VERDICT_REG_YES);
	estimate_release(&e);
}

/* Ten rounds of ours and vs about 1% apart each. Ours' slow starts (3x slower)
 * are an answer, not outliers: two of them with vs clean answer intermittent
 * (kind and regression, the gate's outcome), where the screen answered "no";
 * one holds the "no" open (one-slow-instance); a host glitch on each side, or
 * a slow start of vs, is left out and answered as before; ours far faster is
 * no regression. */
static void test_estimate_intermittent(void **state)
{
	static const double jit[10] = { 0.004, -0.006, 0.002, 0.008, -0.003, 0.001, -0.007,
					0.005, -0.002, 0.000 };
	static const char *const t[20] = { "t00", "t01", "t02", "t03", "t04", "t05", "t06",
					   "t07", "t08", "t09", "t10", "t11", "t12", "t13",
					   "t14", "t15", "t16", "t17", "t18", "t19" };
	struct inst a[10], b[10];
	struct estimate_unit ua[10], ub[10];
	struct estimate_params p;
	struct estimate e;
	int i;

	(void)state;
	estimate_params_init(&p);
	for (i = 0; i < 10; i++) {
		inst(&a[i], 100 * exp(jit[i]), i + 1, t[2 * i + (i % 2)]);
		inst(&b[i], 100 * exp(-jit[9 - i]), i + 1, t[2 * i + 1 - (i % 2)]);
	}
	units(a, 10, ua);
	units(b, 10, ub);
	assert_int_equal(estimate_cell(ua, 10, ub, 10, &p, &e), 0);
	assert_int_equal(e.v.regression, VERDICT_REG_NO);
	assert_int_equal(e.v.slow_ours, 0);
	estimate_release(&e);
	/* None in this batch, but an earlier batch on this machine had a slow start
	 * of ours and none of vs's: the "no" is held open (slow-instance-earlier),
	 * never intermittent; with a glitch of vs there too, "no" as before. */
	{
		struct estimate_history h = { 0, 0, 1, 0, 1 };

		p.hist = &h;
		assert_int_equal(estimate_cell(ua, 10, ub, 10, &p, &e), 0);
		assert_int_equal(e.v.regression, VERDICT_REG_UNDECIDED);
		assert_int_equal(e.reason, ESTIMATE_REASON_SLOW_EARLIER);
		assert_string_equal(estimate_reason_name(e.reason), "slow-instance-earlier");
		assert_int_equal(e.v.slow_ours, 0);
		estimate_release(&e);
		h.slow_ours = 3;
		assert_int_equal(estimate_cell(ua, 10, ub, 10, &p, &e), 0);
		assert_int_equal(e.v.regression, VERDICT_REG_UNDECIDED);
		estimate_release(&e);
		h.out_vs = 1;
		assert_int_equal(estimate_cell(ua, 10, ub, 10, &p, &e), 0);
		assert_int_equal(e.v.regression, VERDICT_REG_NO);
		assert_int_equal(e.reason, ESTIMATE_REASON_NONE);
		estimate_release(&e);
		p.hist = NULL;
	}
	/* One slow start of ours: not yet told from a glitch, but no "no". */
	ua[3].value = 100.0 / 3;
	assert_int_equal(estimate_cell(ua, 10, ub, 10, &p, &e), 0);
	assert_int_equal(e.n_out_ours, 1);
	assert_int_equal(e.v.slow_ours, 1);
	assert_int_equal(e.reason, ESTIMATE_REASON_SLOW_ONCE);
	assert_string_equal(estimate_reason_name(e.reason), "one-slow-instance");
	assert_int_equal(e.v.regression, VERDICT_REG_UNDECIDED);
	assert_int_equal(e.v.decided, 0);
	estimate_release(&e);
	/* Two: intermittent, failed by the gate. */
	ua[7].value = 100.0 / 3;
	assert_int_equal(estimate_cell(ua, 10, ub, 10, &p, &e), 0);
	assert_int_equal(e.n_out_ours, 2);
	assert_int_equal(e.v.slow_ours, 2);
	assert_int_equal(e.v.regression, VERDICT_REG_INTERMITTENT);
	assert_int_equal(e.v.kind, VERDICT_INTERMITTENT);
	assert_string_equal(verdict_regression_name(e.v.regression), "intermittent");
	assert_string_equal(verdict_kind_name(e.v.kind), "intermittent");
	assert_int_equal(verdict_gate_outcome_of(&e.v), VERDICT_GATE_INTERMITTENT);
	assert_string_equal(verdict_gate_outcome_name(VERDICT_GATE_INTERMITTENT), "intermittent");
	assert_int_equal(e.v.decided, 0);
	estimate_release(&e);
	/* vs glitched in an earlier batch on this machine: a host that glitches,
	 * not intermittent. */
	{
		struct estimate_history h = { 0, 0, 0, 1, 0 };

		p.hist = &h;
		assert_int_equal(estimate_cell(ua, 10, ub, 10, &p, &e), 0);
		assert_int_equal(e.v.regression, VERDICT_REG_NO);
		estimate_release(&e);
		p.hist = NULL;
	}
	/* An environment finding still spoils it. */
	ua[0].env = 1;
	assert_int_equal(estimate_cell(ua, 10, ub, 10, &p, &e), 0);
	assert_int_equal(e.v.regression, VERDICT_REG_SPOILED);
	estimate_release(&e);
	ua[0].env = 0;
	/* A slow instance of vs too: the host glitched, left out as before. */
	ub[5].value = 100.0 / 3;
	assert_int_equal(estimate_cell(ua, 10, ub, 10, &p, &e), 0);
	assert_int_equal(e.n_out_vs, 1);
	assert_int_equal(e.v.regression, VERDICT_REG_NO);
	estimate_release(&e);
	/* A/A, one glitch on each side: not intermittent, "no" as before. */
	ua[7].value = NAN;
	assert_int_equal(estimate_cell(ua, 10, ub, 10, &p, &e), 0);
	assert_int_equal(e.n_out_ours, 1);
	assert_int_equal(e.n_out_vs, 1);
	assert_int_equal(e.v.regression, VERDICT_REG_NO);
	assert_int_equal(e.reason, ESTIMATE_REASON_NONE);
	estimate_release(&e);
	/* Two of ours far faster, vs clean: no regression. */
	ub[5].value = NAN;
	ua[3].value = 300;
	ua[7].value = 300;
	assert_int_equal(estimate_cell(ua, 10, ub, 10, &p, &e), 0);
	assert_int_equal(e.n_out_ours, 2);
	assert_int_equal(e.v.slow_ours, 0);
	assert_int_equal(e.v.regression, VERDICT_REG_NO);
	estimate_release(&e);
}

/* History: ten rounds whose log ratios scatter about 1% join a batch's own
 * rounds when they scatter alike (more degrees of freedom, a narrower interval),
 * weighing at most what the batch does; when today scatters far more than the
 * history (the F test rejects), the batch is judged alone. */
static void test_estimate_history(void **state)
{
	static const double d[4] = { 0.011, -0.009, 0.004, -0.006 };
	struct inst a[4], b[4];
	struct estimate_unit ua[4], ub[4];
	struct estimate_history h = { 9 * 0.0001, 9, 1, 0, 0 };
	struct estimate_params p;
	struct estimate alone, with;
	static const char *const t[8] = { "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8" };

	(void)state;
	for (int i = 0; i < 4; i++) {
		inst(&a[i], 100 * exp(d[i]), i + 1, t[2 * i + (i % 2)]);
		inst(&b[i], 100, i + 1, t[2 * i + 1 - (i % 2)]);
	}
	units(a, 4, ua);
	units(b, 4, ub);
	estimate_params_init(&p);
	assert_int_equal(estimate_cell(ua, 4, ub, 4, &p, &alone), 0);
	assert_int_equal(alone.v.history, VERDICT_HIST_NONE);
	assert_true(fabs(alone.v.df - 3) < 1e-12);
	p.hist = &h;
	assert_int_equal(estimate_cell(ua, 4, ub, 4, &p, &with), 0);
	assert_int_equal(with.v.history, VERDICT_HIST_POOLED);
	assert_string_equal(verdict_history_name(with.v.history), "pooled");
	assert_int_equal(with.v.hist_batches, 1);
	assert_true(fabs(with.v.hist_df - 9) < 1e-12);
	/* Capped at the batch's 3 degrees of freedom. */
	assert_true(fabs(with.v.df - 6) < 1e-12);
	assert_true(with.v.mde_pct < alone.v.mde_pct);
	assert_true(fabs(with.v.delta_pct - alone.v.delta_pct) < 1e-12);
	estimate_release(&with);
	/* A history ten times quieter (sd 0.1%): today is louder, judged alone. */
	h.ss = 9 * 0.000001;
	assert_int_equal(estimate_cell(ua, 4, ub, 4, &p, &with), 0);
	assert_int_equal(with.v.history, VERDICT_HIST_REJECTED);
	assert_true(fabs(with.v.df - 3) < 1e-12);
	assert_true(fabs(with.v.mde_pct - alone.v.mde_pct) < 1e-12);
	estimate_release(&with);
	/* A louder history only widens: pooled. */
	h.ss = 9 * 0.0009;
	assert_int_equal(estimate_cell(ua, 4, ub, 4, &p, &with), 0);
	assert_int_equal(with.v.history, VERDICT_HIST_POOLED);
	assert_true(with.v.mde_pct > alone.v.mde_pct);
	estimate_release(&with);
	estimate_release(&alone);
}

/* Issue 41: an A/A pair of three rounds whose round ratios happen to agree
 * (+4.1%, +6.0%, +4.2%: alone an interval of about [+2.8%, +6.8%], "faster"
 * decided) while each side's instances spread by 2-3% (ours 100, 103, 97; vs
 * 96, 97, 93). The instances' own spread says a round's ratio scatters by
 * sqrt(var_a + var_b), about 3.8%: the interval at that scatter (2 x 2 degrees
 * of freedom) is the wider and the cell stays undecided. */
struct aa {
	struct inst a[3], b[3];
	struct estimate_unit ua[3], ub[3];
	struct estimate_params p; /* the defaults */
};

static void aa_three(struct aa *x, const double *va, const double *vb)
{
	static const char *const t[6] = { "t1", "t2", "t3", "t4", "t5", "t6" };

	for (int i = 0; i < 3; i++) {
		/* ours first in rounds 1 and 3, vs in round 2 */
		inst(&x->a[i], va[i], i + 1, t[2 * i + (i == 1)]);
		inst(&x->b[i], vb[i], i + 1, t[2 * i + (i != 1)]);
	}
	units(x->a, 3, x->ua);
	units(x->b, 3, x->ub);
	estimate_params_init(&x->p);
}

static double sample_var(const double *x, size_t n)
{
	double m = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		m += x[i] / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	return ss / (double)(n - 1);
}

static void test_estimate_floor_instances(void **state)
{
	static const double va[3] = { 100, 103, 97 }, vb[3] = { 96, 97, 93 };
	struct aa x;
	struct estimate e;
	double la[3], lb[3], want;

	(void)state;
	aa_three(&x, va, vb);
	for (int i = 0; i < 3; i++) {
		la[i] = log(va[i]);
		lb[i] = log(vb[i]);
	}
	want = sqrt(sample_var(la, 3) + sample_var(lb, 3));
	assert_true(fabs(estimate_instance_round_sd(la, lb, 3) - want) < 1e-12);
	/* The sums scatter more than the ratios, but not beyond chance. */
	assert_true(estimate_round_drift_p(la, lb, 3) > ESTIMATE_DRIFT_ALPHA);
	assert_int_equal(estimate_cell(x.ua, 3, x.ub, 3, &x.p, &e), 0);
	assert_int_equal(e.v.method, VERDICT_METHOD_ROUNDS);
	assert_int_equal(e.v.scatter_source, VERDICT_SCATTER_INSTANCES);
	assert_string_equal(verdict_scatter_name(e.v.scatter_source), "instances");
	assert_true(fabs(e.v.round_scatter_pct - 100 * want) < 1e-9);
	assert_true(fabs(e.v.df - 4) < 1e-12);
	assert_true(e.v.delta_pct > 4 && e.v.delta_pct < 6);
	assert_int_equal(e.v.kind, VERDICT_UNDECIDED);
	assert_int_equal(e.v.decided, 0);
	assert_true(e.v.ci_lo_pct < 2);
	estimate_release(&e);
}

/* Rounds with little spread within a side (ours 100, 100.4, 99.8; vs 95.2,
 * 95.4, 95.0): at that spread (0.37%) "faster" is decided, until
 * the cell's stored A/A floor (10%, its requests scattering by 0.4%) says an
 * instance pair parts by far more: then the round scatter is the floor less the
 * request scatter a round averages away, and nothing is decided. */
static void test_estimate_floor_stored(void **state)
{
	static const double va[3] = { 100, 100.4, 99.8 }, vb[3] = { 95.2, 95.4, 95.0 };
	struct aa x;
	struct estimate e;

	(void)state;
	aa_three(&x, va, vb);
	assert_int_equal(estimate_cell(x.ua, 3, x.ub, 3, &x.p, &e), 0);
	assert_int_equal(e.v.scatter_source, VERDICT_SCATTER_INSTANCES);
	assert_true(e.v.round_scatter_pct < 0.5);
	assert_int_equal(e.v.kind, VERDICT_FASTER);
	assert_int_equal(e.v.decided, 1);
	estimate_release(&e);
	x.p.noise_pct = 10;
	assert_int_equal(estimate_cell(x.ua, 3, x.ub, 3, &x.p, &e), 0);
	assert_int_equal(e.v.scatter_source, VERDICT_SCATTER_FLOOR);
	assert_string_equal(verdict_scatter_name(e.v.scatter_source), "floor");
	assert_true(e.v.round_scatter_pct > 9.9 && e.v.round_scatter_pct <= 10);
	assert_true(fabs(e.v.df - 2) < 1e-12);
	assert_int_equal(e.v.kind, VERDICT_UNDECIDED);
	assert_int_equal(e.v.regression, VERDICT_REG_UNDECIDED);
	estimate_release(&e);
	/* Of a floor, the requests' own scatter is taken out as far as a round's
	 * mean averages it: 10% with requests at 10% over 4 a round leaves 5%. */
	assert_true(fabs(estimate_floor_round_sd(10, 0.01, 4) - 0.05) < 1e-12);
	assert_true(estimate_floor_round_sd(10, 0.02, 4) == 0);
	assert_true(fabs(estimate_floor_round_sd(10, NAN, 4) - 0.1) < 1e-12);
	assert_true(estimate_floor_round_sd(0, 0.01, 4) == 0);
}

/* Drift common to both sides (the rounds at 100, 120 and 80% of speed, ours 5%
 * ahead in each): the round sums scatter far more than the ratios, the spread
 * within a side is the drift the pairing cancels, and neither it nor a stored
 * floor widens the rounds' interval: "faster" is decided. */
static void test_estimate_floor_drift(void **state)
{
	static const double va[3] = { 105, 126.1, 83.9 }, vb[3] = { 100, 120, 80 };
	struct aa x;
	struct estimate e;

	(void)state;
	aa_three(&x, va, vb);
	x.p.noise_pct = 20;
	assert_int_equal(estimate_cell(x.ua, 3, x.ub, 3, &x.p, &e), 0);
	assert_int_equal(e.v.scatter_source, VERDICT_SCATTER_DRIFT);
	assert_string_equal(verdict_scatter_name(e.v.scatter_source), "drift");
	assert_true(e.v.drift_p < ESTIMATE_DRIFT_ALPHA);
	assert_true(e.v.round_scatter_pct < 0.5);
	assert_int_equal(e.v.kind, VERDICT_FASTER);
	assert_int_equal(e.v.decided, 1);
	estimate_release(&e);
	assert_null(verdict_scatter_name(VERDICT_SCATTER_NONE));
}

/* estimate_history_add() takes a batch's rounds about their own mean, and
 * nothing from a batch that decides nothing for a reason. */
static void test_estimate_history_add(void **state)
{
	struct inst a[3], b[3];
	struct estimate_unit ua[3], ub[3];
	struct estimate_history h = { 0, 0, 0, 0, 0 };
	struct estimate_params p;
	struct estimate e;
	static const double r[3] = { 1.02, 0.99, 1.00 };
	static const char *const t[6] = { "t1", "t2", "t3", "t4", "t5", "t6" };
	double mean = 0, ss = 0;

	(void)state;
	for (int i = 0; i < 3; i++) {
		inst(&a[i], 100 * r[i], i + 1, t[2 * i + (i % 2)]);
		inst(&b[i], 100, i + 1, t[2 * i + 1 - (i % 2)]);
		mean += log(r[i]) / 3;
	}
	for (int i = 0; i < 3; i++)
		ss += (log(r[i]) - mean) * (log(r[i]) - mean);
	units(a, 3, ua);
	units(b, 3, ub);
	estimate_params_init(&p);
	assert_int_equal(estimate_cell(ua, 3, ub, 3, &p, &e), 0);
	estimate_history_add(&e, &h);
	assert_true(fabs(h.ss - ss) < 1e-12);
	assert_true(fabs(h.df - 2) < 1e-12);
	assert_int_equal(h.batches, 1);
	e.reason = ESTIMATE_REASON_DISAGREE;
	estimate_history_add(&e, &h);
	assert_int_equal(h.batches, 1);
	e.reason = ESTIMATE_REASON_NONE;
	e.v.spoiled = 1;
	estimate_history_add(&e, &h);
	assert_int_equal(h.batches, 1);
	estimate_release(&e);
}

/* Instances whose rounds never meet (another batch's numbers) compare by
 * Welch's t on their log medians. */
static void test_estimate_welch(void **state)
{
	struct inst a[2], b[2];
	struct estimate_unit ua[2], ub[2];
	struct estimate_params p;
	struct estimate e;

	(void)state;
	inst(&a[0], 100, 1, NULL);
	inst(&a[1], 101, 2, NULL);
	inst(&b[0], 100, 3, NULL);
	inst(&b[1], 99, 4, NULL);
	units(a, 2, ua);
	units(b, 2, ub);
	estimate_params_init(&p);
	assert_int_equal(estimate_cell(ua, 2, ub, 2, &p, &e), 0);
	assert_int_equal(e.v.method, VERDICT_METHOD_WELCH);
	assert_int_equal(e.n_rounds, 0);
	assert_true(isfinite(e.v.ci_lo_pct));
	estimate_release(&e);
}

/* An instance whose requests carry keys: prompt k of 0..3 (all but skip, -1
 * none) at v * f[k], in round r of batch "b", start unknown. */
struct kinst {
	struct run_value kv[4];
	struct estimate_unit u;
};

static void kinst(struct kinst *x, double v, const double *f, int skip, int64_t round)
{
	size_t n = 0;

	for (int k = 0; k < 4; k++)
		if (k != skip) {
			x->kv[n].prompt_id = k;
			x->kv[n].rep = 0;
			x->kv[n].value = v * f[k];
			n++;
		}
	memset(&x->u, 0, sizeof(x->u));
	x->u.vals = x->kv;
	x->u.n = n;
	x->u.value = NAN;
	x->u.round = round;
	x->u.batch = "b";
}

static double mean_of(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

static int near(double x, double want)
{
	return fabs(x - want) <= 1e-12 * fmax(1, fabs(want));
}

/* Each method estimate_cell() chooses, driven through it, with its numbers
 * computed here by hand (issue 40: the estimate split by method, one function
 * each, behaviour pinned). Rounds with history: four rounds, start order
 * unknown (the plain mean), the rounds' scatter pooled with a louder history
 * capped at the batch's degrees of freedom; one round's vs lacks a prompt, so
 * one value is unpaired. */
static void test_estimate_method_rounds(void **state)
{
	static const double f[4] = { 0.99, 1.0, 1.003, 1.01 };
	static const double va[4] = { 97, 99, 98, 96.5 }, vb[4] = { 100, 100.5, 99.5, 100 };
	struct kinst a[4], b[4];
	struct estimate_unit ua[4], ub[4];
	struct estimate_history h = { 9 * 0.02 * 0.02, 9, 2, 0, 0 };
	struct estimate_params p;
	struct estimate e;
	double d[4], m, ss = 0, sd, df, t;

	(void)state;
	for (int i = 0; i < 4; i++) {
		kinst(&a[i], va[i], f, -1, i + 1);
		kinst(&b[i], vb[i], f, i == 2 ? 3 : -1, i + 1);
		ua[i] = a[i].u;
		ub[i] = b[i].u;
		d[i] = log(va[i] / vb[i]);
	}
	m = mean_of(d, 4);
	for (int i = 0; i < 4; i++)
		ss += (d[i] - m) * (d[i] - m);
	/* With the history's: 3 df of its 9, its mean square 0.02^2. */
	sd = sqrt((ss + 3 * 0.02 * 0.02) / 6);
	df = 6;
	t = stats_t_quantile(0.95, df);
	estimate_params_init(&p);
	p.floors = 0;
	p.hist = &h;
	assert_int_equal(estimate_cell(ua, 4, ub, 4, &p, &e), 0);
	assert_int_equal(e.v.method, VERDICT_METHOD_ROUNDS);
	assert_int_equal(e.n_rounds, 4);
	assert_int_equal(e.v.rounds, 4);
	assert_int_equal(e.reason, ESTIMATE_REASON_NONE);
	assert_int_equal(e.n_ours_first + e.n_vs_first, 0);
	assert_int_equal(e.v.history, VERDICT_HIST_POOLED);
	assert_int_equal(e.v.scatter_source, VERDICT_SCATTER_ROUNDS);
	assert_int_equal(e.n_unpaired, 1);
	assert_true(near(e.v.log_m, m));
	assert_true(near(e.v.log_se, sd / 2));
	assert_true(near(e.v.df, df));
	assert_true(near(e.v.round_scatter_pct, sd * 100));
	assert_true(near(e.v.ci_lo_pct, (exp(m - t * sd / 2) - 1) * 100));
	assert_true(near(e.v.ci_hi_pct, (exp(m + t * sd / 2) - 1) * 100));
	assert_true(near(e.ours_center / e.vs_center, exp(m)));
	for (int i = 0; i < 4; i++) {
		assert_int_equal(e.round_ours[i], i);
		assert_int_equal(e.round_vs[i], i);
		assert_true(near(e.round_pct[i], (va[i] / vb[i] - 1) * 100));
	}
	estimate_release(&e);
}

/* Welch: measured on different machines (p->unpaired), three instances of
 * ours and two of vs, all used; then one round pairs by number, fewer than
 * two: Welch still, on all the kept instances. */
static void test_estimate_method_welch(void **state)
{
	static const double va[3] = { 95, 97, 96 }, vb[2] = { 100, 102 };
	struct inst a[3], b[2];
	struct estimate_unit ua[3], ub[2];
	struct estimate_params p;
	struct estimate e;
	double la[3], lb[2], ma, mb, sa = 0, sb = 0, se, df;

	(void)state;
	for (int i = 0; i < 3; i++) {
		inst(&a[i], va[i], i + 1, NULL);
		la[i] = log(va[i]);
	}
	for (int i = 0; i < 2; i++) {
		inst(&b[i], vb[i], i + 1, NULL);
		lb[i] = log(vb[i]);
	}
	units(a, 3, ua);
	units(b, 2, ub);
	ma = mean_of(la, 3);
	mb = mean_of(lb, 2);
	for (int i = 0; i < 3; i++)
		sa += (la[i] - ma) * (la[i] - ma) / 2 / 3;
	for (int i = 0; i < 2; i++)
		sb += (lb[i] - mb) * (lb[i] - mb) / 1 / 2;
	se = sqrt(sa + sb);
	df = (sa + sb) * (sa + sb) / (sa * sa / 2 + sb * sb / 1);
	estimate_params_init(&p);
	p.unpaired = 1;
	assert_int_equal(estimate_cell(ua, 3, ub, 2, &p, &e), 0);
	assert_int_equal(e.v.method, VERDICT_METHOD_WELCH);
	assert_int_equal(e.n_rounds, 0);
	assert_int_equal(e.v.rounds, 0);
	assert_int_equal(e.n_unpaired, 0);
	assert_int_equal(e.reason, ESTIMATE_REASON_NONE);
	assert_true(near(e.v.log_m, ma - mb));
	assert_true(near(e.v.log_se, se));
	assert_true(near(e.v.df, df));
	assert_true(near(e.ours_center / e.vs_center, exp(ma - mb)));
	estimate_release(&e);
	/* Paired by number, only round 1 is on both sides. */
	p.unpaired = 0;
	ub[1].round = 5;
	assert_int_equal(estimate_cell(ua, 3, ub, 2, &p, &e), 0);
	assert_int_equal(e.v.method, VERDICT_METHOD_WELCH);
	assert_int_equal(e.n_rounds, 1);
	assert_true(near(e.v.log_m, ma - mb));
	assert_true(near(e.v.log_se, se));
	estimate_release(&e);
}

/* One instance a side with a stored floor of 1%: the requests paired by
 * prompt (vs lacks prompt 3: one value unpaired) give the point and an error
 * that the floor joins in quadrature. An instance of ours with no usable value
 * is kept out and its two values count as unpaired. */
static void test_estimate_method_requests(void **state)
{
	static const double fa[4] = { 0.99, 1.0, 1.004, 1.01 }, fb[4] = { 1.0, 0.996, 1.01, 1 };
	static const double zero[2] = { 0, 0 };
	struct kinst x, y;
	struct estimate_unit ua[2], ub[1];
	struct estimate_params p;
	struct estimate e;
	double d[3], m, ss = 0, se;

	(void)state;
	kinst(&x, 90, fa, -1, INT64_MIN);
	kinst(&y, 100, fb, 3, INT64_MIN);
	memset(&ua[0], 0, sizeof(ua[0]));
	ua[0].v = zero;
	ua[0].n = 2;
	ua[0].value = NAN;
	ua[0].round = INT64_MIN;
	ua[1] = x.u;
	ub[0] = y.u;
	for (int k = 0; k < 3; k++)
		d[k] = log(90 * fa[k]) - log(100 * fb[k]);
	m = mean_of(d, 3);
	for (int k = 0; k < 3; k++)
		ss += (d[k] - m) * (d[k] - m);
	se = sqrt(ss / 2 / 3 + 0.01 * 0.01);
	estimate_params_init(&p);
	p.noise_pct = 1.0;
	assert_int_equal(estimate_cell(ua, 2, ub, 1, &p, &e), 0);
	assert_int_equal(e.v.method, VERDICT_METHOD_REQUESTS);
	assert_int_equal(e.v.bound, VERDICT_BOUND_NOISE);
	assert_int_equal(e.v.rounds, 1);
	assert_int_equal(e.v.n_pairs, 1);
	assert_int_equal(e.v.instances_ours, 2);
	assert_int_equal(e.reason, ESTIMATE_REASON_NONE);
	assert_int_equal(e.n_unpaired, 3);
	assert_true(near(e.v.log_m, m));
	assert_true(near(e.v.log_se, se));
	assert_true(near(e.v.df, 2));
	assert_true(near(e.v.scatter_pct, 1.0));
	assert_true(near(e.ours_center / e.vs_center, exp(m)));
	assert_int_equal(e.v.regression, VERDICT_REG_YES);
	assert_int_equal(e.v.kind, VERDICT_SLOWER);
	estimate_release(&e);
}

/* The per-look level: one look is alpha itself; more looks need a smaller
 * level, never below Bonferroni's alpha / looks (which ignores that the looks
 * share their data); and the interval of a sequential batch is wider. */
static void test_estimate_look_alpha(void **state)
{
	double a10 = estimate_look_alpha(10, 0.05), a30 = estimate_look_alpha(30, 0.05);
	struct inst a[4], b[4];
	struct estimate_unit ua[4], ub[4];
	struct estimate_params p;
	struct estimate fixed, seq;
	static const char *t[8] = { "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8" };

	(void)state;
	assert_true(fabs(estimate_look_alpha(3, 0.05) - 0.05) < 1e-12);
	assert_true(a10 < 0.05 && a10 > 0.05 / 8);
	assert_true(a30 < a10 && a30 > 0.05 / 28);
	assert_true(fabs(estimate_look_alpha(10, 0.05) - a10) < 1e-15); /* cached */
	for (int i = 0; i < 4; i++) {
		/* Alternating order: ours first in odd rounds. */
		inst(&a[i], 100 + i, i + 1, i % 2 ? t[2 * i + 1] : t[2 * i]);
		inst(&b[i], 100 - i, i + 1, i % 2 ? t[2 * i] : t[2 * i + 1]);
	}
	units(a, 4, ua);
	units(b, 4, ub);
	estimate_params_init(&p);
	assert_int_equal(estimate_cell(ua, 4, ub, 4, &p, &fixed), 0);
	p.looks_to = 10;
	assert_int_equal(estimate_cell(ua, 4, ub, 4, &p, &seq), 0);
	assert_true(seq.v.mde_pct > fixed.v.mde_pct);
	assert_true(fabs(seq.v.ci_level - (1 - 2 * estimate_look_alpha(10, 0.05 *
						ESTIMATE_SEQ_ALPHA_SHARE))) < 1e-12);
	assert_true(fabs(seq.v.delta_pct - fixed.v.delta_pct) < 1e-12);
	estimate_release(&fixed);
	estimate_release(&seq);
	p.looks_to = ESTIMATE_MAX_LOOK + 1;
	assert_int_equal(estimate_cell(ua, 4, ub, 4, &p, &seq), -1);
	estimate_release(&seq);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_estimate_order_enters),
		cmocka_unit_test(test_estimate_order_unbalanced),
		cmocka_unit_test(test_estimate_outlier),
		cmocka_unit_test(test_estimate_outlier_no_flip),
		cmocka_unit_test(test_estimate_one_instance),
		cmocka_unit_test(test_estimate_spread),
		cmocka_unit_test(test_estimate_intermittent),
		cmocka_unit_test(test_estimate_history),
		cmocka_unit_test(test_estimate_history_add),
		cmocka_unit_test(test_estimate_floor_instances),
		cmocka_unit_test(test_estimate_floor_stored),
		cmocka_unit_test(test_estimate_floor_drift),
		cmocka_unit_test(test_estimate_welch),
		cmocka_unit_test(test_estimate_method_rounds),
		cmocka_unit_test(test_estimate_method_welch),
		cmocka_unit_test(test_estimate_method_requests),
		cmocka_unit_test(test_estimate_look_alpha),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
