/* bench_sim_seq.c: how often an --until-decided batch answers the regression
 * question wrongly, by simulation through the one estimate (analyze/estimate.c),
 * under the conditions a real host brings. Each simulated batch runs rounds of
 * two engines, looks after every round from the third to --max-rounds H at the
 * per-look level of estimate_look_alpha(H), and stops at the first look that
 * answers "regression yes" or "no" (as collect does). Before it, one earlier
 * batch of 10 rounds of the same cell was measured: its round scatter is the
 * history (estimate_history_add(), as pool_history() reads a store), pooled or
 * refused by the estimate's F test. The base data follow the variance parts
 * measured on an H200 (7B-shaped F16 model): requests scatter 1.3% inside an
 * instance, an instance's own offset 1.5%, a drift both engines of a round share
 * 0.6%, 3 requests per instance; the start order alternates by round. The
 * conditions:
 *   normal      the base data;
 *   t3          every normal draw replaced by Student's t with 3 df of the same
 *               sd (heavy tails);
 *   drift       the host slows 0.4% a round, and the later-started instance of
 *               a round by half a round's worth more;
 *   unequal     ours' instances scatter twice as much (3%) as vs's;
 *   outliers    one instance in ten, on either side, runs 3x slower;
 *   mismatched  the history was measured with half the scatter (every sd x0.5):
 *               a host that was quieter then;
 * and "normal, no history" for what the history buys. The truths: the margin
 * (ours exactly -band, -2%: a "no" lets a regression through, at most 5%) and
 * A/A (no difference: a "yes" is a false alarm, at most 1%). Each rate comes
 * with its Wilson 95% interval. Not a timed test:
 *   build/release/bench_sim_seq [n_sims] [seed] */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/estimate.h"
#include "bench/sim_common.h"
#include "bench/sim_rng.h"

#define MAX_H 30
#define HIST_ROUNDS 10

enum cond { NORMAL, T3, DRIFT, UNEQUAL, OUTLIERS, MISMATCHED, NO_HISTORY, N_COND };

static const char *const cond_name[N_COND] = {
	"normal", "t3", "drift", "unequal variance", "outliers (1 in 10, 3x slower)",
	"mismatched history (sd x0.5)", "normal, no history",
};

/* A unit-sd draw: normal, or Student's t with 3 df scaled to sd 1. */
static double draw(enum cond c)
{
	double z = gauss(), chi = 0;

	if (c != T3)
		return z;
	for (int i = 0; i < 3; i++) {
		double g = gauss();
		chi += g * g;
	}
	return z / sqrt(chi / 3) / sqrt(3.0);
}

struct batch {
	double v[2][MAX_H][N_REQ];
	char t[2][MAX_H][16];
	struct estimate_unit u[2][MAX_H];
};

/* Round r (0-based) of both engines under condition c, every sd times scale:
 * ours at log(1 + delta) over vs. */
static void draw_round(struct batch *b, int r, double delta, enum cond c, double scale)
{
	double drift = DRIFT_SD * scale * draw(c);
	int ours_first = r % 2 == 0;

	if (c == DRIFT)
		drift -= 0.004 * r;
	for (int s = 0; s < 2; s++) {
		double inst = INST_SD * (c == UNEQUAL && s == 0 ? 2 : 1);
		double mu = (s == 0 ? log1p(delta) : 0) + drift + inst * scale * draw(c);
		int first = s == 0 ? ours_first : !ours_first;

		if (c == DRIFT && !first)
			mu -= 0.002;
		if (c == OUTLIERS && uniform() < 0.1)
			mu -= log(3.0);
		for (int k = 0; k < N_REQ; k++)
			b->v[s][r][k] = 100 * exp(mu + REQ_SD * scale * draw(c));
		sim_unit(&b->u[s][r], b->t[s][r], sizeof(b->t[s][r]), b->v[s][r], N_REQ, r, first);
	}
}

struct outcome {
	long yes, no, open, pooled;
	double rounds; /* summed rounds at the stop */
};

