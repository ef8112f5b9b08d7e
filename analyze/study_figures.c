/* study_figures.c: the data behind the trend, sweep and parity figures (figure.h),
 * shared by 'tpsdb plot' and 'tpsdb report'. The series follow the tables' column
 * order so that colours match, and every array a figure points to lives in one
 * arena, freed at once when the figure is drawn. The figures carry what their
 * titles are made of; reports/plot_text.c words them. */
#include "analyze/study_int.h"
#include "analyze/stats.h"
#include "analyze/trend.h"
#include "analyze/series.h"
#include "analyze/sweep.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct study_arena {
	void **p;
	size_t n;
};

struct study_arena *study_arena_new(void)
{
	return tps_xcalloc(1, sizeof(struct study_arena));
}

void study_arena_free(struct study_arena *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->n; i++)
		free(a->p[i]);
	free(a->p);
	free(a);
}

static void *keep(struct study_arena *a, void *p)
{
	a->p = tps_xrealloc(a->p, (a->n + 1) * sizeof(*a->p));
	a->p[a->n++] = p;
	return p;
}

static void *arena_calloc(struct study_arena *a, size_t n, size_t size)
{
	return keep(a, tps_xcalloc(n ? n : 1, size));
}

static char *arena_strdup(struct study_arena *a, const char *s)
{
	return keep(a, tps_xstrdup(s ? s : ""));
}

/* A series' legend: the engine on its endpoint, as cell_label_endpoint() spells it
 * (an identifier, as a table's cell is named, not a phrase to word in reports/). */
static const char *series_label(struct study_arena *a, const char *engine, const char *endpoint)
{
	return keep(a, cell_label_endpoint(engine, endpoint));
}

/* "2025-01-02T03:04:05.678Z" as seconds since the epoch; NaN when unparsable. */
static double iso_seconds(const char *iso)
{
	struct tm tm;
	double sec = 0;
	int y, mo, d, h = 0, mi = 0;

	memset(&tm, 0, sizeof(tm));
	if (!iso || sscanf(iso, "%d-%d-%dT%d:%d:%lf", &y, &mo, &d, &h, &mi, &sec) < 3)
		return NAN;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = 0;
	return (double)timegm(&tm) + sec;
}

/* Where a figure's series goes: in the order of the engines asked for, else ours,
 * other, upstream and by label, the columns' order, so colours match the tables. */
static int series_before(const char *const *engines, size_t n, const char *la, const char *ra,
			 const char *lb, const char *rb)
{
	if (n) {
		size_t i, ia = n, ib = n;
		for (i = 0; i < n; i++) {
			if (ia == n && study_same(engines[i], la))
				ia = i;
			if (ib == n && study_same(engines[i], lb))
				ib = i;
		}
		if (ia != ib)
			return ia < ib;
	} else if (study_role_rank(ra) != study_role_rank(rb)) {
		return study_role_rank(ra) < study_role_rank(rb);
	}
	return strcmp(la, lb) < 0;
}

/* How many robust sd (or floors) a trend band spans beside the parity band. */
#define TREND_BAND_K 2.0

/* The histories of metric m of h[0..n) (trend_history()): a heap array of n the
 * caller frees with histories_free(). */
static struct pool *histories(const struct pool *h, size_t n, int m, int64_t limit)
{
	struct pool *v = tps_xcalloc(n + 1, sizeof(*v));

	for (size_t i = 0; i < n; i++)
		trend_history(&h[i], (enum run_metric)m, limit, &v[i]);
	return v;
}

static void histories_free(struct pool *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i].runs);
	free(v);
}

static int trend_series_wanted(const struct study_trend_opts *o, const char *model,
			       const struct pool *se)
{
	const struct run *f = pool_face(se);

	if (!f || !study_same(f->model, model) ||
	    !study_same(f->spec_type, o->spec_type ? o->spec_type : "") || f->n_max != o->n_max)
		return 0;
	return !o->n_engines || study_in_list(o->engines, o->n_engines, f->engine);
}

/* The band's half width in %: the parity band, or k x the stored floor (NaN: none)
 * when that is wider. */
static double band_pct(double floor)
{
	return isfinite(floor) && TREND_BAND_K * floor > VERDICT_BAND_PCT ?
		TREND_BAND_K * floor : VERDICT_BAND_PCT;
}

