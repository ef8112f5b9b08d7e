/* test_until.c: collect --until-decided's state across rounds (analyze/until.c)
 * with the values a session hands it: which cells are watched, a comparison that
 * decides one cell and leaves another open, the skip and more answers that
 * follow, the server time, the final look, and the lines reports/until_write.c
 * prints of it. */
#include "analyze/plan.h"
#include "analyze/until.h"
#include "reports/until_write.h"
#include "schema/record.h"
#include "tests/run_fixture.h"
#include "tpsdb.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

/* Engine 0 is ours, engine 1 llama.cpp, engine 2 a third with no ours partner for
 * n_max 3; one model. Cells: ours base, ours n_max 3, llama base, llama n_max 3,
 * third draft-simple n_max 5. */
static const struct until_cell cells[] = {
	{ 0, 0, "", TPS_NULL },
	{ 0, 0, "draft-simple", 3 },
	{ 1, 0, "", TPS_NULL },
	{ 1, 0, "draft-simple", 3 },
	{ 2, 0, "draft-simple", 5 },
};
#define N_CELLS (sizeof(cells) / sizeof(cells[0]))

static void row(struct parity_row *r, char *spec, int64_t n_max, const char *metric,
		enum verdict_kind kind, enum verdict_regression reg, double delta, double lo,
		double hi)
{
	fx_row(r, spec, n_max, metric, kind);
	r->v.decided = kind != VERDICT_UNDECIDED;
	r->v.regression = reg;
	r->v.delta_pct = delta;
	r->v.ci_lo_pct = lo;
	r->v.ci_hi_pct = hi;
}

/* Three rounds of 20.5 s per run on every cell. */
static void three_rounds(struct until *u)
{
	int64_t r;
	size_t k;

	for (r = 1; r <= 3; r++)
		for (k = 0; k < N_CELLS; k++)
			until_run_ended(u, k, r, 20.5);
}

static void comparison(struct parity_row rows[4], struct parity_result *res)
{
	/* base: parity on both metrics; n_max 3: pp parity, tg still straddling. */
	row(&rows[0], "", TPS_NULL, "pp", VERDICT_PARITY, VERDICT_REG_NO, 0.31, -0.5, 1.12);
	row(&rows[1], "", TPS_NULL, "tg", VERDICT_PARITY, VERDICT_REG_NO, -0.2, -0.9, 0.5);
	row(&rows[2], "draft-simple", 3, "pp", VERDICT_PARITY, VERDICT_REG_NO, 0.1, -0.4,
	    0.6);
	row(&rows[3], "draft-simple", 3, "tg", VERDICT_UNDECIDED, VERDICT_REG_UNDECIDED, -1.8,
	    -4.1, 0.6);
	memset(res, 0, sizeof(*res));
	res->rows = rows;
	res->n_rows = 4;
}

static void test_until_watch(void **state)
{
	struct until u;
	size_t open, all;

	(void)state;
	until_init(&u, cells, N_CELLS, 1, 0, DECIDED_PARITY, PARITY_BOTH);
	assert_int_equal(u.w[0].ours_cell, SIZE_MAX);
	assert_int_equal(u.w[1].ours_cell, SIZE_MAX);
	assert_int_equal(u.w[2].ours_cell, 0);
	assert_int_equal(u.w[3].ours_cell, 1);
	/* No ours cell with draft-simple n_max 5: nothing to compare it with. */
	assert_int_equal(u.w[4].ours_cell, SIZE_MAX);
	until_count(&u, &open, &all);
	assert_int_equal(open, 2);
	assert_int_equal(all, 2);
	assert_int_equal(until_model_open(&u, 0), 1);
	/* Nothing is skipped before anything is decided. */
	for (size_t k = 0; k < N_CELLS; k++)
		assert_int_equal(until_skip(&u, k), 0);
	until_release(&u);
}

