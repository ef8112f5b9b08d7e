/* test_plan.c: the variance parts, the costs and the designs of analyze/plan.c,
 * over plain structs, against values worked out by hand in the comments; and the
 * cells plan_cells() makes of two sides' pools. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "analyze/plan.h"
#include "analyze/stats.h"
#include "tests/run_fixture.h"

/* Three instances, two slots (prompts 1 and 2, rep 1), log values:
 *   inst0: 0.00 0.10   inst1: 0.02 0.10   inst2: 0.04 0.16
 * Slot means 0.02 and 0.12; less them: inst0 -0.02 -0.02 (mean -0.02, ss 0), inst1
 * 0 -0.02 (mean -0.01, ss 0.0002), inst2 0.02 0.04 (mean 0.03, ss 0.0002). Within:
 * 0.0004 over df 3 - (2 - 1) = 2: s_w^2 = 0.0002. Means -0.02 -0.01 0.03 about 0:
 * ss 0.0014 over df 2 = 0.0007; s_b^2 = 0.0007 - 0.0002 / 2 = 0.0006. */
static const double logs[3][2] = { { 0.00, 0.10 }, { 0.02, 0.10 }, { 0.04, 0.16 } };

/* Up to six instances (runs, tests/run_fixture.h), each on side side[i]; the
 * cell's pools hold the first n_inst of them by side, oldest first. Values and
 * wall times live in the fixture: the runs point at them and own nothing. */
struct fixture {
	struct run_value v[6][2][2]; /* instance, metric, slot */
	double wall[6][2];
	struct run inst[6];
	int side[6];
	size_t n_inst;
	const struct run *ptr[2][6];
	struct pool pool[2];
	struct plan_cell cell;
};

/* Points the cell's pools at the first n instances, each on its side. */
static void sides(struct fixture *f, size_t n)
{
	size_t i;
	int s;

	f->n_inst = n;
	for (s = 0; s < 2; s++) {
		memset(&f->pool[s], 0, sizeof(f->pool[s]));
		f->pool[s].runs = f->ptr[s];
		for (i = 0; i < n; i++)
			if (f->side[i] == s)
				f->ptr[s][f->pool[s].n++] = &f->inst[i];
		f->cell.pool[s] = f->pool[s].n ? &f->pool[s] : NULL;
	}
}

/* Fills instance i (side side) with the logs of row r shifted by shift, both
 * metrics alike, two requests of wall 1000 ms in a run of duration ms. */
static void set_inst(struct fixture *f, size_t i, int side, size_t r, double shift,
		     double duration)
{
	struct run *in = &f->inst[i];
	int m, s;

	memset(in, 0, sizeof(*in));
	f->side[i] = side;
	for (m = 0; m < PLAN_N_METRICS; m++) {
		for (s = 0; s < 2; s++) {
			f->v[i][m][s].prompt_id = s + 1;
			f->v[i][m][s].rep = 1;
			f->v[i][m][s].value = 100 * exp(logs[r][s] + shift);
		}
		in->values[m].v = f->v[i][m];
		in->values[m].n = 2;
	}
	f->wall[i][0] = f->wall[i][1] = 1000;
	in->wall_ms = f->wall[i];
	in->n_wall = 2;
	in->n_samples = 2;
	in->duration_ms = duration;
}

static void one_side(struct fixture *f, double duration)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < 3; i++)
		set_inst(f, i, 0, i, 0, duration);
	f->cell.model = "m";
	f->cell.spec_type = "";
	f->cell.endpoint = "completion";
	sides(f, 3);
	f->cell.n_prompts = 2;
}

static void test_plan_components_by_hand(void **state)
{
	struct fixture f;
	struct plan_row row;

	(void)state;
	one_side(&f, 6000);
	plan_components(&f.cell, PLAN_TG, 1, &row);
	assert_int_equal(row.n_inst, 3);
	assert_int_equal(row.n_req, 6);
	assert_float_equal(row.df_w, 2, 1e-12);
	assert_float_equal(row.df_b, 2, 1e-12);
	/* Without taking each slot's level out, s_w would be about 5.5%. */
	assert_float_equal(row.sw_pct, 100 * sqrt(0.0002), 1e-9);
	assert_float_equal(row.sm_pct, 100 * sqrt(0.0007), 1e-9);
	assert_float_equal(row.sb_pct, 100 * sqrt(0.0006), 1e-9);
}

