/* tables.c: builds the study's tables from the latest run of every cell, step by
 * step (base, verdicts, speculative and per-prompt, runs, findings: one table_*.c
 * each), and frees them; also the vocabulary those steps and the writers share:
 * which engines are columns, in what order, and how a model or config is named. */
#include "reports/tables_int.h"
#include "reports/strv.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int tables_same(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

int tables_in_list(const char *const *v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (tables_same(v[i], s))
			return 1;
	}
	return 0;
}

/* ours first, then other engines, the upstream reference last (the study's order). */
int tables_role_rank(const char *role)
{
	if (tables_same(role, "ours"))
		return 0;
	if (tables_same(role, "upstream"))
		return 2;
	return 1;
}

static int engine_cmp(const void *pa, const void *pb)
{
	const struct tables_engine *a = pa, *b = pb;
	int ra = tables_role_rank(a->role), rb = tables_role_rank(b->role);

	if (ra != rb)
		return ra < rb ? -1 : 1;
	return strcmp(a->label, b->label);
}

long tables_engine_index(const struct tables *t, const char *label)
{
	size_t i;

	for (i = 0; i < t->n_engines; i++) {
		if (tables_same(t->engines[i].label, label))
			return (long)i;
	}
	return -1;
}

int tables_wanted(const struct tables_opts *o, const char *engine, const char *model)
{
	if (o->n_models && !tables_in_list(o->models, o->n_models, model))
		return 0;
	if (o->n_engines && !tables_in_list(o->engines, o->n_engines, engine) &&
	    !tables_same(engine, o->ref))
		return 0;
	return 1;
}

int tables_series_shown(const struct tables_opts *o, const struct tables *t,
			const struct series *se)
{
	return tables_wanted(o, se->engine, se->model) && tables_engine_index(t, se->engine) >= 0;
}

char *tables_model_label(const char *model, const char *endpoint)
{
	if (tables_same(endpoint, "completion") || tables_same(endpoint, ""))
		return tps_xstrdup(model);
	return tps_xasprintf("%s (%s)", model, endpoint);
}

const char *tables_spec_name(const char *spec_type)
{
	return tables_same(spec_type, "") ? "spec" : spec_type;
}

char *tables_config_label(const char *spec_type, int64_t n_max, const char *endpoint)
{
	char *base, *ret;

	if (n_max == TPS_NULL && tables_same(spec_type, ""))
		base = tps_xstrdup("base");
	else if (n_max == TPS_NULL)
		base = tps_xasprintf("%s base", spec_type);
	else
		base = tps_xasprintf("%s n_max=%lld", tables_spec_name(spec_type),
				     (long long)n_max);
	if (tables_same(endpoint, "completion") || tables_same(endpoint, ""))
		return base;
	ret = tps_xasprintf("%s (%s)", base, endpoint);
	free(base);
	return ret;
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
				if (tables_same(r[i].engine, o->engines[k]) &&
				    tables_wanted(o, r[i].engine, r[i].model))
					hit = &r[i];
			}
			if (!hit)
				return tps_error("no runs of engine '%s' match", o->engines[k]);
			if (tables_engine_index(t, o->engines[k]) < 0)
				add_engine(t, hit->engine, hit->role);
		}
	} else {
		for (i = 0; i < n; i++) {
			if (tables_wanted(o, r[i].engine, r[i].model) &&
			    tables_engine_index(t, r[i].engine) < 0)
				add_engine(t, r[i].engine, r[i].role);
		}
		if (t->n_engines > 1)
			qsort(t->engines, t->n_engines, sizeof(*t->engines), engine_cmp);
	}
	if (o->ref) {
		for (i = 0; i < n; i++) {
			if (tables_same(r[i].engine, o->ref) && tables_wanted(o, r[i].engine, r[i].model))
				break;
		}
		if (i == n)
			return tps_error("no runs of the reference engine '%s' match", o->ref);
		t->ref = tps_xstrdup(o->ref);
		return 0;
	}
	for (i = 0; i < t->n_engines && !t->ref; i++) {
		if (tables_same(t->engines[i].role, "upstream"))
			t->ref = tps_xstrdup(t->engines[i].label);
	}
	/* An upstream engine left out of the columns is still the reference. */
	for (i = 0; i < n && !t->ref; i++) {
		if (tables_same(r[i].role, "upstream") &&
		    (!o->n_models || tables_in_list(o->models, o->n_models, r[i].model)))
			t->ref = tps_xstrdup(r[i].engine);
	}
	return 0;
}

/* The whole report, or (full 0) only the engines and the base table with its
 * verdicts. */
static int build(const struct tables_opts *o, const struct report_input *in, struct tables *t,
		 int full)
{
	memset(t, 0, sizeof(*t));
	if (pick_engines(t, o, in->runs, in->n_runs) < 0 || tables_build_base(o, t, in) < 0 ||
	    tables_build_verdicts(o, t, in) < 0)
		return -1;
	if (full) {
		if (tables_build_spec(o, t, in) < 0)
			return -1;
		tables_build_runs(t, in->runs, in->n_runs);
		if (tables_build_findings(o, t, in) < 0)
			return -1;
	}
	return 0;
}

int tables_build(const struct tables_opts *o, const struct report_input *in, struct tables *t)
{
	return build(o, in, t, 1);
}

int tables_build_base_only(const struct tables_opts *o, const struct report_input *in,
			   struct tables *t)
{
	return build(o, in, t, 0);
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
	findings_release(&t->findings);
	strv_free(t->warnings, t->n_warnings);
	for (i = 0; i < t->n_runs; i++) {
		struct tables_run *x = &t->runs[i];
		free(x->engine); free(x->role); free(x->model); free(x->spec_type);
		free(x->endpoint); free(x->tag); free(x->started_at); free(x->host);
	}
	free(t->runs);
	free(t->ref);
	memset(t, 0, sizeof(*t));
}
