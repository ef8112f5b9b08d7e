/* series.c: assembling speculative series from plain runs and holding them against
 * each other. Each rung pools its runs (server instances): each run is reduced to
 * its decode speed (the geometric mean of its usable values), summed rate and
 * acceptance; the estimate's outlier rule leaves an instance far from the rest
 * out, and the rung's speed is the geometric mean of the others (the one run's
 * own when alone), its counts their sums, so every figure of the rung and every
 * part of a gap covers the instances the gap's estimate used; the monotonicity,
 * shape and gap analyses are analyze/sweep.c's. */
#include "analyze/series.h"

#include "analyze/estimate.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/parity.h"
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

static struct series *find_series(struct series_set *set, const struct run *r)
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

/* A run's decode speed as the one estimate reduces an instance: the geometric
 * mean of its usable values, so a rung and a compare row of the same cell read
 * the same. */
static double run_tg(const struct run *r)
{
	struct estimate_unit u = { 0 };

	u.vals = r->values[RUN_TG].v;
	u.n = r->values[RUN_TG].n;
	u.value = NAN;
	return exp(estimate_unit_log(&u));
}

/* Keeps run r as instance k of rung out: its per-run values, its sums. */
static void rung_keep(struct series_rung *out, const struct run *r, double tg)
{
	struct sweep_rung *g = &out->rung;
	const struct run_agg *a = &r->agg;
	size_t k = out->n_runs++;

	out->n_values += r->values[RUN_TG].n;
	out->n_excluded += r->values[RUN_TG].excluded;
	out->tg_runs[k] = tg;
	out->rate_runs[k] = a->n > 0 && a->predicted_ms > 0 ?
		(double)a->predicted_n / a->predicted_ms * 1000 : NAN;
	out->accept_runs[k] = a->has_draft && a->draft_n > 0 ?
		(double)a->draft_n_accepted / (double)a->draft_n : NAN;
	out->round_runs[k] = r->round > 0 ? r->round : 0;
	out->batch_runs[k] = r->batch && *r->batch ? r->batch : NULL;
	if (a->n > 0) {
		g->predicted_n = (g->predicted_n > 0 ? g->predicted_n : 0) + a->predicted_n;
		g->predicted_ms = (isnan(g->predicted_ms) ? 0 : g->predicted_ms) + a->predicted_ms;
	}
	if (a->has_draft) {
		g->draft_n = (g->draft_n > 0 ? g->draft_n : 0) + a->draft_n;
		g->draft_n_accepted = (g->draft_n_accepted > 0 ? g->draft_n_accepted : 0) +
				      a->draft_n_accepted;
	}
}

/* The rung of pool p: its runs screened with the estimate's outlier rule, the
 * rest kept (their values and sums), the rung's speed set and its sweep_rung
 * pointed at the per-run arrays. */
static void rung_make(struct series_rung *r, const struct pool *p)
{
	size_t m = p->n, i, k = 0;
	double *tg = tps_xmalloc((m ? m : 1) * sizeof(*tg));
	double *lg = tps_xmalloc((m ? m : 1) * sizeof(*lg));
	char *bad = tps_xcalloc(m ? m : 1, 1);
	const struct run *face = pool_face(p);

	memset(r, 0, sizeof(*r));
	r->pool = p;
	r->n_max = face->n_max;
	r->rung.n_max = rung_key(face->n_max);
	r->run_id = face->id;
	tps_copy(r->run_uuid, sizeof(r->run_uuid), face->uuid, SIZE_MAX);
	r->tag = str(face->tag);
	for (i = 0; i < m; i++) {
		tg[i] = run_tg(p->runs[i]);
		lg[i] = tg[i] > 0 && isfinite(tg[i]) ? log(tg[i]) : NAN;
	}
	r->n_screened = estimate_outliers(lg, m, bad, &r->screen_median, NULL);
	r->tg_runs = tps_xcalloc(m ? m : 1, sizeof(*r->tg_runs));
	r->rate_runs = tps_xcalloc(m ? m : 1, sizeof(*r->rate_runs));
	r->accept_runs = tps_xcalloc(m ? m : 1, sizeof(*r->accept_runs));
	r->round_runs = tps_xcalloc(m ? m : 1, sizeof(*r->round_runs));
	r->batch_runs = tps_xcalloc(m ? m : 1, sizeof(*r->batch_runs));
	if (r->n_screened)
		r->screened_out = tps_xcalloc(r->n_screened, sizeof(*r->screened_out));
	r->rung.predicted_n = r->rung.draft_n = r->rung.draft_n_accepted = -1;
	r->rung.predicted_ms = NAN;
	r->units = pool_units(p, RUN_TG);
	r->unit_kept = tps_xcalloc(m ? m : 1, 1);
	for (i = 0; i < m; i++) {
		r->unit_kept[i] = !bad[i];
		if (!bad[i]) {
			rung_keep(r, p->runs[i], tg[i]);
			continue;
		}
		tps_copy(r->screened_out[k].run_uuid, sizeof(r->screened_out[k].run_uuid),
			 p->runs[i]->uuid, SIZE_MAX);
		r->screened_out[k++].tg = tg[i];
	}
	/* One run keeps its own value exactly; more, the mean of their logs. */
	for (i = 0, k = 0; i < r->n_runs; i++)
		if (r->tg_runs[i] > 0 && isfinite(r->tg_runs[i]))
			lg[k++] = log(r->tg_runs[i]);
	r->rung.tg = r->n_runs == 1 ? r->tg_runs[0] : k ? exp(stats_mean(lg, k)) : NAN;
	r->rung.n_runs = r->n_runs;
	r->rung.tg_runs = r->tg_runs;
	r->rung.rate_runs = r->rate_runs;
	r->rung.accept_runs = r->accept_runs;
	r->rung.round_runs = r->round_runs;
	r->rung.batch_runs = r->batch_runs;
	r->rung.screened = 1;
	r->rung.n_screened = r->n_screened;
	r->rung.units = r->units;
	r->rung.unit_kept = r->unit_kept;
	r->rung.n_units = m;
	r->rung.pool = p;
	free(tg);
	free(lg);
	free(bad);
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

/* Whether r is a base run of se's engine, model and endpoint. */
static int base_of(const struct series *se, const struct run *r)
{
	return sweep_rung_is_base(r->n_max) && same_str(r->engine, se->engine) &&
	       same_str(r->model, se->model) && same_str(r->endpoint, se->endpoint);
}

/* The base pool of se: the one of its own spec_type when there is one, else
 * that of spec_type ""; NULL when neither. */
static const struct pool *base_pool(const struct series *se, const struct pool *p, size_t n)
{
	const struct pool *plain = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct run *r = pool_face(&p[i]);

		if (!r || !base_of(se, r))
			continue;
		if (same_str(r->spec_type, se->spec_type))
			return &p[i];
		if (same_str(r->spec_type, "") && !plain)
			plain = &p[i];
	}
	return plain;
}

