/* noise.h: the A/A noise floor: how far two runs of the same engine, model and
 * config drift apart when only the server restarted between them. Pure. */
#ifndef ANALYZE_NOISE_H
#define ANALYZE_NOISE_H

#include <stddef.h>

#include "analyze/parity.h"

/* The floor in percent from n pairs (a[i], b[i]) of one metric, the same prompt and
 * repetition in run A and run B: the root mean square of the per-pair deltas
 * 100 * (b/a - 1). It holds both parts of what a restart does, the shift of the
 * whole run (the mean) and the scatter of single requests, and unlike an interval's
 * edge it stays finite with two or three pairs, which is what an A/A pair of a real
 * collection has. NaN when no pair is usable (non-positive or non-finite values are
 * skipped). *used, when non-NULL, receives the pairs used. */
double noise_floor_pct(const double *a, const double *b, size_t n, size_t *used);

/* One A/A pair of runs (a the older, b the newer; borrowed from the input) and
 * what it gives: when diff.kind is not NONE the two runs are not an A/A pair (a
 * different GGUF or config) and no floor is taken; else pct[m] is the floor of
 * metric m (NaN when no pair of values is usable) from n_pairs[m] pairs. */
struct noise_pair {
	const struct run *a, *b;
	struct run_diff diff;
	double pct[PARITY_N_METRICS];
	size_t n_pairs[PARITY_N_METRICS];
	int identical; /* 1: every paired value of every metric is equal in a and b (the
			* same results stored twice, not two measurements): no floor */
};

/* The floors of the series h[0..n_h) (histories: every run of one engine and cell,
 * oldest first): for each series with two clean runs (run_clean(): complete, no
 * environment finding) on one host, its two latest such runs (the newest clean
 * run's host), the older as a, one noise_pair per such series in order. *out is a heap array of
 * *n the caller frees. Counts the floors found (pct not NaN) into *n_floors. A
 * pair whose samples are identical gives no floor (a 0.00% floor would only say
 * the same bytes were imported twice). Never fails. */
void noise_calibrate(const struct pool *h, size_t n_h, struct noise_pair **out, size_t *n,
		     size_t *n_floors);

#endif
