/* tables.c: builds the study's tables from the latest run of every cell, and
 * renders them. The verdicts come from reports/parity.c and the speculative rungs
 * from reports/series.c, so the report says exactly what 'compare' and 'sweep'
 * say; this file only arranges their numbers into the study's layout. */
#include "reports/tables.h"
#include "analyze/changepoint.h"
#include "analyze/stats.h"
#include "reports/md.h"
#include "reports/parity.h"
#include "reports/series.h"
#include "schema/cells.h"
#include "schema/history.h"
#include "schema/noise.h"
#include "schema/record.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* ours first, then other engines, the upstream reference last (the study's order). */
static int role_rank(const char *role)
{
	if (same(role, "ours"))
		return 0;
	if (same(role, "upstream"))
		return 2;
	return 1;
}

static int engine_cmp(const void *pa, const void *pb)
{
	const struct tables_engine *a = pa, *b = pb;
	int ra = role_rank(a->role), rb = role_rank(b->role);

	if (ra != rb)
		return ra < rb ? -1 : 1;
	return strcmp(a->label, b->label);
}

static long engine_index(const struct tables *t, const char *label)
{
	size_t i;

	for (i = 0; i < t->n_engines; i++) {
		if (same(t->engines[i].label, label))
			return (long)i;
	}
	return -1;
}

static double median_of(struct store *s, int64_t run_id, enum cell_metric m, int *err)
{
	struct cell_value *v = NULL;
	size_t n = 0, bad = 0, i;
	double *x, med;

	if (store_cell_values(s, run_id, m, &v, &n, &bad) < 0) {
		*err = 1;
		return NAN;
	}
	x = tps_xcalloc(n ? n : 1, sizeof(*x));
	for (i = 0; i < n; i++)
		x[i] = v[i].value;
	med = stats_median(x, n);
	free(x);
	free(v);
	return med;
}

/* Is this run one the options let in (the reference always is)? */
static int wanted(const struct tables_opts *o, const char *engine, const char *model)
{
	if (o->n_models && !in_list(o->models, o->n_models, model))
		return 0;
	if (o->n_engines && !in_list(o->engines, o->n_engines, engine) && !same(engine, o->ref))
		return 0;
	return 1;
}

static void add_engine(struct tables *t, const char *label, const char *role)
{
	struct tables_engine *e;

	t->engines = tps_xrealloc(t->engines, (t->n_engines + 1) * sizeof(*t->engines));
	e = &t->engines[t->n_engines++];
	e->label = tps_xstrdup(label ? label : "");
	e->role = tps_xstrdup(role ? role : "other");
}

/* The columns: the engines asked for in that order, else every engine with a run
 * by role; and the reference: asked for, else the first upstream engine. */
static int pick_engines(struct tables *t, const struct tables_opts *o, const struct cell_run *r,
			size_t n)
{
	size_t i, k;

	if (o->n_engines) {
		for (k = 0; k < o->n_engines; k++) {
			const struct cell_run *hit = NULL;
			for (i = 0; i < n && !hit; i++) {
				if (same(r[i].engine, o->engines[k]) && wanted(o, r[i].engine, r[i].model))
					hit = &r[i];
			}
			if (!hit)
				return tps_error("no runs of engine '%s' match", o->engines[k]);
			if (engine_index(t, o->engines[k]) < 0)
				add_engine(t, hit->engine, hit->role);
		}
	} else {
		for (i = 0; i < n; i++) {
			if (wanted(o, r[i].engine, r[i].model) && engine_index(t, r[i].engine) < 0)
				add_engine(t, r[i].engine, r[i].role);
		}
		if (t->n_engines > 1)
			qsort(t->engines, t->n_engines, sizeof(*t->engines), engine_cmp);
	}
	if (o->ref) {
		for (i = 0; i < n; i++) {
			if (same(r[i].engine, o->ref) && wanted(o, r[i].engine, r[i].model))
				break;
		}
		if (i == n)
			return tps_error("no runs of the reference engine '%s' match", o->ref);
		t->ref = tps_xstrdup(o->ref);
		return 0;
	}
	for (i = 0; i < t->n_engines && !t->ref; i++) {
		if (same(t->engines[i].role, "upstream"))
			t->ref = tps_xstrdup(t->engines[i].label);
	}
	/* An upstream engine left out of the columns is still the reference. */
	for (i = 0; i < n && !t->ref; i++) {
		if (same(r[i].role, "upstream") &&
		    (!o->n_models || in_list(o->models, o->n_models, r[i].model)))
			t->ref = tps_xstrdup(r[i].engine);
	}
	return 0;
}

static struct tables_base_row *base_row(struct tables *t, const char *model, const char *endpoint)
{
	struct tables_base_row *row;
	size_t i;

	for (i = 0; i < t->n_base; i++) {
		if (same(t->base[i].model, model) && same(t->base[i].endpoint, endpoint))
			return &t->base[i];
	}
	t->base = tps_xrealloc(t->base, (t->n_base + 1) * sizeof(*t->base));
	row = &t->base[t->n_base++];
	row->model = tps_xstrdup(model ? model : "");
	row->endpoint = tps_xstrdup(endpoint ? endpoint : "");
	row->cells = tps_xcalloc(t->n_engines, sizeof(*row->cells));
	return row;
}

/* completion first: it is the study's endpoint; the others follow by name. */
static int endpoint_cmp(const char *a, const char *b)
{
	int ca = same(a, "completion"), cb = same(b, "completion");

	if (ca != cb)
		return ca ? -1 : 1;
	return strcmp(a, b);
}

static int base_cmp(const void *pa, const void *pb)
{
	const struct tables_base_row *a = pa, *b = pb;
	int c = strcmp(a->model, b->model);

	return c ? c : endpoint_cmp(a->endpoint, b->endpoint);
}

static int build_base(struct store *s, const struct tables_opts *o, struct tables *t,
		      const struct cell_run *r, size_t n)
{
	size_t i;
	int err = 0;

	for (i = 0; i < n; i++) {
		struct tables_base_cell *c;
		long e;
		if (r[i].n_max != TPS_NULL || !same(r[i].spec_type, "") ||
		    !wanted(o, r[i].engine, r[i].model) || (e = engine_index(t, r[i].engine)) < 0)
			continue;
		c = &base_row(t, r[i].model, r[i].endpoint)->cells[e];
		if (c->present)
			continue; /* one run per cell: store_cell_runs() gave the latest */
		c->present = 1;
		snprintf(c->run, sizeof(c->run), "%s", r[i].uuid);
		c->tag = tps_xstrdup(r[i].tag ? r[i].tag : "");
		c->pp = median_of(s, r[i].id, CELL_PP, &err);
		c->tg = median_of(s, r[i].id, CELL_TG, &err);
		if (err)
			return -1;
	}
	if (t->n_base > 1)
		qsort(t->base, t->n_base, sizeof(*t->base), base_cmp);
	return 0;
}

static void take_verdicts(struct tables *t, size_t e, const struct parity_result *pr)
{
	size_t i, k;

	for (i = 0; i < pr->n_rows; i++) {
		const struct parity_row *pw = &pr->rows[i];
		for (k = 0; k < t->n_base; k++) {
			struct tables_base_cell *c = &t->base[k].cells[e];
			struct tables_verdict *v;
			if (pw->n_max != TPS_NULL || !same(pw->spec_type, "") ||
			    !same(pw->model, t->base[k].model) ||
			    !same(pw->endpoint, t->base[k].endpoint) || !c->present)
				continue;
			v = !strcmp(pw->metric, "pp") ? &c->vpp : &c->vtg;
			v->has = pw->v.kind != VERDICT_UNKNOWN;
			v->v = pw->v;
			c->forced |= pw->forced;
		}
	}
	for (i = 0; i < pr->n_warnings; i++) {
		if (strncmp(pr->warnings[i], "FORCED", 6))
			continue;
		t->warnings = tps_xrealloc(t->warnings, (t->n_warnings + 1) * sizeof(*t->warnings));
		t->warnings[t->n_warnings++] = tps_xstrdup(pr->warnings[i]);
	}
}

static int build_verdicts(struct store *s, const struct tables_opts *o, struct tables *t)
{
	struct parity_result pr = { 0 };
	size_t e, m, nm = o->n_models ? o->n_models : 1;

	if (!t->ref)
		return 0;
	for (e = 0; e < t->n_engines; e++) {
		if (same(t->engines[e].label, t->ref))
			continue;
		for (m = 0; m < nm; m++) {
			struct parity_opts po;
			parity_opts_init(&po);
			po.ours = t->engines[e].label;
			po.vs = t->ref;
			po.model = o->n_models ? o->models[m] : NULL;
			po.ours_tag = o->tag;
			po.vs_tag = o->tag;
			po.metrics = PARITY_BOTH;
			/* A report must not stop at one odd cell: compare it anyway, say
			 * "not comparable" in its cell and list the reason. */
			po.force = 1;
			if (parity_compare(s, &po, &pr) < 0) {
				parity_result_release(&pr);
				return -1;
			}
			take_verdicts(t, e, &pr);
			parity_result_release(&pr);
		}
	}
	return 0;
}

