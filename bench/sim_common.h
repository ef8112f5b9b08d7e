/* sim_common.h: what the round-based simulations (bench/bench_sim_evidence.c,
 * bench_sim_seq.c, bench_sim_futility.c) share beyond their random source
 * (sim_rng.h): the host they model, one drawn round's instance as estimate_cell()
 * reads it, and a table cell's rate with its interval. Header-only, as sim_rng.h is. */
#ifndef BENCH_SIM_COMMON_H
#define BENCH_SIM_COMMON_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyze/estimate.h"

/* The host they model: requests an instance, the scatter (log) of a request, of an
 * instance and of the drift between rounds (docs/PERFORMANCE.md, bench_sim_seq), and
 * the band in percent. */
#define N_REQ 3
#define REQ_SD 0.013
#define INST_SD 0.015
#define DRIFT_SD 0.006
#define BAND 2.0

/* The instance of round r (0-based) of one side, n request values v, in batch "b":
 * its start time t (len bytes, written here) puts it first or second of its round. */
static inline void sim_unit(struct estimate_unit *u, char *t, size_t len, const double *v,
			    size_t n, int r, int first)
{
	snprintf(t, len, "r%03d-%d", r, first ? 0 : 1);
	memset(u, 0, sizeof(*u));
	u->v = v;
	u->n = n;
	u->value = NAN;
	u->round = r + 1;
	u->batch = "b";
	u->started_at = t;
}

/* "p% [lo, hi]": the rate of k in n with its Wilson 95% interval. */
static inline void sim_rate(char *buf, size_t len, long k, long n)
{
	double z = 1.96, p = (double)k / (double)n, d = 1 + z * z / (double)n;
	double c = (p + z * z / (2.0 * (double)n)) / d;
	double w = z * sqrt(p * (1 - p) / (double)n + z * z / (4.0 * (double)n * (double)n)) / d;

	snprintf(buf, len, "%.2f%% [%.2f, %.2f]", 100 * p, 100 * fmax(0, c - w),
		 100 * fmin(1, c + w));
}

#endif
