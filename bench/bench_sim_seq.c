/* bench_sim_seq.c: how often an --until-decided batch answers the regression
 * question wrongly, by simulation through the one estimate (analyze/estimate.c),
 * with and without paying for the looks. Each simulated batch runs rounds of two
 * engines, looks after every round from the third to --max-rounds H, and stops
 * at the first look that answers "regression yes" or "no" (as collect does). The
 * data follow the variance parts measured on an H200 (7B-shaped F16 model):
 * requests scatter 1.3% inside an instance, an instance's own offset 1.5%, a
 * drift both engines of a round share 0.6%, 3 requests per instance; the start
 * order alternates by round. The rows:
 *   - margin: the true difference is exactly -band (-2%): both answers are wrong
 *     there in the sense that each claims a side of a boundary the truth sits
 *     on; "no" is the costly one (a regression let through), so its rate must
 *     stay <= 5%;
 *   - a/a: no difference: a "yes" is a false alarm;
 *   - +3% and -3%: how many rounds the answer takes and how often it is right.
 * Levels: "naive" is the fixed 5% at every look, "pocock" the per-look level of
 * estimate_look_alpha(H). Not a timed test:
 *   build/release/bench_sim_seq [n_sims] [seed] [position_pct]
 * position_pct adds an edge for whichever engine starts a round (default 0). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/estimate.h"

#define N_REQ 3
#define REQ_SD 0.013
#define INST_SD 0.015
#define DRIFT_SD 0.006
#define BAND 2.0
#define MAX_H 30

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static double uniform(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return ((rng_state * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
}

static double gauss(void)
{
	double u = uniform(), v = uniform();

	if (u < 1e-300)
		u = 1e-300;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

struct batch {
	double v[2][MAX_H][N_REQ];
	char t[2][MAX_H][16];
	struct estimate_unit u[2][MAX_H];
};

/* Round r (0-based) of both engines: ours at log(1 + delta) over vs. */
static void draw_round(struct batch *b, int r, double delta, double position)
{
	double drift = DRIFT_SD * gauss();
	int ours_first = r % 2 == 0;

	for (int s = 0; s < 2; s++) {
		double mu = (s == 0 ? log1p(delta) : 0) + drift + INST_SD * gauss();
		int first = s == 0 ? ours_first : !ours_first;

		if (first)
			mu += log1p(position);
		for (int k = 0; k < N_REQ; k++)
			b->v[s][r][k] = 100 * exp(mu + REQ_SD * gauss());
		snprintf(b->t[s][r], sizeof(b->t[s][r]), "r%03d-%d", r, first ? 0 : 1);
		memset(&b->u[s][r], 0, sizeof(b->u[s][r]));
		b->u[s][r].v = b->v[s][r];
		b->u[s][r].n = N_REQ;
		b->u[s][r].value = NAN;
		b->u[s][r].round = r + 1;
		b->u[s][r].batch = "b";
		b->u[s][r].started_at = b->t[s][r];
	}
}

struct outcome {
	long yes, no, open;
	double rounds; /* summed rounds at the stop */
};

/* One batch: the answer at the first look that gives one, or open at H. */
static void run_batch(double delta, int h, int64_t looks_to, double position, struct outcome *o)
{
	static struct batch b;
	struct estimate_params p;
	int r;

	estimate_params_init(&p);
	p.band_pct = BAND;
	p.looks_to = looks_to;
	for (r = 0; r < h; r++) {
		struct estimate e;
		enum verdict_regression a;

		draw_round(&b, r, delta, position);
		if (r + 1 < ESTIMATE_FIRST_LOOK)
			continue;
		if (estimate_cell(b.u[0], (size_t)r + 1, b.u[1], (size_t)r + 1, &p, &e) < 0)
			abort();
		a = e.v.regression;
		estimate_release(&e);
		if (a == VERDICT_REG_YES || a == VERDICT_REG_NO) {
			if (a == VERDICT_REG_YES)
				o->yes++;
			else
				o->no++;
			o->rounds += r + 1;
			return;
		}
	}
	o->open++;
	o->rounds += h;
}

int main(int argc, char **argv)
{
	static const int hs[] = { 5, 10, 20, 30 };
	static const struct { const char *name; double delta; } rows[] = {
		{ "margin -2%", -0.02 }, { "a/a 0%", 0 }, { "+3%", 0.03 }, { "-3%", -0.03 },
	};
	long n = argc > 1 ? atol(argv[1]) : 2000;
	double position = argc > 3 ? atof(argv[3]) / 100 : 0;

	if (argc > 2)
		rng_state = strtoull(argv[2], NULL, 10) | 1;
	printf("%ld batches a row; requests %.1f%%, instances %.1f%%, drift %.1f%%, %d requests "
	       "an instance, band %.1f%%, start-order edge %.1f%%\n", n, REQ_SD * 100,
	       INST_SD * 100, DRIFT_SD * 100, N_REQ, BAND, position * 100);
	printf("| truth | max rounds | level | per-look alpha | yes | no | open | mean rounds |\n");
	printf("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |\n");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		for (size_t j = 0; j < sizeof(hs) / sizeof(hs[0]); j++) {
			for (int seq = 0; seq < 2; seq++) {
				struct outcome o = { 0 };
				int64_t lt = seq ? hs[j] : 0;

				for (long k = 0; k < n; k++)
					run_batch(rows[i].delta, hs[j], lt, position, &o);
				printf("| %s | %d | %s | %.4f | %.1f%% | %.1f%% | %.1f%% | %.1f |\n",
				       rows[i].name, hs[j], seq ? "pocock" : "naive",
				       seq ? estimate_look_alpha(lt, 0.05 * ESTIMATE_SEQ_ALPHA_SHARE) :
				       0.05,
				       100.0 * o.yes / n, 100.0 * o.no / n, 100.0 * o.open / n,
				       o.rounds / n);
			}
		}
	}
	return 0;
}
