/* series.c: store_decode (schema/) to series_run (analyze/), field by field, and
 * the series assembled from them. Nothing is decided here: absent sums travel as
 * the store reported them and analyze/series.c reads them. */
#include "reports/series.h"

#include <stdlib.h>

#include "tpsdb.h"

int series_from_decode(const struct store_decode *runs, size_t n, double tolerance_pct,
		       struct series_set *out)
{
	struct series_run *v = tps_xcalloc(n ? n : 1, sizeof(*v));
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		const struct store_decode *d = &runs[i];
		struct series_run *r = &v[i];

		r->engine = d->run.engine;
		r->role = d->run.role;
		r->model = d->run.model;
		r->spec_type = d->run.spec_type;
		r->endpoint = d->run.endpoint;
		r->n_max = d->run.n_max;
		r->run_id = d->run.id;
		r->run_uuid = d->run.uuid;
		r->tag = d->run.tag;
		r->values = d->values;
		r->n_values = d->n_values;
		r->n_excluded = d->n_excluded;
		r->n_summed = d->agg.n;
		r->predicted_n = d->agg.predicted_n;
		r->draft_n = d->agg.draft_n;
		r->draft_n_accepted = d->agg.draft_n_accepted;
		r->has_draft = d->agg.has_draft;
		r->predicted_ms = d->agg.predicted_ms;
	}
	ret = series_assemble(v, n, tolerance_pct, out);
	free(v);
	if (ret < 0)
		return tps_error("cannot analyse the sweep: the tolerance must be a number >= 0");
	return 0;
}