/* Two sides, the second 50% faster throughout: each side's own mean is taken out,
 * so the parts are those of one side with twice the degrees of freedom. */
static void test_plan_components_two_sides(void **state)
{
	struct fixture f;
	struct plan_row one, two;
	size_t i;

	(void)state;
	one_side(&f, 6000);
	plan_components(&f.cell, PLAN_PP, 1, &one);
	for (i = 0; i < 3; i++)
		set_inst(&f, 3 + i, 1, i, log(1.5), 6000);
	sides(&f, 6);
	plan_components(&f.cell, PLAN_PP, 3, &two);
	assert_int_equal(two.inst[0], 3);
	assert_int_equal(two.inst[1], 3);
	assert_int_equal(two.n_inst, 6);
	assert_float_equal(two.df_w, 2 * one.df_w, 1e-12);
	assert_float_equal(two.df_b, 2 * one.df_b, 1e-12);
	assert_float_equal(two.sw_pct, one.sw_pct, 1e-9);
	assert_float_equal(two.sb_pct, one.sb_pct, 1e-9);
	/* Side 1 alone reads the same too. */
	plan_components(&f.cell, PLAN_PP, 2, &two);
	assert_int_equal(two.inst[0], 0);
	assert_int_equal(two.inst[1], 3);
	assert_float_equal(two.sb_pct, one.sb_pct, 1e-9);
}

/* Instance means closer together than the within part explains: s_b floors at 0.
 * logs: inst0 0 0.1, inst1 0.02 0.08, inst2 0.01 0.09: every mean 0.05 less the
 * slot means is 0 exactly, so s_m 0 and s_b = max(0, 0 - s_w^2 / 2) = 0. */
static void test_plan_components_floor(void **state)
{
	static const double l[3][2] = { { 0, 0.1 }, { 0.02, 0.08 }, { 0.01, 0.09 } };
	struct fixture f;
	struct plan_row row;
	size_t i;
	int s;

	(void)state;
	one_side(&f, 6000);
	for (i = 0; i < 3; i++)
		for (s = 0; s < 2; s++)
			f.v[i][PLAN_TG][s].value = 100 * exp(l[i][s]);
	plan_components(&f.cell, PLAN_TG, 1, &row);
	assert_true(row.sw_pct > 1);
	assert_float_equal(row.sm_pct, 0, 1e-9);
	assert_float_equal(row.sb_pct, 0, 0);
}

/* Non-positive and non-finite values are no values. */
static void test_plan_components_skips_bad_values(void **state)
{
	struct fixture f;
	struct plan_row a, b;

	(void)state;
	one_side(&f, 6000);
	plan_components(&f.cell, PLAN_TG, 1, &a);
	f.v[0][PLAN_TG][1].value = 0;
	plan_components(&f.cell, PLAN_TG, 1, &b);
	assert_int_equal(b.n_req, 5);
	assert_true(b.df_w < a.df_w);
	f.v[0][PLAN_TG][1].value = NAN;
	plan_components(&f.cell, PLAN_TG, 1, &b);
	assert_int_equal(b.n_req, 5);
	assert_false(isnan(b.sw_pct));
}

