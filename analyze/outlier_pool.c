/* outlier_pool.c: every instance of the store judged against its own pool
 * (outlier_pool.h), the same robust rule that compare and gate apply to the
 * instances of one cell before they estimate it (analyze/estimate.c). */
#include "analyze/outlier_pool.h"

#include "analyze/estimate.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>

size_t outlier_pool_find(const struct outlier_instance *in, size_t n,
			 struct outlier_verdict *out)
{
	struct estimate_member *m = tps_xcalloc(n + 1, sizeof(*m));
	char **keys = tps_xcalloc(n + 1, sizeof(*keys)), *bad = tps_xcalloc(n + 1, 1);
	double *med = tps_xcalloc(n + 1, sizeof(*med));
	size_t i, marked;

	for (i = 0; i < n; i++) {
		const struct outlier_instance *r = &in[i];
		struct estimate_unit u = { 0 };

		u.v = r->v;
		u.n = r->n;
		u.value = NAN;
		m[i].lg = estimate_unit_log(&u);
		/* '|' cannot make two pools one: each field keeps its place. */
		keys[i] = tps_xasprintf("%s|%s|%s|%lld|%s|%s|%s|%s|%d", r->engine ? r->engine : "",
					r->model ? r->model : "", r->spec_type ? r->spec_type : "",
					(long long)r->n_max, r->endpoint ? r->endpoint : "",
					r->config ? r->config : "", r->tag ? r->tag : "",
					r->batch ? r->batch : "", r->metric);
		m[i].pool = keys[i];
	}
	marked = estimate_outlier_pools(m, n, bad, med);
	for (i = 0; i < n; i++) {
		out[i].outlier = bad[i] != 0;
		out[i].value = exp(m[i].lg);
		out[i].median = med[i];
		free(keys[i]);
	}
	free(keys);
	free(m);
	free(bad);
	free(med);
	return marked;
}
