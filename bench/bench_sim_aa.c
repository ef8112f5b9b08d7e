/* bench_sim_aa.c: how often the pooled verdict is wrong, by simulation. It draws
 * comparisons of two engines from the variance components measured on an H200
 * (7B-shaped F16 model, about 195 tok/s decode): request scatter inside an
 * instance 1.1%, instance-to-instance scatter of the instance means 0.9%, and an
 * A/A delta that scatters about 1% from round to round. Those fit three parts: the
 * requests (1.1% / sqrt(6) = 0.45% on a mean), an instance's own offset (0.55%)
 * and a drift both engines of a round share (0.56%): sqrt(0.45^2 + 0.55^2 +
 * 0.56^2) = 0.9% for the instance means, sqrt(2 (0.45^2 + 0.55^2)) = 1.0% for the
 * A/A delta. Prompts differ in speed (3%, shared by both engines); 6 requests per
 * instance. Each comparison is judged by the real analyze/parity.c path
 * (parity_decide() over two pools of k runs, pool_estimate()), and the figures are:
 *   - the false-alarm rate of an A/A pair: decided faster or slower in a 2% band,
 *     and, as a check of the test's level, in a 0% band;
 *   - the coverage of the true difference by the 95% interval;
 *   - for a true regression (default -4.5%), how often and after how many rounds
 *     it is decided slower, stopping at the first round (from 2) that decides.
 * Not a timed test: `build/dev/bench_sim_aa [n_sims] [regress_pct] [seed]`. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/cellset.h"
#include "analyze/parity.h"
#include "bench/sim_rng.h"

#define N_REQ 6
#define MAX_ROUNDS 10
#define REQ_SD 0.011
#define INST_SD 0.0055
#define DRIFT_SD 0.0056
#define PROMPT_SD 0.030

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct sim {
	struct run_value v[2][MAX_ROUNDS][N_REQ];
	struct run run[2][MAX_ROUNDS];
	const struct run *pooled[2][MAX_ROUNDS];
};

/* Draws MAX_ROUNDS rounds of both engines; ours is true_log slower or faster. */
static void draw(struct sim *s, double true_log)
{
	double prompt[N_REQ], inst_pure = INST_SD;
	int e, r, p;

	for (p = 0; p < N_REQ; p++)
		prompt[p] = PROMPT_SD * gauss();
	for (r = 0; r < MAX_ROUNDS; r++) {
		double drift = DRIFT_SD * gauss();
		for (e = 0; e < 2; e++) {
			double inst = inst_pure * gauss() + drift + (e == 0 ? true_log : 0);
			for (p = 0; p < N_REQ; p++) {
				s->v[e][r][p].prompt_id = p + 1;
				s->v[e][r][p].rep = 1;
				s->v[e][r][p].value = 195.0 * exp(prompt[p] + inst + REQ_SD * gauss());
			}
		}
	}
}

/* Judges the first k rounds of s in a band; fills *v. The runs borrow their
 * strings and values from static storage and s: nothing is run_release()d. */
static void judge(struct sim *s, int k, double band, struct verdict *v)
{
	static char model[] = "m", endpoint[] = "completion", empty[] = "", ea[] = "a", eb[] = "b";
	struct pool pool[2];
	struct parity_input in;
	struct parity_opts o;
	struct parity_result res;
	int e, r;

	for (e = 0; e < 2; e++) {
		for (r = 0; r < k; r++) {
			struct run *x = &s->run[e][r];

			memset(x, 0, sizeof(*x));
			x->engine = e ? eb : ea;
			x->model = model;
			x->endpoint = endpoint;
			x->batch = x->tag = x->started_at = x->config = empty;
			x->n_max = x->ctx = x->n_predict = RUN_NULL;
			x->round = RUN_NULL; /* no round numbers: paired by start order */
			x->temperature = NAN;
			x->floor_pct[0] = x->floor_pct[1] = NAN;
			x->values[RUN_TG].v = s->v[e][r];
			x->values[RUN_TG].n = N_REQ;
			s->pooled[e][r] = x;
		}
		pool[e] = (struct pool){ .runs = s->pooled[e], .n = (size_t)k };
	}
	in = (struct parity_input){ &pool[0], &pool[1], 1, 1 };
	parity_opts_init(&o);
	o.ours = "a";
	o.vs = "b";
	o.metrics = PARITY_TG;
	o.band_pct = band;
	if (parity_decide(&in, &o, &res) < 0 || res.n_rows != 1) {
		fprintf(stderr, "bench_sim_aa: parity_decide refused the input\n");
		exit(3);
	}
	*v = res.rows[0].v;
	parity_result_release(&res);
}

static int is_diff(const struct verdict *v)
{
	return v->decided && (v->kind == VERDICT_FASTER || v->kind == VERDICT_SLOWER);
}