/* The band from a frozen baseline: min..max of its run medians in this config,
 * widened to mean +/- max(2%, k x the stored floor) when that is wider. */
static void baseline_band(const struct study_trend_opts *o, const struct study_input *in,
			  const char *model, struct plot_trend *out, struct study_arena *a,
			  const char **no_band)
{
	size_t n = in->n_base, i, k, m = 0;
	struct pool *h = histories(in->base, n, o->metric, 0);
	double lo = INFINITY, hi = -INFINITY, sum = 0, noise = NAN;
	int first = 1;

	for (i = 0; i < n; i++) {
		const struct run *f = pool_face(&h[i]);

		if (!f || !study_same(f->model, model) ||
		    !study_same(f->spec_type, o->spec_type ? o->spec_type : "") ||
		    f->n_max != o->n_max)
			continue;
		/* The floor of the first series' cell (its endpoint). */
		if (first)
			noise = f->floor_pct[o->metric];
		first = 0;
		double *med = trend_medians(&h[i], (enum run_metric)o->metric);
		for (k = 0; k < h[i].n; k++) {
			double y = med[k];
			lo = y < lo ? y : lo;
			hi = y > hi ? y : hi;
			sum += y;
			m++;
		}
		free(med);
	}
	if (m) {
		/* At least the parity band (or k x the floor) around the mean: a
		 * baseline of one run has no spread of its own. */
		double mean = sum / (double)m, w = mean * band_pct(noise) / 100;
		lo = mean - w < lo ? mean - w : lo;
		hi = mean + w > hi ? mean + w : hi;
		out->band_lo = lo;
		out->band_hi = hi;
		out->baseline = arena_strdup(a, o->baseline);
		out->baseline_runs = m;
	} else if (no_band) {
		*no_band = model;
	}
	histories_free(h, n);
}

/* Sorts idx[0..n) (insertion: a figure has a handful of series) by series_before()
 * on the labels and roles label(i) and role(i) give. */
static void order_series(size_t *idx, size_t n, const char *const *engines, size_t ne,
			 const char *(*label)(const void *, size_t),
			 const char *(*role)(const void *, size_t), const void *v)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		size_t x = idx[i];
		for (j = i; j > 0 && series_before(engines, ne, label(v, x), role(v, x),
						   label(v, idx[j - 1]), role(v, idx[j - 1])); j--)
			idx[j] = idx[j - 1];
		idx[j] = x;
	}
}

static const char *hist_label(const void *v, size_t i)
{
	return pool_face(&((const struct pool *)v)[i])->engine;
}

static const char *hist_role(const void *v, size_t i)
{
	return pool_face(&((const struct pool *)v)[i])->role;
}

static const char *ser_label(const void *v, size_t i)
{
	return ((const struct series *)v)[i].engine;
}

static const char *ser_role(const void *v, size_t i)
{
	return ((const struct series *)v)[i].role;
}

size_t study_segment_bands(const double *x, const double *y, size_t n, const size_t *cp,
			    size_t n_cp, double floor, struct plot_band *out)
{
	double *dev = tps_xcalloc(n ? n : 1, sizeof(*dev)), w = band_pct(floor);
	size_t s, k, nb = 0, start = 0;

	for (s = 0; s <= n_cp; s++) {
		size_t end = s < n_cp ? cp[s] : n;
		double med, mad, half;
		if (end > n)
			end = n;
		if (end <= start)
			continue;
		/* The median and the median absolute deviation: one spike moves
		 * neither, where it pulls a mean and a standard deviation along. */
		med = stats_median(y + start, end - start);
		for (k = start; k < end; k++)
			dev[k - start] = fabs(y[k] - med);
		mad = stats_median(dev, end - start);
		if (!isfinite(med)) {
			start = end;
			continue;
		}
		half = fabs(med) * w / 100;
		if (isfinite(mad) && TREND_BAND_K * 1.4826 * mad > half)
			half = TREND_BAND_K * 1.4826 * mad;
		out[nb].x0 = x[start];
		out[nb].x1 = x[end - 1];
		out[nb].lo = med - half;
		out[nb].hi = med + half;
		nb++;
		start = end;
	}
	free(dev);
	return nb;
}

