/* series.c: assembling speculative series from plain runs and holding them against
 * each other. Each rung's speed is the median of its usable decode samples and its
 * counts are the run's sums; the monotonicity, shape and gap analyses are
 * analyze/sweep.c's. */
#include "analyze/series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "tpsdb.h"

static const char *str(const char *s)
{
	return s ? s : "";
}

static int same_str(const char *a, const char *b)
{
	return !strcmp(str(a), str(b));
}

/* Every base value compares as one key, -1. */
static int64_t rung_key(int64_t n_max)
{
	return sweep_rung_is_base(n_max) ? -1 : n_max;
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

static struct series *find_series(struct series_set *set, const struct series_run *r)
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

static void rung_fill(const struct series_run *r, struct series_rung *out)
{
	memset(out, 0, sizeof(*out));
	out->n_max = r->n_max;
	out->run_id = r->run_id;
	strncpy(out->run_uuid, str(r->run_uuid), sizeof(out->run_uuid) - 1);
	out->tag = tps_xstrdup(str(r->tag));
	out->n_values = r->n_values;
	out->n_excluded = r->n_excluded;
	out->rung.n_max = rung_key(r->n_max);
	out->rung.tg = stats_median(r->values, r->n_values);
	out->rung.predicted_n = r->n_summed > 0 ? r->predicted_n : -1;
	out->rung.draft_n = r->has_draft ? r->draft_n : -1;
	out->rung.draft_n_accepted = r->has_draft ? r->draft_n_accepted : -1;
	out->rung.predicted_ms = r->n_summed > 0 ? r->predicted_ms : NAN;
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

/* The base run for se: a base, same engine, model and endpoint; the series' own
 * spec_type wins over "". */
static const struct series_run *find_base(const struct series *se, const struct series_run *runs,
					  size_t n)
{
	const struct series_run *plain = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct series_run *r = &runs[i];
		if (!sweep_rung_is_base(r->n_max) || !same_str(r->engine, se->engine) ||
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

static struct series *add_series(struct series_set *set, const struct series_run *r)
{
	struct series *se;

	set->v = tps_xrealloc(set->v, (set->n + 1) * sizeof(*set->v));
	se = &set->v[set->n++];
	memset(se, 0, sizeof(*se));
	se->report.base = SIZE_MAX;
	se->engine = tps_xstrdup(str(r->engine));
	se->role = tps_xstrdup(str(r->role));
	se->model = tps_xstrdup(str(r->model));
	se->spec_type = tps_xstrdup(str(r->spec_type));
	se->endpoint = tps_xstrdup(str(r->endpoint));
	return se;
}

int series_assemble(const struct series_run *runs, size_t n, double tolerance_pct,
		    struct series_set *out)
{
	size_t i, j;

	memset(out, 0, sizeof(*out));
	/* Every run with an n_max is a drafting rung of its series. */
	for (i = 0; i < n; i++) {
		const struct series_run *r = &runs[i];
		struct series *se;

		if (sweep_rung_is_base(r->n_max))
			continue;
		if (!(se = find_series(out, r)))
			se = add_series(out, r);
		if (series_find(se, r->n_max) >= 0)
			continue; /* latest per cell already: only a second endpoint could repeat */
		rung_fill(r, add_rung(se));
	}
	for (i = 0; i < out->n; i++) {
		struct series *se = &out->v[i];
		const struct series_run *b = find_base(se, runs, n);

		if (b)
			rung_fill(b, add_rung(se));
		qsort(se->rungs, se->n_rungs, sizeof(*se->rungs), rung_cmp);
		se->sweep = tps_xcalloc(se->n_rungs ? se->n_rungs : 1, sizeof(*se->sweep));
		for (j = 0; j < se->n_rungs; j++)
			se->sweep[j] = se->rungs[j].rung;
		if (sweep_analyze(se->sweep, se->n_rungs, tolerance_pct, &se->report) < 0)
			return -1;
		for (j = 0; j < se->n_rungs && j < se->report.n_points; j++)
			se->rungs[j].point = se->report.points[j];
	}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), series_cmp);
	return 0;
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
	       struct sweep_gap *gap)
{
	long i = series_find(ours, n_max), k = series_find(ref, n_max);

	if (i < 0 || k < 0)
		return -1;
	return sweep_gap(&ours->sweep[i], &ref->sweep[k], gap);
}

/* Same model, spec_type and endpoint, another engine. */
static int same_series(const struct series *a, const struct series *b)
{
	return !strcmp(a->model, b->model) && !strcmp(a->spec_type, b->spec_type) &&
	       !strcmp(a->endpoint, b->endpoint) && strcmp(a->engine, b->engine);
}

int series_shown(const struct series_view *v, const struct series *se)
{
	return !v->engine || !strcmp(v->engine, se->engine);
}

int series_is_ref(const struct series_view *v, const struct series *se,
		  const struct series *other)
{
	if (!same_series(se, other))
		return 0;
	return !v->ref || !strcmp(v->ref, other->engine);
}

static int role_rank(const char *role)
{
	if (!strcmp(role, "ours"))
		return 0;
	if (!strcmp(role, "upstream"))
		return 2;
	return 1;
}

int series_gap_pair(const struct series_view *v, const struct series *a, const struct series *b)
{
	int ra, rb;

	if (!same_series(a, b))
		return 0;
	if (v->ref)
		return !strcmp(v->ref, b->engine) && series_shown(v, a);
	if (!series_shown(v, a) && !series_shown(v, b))
		return 0;
	ra = role_rank(a->role);
	rb = role_rank(b->role);
	return ra < rb || (ra == rb && strcmp(a->engine, b->engine) < 0);
}