static void test_until_take(void **state)
{
	struct parity_row rows[4];
	struct parity_result res;
	struct until u;
	size_t newly[N_CELLS], open, all;
	unsigned char run[N_CELLS];

	(void)state;
	until_init(&u, cells, N_CELLS, 1, 0, DECIDED_PARITY, PARITY_BOTH);
	/* Before the first look every cell runs again, whatever is open. */
	assert_int_equal(until_next(&u, 0, 1, run), N_CELLS);
	/* Rounds 1 and 2 are too early for the first look. */
	assert_int_equal(until_look(&u, 0, 1), 0);
	assert_int_equal(until_look(&u, 0, 2), 0);
	three_rounds(&u);
	assert_int_equal(until_look(&u, 0, 3), 1);
	comparison(rows, &res);
	/* Engine 2's comparison finds none of engine 1's cells. */
	assert_int_equal(until_take(&u, &res, 0, 2, 3, newly), 0);
	assert_int_equal(until_take(&u, &res, 0, 1, 3, newly), 1);
	assert_int_equal(newly[0], 2);
	assert_int_equal(u.w[2].decided_at, 3);
	assert_int_equal(u.w[3].decided_at, 0);
	assert_int_equal(u.w[3].last_round, 3);
	assert_int_equal(u.w[3].have[PARITY_METRIC_TG], 1);
	assert_true(u.w[3].last[PARITY_METRIC_TG].delta_pct == -1.8);
	until_count(&u, &open, &all);
	assert_int_equal(open, 1);
	assert_int_equal(all, 2);
	/* The decided cell and its ours cell stop; n_max 3 runs on. */
	assert_int_equal(until_skip(&u, 2), 1);
	assert_int_equal(until_skip(&u, 0), 1);
	assert_int_equal(until_skip(&u, 1), 0);
	assert_int_equal(until_skip(&u, 3), 0);
	assert_int_equal(until_skip(&u, 4), 0);
	assert_int_equal(until_model_open(&u, 0), 1);
	/* The plan out of the look: round 4 starts cells 1, 3 and 4, not 0 and 2. */
	memset(run, 9, sizeof(run));
	assert_int_equal(until_next(&u, 0, 3, run), 3);
	assert_memory_equal(run, ((unsigned char[]){ 0, 1, 0, 1, 1 }), N_CELLS);
	/* Its own runs and ours's: 3 rounds x 2 cells x 20.5 s; round 2 is half that. */
	assert_true(until_server_time(&u, 2, 3) == 123.0);
	assert_true(until_server_time(&u, 3, 2) == 82.0);
	/* A decided cell is not taken again: round 4 says base is a regression. */
	until_run_ended(&u, 1, 4, 20.5);
	until_run_ended(&u, 3, 4, 20.5);
	rows[1].v.kind = VERDICT_SLOWER;
	rows[3].v.kind = VERDICT_PARITY;
	rows[3].v.decided = 1;
	assert_int_equal(until_take(&u, &res, 0, 1, 4, newly), 1);
	assert_int_equal(newly[0], 3);
	assert_int_equal(u.w[2].decided_at, 3);
	assert_int_equal(u.w[2].last[PARITY_METRIC_TG].kind, VERDICT_PARITY);
	assert_int_equal(until_model_open(&u, 0), 0);
	assert_int_equal(until_skip(&u, 1), 1);
	/* Nothing open: the model's rounds end. */
	assert_int_equal(until_next(&u, 0, 4, run), 0);
	until_release(&u);
}

/* A look of the rounds rule on r: log ratio m, standard error se, 3 rounds. */
static void rounds_look(struct parity_row *r, double m, double se)
{
	r->v.method = VERDICT_METHOD_ROUNDS;
	r->v.log_m = m;
	r->v.log_se = se;
	r->v.df = 2;
	r->v.rounds = 3;
	r->v.band_pct = 2;
}

/* A parity session over cells with the futility stop at max_rounds (0: off),
 * three rounds run. */
static void futile_session(struct until *u, int64_t max_rounds)
{
	until_init(u, cells, N_CELLS, 1, 0, DECIDED_PARITY, PARITY_BOTH);
	if (max_rounds)
		until_set_futility(u, max_rounds);
	three_rounds(u);
}

/* The futility stop: n_max 3's tg, undecided at the margin with a wide interval
 * at round 3 of at most 10, is stopped as unanswerable: it and its ours cell start
 * no more, it counts as neither open nor decided, and its line gives its mde. A
 * look that may yet answer, or one with no look left, or with futility off,
 * stops nothing. */
