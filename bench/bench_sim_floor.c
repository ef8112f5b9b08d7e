/* bench_sim_floor.c: issue 41, by simulation. How often a batch of an A/A pair
 * (one binary under two labels) is decided as a difference, at 3, 5 and 10
 * rounds, under the rounds' own scatter alone (the rule before issue 41,
 * estimate_params.floors 0) and under the scatter floor (floors 1: the round
 * scatter never below the labels' instance spread; estimate.c scatter_floor()),
 * side by side on the same draws; and what it costs: the power at a true
 * slowdown, the wrong "no" at the margin (-band), and for an --until-decided
 * batch the rounds to an answer.
 *
 * The instances are resampled from real runs, not modelled: each round draws one
 * row of a table of round pairs (ours' and vs' instance log value less its
 * cell's mean over the batch, times sqrt(k / (k - 1)) to undo the centring), pp
 * and tg alike, made by this from the stores below:
 *   cpu  tests/data/sweep-real/main-job.jsonl: the README's main job on the
 *        two-core CPU host, llama.cpp against ours (one binary, two labels),
 *        every cell of 3 and 6 rounds: 36 rounds, instances scattering 20-27%,
 *        heavy-tailed and bimodal (a slow start at -30% to -60%);
 *   gpu  tests/data/gpu/: gpu-seq (new / aa), gpu-aa10 (ours / llama.cpp),
 *        gpu-versions (new / aa), gpu-ud3 and gpu-rounds (ours / nograph), on an
 *        H100 / H200: 106 rounds, instances scattering 1.0-1.2%.
 * Two ways to draw a round: "pairs" keeps a real round's two instances together
 * (what the two sides of a round shared, drift, stays); "indep" draws each
 * side's instance from an independent row and side (independent starts). And
 * one modelled host, "bimodal": instances scatter 3% about one of two modes,
 * the slow one 25% down, taken by 30% of starts independently; "bimodal/nr"
 * the same with the outlier screen off (estimate_params.robust 0). One
 * value an instance (no requests); the start order alternates by round.
 * Not a timed test: build/release/bench_sim_floor [n_sims] [seed]
 * (the table is produced by python3 over the stores: see docs/PERFORMANCE.md). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/estimate.h"
#include "bench/sim_rng.h"

#define MAX_R 10
#define BAND 2.0
/* The modelled CPU host: instances scatter 3% about one of two modes, the slow
 * one (a start whose threads landed badly) 25% down, taken by 30% of starts. */
#define BIMODAL_SD 0.03
#define BIMODAL_P 0.3
#define BIMODAL_SLOW 0.75