/* No baseline named: each segment of the first series (between its change
 * points) gets its own level, drawn over that segment only. */
static void segment_band(const char *engine, double floor, const struct plot_trend_series *p,
			 struct plot_trend *out, struct study_arena *a)
{
	struct plot_band *b = arena_calloc(a, p->n_cp + 1, sizeof(*b));

	out->n_bands = study_segment_bands(p->x, p->y, p->n, p->cp, p->n_cp, floor, b);
	out->bands = b;
	out->band_engine = arena_strdup(a, engine);
}

const char *study_trend_longest(const struct study_input *in, const char *const *engines,
				 size_t n_engines, const char *const *models, size_t n_models,
				 const char *spec_type, int64_t n_max, int metric)
{
	struct pool *h = histories(in->hist, in->n_hist, metric, in->hist_limit);
	const char *best = NULL;
	size_t i, n = 0;

	for (i = 0; i < in->n_hist; i++) {
		const struct run *f = pool_face(&h[i]);

		if (!f || !study_same(f->spec_type, spec_type ? spec_type : "") || f->n_max != n_max)
			continue;
		if ((n_engines && !study_in_list(engines, n_engines, f->engine)) ||
		    (n_models && !study_in_list(models, n_models, f->model)))
			continue;
		if (h[i].n > n) {
			n = h[i].n;
			best = f->model;
		}
	}
	histories_free(h, in->n_hist);
	return best;
}

int study_trend(const struct study_trend_opts *o, const struct study_input *in,
		struct study_arena *a, struct plot_trend *out, const char **no_band,
		struct study_error *err)
{
	size_t n = in->n_hist, i, k, ns = 0, *ord = NULL;
	struct pool *h = histories(in->hist, n, o->metric, in->hist_limit);
	struct plot_trend_series *ps;
	const char *model = o->model;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	out->band_lo = out->band_hi = NAN;
	out->metric = o->metric;
	out->spec_type = arena_strdup(a, o->spec_type);
	out->n_max = o->n_max;
	for (i = 0; i < n && !model; i++) {
		if (h[i].n && trend_series_wanted(o, pool_face(&h[i])->model, &h[i]))
			model = arena_strdup(a, pool_face(&h[i])->model);
	}
	if (!model) {
		ret = 0;
		goto out;
	}
	ord = tps_xcalloc(n ? n : 1, sizeof(*ord));
	for (i = 0; i < n; i++) {
		if (trend_series_wanted(o, model, &h[i]))
			ord[ns++] = i;
	}
	order_series(ord, ns, o->engines, o->n_engines, hist_label, hist_role, h);
	ps = arena_calloc(a, ns, sizeof(*ps));
	for (i = 0; i < ns; i++) {
		const struct pool *se = &h[ord[i]];
		const struct run *f = pool_face(se);
		struct plot_trend_series *p = &ps[i];
		struct trend t;
		size_t *idx;
		double *x, *pct;
		unsigned char *sp = NULL;
		if (trend_order_by(se) == TREND_BY_FIRST_SEEN)
			out->first_seen = 1;
		p->label = series_label(a, f->engine, f->endpoint);
		p->key = arena_strdup(a, f->engine);
		p->n = se->n;
		x = arena_calloc(a, se->n, sizeof(*x));
		for (k = 0; k < se->n; k++) {
			x[k] = iso_seconds(se->runs[k]->started_at);
			if (!isfinite(x[k]))
				x[k] = k ? x[k - 1] + 1 : 0;
		}
		p->x = x;
		for (k = 0; k < se->n; k++) {
			if (run_clean(se->runs[k]))
				continue;
			if (!p->spoiled)
				p->spoiled = sp = arena_calloc(a, se->n, 1);
			sp[k] = 1;
		}
		if (trend_detect(se, (enum run_metric)o->metric, NULL, &t) < 0) {
			study_fail(err, STUDY_CHANGEPOINTS, NULL, NULL);
			goto out;
		}
		p->y = keep(a, t.medians);
		t.medians = NULL;
		idx = arena_calloc(a, t.n_cps, sizeof(*idx));
		pct = arena_calloc(a, t.n_cps, sizeof(*pct));
		for (k = 0; k < t.n_cps; k++) {
			idx[k] = t.cps[k].index;
			pct[k] = t.cps[k].change_pct;
		}
		p->n_cp = t.n_cps;
		trend_release(&t);
		p->cp = idx;
		p->cp_pct = pct;
	}
	out->series = ps;
	out->n_series = ns;
	if (o->baseline)
		baseline_band(o, in, model, out, a, no_band);
	else if (ns)
		segment_band(pool_face(&h[ord[0]])->engine,
			     pool_face(&h[ord[0]])->floor_pct[o->metric], &ps[0], out, a);
	out->model = arena_strdup(a, model);
	ret = 0;
out:
	free(ord);
	histories_free(h, n);
	return ret;
}

