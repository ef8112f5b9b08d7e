/* bench_sim_futility.c: what the futility stop of collect --until-decided
 * (analyze/until.c, plan_seq_chance_from()) costs and saves, by simulation
 * through the one estimate. Each simulated batch draws its rounds once (the base
 * data of bench_sim_seq: requests 1.3% inside an instance, an instance's offset
 * 1.5%, a drift both engines of a round share 0.6%, 3 requests an instance, the
 * start order alternating) and is run twice on the same draws: without the stop,
 * and with it (after each look that answers nothing, a cell whose chance of
 * answering by --max-rounds is under PLAN_FUTILE_CHANCE stops as unanswerable).
 * The truths: the margin (ours exactly -band: a "no" lets a regression through,
 * at most 5%), A/A (a "yes" is a false alarm), ours 9% slower, and a far margin
 * cell (-2% with every sd doubled). The matrix: one A/A cell, one 9% slower and
 * one margin cell, its server time the rounds its cells ran (each round two
 * instances of one cost). Not a timed test:
 *   build/release/bench_sim_futility [n_sims] [max_rounds] [seed] */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/estimate.h"
#include "analyze/plan.h"
#include "bench/sim_common.h"
#include "bench/sim_rng.h"

#define MAX_H 30

struct batch {
	double v[2][MAX_H][N_REQ];
	char t[2][MAX_H][16];
	struct estimate_unit u[2][MAX_H];
};

/* Round r (0-based) of both engines, every sd times scale: ours at log(1 +
 * delta) over vs. */
static void draw_round(struct batch *b, int r, double delta, double scale)
{
	double drift = DRIFT_SD * scale * gauss();
	int ours_first = r % 2 == 0;

	for (int s = 0; s < 2; s++) {
		double mu = (s == 0 ? log1p(delta) : 0) + drift + INST_SD * scale * gauss();
		int first = s == 0 ? ours_first : !ours_first;

		for (int k = 0; k < N_REQ; k++)
			b->v[s][r][k] = 100 * exp(mu + REQ_SD * scale * gauss());
		sim_unit(&b->u[s][r], b->t[s][r], sizeof(b->t[s][r]), b->v[s][r], N_REQ, r, first);
	}
}

/* The answers of one rule over many batches. */
struct outcome {
	long yes, no, open, futile;
	double rounds; /* summed rounds run */
};

/* One batch's run of the rule over the rounds drawn in b: 'y', 'n', 'o' (open at
 * h) or 'f' (stopped as unanswerable), with the rounds it ran in *ran. */
static char run_rule(struct batch *b, int h, int futility, int *ran)
{
	struct estimate_params p;
	int r;

	estimate_params_init(&p);
	p.band_pct = BAND;
	p.looks_to = h;
	for (r = ESTIMATE_FIRST_LOOK; r <= h; r++) {
		struct estimate e;
		struct plan_look l;
		enum verdict_regression a;
		double ch;

		if (estimate_cell(b->u[0], (size_t)r, b->u[1], (size_t)r, &p, &e) < 0)
			abort();
		a = e.v.regression;
		memset(&l, 0, sizeof(l));
		l.m = e.v.log_m;
		l.se = e.v.log_se;
		l.df = e.v.df;
		l.rounds = e.v.rounds;
		l.band_pct = BAND;
		estimate_release(&e);
		*ran = r;
		if (a == VERDICT_REG_YES)
			return 'y';
		if (a == VERDICT_REG_NO)
			return 'n';
		if (!futility || r == h)
			continue;
		ch = plan_seq_chance_from(&l, (size_t)h, PLAN_SIMS);
		if (ch < PLAN_FUTILE_CHANCE)
			return 'f';
	}
	return 'o';
}

static void count(struct outcome *o, char a, int ran)
{
	o->yes += a == 'y';
	o->no += a == 'n';
	o->open += a == 'o';
	o->futile += a == 'f';
	o->rounds += ran;
}

struct truth {
	const char *name;
	double delta, scale;
	int wrong; /* the wrong answer: 'n' at the margin, 'y' for A/A, 0 none */
};

static const struct truth truths[] = {
	{ "margin (-2%)", -0.02, 1, 'n' },
	{ "A/A (0%)", 0, 1, 'y' },
	{ "ours 9% slower", -0.09, 1, 0 },
	{ "margin (-2%), sd x2", -0.02, 2, 'n' },
};
#define N_TRUTHS (sizeof(truths) / sizeof(truths[0]))

int main(int argc, char **argv)
{
	static struct batch b;
	long n = argc > 1 ? atol(argv[1]) : 1000, k;
	int h = argc > 2 ? atoi(argv[2]) : 10;
	struct outcome o[N_TRUTHS][2];
	double matrix[2] = { 0, 0 };

	if (h < ESTIMATE_FIRST_LOOK + 1 || h > MAX_H)
		return 2;
	if (argc > 3)
		rng_state = strtoull(argv[3], NULL, 10) | 1;
	memset(o, 0, sizeof(o));
	for (k = 0; k < n; k++) {
		for (size_t t = 0; t < N_TRUTHS; t++) {
			for (int r = 0; r < h; r++)
				draw_round(&b, r, truths[t].delta, truths[t].scale);
			for (int f = 0; f < 2; f++) {
				int ran = 0;
				char a = run_rule(&b, h, f, &ran);

				count(&o[t][f], a, ran);
				/* The matrix: A/A, 9% slower and the margin cell. */
				if (t < 3)
					matrix[f] += ran;
			}
		}
	}
	printf("%ld batches a cell, --max-rounds %d, band %.1f%%, futility below a %.0f%% "
	       "chance\n", n, h, BAND, 100 * PLAN_FUTILE_CHANCE);
	printf("| truth | futility | wrong answer | answered | unanswerable | open | "
	       "mean rounds |\n");
	printf("| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
	for (size_t t = 0; t < N_TRUTHS; t++) {
		for (int f = 0; f < 2; f++) {
			const struct outcome *x = &o[t][f];
			char wrong[64];

			if (truths[t].wrong)
				sim_rate(wrong, sizeof(wrong), truths[t].wrong == 'y' ? x->yes : x->no, n);
			else
				snprintf(wrong, sizeof(wrong), "-");
			printf("| %s | %s | %s | %.1f%% | %.1f%% | %.1f%% | %.2f |\n",
			       truths[t].name, f ? "on" : "off", wrong,
			       100.0 * (double)(x->yes + x->no) / (double)n,
			       100.0 * (double)x->futile / (double)n,
			       100.0 * (double)x->open / (double)n, x->rounds / (double)n);
		}
	}
	printf("\nmatrix of three cells (A/A, 9%% slower, margin): %.2f rounds of server time "
	       "without the stop, %.2f with it: %.1f%% less\n", matrix[0] / (double)n,
	       matrix[1] / (double)n, 100 * (1 - matrix[1] / matrix[0]));
	return 0;
}