static int col_cmp(const void *pa, const void *pb)
{
	const struct tables_spec_col *a = pa, *b = pb;

	if (a->n_max != b->n_max)
		return a->n_max < b->n_max ? -1 : 1;
	return a->engine < b->engine ? -1 : a->engine > b->engine;
}

static long col_index(const struct tables_spec_col *cols, size_t n, size_t engine, int64_t n_max)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (cols[i].engine == engine && cols[i].n_max == n_max)
			return (long)i;
	}
	return -1;
}

static int wanted_series(const struct tables_opts *o, const struct tables *t,
			 const struct series *se)
{
	return wanted(o, se->engine, se->model) && engine_index(t, se->engine) >= 0;
}

struct prompt_acc {
	struct tables_prompt_table *pt;
	size_t col;
};

static void on_prompt(const char *prompt, double tg, int64_t draft_n, int64_t accepted, void *arg)
{
	struct prompt_acc *acc = arg;
	struct tables_prompt_table *pt = acc->pt;
	size_t i, c;

	(void)tg;
	for (i = 0; i < pt->n_prompts; i++) {
		if (same(pt->prompts[i], prompt))
			break;
	}
	if (i == pt->n_prompts) {
		pt->prompts = tps_xrealloc(pt->prompts, (i + 1) * sizeof(*pt->prompts));
		pt->prompts[i] = tps_xstrdup(prompt);
		pt->accept = tps_xrealloc(pt->accept, (i + 1) * pt->n_cols * sizeof(*pt->accept));
		for (c = 0; c < pt->n_cols; c++)
			pt->accept[i * pt->n_cols + c] = NAN;
		pt->n_prompts++;
	}
	pt->accept[i * pt->n_cols + acc->col] =
		draft_n > 0 ? (double)accepted / (double)draft_n : NAN;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts the prompt rows by name, carrying their acceptance rows along. */
static void sort_prompts(struct tables_prompt_table *pt)
{
	char **names = tps_xcalloc(pt->n_prompts ? pt->n_prompts : 1, sizeof(*names));
	double *acc = tps_xcalloc(pt->n_prompts * pt->n_cols + 1, sizeof(*acc));
	size_t i, j;

	memcpy(names, pt->prompts, pt->n_prompts * sizeof(*names));
	qsort(names, pt->n_prompts, sizeof(*names), str_cmp);
	for (i = 0; i < pt->n_prompts; i++) {
		for (j = 0; j < pt->n_prompts; j++) {
			if (names[i] == pt->prompts[j])
				break;
		}
		memcpy(&acc[i * pt->n_cols], &pt->accept[j * pt->n_cols],
		       pt->n_cols * sizeof(*acc));
	}
	if (pt->n_prompts)
		memcpy(pt->accept, acc, pt->n_prompts * pt->n_cols * sizeof(*acc));
	memcpy(pt->prompts, names, pt->n_prompts * sizeof(*names));
	free(names);
	free(acc);
}

static int build_spec(struct store *s, const struct tables_opts *o, struct tables *t)
{
	struct series_filter f;
	struct series_set set = { 0 };
	size_t i, k, r;
	int ret = -1;

	series_filter_init(&f);
	f.tag = o->tag;
	if (series_load(s, &f, &set) < 0)
		goto out;
	/* The columns: every (n_max, engine) any row has, depth first. */
	for (i = 0; i < set.n; i++) {
		const struct series *se = &set.v[i];
		size_t e;
		if (!wanted_series(o, t, se))
			continue;
		e = (size_t)engine_index(t, se->engine);
		for (k = 0; k < se->n_rungs; k++) {
			int64_t nm = se->rungs[k].n_max;
			if (nm == TPS_NULL || nm <= 0 || col_index(t->spec_cols, t->n_spec_cols, e, nm) >= 0)
				continue;
			t->spec_cols = tps_xrealloc(t->spec_cols,
						    (t->n_spec_cols + 1) * sizeof(*t->spec_cols));
			t->spec_cols[t->n_spec_cols].engine = e;
			t->spec_cols[t->n_spec_cols++].n_max = nm;
		}
	}
	if (t->n_spec_cols > 1)
		qsort(t->spec_cols, t->n_spec_cols, sizeof(*t->spec_cols), col_cmp);
	/* The rows: one per model, spec type and endpoint (series come in that order). */
	for (i = 0; i < set.n; i++) {
		const struct series *se = &set.v[i];
		struct tables_spec_row *row = NULL;
		size_t e;
		if (!wanted_series(o, t, se))
			continue;
		e = (size_t)engine_index(t, se->engine);
		for (r = 0; r < t->n_spec; r++) {
			if (same(t->spec[r].model, se->model) &&
			    same(t->spec[r].spec_type, se->spec_type) &&
			    same(t->spec[r].endpoint, se->endpoint))
				row = &t->spec[r];
		}
		if (!row) {
			t->spec = tps_xrealloc(t->spec, (t->n_spec + 1) * sizeof(*t->spec));
			row = &t->spec[t->n_spec++];
			row->model = tps_xstrdup(se->model);
			row->spec_type = tps_xstrdup(se->spec_type);
			row->endpoint = tps_xstrdup(se->endpoint);
			row->cells = tps_xcalloc(t->n_spec_cols ? t->n_spec_cols : 1,
						 sizeof(*row->cells));
		}
		for (k = 0; k < se->n_rungs; k++) {
			const struct series_rung *rg = &se->rungs[k];
			struct tables_spec_cell *c;
			long ci = col_index(t->spec_cols, t->n_spec_cols, e, rg->n_max);
			if (rg->n_max == TPS_NULL || rg->n_max <= 0 || ci < 0)
				continue;
			c = &row->cells[ci];
			c->present = 1;
			c->tg = rg->rung.tg;
			c->accept = rg->point.acceptance;
			snprintf(c->run, sizeof(c->run), "%s", rg->run_uuid);
			c->tag = tps_xstrdup(rg->tag ? rg->tag : "");
		}
	}
	/* The best rung of each engine in each row: its highest decode speed. */
	for (r = 0; r < t->n_spec; r++) {
		size_t e;
		for (e = 0; e < t->n_engines; e++) {
			long best = -1;
			for (k = 0; k < t->n_spec_cols; k++) {
				const struct tables_spec_cell *c = &t->spec[r].cells[k];
				if (t->spec_cols[k].engine != e || !c->present || !isfinite(c->tg))
					continue;
				if (best < 0 || c->tg > t->spec[r].cells[best].tg)
					best = (long)k;
			}
			if (best >= 0)
				t->spec[r].cells[best].best = 1;
		}
	}
	/* One per-prompt table per row, over the columns that row has. */
	for (r = 0; r < t->n_spec; r++) {
		const struct tables_spec_row *row = &t->spec[r];
		struct tables_prompt_table *pt;
		t->prompts = tps_xrealloc(t->prompts, (t->n_prompts + 1) * sizeof(*t->prompts));
		pt = &t->prompts[t->n_prompts++];
		memset(pt, 0, sizeof(*pt));
		pt->model = tps_xstrdup(row->model);
		pt->spec_type = tps_xstrdup(row->spec_type);
		pt->endpoint = tps_xstrdup(row->endpoint);
		for (k = 0; k < t->n_spec_cols; k++)
			pt->n_cols += row->cells[k].present;
		pt->cols = tps_xcalloc(pt->n_cols ? pt->n_cols : 1, sizeof(*pt->cols));
		pt->all = tps_xcalloc(pt->n_cols ? pt->n_cols : 1, sizeof(*pt->all));
		pt->decode = tps_xcalloc(pt->n_cols ? pt->n_cols : 1, sizeof(*pt->decode));
		pt->n_cols = 0;
		for (k = 0; k < t->n_spec_cols; k++) {
			if (!row->cells[k].present)
				continue;
			pt->cols[pt->n_cols] = t->spec_cols[k];
			pt->all[pt->n_cols] = row->cells[k].accept;
			pt->decode[pt->n_cols] = row->cells[k].tg;
			pt->n_cols++;
		}
	}
	for (i = 0; i < set.n; i++) {
		const struct series *se = &set.v[i];
		if (!wanted_series(o, t, se))
			continue;
		for (r = 0; r < t->n_prompts; r++) {
			struct tables_prompt_table *pt = &t->prompts[r];
			if (!same(pt->model, se->model) || !same(pt->spec_type, se->spec_type) ||
			    !same(pt->endpoint, se->endpoint))
				continue;
			for (k = 0; k < se->n_rungs; k++) {
				struct prompt_acc acc;
				long ci = col_index(pt->cols, pt->n_cols,
						    (size_t)engine_index(t, se->engine),
						    se->rungs[k].n_max);
				if (ci < 0)
					continue;
				acc.pt = pt;
				acc.col = (size_t)ci;
				if (store_cell_prompts(s, se->rungs[k].run_id, on_prompt, &acc) < 0)
					goto out;
			}
		}
	}
	for (r = 0; r < t->n_prompts; r++)
		sort_prompts(&t->prompts[r]);
	ret = 0;
out:
	series_set_release(&set);
	return ret;
}

/* Is uuid one the tables show a number of? */
static int referenced(const struct tables *t, const char *uuid)
{
	size_t i, k;

	for (i = 0; i < t->n_base; i++) {
		for (k = 0; k < t->n_engines; k++) {
			if (t->base[i].cells[k].present && same(t->base[i].cells[k].run, uuid))
				return 1;
		}
	}
	for (i = 0; i < t->n_spec; i++) {
		for (k = 0; k < t->n_spec_cols; k++) {
			if (t->spec[i].cells[k].present && same(t->spec[i].cells[k].run, uuid))
				return 1;
		}
	}
	return 0;
}

static void build_runs(struct tables *t, const struct cell_run *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct tables_run *x;
		if (!referenced(t, r[i].uuid))
			continue;
		t->runs = tps_xrealloc(t->runs, (t->n_runs + 1) * sizeof(*t->runs));
		x = &t->runs[t->n_runs++];
		memcpy(x->uuid, r[i].uuid, sizeof(x->uuid));
		x->engine = tps_xstrdup(r[i].engine ? r[i].engine : "");
		x->role = tps_xstrdup(r[i].role ? r[i].role : "");
		x->model = tps_xstrdup(r[i].model ? r[i].model : "");
		x->spec_type = tps_xstrdup(r[i].spec_type ? r[i].spec_type : "");
		x->endpoint = tps_xstrdup(r[i].endpoint ? r[i].endpoint : "");
		x->tag = tps_xstrdup(r[i].tag ? r[i].tag : "");
		x->started_at = tps_xstrdup(r[i].started_at ? r[i].started_at : "");
		x->host = tps_xstrdup(r[i].host ? r[i].host : "");
		x->n_max = r[i].n_max;
	}
}