int study_sweep(const struct study_input *in, const char *const *engines, size_t n_engines,
		const char *model, const char *spec_type, struct study_arena *a,
		struct plot_sweep *out, struct study_error *err)
{
	struct series_set set = { 0 };
	struct plot_sweep_series *ps;
	size_t i, k, ns = 0, *ord = NULL;

	memset(out, 0, sizeof(*out));
	if (series_assemble(in->pools, in->n_pools, SWEEP_TOLERANCE_PCT, &set) < 0) {
		series_set_release(&set);
		return study_fail(err, STUDY_TOLERANCE, NULL, NULL);
	}
	ord = tps_xcalloc(set.n ? set.n : 1, sizeof(*ord));
	for (i = 0; i < set.n; i++) {
		const struct series *se = &set.v[i];
		if (n_engines && !study_in_list(engines, n_engines, se->engine))
			continue;
		if (!model)
			model = arena_strdup(a, se->model);
		if (!spec_type && study_same(se->model, model))
			spec_type = arena_strdup(a, se->spec_type);
		if (study_same(se->model, model) && study_same(se->spec_type, spec_type))
			ord[ns++] = i;
	}
	order_series(ord, ns, engines, n_engines, ser_label, ser_role, set.v);
	ps = arena_calloc(a, ns, sizeof(*ps));
	for (i = 0; i < ns; i++) {
		const struct series *se = &set.v[ord[i]];
		int64_t *nm;
		double *tg, *ac, *lo, *hi;
		ps[i].label = series_label(a, se->engine, se->endpoint);
		ps[i].key = arena_strdup(a, se->engine);
		nm = arena_calloc(a, se->n_rungs, sizeof(*nm));
		tg = arena_calloc(a, se->n_rungs, sizeof(*tg));
		ac = arena_calloc(a, se->n_rungs, sizeof(*ac));
		lo = arena_calloc(a, se->n_rungs, sizeof(*lo));
		hi = arena_calloc(a, se->n_rungs, sizeof(*hi));
		for (k = 0; k < se->n_rungs; k++) {
			int64_t v = se->rungs[k].n_max;
			nm[k] = sweep_rung_is_base(v) ? 0 : v;
			tg[k] = se->rungs[k].rung.tg;
			ac[k] = se->rungs[k].point.acceptance;
			lo[k] = se->rungs[k].point.tg_ci_lo;
			hi[k] = se->rungs[k].point.tg_ci_hi;
		}
		ps[i].tg_lo = lo;
		ps[i].tg_hi = hi;
		ps[i].n = se->n_rungs;
		ps[i].n_max = nm;
		ps[i].tg = tg;
		ps[i].accept = ac;
	}
	out->series = ps;
	out->n_series = ns;
	out->model = model ? arena_strdup(a, model) : NULL;
	out->spec_type = spec_type ? arena_strdup(a, spec_type) : NULL;
	free(ord);
	series_set_release(&set);
	return 0;
}

