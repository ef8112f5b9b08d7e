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
	case PLAN_FEW_ROUNDS: return "too-few-rounds";
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
				     "within-instance part once each (prompt, rep) slot's own "
				     "level "
				     "is taken out (df %.0f)",
				     w->df_w);
	case PLAN_NO_COST:
		return tps_xasprintf("cost unknown: no complete run here has an end time and a "
				     "wall_ms on every request");
	case PLAN_FEW_ROUNDS:
		return tps_xasprintf("%zu matched round%s (instances of both engines in one "
				     "round), so the round variance is 2 (SD_B^2 + SD_W^2 / m), "
				     "which counts what moves both instances of a round together "
				     "twice: the plan is likely too many rounds",
				     w->n_rounds, w->n_rounds == 1 ? "" : "s");
	}
	return NULL;
}

/* A number, or the absent mark: "-" in text and markdown, nothing in CSV. */
static void num(struct md_table *t, size_t row, size_t col, const char *fmt, double v, int csv)
{
	char b[64];

	if (isfinite(v))
		snprintf(b, sizeof(b), fmt, v);
	else
		snprintf(b, sizeof(b), "%s", csv ? "" : "-");
	md_table_set(t, row, col, b);
}

/* The rounds of a design: a number, ">max" beyond the max rounds, absent
 * without a design. */
static void rounds_cell(struct md_table *t, size_t row, size_t col, int ok,
			const struct plan_design *d, size_t max_rounds, int csv)
{
	if (!ok)
		md_table_set(t, row, col, csv ? "" : "-");
	else if (d->rounds)
		md_table_setf(t, row, col, "%zu", d->rounds);
	else
		md_table_setf(t, row, col, ">%zu", max_rounds);
}

enum { C_CELL, C_METRIC, C_INST, C_RND, C_SW, C_SB, C_SBD, C_SD, C_CINST, C_CREQ, C_MSTAR,
       C_PLAN, C_SDP, C_ROUNDS, C_CHANCE, C_TIME, C_DROUNDS, C_DTIME, C_RATIO, NCOLS };

static void fill(struct table *tt, const struct plan_result *r, const struct plan_opts *o,
		 int csv)
{
	static const char *const head[NCOLS] = { "CELL", "METRIC", "INST", "RND", "SD_W%",
		"SD_B%", "SD_BD%", "SD_RND%", "INST_S", "REQ_S", "M*", "PLAN", "SD_PLAN%",
		"ROUNDS", "CHANCE", "SERVER_S" };
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
		int ok = plan_status_designs(w->status);
		char b[256];

		cell_name(w->cell, b, sizeof(b));
		md_table_set(t, row, C_CELL, b);
		md_table_set(t, row, C_METRIC, metric_name(w->metric));
		md_table_setf(t, row, C_INST, "%zu", w->n_inst);
		md_table_setf(t, row, C_RND, "%zu", w->n_rounds);
		num(t, row, C_SW, "%.2f", w->sw_pct, csv);
		num(t, row, C_SB, "%.2f", w->sb_pct, csv);
		num(t, row, C_SBD, "%.2f", w->sbd_pct, csv);
		num(t, row, C_SD, "%.2f", w->sd_d_pct, csv);
		num(t, row, C_CINST, "%.2f", w->c_inst_ms / 1000, csv);
		num(t, row, C_CREQ, "%.3f", w->c_req_ms / 1000, csv);
		num(t, row, C_MSTAR, "%.1f", ok ? w->m_star : NAN, csv);
		if (ok)
			md_table_setf(t, row, C_PLAN, "%zux%zu", w->best.prompts, w->best.reps);
		else
			md_table_set(t, row, C_PLAN, csv ? "" : "-");
		num(t, row, C_SDP, "%.2f", ok ? w->best.round_sd_pct : NAN, csv);
		rounds_cell(t, row, C_ROUNDS, ok, &w->best, r->max_rounds, csv);
		num(t, row, C_CHANCE, "%.2f", ok ? w->best.chance : NAN, csv);
		num(t, row, C_TIME, "%.1f", ok ? w->best.server_s : NAN, csv);
		rounds_cell(t, row, C_DROUNDS, ok, &w->deflt, r->max_rounds, csv);
		num(t, row, C_DTIME, "%.1f", ok ? w->deflt.server_s : NAN, csv);
		num(t, row, C_RATIO, "%.2f", ok ? w->cost_ratio : NAN, csv);
	}
}

