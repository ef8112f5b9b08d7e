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
static int noise_identical(const struct run *a, const struct run *b)
{
	size_t i, pairs = 0;
	int m, same = 1;

	for (m = 0; m < PARITY_N_METRICS && same; m++) {
		const struct run_values *sa = &a->values[m], *sb = &b->values[m];
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

void noise_calibrate(const struct pool *h, size_t n_h, struct noise_pair **out, size_t *n,
		     size_t *n_floors)
{
	struct noise_pair *v = tps_xcalloc(n_h ? n_h : 1, sizeof(*v));
	size_t i, k = 0, found = 0;
	int m;

	for (i = 0; i < n_h; i++) {
		const struct run *a = NULL, *b = NULL;
		struct noise_pair *p;
		size_t j;

		/* The two latest clean runs (run_clean()) of one host: a spoiled or
		 * incomplete run measures the night, not the engine. */
		for (j = h[i].n; j-- > 0 && !a;) {
			const struct run *r = h[i].runs[j];

			if (!run_clean(r))
				continue;
			if (!b)
				b = r;
			else if (run_str_eq(r->host, b->host))
				a = r;
		}
		if (!a)
			continue;
		p = &v[k++];
		p->a = a;
		p->b = b;
		for (m = 0; m < PARITY_N_METRICS; m++)
			p->pct[m] = NAN;
		if (run_mismatch(p->a, p->b, &p->diff))
			continue;
		if (noise_identical(p->a, p->b)) {
			p->identical = 1;
			continue;
		}
		for (m = 0; m < PARITY_N_METRICS; m++) {
			const struct run_values *sa = &p->a->values[m], *sb = &p->b->values[m];
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
	*n = k;
	if (n_floors)
		*n_floors = found;
}