static const double cpu_rounds[][2] = {
	{ +0.06975, +0.06361 }, { +0.21025, +0.20546 }, { +0.03832, +0.21428 },
	{ -0.20879, -0.19263 }, { -0.06626, -0.22580 }, { -0.04326, -0.06491 },
	{ +0.21499, +0.18492 }, { +0.14792, +0.14170 }, { -0.03285, +0.14817 },
	{ -0.20167, -0.16275 }, { -0.10966, -0.23028 }, { -0.01873, -0.08175 },
	{ -0.12709, +0.36987 }, { +0.17386, +0.09223 }, { -0.04678, -0.46210 },
	{ -0.19791, +0.29263 }, { +0.25496, +0.04811 }, { -0.05706, -0.34074 },
	{ -0.49203, +0.13027 }, { +0.41798, -0.12164 }, { +0.07405, -0.00863 },
	{ -0.50172, +0.11258 }, { +0.44745, -0.12694 }, { +0.05427, +0.01436 },
	{ -0.62745, -0.01070 }, { +0.17951, -0.24627 }, { +0.44794, +0.25698 },
	{ -0.60216, +0.04752 }, { +0.21199, -0.19555 }, { +0.39017, +0.14803 },
	{ +0.06591, +0.15466 }, { -0.13753, -0.31335 }, { +0.07162, +0.15869 },
	{ +0.14032, +0.10261 }, { -0.19227, -0.24972 }, { +0.05194, +0.14711 },
};
static const double gpu_rounds[][2] = {
	{ -0.00466, +0.00217 }, { +0.00270, +0.00705 }, { +0.00197, -0.00922 },
	{ -0.00309, -0.00027 }, { +0.00101, +0.00097 }, { +0.00208, -0.00070 },
	{ -0.00130, +0.00114 }, { +0.00102, -0.00390 }, { +0.00028, +0.00275 },
	{ +0.00163, +0.00106 }, { +0.00009, +0.00027 }, { -0.00172, -0.00133 },
	{ -0.00382, -0.00704 }, { +0.00142, +0.00165 }, { +0.00241, +0.00539 },
	{ -0.00161, -0.00094 }, { +0.00171, -0.00116 }, { -0.00010, +0.00210 },
	{ -0.00422, +0.00021 }, { +0.00070, -0.00206 }, { +0.00352, +0.00185 },
	{ +0.00004, +0.00203 }, { -0.00010, -0.00341 }, { +0.00006, +0.00138 },
	{ +0.00015, -0.00181 }, { +0.00316, -0.00506 }, { -0.00188, +0.00448 },
	{ -0.00144, +0.00238 }, { -0.00297, -0.00074 }, { +0.00365, -0.00016 },
	{ -0.00272, +0.00027 }, { +0.00204, +0.00064 }, { +0.00101, +0.00003 },
	{ +0.00111, +0.00185 }, { -0.00212, -0.00188 }, { -0.00060, -0.00093 },
	{ -0.00134, +0.00042 }, { +0.00194, +0.00051 }, { +0.00220, -0.00021 },
	{ +0.00540, +0.00035 }, { -0.00759, -0.00014 }, { +0.00019, -0.00013 },
	{ +0.00064, +0.00062 }, { -0.00083, -0.00049 }, { +0.00905, +0.01356 },
	{ +0.00953, +0.01088 }, { -0.00398, +0.00344 }, { +0.00066, -0.00567 },
	{ +0.00422, +0.00262 }, { -0.00346, +0.00602 }, { +0.00209, -0.01151 },
	{ +0.00714, +0.00256 }, { -0.03048, -0.01864 }, { +0.00522, -0.00325 },
	{ +0.00659, -0.00362 }, { +0.00062, +0.00300 }, { +0.00548, -0.00177 },
	{ +0.00455, -0.00217 }, { -0.00760, +0.00446 }, { -0.00172, +0.00323 },
	{ +0.00544, -0.00511 }, { +0.00152, +0.00728 }, { -0.01968, -0.00444 },
	{ +0.00482, -0.00087 }, { +0.00152, +0.01425 }, { +0.02172, -0.00801 },
	{ +0.01691, +0.00639 }, { +0.02311, -0.01895 }, { -0.01264, +0.03099 },
	{ -0.01235, +0.01099 }, { -0.04260, -0.02965 }, { +0.00433, -0.00602 },
	{ -0.00587, -0.00321 }, { +0.01040, -0.00156 }, { +0.00338, +0.00668 },
	{ +0.00747, -0.00848 }, { +0.00382, +0.01311 }, { +0.00110, +0.00953 },
	{ -0.02151, -0.01156 }, { +0.00121, -0.00451 }, { +0.01014, -0.03581 },
	{ -0.03362, -0.00518 }, { +0.01123, +0.03516 }, { -0.00129, -0.00342 },
	{ +0.00772, +0.04791 }, { +0.02466, +0.03448 }, { +0.00881, -0.00955 },
	{ -0.00308, -0.00977 }, { -0.00838, -0.02081 }, { -0.01619, -0.03302 },
	{ +0.02063, -0.01446 }, { -0.01601, -0.00515 }, { +0.01804, +0.01936 },
	{ -0.00648, +0.00713 }, { +0.00713, +0.02425 }, { +0.01063, +0.01980 },
	{ +0.01300, -0.00527 }, { -0.01038, -0.01576 }, { -0.01533, -0.01395 },
	{ -0.02121, -0.01595 }, { -0.01182, -0.00382 }, { +0.00234, +0.00966 },
	{ +0.00948, -0.00583 }, { -0.00694, +0.00083 }, { +0.00066, -0.00116 },
	{ +0.00627, +0.00033 },
};
/* cpu: 36 rounds, sd ours 0.2651 vs 0.1973 ratio 0.3162 */
/* gpu: 106 rounds, sd ours 0.0103 vs 0.0118 ratio 0.0127 */