void study_sweep_of(const struct study *t, size_t row, struct study_arena *a,
		     struct plot_sweep *out)
{
	const struct tables_spec_row *sr = &t->spec[row];
	const struct tables_base_row *br = NULL;
	struct plot_sweep_series *ps;
	size_t e, k, i, ns = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < t->n_base; i++) {
		if (study_same(t->base[i].model, sr->model) && study_same(t->base[i].endpoint, sr->endpoint))
			br = &t->base[i];
	}
	ps = arena_calloc(a, t->n_engines, sizeof(*ps));
	for (e = 0; e < t->n_engines; e++) {
		struct plot_sweep_series *p = &ps[ns];
		int64_t *nm = arena_calloc(a, t->n_spec_cols + 1, sizeof(*nm));
		double *tg = arena_calloc(a, t->n_spec_cols + 1, sizeof(*tg));
		double *ac = arena_calloc(a, t->n_spec_cols + 1, sizeof(*ac));
		if (br && br->cells[e].present) {
			nm[p->n] = 0;
			tg[p->n] = br->cells[e].tg;
			ac[p->n++] = NAN;
		}
		for (k = 0; k < t->n_spec_cols; k++) {
			if (t->spec_cols[k].engine != e || !sr->cells[k].present)
				continue;
			nm[p->n] = t->spec_cols[k].n_max;
			tg[p->n] = sr->cells[k].tg;
			ac[p->n++] = sr->cells[k].accept;
		}
		if (p->n < 2 && !(p->n == 1 && nm[0] > 0)) {
			p->n = 0; /* a base alone is no series */
			continue;
		}
		p->label = t->engines[e].label;
		p->key = t->engines[e].label;
		p->n_max = nm;
		p->tg = tg;
		p->accept = ac;
		ns++;
	}
	out->series = ps;
	out->n_series = ns;
	out->model = sr->model;
	out->spec_type = sr->spec_type;
}

void study_parity_of(const struct study *t, int metric, struct study_arena *a,
		      struct plot_parity *out)
{
	const char **groups = arena_calloc(a, t->n_base, sizeof(*groups));
	const char **eng = arena_calloc(a, t->n_engines, sizeof(*eng));
	const char *judged = t->ref ? t->ref : t->ours;
	size_t *gi = arena_calloc(a, t->n_base, sizeof(*gi));
	size_t ng = 0, ne = 0, e, i, n_spoiled = 0;
	double *delta, *lo, *hi, band = VERDICT_BAND_PCT;
	const struct verdict **drawn = arena_calloc(a, t->n_engines * t->n_base + 1,
						    sizeof(*drawn));
	size_t n_drawn = 0;
	unsigned env = 0;

	memset(out, 0, sizeof(*out));
	/* A group per base row that has a verdict; forced comparisons are left out,
	 * as the table calls them not comparable. A spoiled one keeps its group
	 * (the model is on the axis) without a bar. */
	for (i = 0; i < t->n_base; i++) {
		for (e = 0; e < t->n_engines; e++) {
			const struct tables_base_cell *c = &t->base[i].cells[e];
			const struct tables_verdict *v = metric == STUDY_PP ? &c->vpp : &c->vtg;
			if (c->present && v->has && !c->forced)
				break;
		}
		if (e == t->n_engines)
			continue;
		gi[ng] = i;
		groups[ng++] = keep(a, cell_label_endpoint(t->base[i].model, t->base[i].endpoint));
	}
	/* A bar per engine but the one the others are judged against: with a
	 * reference its delta against it; without, ours' delta against it, named
	 * so in the legend (out->ours). */
	for (e = 0; e < t->n_engines; e++) {
		if (judged && study_same(t->engines[e].label, judged))
			continue;
		eng[ne++] = t->engines[e].label;
	}
	delta = arena_calloc(a, ne * ng, sizeof(*delta));
	lo = arena_calloc(a, ne * ng, sizeof(*lo));
	hi = arena_calloc(a, ne * ng, sizeof(*hi));
	for (e = 0; e < ne; e++) {
		long ei = study_engine_index(t, eng[e]);
		size_t g;
		for (g = 0; g < ng; g++) {
			const struct tables_base_cell *c = &t->base[gi[g]].cells[ei];
			const struct tables_verdict *v = metric == STUDY_PP ? &c->vpp : &c->vtg;
			size_t x = e * ng + g;
			delta[x] = lo[x] = hi[x] = NAN;
			if (!c->present || !v->has || c->forced)
				continue;
			/* Its interval is the environment's as much as the engine's:
			 * a bar would be read as an answer. */
			if (v->v.kind == VERDICT_SPOILED) {
				n_spoiled++;
				env |= v->v.spoiled;
				continue;
			}
			drawn[n_drawn++] = &v->v;
			delta[x] = v->v.delta_pct;
			lo[x] = v->v.ci_lo_pct;
			hi[x] = v->v.ci_hi_pct;
			band = v->v.band_pct > band ? v->v.band_pct : band;
		}
	}
	out->groups = groups;
	out->n_groups = ng;
	out->engines = eng;
	out->n_engines = ne;
	out->delta = delta;
	out->lo = lo;
	out->hi = hi;
	out->band_pct = band;
	/* The bars' level, as compare's column title names it. */
	out->level = verdict_common_level(drawn, n_drawn);
	out->metric = metric;
	out->ref = t->ref;
	out->ours = t->ref ? NULL : t->ours;
	out->n_spoiled = n_spoiled;
	out->spoiled_env = env;
}

