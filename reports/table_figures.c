/* table_figures.c: the data behind the trend, sweep and parity figures (plot.h),
 * shared by 'tpsdb plot' and 'tpsdb report'. The series follow the tables' column
 * order so that colours match, and every array a figure points to lives in one
 * arena, freed at once when the figure is drawn. */
#include "reports/tables_int.h"
#include "analyze/stats.h"
#include "analyze/trend.h"
#include "reports/series.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct tables_arena {
	void **p;
	size_t n;
};

struct tables_arena *tables_arena_new(void)
{
	return tps_xcalloc(1, sizeof(struct tables_arena));
}

void tables_arena_free(struct tables_arena *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->n; i++)
		free(a->p[i]);
	free(a->p);
	free(a);
}

static void *keep(struct tables_arena *a, void *p)
{
	a->p = tps_xrealloc(a->p, (a->n + 1) * sizeof(*a->p));
	a->p[a->n++] = p;
	return p;
}

static void *arena_calloc(struct tables_arena *a, size_t n, size_t size)
{
	return keep(a, tps_xcalloc(n ? n : 1, size));
}

static char *arena_strdup(struct tables_arena *a, const char *s)
{
	return keep(a, tps_xstrdup(s ? s : ""));
}

/* A series' legend: the engine, with the endpoint after it unless completion. */
static const char *series_label(struct tables_arena *a, const char *engine, const char *endpoint)
{
	if (tables_same(endpoint, "completion"))
		return arena_strdup(a, engine);
	return keep(a, tps_xasprintf("%s (%s)", engine, endpoint));
}

static const char *sweep_title(struct tables_arena *a, const char *model, const char *spec_type)
{
	return keep(a, tps_xasprintf("speculative sweep of %s, %s: decode tok/s and acceptance "
				     "by n_max", model, tables_spec_name(spec_type)));
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
			if (ia == n && tables_same(engines[i], la))
				ia = i;
			if (ib == n && tables_same(engines[i], lb))
				ib = i;
		}
		if (ia != ib)
			return ia < ib;
	} else if (tables_role_rank(ra) != tables_role_rank(rb)) {
		return tables_role_rank(ra) < tables_role_rank(rb);
	}
	return strcmp(la, lb) < 0;
}

/* How many robust sd (or floors) a trend band spans beside the parity band. */
#define TREND_BAND_K 2.0

static const char *metric_name(int metric)
{
	return metric == CELL_PP ? "prefill tok/s (pp)" : "decode tok/s (tg)";
}