int main(int argc, char **argv)
{
	static const int ks[] = { 1, 2, 3, 5, 10 };
	int n = argc > 1 ? atoi(argv[1]) : 1000, i, j, k;
	double regress = argc > 2 ? atof(argv[2]) : -4.5;
	struct sim *s = calloc(1, sizeof(*s));
	double true_reg = log1p(regress / 100);

	if (argc > 3)
		rng_state = strtoull(argv[3], NULL, 10) | 1;
	if (!s || n <= 0)
		return 2;
	printf("%d simulated comparisons per row; request %.2f%%, instance offset %.2f%%, round "
	       "drift %.2f%%, %d requests per instance\n", n, REQ_SD * 100, INST_SD * 100,
	       DRIFT_SD * 100, N_REQ);
	{
		/* The calibration: the scatter of the A/A delta of the run means,
		 * which the measurement put at about 1%. */
		double sd = 0, sd2 = 0;
		int m = 0, p;
		for (i = 0; i < n; i++) {
			draw(s, 0);
			for (k = 0; k < MAX_ROUNDS; k++) {
				double a = 0, b = 0;
				for (p = 0; p < N_REQ; p++) {
					a += log(s->v[0][k][p].value) / N_REQ;
					b += log(s->v[1][k][p].value) / N_REQ;
				}
				sd += a - b;
				sd2 += (a - b) * (a - b);
				m++;
			}
		}
		printf("calibration: per-round A/A delta of the run means scatters %.2f%%\n\n",
		       100 * sqrt(sd2 / m - (sd / m) * (sd / m)));
	}
	printf("A/A (no true difference)\n");
	printf("%6s  %14s  %14s  %12s  %12s  %10s\n", "rounds", "alarm band 2%", "alarm band 0%",
	       "95% coverage", "parity (2%)", "median mde");
	for (j = 0; j < (int)(sizeof(ks) / sizeof(ks[0])); j++) {
		int alarm2 = 0, alarm0 = 0, cover = 0, parity = 0;
		double *mde = calloc((size_t)n, sizeof(*mde));
		for (i = 0; i < n; i++) {
			struct verdict v;
			draw(s, 0);
			judge(s, ks[j], 2, &v);
			alarm2 += is_diff(&v);
			parity += v.decided && v.kind == VERDICT_PARITY;
			cover += v.ci_lo_pct <= 0 && 0 <= v.ci_hi_pct;
			mde[i] = v.mde_pct;
			judge(s, ks[j], 0, &v);
			alarm0 += is_diff(&v);
		}
		qsort(mde, (size_t)n, sizeof(*mde), cmp_double);
		printf("%6d  %13.1f%%  %13.1f%%  %11.1f%%  %11.1f%%  %9.2f%%%s\n", ks[j],
		       100.0 * alarm2 / n, 100.0 * alarm0 / n, 100.0 * cover / n,
		       100.0 * parity / n, mde[n / 2], ks[j] == 1 ? "  (one round: requests)" : "");
		free(mde);
	}
	printf("\nregression of %.1f%% (band 2%%)\n", regress);
	printf("%6s  %14s  %12s\n", "rounds", "decided slower", "95% coverage");
	for (j = 0; j < (int)(sizeof(ks) / sizeof(ks[0])); j++) {
		int slower = 0, cover = 0;
		for (i = 0; i < n; i++) {
			struct verdict v;
			draw(s, true_reg);
			judge(s, ks[j], 2, &v);
			slower += v.decided && v.kind == VERDICT_SLOWER;
			cover += v.ci_lo_pct <= regress && regress <= v.ci_hi_pct;
		}
		printf("%6d  %13.1f%%  %11.1f%%\n", ks[j], 100.0 * slower / n, 100.0 * cover / n);
	}
	{
		int hist[MAX_ROUNDS + 2] = { 0 }, by3 = 0;
		for (i = 0; i < n; i++) {
			struct verdict v;
			draw(s, true_reg);
			for (k = 2; k <= MAX_ROUNDS; k++) {
				judge(s, k, 2, &v);
				if (v.decided)
					break;
			}
			if (k <= MAX_ROUNDS && v.kind == VERDICT_SLOWER) {
				hist[k]++;
				by3 += k <= 3;
			} else {
				hist[MAX_ROUNDS + 1]++;
			}
		}
		printf("\nsequential (stop at the first decided round from 2): decided slower by "
		       "round 3 in %.1f%%; by round:", 100.0 * by3 / n);
		for (k = 2; k <= MAX_ROUNDS; k++)
			printf(" %d:%d", k, hist[k]);
		printf(" other/open:%d\n", hist[MAX_ROUNDS + 1]);
	}
	free(s);
	return 0;
}