static void test_until_futility(void **state)
{
	struct parity_row rows[4];
	struct parity_result res;
	struct until u;
	size_t newly[N_CELLS], open, all;
	unsigned char run[N_CELLS];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	comparison(rows, &res);
	rounds_look(&rows[3], log(0.98), 0.02);
	rows[3].v.mde_pct = 12.5;
	/* Off (the default): the cell stays open. */
	futile_session(&u, 0);
	assert_int_equal(until_take(&u, &res, 0, 1, 3, newly), 1);
	assert_int_equal(u.w[3].futile_at, 0);
	until_release(&u);
	/* On: stopped at round 3. */
	futile_session(&u, 10);
	assert_int_equal(until_take(&u, &res, 0, 1, 3, newly), 2);
	assert_int_equal(newly[0], 2);
	assert_int_equal(newly[1], 3);
	assert_int_equal(u.w[3].decided_at, 0);
	assert_int_equal(u.w[3].futile_at, 3);
	assert_true(u.w[3].chance[PARITY_METRIC_TG] < PLAN_FUTILE_CHANCE);
	/* pp answered: no chance to judge. */
	assert_true(isnan(u.w[3].chance[PARITY_METRIC_PP]));
	until_count(&u, &open, &all);
	assert_int_equal(open, 0);
	assert_int_equal(all, 2);
	assert_int_equal(until_count_futile(&u), 1);
	assert_int_equal(until_open(&u, 3), 0);
	assert_int_equal(until_skip(&u, 3), 1);
	assert_int_equal(until_skip(&u, 1), 1);
	assert_int_equal(until_next(&u, 0, 3, run), 0);
	f = open_memstream(&buf, &len);
	until_write_futile(f, &u, 3, "tiny", "ours", "llama.cpp");
	until_write_total(f, &u);
	fclose(f);
	/* pp answered before the stop: its line gives the answer, as the table does. */
	assert_string_equal(buf, "decided: tiny draft-simple n_max=3 pp ours vs llama.cpp: "
			    "regression no, parity (+0.10% [-0.40%, +0.60%]) after 3 rounds, "
			    "123.0 s of server time\n"
			    "unanswerable: tiny draft-simple n_max=3 tg ours vs llama.cpp: "
			    "mde 12.50%, needs more than 100 rounds (of --max-rounds 10); "
			    "regression undecided, undecided (-1.80% [-4.10%, +0.60%]) after 3 "
			    "rounds, 123.0 s of server time\n"
			    "until-decided: 0 of 2 cells open, 1 unanswerable\n");
	free(buf);
	/* The matrix table: the stopped cell's pp, answered (parity), gives its
	 * answer as compare would; only tg, the metric that could not answer, is
	 * unanswerable. */
	{
		static const char *const models[] = { "tiny" };
		static const char *const engines[] = { "ours", "llama.cpp" };

		/* tg's interval pooled 2 of the 3 rounds (the robust rule left an
		 * instance out): the table gives 2, as compare does. */
		u.w[3].last[PARITY_METRIC_TG].rounds = 2;
		buf = NULL;
		f = open_memstream(&buf, &len);
		assert_non_null(f);
		until_write_matrix(f, &u, models, engines);
		fclose(f);
		assert_non_null(strstr(buf, "n_max=3  pp      parity "));
		assert_non_null(strstr(buf, "n_max=3  tg      unanswerable  -1.80%  "
				       "[-4.10%, +0.60%]       2     123.0\n"));
		free(buf);
	}
	until_release(&u);
	/* pp not answered yet but with a fair chance, tg hopeless: the cell stops,
	 * and pp's line says it was stopped with tg (the two share its runs). */
	row(&rows[2], "draft-simple", 3, "pp", VERDICT_UNDECIDED, VERDICT_REG_UNDECIDED, 0.5,
	    -0.3, 1.3);
	rounds_look(&rows[2], log(1.005), 0.004);
	futile_session(&u, 10);
	assert_int_equal(until_take(&u, &res, 0, 1, 3, newly), 2);
	assert_int_equal(u.w[3].futile_at, 3);
	assert_true(u.w[3].chance[PARITY_METRIC_PP] >= PLAN_FUTILE_CHANCE);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	until_write_futile(f, &u, 3, "tiny", "ours", "llama.cpp");
	fclose(f);
	assert_string_equal(buf, "unanswerable: tiny draft-simple n_max=3 pp ours vs llama.cpp: "
			    "stopped with tg; regression undecided, undecided (+0.50% [-0.30%, "
			    "+1.30%]) after 3 rounds, 123.0 s of server time\n"
			    "unanswerable: tiny draft-simple n_max=3 tg ours vs llama.cpp: "
			    "mde 12.50%, needs more than 100 rounds (of --max-rounds 10); "
			    "regression undecided, undecided (-1.80% [-4.10%, +0.60%]) after 3 "
			    "rounds, 123.0 s of server time\n");
	free(buf);
	until_release(&u);
	row(&rows[2], "draft-simple", 3, "pp", VERDICT_PARITY, VERDICT_REG_NO, 0.1, -0.4, 0.6);
	/* A look that may answer yet: a narrow interval just short of the band. */
	rounds_look(&rows[3], log(1.005), 0.004);
	futile_session(&u, 10);
	assert_int_equal(until_take(&u, &res, 0, 1, 3, newly), 1);
	assert_int_equal(u.w[3].futile_at, 0);
	assert_true(u.w[3].chance[PARITY_METRIC_TG] >= PLAN_FUTILE_CHANCE);
	until_release(&u);
	/* No look left after the last round. */
	rounds_look(&rows[3], log(0.98), 0.02);
	futile_session(&u, 3);
	assert_int_equal(until_take(&u, &res, 0, 1, 3, newly), 1);
	assert_int_equal(u.w[3].futile_at, 0);
	until_release(&u);
}