/* The least n >= 2 with t(0.975, n - 1) sd / sqrt(n) <= asinh(mde / 100). */
static void test_plan_rounds_needed(void **state)
{
	const double vars[] = { 1e-4, 4e-4, 1.6e-3, 2.5e-5 };
	size_t i, n;

	(void)state;
	/* sd 1%, mde 2%: n 3 gives 4.303 x 0.01 / 1.732 = 0.0248 > 0.02, n 4 gives
	 * 3.182 x 0.01 / 2 = 0.0159. */
	assert_int_equal(plan_rounds_needed(1e-4, 2), 4);
	assert_int_equal(plan_rounds_needed(0, 2), 2);
	assert_int_equal(plan_rounds_needed(1, 2), 0);   /* beyond PLAN_MAX_ROUNDS */
	assert_int_equal(plan_rounds_needed(1e-4, 0), 0);
	assert_int_equal(plan_rounds_needed(NAN, 2), 0);
	assert_int_equal(plan_rounds_needed(-1, 2), 0);
	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		double h = asinh(0.02), sd = sqrt(vars[i]);

		n = plan_rounds_needed(vars[i], 2);
		assert_true(n >= 2);
		assert_true(stats_t_quantile(0.975, (double)(n - 1)) * sd / sqrt((double)n) <= h);
		if (n > 2)
			assert_true(stats_t_quantile(0.975, (double)(n - 2)) * sd /
					    sqrt((double)(n - 1)) > h);
	}
}

/* s_w^2 0.0002, s_b^2 0.0006; an instance costs 6000 ms, 2000 of it its two
 * requests: c_inst 4000, c_req 1000. m* = sqrt(4000 x 0.0002 / (1000 x 0.0006)) =
 * sqrt(4/3) = 1.155; m 1 has cost x variance 5000 x 0.0008 = 4.0, m 2 6000 x 0.0007
 * = 4.2: 1 prompt x 1 rep. A round's variance 2 x 0.0008 (sd 4%): 18 rounds (t17
 * 2.110 x 0.04 / 4.243 = 0.0199 <= asinh(0.02)), 18 x 2 x 5 s = 180 s. */
static void test_plan_decide_by_hand(void **state)
{
	struct fixture f;
	struct plan_input in = { { "a", NULL }, &f.cell, 1 };
	struct plan_opts o;
	struct plan_result r;
	const struct plan_row *w;
	double var27 = 2 * (0.0006 + 0.0002 / 27);

	(void)state;
	one_side(&f, 6000);
	plan_opts_init(&o);
	assert_int_equal(plan_decide(&in, &o, &r), 0);
	assert_int_equal(r.n_rows, 2);
	w = &r.rows[PLAN_TG];
	assert_int_equal(w->metric, PLAN_TG);
	assert_int_equal(w->status, PLAN_OK);
	assert_float_equal(w->c_inst_ms, 4000, 1e-9);
	assert_float_equal(w->c_req_ms, 1000, 1e-9);
	assert_int_equal(w->n_cost, 3);
	assert_float_equal(w->m_star, sqrt(4.0 / 3), 1e-9);
	assert_false(w->capped);
	assert_int_equal(w->best.prompts, 1);
	assert_int_equal(w->best.reps, 1);
	assert_float_equal(w->best.round_sd_pct, 4, 1e-9);
	assert_int_equal(w->best.rounds, 18);
	assert_float_equal(w->best.server_s, 180, 1e-9);
	/* The default, 9 x 3: its own rounds at its own variance and 4 + 27 s a round. */
	assert_int_equal(w->deflt.prompts, 9);
	assert_int_equal(w->deflt.reps, 3);
	assert_int_equal(w->deflt.rounds, plan_rounds_needed(var27, 2));
	assert_float_equal(w->deflt.server_s, w->deflt.rounds * 2 * 31.0, 1e-9);
	assert_float_equal(w->cost_ratio, w->deflt.server_s / 180, 1e-12);
	plan_result_release(&r);
	assert_null(r.rows);
}

/* Cheap requests (100 ms: duration 4200 ms) raise m*: sqrt(4000 x 0.0002 / (100 x
 * 0.0006)) = 3.65; floor 3 and ceiling 4 both split prompts first over the 2
 * prompts asked: 2 prompts x 2 reps. */
