/* series.c: assembling speculative series from the store. The runs come from
 * store_cell_runs() (one per rung), each rung's speed is the median of its usable
 * decode samples and its draft counts are SQL sums, so a long sweep hands over a few
 * numbers per rung; the analysis is analyze/sweep.c's. */
#include "reports/series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "schema/cells.h"
#include "schema/record.h"
#include "tpsdb.h"

void series_filter_init(struct series_filter *f)
{
	memset(f, 0, sizeof(*f));
	f->tolerance_pct = SWEEP_TOLERANCE_PCT;
}

static int same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

static int64_t rung_key(int64_t n_max)
{
	return n_max == TPS_NULL || n_max <= 0 ? -1 : n_max;
}

long series_find(const struct series *se, int64_t n_max)
{
	int64_t k = rung_key(n_max);
	size_t i;

	for (i = 0; i < se->n_rungs; i++)
		if (rung_key(se->rungs[i].n_max) == k)
			return (long)i;
	return -1;
}

static struct series *find_series(struct series_set *set, const struct cell_run *r)
{
	size_t i;

	for (i = 0; i < set->n; i++) {
		struct series *se = &set->v[i];
		if (same_str(se->engine, r->engine) && same_str(se->model, r->model) &&
		    same_str(se->spec_type, r->spec_type) && same_str(se->endpoint, r->endpoint))
			return se;
	}
	return NULL;
}

/* Reads one rung's median decode speed and draft sums. */
static int rung_fill(struct store *s, const struct cell_run *r, struct series_rung *out)
{
	struct cell_value *v = NULL;
	struct cell_agg agg;
	size_t n = 0, bad = 0, i;
	double *x = NULL;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	out->n_max = r->n_max;
	out->run_id = r->id;
	snprintf(out->run_uuid, sizeof(out->run_uuid), "%s", r->uuid);
	out->tag = tps_xstrdup(r->tag ? r->tag : "");
	if (store_cell_values(s, r->id, CELL_TG, &v, &n, &bad) < 0 ||
	    store_cell_agg(s, r->id, &agg) < 0)
		goto out;
	x = tps_xmalloc((n ? n : 1) * sizeof(*x));
	for (i = 0; i < n; i++)
		x[i] = v[i].value;
	out->n_values = n;
	out->n_excluded = bad;
	out->rung.n_max = rung_key(r->n_max);
	out->rung.tg = stats_median(x, n);
	out->rung.predicted_n = agg.n > 0 ? agg.predicted_n : -1;
	out->rung.draft_n = agg.has_draft ? agg.draft_n : -1;
	out->rung.draft_n_accepted = agg.has_draft ? agg.draft_n_accepted : -1;
	out->rung.predicted_ms = agg.n > 0 ? agg.predicted_ms : NAN;
	ret = 0;
out:
	free(v);
	free(x);
	return ret;
}

static int rung_cmp(const void *pa, const void *pb)
{
	const struct series_rung *a = pa, *b = pb;
	int64_t ka = rung_key(a->n_max), kb = rung_key(b->n_max);

	return ka < kb ? -1 : ka > kb;
}

static int series_cmp(const void *pa, const void *pb)
{
	const struct series *a = pa, *b = pb;
	int c;

	if ((c = strcmp(a->model, b->model)) || (c = strcmp(a->spec_type, b->spec_type)) ||
	    (c = strcmp(a->endpoint, b->endpoint)))
		return c;
	return strcmp(a->engine, b->engine);
}

/* The base run for se: n_max NULL, same engine, model and endpoint; the series'
 * own spec_type wins over "". */
static const struct cell_run *find_base(const struct series *se, const struct cell_run *runs,
					size_t n)
{
	const struct cell_run *plain = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct cell_run *r = &runs[i];
		if (r->n_max != TPS_NULL || !same_str(r->engine, se->engine) ||
		    !same_str(r->model, se->model) || !same_str(r->endpoint, se->endpoint))
			continue;
		if (same_str(r->spec_type, se->spec_type))
			return r;
		if (same_str(r->spec_type, "") && !plain)
			plain = r;
	}
	return plain;
}

static struct series_rung *add_rung(struct series *se)
{
	se->rungs = tps_xrealloc(se->rungs, (se->n_rungs + 1) * sizeof(*se->rungs));
	return &se->rungs[se->n_rungs++];
}