/* Two models, ours (engine 0) and up (engine 1) on each. */
static const struct until_cell cells2[] = {
	{ 0, 0, "", TPS_NULL },
	{ 1, 0, "", TPS_NULL },
	{ 0, 1, "", TPS_NULL },
	{ 1, 1, "", TPS_NULL },
};

/* The schedule: without a budget, model by model as collect always ran them;
 * with one, the model whose open cells are likelier to answer goes first, costs
 * come from the runs so far, and a model whose next round does not fit ends
 * short of budget. */
static void test_until_schedule(void **state)
{
	struct until u;
	size_t mi, dec, fut, open, sh, k;
	int64_t round;
	char note[192];

	(void)state;
	until_init(&u, cells2, 4, 2, 0, DECIDED_REGRESSION, PARITY_BOTH);
	until_set_schedule(&u, 3, 0);
	assert_int_equal(until_pick(&u, &mi, &round), 1);
	assert_int_equal(mi, 0);
	assert_int_equal(round, 1);
	assert_true(until_fits(&u, 1));
	assert_true(until_cost(&u, 1) == 0);
	until_round_done(&u, 0);
	until_round_done(&u, 0);
	assert_int_equal(until_pick(&u, &mi, &round), 1);
	assert_int_equal(mi, 0);
	assert_int_equal(round, 3);
	/* Its last round: the next model starts. */
	until_round_done(&u, 0);
	assert_int_equal(until_pick(&u, &mi, &round), 1);
	assert_int_equal(mi, 1);
	assert_int_equal(round, 1);
	until_model_end(&u, 1, 0);
	assert_int_equal(until_pick(&u, &mi, &round), 0);
	until_release(&u);

	/* Every cell ran twice at 10 s (up on model 1 at 14 s). */
	until_init(&u, cells2, 4, 2, 0, DECIDED_REGRESSION, PARITY_BOTH);
	/* Before any run ended no cost is known, so neither is the time left. */
	until_set_schedule(&u, 10, 200);
	assert_true(isnan(until_time_left(&u)));
	until_write_note(note, sizeof(note), &u);
	assert_string_equal(note, "0 decided, 0 unanswerable, 2 open of 2 cells, server time "
			    "left not known yet (budget 200 s, 0 s spent)");
	assert_int_equal(until_rounds_seen(&u, 3), 0);
	for (k = 0; k < 4; k++) {
		until_run_ended(&u, k, 1, k == 3 ? 14 : 10);
		until_run_ended(&u, k, 2, k == 3 ? 14 : 10);
	}
	assert_true(until_spent(&u) == 88);
	assert_int_equal(until_rounds_seen(&u, 3), 2);
	assert_true(until_cost(&u, 3) == 14);
	assert_true(until_round_cost(&u, 1) == 24);
	/* Model 1's cell near a boundary, model 0's nearly hopeless. */
	u.w[1].chance[PARITY_METRIC_PP] = 0.1;
	u.w[3].chance[PARITY_METRIC_TG] = 0.7;
	until_set_schedule(&u, 10, 200);
	assert_int_equal(until_pick(&u, &mi, &round), 1);
	assert_int_equal(mi, 1);
	assert_int_equal(round, 1);
	/* The time left: each model's 10 rounds at its round's cost, at most the
	 * budget left. */
	assert_true(until_time_left(&u) == 200 - 88);
	/* 88 s spent: model 0's round (20 s) fits 110 s, model 1's (24 s) does not. */
	until_set_schedule(&u, 10, 110);
	assert_true(until_fits(&u, 3));
	assert_int_equal(until_pick(&u, &mi, &round), 1);
	assert_int_equal(mi, 0);
	assert_int_equal(u.short_of_budget[1], 1);
	until_set_schedule(&u, 10, 100);
	assert_false(until_fits(&u, 3));
	assert_int_equal(until_pick(&u, &mi, &round), 0);
	until_tally(&u, &dec, &fut, &open, &sh);
	assert_int_equal(dec, 0);
	assert_int_equal(fut, 0);
	assert_int_equal(open, 2);
	assert_int_equal(sh, 2);
	assert_true(until_time_left(&u) == 0);
	/* The progress note counts the matrix and the time. */
	until_write_note(note, sizeof(note), &u);
	assert_string_equal(note, "0 decided, 0 unanswerable, 2 open of 2 cells, about 0 s of "
			    "server time left (budget 100 s, 88 s spent)");
	/* The matrix table: a cell not compared yet shows the rounds it ran and
	 * their server time (both runs of up and of ours on model 1: 2 x 14 +
	 * 2 x 10 s), not 0. */
	{
		static const char *const models[] = { "m0", "m1" };
		static const char *const engines[] = { "ours", "up" };
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		assert_non_null(f);
		until_write_matrix(f, &u, models, engines);
		fclose(f);
		assert_non_null(strstr(buf, "\nm1     ours vs up  tg      open (budget)      -  -   "
				       "           2      48.0\n"));
		free(buf);
	}
	until_release(&u);
}