static void test_plan_decide_prompts_first(void **state)
{
	struct fixture f;
	struct plan_input in = { { "a", NULL }, &f.cell, 1 };
	struct plan_opts o;
	struct plan_result r;
	size_t i;

	(void)state;
	one_side(&f, 4200);
	/* (A run's request time is now the sum of its wall_ms, 200 here.) */
	for (i = 0; i < 3; i++)
		f.wall[i][0] = f.wall[i][1] = 100;
	plan_opts_init(&o);
	assert_int_equal(plan_decide(&in, &o, &r), 0);
	assert_float_equal(r.rows[PLAN_PP].m_star, sqrt(40.0 / 3), 1e-9);
	assert_int_equal(r.rows[PLAN_PP].best.prompts, 2);
	assert_int_equal(r.rows[PLAN_PP].best.reps, 2);
	plan_result_release(&r);
	/* With 5 prompts asked, 3 prompts x 1 rep (3 has cost x variance 4300 x
	 * 0.000667 = 2.867, 4 4400 x 0.00065 = 2.86: 4 prompts). */
	f.cell.n_prompts = 5;
	assert_int_equal(plan_decide(&in, &o, &r), 0);
	assert_int_equal(r.rows[PLAN_PP].best.prompts, 4);
	assert_int_equal(r.rows[PLAN_PP].best.reps, 1);
	plan_result_release(&r);
}

/* A speculative cell keeps every prompt: where m* = 1.155 picks 1 x 1 for a
 * base cell, the 2 prompts asked stay. */
static void test_plan_decide_spec_keeps_prompts(void **state)
{
	struct fixture f;
	struct plan_input in = { { "a", NULL }, &f.cell, 1 };
	struct plan_opts o;
	struct plan_result r;

	(void)state;
	one_side(&f, 6000);
	f.cell.spec_type = "draft";
	plan_opts_init(&o);
	assert_int_equal(plan_decide(&in, &o, &r), 0);
	assert_float_equal(r.rows[PLAN_TG].m_star, sqrt(4.0 / 3), 1e-9);
	assert_int_equal(r.rows[PLAN_TG].best.prompts, 2);
	assert_int_equal(r.rows[PLAN_TG].best.reps, 1);
	assert_int_equal(r.cells[0].best.prompts * r.cells[0].best.reps >= 2, 1);
	plan_result_release(&r);
}

/* One design for both metrics: the least server time over every design of at
 * most PLAN_MAX_REQUESTS, each needing the rounds of its worse metric. tg's
 * between part is made larger than pp's, so the two metrics disagree. */
static void test_plan_decide_both(void **state)
{
	struct fixture f;
	struct plan_input in = { { "a", NULL }, &f.cell, 1 };
	struct plan_opts o;
	struct plan_result r;
	const struct plan_both *b;
	double best = INFINITY;
	size_t i, m;
	int s;

	(void)state;
	one_side(&f, 6000);
	f.cell.n_prompts = 40;
	for (i = 0; i < 3; i++)
		for (s = 0; s < 2; s++)
			f.v[i][PLAN_TG][s].value = 100 * exp(3 * logs[i][s]);
	plan_opts_init(&o);
	assert_int_equal(plan_decide(&in, &o, &r), 0);
	assert_int_equal(r.n_cells, 1);
	b = &r.cells[0];
	assert_true(b->ok);
	assert_ptr_equal(b->cell, &f.cell);
	for (m = 1; m <= PLAN_MAX_REQUESTS; m++) {
		size_t n = 0, k;
		int mm;

		for (mm = 0; mm < PLAN_N_METRICS; mm++) {
			double sw = r.rows[mm].sw_pct / 100, sb = r.rows[mm].sb_pct / 100;

			k = plan_rounds_needed(2 * (sb * sb + sw * sw / (double)m), 2);
			n = k > n ? k : n;
		}
		if (n && n * 2 * (4000 + m * 1000.0) / 1000 < best)
			best = n * 2 * (4000 + m * 1000.0) / 1000;
	}
	assert_float_equal(b->best.server_s, best, 1e-9);
	assert_true(b->best.server_s <= r.rows[PLAN_TG].best.server_s + 1e-9);
	assert_float_equal(b->cost_ratio, b->deflt.server_s / b->best.server_s, 1e-12);
	plan_result_release(&r);
	/* A metric without a design leaves the cell without one. */
	f.side[2] = 1;
	sides(&f, 3);
	in.side[1] = "b";
	assert_int_equal(plan_decide(&in, &o, &r), 0);
	assert_false(r.cells[0].ok);
	assert_true(isnan(r.cells[0].cost_ratio));
	plan_result_release(&r);
}

