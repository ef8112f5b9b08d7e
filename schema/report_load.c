/* report_load.c: the loaders of report_load.h. They only gather: which engine is a
 * column, which pair is judged and which series is drawn is decided by the study
 * (analyze/study.c) over what is loaded here, so a pair set or a noise floor that
 * the report does not show may be loaded all the same. */
#include "schema/report_load.h"
#include "schema/noise.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int same(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

static int in_list(const char *const *v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (same(v[i], s))
			return 1;
	}
	return 0;
}

static int values_of(struct store *s, int64_t run_id, enum cell_metric m, double **out,
		     size_t *n)
{
	struct cell_value *v = NULL;
	size_t nv = 0, bad = 0, i;

	if (store_cell_values(s, run_id, m, &v, &nv, &bad) < 0)
		return -1;
	*out = tps_xcalloc(nv ? nv : 1, sizeof(**out));
	for (i = 0; i < nv; i++)
		(*out)[i] = v[i].value;
	*n = nv;
	free(v);
	return 0;
}

/* The usable values of every run (the base table takes those of base runs). */
static int load_values(struct store *s, struct report_input *in)
{
	size_t i;

	in->values = tps_xcalloc(in->n_runs ? in->n_runs : 1, sizeof(*in->values));
	for (i = 0; i < in->n_runs; i++) {
		const struct cell_run *r = &in->runs[i];
		struct study_values *v = &in->values[i];

		if (values_of(s, r->id, CELL_PP, &v->pp, &v->n_pp) < 0 ||
		    values_of(s, r->id, CELL_TG, &v->tg, &v->n_tg) < 0)
			return -1;
	}
	return 0;
}

static int add_pair(struct store *s, struct report_input *in, const char *ours, const char *vs,
		    const char *model, const char *tag)
{
	struct report_pair *p;

	in->pairs = tps_xrealloc(in->pairs, (in->n_pairs + 1) * sizeof(*in->pairs));
	p = &in->pairs[in->n_pairs++];
	memset(p, 0, sizeof(*p));
	p->ours = tps_xstrdup(ours);
	p->vs = tps_xstrdup(vs);
	p->model = model ? tps_xstrdup(model) : NULL;
	p->tag = tag ? tps_xstrdup(tag) : NULL;
	parity_opts_init(&p->po);
	p->po.ours = p->ours;
	p->po.vs = p->vs;
	p->po.model = p->model;
	p->po.ours_tag = p->tag;
	p->po.vs_tag = p->tag;
	p->po.metrics = PARITY_BOTH;
	/* A report must not stop at one odd cell: compare it anyway. */
	p->po.force = 1;
	return store_pair_load(s, &p->po, &p->set);
}

/* The distinct engine labels of the runs that pass keep, in the runs' order. */
static size_t engines_of(const struct report_input *in, const struct report_load_opts *o,
			 int (*keep)(const struct report_load_opts *, const struct cell_run *),
			 const char **v)
{
	size_t i, n = 0;

	for (i = 0; i < in->n_runs; i++) {
		if (keep(o, &in->runs[i]) && !in_list(v, n, in->runs[i].engine))
			v[n++] = in->runs[i].engine;
	}
	return n;
}

/* A reference the tables may pick: the one named, else any upstream engine. */
static int may_be_ref(const struct report_load_opts *o, const struct cell_run *r)
{
	return o->ref ? same(r->engine, o->ref) : same(r->role, "upstream");
}

/* A column the tables may show: one named, else any engine. */
static int may_be_col(const struct report_load_opts *o, const struct cell_run *r)
{
	return !o->n_engines || in_list(o->engines, o->n_engines, r->engine);
}

