/* noise.h: the A/A noise floor: how far two runs of the same engine, model and
 * config drift apart when only the server restarted between them. Pure. */
#ifndef ANALYZE_NOISE_H
#define ANALYZE_NOISE_H

#include <stddef.h>

/* The floor in percent from n pairs (a[i], b[i]) of one metric, the same prompt and
 * repetition in run A and run B: the root mean square of the per-pair deltas
 * 100 * (b/a - 1). It holds both parts of what a restart does, the shift of the
 * whole run (the mean) and the scatter of single requests, and unlike an interval's
 * edge it stays finite with two or three pairs, which is what an A/A pair of a real
 * collection has. NaN when no pair is usable (non-positive or non-finite values are
 * skipped). *used, when non-NULL, receives the pairs used. */
double noise_floor_pct(const double *a, const double *b, size_t n, size_t *used);

#endif
