/* test_plan.c: the variance parts, the costs and the designs of analyze/plan.c,
 * over plain structs, against values worked out by hand in the comments; and the
 * cells plan_cells() makes of two sides' pools. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/estimate.h"
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

/* A pair whose two instances of a round share a round effect (the host, the
 * hour): u_r moves both, so it drops out of d_r = log(ours_r) - log(vs_r), while
 * the between-instance part counts it on each side. 40 rounds of 8 requests an
 * instance; requests sd 2%, a per-instance part 1% on each side, round effect 3%.
 * Draws from a fixed generator, so the test is the same everywhere. */
#define PR_ROUNDS 40
#define PR_REQ 8
struct pair_fixture {
	struct run_value v[2][PR_ROUNDS][PLAN_N_METRICS][PR_REQ];
	double wall[2][PR_ROUNDS][PR_REQ];
	struct run inst[2][PR_ROUNDS];
	const struct run *ptr[2][PR_ROUNDS];
	struct pool pool[2];
	struct plan_cell cell;
};

static double pr_normal(uint64_t *s)
{
	double u, v;

	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	u = ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	v = ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static void pair_fixture(struct pair_fixture *f, double round_sd, double inst_sd,
			 double req_sd)
{
	uint64_t seed = 12345;
	size_t r, j;
	int s, m;

	memset(f, 0, sizeof(*f));
	for (r = 0; r < PR_ROUNDS; r++) {
		double u = round_sd * pr_normal(&seed);

		for (s = 0; s < 2; s++) {
			struct run *in = &f->inst[s][r];
			double e = inst_sd * pr_normal(&seed);

			in->round = (int64_t)r + 1;
			for (m = 0; m < PLAN_N_METRICS; m++) {
				for (j = 0; j < PR_REQ; j++) {
					f->v[s][r][m][j].prompt_id = (int64_t)j + 1;
					f->v[s][r][m][j].rep = 1;
					/* Each prompt its own level, alike on both sides. */
					double z = req_sd * pr_normal(&seed);

					f->v[s][r][m][j].value = 100 * exp(0.1 * (double)j + u +
									   e + z);
				}
				in->values[m].v = f->v[s][r][m];
				in->values[m].n = PR_REQ;
			}
			for (j = 0; j < PR_REQ; j++)
				f->wall[s][r][j] = 1000;
			in->wall_ms = f->wall[s][r];
			in->n_wall = PR_REQ;
			in->n_samples = PR_REQ;
			in->duration_ms = PR_REQ * 1000 + 5000;
			f->ptr[s][r] = in;
		}
	}
	for (s = 0; s < 2; s++) {
		f->pool[s].runs = f->ptr[s];
		f->pool[s].n = PR_ROUNDS;
		f->cell.pool[s] = &f->pool[s];
	}
	f->cell.model = "m";
	f->cell.spec_type = "";
	f->cell.endpoint = "completion";
	f->cell.n_prompts = PR_REQ;
}

static double sd_of(const double *x, size_t n)
{
	double mean = 0, ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		mean += x[i];
	mean /= (double)n;
	for (i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return sqrt(ss / (double)(n - 1));
}

/* The round sd plan predicts is the one d_r shows (in sample, exactly, when the
 * difference part is not floored), and the between-instance formula of the old
 * plan, 2 (s_b^2 + s_w^2 / m), is far above it: it counts the shared round effect
 * twice. The difference part is near its true sqrt(2) x 1%. */
static void test_plan_pair_components(void **state)
{
	struct pair_fixture *f = calloc(1, sizeof(*f));
	struct plan_row row;
	double d[PR_ROUNDS], old, sw, sb;
	size_t r, j;

	(void)state;
	pair_fixture(f, 0.03, 0.01, 0.02);
	assert_int_equal(plan_pair_components(&f->cell, PLAN_TG, &row), PR_ROUNDS);
	for (r = 0; r < PR_ROUNDS; r++) {
		double la = 0, lb = 0;

		for (j = 0; j < PR_REQ; j++) {
			la += log(f->v[0][r][PLAN_TG][j].value);
			lb += log(f->v[1][r][PLAN_TG][j].value);
		}
		d[r] = (la - lb) / PR_REQ;
	}
	assert_int_equal(row.n_rounds, PR_ROUNDS);
	assert_float_equal(row.sd_d_pct, 100 * sd_of(d, PR_ROUNDS), 1e-9);
	assert_float_equal(row.inv_m, 1.0 / PR_REQ, 1e-12);
	assert_float_equal(row.fit_sd_pct, row.sd_d_pct, 1e-9);
	assert_true(fabs(row.sw_pct - 2) < 0.3);
	assert_true(fabs(row.sbd_pct - 100 * sqrt(2) * 0.01) < 0.6);
	sw = row.sw_pct / 100;
	sb = row.sb_pct / 100;
	old = 100 * sqrt(2 * (sb * sb + sw * sw / PR_REQ));
	assert_true(old > 2 * row.sd_d_pct);
	/* Under two matched rounds there is no round part. */
	f->pool[1].n = 1;
	assert_int_equal(plan_pair_components(&f->cell, PLAN_TG, &row), 1);
	assert_true(isnan(row.sd_d_pct) && isnan(row.sbd_pct) && isnan(row.fit_sd_pct));
	free(f);
}

/* plan_decide() on the pair: the paired round variance, designs of every prompt
 * with only the reps varying, the per-metric default plan_default_reps() gives;
 * and a pair with one matched round falls back to the between-instance part and
 * says so (PLAN_FEW_ROUNDS). */
static void test_plan_decide_pair(void **state)
{
	struct pair_fixture *f = calloc(1, sizeof(*f));
	struct plan_input in = { { "a", "b" }, NULL, 1 };
	struct plan_opts o;
	struct plan_result res;
	size_t rounds, reps, i;

	(void)state;
	pair_fixture(f, 0.03, 0.01, 0.02);
	in.cells = &f->cell;
	plan_opts_init(&o);
	assert_int_equal(plan_decide(&in, &o, &res), 0);
	for (i = 0; i < 2; i++) {
		const struct plan_row *w = &res.rows[i];
		double sbd = w->sbd_pct / 100, sw = w->sw_pct / 100;
		double m = (double)(w->best.prompts * w->best.reps);

		assert_int_equal(w->status, PLAN_OK);
		assert_true(w->paired);
		assert_int_equal(w->best.prompts, PR_REQ);
		assert_float_equal(w->best.round_sd_pct, 100 * sqrt(sbd * sbd + 2 * sw * sw / m),
				   1e-9);
		assert_true(w->best.rounds >= ESTIMATE_FIRST_LOOK && w->best.rounds <= 10);
		assert_true(w->best.chance >= 0.8);
		assert_true(isfinite(w->m_star));
		reps = plan_default_reps(&res, 0, (int)i, &rounds);
		assert_int_equal(reps, w->best.reps);
		assert_int_equal(rounds, w->best.rounds);
	}
	reps = plan_default_reps(&res, 0, PLAN_N_METRICS, &rounds);
	assert_int_equal(reps, res.cells[0].best.reps);
	assert_true(rounds >= res.rows[0].best.rounds && rounds >= res.rows[1].best.rounds);
	assert_int_equal(plan_default_reps(&res, 1, PLAN_PP, &rounds), 0);
	plan_result_release(&res);
	/* One matched round: the round effect cannot be seen. */
	for (i = 1; i < PR_ROUNDS; i++)
		f->inst[1][i].round = 1000 + (int64_t)i;
	assert_int_equal(plan_decide(&in, &o, &res), 0);
	assert_int_equal(res.rows[0].status, PLAN_FEW_ROUNDS);
	assert_int_equal(res.rows[0].n_rounds, 1);
	assert_true(res.cells[0].ok);
	assert_true(res.rows[0].best.round_sd_pct > 0);
	plan_result_release(&res);
	free(f);
}

/* The chance of deciding grows with the rounds the rule may run (the draws are
 * the same for every rounds), is nil before the first look, and agrees with a
 * reference that asks estimate_cell() itself at every look. */
static void test_plan_seq_chance(void **state)
{
	double prev = 0, ch, mr, ref;
	size_t n, k, decided = 0;
	struct estimate_params p;

	(void)state;
	assert_float_equal(plan_seq_chance(0.015, 2, 2, 500, &mr), 0, 0);
	assert_true(isnan(plan_seq_chance(-1, 2, 5, 500, NULL)));
	assert_true(isnan(plan_seq_chance(0.015, 0, 5, 500, NULL)));
	for (n = ESTIMATE_FIRST_LOOK; n <= 12; n++) {
		ch = plan_seq_chance(0.015, 2, n, PLAN_SIMS, &mr);
		assert_true(ch >= prev - 0.01);
		assert_true(mr >= ESTIMATE_FIRST_LOOK && mr <= (double)n);
		prev = ch;
	}
	assert_true(prev > 0.5);
	/* A smaller round sd decides sooner. */
	assert_true(plan_seq_chance(0.005, 2, 3, PLAN_SIMS, NULL) >
		    plan_seq_chance(0.02, 2, 3, PLAN_SIMS, NULL));
	/* The reference: 300 batches of 6 rounds, each looked at by estimate_cell()
	 * at the round sd itself; plan's batches are its own draws, so the two agree
	 * within sampling error. */
	estimate_params_init(&p);
	p.looks_to = 6;
	{
		struct estimate_unit a[6], b[6];
		uint64_t seed = 99;
		static const char *const t[2] = { "2000-01-01T00:00:00Z", "2000-01-01T00:00:01Z" };

		memset(a, 0, sizeof(a));
		memset(b, 0, sizeof(b));
		for (n = 0; n < 6; n++) {
			a[n].round = b[n].round = (int64_t)n + 1;
			a[n].batch = b[n].batch = "x";
			a[n].started_at = t[n % 2];
			b[n].started_at = t[1 - n % 2];
		}
		for (k = 0; k < 600; k++) {
			for (n = 0; n < 6; n++) {
				double h = 0.015 * pr_normal(&seed) / 2;

				a[n].value = exp(h);
				b[n].value = exp(-h);
			}
			for (n = ESTIMATE_FIRST_LOOK; n <= 6; n++) {
				struct estimate e;
				int done;

				assert_int_equal(estimate_cell(a, n, b, n, &p, &e), 0);
				done = e.v.regression == VERDICT_REG_YES ||
				       e.v.regression == VERDICT_REG_NO;
				estimate_release(&e);
				if (done)
					break;
			}
			decided += n <= 6;
		}
	}
	ref = (double)decided / 600;
	ch = plan_seq_chance(0.015, 2, 6, PLAN_SIMS, NULL);
	/* Binomial sd of the reference at 600 about 0.02; 4 sd. */
	assert_true(fabs(ch - ref) < 0.08);
	/* Rounds needed: the least reaching the power; none beyond max_rounds. */
	n = plan_rounds_needed(0.015, 2, 0.8, 10, &ch, &mr);
	assert_true(n >= ESTIMATE_FIRST_LOOK && n <= 10 && ch >= 0.8);
	assert_int_equal(plan_rounds_needed(0.2, 2, 0.8, 10, &ch, &mr), 0);
	assert_true(ch < 0.8);
	assert_int_equal(plan_rounds_needed(0.015, 2, 1.0, 10, &ch, &mr), 0);
}

/* What cannot be planned is said, never guessed. */
/* Futility's chance: a look at the margin with a wide interval has next to no
 * chance of an answer by round 10; a look that nearly answers has a good one;
 * no look left is 0, unusable numbers NaN; the parity question asks more than
 * the regression one of a look inside the band. */
static void test_plan_seq_chance_from(void **state)
{
	struct plan_look l = { .m = log(0.98), .se = 0.015, .df = 4, .rounds = 5,
			       .band_pct = 2 };
	double margin, near, ch;
	size_t need;

	(void)state;
	margin = plan_seq_chance_from(&l, 10, PLAN_SIMS);
	assert_true(margin < PLAN_FUTILE_CHANCE);
	/* Deterministic: the same seeds each call. */
	assert_float_equal(plan_seq_chance_from(&l, 10, PLAN_SIMS), margin, 0);
	assert_int_equal(plan_rounds_from(&l, 0.8), 0);
	l.m = log(1.01);
	l.se = 0.006;
	near = plan_seq_chance_from(&l, 10, PLAN_SIMS);
	assert_true(near > 0.5);
	need = plan_rounds_from(&l, 0.8);
	assert_true(need > 5 && need <= 10);
	/* The least: one round fewer does not reach 0.8. */
	assert_true(plan_seq_chance_from(&l, need, PLAN_SIMS) >= 0.8);
	assert_true(plan_seq_chance_from(&l, need - 1, PLAN_SIMS) < 0.8);
	/* Parity asks the interval inside +-2% too: no likelier than "no". */
	l.two_sided = 1;
	ch = plan_seq_chance_from(&l, 10, PLAN_SIMS);
	assert_true(ch <= near);
	l.two_sided = 0;
	assert_float_equal(plan_seq_chance_from(&l, 5, PLAN_SIMS), 0, 0);
	l.se = NAN;
	assert_true(isnan(plan_seq_chance_from(&l, 10, PLAN_SIMS)));
	assert_int_equal(plan_rounds_from(&l, 0.8), 0);
}

/* No design in reach: the most reps has the highest chance by a hair at the
 * most server time a round, so the plan takes the fewest reps whose chance is
 * within the simulation's noise (two standard errors of PLAN_SIMS batches) of
 * the most reps'. */
static void test_plan_decide_near_miss(void **state)
{
	struct fixture f;
	struct plan_input in = { { "a", NULL }, &f.cell, 1 };
	struct plan_opts o;
	struct plan_result r;
	const struct plan_row *row;
	double sb, sw, most, chance_most, noise, mean;
	size_t most_reps = PLAN_MAX_REQUESTS / 2;

	(void)state;
	plan_opts_init(&o);
	o.band_pct = 0.5; /* far inside the instances' scatter */
	one_side(&f, 6000);
	assert_int_equal(plan_decide(&in, &o, &r), 0);
	row = &r.rows[PLAN_TG];
	assert_int_equal(row->status, PLAN_OK);
	assert_int_equal(row->best.rounds, 0);
	sb = row->sb_pct / 100;
	sw = row->sw_pct / 100;
	most = sqrt(2 * (sb * sb + sw * sw / (double)(2 * most_reps)));
	assert_int_equal(plan_rounds_needed(most, o.band_pct, o.power, o.max_rounds,
					    &chance_most, &mean), 0);
	noise = 2 * sqrt(chance_most * (1 - chance_most) / PLAN_SIMS);
	assert_true(row->best.reps < most_reps);
	assert_true(row->best.chance >= chance_most - noise);
	/* And it is the fewest such: one rep fewer falls outside the noise. */
	if (row->best.reps > 1) {
		double fewer = sqrt(2 * (sb * sb + sw * sw / (double)(2 * (row->best.reps - 1))));
		double ch;

		plan_rounds_needed(fewer, o.band_pct, o.power, o.max_rounds, &ch, &mean);
		assert_true(ch < chance_most - noise);
	}
	plan_result_release(&r);
}

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
	o.band_pct = 0;
	assert_int_equal(plan_decide(&in, &o, &r), -1);
	plan_opts_init(&o);
	o.power = 1;
	assert_int_equal(plan_decide(&in, &o, &r), -1);
	plan_opts_init(&o);
	o.power = 0;
	assert_int_equal(plan_decide(&in, &o, &r), -1);
	plan_opts_init(&o);
	o.max_rounds = 1;
	assert_int_equal(plan_decide(&in, &o, &r), -1);
	plan_opts_init(&o);
	o.max_rounds = ESTIMATE_MAX_LOOK + 1;
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
		cmocka_unit_test(test_plan_pair_components),
		cmocka_unit_test(test_plan_decide_pair),
		cmocka_unit_test(test_plan_seq_chance),
		cmocka_unit_test(test_plan_seq_chance_from),
		cmocka_unit_test(test_plan_decide_near_miss),
		cmocka_unit_test(test_plan_decide_unknowns),
		cmocka_unit_test(test_plan_cells),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