static void test_until_question(void **state)
{
	struct parity_row rows[4];
	struct parity_result res;
	struct until u;
	size_t newly[N_CELLS];

	(void)state;
	/* The regression question: n_max 3's tg interval [-4.1%, +0.6%] holds -2%,
	 * undecided; once its lower end lies above -2% it is answered (no) although
	 * the two-sided verdict still straddles the band. */
	until_init(&u, cells, N_CELLS, 1, 0, DECIDED_REGRESSION, PARITY_BOTH);
	comparison(rows, &res);
	assert_int_equal(until_take(&u, &res, 0, 1, 3, newly), 1);
	rows[3].v.regression = VERDICT_REG_NO;
	assert_int_equal(until_take(&u, &res, 0, 1, 4, newly), 1);
	assert_int_equal(newly[0], 3);
	until_release(&u);
}

/* --metric tg: n_max 3's open pp decides nothing, its decided tg decides the
 * cell; --metric pp the other way round, and the line of the metric not watched
 * says so. A value that names neither metric alone is both. */
static void test_until_metric(void **state)
{
	struct parity_row rows[4];
	struct parity_result res;
	struct until u;
	size_t newly[N_CELLS];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	comparison(rows, &res);
	rows[2].v.regression = VERDICT_REG_UNDECIDED; /* n_max 3: pp open ... */
	rows[3].v.regression = VERDICT_REG_NO;        /* ... and tg answered */
	until_init(&u, cells, N_CELLS, 1, 0, DECIDED_REGRESSION, PARITY_BOTH);
	assert_int_equal(until_take(&u, &res, 0, 1, 3, newly), 1);
	assert_int_equal(newly[0], 2);
	until_release(&u);
	until_init(&u, cells, N_CELLS, 1, 0, DECIDED_REGRESSION, PARITY_TG);
	assert_int_equal(until_watches(&u, PARITY_METRIC_TG), 1);
	assert_int_equal(until_watches(&u, PARITY_METRIC_PP), 0);
	three_rounds(&u);
	assert_int_equal(until_take(&u, &res, 0, 1, 3, newly), 2);
	assert_int_equal(until_model_open(&u, 0), 0);
	assert_non_null(f = open_memstream(&buf, &len));
	until_write_cell(f, "decided", &u, 3, "tiny", "ours", "llama.cpp");
	fclose(f);
	assert_string_equal(buf,
		"decided: tiny draft-simple n_max=3 pp ours vs llama.cpp: regression undecided, "
		"parity (+0.10% [-0.40%, +0.60%]) after 3 rounds, 123.0 s of server time "
		"(not watched: --metric tg)\n"
		"decided: tiny draft-simple n_max=3 tg ours vs llama.cpp: regression no, "
		"undecided (-1.80% [-4.10%, +0.60%]) after 3 rounds, 123.0 s of server time\n");
	free(buf);
	until_release(&u);
	until_init(&u, cells, N_CELLS, 1, 0, DECIDED_REGRESSION, PARITY_PP);
	assert_int_equal(until_take(&u, &res, 0, 1, 3, newly), 1);
	assert_int_equal(newly[0], 2);
	assert_int_equal(u.w[3].decided_at, 0);
	until_release(&u);
	until_init(&u, cells, N_CELLS, 1, 0, DECIDED_REGRESSION, 0);
	assert_int_equal(u.watched, PARITY_BOTH);
	until_release(&u);
}

