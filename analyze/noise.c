/* noise.c: turns one A/A pair of runs into a noise floor: the root mean square of
 * the paired deltas, the typical distance between two runs that differ only by a
 * server restart. */
#include "analyze/noise.h"

#include <math.h>
#include <stdlib.h>

#include "tpsdb.h"

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

/* 1 when the cell's two runs hold the same values, pair for pair, in every metric
 * (and at least one pair): copies of one measurement, not an A/A pair. */
static int noise_identical(const struct parity_cell *c)
{
	size_t i, pairs = 0;
	int m, same = 1;

	for (m = 0; m < PARITY_N_METRICS && same; m++) {
		const struct parity_series *sa = &c->ours_values[m], *sb = &c->vs_values[m];
		double *xa = NULL, *xb = NULL;
		size_t np = 0;

		parity_pair(sa->v, sa->n, sb->v, sb->n, &xa, &xb, &np, NULL);
		for (i = 0; i < np; i++) {
			if (isnan(xa[i]) && isnan(xb[i]))
				continue;
			if (xa[i] != xb[i])
				same = 0;
			pairs++;
		}
		free(xa);
		free(xb);
	}
	return same && pairs > 0;
}

void noise_calibrate(const struct parity_input *in, struct noise_pair **out, size_t *n,
		     size_t *n_floors)
{
	struct noise_pair *v = tps_xcalloc(in->n_cells ? in->n_cells : 1, sizeof(*v));
	size_t i, found = 0;
	int m;

	for (i = 0; i < in->n_cells; i++) {
		const struct parity_cell *c = &in->cells[i];
		struct noise_pair *p = &v[i];

		p->a = &in->ours[c->ours];
		p->b = &in->ours[c->vs];
		for (m = 0; m < PARITY_N_METRICS; m++)
			p->pct[m] = NAN;
		if (parity_mismatch(p->a, p->b, &p->diff))
			continue;
		if (noise_identical(c)) {
			p->identical = 1;
			continue;
		}
		for (m = 0; m < PARITY_N_METRICS; m++) {
			const struct parity_series *sa = &c->ours_values[m], *sb = &c->vs_values[m];
			double *xa = NULL, *xb = NULL;
			size_t np = 0;

			parity_pair(sa->v, sa->n, sb->v, sb->n, &xa, &xb, &np, NULL);
			p->pct[m] = noise_floor_pct(xa, xb, np, &p->n_pairs[m]);
			if (!isnan(p->pct[m]))
				found++;
			free(xa);
			free(xb);
		}
	}
	*out = v;
	*n = in->n_cells;
	if (n_floors)
		*n_floors = found;
}
