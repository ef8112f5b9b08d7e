/* noise.c: turns one A/A pair of runs into a noise floor, through the same paired
 * estimate compare uses (analyze/verdict.c), so the floor and the deltas it bounds
 * are measured alike. */
#include "analyze/noise.h"
#include "analyze/verdict.h"

#include <math.h>

double noise_floor_pct(const double *a, const double *b, size_t n, size_t *used)
{
	struct verdict_params p;
	struct verdict v;
	double floor_pct;

	if (used)
		*used = 0;
	verdict_params_init(&p);
	p.band_pct = 0;
	if (verdict_paired(b, a, n, &p, &v) < 0 || v.n_pairs == 0)
		return NAN;
	if (used)
		*used = v.n_pairs;
	floor_pct = fabs(v.delta_pct);
	if (!isnan(v.ci_lo_pct) && fabs(v.ci_lo_pct) > floor_pct)
		floor_pct = fabs(v.ci_lo_pct);
	if (!isnan(v.ci_hi_pct) && fabs(v.ci_hi_pct) > floor_pct)
		floor_pct = fabs(v.ci_hi_pct);
	return floor_pct;
}
