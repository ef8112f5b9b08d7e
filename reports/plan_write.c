/* plan_write.c: renders `tpsdb plan`: one table built once (md_table) and written
 * as text or markdown, the sentences for rows without a design, and the JSON. It
 * decides nothing: every figure comes from analyze/plan.c. */
#include "reports/plan_write.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "reports/json.h"
#include "reports/md.h"
#include "reports/table.h"
#include "reports/parity.h"
#include "schema/record.h"
#include "tpsdb.h"

static const char *metric_name(enum plan_metric m)
{
	return m == PLAN_PP ? "pp" : "tg";
}

static const char *status_name(enum plan_status s)
{
	switch (s) {
	case PLAN_OK: return "ok";
	case PLAN_FEW_INSTANCES: return "too-few-instances";
	case PLAN_FEW_REQUESTS: return "too-few-requests";
	case PLAN_NO_COST: return "no-cost";
	}
	return "ok";
}

static void cell_name(const struct plan_cell *c, char *buf, size_t len)
{
	size_t at;

	parity_cell_name(c->model, c->spec_type, c->n_max, c->endpoint, buf, len);
	at = strlen(buf);
	if (c->config && *c->config && at < len)
		snprintf(buf + at, len - at, " {%s}", c->config);
}

/* Why a row has no design, one sentence; heap, caller frees; NULL for PLAN_OK. */
static char *reason(const struct plan_row *w, const char *const side[2])
{
	const char *who = side[w->short_side] ? side[w->short_side] : "";
	size_t got = w->inst[w->short_side];

	switch (w->status) {
	case PLAN_OK:
		return NULL;
	case PLAN_FEW_INSTANCES:
		return tps_xasprintf("too little data: '%s' has %zu instance%s with usable %s "
				     "values in this cell, and the between-instance part needs 2 "
				     "a side",
				     who, got, got == 1 ? "" : "s", metric_name(w->metric));
	case PLAN_FEW_REQUESTS:
		return tps_xasprintf("too little data: no degree of freedom is left for the "
				     "within-instance part once each (prompt, rep) slot's own level "
				     "is taken out (df %.0f)",
				     w->df_w);
	case PLAN_NO_COST:
		return tps_xasprintf("cost unknown: no complete run here has an end time and a "
				     "wall_ms on every request");
	}
	return NULL;
}

/* The design, its rounds and its server time into columns col (when with_design)
 * and after; "-" for a row without a design. */
static void design_cells(struct md_table *t, size_t row, size_t col, const struct plan_row *w,
			 const struct plan_design *d, int with_design)
{
	char b[32];

	if (with_design) {
		if (w->status == PLAN_OK)
			md_table_setf(t, row, col, "%zux%zu", d->prompts, d->reps);
		else
			md_table_set(t, row, col, "-");
		col++;
	}
	if (w->status != PLAN_OK) {
		md_table_set(t, row, col, "-");
		md_table_set(t, row, col + 1, "-");
		return;
	}
	if (d->rounds)
		md_table_setf(t, row, col, "%zu", d->rounds);
	else
		md_table_setf(t, row, col, ">%d", PLAN_MAX_ROUNDS);
	md_num(b, sizeof(b), "%.1f", d->server_s);
	md_table_set(t, row, col + 1, b);
}

enum { C_CELL, C_METRIC, C_INST, C_REQ, C_SW, C_SB, C_CINST, C_CREQ, C_MSTAR, C_PLAN,
       C_ROUNDS, C_TIME, C_DROUNDS, C_DTIME, C_RATIO, NCOLS };