static int trend_series_wanted(const struct tables_trend_opts *o, const char *model,
			       const struct history_series *se)
{
	if (!tables_same(se->model, model) ||
	    !tables_same(se->spec_type, o->spec_type ? o->spec_type : "") || se->n_max != o->n_max)
		return 0;
	return !o->n_engines || tables_in_list(o->engines, o->n_engines, se->engine);
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
static void baseline_band(const struct tables_trend_opts *o, const struct report_trend *in,
			  const char *model, struct plot_trend *out, struct tables_arena *a)
{
	const struct history_series *h = in->base;
	size_t n = in->n_base, i, k, m = 0;
	double lo = INFINITY, hi = -INFINITY, sum = 0, noise = NAN;
	int first = 1;

	for (i = 0; i < n; i++) {
		if (!tables_same(h[i].model, model) ||
		    !tables_same(h[i].spec_type, o->spec_type ? o->spec_type : "") || h[i].n_max != o->n_max)
			continue;
		/* The floor of the first series' cell (its endpoint). */
		if (first)
			noise = in->base_floor[i];
		first = 0;
		double *med = trend_medians(&h[i], h[i].n, history_run_values);
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
		out->band_label = keep(a, tps_xasprintf("baseline %s (%zu runs)", o->baseline, m));
	} else {
		tps_warning("baseline '%s' holds no run of '%s' in this config: no band",
			    o->baseline, model);
	}
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
	return ((const struct history_series *)v)[i].engine;
}

static const char *hist_role(const void *v, size_t i)
{
	return ((const struct history_series *)v)[i].role;
}

static const char *ser_label(const void *v, size_t i)
{
	return ((const struct series *)v)[i].engine;
}

static const char *ser_role(const void *v, size_t i)
{
	return ((const struct series *)v)[i].role;
}

size_t tables_segment_bands(const double *x, const double *y, size_t n, const size_t *cp,
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
static void segment_band(const struct history_series *h, double floor,
			 const struct plot_trend_series *p, struct plot_trend *out,
			 struct tables_arena *a)
{
	struct plot_band *b = arena_calloc(a, p->n_cp + 1, sizeof(*b));

	out->n_bands = tables_segment_bands(p->x, p->y, p->n, p->cp, p->n_cp, floor, b);
	out->bands = b;
	out->band_label = keep(a, tps_xasprintf("%s level per segment", h->engine));
}

const char *tables_trend_longest(const struct report_trend *in, const char *const *engines,
				 size_t n_engines, const char *const *models, size_t n_models,
				 const char *spec_type, int64_t n_max)
{
	const char *best = NULL;
	size_t i, n = 0;

	for (i = 0; i < in->n; i++) {
		const struct history_series *h = &in->h[i];
		if (!tables_same(h->spec_type, spec_type ? spec_type : "") || h->n_max != n_max)
			continue;
		if ((n_engines && !tables_in_list(engines, n_engines, h->engine)) ||
		    (n_models && !tables_in_list(models, n_models, h->model)))
			continue;
		if (h->n > n) {
			n = h->n;
			best = h->model;
		}
	}
	return best;
}

int tables_trend(const struct tables_trend_opts *o, const struct report_trend *in,
		 struct tables_arena *a, struct plot_trend *out)
{
	const struct history_series *h = in->h;
	struct plot_trend_series *ps;
	const char *model = o->model;
	size_t n = in->n, i, k, ns = 0, *ord = NULL;
	char *cfg;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	out->band_lo = out->band_hi = NAN;
	for (i = 0; i < n && !model; i++) {
		if (trend_series_wanted(o, h[i].model, &h[i]))
			model = arena_strdup(a, h[i].model);
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
		const struct history_series *se = &h[ord[i]];
		struct plot_trend_series *p = &ps[i];
		struct trend t;
		size_t *idx;
		double *x, *pct;
		p->label = series_label(a, se->engine, se->endpoint);
		p->key = arena_strdup(a, se->engine);
		p->n = se->n;
		x = arena_calloc(a, se->n, sizeof(*x));
		for (k = 0; k < se->n; k++) {
			x[k] = iso_seconds(se->runs[k].started_at);
			if (!isfinite(x[k]))
				x[k] = k ? x[k - 1] + 1 : 0;
		}
		p->x = x;
		if (trend_detect(se, se->n, history_run_values, NULL, &t) < 0) {
			tps_error("cannot search the history for change points");
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
		baseline_band(o, in, model, out, a);
	else if (ns)
		segment_band(&h[ord[0]], in->floor[ord[0]], &ps[0], out, a);
	cfg = tables_config_label(o->spec_type ? o->spec_type : "", o->n_max, "");
	out->title = keep(a, tps_xasprintf("%s of %s, %s: median per run", metric_name(o->metric),
					   model, cfg));
	free(cfg);
	out->ylabel = metric_name(o->metric);
	ret = 0;
out:
	free(ord);
	return ret;
}

int tables_sweep(const struct report_decode *in, const char *const *engines, size_t n_engines,
		 const char *model, const char *spec_type, struct tables_arena *a,
		 struct plot_sweep *out)
{
	struct series_set set = { 0 };
	struct plot_sweep_series *ps;
	size_t i, k, ns = 0, *ord = NULL;

	memset(out, 0, sizeof(*out));
	if (series_build(in->series, in->n, SWEEP_TOLERANCE_PCT, &set) < 0) {
		series_set_release(&set);
		return -1;
	}
	ord = tps_xcalloc(set.n ? set.n : 1, sizeof(*ord));
	for (i = 0; i < set.n; i++) {
		const struct series *se = &set.v[i];
		if (n_engines && !tables_in_list(engines, n_engines, se->engine))
			continue;
		if (!model)
			model = arena_strdup(a, se->model);
		if (!spec_type && tables_same(se->model, model))
			spec_type = arena_strdup(a, se->spec_type);
		if (tables_same(se->model, model) && tables_same(se->spec_type, spec_type))
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
	out->title = model ? sweep_title(a, model, spec_type) : "";
	free(ord);
	series_set_release(&set);
	return 0;
}

void tables_sweep_of(const struct tables *t, size_t row, struct tables_arena *a,
		     struct plot_sweep *out)
{
	const struct tables_spec_row *sr = &t->spec[row];
	const struct tables_base_row *br = NULL;
	struct plot_sweep_series *ps;
	size_t e, k, i, ns = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < t->n_base; i++) {
		if (tables_same(t->base[i].model, sr->model) && tables_same(t->base[i].endpoint, sr->endpoint))
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
	out->title = sweep_title(a, sr->model, sr->spec_type);
}

void tables_parity_of(const struct tables *t, int metric, struct tables_arena *a,
		      struct plot_parity *out)
{
	const char **groups = arena_calloc(a, t->n_base, sizeof(*groups));
	const char **eng = arena_calloc(a, t->n_engines, sizeof(*eng));
	size_t *gi = arena_calloc(a, t->n_base, sizeof(*gi));
	size_t ng = 0, ne = 0, e, i;
	double *delta, *lo, *hi, band = VERDICT_BAND_PCT;

	memset(out, 0, sizeof(*out));
	/* A group per base row that has a verdict; forced comparisons are left out,
	 * as the table calls them not comparable. */
	for (i = 0; i < t->n_base; i++) {
		for (e = 0; e < t->n_engines; e++) {
			const struct tables_base_cell *c = &t->base[i].cells[e];
			const struct tables_verdict *v = metric == CELL_PP ? &c->vpp : &c->vtg;
			if (c->present && v->has && !c->forced)
				break;
		}
		if (e == t->n_engines)
			continue;
		gi[ng] = i;
		groups[ng++] = keep(a, tables_model_label(t->base[i].model, t->base[i].endpoint));
	}
	for (e = 0; e < t->n_engines; e++) {
		if (!t->ref || !tables_same(t->engines[e].label, t->ref))
			eng[ne++] = t->engines[e].label;
	}
	delta = arena_calloc(a, ne * ng, sizeof(*delta));
	lo = arena_calloc(a, ne * ng, sizeof(*lo));
	hi = arena_calloc(a, ne * ng, sizeof(*hi));
	for (e = 0; e < ne; e++) {
		long ei = tables_engine_index(t, eng[e]);
		size_t g;
		for (g = 0; g < ng; g++) {
			const struct tables_base_cell *c = &t->base[gi[g]].cells[ei];
			const struct tables_verdict *v = metric == CELL_PP ? &c->vpp : &c->vtg;
			size_t x = e * ng + g;
			delta[x] = lo[x] = hi[x] = NAN;
			if (!c->present || !v->has || c->forced)
				continue;
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
	out->title = keep(a, tps_xasprintf("parity: %s delta %% against %s per model (90%% interval), "
					   "shaded: parity band", metric == CELL_PP ? "pp" : "tg",
					   t->ref ? t->ref : "-"));
	out->ylabel = keep(a, tps_xasprintf("%s delta %% vs %s", metric == CELL_PP ? "pp" : "tg",
					    t->ref ? t->ref : "-"));
}

int tables_parity(const struct tables_opts *o, const struct report_input *in, int metric,
		  struct tables_arena *a, struct plot_parity *out)
{
	struct tables t;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (tables_build_base_only(o, in, &t) < 0)
		goto out;
	if (!t.ref) {
		tps_error("no reference engine: no engine has role upstream (name one with --ref)");
		goto out;
	}
	/* The labels must outlive t: the figure keeps copies in the arena. */
	tables_parity_of(&t, metric, a, out);
	{
		const char **eng = (const char **)out->engines;
		size_t e;
		for (e = 0; e < out->n_engines; e++)
			eng[e] = arena_strdup(a, eng[e]);
	}
	ret = 0;
out:
	tables_release(&t);
	return ret;
}