/* One pair set per possible column, possible reference and model asked for. */
static int load_pairs(struct store *s, const struct report_load_opts *o, struct report_input *in)
{
	const char **refs = tps_xcalloc(in->n_runs + 1, sizeof(*refs));
	const char **cols = tps_xcalloc(in->n_runs + 1, sizeof(*cols));
	size_t nr = engines_of(in, o, may_be_ref, refs), nc = engines_of(in, o, may_be_col, cols);
	size_t r, c, m, nm = o->n_models ? o->n_models : 1;
	int ret = -1;

	for (r = 0; r < nr; r++) {
		for (c = 0; c < nc; c++) {
			if (same(cols[c], refs[r]))
				continue;
			for (m = 0; m < nm; m++) {
				if (add_pair(s, in, cols[c], refs[r],
					     o->n_models ? o->models[m] : NULL, o->tag) < 0)
					goto out;
			}
		}
	}
	ret = 0;
out:
	free(refs);
	free(cols);
	return ret;
}

static void on_prompt(const char *prompt, double tg, int64_t draft_n, int64_t accepted, void *arg)
{
	struct study_prompts *p = arg;
	struct study_prompt *x;

	p->v = tps_xrealloc(p->v, (p->n + 1) * sizeof(*p->v));
	x = &p->v[p->n++];
	x->name = tps_xstrdup(prompt ? prompt : "");
	x->tg = tg;
	x->draft_n = draft_n;
	x->draft_n_accepted = accepted;
}

/* The prompts of every speculative run (a base run's are loaded too: the tables
 * decide which rungs they show). */
static int load_prompts(struct store *s, struct report_input *in)
{
	size_t i;

	in->prompts = tps_xcalloc(in->decode.n ? in->decode.n : 1, sizeof(*in->prompts));
	for (i = 0; i < in->decode.n; i++) {
		const struct cell_run *r = &in->decode.runs[i].run;
		struct study_prompts *p = &in->prompts[in->n_prompts];

		p->run_id = r->id;
		in->n_prompts++;
		if (store_cell_prompts(s, r->id, on_prompt, p) < 0)
			return -1;
	}
	return 0;
}

static int load_decode(struct store *s, const char *tag, const struct run_filter *run,
		       struct report_decode *out);

int report_load(struct store *s, const struct report_load_opts *o, struct report_input *out)
{
	struct cell_filter cf = { 0 };
	struct run_filter rf = { 0 };

	memset(out, 0, sizeof(*out));
	cf.tag = o->tag;
	cf.run = o->run;
	if (store_cell_runs(s, &cf, &out->runs, &out->n_runs) < 0 || load_values(s, out) < 0 ||
	    load_pairs(s, o, out) < 0)
		return -1;
	if (o->trend &&
	    report_load_trend_where(s, NULL, o->tag, o->run, NULL, CELL_TG, &out->trend) < 0)
		return -1;
	if (!o->full) {
		report_input_view(out);
		return 0;
	}
	if (o->run)
		rf = *o->run;
	rf.tag = o->tag ? o->tag : rf.tag;
	rf.limit = 0;
	if (load_decode(s, o->tag, o->run, &out->decode) < 0 || load_prompts(s, out) < 0 ||
	    catalog_quality(s, &rf, &out->quality, &out->n_quality) < 0 ||
	    catalog_alarms(s, &out->alarms, &out->n_alarms) < 0)
		return -1;
	report_input_view(out);
	return 0;
}

void report_input_release(struct report_input *in)
{
	size_t i, k;

	if (!in)
		return;
	for (i = 0; in->values && i < in->n_runs; i++) {
		free(in->values[i].pp);
		free(in->values[i].tg);
	}
	free(in->values);
	cell_runs_free(in->runs, in->n_runs);
	for (i = 0; i < in->n_pairs; i++) {
		struct report_pair *p = &in->pairs[i];
		pair_set_release(&p->set);
		free(p->ours);
		free(p->vs);
		free(p->model);
		free(p->tag);
	}
	free(in->pairs);
	report_decode_release(&in->decode);
	for (i = 0; i < in->n_prompts; i++) {
		for (k = 0; k < in->prompts[i].n; k++)
			free(in->prompts[i].v[k].name);
		free(in->prompts[i].v);
	}
	free(in->prompts);
	catalog_quality_free(in->quality, in->n_quality);
	catalog_alarms_free(in->alarms, in->n_alarms);
	report_trend_release(&in->trend);
	free(in->v_runs);
	free(in->v_pairs);
	free(in->v_quality);
	free(in->v_hist);
	free(in->v_hist_runs);
	memset(in, 0, sizeof(*in));
}