static size_t pick(size_t n)
{
	size_t i = (size_t)(uniform() * (double)n);

	return i < n ? i : n - 1;
}

struct dist {
	const char *name;
	const double (*rows)[2];
	size_t n;
	int indep;         /* 1 independent rows and sides; 2 the bimodal model */
	double power_pct; /* the true slowdown whose power is shown */
	int no_robust;     /* the outlier screen off (estimate_params.robust 0) */
};

struct batch {
	char t[2][MAX_R][16];
	struct estimate_unit u[2][MAX_R];
};

/* Round r (0-based) of both sides: ours log(1 + delta) over vs. */
static void draw_round(struct batch *b, int r, double delta, const struct dist *d)
{
	const double *row = d->rows[pick(d->n)];
	int ours_first = r % 2 == 0;

	for (int s = 0; s < 2; s++) {
		double dev = d->indep == 2 ? BIMODAL_SD * gauss() +
						     (uniform() < BIMODAL_P ? log(BIMODAL_SLOW) : 0) :
			     d->indep ? d->rows[pick(d->n)][pick(2)] : row[s];
		int first = s == 0 ? ours_first : !ours_first;

		snprintf(b->t[s][r], sizeof(b->t[s][r]), "r%03d-%d", r, first ? 0 : 1);
		memset(&b->u[s][r], 0, sizeof(b->u[s][r]));
		b->u[s][r].value = 100 * exp(dev + (s == 0 ? log1p(delta / 100) : 0));
		b->u[s][r].round = r + 1;
		b->u[s][r].batch = "b";
		b->u[s][r].started_at = b->t[s][r];
	}
}

struct tally {
	long yes, no, diff, n;
	double rounds;
};

/* Judges the first k rounds of b under both rules (fixed design). */
static void judge(const struct batch *b, int k, int floors, int robust, struct tally *t)
{
	struct estimate_params p;
	struct estimate e;

	estimate_params_init(&p);
	p.band_pct = BAND;
	p.floors = floors;
	p.robust = robust;
	if (estimate_cell(b->u[0], (size_t)k, b->u[1], (size_t)k, &p, &e) == 0) {
		t->yes += e.v.regression == VERDICT_REG_YES;
		t->no += e.v.regression == VERDICT_REG_NO;
		t->diff += e.v.kind == VERDICT_FASTER || e.v.kind == VERDICT_SLOWER;
	}
	t->n++;
	estimate_release(&e);
}

/* An --until-decided batch (--max-rounds MAX_R): looks from round 3 on at the
 * sequential level, stops at the first "yes" or "no". */
static void until(const struct batch *b, int floors, int robust, struct tally *t)
{
	struct estimate_params p;
	int k;

	estimate_params_init(&p);
	p.band_pct = BAND;
	p.floors = floors;
	p.robust = robust;
	p.looks_to = MAX_R;
	for (k = ESTIMATE_FIRST_LOOK; k <= MAX_R; k++) {
		struct estimate e;
		int stop = 0;

		if (estimate_cell(b->u[0], (size_t)k, b->u[1], (size_t)k, &p, &e) == 0) {
			if (e.v.regression == VERDICT_REG_YES)
				t->yes++, stop = 1;
			else if (e.v.regression == VERDICT_REG_NO)
				t->no++, stop = 1;
		}
		estimate_release(&e);
		if (stop)
			break;
	}
	t->rounds += k > MAX_R ? MAX_R : k;
	t->n++;
}

