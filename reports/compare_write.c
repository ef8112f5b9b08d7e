/* compare_write.c: renders a parity decision for `tpsdb compare`: one text row per
 * cell and metric, or the JSON rows and warnings. The notes become the same
 * sentences on stderr and in the JSON's "warnings". */
#include "reports/compare_write.h"
#include "escape.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/config.h"
#include "reports/answer_text.h"
#include "reports/json.h"
#include "reports/md.h"
#include "reports/parity.h"
#include "schema/record.h"
#include "tpsdb.h"

void compare_write_notes(const struct parity_result *r)
{
	size_t i;

	for (i = 0; i < r->n_notes; i++) {
		char *text = parity_note_text(&r->notes[i]), *e = escape_text(text);
		tps_warning("%s", e);
		free(text);
		free(e);
	}
	for (i = 0; i < r->n_rows; i++) {
		char *text, *e;
		/* One line a cell: its pp and tg rows share their runs. */
		if (i && !strcmp(r->rows[i].ours_run, r->rows[i - 1].ours_run) &&
		    !strcmp(r->rows[i].vs_run, r->rows[i - 1].vs_run))
			continue;
		if (!(text = parity_env_text(&r->rows[i])))
			continue;
		e = escape_text(text);
		tps_warning("%s", e);
		free(text);
		free(e);
	}
}