/* The last non-empty line of a server log, at most 200 bytes; heap. */
static char *log_tail(const char *log)
{
	const char *end, *start;

	if (!log || !*log)
		return tps_xstrdup("the engine failed to start (no server log kept)");
	end = log + strlen(log);
	while (end > log && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	start = end;
	while (start > log && start[-1] != '\n')
		start--;
	if (end - start > 200)
		start = end - 200;
	return tps_xstrndup(start, (size_t)(end - start));
}

static const char *flag_detail(unsigned flag)
{
	switch (flag) {
	case SAMPLE_TRUNCATED: return "truncated decode (left out of tg)";
	case SAMPLE_CACHED: return "cache-inflated prefill (left out of pp)";
	case SAMPLE_SHORT_PROMPT: return "short prompt (left out of pp)";
	case SAMPLE_FAILED: return "failed requests (left out of pp and tg)";
	case SAMPLE_COLD: return "cold-start prefill (left out of pp)";
	}
	return "flagged";
}

static void add_finding(struct tables *t, const struct catalog_quality *q, const char *kind,
			int64_t count, int64_t total, char *detail)
{
	struct tables_finding *f;

	t->findings = tps_xrealloc(t->findings, (t->n_findings + 1) * sizeof(*t->findings));
	f = &t->findings[t->n_findings++];
	f->run = tps_xstrdup(q->uuid ? q->uuid : "");
	f->engine = tps_xstrdup(q->engine ? q->engine : "");
	f->model = tps_xstrdup(q->model ? q->model : "");
	f->kind = tps_xstrdup(kind);
	f->count = count;
	f->total = total;
	f->detail = detail;
}

/* Has the report a number from this engine on this model? */
static int engine_model_shown(const struct tables *t, const char *engine, const char *model)
{
	size_t i;

	for (i = 0; i < t->n_runs; i++) {
		if (same(t->runs[i].engine, engine) && same(t->runs[i].model, model))
			return 1;
	}
	return 0;
}

/* The findings of the runs the report shows, and the load failures that explain a
 * hole: a failed run of an engine and model the report has no number for. */
static int build_findings(struct store *s, const struct tables_opts *o, struct tables *t)
{
	struct run_filter rf = { 0 };
	struct catalog_quality *q = NULL;
	size_t n = 0, i;
	int b;

	rf.tag = o->tag;
	if (catalog_quality(s, &rf, &q, &n) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		const char *st = q[i].status ? q[i].status : "";
		if (!wanted(o, q[i].engine, q[i].model))
			continue;
		if (!strcmp(st, "failed") && !engine_model_shown(t, q[i].engine, q[i].model)) {
			char *tail = log_tail(q[i].load_error);
			add_finding(t, &q[i], "load-failed", 1, 1, tps_xasprintf("LOADFAIL: %s", tail));
			free(tail);
			continue;
		}
		if (!referenced(t, q[i].uuid))
			continue;
		if (!strcmp(st, "partial"))
			add_finding(t, &q[i], "partial", 1, 1, tps_xasprintf(
					    "partial run: stopped before all of its requests were "
					    "answered (%lld samples kept)", (long long)q[i].total));
		else if (!strcmp(st, "interrupted"))
			add_finding(t, &q[i], "interrupted", 1, 1, tps_xasprintf(
					    "interrupted run: stopped by a signal (%lld samples kept)",
					    (long long)q[i].total));
		for (b = 0; b < CATALOG_NFLAGS; b++) {
			if (q[i].count[b])
				add_finding(t, &q[i], record_flag_name(1u << b), q[i].count[b],
					    q[i].total, tps_xstrdup(flag_detail(1u << b)));
		}
	}
	catalog_quality_free(q, n);
	return catalog_alarms(s, &t->alarms, &t->n_alarms);
}

/* The whole report, or (full 0) only the engines and the base table with its
 * verdicts, which is all a parity figure needs. */
static int build(struct store *s, const struct tables_opts *o, struct tables *t, int full)
{
	struct cell_filter cf = { 0 };
	struct cell_run *r = NULL;
	size_t n = 0;
	int ret = -1;

	memset(t, 0, sizeof(*t));
	cf.tag = o->tag;
	if (store_cell_runs(s, &cf, &r, &n) < 0)
		goto out;
	if (pick_engines(t, o, r, n) < 0 || build_base(s, o, t, r, n) < 0 ||
	    build_verdicts(s, o, t) < 0)
		goto out;
	if (full) {
		if (build_spec(s, o, t) < 0)
			goto out;
		build_runs(t, r, n);
		if (build_findings(s, o, t) < 0)
			goto out;
	}
	ret = 0;
out:
	cell_runs_free(r, n);
	return ret;
}

int tables_build(struct store *s, const struct tables_opts *o, struct tables *t)
{
	return build(s, o, t, 1);
}

void tables_release(struct tables *t)
{
	size_t i, k;

	if (!t)
		return;
	for (i = 0; i < t->n_engines; i++) {
		free(t->engines[i].label);
		free(t->engines[i].role);
	}
	free(t->engines);
	for (i = 0; i < t->n_base; i++) {
		for (k = 0; k < t->n_engines; k++)
			free(t->base[i].cells[k].tag);
		free(t->base[i].cells);
		free(t->base[i].model);
		free(t->base[i].endpoint);
	}
	free(t->base);
	for (i = 0; i < t->n_spec; i++) {
		for (k = 0; k < t->n_spec_cols; k++)
			free(t->spec[i].cells[k].tag);
		free(t->spec[i].cells);
		free(t->spec[i].model);
		free(t->spec[i].spec_type);
		free(t->spec[i].endpoint);
	}
	free(t->spec);
	free(t->spec_cols);
	for (i = 0; i < t->n_prompts; i++) {
		struct tables_prompt_table *pt = &t->prompts[i];
		for (k = 0; k < pt->n_prompts; k++)
			free(pt->prompts[k]);
		free(pt->prompts);
		free(pt->accept);
		free(pt->all);
		free(pt->decode);
		free(pt->cols);
		free(pt->model);
		free(pt->spec_type);
		free(pt->endpoint);
	}
	free(t->prompts);
	for (i = 0; i < t->n_findings; i++) {
		struct tables_finding *f = &t->findings[i];
		free(f->run); free(f->engine); free(f->model); free(f->kind); free(f->detail);
	}
	free(t->findings);
	catalog_alarms_free(t->alarms, t->n_alarms);
	for (i = 0; i < t->n_warnings; i++)
		free(t->warnings[i]);
	free(t->warnings);
	for (i = 0; i < t->n_runs; i++) {
		struct tables_run *x = &t->runs[i];
		free(x->engine); free(x->role); free(x->model); free(x->spec_type);
		free(x->endpoint); free(x->tag); free(x->started_at); free(x->host);
	}
	free(t->runs);
	free(t->ref);
	memset(t, 0, sizeof(*t));
}

/* --- cell texts --- */

static void fmt_verdict(const struct tables_verdict *v, char *buf, size_t len)
{
	const char *q = v->v.significant ? "" : "?";

	if (!v->has || v->v.kind == VERDICT_UNKNOWN)
		snprintf(buf, len, "n/a");
	else if (v->v.kind == VERDICT_PARITY)
		snprintf(buf, len, "parity%s", q);
	else
		snprintf(buf, len, "%+.1f%% %s%s", v->v.delta_pct, verdict_kind_name(v->v.kind), q);
}

char *tables_base_text(const struct tables *t, const struct tables_base_row *row, size_t e)
{
	const struct tables_base_cell *c = &row->cells[e];
	char pp[32], tg[32], a[48], b[48];

	if (!c->present)
		return tps_xstrdup("-");
	if (isfinite(c->pp))
		snprintf(pp, sizeof(pp), "%.0f", c->pp);
	else
		snprintf(pp, sizeof(pp), "-");
	if (isfinite(c->tg))
		snprintf(tg, sizeof(tg), "%.1f", c->tg);
	else
		snprintf(tg, sizeof(tg), "-");
	if (t->ref && same(t->engines[e].label, t->ref))
		return tps_xasprintf("%s / %s (ref)", pp, tg);
	if (c->forced)
		return tps_xasprintf("%s / %s (not comparable)", pp, tg);
	if (!c->vpp.has && !c->vtg.has)
		return tps_xasprintf("%s / %s", pp, tg);
	fmt_verdict(&c->vpp, a, sizeof(a));
	fmt_verdict(&c->vtg, b, sizeof(b));
	return tps_xasprintf("%s / %s (%s / %s)", pp, tg, a, b);
}

char *tables_spec_text(const struct tables_spec_cell *c)
{
	char tg[32], ac[32];

	if (!c->present)
		return tps_xstrdup("-");
	if (isfinite(c->tg))
		snprintf(tg, sizeof(tg), "%.1f", c->tg);
	else
		snprintf(tg, sizeof(tg), "-");
	if (isfinite(c->accept))
		snprintf(ac, sizeof(ac), "%.2f", c->accept);
	else
		snprintf(ac, sizeof(ac), "-");
	return tps_xasprintf("%s \xc2\xb7 %s", tg, ac);
}

/* "q35" for the completion endpoint, else "q35 (chat)". */
static char *model_label(const char *model, const char *endpoint)
{
	if (same(endpoint, "completion") || same(endpoint, ""))
		return tps_xstrdup(model);
	return tps_xasprintf("%s (%s)", model, endpoint);
}

static char *config_label(const char *spec_type, int64_t n_max, const char *endpoint)
{
	char *base, *ret;

	if (n_max == TPS_NULL && same(spec_type, ""))
		base = tps_xstrdup("base");
	else if (n_max == TPS_NULL)
		base = tps_xasprintf("%s base", spec_type);
	else
		base = tps_xasprintf("%s n_max=%lld", same(spec_type, "") ? "spec" : spec_type,
				     (long long)n_max);
	if (same(endpoint, "completion") || same(endpoint, ""))
		return base;
	ret = tps_xasprintf("%s (%s)", base, endpoint);
	free(base);
	return ret;
}

/* --- the tables, as md_table for both markdown and text --- */

static void base_table(const struct tables *t, struct md_table *mt)
{
	size_t i, e, r;

	md_table_init(mt, t->n_engines + 1);
	md_table_set(mt, 0, 0, "model");
	for (e = 0; e < t->n_engines; e++)
		md_table_setf(mt, 0, e + 1, "%s pp / tg", t->engines[e].label);
	for (i = 0; i < t->n_base; i++) {
		char *m = model_label(t->base[i].model, t->base[i].endpoint);
		r = md_table_add_row(mt);
		md_table_set(mt, r, 0, m);
		free(m);
		for (e = 0; e < t->n_engines; e++) {
			char *c = tables_base_text(t, &t->base[i], e);
			md_table_set(mt, r, e + 1, c);
			free(c);
		}
	}
}

static void spec_table(const struct tables *t, struct md_table *mt)
{
	size_t i, k, r;

	md_table_init(mt, t->n_spec_cols + 1);
	md_table_set(mt, 0, 0, "model / config");
	for (k = 0; k < t->n_spec_cols; k++)
		md_table_setf(mt, 0, k + 1, "%s n%lld", t->engines[t->spec_cols[k].engine].label,
			      (long long)t->spec_cols[k].n_max);
	for (i = 0; i < t->n_spec; i++) {
		const struct tables_spec_row *row = &t->spec[i];
		char *m = model_label(row->model, row->endpoint);
		r = md_table_add_row(mt);
		md_table_setf(mt, r, 0, "%s / %s", m, same(row->spec_type, "") ? "spec" : row->spec_type);
		free(m);
		for (k = 0; k < t->n_spec_cols; k++) {
			char *c = tables_spec_text(&row->cells[k]);
			md_table_set(mt, r, k + 1, c);
			if (row->cells[k].best)
				md_table_mark(mt, r, k + 1);
			free(c);
		}
	}
}

static void fmt_accept(double v, char *buf, size_t len)
{
	if (isfinite(v))
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "-");
}