static void fill(struct table *tt, const struct plan_result *r, const struct plan_opts *o)
{
	static const char *const head[NCOLS] = { "CELL", "METRIC", "INST", "REQ", "SD_W%",
		"SD_B%", "INST_S", "REQ_S", "M*", "PLAN", "ROUNDS", "SERVER_S" };
	struct md_table *t = &tt->t;
	size_t i, j;

	table_init(tt, NCOLS);
	for (j = 0; j < NCOLS; j++)
		table_col(tt, j, j >= C_INST ? TABLE_NUMBER : TABLE_LABEL,
			  j < C_DROUNDS ? head[j] : "", 0);
	md_table_setf(t, 0, C_DROUNDS, "ROUNDS_%zux%zu", o->default_prompts, o->default_reps);
	md_table_setf(t, 0, C_DTIME, "SERVER_S_%zux%zu", o->default_prompts, o->default_reps);
	md_table_setf(t, 0, C_RATIO, "%zux%zu/PLAN", o->default_prompts, o->default_reps);
	for (i = 0; i < r->n_rows; i++) {
		const struct plan_row *w = &r->rows[i];
		size_t row = md_table_add_row(t);
		char b[256];

		cell_name(w->cell, b, sizeof(b));
		md_table_set(t, row, C_CELL, b);
		md_table_set(t, row, C_METRIC, metric_name(w->metric));
		md_table_setf(t, row, C_INST, "%zu", w->n_inst);
		md_table_setf(t, row, C_REQ, "%zu", w->n_req);
		md_num(b, sizeof(b), "%.2f", w->sw_pct);
		md_table_set(t, row, C_SW, b);
		md_num(b, sizeof(b), "%.2f", w->sb_pct);
		md_table_set(t, row, C_SB, b);
		md_num(b, sizeof(b), "%.2f", w->c_inst_ms / 1000);
		md_table_set(t, row, C_CINST, b);
		md_num(b, sizeof(b), "%.3f", w->c_req_ms / 1000);
		md_table_set(t, row, C_CREQ, b);
		if (isinf(w->m_star))
			snprintf(b, sizeof(b), "inf");
		else
			md_num(b, sizeof(b), "%.1f", w->m_star);
		md_table_set(t, row, C_MSTAR, b);
		design_cells(t, row, C_PLAN, w, &w->best, 1);
		design_cells(t, row, C_DROUNDS, w, &w->deflt, 0);
		md_num(b, sizeof(b), "%.2f", w->cost_ratio);
		md_table_set(t, row, C_RATIO, b);
	}
}

/* The per-cell table: one design for both metrics. */
static void fill_both(struct table *tt, const struct plan_result *r, const struct plan_opts *o)
{
	static const char *const head[] = { "CELL", "PLAN", "ROUNDS", "SERVER_S" };
	struct md_table *t = &tt->t;
	size_t j;
	size_t i;

	table_init(tt, 7);
	for (j = 0; j < 7; j++)
		table_col(tt, j, j >= 1 ? TABLE_NUMBER : TABLE_LABEL, j < 4 ? head[j] : "", 0);
	md_table_setf(t, 0, 4, "ROUNDS_%zux%zu", o->default_prompts, o->default_reps);
	md_table_setf(t, 0, 5, "SERVER_S_%zux%zu", o->default_prompts, o->default_reps);
	md_table_setf(t, 0, 6, "%zux%zu/PLAN", o->default_prompts, o->default_reps);
	for (i = 0; i < r->n_cells; i++) {
		const struct plan_both *c = &r->cells[i];
		struct plan_row w = { 0 };
		size_t row = md_table_add_row(t);
		char b[256];

		/* design_cells() reads only the status of the row it is given. */
		w.status = c->ok ? PLAN_OK : PLAN_NO_COST;
		cell_name(c->cell, b, sizeof(b));
		md_table_set(t, row, 0, b);
		design_cells(t, row, 1, &w, &c->best, 1);
		design_cells(t, row, 4, &w, &c->deflt, 0);
		md_num(b, sizeof(b), "%.2f", c->cost_ratio);
		md_table_set(t, row, 6, b);
	}
}

/* One line of prose, escaped for its sink. */
static void line(FILE *f, int md, const char *text)
{
	char *e = md ? escape_md(text) : escape_text(text);

	fprintf(f, "%s%s\n", md ? "- " : "", e);
	free(e);
}