int series_load(struct store *s, const struct series_filter *f, struct series_set *out)
{
	struct cell_filter cf = { 0 };
	struct cell_run *runs = NULL;
	size_t n = 0, i, j;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	cf.engine = f->engine;
	cf.model = f->model;
	cf.tag = f->tag;
	cf.host = f->host;
	cf.baseline = f->baseline;
	if (store_cell_runs(s, &cf, &runs, &n) < 0)
		goto out;
	/* Every run with an n_max is a drafting rung of its series. */
	for (i = 0; i < n; i++) {
		const struct cell_run *r = &runs[i];
		struct series *se;

		if (r->n_max == TPS_NULL || r->n_max <= 0)
			continue;
		if (!(se = find_series(out, r))) {
			out->v = tps_xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
			se = &out->v[out->n++];
			memset(se, 0, sizeof(*se));
			se->report.base = SIZE_MAX;
			se->engine = tps_xstrdup(r->engine ? r->engine : "");
			se->role = tps_xstrdup(r->role ? r->role : "");
			se->model = tps_xstrdup(r->model ? r->model : "");
			se->spec_type = tps_xstrdup(r->spec_type ? r->spec_type : "");
			se->endpoint = tps_xstrdup(r->endpoint ? r->endpoint : "");
		}
		if (series_find(se, r->n_max) >= 0)
			continue; /* latest per cell already: only a second endpoint could repeat */
		if (rung_fill(s, r, add_rung(se)) < 0)
			goto out;
	}
	for (i = 0; i < out->n; i++) {
		struct series *se = &out->v[i];
		const struct cell_run *b = find_base(se, runs, n);

		if (b && rung_fill(s, b, add_rung(se)) < 0)
			goto out;
		qsort(se->rungs, se->n_rungs, sizeof(*se->rungs), rung_cmp);
		se->sweep = tps_xcalloc(se->n_rungs, sizeof(*se->sweep));
		for (j = 0; j < se->n_rungs; j++)
			se->sweep[j] = se->rungs[j].rung;
		if (sweep_analyze(se->sweep, se->n_rungs, f->tolerance_pct, &se->report) < 0) {
			tps_error("cannot analyse the sweep: the tolerance must be a number >= 0");
			goto out;
		}
		for (j = 0; j < se->n_rungs && j < se->report.n_points; j++)
			se->rungs[j].point = se->report.points[j];
	}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), series_cmp);
	ret = 0;
out:
	cell_runs_free(runs, n);
	return ret;
}

void series_set_release(struct series_set *set)
{
	size_t i, j;

	if (!set)
		return;
	for (i = 0; i < set->n; i++) {
		struct series *se = &set->v[i];
		for (j = 0; j < se->n_rungs; j++)
			free(se->rungs[j].tag);
		free(se->rungs);
		free(se->sweep);
		sweep_report_release(&se->report);
		free(se->engine); free(se->role); free(se->model);
		free(se->spec_type); free(se->endpoint);
	}
	free(set->v);
	memset(set, 0, sizeof(*set));
}

int series_shape(const struct series *ours, const struct series *ref, double tolerance_pct,
		 struct sweep_step **out, size_t *count)
{
	struct sweep_rung *a = NULL, *b = NULL;
	struct sweep_step *steps = NULL;
	size_t m = 0, i;
	int ret = -1;

	*out = NULL;
	*count = 0;
	if (ours->n_rungs) {
		a = tps_xcalloc(ours->n_rungs, sizeof(*a));
		b = tps_xcalloc(ours->n_rungs, sizeof(*b));
		steps = tps_xcalloc(ours->n_rungs, sizeof(*steps));
	}
	for (i = 0; i < ours->n_rungs; i++) {
		long k = series_find(ref, ours->rungs[i].n_max);
		if (k < 0)
			continue;
		a[m] = ours->sweep[i];
		b[m] = ref->sweep[k];
		m++;
	}
	if (sweep_shape(a, b, m, tolerance_pct, steps, count) < 0)
		goto out;
	if (*count) {
		*out = steps;
		steps = NULL;
	}
	ret = 0;
out:
	free(a);
	free(b);
	free(steps);
	return ret;
}

int series_gap(const struct series *ours, const struct series *ref, int64_t n_max,
	       struct sweep_gap *gap, char *buf, size_t len)
{
	long i = series_find(ours, n_max), k = series_find(ref, n_max);

	if (len)
		buf[0] = '\0';
	if (i < 0 || k < 0)
		return -1;
	if (sweep_gap(&ours->sweep[i], &ref->sweep[k], gap) < 0)
		return -1;
	return sweep_gap_explain(gap, ours->engine, ref->engine, buf, len);
}