static void prompt_table(const struct tables *t, const struct tables_prompt_table *pt,
			 struct md_table *mt)
{
	size_t i, k, r;
	char buf[32];

	md_table_init(mt, pt->n_cols + 1);
	md_table_set(mt, 0, 0, "prompt");
	for (k = 0; k < pt->n_cols; k++)
		md_table_setf(mt, 0, k + 1, "%s n%lld", t->engines[pt->cols[k].engine].label,
			      (long long)pt->cols[k].n_max);
	for (i = 0; i < pt->n_prompts; i++) {
		r = md_table_add_row(mt);
		md_table_set(mt, r, 0, pt->prompts[i]);
		for (k = 0; k < pt->n_cols; k++) {
			fmt_accept(pt->accept[i * pt->n_cols + k], buf, sizeof(buf));
			md_table_set(mt, r, k + 1, buf);
		}
	}
	r = md_table_add_row(mt);
	md_table_set(mt, r, 0, "all prompts");
	for (k = 0; k < pt->n_cols; k++) {
		fmt_accept(pt->all[k], buf, sizeof(buf));
		md_table_set(mt, r, k + 1, buf);
	}
	r = md_table_add_row(mt);
	md_table_set(mt, r, 0, "decode tok/s");
	for (k = 0; k < pt->n_cols; k++) {
		if (isfinite(pt->decode[k]))
			md_table_setf(mt, r, k + 1, "%.1f", pt->decode[k]);
		else
			md_table_set(mt, r, k + 1, "-");
	}
}

static void runs_table(const struct tables *t, struct md_table *mt)
{
	size_t i, r;

	md_table_init(mt, 6);
	md_table_set(mt, 0, 0, "run");
	md_table_set(mt, 0, 1, "engine");
	md_table_set(mt, 0, 2, "model");
	md_table_set(mt, 0, 3, "config");
	md_table_set(mt, 0, 4, "tag");
	md_table_set(mt, 0, 5, "started");
	for (i = 0; i < t->n_runs; i++) {
		const struct tables_run *x = &t->runs[i];
		char *c = config_label(x->spec_type, x->n_max, x->endpoint);
		r = md_table_add_row(mt);
		md_table_set(mt, r, 0, x->uuid);
		md_table_set(mt, r, 1, x->engine);
		md_table_set(mt, r, 2, x->model);
		md_table_set(mt, r, 3, c);
		md_table_set(mt, r, 4, same(x->tag, "") ? "-" : x->tag);
		md_table_set(mt, r, 5, x->started_at);
		free(c);
	}
}

/* One line of text per finding, alarm and warning, unescaped. */
static char **quality_lines(const struct tables *t, size_t *n)
{
	size_t cap = t->n_findings + t->n_alarms + t->n_warnings, i, k = 0;
	char **v = tps_xcalloc(cap ? cap : 1, sizeof(*v));

	for (i = 0; i < t->n_findings; i++) {
		const struct tables_finding *f = &t->findings[i];
		if (f->count == 1 && f->total == 1 && (!strcmp(f->kind, "load-failed") ||
		    !strcmp(f->kind, "partial") || !strcmp(f->kind, "interrupted")))
			v[k++] = tps_xasprintf("run %s %s/%s: %s", f->run, f->engine, f->model,
					       f->detail);
		else
			v[k++] = tps_xasprintf("run %s %s/%s: %lld of %lld samples %s", f->run,
					       f->engine, f->model, (long long)f->count,
					       (long long)f->total, f->detail);
	}
	for (i = 0; i < t->n_alarms; i++) {
		char *a = catalog_alarm_text(&t->alarms[i]);
		v[k++] = tps_xasprintf("ALARM: %s", a);
		free(a);
	}
	for (i = 0; i < t->n_warnings; i++)
		v[k++] = tps_xstrdup(t->warnings[i]);
	*n = k;
	return v;
}