/* The per-cell table: one design for both metrics. */
static void fill_both(struct table *tt, const struct plan_result *r, const struct plan_opts *o)
{
	static const char *const head[] = { "CELL", "PLAN", "ROUNDS", "SERVER_S" };
	struct md_table *t = &tt->t;
	size_t i, j;

	table_init(tt, 7);
	for (j = 0; j < 7; j++)
		table_col(tt, j, j >= 1 ? TABLE_NUMBER : TABLE_LABEL, j < 4 ? head[j] : "", 0);
	md_table_setf(t, 0, 4, "ROUNDS_%zux%zu", o->default_prompts, o->default_reps);
	md_table_setf(t, 0, 5, "SERVER_S_%zux%zu", o->default_prompts, o->default_reps);
	md_table_setf(t, 0, 6, "%zux%zu/PLAN", o->default_prompts, o->default_reps);
	for (i = 0; i < r->n_cells; i++) {
		const struct plan_both *c = &r->cells[i];
		size_t row = md_table_add_row(t);
		char b[256];

		cell_name(c->cell, b, sizeof(b));
		md_table_set(t, row, 0, b);
		if (c->ok)
			md_table_setf(t, row, 1, "%zux%zu", c->best.prompts, c->best.reps);
		else
			md_table_set(t, row, 1, "-");
		rounds_cell(t, row, 2, c->ok, &c->best, r->max_rounds, 0);
		num(t, row, 3, "%.1f", c->ok ? c->best.server_s : NAN, 0);
		rounds_cell(t, row, 4, c->ok, &c->deflt, r->max_rounds, 0);
		num(t, row, 5, "%.1f", c->ok ? c->deflt.server_s : NAN, 0);
		num(t, row, 6, "%.2f", c->ok ? c->cost_ratio : NAN, 0);
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
	size_t i;
	char *s;

	if (fmt == TABLE_FMT_CSV) {
		/* The table of cells and metrics alone: a CSV is one table. */
		fill(&t, r, o, 1);
		table_write(f, &t, fmt);
		table_release(&t);
		return;
	}

	if (side[1])
		s = tps_xasprintf("plan for %s vs %s: the rounds (one instance of each engine) "
				  "for a %.0f%% chance that collect --until-decided answers \"is "
				  "ours slower by more than %.2f%%?\" when the two are alike, "
				  "within %zu rounds, from %zu cell%s of stored runs",
				  side[0], side[1], 100 * r->power, r->band_pct, r->max_rounds,
				  r->n_rows / PLAN_N_METRICS,
				  r->n_rows / PLAN_N_METRICS == 1 ? "" : "s");
	else
		s = tps_xasprintf("plan for %s (both engines of a comparison assumed alike and "
				  "their instances independent): the rounds for a %.0f%% chance "
				  "that "
				  "collect --until-decided answers at a %.2f%% band, within %zu "
				  "rounds, from %zu cell%s of stored runs",
				  side[0], 100 * r->power, r->band_pct, r->max_rounds,
				  r->n_rows / PLAN_N_METRICS,
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
	fill(&t, r, o, 0);
	t.rule = 1;
	table_write(f, &t, fmt);
	table_release(&t);
	fputc('\n', f);
	s = tps_xasprintf("both metrics from one design, as one collect measures both: the "
			  "reps of every prompt (at most %d requests an instance) with the least "
			  "server time at the rounds the worse metric needs",
			  PLAN_MAX_REQUESTS);
	line(f, 0, s);
	free(s);
	fputc('\n', f);
	fill_both(&t, r, o);
	t.rule = 1;
	table_write(f, &t, fmt);
	table_release(&t);
	fputc('\n', f);
	for (i = 0; i < r->n_rows; i++) {
		const struct plan_row *w = &r->rows[i];
		char name[256], *why = reason(w, side);

		if (!why)
			continue;
		cell_name(w->cell, name, sizeof(name));
		s = tps_xasprintf("%s %s: %s", name, metric_name(w->metric), why);
		line(f, md, s);
		free(s);
		free(why);
	}
	line(f, md, "RND: matched rounds; SD_RND: the sd of their log ratio d = log(ours) - "
		    "log(vs), as observed; SD_W: request to request within an instance (after "
		    "each (prompt, rep) slot's own level), SD_B: instance to instance, SD_BD: "
		    "what the rounds' differences vary by beyond the requests (SD_RND^2 - 2 "
		    "SD_W^2 / m), all on the log scale (x100, about %); INST_S: an instance's "
		    "time outside its requests (start, load, warm-up), REQ_S: the median "
		    "request");
	s = tps_xasprintf("SD_PLAN: the plan's predicted round sd, SD_BD^2 + 2 SD_W^2 / m for m "
			  "requests an instance (without matched rounds 2 (SD_B^2 + SD_W^2 / m)); "
			  "ROUNDS: the least --max-rounds at which the rule, looking after every "
			  "round from the third, decides with CHANCE >= %.2f (%d simulated "
			  "batches through the estimate itself, engines alike: the hardest "
			  "\"no\"); >%zu: out of reach within --max-rounds; SERVER_S = ROUNDS x 2 "
			  "x (INST_S + m x REQ_S), the most it spends",
			  r->power, PLAN_SIMS, r->max_rounds);
	line(f, md, s);
	free(s);
	line(f, md, "PLAN is prompts x reps: every prompt the runs asked, only the reps vary "
		    "(fewer prompts would measure another thing); M* = sqrt(INST_S x 2 SD_W^2 "
		    "/ (REQ_S x SD_BD^2)) is Kalibera and Jones' (ISMM 2013) cost x variance "
		    "optimum, for reference");
}

static void put_design(cJSON *o, const char *k, int ok, const struct plan_design *d)
{
	cJSON *x;

	if (!ok) {
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
	json_put_num(x, "chance", d->chance);
	json_put_num(x, "mean_rounds", d->mean_rounds);
	json_put_num(x, "server_s", d->server_s);
}

int plan_write_json(FILE *f, const struct plan_result *r, const char *const side[2],
		    const struct plan_opts *o)
{
	cJSON *root = cJSON_CreateObject(), *sides, *def, *rows;
	size_t i;

	json_put_num(root, "band_pct", r->band_pct);
	json_put_num(root, "power", r->power);
	cJSON_AddNumberToObject(root, "max_rounds", (double)r->max_rounds);
	cJSON_AddNumberToObject(root, "sims", PLAN_SIMS);
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
		cJSON_AddBoolToObject(x, "paired", w->paired);
		cJSON_AddNumberToObject(x, "rounds_matched", (double)w->n_rounds);
		json_put_num(x, "round_sd_pct", w->sd_d_pct);
		json_put_num(x, "sd_round_diff_pct", w->sbd_pct);
		json_put_num(x, "round_sd_fit_pct", w->fit_sd_pct);
		json_put_num(x, "mean_inv_requests", w->inv_m);
		json_put_num(x, "instance_cost_ms", w->c_inst_ms);
		json_put_num(x, "request_cost_ms", w->c_req_ms);
		cJSON_AddNumberToObject(x, "cost_instances", (double)w->n_cost);
		json_put_num(x, "m_star", w->m_star); /* null: unknown or unbounded */
		put_design(x, "plan", plan_status_designs(w->status), &w->best);
		put_design(x, "default", plan_status_designs(w->status), &w->deflt);
		json_put_num(x, "default_cost_ratio", w->cost_ratio);
		cJSON_AddItemToArray(rows, x);
	}
	rows = cJSON_AddArrayToObject(root, "cells");
	for (i = 0; i < r->n_cells; i++) {
		const struct plan_both *b = &r->cells[i];
		cJSON *x = cJSON_CreateObject();

		json_put_str(x, "model", b->cell->model);
		json_put_str(x, "spec_type", b->cell->spec_type);
		json_put_rung(x, "n_max", b->cell->n_max);
		json_put_str(x, "endpoint", b->cell->endpoint);
		json_put_str(x, "config", b->cell->config);
		json_put_i64(x, "ctx", b->cell->ctx);
		json_put_i64(x, "n_predict", b->cell->n_predict);
		put_design(x, "plan", b->ok, &b->best);
		put_design(x, "default", b->ok, &b->deflt);
		json_put_num(x, "default_cost_ratio", b->cost_ratio);
		cJSON_AddItemToArray(rows, x);
	}
	return json_write(f, root);
}

void plan_write_none(const char *const side[2])
{
	/* A plan reads only clean runs (complete, no environment finding). */
	if (side[1])
		tps_error("no cell measured by both '%s' and '%s' in clean runs (complete, "
			  "no environment finding) among the runs selected", side[0], side[1]);
	else
		tps_error("no clean run (complete, no environment finding) of '%s' among the "
			  "runs selected", side[0]);
}
