/* report_json.c: the report as one JSON object (the keys are listed in the help of
 * 'tpsdb report'). Numbers are rounded a little past what the tables show, so a
 * golden file does not hang on the last bits of a floating-point sum; an absent
 * number is null. */
#include "reports/tables_int.h"
#include "reports/findings.h"
#include "reports/alarms.h"
#include "reports/json.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* v rounded to a multiple of unit, or null when it is not finite. */
static cJSON *num(double v, double unit)
{
	return isfinite(v) ? cJSON_CreateNumber(round(v / unit) * unit) : cJSON_CreateNull();
}

/* v rounded to a multiple of unit under k, null when it is not finite
 * (json_put_num()'s rule). */
static void put_rounded(cJSON *o, const char *k, double v, double unit)
{
	json_put_num(o, k, isfinite(v) ? round(v / unit) * unit : v);
}

/* The keys that name a speculative row or per-prompt table. */
static void put_config(cJSON *o, const char *model, const char *spec_type, const char *endpoint)
{
	cJSON_AddStringToObject(o, "model", model);
	cJSON_AddStringToObject(o, "spec_type", spec_type);
	cJSON_AddStringToObject(o, "endpoint", endpoint);
}

/* A verdict; without a reference it names its comparison first: "ours" (the
 * engine judged) and "vs" (the cell's engine). A spoiled one lists its findings
 * under "spoiled". */