static void free_lines(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The report's prose, with a hook for each markup: md 1 for markdown, 0 for text. */
struct out {
	FILE *f;
	int md;
};

static void heading(struct out *o, int level, const char *text)
{
	size_t i, w = md_width(text);

	if (o->md) {
		fprintf(o->f, "%s %s\n\n", level == 1 ? "#" : level == 2 ? "##" : "###", text);
		return;
	}
	fprintf(o->f, "%s\n", text);
	for (i = 0; i < w; i++)
		fputc(level == 1 ? '=' : level == 2 ? '-' : '~', o->f);
	fprintf(o->f, "\n\n");
}

/* A paragraph or list item holding a label: escaped for markdown, made printable
 * for text. */
static void line(struct out *o, const char *prefix, const char *text)
{
	char *e = o->md ? md_escape(text) : md_plain(text);
	fprintf(o->f, "%s%s\n", prefix, e);
	free(e);
}

static void table(struct out *o, const struct md_table *mt)
{
	if (o->md)
		md_table_write_md(o->f, mt);
	else
		md_table_write_text(o->f, mt);
	fputc('\n', o->f);
}

static void figure(struct out *o, const char *what, const char *file)
{
	char *e;

	if (!file)
		return;
	if (o->md) {
		e = md_escape(what);
		/* The file name is ours (trend.png and so on), but a link still must not
		 * carry a ')' or a blank. */
		fprintf(o->f, "![%s](%s)\n\n", e, file);
		free(e);
	} else {
		fprintf(o->f, "%s: %s\n", what, file);
	}
}

static int write_doc(struct out *o, const struct tables *t, const struct tables_figures *fig)
{
	struct md_table mt = { 0 };
	char **lines, *ref, *title;
	size_t n, i;

	heading(o, 1, "tpsdb report");
	if (t->ref) {
		ref = o->md ? md_escape(t->ref) : md_plain(t->ref);
		fprintf(o->f, "Medians of the unflagged samples, in tok/s: prefill (pp) as a whole "
			"number, decode (tg) to one decimal. In parentheses, the verdicts of pp / tg "
			"against the reference engine %s, paired by prompt and repetition: "
			"\"parity\" inside the band, else the median delta and \"faster\" or "
			"\"slower\"; \"?\" marks a verdict that is not significant, \"n/a\" one "
			"without pairs.\n\n", ref);
		free(ref);
	} else {
		fprintf(o->f, "Medians of the unflagged samples, in tok/s: prefill (pp) as a whole "
			"number, decode (tg) to one decimal. No reference engine (no engine has "
			"role upstream; see --ref): no verdicts.\n\n");
	}
	heading(o, 2, "Base throughput");
	if (t->n_base) {
		base_table(t, &mt);
		table(o, &mt);
		md_table_release(&mt);
	} else {
		fprintf(o->f, "No base runs.\n\n");
	}
	heading(o, 2, "Speculative decoding");
	if (t->n_spec) {
		fprintf(o->f, "Each cell is decode tok/s %s acceptance (drafted tokens accepted) "
			"at that n_max; %s marks each engine's fastest rung in its row.\n\n",
			"\xc2\xb7", o->md ? "bold" : "a trailing *");
		spec_table(t, &mt);
		table(o, &mt);
		md_table_release(&mt);
	} else {
		fprintf(o->f, "No speculative runs.\n\n");
	}
	heading(o, 2, "Per-prompt acceptance");
	if (!t->n_prompts)
		fprintf(o->f, "No speculative runs.\n\n");
	for (i = 0; i < t->n_prompts; i++) {
		const struct tables_prompt_table *pt = &t->prompts[i];
		char *m = model_label(pt->model, pt->endpoint), *h;
		title = tps_xasprintf("%s / %s", m, same(pt->spec_type, "") ? "spec" : pt->spec_type);
		h = o->md ? md_escape(title) : md_plain(title);
		heading(o, 3, h);
		free(h);
		free(title);
		free(m);
		prompt_table(t, pt, &mt);
		table(o, &mt);
		md_table_release(&mt);
	}
	heading(o, 2, "Data quality and model identity");
	lines = quality_lines(t, &n);
	for (i = 0; i < n; i++)
		line(o, "- ", lines[i]);
	if (!n)
		fprintf(o->f, "No findings and no model-identity alarms.\n");
	fputc('\n', o->f);
	free_lines(lines, n);
	heading(o, 2, "Runs");
	if (t->n_runs) {
		runs_table(t, &mt);
		table(o, &mt);
		md_table_release(&mt);
	} else {
		fprintf(o->f, "No runs.\n\n");
	}
	if (fig) {
		heading(o, 2, "Plots");
		if (fig->note)
			fprintf(o->f, "%s\n\n", fig->note);
		figure(o, "trend of decode tok/s", fig->trend);
		figure(o, "speculative sweep", fig->sweep);
		figure(o, "parity deltas", fig->parity);
		if (!o->md && (fig->trend || fig->sweep || fig->parity))
			fputc('\n', o->f);
	}
	return ferror(o->f) ? -1 : 0;
}

int tables_write_md(FILE *f, const struct tables *t, const struct tables_figures *fig)
{
	struct out o = { f, 1 };
	return write_doc(&o, t, fig);
}

int tables_write_text(FILE *f, const struct tables *t, const struct tables_figures *fig)
{
	struct out o = { f, 0 };
	return write_doc(&o, t, fig);
}

/* --- JSON --- */

/* Numbers are rounded to what the tables can show and a little more, so that a
 * golden file does not depend on the last bits of a floating-point sum. */
static void put_num(cJSON *o, const char *k, double v, double unit)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, round(v / unit) * unit);
	else
		cJSON_AddNullToObject(o, k);
}

static cJSON *num(double v, double unit)
{
	return isfinite(v) ? cJSON_CreateNumber(round(v / unit) * unit) : cJSON_CreateNull();
}

static void put_i64(cJSON *o, const char *k, int64_t v)
{
	if (v == TPS_NULL)
		cJSON_AddNullToObject(o, k);
	else
		cJSON_AddNumberToObject(o, k, (double)v);
}

static cJSON *verdict_json(const struct tables_verdict *v)
{
	cJSON *o;

	if (!v->has)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "verdict", verdict_kind_name(v->v.kind));
	put_num(o, "delta_pct", v->v.delta_pct, 0.01);
	put_num(o, "ci_lo_pct", v->v.ci_lo_pct, 0.01);
	put_num(o, "ci_hi_pct", v->v.ci_hi_pct, 0.01);
	put_num(o, "band_pct", v->v.band_pct, 0.01);
	put_num(o, "p_wilcoxon", v->v.p_wilcoxon, 1e-6);
	cJSON_AddNumberToObject(o, "n_pairs", (double)v->v.n_pairs);
	cJSON_AddBoolToObject(o, "significant", v->v.significant);
	return o;
}

static cJSON *cols_json(const struct tables *t, const struct tables_spec_col *c, size_t n)
{
	cJSON *a = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "engine", t->engines[c[i].engine].label);
		cJSON_AddNumberToObject(o, "n_max", (double)c[i].n_max);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static cJSON *figures_json(const struct tables_figures *fig)
{
	cJSON *o = cJSON_CreateObject();

	if (fig->trend)
		cJSON_AddStringToObject(o, "trend", fig->trend);
	else
		cJSON_AddNullToObject(o, "trend");
	if (fig->sweep)
		cJSON_AddStringToObject(o, "sweep", fig->sweep);
	else
		cJSON_AddNullToObject(o, "sweep");
	if (fig->parity)
		cJSON_AddStringToObject(o, "parity", fig->parity);
	else
		cJSON_AddNullToObject(o, "parity");
	if (fig->note)
		cJSON_AddStringToObject(o, "note", fig->note);
	return o;
}