void plan_write_table(FILE *f, const struct plan_result *r, const char *const side[2],
		      const struct plan_opts *o, enum table_format fmt)
{
	int md = fmt == TABLE_FMT_MD;
	struct table t;
	size_t i, most = 0;
	char *s;

	if (fmt == TABLE_FMT_CSV) {
		/* The table of cells and metrics alone: a CSV is one table. */
		fill(&t, r, o);
		table_write(f, &t, fmt);
		table_release(&t);
		return;
	}

	if (side[1])
		s = tps_xasprintf("plan for %s vs %s: the rounds (one instance of each engine) "
				  "for a 95%% interval of +-%.2f%%, from %zu cell%s of stored runs",
				  side[0], side[1], r->mde_pct, r->n_rows / PLAN_N_METRICS,
				  r->n_rows / PLAN_N_METRICS == 1 ? "" : "s");
	else
		s = tps_xasprintf("plan for %s (both engines of a comparison assumed alike): the "
				  "rounds for a 95%% interval of +-%.2f%%, from %zu cell%s of stored "
				  "runs",
				  side[0], r->mde_pct, r->n_rows / PLAN_N_METRICS,
				  r->n_rows / PLAN_N_METRICS == 1 ? "" : "s");
	if (md) {
		char *e = escape_md(s);
		fprintf(f, "### tpsdb plan\n\n%s\n\n", e);
		free(e);
	} else {
		line(f, 0, s);
		fputc('\n', f);
	}
	free(s);
	fill(&t, r, o);
	t.rule = 1;
	table_write(f, &t, fmt);
	table_release(&t);
	fputc('\n', f);
	line(f, 0, "both metrics from one design, as one collect measures both: every "
		   "prompts x reps of at most 32 requests and the prompts asked (all of them "
		   "for a speculative cell) searched for the least server time, at the rounds "
		   "the worse metric needs");
	fputc('\n', f);
	fill_both(&t, r, o);
	t.rule = 1;
	table_write(f, &t, fmt);
	table_release(&t);
	fputc('\n', f);
	for (i = 0; i < r->n_rows; i++) {
		const struct plan_row *w = &r->rows[i];
		char name[256], *why = reason(w, side);

		if (w->cell->n_prompts > most)
			most = w->cell->n_prompts;
		if (!why)
			continue;
		cell_name(w->cell, name, sizeof(name));
		s = tps_xasprintf("%s %s: %s", name, metric_name(w->metric), why);
		line(f, md, s);
		free(s);
		free(why);
	}
	for (i = 0; i < r->n_rows; i++) {
		const struct plan_row *w = &r->rows[i];
		char name[256];

		if (!w->capped)
			continue;
		cell_name(w->cell, name, sizeof(name));
		s = tps_xasprintf("%s %s: M* is beyond %d requests per instance (%s), so PLAN "
				  "is the design of at most %d with the least server time; %zu "
				  "instances are little to rule a between-instance part out",
				  name, metric_name(w->metric), PLAN_MAX_REQUESTS,
				  w->sb_pct > 0 ? "SD_B is small" : "no between-instance variance "
				  "shows: SD_B 0", PLAN_MAX_REQUESTS, w->n_inst);
		line(f, md, s);
		free(s);
	}
	s = tps_xasprintf("SD_W: request to request within an instance, SD_B: instance to "
			  "instance, on the log scale (x100, about %%), after each (prompt, rep) "
			  "slot's own level; INST_S: an instance's time outside its requests (start, "
			  "load, warm-up), REQ_S: the median request");
	line(f, md, s);
	free(s);
	line(f, md, "M* = sqrt(INST_S x SD_W^2 / (REQ_S x SD_B^2)), Kalibera and Jones (ISMM "
		    "2013); one round's log ratio has variance 2 (SD_B^2 + SD_W^2 / m) for m "
		    "requests an instance; SERVER_S = rounds x 2 x (INST_S + m x REQ_S)");
	s = tps_xasprintf("PLAN is prompts x reps, prompts first (up to the %zu prompt%s these "
			  "runs asked): speculative acceptance depends on the prompt, so another "
			  "prompt tells more than another repetition of one, and a speculative "
			  "cell keeps every prompt it asked; M* is Kalibera and Jones' cost x "
			  "variance optimum, the per-cell table the least server time once rounds "
			  "are whole and few (the t quantile of few rounds is large)",
			  most, most == 1 ? "" : "s");
	line(f, md, s);
	free(s);
}

static void put_design(cJSON *o, const char *k, const struct plan_row *w,
		       const struct plan_design *d)
{
	cJSON *x;

	if (w->status != PLAN_OK) {
		cJSON_AddNullToObject(o, k);
		return;
	}
	x = cJSON_AddObjectToObject(o, k);
	cJSON_AddNumberToObject(x, "prompts", (double)d->prompts);
	cJSON_AddNumberToObject(x, "reps", (double)d->reps);
	cJSON_AddNumberToObject(x, "requests", (double)(d->prompts * d->reps));
	json_put_num(x, "round_sd_pct", d->round_sd_pct);
	if (d->rounds)
		cJSON_AddNumberToObject(x, "rounds", (double)d->rounds);
	else
		cJSON_AddNullToObject(x, "rounds");
	json_put_num(x, "server_s", d->server_s);
}