static struct series_rung *add_rung(struct series *se)
{
	se->rungs = tps_xrealloc(se->rungs, (se->n_rungs + 1) * sizeof(*se->rungs));
	return &se->rungs[se->n_rungs++];
}

static struct series *add_series(struct series_set *set, const struct run *r)
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

int series_assemble(const struct pool *p, size_t n, double tolerance_pct,
		    struct series_set *out)
{
	size_t i, j;

	memset(out, 0, sizeof(*out));
	/* Every pool with an n_max is a drafting rung of its series (one pool per
	 * rung: a second config of the same rung is not pooled with the first). */
	for (i = 0; i < n; i++) {
		const struct run *r = pool_face(&p[i]);
		struct series *se;

		if (!r || sweep_rung_is_base(r->n_max))
			continue;
		if (!(se = find_series(out, r)))
			se = add_series(out, r);
		if (series_find(se, r->n_max) < 0)
			rung_make(add_rung(se), &p[i]);
	}
	for (i = 0; i < out->n; i++) {
		struct series *se = &out->v[i];
		const struct pool *b = base_pool(se, p, n);

		if (b)
			rung_make(add_rung(se), b);
		qsort(se->rungs, se->n_rungs, sizeof(*se->rungs), rung_cmp);
		se->sweep = tps_xcalloc(se->n_rungs ? se->n_rungs : 1, sizeof(*se->sweep));
		for (j = 0; j < se->n_rungs; j++) {
			/* The rungs moved: their sweep views point at their own arrays. */
			se->sweep[j] = se->rungs[j].rung;
		}
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
		for (j = 0; j < se->n_rungs; j++) {
			struct series_rung *r = &se->rungs[j];

			free(r->tg_runs);
			free(r->rate_runs);
			free(r->accept_runs);
			free(r->round_runs);
			free(r->batch_runs);
			free(r->screened_out);
			free(r->units);
			free(r->unit_kept);
		}
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

	if (i < 0 || k < 0 || sweep_gap(&ours->sweep[i], &ref->sweep[k], gap) < 0)
		return -1;
	sweep_gap_decide(&ours->sweep[i], &ref->sweep[k], gap);
	return 0;
}

/* The first pair of runs of pools p and q whose settled knobs differ. */
static int pools_clash(const struct pool *p, const struct pool *q, const struct run **a,
		       const struct run **b)
{
	for (size_t i = 0; p && i < p->n; i++)
		for (size_t j = 0; q && j < q->n; j++)
			if (run_settings_differ(p->runs[i]->spec_settings,
						   q->runs[j]->spec_settings)) {
				*a = p->runs[i];
				*b = q->runs[j];
				return 1;
			}
	return 0;
}

int series_settings_clash(const struct series *ours, const struct series *ref,
			  struct series_clash *out)
{
	for (size_t i = 0; i < ours->n_rungs; i++) {
		long k = series_find(ref, ours->rungs[i].n_max);

		if (k >= 0 && pools_clash(ours->rungs[i].pool, ref->rungs[k].pool, &out->a,
					  &out->b)) {
			out->n_max = ours->rungs[i].n_max;
			return 1;
		}
	}
	return 0;
}

/* 1 when series a and b clash: the first clash of the set is kept in out, in the
 * order a gap line would read them (series_gap_pair()). */
static int clash(struct series_verdict *out, const struct series_view *v,
		 const struct series_set *set, size_t a, size_t b)
{
	struct series_clash c;

	if (series_gap_pair(v, &set->v[b], &set->v[a])) {
		size_t t = a;

		a = b;
		b = t;
	}
	c.ours = a;
	c.ref = b;

	if (!series_settings_clash(&set->v[a], &set->v[b], &c))
		return 0;
	if (!out->clashed) {
		out->clashed = 1;
		out->clash = c;
	}
	return 1;
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

/* Counts one step or gap of what the view holds measured on two machines (runs
 * a and b), keeping the first: ref == ours for a step of one series. */
static void across_note(struct series_verdict *out, const struct series_set *set, size_t ours,
			size_t ref, int64_t from, int64_t to, const struct run *a,
			const struct run *b)
{
	const struct series *se = &set->v[ours];
	long k = series_find(se, to);

	if (out->n_across++)
		return;
	out->across.ours = ours;
	out->across.ref = ref;
	out->across.from_n_max = from;
	out->across.to_n_max = to;
	out->across.a = a;
	out->across.b = b;
	out->across.cell = k >= 0 ? pool_face(se->rungs[k].pool) : NULL;
}

int series_decide(const struct series_view *v, const struct series_set *set,
		  double tolerance_pct, struct series_verdict *out)
{
	size_t a, b, i, cap = 0;

	memset(out, 0, sizeof(*out));
	out->n = set->n;
	out->shown = tps_xcalloc(set->n ? set->n : 1, 1);
	out->shape = tps_xcalloc(set->n ? set->n : 1, sizeof(*out->shape));
	out->n_shape = tps_xcalloc(set->n ? set->n : 1, sizeof(*out->n_shape));
	out->ref_missing = v->ref != NULL;
	for (a = 0; a < set->n; a++)
		if (v->ref && !strcmp(set->v[a].engine, v->ref))
			out->ref_missing = 0;
	for (a = 0; a < set->n; a++) {
		const struct series *se = &set->v[a];

		if (!series_shown(v, se))
			continue;
		out->shown[a] = 1;
		out->n_shown++;
		out->n_violations += se->report.n_decided; /* an undecided dip fails nothing */
		out->n_undecided += se->report.n_violations - se->report.n_decided;
		for (i = 0; i < se->report.n_across; i++) {
			const struct sweep_step *st = &se->report.across[i];

			across_note(out, set, a, a, st->from_n_max, st->to_n_max, st->machine_a,
				    st->machine_b);
		}
		for (b = 0; b < set->n; b++) {
			struct sweep_step *steps = NULL;
			size_t n = 0;

			if (!series_is_ref(v, se, &set->v[b]) || clash(out, v, set, a, b))
				continue;
			if (series_shape(se, &set->v[b], tolerance_pct, &steps, &n) < 0)
				continue; /* as before: a refused shape shows no steps */
			out->shape[a] = tps_xrealloc(out->shape[a], (out->n_shape[a] + n + 1) *
						     sizeof(*out->shape[a]));
			for (i = 0; i < n; i++) {
				out->shape[a][out->n_shape[a]].ref = b;
				out->shape[a][out->n_shape[a]++].step = steps[i];
				if (steps[i].machine_a)
					across_note(out, set, a, b, steps[i].from_n_max,
						    steps[i].to_n_max, steps[i].machine_a,
						    steps[i].machine_b);
			}
			free(steps);
		}
	}
	for (a = 0; a < set->n; a++) {
		for (b = 0; b < set->n; b++) {
			const struct series *x = &set->v[a], *y = &set->v[b];

			/* A difference of settings is never explained as one of
			 * cycle cost: a clashing pair gets no gap line at all. */
			if (a == b || !series_gap_pair(v, x, y) || clash(out, v, set, a, b))
				continue;
			for (i = 0; i < x->n_rungs; i++) {
				struct series_gap_line g = { .ours = a, .ref = b,
							     .n_max = x->rungs[i].n_max };

				if (series_gap(x, y, g.n_max, &g.gap) < 0)
					continue;
				if (g.gap.machine_a)
					across_note(out, set, a, b, g.n_max, g.n_max,
						    g.gap.machine_a, g.gap.machine_b);
				else if (sweep_gap_why(&g.gap, &g.why) < 0)
					continue;
				if (out->n_gaps == cap) {
					cap = cap ? 2 * cap : 8;
					out->gaps = tps_xrealloc(out->gaps, cap * sizeof(*out->gaps));
				}
				out->gaps[out->n_gaps++] = g;
			}
		}
	}
	out->machines_refused = out->n_across && !v->across_machines;
	return 0;
}

void series_verdict_release(struct series_verdict *out)
{
	size_t i;

	if (!out)
		return;
	for (i = 0; out->shape && i < out->n; i++)
		free(out->shape[i]);
	free(out->shape);
	free(out->n_shape);
	free(out->shown);
	free(out->gaps);
	memset(out, 0, sizeof(*out));
}