/* The history: one earlier batch of HIST_ROUNDS rounds, estimated alone. */
static void history(double delta, enum cond c, struct estimate_history *h)
{
	static struct batch b;
	struct estimate_params p;
	struct estimate e;

	memset(h, 0, sizeof(*h));
	if (c == NO_HISTORY)
		return;
	for (int r = 0; r < HIST_ROUNDS; r++)
		draw_round(&b, r, delta, c == MISMATCHED ? NORMAL : c, c == MISMATCHED ? 0.5 : 1);
	estimate_params_init(&p);
	if (estimate_cell(b.u[0], HIST_ROUNDS, b.u[1], HIST_ROUNDS, &p, &e) < 0)
		abort();
	estimate_history_add(&e, h);
	estimate_release(&e);
}

/* One batch: the answer at the first look that gives one, or open at H. */
static void run_batch(double delta, int h, enum cond c, struct outcome *o)
{
	static struct batch b;
	struct estimate_history hist;
	struct estimate_params p;
	enum cond now = c == MISMATCHED || c == NO_HISTORY ? NORMAL : c;
	int r;

	history(delta, c, &hist);
	estimate_params_init(&p);
	p.band_pct = BAND;
	p.looks_to = h;
	p.hist = &hist;
	for (r = 0; r < h; r++) {
		struct estimate e;
		enum verdict_regression a;
		int pooled;

		draw_round(&b, r, delta, now, 1);
		if (r + 1 < ESTIMATE_FIRST_LOOK)
			continue;
		if (estimate_cell(b.u[0], (size_t)r + 1, b.u[1], (size_t)r + 1, &p, &e) < 0)
			abort();
		a = e.v.regression;
		pooled = e.v.history == VERDICT_HIST_POOLED;
		estimate_release(&e);
		if (a == VERDICT_REG_YES || a == VERDICT_REG_NO) {
			if (a == VERDICT_REG_YES)
				o->yes++;
			else
				o->no++;
			o->rounds += r + 1;
			o->pooled += pooled;
			return;
		}
	}
	o->open++;
	o->rounds += h;
}

int main(int argc, char **argv)
{
	static const int hs[] = { 5, 10, 30 };
	long n = argc > 1 ? atol(argv[1]) : 2000;

	if (argc > 2)
		rng_state = strtoull(argv[2], NULL, 10) | 1;
	printf("%ld batches a cell; requests %.1f%%, instances %.1f%%, drift %.1f%%, %d requests "
	       "an instance, band %.1f%%, history %d rounds, F test at %.2f\n", n, REQ_SD * 100,
	       INST_SD * 100, DRIFT_SD * 100, N_REQ, BAND, HIST_ROUNDS, ESTIMATE_HIST_ALPHA);
	printf("| condition | max rounds | false \"no\" at the margin (-2%%) | A/A false \"yes\" | "
	       "A/A mean rounds | A/A answered | A/A answers on history |\n");
	printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	for (int c = 0; c < N_COND; c++) {
		for (size_t j = 0; j < sizeof(hs) / sizeof(hs[0]); j++) {
			struct outcome m = { 0 }, a = { 0 };
			char fm[64], fa[64];

			for (long k = 0; k < n; k++) {
				run_batch(-BAND / 100, hs[j], (enum cond)c, &m);
				run_batch(0, hs[j], (enum cond)c, &a);
			}
			sim_rate(fm, sizeof(fm), m.no, n);
			sim_rate(fa, sizeof(fa), a.yes, n);
			printf("| %s | %d | %s | %s | %.1f | %.1f%% | %.1f%% |\n", cond_name[c], hs[j],
			       fm, fa, a.rounds / (double)n, 100.0 * (double)(a.yes + a.no) / (double)n,
			       a.yes + a.no ? 100.0 * (double)a.pooled / (double)(a.yes + a.no) : 0);
			fflush(stdout);
		}
	}
	return 0;
}
