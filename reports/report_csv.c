/* report_csv.c: the report as CSV, one number (or one finding, alarm, warning or
 * run) per row under one fixed header, so a spreadsheet or a script can filter the
 * whole study by column without knowing its layout. */
#include "reports/tables_int.h"
#include "reports/csv.h"
#include "reports/findings.h"
#include "reports/parity.h"
#include "reports/strv.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void csv_field(FILE *f, const char *s, int last)
{
	csv_put(f, s);
	fputc(last ? '\n' : ',', f);
}

enum {
	CSV_SECTION, CSV_MODEL, CSV_ENDPOINT, CSV_SPEC, CSV_ENGINE, CSV_NMAX, CSV_PROMPT,
	CSV_METRIC, CSV_VALUE, CSV_VERDICT, CSV_REGRESSION, CSV_DELTA, CSV_SIGNIFICANT, CSV_BEST, CSV_RUN,
	CSV_TAG, CSV_DETAIL, CSV_NCOLS
};

static const char *const csv_head[CSV_NCOLS] = {
	"section", "model", "endpoint", "spec_type", "engine", "n_max", "prompt", "metric",
	"value", "verdict", "regression", "delta_pct", "significant", "best", "run", "tag", "detail",
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

/* A row about one cell of a table: what names it, n_max TPS_NULL for none. */
static void csv_begin_cell(struct csv_row *r, const char *section, const char *model,
			   const char *endpoint, const char *spec_type, const char *engine,
			   int64_t n_max)
{
	csv_begin(r, section);
	r->v[CSV_MODEL] = model;
	r->v[CSV_ENDPOINT] = endpoint;
	r->v[CSV_SPEC] = spec_type;
	r->v[CSV_ENGINE] = engine;
	csv_i64(r, CSV_NMAX, n_max);
}

static void csv_end(FILE *f, const struct csv_row *r)
{
	int c;

	for (c = 0; c < CSV_NCOLS; c++)
		csv_field(f, r->v[c], c == CSV_NCOLS - 1);
}

/* A base row's verdict columns. Without a reference the verdict is ours' against
 * the row's engine, and the detail says so ("ours vs llama.cpp"); a spoiled one
 * is "spoiled" with its findings in the detail ("spoiled (host-busy)"). detail
 * holds the text. */
static void csv_verdict(struct csv_row *r, const struct tables *t, size_t e,
			const struct tables_verdict *v, char *detail, size_t len)
{
	char env[160] = "";
	size_t at = 0;

	r->v[CSV_VERDICT] = verdict_kind_name(v->v.kind);
	r->v[CSV_REGRESSION] = verdict_regression_name(v->v.regression);
	csv_num(r, CSV_DELTA, "%.2f", v->v.delta_pct);
	r->v[CSV_SIGNIFICANT] = v->v.significant ? "1" : "0";
	detail[0] = '\0';
	if (!t->ref && t->ours)
		at = (size_t)snprintf(detail, len, "%s vs %s", t->ours, t->engines[e].label);
	if (v->v.kind == VERDICT_SPOILED && at < len) {
		parity_env_names(v->v.spoiled, env, sizeof(env));
		snprintf(detail + at, len - at, "%sspoiled (%s)", at ? ": " : "", env);
	}
	if (detail[0])
		r->v[CSV_DETAIL] = detail;
}

static void csv_base(FILE *f, const struct tables *t)
{
	struct csv_row r;
	char detail[512];
	size_t i, e;
	int m;

	for (i = 0; i < t->n_base; i++) {
		for (e = 0; e < t->n_engines; e++) {
			const struct tables_base_cell *c = &t->base[i].cells[e];
			if (!c->present)
				continue;
			for (m = 0; m < 2; m++) {
				const struct tables_verdict *v = m ? &c->vtg : &c->vpp;
				csv_begin_cell(&r, "base", t->base[i].model, t->base[i].endpoint, NULL,
					       t->engines[e].label, TPS_NULL);
				r.v[CSV_METRIC] = m ? "tg" : "pp";
				csv_num(&r, CSV_VALUE, "%.2f", m ? c->tg : c->pp);
				if (t->ref && study_same(t->engines[e].label, t->ref)) {
					r.v[CSV_VERDICT] = "ref";
				} else if (!t->ref && t->ours &&
					   study_same(t->engines[e].label, t->ours)) {
					r.v[CSV_VERDICT] = "ours";
				} else if (c->forced) {
					r.v[CSV_VERDICT] = "not comparable";
					if (!t->ref && t->ours) {
						snprintf(detail, sizeof(detail), "%s vs %s", t->ours,
							 t->engines[e].label);
						r.v[CSV_DETAIL] = detail;
					}
				} else if (v->has) {
					csv_verdict(&r, t, e, v, detail, sizeof(detail));
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
				csv_begin_cell(&r, "speculative", t->spec[i].model, t->spec[i].endpoint,
					       t->spec[i].spec_type,
					       t->engines[t->spec_cols[k].engine].label,
					       t->spec_cols[k].n_max);
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
				csv_begin_cell(&r, "prompt", pt->model, pt->endpoint, pt->spec_type,
					       t->engines[pt->cols[c].engine].label, pt->cols[c].n_max);
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
	for (i = 0; i < t->findings.n; i++) {
		const struct finding *fd = &t->findings.v[i];
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
	lines = tables_quality_lines(t, &n);
	for (i = t->findings.n; i < n; i++) {
		csv_begin(&r, i < t->findings.n + t->n_alarms ? "alarm" : "warning");
		if (i < t->findings.n + t->n_alarms)
			r.v[CSV_METRIC] = t->alarms[i - t->findings.n].kind;
		r.v[CSV_DETAIL] = lines[i];
		csv_end(f, &r);
	}
	strv_free(lines, n);
	for (i = 0; i < t->n_runs; i++) {
		const struct tables_run *x = &t->runs[i];
		csv_begin_cell(&r, "run", x->model, x->endpoint, x->spec_type, x->engine, x->n_max);
		r.v[CSV_RUN] = x->uuid;
		r.v[CSV_TAG] = x->tag;
		r.v[CSV_DETAIL] = x->started_at;
		csv_end(f, &r);
	}
	/* Several machines: one row each and engine it measured, value 1 when a
	 * number comes from its runs (one machine: none, as before). */
	for (i = 0; t->n_machines > 1 && i < t->n_machines; i++) {
		const struct study_machine *m = &t->machines[i];

		for (n = 0; n < m->n_engines; n++) {
			csv_begin(&r, "machine");
			r.v[CSV_ENGINE] = m->engines[n];
			r.v[CSV_METRIC] = "used";
			r.v[CSV_VALUE] = m->used ? "1" : "0";
			r.v[CSV_DETAIL] = m->machine;
			csv_end(f, &r);
		}
	}
	return ferror(f) ? -1 : 0;
}