/* s_b 0: m* is infinite, the row is capped, and the design is the one of at most
 * PLAN_MAX_REQUESTS with the least server time (checked against every m). */
static void test_plan_decide_capped(void **state)
{
	static const double l[3][2] = { { 0, 0.1 }, { 0.02, 0.08 }, { 0.01, 0.09 } };
	struct fixture f;
	struct plan_input in = { { "a", NULL }, &f.cell, 1 };
	struct plan_opts o;
	struct plan_result r;
	const struct plan_row *w;
	size_t i, m;
	int s;

	(void)state;
	one_side(&f, 6000);
	for (i = 0; i < 3; i++)
		for (s = 0; s < 2; s++)
			f.v[i][PLAN_TG][s].value = 100 * exp(l[i][s]);
	f.cell.n_prompts = 40;
	plan_opts_init(&o);
	assert_int_equal(plan_decide(&in, &o, &r), 0);
	w = &r.rows[PLAN_TG];
	assert_true(isinf(w->m_star));
	assert_true(w->capped);
	assert_true(w->best.rounds >= 2);
	for (m = 1; m <= PLAN_MAX_REQUESTS; m++) {
		double sw = w->sw_pct / 100;
		size_t n = plan_rounds_needed(2 * sw * sw / (double)m, 2);

		if (n)
			assert_true(w->best.server_s <= n * 2 * (4000 + m * 1000.0) / 1000 + 1e-9);
	}
	assert_false(r.rows[PLAN_PP].capped);
	plan_result_release(&r);
}

/* What cannot be planned is said, never guessed. */
static void test_plan_decide_unknowns(void **state)
{
	struct fixture f;
	struct plan_input in = { { "a", "b" }, &f.cell, 1 };
	struct plan_opts o;
	struct plan_result r;
	size_t i;

	(void)state;
	plan_opts_init(&o);
	/* Two sides, the second with one instance. */
	one_side(&f, 6000);
	f.side[2] = 1;
	sides(&f, 3);
	assert_int_equal(plan_decide(&in, &o, &r), 0);
	assert_int_equal(r.rows[0].status, PLAN_FEW_INSTANCES);
	assert_int_equal(r.rows[0].short_side, 1);
	assert_int_equal(r.rows[0].inst[1], 1);
	assert_true(isnan(r.rows[0].m_star));
	assert_int_equal(r.rows[0].best.rounds, 0);
	assert_true(isnan(r.rows[0].cost_ratio));
	plan_result_release(&r);
	/* One request per instance: no within part. */
	in.side[1] = NULL;
	one_side(&f, 6000);
	for (i = 0; i < 3; i++)
		f.inst[i].values[PLAN_PP].n = f.inst[i].values[PLAN_TG].n = 1;
	assert_int_equal(plan_decide(&in, &o, &r), 0);
	assert_int_equal(r.rows[1].status, PLAN_FEW_REQUESTS);
	assert_true(isnan(r.rows[1].sw_pct));
	plan_result_release(&r);
	/* No duration, or a request without a wall time: no instance cost. */
	one_side(&f, NAN);
	f.inst[0].duration_ms = 6000;
	f.inst[0].n_wall = 1;
	assert_int_equal(plan_decide(&in, &o, &r), 0);
	assert_int_equal(r.rows[0].status, PLAN_NO_COST);
	assert_int_equal(r.rows[0].n_cost, 0);
	assert_false(isnan(r.rows[0].sb_pct));
	plan_result_release(&r);
	/* The median instance cost ignores the instances it cannot cost. */
	one_side(&f, 6000);
	f.inst[0].duration_ms = NAN;
	f.inst[1].duration_ms = 9000;
	assert_int_equal(plan_decide(&in, &o, &r), 0);
	assert_int_equal(r.rows[0].n_cost, 2);
	assert_float_equal(r.rows[0].c_inst_ms, (7000 + 4000) / 2.0, 1e-9);
	plan_result_release(&r);
	/* Options out of range. */
	o.mde_pct = 0;
	assert_int_equal(plan_decide(&in, &o, &r), -1);
	plan_opts_init(&o);
	o.default_reps = 0;
	assert_int_equal(plan_decide(&in, &o, &r), -1);
	plan_result_release(&r);
}