int compare_write_json(const struct parity_result *r)
{
	cJSON *root = cJSON_CreateObject(), *rows, *warn, *env;
	unsigned b;
	size_t i;

	rows = cJSON_AddArrayToObject(root, "rows");
	for (i = 0; i < r->n_rows; i++) {
		const struct parity_row *w = &r->rows[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddItemToArray(rows, o);
		cJSON_AddStringToObject(o, "model", w->model);
		cJSON_AddStringToObject(o, "spec_type", w->spec_type);
		json_put_i64(o, "n_max", w->n_max);
		cJSON_AddStringToObject(o, "endpoint", w->endpoint);
		cJSON_AddStringToObject(o, "config", w->config ? w->config : "");
		cJSON_AddStringToObject(o, "metric", w->metric);
		cJSON_AddStringToObject(o, "ours", w->ours);
		cJSON_AddStringToObject(o, "vs", w->vs);
		json_put_num(o, "ours_median", w->ours_median);
		json_put_num(o, "vs_median", w->vs_median);
		json_put_num(o, "delta_pct", w->v.delta_pct);
		json_put_num(o, "ci_lo_pct", w->v.ci_lo_pct);
		json_put_num(o, "ci_hi_pct", w->v.ci_hi_pct);
		json_put_num(o, "ci_level", w->v.ci_level);
		cJSON_AddNumberToObject(o, "n_pairs", (double)w->v.n_pairs);
		json_put_regression(o, w->v.regression);
		cJSON_AddStringToObject(o, "verdict", verdict_kind_name(w->v.kind));
		cJSON_AddBoolToObject(o, "significant", w->v.significant);
		json_put_num(o, "band_pct", w->v.band_pct);
		cJSON_AddStringToObject(o, "bound", verdict_bound_name(w->v.bound));
		json_put_num(o, "noise_pct", w->noise_pct);
		cJSON_AddNumberToObject(o, "excluded_ours", (double)w->excluded_ours);
		cJSON_AddNumberToObject(o, "excluded_vs", (double)w->excluded_vs);
		cJSON_AddNumberToObject(o, "unpaired", (double)w->unpaired);
		cJSON_AddStringToObject(o, "ours_run", w->ours_run);
		cJSON_AddStringToObject(o, "vs_run", w->vs_run);
		cJSON_AddBoolToObject(o, "forced", w->forced);
		cJSON_AddNumberToObject(o, "rounds", (double)w->v.rounds);
		cJSON_AddNumberToObject(o, "instances_ours", (double)w->v.instances_ours);
		cJSON_AddNumberToObject(o, "instances_vs", (double)w->v.instances_vs);
		json_put_num(o, "mde_pct", w->v.mde_pct);
		cJSON_AddBoolToObject(o, "decided", w->v.decided);
		cJSON_AddStringToObject(o, "method", verdict_method_name(w->v.method));
		cJSON_AddStringToObject(o, "lean", verdict_kind_name(w->v.lean));
		if (w->reason)
			cJSON_AddStringToObject(o, "reason", estimate_reason_name(w->reason));
		else
			cJSON_AddNullToObject(o, "reason");
		cJSON_AddNumberToObject(o, "rounds_ours_first", (double)w->n_ours_first);
		cJSON_AddNumberToObject(o, "rounds_vs_first", (double)w->n_vs_first);
		{
			cJSON *out = cJSON_AddArrayToObject(o, "outlier_instances");
			size_t k;
			for (k = 0; k < w->n_out_ours && k < 4; k++) {
				cJSON *x = cJSON_CreateObject();
				cJSON_AddStringToObject(x, "side", "ours");
				cJSON_AddStringToObject(x, "run", w->out_ours[k]);
				cJSON_AddItemToArray(out, x);
			}
			for (k = 0; k < w->n_out_vs && k < 4; k++) {
				cJSON *x = cJSON_CreateObject();
				cJSON_AddStringToObject(x, "side", "vs");
				cJSON_AddStringToObject(x, "run", w->out_vs[k]);
				cJSON_AddItemToArray(out, x);
			}
		}
		json_put_i64(o, "outputs_compared", w->outputs_compared < 0 ? INT64_MIN :
			     w->outputs_compared);
		json_put_i64(o, "outputs_identical", w->outputs_identical < 0 ? INT64_MIN :
			     w->outputs_identical);
		env = cJSON_AddArrayToObject(o, "environment");
		for (b = 1; b < RUN_ENV_FLAGS_END; b <<= 1) {
			if (w->env_flags & b)
				cJSON_AddItemToArray(env, cJSON_CreateString(record_env_flag_name(b)));
		}
		cJSON_AddNumberToObject(o, "degenerate_samples", (double)w->degenerate);
	}
	warn = cJSON_AddArrayToObject(root, "warnings");
	for (i = 0; i < r->n_notes; i++) {
		char *note = parity_note_text(&r->notes[i]);
		cJSON_AddItemToArray(warn, cJSON_CreateString(note));
		free(note);
	}
	for (i = 0; i < r->n_rows; i++) {
		char *note;
		if (i && !strcmp(r->rows[i].ours_run, r->rows[i - 1].ours_run) &&
		    !strcmp(r->rows[i].vs_run, r->rows[i - 1].vs_run))
			continue;
		if ((note = parity_env_text(&r->rows[i]))) {
			cJSON_AddItemToArray(warn, cJSON_CreateString(note));
			free(note);
		}
	}
	return json_write(stdout, root);
}

/* The lines that lead the table: rows whose resolution is wider than the band
 * asked for, so that a verdict inside a wide band is not read as a tight one. */
static void write_lead(const struct parity_result *r, double band_pct, unsigned vary)
{
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		const struct parity_row *w = &r->rows[i];
		char name[256], *e;

		if (!(w->v.mde_pct > band_pct))
			continue;
		parity_row_label(w, vary, name, sizeof(name));
		e = escape_text(name);
		printf("mde %.2f%% > band %.2f%%: %s %s could not have seen a difference under "
		       "%.2f%% (%zu round%s)\n",
		       w->v.mde_pct, band_pct, e, w->metric, w->v.mde_pct, w->v.rounds,
		       w->v.rounds == 1 ? "" : "s");
		free(e);
	}
}

void compare_write_near(char *buf, size_t len, const struct config_near *n, const char *ours,
			const char *vs)
{
	size_t i, at;
	char keys[256] = "";

	at = (size_t)snprintf(buf, len, "; the nearest cells differ only in config");
	for (i = 0; i < n->n_keys && at < len; i++) {
		at += (size_t)snprintf(buf + at, len - at, "%s %s ('%s' %s, '%s' %s)", i ? "," : "",
				       n->key[i], ours, n->ours[i], vs, n->vs[i]);
		snprintf(keys + strlen(keys), sizeof(keys) - strlen(keys), "%s%s", i ? "," : "",
			 n->key[i]);
	}
	if (at < len)
		snprintf(buf + at, len - at, ": --ignore-config %s pairs %zu cell%s", keys,
			 n->n_cells, n->n_cells == 1 ? "" : "s");
}

size_t compare_one_instance_cells(const struct parity_result *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->n_rows; i++) {
		const struct parity_row *w = &r->rows[i];

		if (w->config && *w->config && w->reason == ESTIMATE_REASON_ONE_INSTANCE)
			n++;
	}
	return n;
}

