/* trend.c: per-run medians, then changepoint_detect(). A run is reduced to its
 * median rather than its mean so that one slow request cannot move a run, and the
 * change-point search then sees one value per run, as Otava's does. */
#include "analyze/trend.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "tpsdb.h"

double *trend_medians(const void *series, size_t n_runs,
		      const double *(*values)(const void *series, size_t i, size_t *n))
{
	double *y = tps_xcalloc(n_runs ? n_runs : 1, sizeof(*y));
	size_t i;

	for (i = 0; i < n_runs; i++) {
		size_t nv = 0;
		const double *v = values(series, i, &nv);

		y[i] = stats_median(v, nv);
	}
	return y;
}

int trend_detect(const void *series, size_t n_runs,
		 const double *(*values)(const void *series, size_t i, size_t *n),
		 const struct changepoint_params *p, struct trend *out)
{
	double *y = trend_medians(series, n_runs, values);
	struct changepoint *cps = NULL;
	size_t ncp = 0;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (changepoint_detect(y, n_runs, p, &cps, &ncp) < 0)
		goto out;
	out->medians = y;
	out->n_runs = n_runs;
	out->cps = cps;
	out->n_cps = ncp;
	y = NULL;
	ret = 0;
out:
	free(y);
	return ret;
}

const struct changepoint *trend_latest(const struct trend *t)
{
	return t->n_cps ? &t->cps[t->n_cps - 1] : NULL;
}

int trend_latest_regression(const struct trend *t)
{
	const struct changepoint *cp = trend_latest(t);

	return cp && cp->change_pct < 0;
}

void trend_release(struct trend *t)
{
	free(t->medians);
	changepoint_free(t->cps);
	memset(t, 0, sizeof(*t));
}