/* The study's view of h[0..n) with floors floor[0..n), into v[0..n), the runs into
 * *runs (advanced past those used). */
static void view_history(const struct history_series *h, const double *floor, size_t n,
			 struct study_history *v, struct study_history_run **runs)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		v[i].engine = h[i].engine;
		v[i].role = h[i].role;
		v[i].model = h[i].model;
		v[i].spec_type = h[i].spec_type;
		v[i].endpoint = h[i].endpoint;
		v[i].n_max = h[i].n_max;
		v[i].floor = floor ? floor[i] : NAN;
		v[i].n = h[i].n;
		v[i].runs = *runs;
		for (k = 0; k < h[i].n; k++) {
			(*runs)[k].started_at = h[i].runs[k].started_at;
			(*runs)[k].values = h[i].runs[k].values;
			(*runs)[k].n = h[i].runs[k].n;
		}
		*runs += h[i].n;
	}
}

void report_input_view(struct report_input *in)
{
	struct study_input *v = &in->study;
	struct study_history_run *hr;
	size_t i, nh = in->trend.n + in->trend.n_base, nr = 0;

	free(in->v_runs);
	free(in->v_pairs);
	free(in->v_quality);
	free(in->v_hist);
	free(in->v_hist_runs);
	memset(v, 0, sizeof(*v));
	in->v_runs = tps_xcalloc(in->n_runs ? in->n_runs : 1, sizeof(*in->v_runs));
	for (i = 0; i < in->n_runs; i++) {
		const struct cell_run *r = &in->runs[i];
		struct study_cell_run *x = &in->v_runs[i];
		x->id = r->id;
		x->uuid = r->uuid;
		x->engine = r->engine;
		x->role = r->role;
		x->model = r->model;
		x->spec_type = r->spec_type;
		x->endpoint = r->endpoint;
		x->tag = r->tag;
		x->started_at = r->started_at;
		x->host = r->host;
		x->n_max = r->n_max;
		x->values = &in->values[i];
	}
	in->v_pairs = tps_xcalloc(in->n_pairs ? in->n_pairs : 1, sizeof(*in->v_pairs));
	for (i = 0; i < in->n_pairs; i++) {
		in->v_pairs[i].ours = in->pairs[i].ours;
		in->v_pairs[i].vs = in->pairs[i].vs;
		in->v_pairs[i].model = in->pairs[i].model;
		in->v_pairs[i].in = &in->pairs[i].set.in;
		in->v_pairs[i].po = &in->pairs[i].po;
	}
	in->v_quality = tps_xcalloc(in->n_quality ? in->n_quality : 1, sizeof(*in->v_quality));
	for (i = 0; i < in->n_quality; i++) {
		in->v_quality[i].uuid = in->quality[i].uuid;
		in->v_quality[i].engine = in->quality[i].engine;
		in->v_quality[i].model = in->quality[i].model;
		in->v_quality[i].status = in->quality[i].status;
	}
	for (i = 0; i < in->trend.n; i++)
		nr += in->trend.h[i].n;
	for (i = 0; i < in->trend.n_base; i++)
		nr += in->trend.base[i].n;
	in->v_hist = tps_xcalloc(nh ? nh : 1, sizeof(*in->v_hist));
	in->v_hist_runs = hr = tps_xcalloc(nr ? nr : 1, sizeof(*in->v_hist_runs));
	view_history(in->trend.h, in->trend.floor, in->trend.n, in->v_hist, &hr);
	view_history(in->trend.base, in->trend.base_floor, in->trend.n_base,
		     in->v_hist + in->trend.n, &hr);
	v->runs = in->v_runs;
	v->n_runs = in->n_runs;
	v->pairs = in->v_pairs;
	v->n_pairs = in->n_pairs;
	v->decode = in->decode.series;
	v->n_decode = in->decode.n;
	v->prompts = in->prompts;
	v->n_prompts = in->n_prompts;
	v->quality = in->v_quality;
	v->n_quality = in->n_quality;
	v->hist = in->v_hist;
	v->n_hist = in->trend.n;
	v->base = in->trend.n_base ? in->v_hist + in->trend.n : NULL;
	v->n_base = in->trend.n_base;
}