static void test_until_final_look(void **state)
{
	struct until u;

	(void)state;
	until_init(&u, cells, N_CELLS, 1, 0, DECIDED_PARITY, PARITY_BOTH);
	/* Two rounds: too few to compare at all. */
	until_run_ended(&u, 0, 1, 1.0);
	until_run_ended(&u, 2, 2, 1.0);
	assert_int_equal(until_final_look(&u, 0), 0);
	/* Looked at round 3, then round 4 ran: the session compares once more. */
	until_run_ended(&u, 2, 3, 1.0);
	assert_int_equal(until_look(&u, 0, 3), 1);
	assert_int_equal(until_final_look(&u, 0), 0);
	until_run_ended(&u, 2, 4, 1.0);
	assert_int_equal(until_final_look(&u, 0), 4);
	assert_int_equal(until_final_look(&u, 0), 0);
	until_release(&u);
}

static void test_until_write(void **state)
{
	struct parity_row rows[4];
	struct parity_result res;
	struct until u;
	size_t newly[N_CELLS];
	char *buf = NULL, note[64];
	size_t len = 0;
	FILE *f;

	(void)state;
	until_init(&u, cells, N_CELLS, 1, 0, DECIDED_PARITY, PARITY_BOTH);
	assert_non_null(f = open_memstream(&buf, &len));
	until_write_cell(f, "open", &u, 3, "tiny", "ours", "llama.cpp");
	three_rounds(&u);
	comparison(rows, &res);
	until_take(&u, &res, 0, 1, 3, newly);
	until_write_cell(f, "decided", &u, 2, "tiny", "ours", "llama.cpp");
	until_write_total(f, &u);
	fclose(f);
	assert_string_equal(buf,
		"open: tiny draft-simple n_max=3 pp ours vs llama.cpp: not compared (fewer than "
		"3 rounds with both engines)\n"
		"open: tiny draft-simple n_max=3 tg ours vs llama.cpp: not compared (fewer than "
		"3 rounds with both engines)\n"
		"decided: tiny pp ours vs llama.cpp: regression no, parity (+0.31% [-0.50%, "
		"+1.12%]) after 3 rounds, 123.0 s of server time\n"
		"decided: tiny tg ours vs llama.cpp: regression no, parity (-0.20% [-0.90%, "
		"+0.50%]) after 3 rounds, 123.0 s of server time\n"
		"until-decided: 1 of 2 cells open\n");
	until_write_note(note, sizeof(note), &u);
	assert_string_equal(note, "1 of 2 cells open");
	free(buf);
	until_release(&u);
}

/* A verdict's state in words, as the decided and open lines print it; a figure
 * that is not finite reads "?". */
static void test_until_write_state(void **state)
{
	struct verdict v;
	char buf[160];

	(void)state;
	memset(&v, 0, sizeof(v));
	v.kind = VERDICT_PARITY;
	v.regression = VERDICT_REG_NO;
	v.delta_pct = 0.31;
	v.ci_lo_pct = -0.5;
	v.ci_hi_pct = 1.12;
	until_write_state(&v, buf, sizeof(buf));
	assert_string_equal(buf, "regression no, parity (+0.31% [-0.50%, +1.12%])");
	v.kind = VERDICT_SLOWER;
	v.regression = VERDICT_REG_YES;
	v.delta_pct = -4.523;
	v.ci_lo_pct = -5.6;
	v.ci_hi_pct = -3.41;
	until_write_state(&v, buf, sizeof(buf));
	assert_string_equal(buf, "regression yes, slower (-4.52% [-5.60%, -3.41%])");
	v.kind = VERDICT_UNKNOWN;
	v.regression = VERDICT_REG_UNKNOWN;
	v.delta_pct = NAN;
	v.ci_lo_pct = v.ci_hi_pct = NAN;
	until_write_state(&v, buf, sizeof(buf));
	assert_string_equal(buf, "regression unknown, unknown (? [?, ?])");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_until_watch),
		cmocka_unit_test(test_until_take),
		cmocka_unit_test(test_until_futility),
		cmocka_unit_test(test_until_schedule),
		cmocka_unit_test(test_until_question),
		cmocka_unit_test(test_until_metric),
		cmocka_unit_test(test_until_final_look),
		cmocka_unit_test(test_until_write),
		cmocka_unit_test(test_until_write_state),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
