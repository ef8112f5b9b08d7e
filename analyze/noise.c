/* noise.c: turns one A/A pair of runs into a noise floor: the root mean square of
 * the paired deltas, the typical distance between two runs that differ only by a
 * server restart. */
#include "analyze/noise.h"

#include <math.h>

double noise_floor_pct(const double *a, const double *b, size_t n, size_t *used)
{
	double sum = 0;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		double d;
		if (!isfinite(a[i]) || !isfinite(b[i]) || a[i] <= 0 || b[i] <= 0)
			continue;
		d = 100.0 * (b[i] / a[i] - 1.0);
		sum += d * d;
		k++;
	}
	if (used)
		*used = k;
	return k ? sqrt(sum / (double)k) : NAN;
}