int tables_write_json(FILE *f, const struct tables *t, const struct tables_figures *fig)
{
	cJSON *root = cJSON_CreateObject(), *a, *o, *cells, *alarms;
	char *text = NULL, *al = NULL;
	size_t i, k, e;
	int ret = -1;

	if (t->ref)
		cJSON_AddStringToObject(root, "reference", t->ref);
	else
		cJSON_AddNullToObject(root, "reference");
	a = cJSON_AddArrayToObject(root, "engines");
	for (e = 0; e < t->n_engines; e++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "label", t->engines[e].label);
		cJSON_AddStringToObject(o, "role", t->engines[e].role);
		cJSON_AddItemToArray(a, o);
	}
	a = cJSON_AddArrayToObject(root, "base");
	for (i = 0; i < t->n_base; i++) {
		const struct tables_base_row *row = &t->base[i];
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "model", row->model);
		cJSON_AddStringToObject(o, "endpoint", row->endpoint);
		cells = cJSON_AddArrayToObject(o, "cells");
		for (e = 0; e < t->n_engines; e++) {
			const struct tables_base_cell *c = &row->cells[e];
			cJSON *x;
			if (!c->present)
				continue;
			x = cJSON_CreateObject();
			cJSON_AddStringToObject(x, "engine", t->engines[e].label);
			put_num(x, "pp", c->pp, 0.01);
			put_num(x, "tg", c->tg, 0.01);
			cJSON_AddStringToObject(x, "run", c->run);
			cJSON_AddStringToObject(x, "tag", c->tag);
			cJSON_AddBoolToObject(x, "reference", t->ref && same(t->engines[e].label, t->ref));
			cJSON_AddBoolToObject(x, "comparable", !c->forced);
			cJSON_AddItemToObject(x, "verdict_pp", verdict_json(&c->vpp));
			cJSON_AddItemToObject(x, "verdict_tg", verdict_json(&c->vtg));
			cJSON_AddItemToArray(cells, x);
		}
		cJSON_AddItemToArray(a, o);
	}
	o = cJSON_AddObjectToObject(root, "speculative");
	cJSON_AddItemToObject(o, "columns", cols_json(t, t->spec_cols, t->n_spec_cols));
	a = cJSON_AddArrayToObject(o, "rows");
	for (i = 0; i < t->n_spec; i++) {
		const struct tables_spec_row *row = &t->spec[i];
		cJSON *r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "model", row->model);
		cJSON_AddStringToObject(r, "spec_type", row->spec_type);
		cJSON_AddStringToObject(r, "endpoint", row->endpoint);
		cells = cJSON_AddArrayToObject(r, "cells");
		for (k = 0; k < t->n_spec_cols; k++) {
			const struct tables_spec_cell *c = &row->cells[k];
			cJSON *x;
			if (!c->present)
				continue;
			x = cJSON_CreateObject();
			cJSON_AddStringToObject(x, "engine", t->engines[t->spec_cols[k].engine].label);
			cJSON_AddNumberToObject(x, "n_max", (double)t->spec_cols[k].n_max);
			put_num(x, "tg", c->tg, 0.01);
			put_num(x, "acceptance", c->accept, 1e-4);
			cJSON_AddBoolToObject(x, "best", c->best);
			cJSON_AddStringToObject(x, "run", c->run);
			cJSON_AddStringToObject(x, "tag", c->tag);
			cJSON_AddItemToArray(cells, x);
		}
		cJSON_AddItemToArray(a, r);
	}
	a = cJSON_AddArrayToObject(root, "prompts");
	for (i = 0; i < t->n_prompts; i++) {
		const struct tables_prompt_table *pt = &t->prompts[i];
		cJSON *p = cJSON_CreateObject(), *rows, *v;
		cJSON_AddStringToObject(p, "model", pt->model);
		cJSON_AddStringToObject(p, "spec_type", pt->spec_type);
		cJSON_AddStringToObject(p, "endpoint", pt->endpoint);
		cJSON_AddItemToObject(p, "columns", cols_json(t, pt->cols, pt->n_cols));
		rows = cJSON_AddArrayToObject(p, "rows");
		for (k = 0; k < pt->n_prompts; k++) {
			cJSON *r = cJSON_CreateObject();
			size_t c;
			cJSON_AddStringToObject(r, "prompt", pt->prompts[k]);
			v = cJSON_AddArrayToObject(r, "acceptance");
			for (c = 0; c < pt->n_cols; c++)
				cJSON_AddItemToArray(v, num(pt->accept[k * pt->n_cols + c], 1e-4));
			cJSON_AddItemToArray(rows, r);
		}
		v = cJSON_AddArrayToObject(p, "all");
		for (k = 0; k < pt->n_cols; k++)
			cJSON_AddItemToArray(v, num(pt->all[k], 1e-4));
		v = cJSON_AddArrayToObject(p, "decode");
		for (k = 0; k < pt->n_cols; k++)
			cJSON_AddItemToArray(v, num(pt->decode[k], 0.01));
		cJSON_AddItemToArray(a, p);
	}
	a = cJSON_AddArrayToObject(root, "findings");
	for (i = 0; i < t->n_findings; i++) {
		const struct tables_finding *fd = &t->findings[i];
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "run", fd->run);
		cJSON_AddStringToObject(o, "engine", fd->engine);
		cJSON_AddStringToObject(o, "model", fd->model);
		cJSON_AddStringToObject(o, "kind", fd->kind);
		cJSON_AddNumberToObject(o, "count", (double)fd->count);
		cJSON_AddNumberToObject(o, "total", (double)fd->total);
		cJSON_AddStringToObject(o, "detail", fd->detail);
		cJSON_AddItemToArray(a, o);
	}
	al = catalog_alarms_json(t->alarms, t->n_alarms);
	if (!(alarms = cJSON_Parse(al)))
		goto out;
	cJSON_AddItemToObject(root, "alarms", alarms);
	a = cJSON_AddArrayToObject(root, "warnings");
	for (i = 0; i < t->n_warnings; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(t->warnings[i]));
	a = cJSON_AddArrayToObject(root, "runs");
	for (i = 0; i < t->n_runs; i++) {
		const struct tables_run *x = &t->runs[i];
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "run", x->uuid);
		cJSON_AddStringToObject(o, "engine", x->engine);
		cJSON_AddStringToObject(o, "role", x->role);
		cJSON_AddStringToObject(o, "model", x->model);
		cJSON_AddStringToObject(o, "spec_type", x->spec_type);
		put_i64(o, "n_max", x->n_max);
		cJSON_AddStringToObject(o, "endpoint", x->endpoint);
		cJSON_AddStringToObject(o, "tag", x->tag);
		cJSON_AddStringToObject(o, "host", x->host);
		cJSON_AddStringToObject(o, "started_at", x->started_at);
		cJSON_AddItemToArray(a, o);
	}
	if (fig)
		cJSON_AddItemToObject(root, "plots", figures_json(fig));
	if (!(text = cJSON_Print(root)))
		goto out;
	fprintf(f, "%s\n", text);
	ret = ferror(f) ? -1 : 0;
out:
	cJSON_free(text);
	cJSON_Delete(root);
	free(al);
	return ret;
}

/* --- CSV: one number (or one finding) per row --- */