struct series_run *report_series_runs(const struct store_decode *runs, size_t n)
{
	struct series_run *v = tps_xcalloc(n ? n : 1, sizeof(*v));
	size_t i;

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
		r->keys = d->keys;
		r->n_values = d->n_values;
		r->n_excluded = d->n_excluded;
		r->n_summed = d->agg.n;
		r->predicted_n = d->agg.predicted_n;
		r->draft_n = d->agg.draft_n;
		r->draft_n_accepted = d->agg.draft_n_accepted;
		r->has_draft = d->agg.has_draft;
		r->predicted_ms = d->agg.predicted_ms;
		r->round = d->round;
		r->batch = d->batch;
		r->started_at = d->run.started_at;
		r->looks_to = d->run.looks_to;
	}
	return v;
}

int report_load_decode(struct store *s, const char *tag, struct report_decode *out)
{
	return load_decode(s, tag, NULL, out);
}

static int load_decode(struct store *s, const char *tag, const struct run_filter *run,
		       struct report_decode *out)
{
	struct cell_filter f = { 0 };

	memset(out, 0, sizeof(*out));
	f.tag = tag;
	f.run = run;
	if (store_load_series(s, &f, NULL, &out->runs, &out->n) < 0)
		return -1;
	out->series = report_series_runs(out->runs, out->n);
	return 0;
}

void report_decode_release(struct report_decode *d)
{
	if (!d)
		return;
	store_decode_free(d->runs, d->n);
	free(d->series);
	memset(d, 0, sizeof(*d));
}

/* floor[i]: the newest stored floor of h[i]'s cell for metric, NaN when none. */
static int load_floors(struct store *s, const struct history_series *h, size_t n,
		       const char *metric, double **floor)
{
	size_t i;

	*floor = tps_xcalloc(n ? n : 1, sizeof(**floor));
	for (i = 0; i < n; i++) {
		double pct = NAN;
		int got = store_noise_get(s, h[i].model, h[i].spec_type, h[i].n_max, TPS_NULL,
					  TPS_NULL, h[i].endpoint, metric, &pct, NULL);
		if (got < 0)
			return -1;
		(*floor)[i] = got > 0 ? pct : NAN;
	}
	return 0;
}

int report_load_trend(struct store *s, const char *model, const char *tag,
		      const char *baseline, enum cell_metric m, struct report_trend *out)
{
	return report_load_trend_where(s, model, tag, NULL, baseline, m, out);
}

int report_load_trend_where(struct store *s, const char *model, const char *tag,
			    const struct run_filter *run, const char *baseline,
			    enum cell_metric m, struct report_trend *out)
{
	struct cell_filter cf = { 0 };
	const char *metric = m == CELL_PP ? "pp" : "tg";

	memset(out, 0, sizeof(*out));
	cf.model = model;
	cf.tag = tag;
	cf.run = run;
	if (store_history(s, &cf, m, &out->h, &out->n) < 0 ||
	    load_floors(s, out->h, out->n, metric, &out->floor) < 0)
		return -1;
	if (!baseline)
		return 0;
	memset(&cf, 0, sizeof(cf));
	cf.baseline = baseline; /* a frozen set: the filters do not thin it */
	if (store_history(s, &cf, m, &out->base, &out->n_base) < 0 ||
	    load_floors(s, out->base, out->n_base, metric, &out->base_floor) < 0)
		return -1;
	return 0;
}

void report_trend_release(struct report_trend *t)
{
	if (!t)
		return;
	history_free(t->h, t->n);
	history_free(t->base, t->n_base);
	free(t->floor);
	free(t->base_floor);
	memset(t, 0, sizeof(*t));
}