static double pct(long k, long n)
{
	return n ? 100.0 * (double)k / (double)n : NAN;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	static const int ks[3] = { 3, 5, 10 };
	const struct dist dists[6] = {
		{ "cpu indep", cpu_rounds, sizeof(cpu_rounds) / sizeof(cpu_rounds[0]), 1, 40, 0 },
		{ "cpu pairs", cpu_rounds, sizeof(cpu_rounds) / sizeof(cpu_rounds[0]), 0, 40, 0 },
		{ "gpu indep", gpu_rounds, sizeof(gpu_rounds) / sizeof(gpu_rounds[0]), 1, 4, 0 },
		{ "gpu pairs", gpu_rounds, sizeof(gpu_rounds) / sizeof(gpu_rounds[0]), 0, 4, 0 },
		{ "bimodal", cpu_rounds, 1, 2, 40, 0 },
		{ "bimodal/nr", cpu_rounds, 1, 2, 40, 1 },
	};
	static struct batch b;

	if (argc > 2)
		rng_state ^= (uint64_t)atoll(argv[2]) * 0x2545f4914f6cdd1dull;
	if (n < 1)
		n = 1;
	printf("%ld batches a row; band %.0f%%; fixed designs at 5%% one-sided (90%% intervals)\n",
	       n, BAND);
	printf("%-10s %6s | %-21s | %-21s | %-21s | %-21s\n", "draws", "rounds",
	       "A/A: regression yes", "A/A: faster/slower", "margin -2%: no",
	       "power: yes at -D");
	printf("%-10s %6s | %10s %10s | %10s %10s | %10s %10s | %10s %10s\n", "", "", "old", "new",
	       "old", "new", "old", "new", "old", "new");
	for (int di = 0; di < 6; di++) {
		const struct dist *d = &dists[di];

		for (int ki = 0; ki < 3; ki++) {
			struct tally aa[2] = { { 0 } }, mg[2] = { { 0 } }, pw[2] = { { 0 } };
			int k = ks[ki];

			for (long i = 0; i < n; i++) {
				for (int r = 0; r < k; r++)
					draw_round(&b, r, 0, d);
				judge(&b, k, 0, !d->no_robust, &aa[0]);
				judge(&b, k, 1, !d->no_robust, &aa[1]);
				for (int r = 0; r < k; r++)
					draw_round(&b, r, -BAND, d);
				judge(&b, k, 0, !d->no_robust, &mg[0]);
				judge(&b, k, 1, !d->no_robust, &mg[1]);
				for (int r = 0; r < k; r++)
					draw_round(&b, r, -d->power_pct, d);
				judge(&b, k, 0, !d->no_robust, &pw[0]);
				judge(&b, k, 1, !d->no_robust, &pw[1]);
			}
			printf("%-10s %6d | %9.2f%% %9.2f%% | %9.2f%% %9.2f%% | %9.2f%% %9.2f%% | "
			       "%9.2f%% %9.2f%%  (D %g%%)\n", d->name, k,
			       pct(aa[0].yes, aa[0].n), pct(aa[1].yes, aa[1].n),
			       pct(aa[0].diff, aa[0].n), pct(aa[1].diff, aa[1].n),
			       pct(mg[0].no, mg[0].n), pct(mg[1].no, mg[1].n),
			       pct(pw[0].yes, pw[0].n), pct(pw[1].yes, pw[1].n), d->power_pct);
		}
	}
	printf("\n--until-decided --max-rounds %d (looks from round %d at the sequential level):\n",
	       MAX_R, ESTIMATE_FIRST_LOOK);
	printf("%-10s %-9s | %-25s | %-25s | %-25s\n", "draws", "truth", "answer yes",
	       "answer no", "mean rounds at the stop");
	printf("%-10s %-9s | %12s %12s | %12s %12s | %12s %12s\n", "", "", "old", "new", "old",
	       "new", "old", "new");
	for (int di = 0; di < 6; di++) {
		const struct dist *d = &dists[di];
		const double truths[3] = { 0, -BAND, -d->power_pct };

		for (int ti = 0; ti < 3; ti++) {
			struct tally u[2] = { { 0 } };

			for (long i = 0; i < n; i++) {
				for (int r = 0; r < MAX_R; r++)
					draw_round(&b, r, truths[ti], d);
				until(&b, 0, !d->no_robust, &u[0]);
				until(&b, 1, !d->no_robust, &u[1]);
			}
			printf("%-10s %+8g%% | %11.2f%% %11.2f%% | %11.2f%% %11.2f%% | %12.2f %12.2f\n",
			       d->name, truths[ti], pct(u[0].yes, u[0].n), pct(u[1].yes, u[1].n),
			       pct(u[0].no, u[0].n), pct(u[1].no, u[1].n),
			       u[0].rounds / (double)u[0].n, u[1].rounds / (double)u[1].n);
		}
	}
	return 0;
}