/* Does p hold a bar to draw? */
static int has_bar(const struct plot_parity *p)
{
	for (size_t i = 0; i < p->n_engines * p->n_groups; i++)
		if (isfinite(p->delta[i]))
			return 1;
	return 0;
}

void study_parity_own(struct plot_parity *p, struct study_arena *a)
{
	const char **eng = (const char **)p->engines;

	for (size_t e = 0; e < p->n_engines; e++)
		eng[e] = arena_strdup(a, eng[e]);
	p->ref = p->ref ? arena_strdup(a, p->ref) : NULL;
	p->ours = p->ours ? arena_strdup(a, p->ours) : NULL;
}

/* The report's figures: the trends of decode and prefill, each of the model with
 * the longest history of that metric among the tables' (a model with three single
 * points says nothing), one decode trend per model for its page, the sweep of the
 * first speculative row and the parity bars of tg and pp. */
int study_build_figures(struct study *t, const struct study_input *in)
{
	struct study_figures *d = &t->fig;
	struct study_trend_opts to = { 0 };
	size_t e, i, k;

	t->arena = study_arena_new();
	d->cols = tps_xcalloc(t->n_engines + 1, sizeof(*d->cols));
	for (e = 0; e < t->n_engines; e++)
		d->cols[e] = t->engines[e].label;
	d->models = tps_xcalloc(t->n_base + t->n_spec + 1, sizeof(*d->models));
	for (i = 0; i < t->n_base + t->n_spec; i++) {
		const char *m = i < t->n_base ? t->base[i].model : t->spec[i - t->n_base].model;
		for (k = 0; k < d->n_models && strcmp(d->models[k], m); k++)
			;
		if (k == d->n_models)
			d->models[d->n_models++] = m;
	}
	to.engines = d->cols;
	to.n_engines = t->n_engines;
	to.n_max = STUDY_NULL;
	to.metric = STUDY_TG;
	d->trend_model = study_trend_longest(in, d->cols, t->n_engines, d->models, d->n_models,
					     NULL, STUDY_NULL, STUDY_TG);
	memset(&d->trend, 0, sizeof(d->trend));
	if (d->trend_model) {
		to.model = d->trend_model;
		if (study_trend(&to, in, t->arena, &d->trend, NULL, &t->err) < 0)
			return -1;
	}
	/* Prefill has a history of its own: a model may hold more runs with a
	 * prefill value than with a decode one. */
	d->trend_pp_model = study_trend_longest(in, d->cols, t->n_engines, d->models,
						d->n_models, NULL, STUDY_NULL, STUDY_PP);
	memset(&d->trend_pp, 0, sizeof(d->trend_pp));
	if (d->trend_pp_model) {
		to.model = d->trend_pp_model;
		to.metric = STUDY_PP;
		if (study_trend(&to, in, t->arena, &d->trend_pp, NULL, &t->err) < 0)
			return -1;
		to.metric = STUDY_TG;
	}
	d->model_trends = tps_xcalloc(d->n_models + 1, sizeof(*d->model_trends));
	for (i = 0; i < d->n_models; i++) {
		to.model = d->models[i];
		if (study_trend(&to, in, t->arena, &d->model_trends[i], NULL, &t->err) < 0)
			return -1;
	}
	/* The sweep and parity figures come from the tables already built. */
	if (t->n_spec) {
		study_sweep_of(t, 0, t->arena, &d->sweep);
		d->has_sweep = d->sweep.n_series > 0;
	}
	if ((t->ref || t->ours) && t->n_base) {
		study_parity_of(t, STUDY_TG, t->arena, &d->parity);
		d->has_parity = has_bar(&d->parity);
		study_parity_of(t, STUDY_PP, t->arena, &d->parity_pp);
		d->has_parity_pp = has_bar(&d->parity_pp);
	}
	return 0;
}