static cJSON *verdict_json(const struct tables *t, const struct tables_verdict *v, size_t e)
{
	cJSON *o;
	unsigned b;

	if (!v->has)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	if (!t->ref && t->ours) {
		cJSON_AddStringToObject(o, "ours", t->ours);
		cJSON_AddStringToObject(o, "vs", t->engines[e].label);
	}
	cJSON_AddStringToObject(o, "verdict", verdict_kind_name(v->v.kind));
	json_put_regression(o, v->v.regression);
	if (v->v.kind == VERDICT_SPOILED) {
		cJSON *env = cJSON_AddArrayToObject(o, "spoiled");

		for (b = 1; b < RUN_ENV_FLAGS_END; b <<= 1) {
			if (v->v.spoiled & b)
				cJSON_AddItemToArray(env, cJSON_CreateString(record_env_flag_name(b)));
		}
		json_put_clean(o, &v->clean);
	}
	put_rounded(o, "delta_pct", v->v.delta_pct, 0.01);
	put_rounded(o, "ci_lo_pct", v->v.ci_lo_pct, 0.01);
	put_rounded(o, "ci_hi_pct", v->v.ci_hi_pct, 0.01);
	put_rounded(o, "band_pct", v->v.band_pct, 0.01);
	cJSON_AddNumberToObject(o, "n_pairs", (double)v->v.n_pairs);
	cJSON_AddBoolToObject(o, "significant", v->v.significant);
	cJSON_AddNumberToObject(o, "rounds", (double)v->v.rounds);
	cJSON_AddNumberToObject(o, "instances_ours", (double)v->v.instances_ours);
	cJSON_AddNumberToObject(o, "instances_vs", (double)v->v.instances_vs);
	put_rounded(o, "mde_pct", v->v.mde_pct, 0.01);
	cJSON_AddBoolToObject(o, "decided", v->v.decided);
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

static cJSON *engines_json(const struct tables *t)
{
	cJSON *a = cJSON_CreateArray();
	size_t e;

	for (e = 0; e < t->n_engines; e++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "label", t->engines[e].label);
		cJSON_AddStringToObject(o, "role", t->engines[e].role);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* m[0..n) as an array of strings. */
static cJSON *strings_json(const char *const *m, size_t n)
{
	cJSON *a = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(m[i]));
	return a;
}

/* Every machine of the runs that match: its engines and whether a number of the
 * report comes from its runs. */
static cJSON *machines_json(const struct tables *t)
{
	cJSON *a = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < t->n_machines; i++) {
		const struct study_machine *m = &t->machines[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "machine", m->machine);
		cJSON_AddBoolToObject(o, "used", m->used);
		cJSON_AddItemToObject(o, "engines", strings_json(m->engines, m->n_engines));
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static cJSON *base_cell_json(const struct tables *t, const struct tables_base_cell *c, size_t e)
{
	cJSON *x = cJSON_CreateObject();
	char reason[160];

	cJSON_AddStringToObject(x, "engine", t->engines[e].label);
	put_rounded(x, "pp", c->pp, 0.01);
	put_rounded(x, "tg", c->tg, 0.01);
	cJSON_AddStringToObject(x, "run", c->run);
	cJSON_AddStringToObject(x, "tag", c->tag);
	cJSON_AddBoolToObject(x, "reference", t->ref && study_same(t->engines[e].label, t->ref));
	cJSON_AddBoolToObject(x, "comparable", !c->forced);
	cJSON_AddItemToObject(x, "machines", strings_json(c->machines, c->n_machines));
	/* A cell whose runs are not comparable has no verdict, only its reason. */
	if (c->forced) {
		cJSON_AddItemToObject(x, "verdict_pp", cJSON_CreateNull());
		cJSON_AddItemToObject(x, "verdict_tg", cJSON_CreateNull());
		tables_reason(c, reason, sizeof(reason));
		cJSON_AddStringToObject(x, "reason", reason);
	} else {
		cJSON_AddItemToObject(x, "verdict_pp", verdict_json(t, &c->vpp, e));
		cJSON_AddItemToObject(x, "verdict_tg", verdict_json(t, &c->vtg, e));
	}
	return x;
}

/* The answers table (study.rows), the markdown's first block: each row names
 * its comparison ("ours" judged against "vs", with a reference the row's engine
 * against it), metric and model, and holds the cell's verdict as "base" does
 * (null where the cell is not comparable). */
static cJSON *answers_json(const struct tables *t)
{
	cJSON *a = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < t->n_rows; i++) {
		const struct study_answer_row *w = &t->rows[i];
		const struct tables_base_row *b = &t->base[w->base];
		cJSON *o = cJSON_CreateObject();

		json_put_str(o, "ours", t->ref ? t->engines[w->engine].label : t->ours);
		json_put_str(o, "vs", t->ref ? t->ref : t->engines[w->engine].label);
		cJSON_AddStringToObject(o, "metric", w->metric == STUDY_TG ? "tg" : "pp");
		cJSON_AddStringToObject(o, "model", b->model);
		cJSON_AddStringToObject(o, "endpoint", b->endpoint);
		cJSON_AddBoolToObject(o, "comparable", !w->forced);
		cJSON_AddItemToObject(o, "machines", strings_json(w->machines, w->n_machines));
		cJSON_AddItemToObject(o, "verdict", w->forced ? cJSON_CreateNull() :
					  verdict_json(t, w->tv, w->engine));
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static cJSON *base_json(const struct tables *t)
{
	cJSON *a = cJSON_CreateArray();
	size_t i, e;

	for (i = 0; i < t->n_base; i++) {
		const struct tables_base_row *row = &t->base[i];
		cJSON *o = cJSON_CreateObject(), *cells;
		cJSON_AddStringToObject(o, "model", row->model);
		cJSON_AddStringToObject(o, "endpoint", row->endpoint);
		cells = cJSON_AddArrayToObject(o, "cells");
		for (e = 0; e < t->n_engines; e++) {
			if (row->cells[e].present)
				cJSON_AddItemToArray(cells, base_cell_json(t, &row->cells[e], e));
		}
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static cJSON *spec_json(const struct tables *t)
{
	cJSON *o = cJSON_CreateObject(), *a;
	size_t i, k;

	cJSON_AddItemToObject(o, "columns", cols_json(t, t->spec_cols, t->n_spec_cols));
	a = cJSON_AddArrayToObject(o, "rows");
	for (i = 0; i < t->n_spec; i++) {
		const struct tables_spec_row *row = &t->spec[i];
		cJSON *r = cJSON_CreateObject(), *cells;
		put_config(r, row->model, row->spec_type, row->endpoint);
		cells = cJSON_AddArrayToObject(r, "cells");
		for (k = 0; k < t->n_spec_cols; k++) {
			const struct tables_spec_cell *c = &row->cells[k];
			cJSON *x;
			if (!c->present)
				continue;
			x = cJSON_CreateObject();
			cJSON_AddStringToObject(x, "engine", t->engines[t->spec_cols[k].engine].label);
			cJSON_AddNumberToObject(x, "n_max", (double)t->spec_cols[k].n_max);
			put_rounded(x, "tg", c->tg, 0.01);
			put_rounded(x, "acceptance", c->accept, 1e-4);
			cJSON_AddBoolToObject(x, "best", c->best);
			cJSON_AddStringToObject(x, "run", c->run);
			cJSON_AddStringToObject(x, "tag", c->tag);
			json_put_str(x, "machine", c->machine);
			cJSON_AddItemToArray(cells, x);
		}
		cJSON_AddItemToArray(a, r);
	}
	return o;
}

/* n numbers of v, each rounded to unit. */
static cJSON *nums_json(const double *v, size_t n, double unit)
{
	cJSON *a = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(a, num(v[i], unit));
	return a;
}

static cJSON *prompts_json(const struct tables *t)
{
	cJSON *a = cJSON_CreateArray();
	size_t i, k;

	for (i = 0; i < t->n_prompts; i++) {
		const struct tables_prompt_table *pt = &t->prompts[i];
		cJSON *p = cJSON_CreateObject(), *rows;
		put_config(p, pt->model, pt->spec_type, pt->endpoint);
		cJSON_AddItemToObject(p, "columns", cols_json(t, pt->cols, pt->n_cols));
		rows = cJSON_AddArrayToObject(p, "rows");
		for (k = 0; k < pt->n_prompts; k++) {
			cJSON *r = cJSON_CreateObject();
			cJSON_AddStringToObject(r, "prompt", pt->prompts[k]);
			cJSON_AddItemToObject(r, "acceptance",
					      nums_json(&pt->accept[k * pt->n_cols], pt->n_cols, 1e-4));
			cJSON_AddItemToArray(rows, r);
		}
		cJSON_AddItemToObject(p, "all", nums_json(pt->all, pt->n_cols, 1e-4));
		cJSON_AddItemToObject(p, "decode", nums_json(pt->decode, pt->n_cols, 0.01));
		cJSON_AddItemToArray(a, p);
	}
	return a;
}

static cJSON *runs_json(const struct tables *t)
{
	cJSON *a = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < t->n_runs; i++) {
		const struct tables_run *x = &t->runs[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "run", x->uuid);
		cJSON_AddStringToObject(o, "engine", x->engine);
		cJSON_AddStringToObject(o, "role", x->role);
		cJSON_AddStringToObject(o, "model", x->model);
		cJSON_AddStringToObject(o, "spec_type", x->spec_type);
		json_put_i64(o, "n_max", x->n_max);
		cJSON_AddStringToObject(o, "endpoint", x->endpoint);
		cJSON_AddStringToObject(o, "tag", x->tag);
		cJSON_AddStringToObject(o, "host", x->host);
		cJSON_AddStringToObject(o, "machine", x->machine);
		cJSON_AddStringToObject(o, "started_at", x->started_at);
		cJSON_AddStringToObject(o, "build", x->build);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static cJSON *figures_json(const struct tables_figures *fig)
{
	cJSON *o = cJSON_CreateObject();

	json_put_str(o, "trend", fig->trend);
	json_put_str(o, "sweep", fig->sweep);
	json_put_str(o, "parity", fig->parity);
	json_put_str(o, "trend_pp", fig->trend_pp);
	json_put_str(o, "parity_pp", fig->parity_pp);
	if (fig->note)
		cJSON_AddStringToObject(o, "note", fig->note);
	return o;
}

int tables_write_json(FILE *f, const struct tables *t, const struct tables_figures *fig)
{
	cJSON *root = cJSON_CreateObject(), *a;
	char *text = NULL;
	size_t i;
	int ret = -1;

	json_put_str(root, "reference", t->ref);
	/* Without a reference: the engine whose verdicts against each other engine
	 * the cells hold. */
	if (!t->ref)
		json_put_str(root, "ours", t->ours);
	cJSON_AddItemToObject(root, "engines", engines_json(t));
	cJSON_AddItemToObject(root, "machines", machines_json(t));
	cJSON_AddItemToObject(root, "answers", answers_json(t));
	cJSON_AddItemToObject(root, "base", base_json(t));
	cJSON_AddItemToObject(root, "speculative", spec_json(t));
	cJSON_AddItemToObject(root, "prompts", prompts_json(t));
	cJSON_AddItemToObject(root, "findings", findings_json(&t->findings));
	cJSON_AddItemToObject(root, "alarms", alarms_json(t->alarms, t->n_alarms));
	a = cJSON_AddArrayToObject(root, "warnings");
	for (i = 0; i < t->n_warnings; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(t->warnings[i]));
	cJSON_AddItemToObject(root, "runs", runs_json(t));
	if (fig)
		cJSON_AddItemToObject(root, "plots", figures_json(fig));
	if (!(text = json_print(root)))
		goto out;
	fprintf(f, "%s\n", text);
	ret = ferror(f) ? -1 : 0;
out:
	cJSON_free(text);
	cJSON_Delete(root);
	return ret;
}