static void csv_field(FILE *f, const char *s, int last)
{
	const char *p;

	s = s ? s : "";
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (p = s; *p; p++) {
			if (*p == '"')
				fputc('"', f);
			fputc(*p, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

enum {
	CSV_SECTION, CSV_MODEL, CSV_ENDPOINT, CSV_SPEC, CSV_ENGINE, CSV_NMAX, CSV_PROMPT,
	CSV_METRIC, CSV_VALUE, CSV_VERDICT, CSV_DELTA, CSV_SIGNIFICANT, CSV_BEST, CSV_RUN,
	CSV_TAG, CSV_DETAIL, CSV_NCOLS
};

static const char *const csv_head[CSV_NCOLS] = {
	"section", "model", "endpoint", "spec_type", "engine", "n_max", "prompt", "metric",
	"value", "verdict", "delta_pct", "significant", "best", "run", "tag", "detail",
};

struct csv_row {
	const char *v[CSV_NCOLS];
	char num[CSV_NCOLS][40];
};

static void csv_begin(struct csv_row *r, const char *section)
{
	memset(r, 0, sizeof(*r));
	r->v[CSV_SECTION] = section;
}

static void csv_num(struct csv_row *r, int col, const char *fmt, double v)
{
	if (!isfinite(v))
		return;
	snprintf(r->num[col], sizeof(r->num[col]), fmt, v);
	r->v[col] = r->num[col];
}

static void csv_i64(struct csv_row *r, int col, int64_t v)
{
	if (v == TPS_NULL)
		return;
	snprintf(r->num[col], sizeof(r->num[col]), "%lld", (long long)v);
	r->v[col] = r->num[col];
}

static void csv_end(FILE *f, const struct csv_row *r)
{
	int c;

	for (c = 0; c < CSV_NCOLS; c++)
		csv_field(f, r->v[c], c == CSV_NCOLS - 1);
}

static void csv_base(FILE *f, const struct tables *t)
{
	struct csv_row r;
	size_t i, e;
	int m;

	for (i = 0; i < t->n_base; i++) {
		for (e = 0; e < t->n_engines; e++) {
			const struct tables_base_cell *c = &t->base[i].cells[e];
			if (!c->present)
				continue;
			for (m = 0; m < 2; m++) {
				const struct tables_verdict *v = m ? &c->vtg : &c->vpp;
				csv_begin(&r, "base");
				r.v[CSV_MODEL] = t->base[i].model;
				r.v[CSV_ENDPOINT] = t->base[i].endpoint;
				r.v[CSV_ENGINE] = t->engines[e].label;
				r.v[CSV_METRIC] = m ? "tg" : "pp";
				csv_num(&r, CSV_VALUE, "%.2f", m ? c->tg : c->pp);
				if (t->ref && same(t->engines[e].label, t->ref)) {
					r.v[CSV_VERDICT] = "ref";
				} else if (c->forced) {
					r.v[CSV_VERDICT] = "not comparable";
				} else if (v->has) {
					r.v[CSV_VERDICT] = verdict_kind_name(v->v.kind);
					csv_num(&r, CSV_DELTA, "%.2f", v->v.delta_pct);
					r.v[CSV_SIGNIFICANT] = v->v.significant ? "1" : "0";
				}
				r.v[CSV_RUN] = c->run;
				r.v[CSV_TAG] = c->tag;
				csv_end(f, &r);
			}
		}
	}
}

static void csv_spec(FILE *f, const struct tables *t)
{
	struct csv_row r;
	size_t i, k;
	int m;

	for (i = 0; i < t->n_spec; i++) {
		for (k = 0; k < t->n_spec_cols; k++) {
			const struct tables_spec_cell *c = &t->spec[i].cells[k];
			if (!c->present)
				continue;
			for (m = 0; m < 2; m++) {
				csv_begin(&r, "speculative");
				r.v[CSV_MODEL] = t->spec[i].model;
				r.v[CSV_ENDPOINT] = t->spec[i].endpoint;
				r.v[CSV_SPEC] = t->spec[i].spec_type;
				r.v[CSV_ENGINE] = t->engines[t->spec_cols[k].engine].label;
				csv_i64(&r, CSV_NMAX, t->spec_cols[k].n_max);
				r.v[CSV_METRIC] = m ? "acceptance" : "tg";
				if (m)
					csv_num(&r, CSV_VALUE, "%.4f", c->accept);
				else
					csv_num(&r, CSV_VALUE, "%.2f", c->tg);
				r.v[CSV_BEST] = c->best ? "1" : "0";
				r.v[CSV_RUN] = c->run;
				r.v[CSV_TAG] = c->tag;
				csv_end(f, &r);
			}
		}
	}
}

static void csv_prompts(FILE *f, const struct tables *t)
{
	struct csv_row r;
	size_t i, k, c;

	for (i = 0; i < t->n_prompts; i++) {
		const struct tables_prompt_table *pt = &t->prompts[i];
		for (k = 0; k <= pt->n_prompts + 1; k++) {
			for (c = 0; c < pt->n_cols; c++) {
				csv_begin(&r, "prompt");
				r.v[CSV_MODEL] = pt->model;
				r.v[CSV_ENDPOINT] = pt->endpoint;
				r.v[CSV_SPEC] = pt->spec_type;
				r.v[CSV_ENGINE] = t->engines[pt->cols[c].engine].label;
				csv_i64(&r, CSV_NMAX, pt->cols[c].n_max);
				if (k < pt->n_prompts) {
					r.v[CSV_PROMPT] = pt->prompts[k];
					r.v[CSV_METRIC] = "acceptance";
					csv_num(&r, CSV_VALUE, "%.4f", pt->accept[k * pt->n_cols + c]);
				} else if (k == pt->n_prompts) {
					r.v[CSV_METRIC] = "acceptance";
					csv_num(&r, CSV_VALUE, "%.4f", pt->all[c]);
				} else {
					r.v[CSV_METRIC] = "tg";
					csv_num(&r, CSV_VALUE, "%.2f", pt->decode[c]);
				}
				csv_end(f, &r);
			}
		}
	}
}

int tables_write_csv(FILE *f, const struct tables *t)
{
	struct csv_row r;
	char **lines;
	size_t i, n;
	int c;

	for (c = 0; c < CSV_NCOLS; c++)
		csv_field(f, csv_head[c], c == CSV_NCOLS - 1);
	csv_base(f, t);
	csv_spec(f, t);
	csv_prompts(f, t);
	for (i = 0; i < t->n_findings; i++) {
		const struct tables_finding *fd = &t->findings[i];
		csv_begin(&r, "finding");
		r.v[CSV_MODEL] = fd->model;
		r.v[CSV_ENGINE] = fd->engine;
		r.v[CSV_METRIC] = fd->kind;
		csv_num(&r, CSV_VALUE, "%.0f", (double)fd->count);
		r.v[CSV_RUN] = fd->run;
		r.v[CSV_DETAIL] = fd->detail;
		csv_end(f, &r);
	}
	/* Alarms and warnings as their one-line texts, as in the markdown. */
	lines = quality_lines(t, &n);
	for (i = t->n_findings; i < n; i++) {
		csv_begin(&r, i < t->n_findings + t->n_alarms ? "alarm" : "warning");
		if (i < t->n_findings + t->n_alarms)
			r.v[CSV_METRIC] = t->alarms[i - t->n_findings].kind;
		r.v[CSV_DETAIL] = lines[i];
		csv_end(f, &r);
	}
	free_lines(lines, n);
	for (i = 0; i < t->n_runs; i++) {
		const struct tables_run *x = &t->runs[i];
		csv_begin(&r, "run");
		r.v[CSV_MODEL] = x->model;
		r.v[CSV_ENDPOINT] = x->endpoint;
		r.v[CSV_SPEC] = x->spec_type;
		r.v[CSV_ENGINE] = x->engine;
		csv_i64(&r, CSV_NMAX, x->n_max);
		r.v[CSV_RUN] = x->uuid;
		r.v[CSV_TAG] = x->tag;
		r.v[CSV_DETAIL] = x->started_at;
		csv_end(f, &r);
	}
	return ferror(f) ? -1 : 0;
}

/* --- figures --- */

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

static double *run_medians(const struct history_series *se, struct tables_arena *a)
{
	double *y = arena_calloc(a, se->n, sizeof(*y));
	size_t i;

	for (i = 0; i < se->n; i++)
		y[i] = stats_median(se->runs[i].values, se->runs[i].n);
	return y;
}

/* Where a figure's series goes: in the order of the engines asked for, else ours,
 * other, upstream and by label, the columns' order, so colours match the tables. */
static int series_before(const char *const *engines, size_t n, const char *la, const char *ra,
			 const char *lb, const char *rb)
{
	if (n) {
		size_t i, ia = n, ib = n;
		for (i = 0; i < n; i++) {
			if (ia == n && same(engines[i], la))
				ia = i;
			if (ib == n && same(engines[i], lb))
				ib = i;
		}
		if (ia != ib)
			return ia < ib;
	} else if (role_rank(ra) != role_rank(rb)) {
		return role_rank(ra) < role_rank(rb);
	}
	return strcmp(la, lb) < 0;
}

static const char *metric_name(int metric)
{
	return metric == CELL_PP ? "prefill tok/s (pp)" : "decode tok/s (tg)";
}

static int trend_series_wanted(const struct tables_trend_opts *o, const char *model,
			       const struct history_series *se)
{
	if (!same(se->model, model) || !same(se->spec_type, o->spec_type ? o->spec_type : "") ||
	    se->n_max != o->n_max)
		return 0;
	return !o->n_engines || in_list(o->engines, o->n_engines, se->engine);
}

/* The band from a frozen baseline: min..max of its run medians in this config,
 * widened to mean +/- max(2%, k x the stored floor) when that is wider. */
static int baseline_band(struct store *s, const struct tables_trend_opts *o, const char *model,
			 struct plot_trend *out, struct tables_arena *a)
{
	struct cell_filter cf = { 0 };
	struct history_series *h = NULL;
	size_t n = 0, i, k, m = 0;
	double lo = INFINITY, hi = -INFINITY, sum = 0, noise = 0;
	const char *endpoint = NULL;
	int got;

	cf.model = model;
	cf.baseline = o->baseline;
	if (store_history(s, &cf, o->metric, &h, &n) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (!same(h[i].spec_type, o->spec_type ? o->spec_type : "") || h[i].n_max != o->n_max)
			continue;
		endpoint = endpoint ? endpoint : h[i].endpoint;
		for (k = 0; k < h[i].n; k++) {
			double y = stats_median(h[i].runs[k].values, h[i].runs[k].n);
			lo = y < lo ? y : lo;
			hi = y > hi ? y : hi;
			sum += y;
			m++;
		}
	}
	if (m) {
		double mean = sum / (double)m;
		got = store_noise_get(s, model, o->spec_type ? o->spec_type : "", o->n_max,
				      TPS_NULL, TPS_NULL, endpoint, o->metric == CELL_PP ? "pp" : "tg",
				      &noise, NULL);
		if (got < 0) {
			history_free(h, n);
			return -1;
		}
		{
			/* At least the parity band (or k x the floor) around the mean:
			 * a baseline of one run has no spread of its own. */
			double pct = got > 0 && VERDICT_NOISE_K * noise > VERDICT_BAND_PCT ?
				VERDICT_NOISE_K * noise : VERDICT_BAND_PCT;
			double w = mean * pct / 100;
			lo = mean - w < lo ? mean - w : lo;
			hi = mean + w > hi ? mean + w : hi;
		}
		out->band_lo = lo;
		out->band_hi = hi;
		out->band_label = keep(a, tps_xasprintf("baseline %s (%zu runs)", o->baseline, m));
	} else {
		tps_warning("baseline '%s' holds no run of '%s' in this config: no band",
			    o->baseline, model);
	}
	history_free(h, n);
	return 0;
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

/* No baseline named: the first series' first segment (up to its first change
 * point) is the reference level, with the parity band or k x the stored floor. */
static int segment_band(struct store *s, const struct tables_trend_opts *o,
			const struct history_series *h, const struct plot_trend_series *p,
			struct plot_trend *out, struct tables_arena *a)
{
	size_t end = p->n_cp ? p->cp[0] : p->n;
	double mean = stats_mean(p->y, end), noise = 0, w = VERDICT_BAND_PCT;
	int got = store_noise_get(s, h->model, h->spec_type, h->n_max, TPS_NULL, TPS_NULL,
				  h->endpoint, o->metric == CELL_PP ? "pp" : "tg", &noise, NULL);

	if (got < 0)
		return -1;
	if (got > 0 && VERDICT_NOISE_K * noise > w)
		w = VERDICT_NOISE_K * noise;
	out->band_lo = mean * (1 - w / 100);
	out->band_hi = mean * (1 + w / 100);
	out->band_label = keep(a, tps_xasprintf("%s first segment +/-%.1f%%", h->engine, w));
	return 0;
}

int tables_trend(struct store *s, const struct tables_trend_opts *o, struct tables_arena *a,
		 struct plot_trend *out)
{
	struct cell_filter cf = { 0 };
	struct history_series *h = NULL;
	struct plot_trend_series *ps;
	const char *model = o->model;
	size_t n = 0, i, k, ns = 0, *ord = NULL;
	char *cfg;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	out->band_lo = out->band_hi = NAN;
	cf.model = o->model;
	cf.tag = o->tag;
	if (store_history(s, &cf, o->metric, &h, &n) < 0)
		goto out;
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
		struct changepoint *cps = NULL;
		size_t ncp = 0, *idx;
		double *x, *pct;
		p->label = same(se->endpoint, "completion") ? arena_strdup(a, se->engine) :
			keep(a, tps_xasprintf("%s (%s)", se->engine, se->endpoint));
		p->n = se->n;
		x = arena_calloc(a, se->n, sizeof(*x));
		for (k = 0; k < se->n; k++) {
			x[k] = iso_seconds(se->runs[k].started_at);
			if (!isfinite(x[k]))
				x[k] = k ? x[k - 1] + 1 : 0;
		}
		p->x = x;
		p->y = run_medians(se, a);
		if (changepoint_detect(p->y, p->n, NULL, &cps, &ncp) < 0) {
			tps_error("cannot search the history for change points");
			goto out;
		}
		idx = arena_calloc(a, ncp, sizeof(*idx));
		pct = arena_calloc(a, ncp, sizeof(*pct));
		for (k = 0; k < ncp; k++) {
			idx[k] = cps[k].index;
			pct[k] = cps[k].change_pct;
		}
		changepoint_free(cps);
		p->n_cp = ncp;
		p->cp = idx;
		p->cp_pct = pct;
	}
	out->series = ps;
	out->n_series = ns;
	if (o->baseline) {
		if (baseline_band(s, o, model, out, a) < 0)
			goto out;
	} else if (ns && segment_band(s, o, &h[ord[0]], &ps[0], out, a) < 0) {
		goto out;
	}
	cfg = config_label(o->spec_type ? o->spec_type : "", o->n_max, "");
	out->title = keep(a, tps_xasprintf("%s of %s, %s: median per run", metric_name(o->metric),
					   model, cfg));
	free(cfg);
	out->ylabel = metric_name(o->metric);
	ret = 0;
out:
	free(ord);
	history_free(h, n);
	return ret;
}

int tables_sweep(struct store *s, const char *const *engines, size_t n_engines,
		 const char *model, const char *spec_type, const char *tag,
		 struct tables_arena *a, struct plot_sweep *out)
{
	struct series_filter f;
	struct series_set set = { 0 };
	struct plot_sweep_series *ps;
	size_t i, k, ns = 0, *ord = NULL;

	memset(out, 0, sizeof(*out));
	series_filter_init(&f);
	f.tag = tag;
	if (series_load(s, &f, &set) < 0) {
		series_set_release(&set);
		return -1;
	}
	ord = tps_xcalloc(set.n ? set.n : 1, sizeof(*ord));
	for (i = 0; i < set.n; i++) {
		const struct series *se = &set.v[i];
		if (n_engines && !in_list(engines, n_engines, se->engine))
			continue;
		if (!model)
			model = arena_strdup(a, se->model);
		if (!spec_type && same(se->model, model))
			spec_type = arena_strdup(a, se->spec_type);
		if (same(se->model, model) && same(se->spec_type, spec_type))
			ord[ns++] = i;
	}
	order_series(ord, ns, engines, n_engines, ser_label, ser_role, set.v);
	ps = arena_calloc(a, ns, sizeof(*ps));
	for (i = 0; i < ns; i++) {
		const struct series *se = &set.v[ord[i]];
		int64_t *nm;
		double *tg, *ac;
		ps[i].label = same(se->endpoint, "completion") ? arena_strdup(a, se->engine) :
			keep(a, tps_xasprintf("%s (%s)", se->engine, se->endpoint));
		nm = arena_calloc(a, se->n_rungs, sizeof(*nm));
		tg = arena_calloc(a, se->n_rungs, sizeof(*tg));
		ac = arena_calloc(a, se->n_rungs, sizeof(*ac));
		for (k = 0; k < se->n_rungs; k++) {
			int64_t v = se->rungs[k].n_max;
			nm[k] = v == TPS_NULL || v < 0 ? 0 : v;
			tg[k] = se->rungs[k].rung.tg;
			ac[k] = se->rungs[k].point.acceptance;
		}
		ps[i].n = se->n_rungs;
		ps[i].n_max = nm;
		ps[i].tg = tg;
		ps[i].accept = ac;
	}
	out->series = ps;
	out->n_series = ns;
	out->title = model ? keep(a, tps_xasprintf("speculative sweep of %s, %s: decode tok/s and "
						     "acceptance by n_max", model,
						     same(spec_type, "") ? "spec" : spec_type)) : "";
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
		if (same(t->base[i].model, sr->model) && same(t->base[i].endpoint, sr->endpoint))
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
		p->n_max = nm;
		p->tg = tg;
		p->accept = ac;
		ns++;
	}
	out->series = ps;
	out->n_series = ns;
	out->title = keep(a, tps_xasprintf("speculative sweep of %s, %s: decode tok/s and "
					   "acceptance by n_max", sr->model,
					   same(sr->spec_type, "") ? "spec" : sr->spec_type));
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
		groups[ng++] = keep(a, model_label(t->base[i].model, t->base[i].endpoint));
	}
	for (e = 0; e < t->n_engines; e++) {
		if (!t->ref || !same(t->engines[e].label, t->ref))
			eng[ne++] = t->engines[e].label;
	}
	delta = arena_calloc(a, ne * ng, sizeof(*delta));
	lo = arena_calloc(a, ne * ng, sizeof(*lo));
	hi = arena_calloc(a, ne * ng, sizeof(*hi));
	for (e = 0; e < ne; e++) {
		long ei = engine_index(t, eng[e]);
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
	out->title = keep(a, tps_xasprintf("parity: %s delta %% against %s per model (95%% CI), "
					   "shaded: parity band", metric == CELL_PP ? "pp" : "tg",
					   t->ref ? t->ref : "-"));
	out->ylabel = keep(a, tps_xasprintf("%s delta %% vs %s", metric == CELL_PP ? "pp" : "tg",
					    t->ref ? t->ref : "-"));
}

int tables_parity(struct store *s, const char *const *engines, size_t n_engines,
		  const char *const *models, size_t n_models, const char *ref, const char *tag,
		  int metric, struct tables_arena *a, struct plot_parity *out)
{
	struct tables_opts o = { 0 };
	struct tables t;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	o.engines = engines;
	o.n_engines = n_engines;
	o.models = models;
	o.n_models = n_models;
	o.tag = tag;
	o.ref = ref;
	if (build(s, &o, &t, 0) < 0)
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