int plan_write_json(FILE *f, const struct plan_result *r, const char *const side[2],
		    const struct plan_opts *o)
{
	cJSON *root = cJSON_CreateObject(), *sides, *def, *rows;
	size_t i;

	json_put_num(root, "mde_pct", r->mde_pct);
	sides = cJSON_AddArrayToObject(root, "sides");
	cJSON_AddItemToArray(sides, cJSON_CreateString(side[0]));
	if (side[1])
		cJSON_AddItemToArray(sides, cJSON_CreateString(side[1]));
	def = cJSON_AddObjectToObject(root, "default_design");
	cJSON_AddNumberToObject(def, "prompts", (double)o->default_prompts);
	cJSON_AddNumberToObject(def, "reps", (double)o->default_reps);
	cJSON_AddNumberToObject(root, "max_requests", PLAN_MAX_REQUESTS);
	rows = cJSON_AddArrayToObject(root, "rows");
	for (i = 0; i < r->n_rows; i++) {
		const struct plan_row *w = &r->rows[i];
		const struct plan_cell *c = w->cell;
		cJSON *x = cJSON_CreateObject();
		char *why = reason(w, side);

		json_put_str(x, "model", c->model);
		json_put_str(x, "spec_type", c->spec_type);
		json_put_rung(x, "n_max", c->n_max);
		json_put_str(x, "endpoint", c->endpoint);
		json_put_str(x, "config", c->config);
		json_put_i64(x, "ctx", c->ctx);
		json_put_i64(x, "n_predict", c->n_predict);
		cJSON_AddStringToObject(x, "metric", metric_name(w->metric));
		cJSON_AddStringToObject(x, "status", status_name(w->status));
		json_put_str(x, "reason", why);
		free(why);
		cJSON_AddNumberToObject(x, "instances", (double)w->n_inst);
		cJSON_AddNumberToObject(x, side[1] ? "instances_ours" : "instances_engine",
					(double)w->inst[0]);
		if (side[1])
			cJSON_AddNumberToObject(x, "instances_vs", (double)w->inst[1]);
		cJSON_AddNumberToObject(x, "requests", (double)w->n_req);
		cJSON_AddNumberToObject(x, "prompts_asked", (double)c->n_prompts);
		json_put_num(x, "sd_within_pct", w->sw_pct);
		json_put_num(x, "sd_between_pct", w->sb_pct);
		json_put_num(x, "sd_instance_means_pct", w->sm_pct);
		json_put_num(x, "df_within", w->df_w);
		json_put_num(x, "df_between", w->df_b);
		json_put_num(x, "instance_cost_ms", w->c_inst_ms);
		json_put_num(x, "request_cost_ms", w->c_req_ms);
		cJSON_AddNumberToObject(x, "cost_instances", (double)w->n_cost);
		json_put_num(x, "m_star", w->m_star); /* +inf (SD_B 0) is null, capped true */
		cJSON_AddBoolToObject(x, "capped", w->capped);
		put_design(x, "plan", w, &w->best);
		put_design(x, "default", w, &w->deflt);
		json_put_num(x, "default_cost_ratio", w->cost_ratio);
		cJSON_AddItemToArray(rows, x);
	}
	rows = cJSON_AddArrayToObject(root, "cells");
	for (i = 0; i < r->n_cells; i++) {
		const struct plan_both *b = &r->cells[i];
		struct plan_row w = { 0 };
		cJSON *x = cJSON_CreateObject();

		w.status = b->ok ? PLAN_OK : PLAN_NO_COST;
		json_put_str(x, "model", b->cell->model);
		json_put_str(x, "spec_type", b->cell->spec_type);
		json_put_rung(x, "n_max", b->cell->n_max);
		json_put_str(x, "endpoint", b->cell->endpoint);
		json_put_str(x, "config", b->cell->config);
		json_put_i64(x, "ctx", b->cell->ctx);
		json_put_i64(x, "n_predict", b->cell->n_predict);
		put_design(x, "plan", &w, &b->best);
		put_design(x, "default", &w, &b->deflt);
		json_put_num(x, "default_cost_ratio", b->cost_ratio);
		cJSON_AddItemToArray(rows, x);
	}
	return json_write(f, root);
}

void plan_write_none(const char *const side[2])
{
	if (side[1])
		tps_error("no cell measured by both '%s' and '%s' among the runs selected",
			  side[0], side[1]);
	else
		tps_error("no run of '%s' among the runs selected", side[0]);
}