/* What a llama-bench comparison of one process a side needs to decide. */
static void write_bench_rounds(const struct parity_result *r)
{
	size_t n = compare_one_instance_cells(r);

	if (!n)
		return;
	printf("llama-bench: %zu row%s compare one llama-bench process a side: one process is "
	       "one instance, whose repetitions cannot show the scatter between instances; a "
	       "decision needs two processes or more a side (run llama-bench again and import "
	       "each build's files under one --tag), or a stored A/A floor (tpsdb calibrate)\n",
	       n, n == 1 ? "" : "s");
}

/* The lines after the table: each row's answer that is not a plain yes or no
 * (how far from deciding it is, or why it cannot decide), and the instances
 * left out. */
static void write_open(const struct parity_result *r, unsigned vary)
{
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		const struct parity_row *w = &r->rows[i];
		char name[256], ans[400], outl[400], *e;

		parity_row_label(w, vary, name, sizeof(name));
		e = escape_text(name);
		if (w->v.regression != VERDICT_REG_NO && w->v.regression != VERDICT_REG_YES) {
			verdict_answer_text(&w->v, w->reason, ans, sizeof(ans));
			printf("%s %s: regression %s\n", e, w->metric, ans);
		}
		parity_row_outliers_text(w, outl, sizeof(outl));
		if (*outl)
			printf("%s %s: %s\n", e, w->metric, outl);
		free(e);
	}
}

void compare_write_text(const struct parity_result *r, const char *ours_raw,
			const char *vs_raw, double band_pct)
{
	char *ours = escape_text(ours_raw), *vs = escape_text(vs_raw);
	unsigned vary = parity_rows_varying(r);
	char *same = parity_rows_constant(r, vary);
	int wc = 4;
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		char name[256], *e;
		int l;
		parity_row_label(&r->rows[i], vary, name, sizeof(name));
		e = escape_text(name);
		l = (int)strlen(e);
		if (l > wc)
			wc = l;
		free(e);
	}
	{
		/* The answer first: what a person acts on, then the rows behind it. */
		char *line = answer_text_compare(r, ours_raw, vs_raw, band_pct), *e = escape_text(line);
		printf("%s\n", e);
		free(e);
		free(line);
	}
	write_lead(r, band_pct, vary);
	if (same) {
		char *e = escape_text(same);
		/* The keys every row shares, once, so that each label shows what differs. */
		printf("config of every row: %s\n", e);
		free(e);
		free(same);
	}
	printf("%-*s  %-6s  %10s  %10s  %8s  %-19s  %-10s  %-9s  %6s  %7s  %s\n",
	       wc, "cell", "metric", ours, vs, "delta", "90% interval", "regression",
	       "verdict", "rounds", "mde", "excl");
	for (i = 0; i < r->n_rows; i++) {
		const struct parity_row *w = &r->rows[i];
		char name[256], a[32], b[32], d[32], ci[80], excl[48], mde[32], *e;
		const char *reg = verdict_regression_name(w->v.regression);

		parity_row_label(w, vary, name, sizeof(name));
		e = escape_text(name);
		md_num(a, sizeof(a), "%.1f", w->ours_median);
		md_num(b, sizeof(b), "%.1f", w->vs_median);
		md_num(d, sizeof(d), "%+.2f%%", w->v.delta_pct);
		verdict_interval_text(&w->v, ci, sizeof(ci));
		snprintf(excl, sizeof(excl), "%zu/%zu%s", w->excluded_ours, w->excluded_vs,
			 w->forced ? "  FORCED" : "");
		md_num(mde, sizeof(mde), "%.2f%%", w->v.mde_pct);
		printf("%-*s  %-6s  %10s  %10s  %8s  %-19s  %-10s  %-9s  %6zu  %7s  %s\n",
		       wc, e, w->metric, a, b, d, ci, reg ? reg : "unknown",
		       verdict_kind_name(w->v.kind), w->v.rounds, mde, excl);
		free(e);
	}
	write_open(r, vary);
	write_bench_rounds(r);
	printf("regression: is %s slower than %s by more than the band (%.1f%%)? yes/no when "
	       "the whole 90%% interval (5%% each side) lies below/above -band; verdict: the "
	       "same interval against +-band; tok/s: geometric means of the instances' "
	       "requests, delta their ratio; interval: t on the per-round log ratios (each run "
	       "one instance); mde: its half-width; excl: flagged samples left out (%s/%s)\n",
	       ours, vs, band_pct, ours, vs);
	free(ours);
	free(vs);
}
