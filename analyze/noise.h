/* noise.h: the A/A noise floor: how far two runs of the same engine, model and
 * config drift apart when only the server restarted between them. Pure. */
#ifndef ANALYZE_NOISE_H
#define ANALYZE_NOISE_H

#include <stddef.h>

/* The floor in percent from n pairs (a[i], b[i]) of one metric, the same prompt and
 * repetition in run A and run B: the larger of |median paired delta| and the far
 * edge of its 95% interval, i.e. the largest difference the A/A data are consistent
 * with. Using the interval's edge, not the point alone, keeps a lucky A/A pair from
 * setting a floor that is too low. NaN when no pair is usable (non-positive or
 * non-finite values are skipped); with one pair, |delta| alone. *used, when
 * non-NULL, receives the pairs used. */
double noise_floor_pct(const double *a, const double *b, size_t n, size_t *used);

#endif