/* plan_cells(): a cell per pool of the first side that the second measured too
 * (the same model, spec type, n_max, endpoint and config, at the same ctx and
 * n_predict), its strings the first pool's face's, and the most prompts any run
 * of either pool asked; with one side, every pool. */
static void test_plan_cells(void **state)
{
	struct run a[4], b[3];
	struct pool pa[3], pb[2];
	const size_t a0[2] = { 0, 1 }, b0[2] = { 0, 1 };
	struct plan_input in;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		fx_run(&a[i], "a", "ours", i < 3 ? "m" : "n");
		a[i].ctx = 8192;
		a[i].n_predict = 256;
		a[i].n_prompts_asked = (int64_t)i + 1;
	}
	for (i = 0; i < 3; i++) {
		fx_run(&b[i], "b", "llama.cpp", "m");
		b[i].ctx = 8192;
		b[i].n_predict = 256;
		b[i].n_prompts_asked = 9;
	}
	fx_set(&a[2].spec_type, "draft");
	a[2].n_max = 2;
	b[2].ctx = 4096; /* the same cell at another ctx: not the plan's cell */
	fx_set(&b[2].spec_type, "draft");
	b[2].n_max = 2;
	fx_pool_of(&pa[0], a, a0, 2); /* m, base: two runs */
	fx_pool(&pa[1], &a[2], 1);    /* m, draft n_max 2 */
	fx_pool(&pa[2], &a[3], 1);    /* n: the other side has none */
	fx_pool_of(&pb[0], b, b0, 2);
	fx_pool(&pb[1], &b[2], 1);

	plan_cells("ours", pa, 3, "llama.cpp", pb, 2, &in);
	assert_string_equal(in.side[0], "ours");
	assert_string_equal(in.side[1], "llama.cpp");
	assert_int_equal(in.n_cells, 1);
	assert_ptr_equal(in.cells[0].pool[0], &pa[0]);
	assert_ptr_equal(in.cells[0].pool[1], &pb[0]);
	assert_string_equal(in.cells[0].model, "m");
	assert_string_equal(in.cells[0].spec_type, "");
	assert_int_equal(in.cells[0].ctx, 8192);
	assert_int_equal(in.cells[0].n_prompts, 9);
	plan_input_release(&in);
	assert_null(in.cells);

	plan_cells("ours", pa, 3, NULL, NULL, 0, &in);
	assert_null(in.side[1]);
	assert_int_equal(in.n_cells, 3);
	assert_null(in.cells[0].pool[1]);
	assert_int_equal(in.cells[0].n_prompts, 2); /* runs 0 and 1 asked 1 and 2 */
	assert_int_equal(in.cells[1].n_max, 2);
	assert_string_equal(in.cells[1].spec_type, "draft");
	assert_string_equal(in.cells[2].model, "n");
	assert_int_equal(in.cells[2].n_prompts, 4);
	plan_input_release(&in);
	plan_input_release(NULL);

	for (i = 0; i < 3; i++)
		free(pa[i].runs);
	for (i = 0; i < 2; i++)
		free(pb[i].runs);
	for (i = 0; i < 4; i++)
		run_release(&a[i]);
	for (i = 0; i < 3; i++)
		run_release(&b[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_components_by_hand),
		cmocka_unit_test(test_plan_components_two_sides),
		cmocka_unit_test(test_plan_components_floor),
		cmocka_unit_test(test_plan_components_skips_bad_values),
		cmocka_unit_test(test_plan_rounds_needed),
		cmocka_unit_test(test_plan_decide_by_hand),
		cmocka_unit_test(test_plan_decide_prompts_first),
		cmocka_unit_test(test_plan_decide_spec_keeps_prompts),
		cmocka_unit_test(test_plan_decide_both),
		cmocka_unit_test(test_plan_decide_capped),
		cmocka_unit_test(test_plan_decide_unknowns),
		cmocka_unit_test(test_plan_cells),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
