/* compare_write.c: renders a parity decision for `tpsdb compare`: one text row per
 * cell and metric (then llama-bench speedups and draft acceptance by prompt), or
 * the JSON rows and warnings. The notes become the same
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
#include "reports/table.h"
#include "reports/until_write.h"
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

/* "llama_bench": each paired test's speedup and each kind's geomean. */
static void json_put_speedups(cJSON *root, const struct speedup_set *s)
{
	cJSON *lb = cJSON_AddObjectToObject(root, "llama_bench");
	cJSON *tests = cJSON_AddArrayToObject(lb, "speedups");
	cJSON *kinds = cJSON_AddArrayToObject(lb, "geomean");
	size_t i;

	for (i = 0; i < s->n_rows; i++) {
		const struct speedup_row *w = &s->rows[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddItemToArray(tests, o);
		cJSON_AddStringToObject(o, "model", w->model);
		cJSON_AddStringToObject(o, "test", w->test);
		cJSON_AddStringToObject(o, "kind", w->kind);
		cJSON_AddStringToObject(o, "config", w->config);
		json_put_num(o, "vs_avg_ts", w->vs_ts);
		json_put_num(o, "ours_avg_ts", w->ours_ts);
		json_put_num(o, "speedup", w->speedup);
		cJSON_AddNumberToObject(o, "processes_vs", (double)w->n_vs);
		cJSON_AddNumberToObject(o, "processes_ours", (double)w->n_ours);
	}
	for (i = 0; i < s->n_kinds; i++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddItemToArray(kinds, o);
		cJSON_AddStringToObject(o, "kind", s->kinds[i].kind);
		cJSON_AddNumberToObject(o, "tests", (double)s->kinds[i].n);
		json_put_num(o, "speedup", s->kinds[i].geomean);
	}
}

/* "acceptance": each drafted cell's prompts, then its total (prompt null). */
static void json_put_accept(cJSON *root, const struct parity_result *r)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "acceptance");
	size_t i;

	for (i = 0; i < r->accept.n_rows; i++) {
		const struct accept_row *a = &r->accept.rows[i];
		const struct parity_row *w = &r->rows[a->row < r->n_rows ? a->row : 0];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddItemToArray(arr, o);
		cJSON_AddStringToObject(o, "model", w->model);
		cJSON_AddStringToObject(o, "spec_type", w->spec_type);
		json_put_i64(o, "n_max", w->n_max);
		cJSON_AddStringToObject(o, "endpoint", w->endpoint);
		cJSON_AddStringToObject(o, "config", w->config ? w->config : "");
		json_put_str(o, "prompt", a->prompt);
		json_put_num(o, "ours", accept_share(a, 0));
		json_put_num(o, "vs", accept_share(a, 1));
		cJSON_AddNumberToObject(o, "ours_drafted", (double)a->drafted[0]);
		cJSON_AddNumberToObject(o, "ours_accepted", (double)a->accepted[0]);
		cJSON_AddNumberToObject(o, "vs_drafted", (double)a->drafted[1]);
		cJSON_AddNumberToObject(o, "vs_accepted", (double)a->accepted[1]);
		cJSON_AddNumberToObject(o, "runs_ours", (double)a->runs[0]);
		cJSON_AddNumberToObject(o, "runs_vs", (double)a->runs[1]);
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
		json_put_evidence(o, &w->v);
		cJSON_AddNumberToObject(o, "excluded_ours", (double)w->excluded_ours);
		cJSON_AddNumberToObject(o, "excluded_vs", (double)w->excluded_vs);
		cJSON_AddNumberToObject(o, "unpaired", (double)w->unpaired);
		cJSON_AddStringToObject(o, "ours_run", w->ours_run);
		cJSON_AddStringToObject(o, "vs_run", w->vs_run);
		cJSON_AddBoolToObject(o, "forced", w->forced);
		cJSON_AddBoolToObject(o, "across_machines", w->across);
		json_put_str(o, "ours_machine", w->pool_ours && pool_face(w->pool_ours) ?
			     pool_face(w->pool_ours)->machine : NULL);
		json_put_str(o, "vs_machine", w->pool_vs && pool_face(w->pool_vs) ?
			     pool_face(w->pool_vs)->machine : NULL);
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
		json_put_str(o, "question_metric", parity_question_name(w->question));
		json_put_clean(o, &w->newest_clean);
	}
	if (r->speedups.n_rows)
		json_put_speedups(root, &r->speedups);
	if (r->accept.n_rows)
		json_put_accept(root, r);
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

/* {"engine","run","machine"} of a run named by a refusal. */
static cJSON *refused_run(const struct run *r)
{
	cJSON *o = cJSON_CreateObject();

	json_put_str(o, "engine", r ? r->engine : NULL);
	json_put_str(o, "run", r ? r->uuid : NULL);
	json_put_str(o, "machine", r ? (r->machine ? r->machine : r->host) : NULL);
	return o;
}

int compare_write_refused_json(const struct parity_result *r)
{
	cJSON *root = cJSON_CreateObject(), *x, *runs;
	char name[256] = "", why[1024] = "";

	cJSON_AddArrayToObject(root, "rows");
	x = cJSON_AddObjectToObject(root, "refused");
	cJSON_AddStringToObject(x, "reason", r->stop_diff.kind == RUN_DIFF_MACHINE ?
				"machines-differ" : "runs-differ");
	if (r->stop_cell)
		run_cell_name(r->stop_cell, name, sizeof(name));
	cJSON_AddStringToObject(x, "cell", name);
	runs = cJSON_AddArrayToObject(x, "runs");
	cJSON_AddItemToArray(runs, refused_run(r->stop_diff.a));
	cJSON_AddItemToArray(runs, refused_run(r->stop_diff.b));
	parity_diff_text(&r->stop_diff, why, sizeof(why));
	cJSON_AddStringToObject(x, "message", why);
	cJSON_AddArrayToObject(root, "warnings");
	return json_write(stdout, root);
}

/* The lines that lead the table: rows whose resolution is wider than the band
 * asked for, so that a verdict inside a wide band is not read as a tight one. */
static void write_lead(FILE *f, const struct parity_result *r, double band_pct, unsigned vary)
{
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		const struct parity_row *w = &r->rows[i];
		char name[256], *e;

		if (!(w->v.mde_pct > band_pct))
			continue;
		parity_row_label(w, vary, name, sizeof(name));
		e = escape_text(name);
		fprintf(f, "mde %.2f%% > band %.2f%%: %s %s could not have seen a difference under "
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

int compare_write_out(const struct parity_result *r, const char *ours, const char *vs,
		      double band_pct, enum out_format fmt)
{
	FILE *summary;

	if (fmt == OUT_JSON) {
		if (compare_write_json(r) < 0)
			return -1;
	} else {
		compare_write(stdout, r, ours, vs, band_pct, format_table(fmt));
	}
	if ((summary = step_summary_open())) {
		compare_write(summary, r, ours, vs, band_pct, TABLE_FMT_MD);
		fputc('\n', summary);
		step_summary_close(summary);
	}
	return 0;
}

void compare_write_none(const char *ours, const char *vs, const char *model,
			const struct config_near *near)
{
	char why[1024] = "";

	if (near)
		compare_write_near(why, sizeof(why), near, ours, vs);
	tps_error("no cell measured by both '%s' and '%s'%s%s%s%s", ours, vs,
		  model ? " for model '" : "", model ? model : "", model ? "'" : "", why);
}

void compare_write_ignored(const char *keys, const char *a_label, const char *a,
			   const char *b_label, const char *b)
{
	tps_warning("--ignore-config %s: cells paired regardless of %s ('%s' ran %s; '%s' ran %s)",
		    keys, keys, a_label, a ? a : "none", b_label, b ? b : "none");
}

size_t compare_one_instance_cells(const struct parity_result *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->n_rows; i++) {
		const struct parity_row *w = &r->rows[i];

		if (w->config && *w->config && w->v.method == VERDICT_METHOD_REQUESTS &&
		    !w->v.decided && isfinite(w->v.delta_pct))
			n++;
	}
	return n;
}

/* Rows of llama-bench cells with no delta at all: -o csv or sql averages. */
static size_t aggregate_cells(const struct parity_result *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->n_rows; i++) {
		const struct parity_row *w = &r->rows[i];

		if (run_str_eq(w->endpoint, "llama-bench") && !isfinite(w->v.delta_pct) &&
		    (w->excluded_ours || w->excluded_vs))
			n++;
	}
	return n;
}

/* What a llama-bench comparison of one process a side needs to decide, and what
 * rows of averages only (csv, sql) cannot. */
static void write_bench_rounds(FILE *f, const struct parity_result *r, enum table_format fmt)
{
	size_t n = compare_one_instance_cells(r), na = aggregate_cells(r);

	if (n && fmt == TABLE_FMT_MD)
		fprintf(f, "\n%zu row%s compare one llama-bench process a side, undecided: "
			"one process is one instance, whose repetitions cannot show the scatter "
			"between instances; a decision needs two processes or more a side (%s), "
			"or a stored A/A floor (`tpsdb calibrate`).\n",
			n, n == 1 ? "" : "s", parity_bench_remedy);
	else if (n)
		fprintf(f, "llama-bench: %zu row%s compare one llama-bench process a side, "
			"undecided: one process is one instance, whose repetitions cannot show the "
			"scatter between instances; a decision needs two processes or more a side "
			"(%s), or a stored A/A floor (tpsdb calibrate)\n", n, n == 1 ? "" : "s",
			parity_bench_remedy);
	if (na)
		fprintf(f, "%s%zu row%s hold only llama-bench's averages (-o csv or -o sql), "
			"which give the speedup but no interval: import -o json or -o jsonl files "
			"for a decision%s\n", fmt == TABLE_FMT_MD ? "\n" : "llama-bench: ", na,
			na == 1 ? "" : "s", fmt == TABLE_FMT_MD ? "." : "");
}

/* Whether a row's answer gets a line of its own after the table: one that is not
 * a plain yes or no, or that rests on more than its own rounds (a default
 * scatter, earlier batches' scatter, pooled or refused). */
static int answer_line(const struct verdict *v)
{
	return (v->regression != VERDICT_REG_NO && v->regression != VERDICT_REG_YES) ||
	       v->bound == VERDICT_BOUND_DEFAULT || v->history != VERDICT_HIST_NONE;
}

/* 1 when row i opens its cell: the first of the rows that share its runs. */
static int cell_first(const struct parity_result *r, size_t i)
{
	return !i || strcmp(r->rows[i].ours_run, r->rows[i - 1].ours_run) ||
	       strcmp(r->rows[i].vs_run, r->rows[i - 1].vs_run);
}

/* One line a cell whose batch stopped on one metric alone (--metric), as a list
 * item in markdown. */
static void write_questions(FILE *f, const struct parity_result *r, unsigned vary,
			    enum table_format fmt)
{
	size_t i;
	int first = 1;

	for (i = 0; i < r->n_rows; i++) {
		char name[256], q[200], *line, *e;

		parity_question_text(r->rows[i].question, q, sizeof(q));
		if (!*q || !cell_first(r, i))
			continue;
		parity_row_label(&r->rows[i], vary, name, sizeof(name));
		line = tps_xasprintf("%s: %s", name, q);
		e = fmt == TABLE_FMT_MD ? escape_md(line) : escape_text(line);
		fprintf(f, "%s%s%s\n", fmt == TABLE_FMT_MD && first ? "\n" : "",
			fmt == TABLE_FMT_MD ? "- " : "", e);
		first = 0;
		free(e);
		free(line);
	}
}

/* The lines after the text table: each row's answer that is not a plain yes or no
 * (how far from deciding it is, or why it cannot decide), and the instances
 * left out. */
static void write_open(FILE *f, const struct parity_result *r, unsigned vary)
{
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		const struct parity_row *w = &r->rows[i];
		char name[256], ans[512], outl[400], *e;

		parity_row_label(w, vary, name, sizeof(name));
		e = escape_text(name);
		if (answer_line(&w->v)) {
			parity_row_answer_text(w, ans, sizeof(ans));
			fprintf(f, "%s %s: regression %s\n", e, w->metric, ans);
		}
		parity_row_outliers_text(w, outl, sizeof(outl));
		if (*outl)
			fprintf(f, "%s %s: %s\n", e, w->metric, outl);
		if (w->v.regression == VERDICT_REG_SPOILED) {
			clean_answer_text(&w->newest_clean, ans, sizeof(ans));
			fprintf(f, "%s %s: %s\n", e, w->metric, ans);
		}
		free(e);
	}
}

/* The same for markdown: the undecided answers and the instances left out as
 * lists, then the warnings. */
static void write_open_md(FILE *f, const struct parity_result *r, unsigned vary)
{
	size_t i, n_undecided = 0;
	char name[256];

	for (i = 0; i < r->n_rows; i++)
		n_undecided += answer_line(&r->rows[i].v);
	if (n_undecided) {
		fprintf(f, "\nAnswers that are open or rest on more than their rounds:\n\n");
		for (i = 0; i < r->n_rows; i++) {
			const struct parity_row *w = &r->rows[i];
			char ans[512], *e, *a;

			if (!answer_line(&w->v))
				continue;
			parity_row_label(w, vary, name, sizeof(name));
			e = escape_md(name);
			parity_row_answer_text(w, ans, sizeof(ans));
			a = escape_md(ans);
			fprintf(f, "- %s %s: regression %s\n", e, w->metric, a);
			free(a);
			free(e);
		}
	}
	for (i = 0; i < r->n_rows; i++) {
		char outl[400], *e;

		parity_row_outliers_text(&r->rows[i], outl, sizeof(outl));
		if (!*outl)
			continue;
		parity_row_name(&r->rows[i], name, sizeof(name));
		e = escape_md(name);
		fprintf(f, "- %s %s: %s\n", e, r->rows[i].metric, outl);
		free(e);
	}
	for (i = 0; i < r->n_rows; i++) {
		char ans[512], *e, *a;

		if (r->rows[i].v.regression != VERDICT_REG_SPOILED)
			continue;
		parity_row_name(&r->rows[i], name, sizeof(name));
		e = escape_md(name);
		clean_answer_text(&r->rows[i].newest_clean, ans, sizeof(ans));
		a = escape_md(ans);
		fprintf(f, "- %s %s: %s\n", e, r->rows[i].metric, a);
		free(a);
		free(e);
	}
	if (r->n_notes) {
		fprintf(f, "\nWarnings:\n\n");
		for (i = 0; i < r->n_notes; i++) {
			char *text = parity_note_text(&r->notes[i]), *e = escape_md(text);
			fprintf(f, "- %s\n", e);
			free(text);
			free(e);
		}
	}
}

enum { S_MODEL, S_TEST, S_VS, S_OURS, S_SPEEDUP, S_CI, S_REG, S_PROC, S_N };

/* The interval column's title of r's rows ("90% interval"), as the parity table
 * heads it. */
static void rows_level_title(const struct parity_result *r, char *title, size_t len)
{
	const struct verdict **lv = tps_xcalloc(r->n_rows + 1, sizeof(*lv));

	for (size_t i = 0; i < r->n_rows; i++)
		lv[i] = &r->rows[i].v;
	verdict_level_title(lv, r->n_rows, title, len);
	free(lv);
}

/* compare's row of a llama-bench test: its cell (model and config) and the one
 * metric it measures (a pp test pp, a tg test tg); NULL for a combined test. */
static const struct parity_row *speedup_parity_row(const struct parity_result *r,
						   const struct speedup_row *w)
{
	const char *metric = !strcmp(w->kind, "pp") ? "pp" : !strcmp(w->kind, "tg") ? "tg" : NULL;

	for (size_t i = 0; metric && r && i < r->n_rows; i++)
		if (!strcmp(r->rows[i].metric, metric) && !strcmp(r->rows[i].model, w->model) &&
		    !strcmp(r->rows[i].config, w->config))
			return &r->rows[i];
	return NULL;
}

void compare_speedup_table(struct table *t, const struct parity_result *r, const char *ours,
			   const char *vs)
{
	const struct speedup_set *s = &r->speedups;
	char ci_title[40];
	const char **cfg = tps_xcalloc(s->n_rows + 1, sizeof(*cfg));
	char *constant = NULL;
	unsigned vary;
	size_t i;

	for (i = 0; i < s->n_rows; i++)
		cfg[i] = s->rows[i].config;
	vary = parity_configs_varying(cfg, s->n_rows, &constant);
	free(constant);
	free(cfg);
	rows_level_title(r, ci_title, sizeof(ci_title));
	table_init(t, S_N);
	table_col(t, S_MODEL, TABLE_LABEL, "model", 5);
	table_col(t, S_TEST, TABLE_LABEL, "test", 4);
	/* compare-llama-bench.py's order: the baseline's t/s, then the compared. */
	table_col(t, S_VS, TABLE_NUMBER, "", 8);
	table_col(t, S_OURS, TABLE_NUMBER, "", 8);
	table_col_headf(t, S_VS, "t/s %s", vs);
	table_col_headf(t, S_OURS, "t/s %s", ours);
	table_col(t, S_SPEEDUP, TABLE_NUMBER, "speedup", 7);
	/* compare's answer for the test, beside the number the script prints. */
	table_col(t, S_CI, TABLE_INTERVAL, ci_title, 19);
	table_col(t, S_REG, TABLE_VERDICT, "regression", 10);
	table_col(t, S_PROC, TABLE_TEXT, "processes", 0);
	for (i = 0; i < s->n_rows; i++) {
		const struct speedup_row *w = &s->rows[i];
		const struct parity_row *p = speedup_parity_row(r, w);
		const char *reg = p ? verdict_regression_name(p->v.regression) : NULL;
		size_t row = table_add_row(t);
		char *label = config_label(w->config, vary), ci[80];

		table_set(t, row, S_MODEL, w->model);
		table_set(t, row, S_TEST, label);
		table_setf(t, row, S_VS, "%.2f", w->vs_ts);
		table_setf(t, row, S_OURS, "%.2f", w->ours_ts);
		table_setf(t, row, S_SPEEDUP, "%.2f", w->speedup);
		if (p) {
			verdict_interval_text(&p->v, ci, sizeof(ci));
			table_set(t, row, S_CI, ci);
		} else {
			table_set(t, row, S_CI, "-");
		}
		table_set(t, row, S_REG, p ? (reg ? reg : "unknown") : "-");
		if (p && (p->v.regression == VERDICT_REG_YES ||
			  p->v.regression == VERDICT_REG_INTERMITTENT))
			table_mark(t, row, S_REG);
		table_setf(t, row, S_PROC, "%zu/%zu", w->n_vs, w->n_ours);
		free(label);
	}
}

/* A table's title line: in markdown a paragraph of its own (blank lines around). */
static void title_line(FILE *f, enum table_format fmt, const char *line)
{
	if (fmt == TABLE_FMT_MD)
		fputc('\n', f);
	table_line(f, fmt, 0, line);
	if (fmt == TABLE_FMT_MD)
		fputc('\n', f);
}

/* The llama-bench tests as compare-llama-bench.py shows them: every paired
 * test's speedup, decided or not, then each kind's geomean. */
static void write_speedups(FILE *f, const struct parity_result *r, const char *ours,
			   const char *vs, enum table_format fmt)
{
	const struct speedup_set *s = &r->speedups;
	struct table t;
	char *line, *geo;

	if (!s->n_rows)
		return;
	geo = tps_xstrdup("");
	line = tps_xasprintf("llama-bench speedup, as compare-llama-bench.py reads it (t/s: "
			     "the mean avg_ts of each side's llama-bench processes; speedup: "
			     "t/s %s / t/s %s; processes: %s/%s), whether or not the interval "
			     "decides, beside compare's interval and answer for the test (none for "
			     "a combined pp+tg test):", ours, vs, vs, ours);
	title_line(f, fmt, line);
	compare_speedup_table(&t, r, ours, vs);
	table_write(f, &t, fmt);
	table_release(&t);
	for (size_t k = 0; k < s->n_kinds; k++) {
		char *g = tps_xasprintf("%s%s%s %.2f (%zu test%s)", geo, k ? ", " : "",
					s->kinds[k].kind, s->kinds[k].geomean, s->kinds[k].n,
					s->kinds[k].n == 1 ? "" : "s");
		free(geo);
		geo = g;
	}
	free(line);
	line = tps_xasprintf("llama-bench geomean speedup: %s", geo);
	if (fmt == TABLE_FMT_MD)
		fputc('\n', f);
	table_line(f, fmt, 0, line);
	free(line);
	free(geo);
}

enum { A_CELL, A_PROMPT, A_OURS, A_VS, A_DRAFTED, A_N };

/* The acceptance by prompt of every cell where a side drafted: accepted /
 * drafted summed over each side's pooled runs, then the cell over every prompt. */
static void write_accept(FILE *f, const struct parity_result *r, const char *ours,
			 const char *vs, enum table_format fmt)
{
	unsigned vary = parity_rows_varying(r);
	struct table t;
	char *line, name[256];
	size_t i;

	if (!r->accept.n_rows)
		return;
	line = tps_xasprintf("draft acceptance by prompt (accepted / drafted, summed over each "
			     "side's pooled runs; drafted: %s/%s):", ours, vs);
	title_line(f, fmt, line);
	free(line);
	table_init(&t, A_N);
	table_col(&t, A_CELL, TABLE_LABEL, "cell", 4);
	table_col(&t, A_PROMPT, TABLE_LABEL, "prompt", 6);
	table_col(&t, A_OURS, TABLE_RATIO, ours, 6);
	table_col(&t, A_VS, TABLE_RATIO, vs, 6);
	table_col(&t, A_DRAFTED, TABLE_TEXT, "drafted", 0);
	for (i = 0; i < r->accept.n_rows; i++) {
		const struct accept_row *a = &r->accept.rows[i];
		size_t row = table_add_row(&t);

		parity_row_label(&r->rows[a->row < r->n_rows ? a->row : 0], vary, name,
				 sizeof(name));
		table_set(&t, row, A_CELL, name);
		table_set(&t, row, A_PROMPT, a->prompt ? a->prompt : "(all)");
		table_num(&t, row, A_OURS, accept_share(a, 0));
		table_num(&t, row, A_VS, accept_share(a, 1));
		table_setf(&t, row, A_DRAFTED, "%lld/%lld", (long long)a->drafted[0],
			   (long long)a->drafted[1]);
	}
	table_write(f, &t, fmt);
	table_release(&t);
}

enum { C_CELL, C_METRIC, C_OURS, C_VS, C_DELTA, C_CI, C_REG, C_VERDICT, C_ROUNDS, C_MDE,
       C_EXCL, C_N, C_BENCH_VS = C_N, C_BENCH_OURS, C_SPEEDUP, C_PROC, C_N_SPEEDUP };

/* The llama-bench test of compare's row w (the inverse of speedup_parity_row());
 * NULL none. */
static const struct speedup_row *row_speedup(const struct parity_result *r,
					     const struct parity_row *w)
{
	for (size_t i = 0; i < r->speedups.n_rows; i++) {
		const struct speedup_row *x = &r->speedups.rows[i];

		if (!strcmp(x->kind, w->metric) && !strcmp(x->model, w->model) &&
		    !strcmp(x->config, w->config))
			return x;
	}
	return NULL;
}

/* A row's speedup columns: compare_speedup_table()'s t/s, speedup and processes. */
static void set_speedup(struct table *t, size_t row, const struct speedup_row *x)
{
	table_setf(t, row, C_BENCH_VS, "%.2f", x->vs_ts);
	table_setf(t, row, C_BENCH_OURS, "%.2f", x->ours_ts);
	table_setf(t, row, C_SPEEDUP, "%.2f", x->speedup);
	table_setf(t, row, C_PROC, "%zu/%zu", x->n_vs, x->n_ours);
}

/* CSV's one table: fills, in t (compare_table_cols() with C_N_SPEEDUP columns),
 * the speedup table's columns after compare's own (t/s of vs and of ours,
 * speedup, processes vs/ours: the figures text and markdown print under the
 * table) on each row that is a llama-bench test, and adds a row for each test
 * that has none of its own (a combined pp+tg test): its cell, its kind as the
 * metric, its speedup columns. */
static void compare_table_speedups(struct table *t, const struct parity_result *r,
				   const char *ours, const char *vs)
{
	unsigned vary = parity_rows_varying(r);
	/* Row 0 is the header: compare_table_cols() added r's rows after it. */
	size_t i, row = t->t.nrows - r->n_rows;

	table_col(t, C_BENCH_VS, TABLE_NUMBER, "", 8);
	table_col(t, C_BENCH_OURS, TABLE_NUMBER, "", 8);
	table_col_headf(t, C_BENCH_VS, "t/s %s", vs);
	table_col_headf(t, C_BENCH_OURS, "t/s %s", ours);
	table_col(t, C_SPEEDUP, TABLE_NUMBER, "speedup", 7);
	table_col(t, C_PROC, TABLE_TEXT, "processes", 0);
	for (i = 0; i < r->n_rows; i++, row++) {
		const struct speedup_row *x = row_speedup(r, &r->rows[i]);

		if (x)
			set_speedup(t, row, x);
	}
	for (i = 0; i < r->speedups.n_rows; i++) {
		const struct speedup_row *x = &r->speedups.rows[i];
		struct parity_row w;
		char name[256], spec[] = "", endpoint[] = "llama-bench";

		if (speedup_parity_row(r, x))
			continue;
		memset(&w, 0, sizeof(w));
		w.model = x->model;
		w.spec_type = spec;
		w.n_max = RUN_NULL;
		w.endpoint = endpoint;
		w.config = x->config;
		parity_row_label(&w, vary, name, sizeof(name));
		row = table_add_row(t);
		table_set(t, row, C_CELL, name);
		table_set(t, row, C_METRIC, x->kind);
		set_speedup(t, row, x);
	}
}

/* compare_table() in a table of ncols columns (C_N, or C_N_SPEEDUP for CSV's). */
static void compare_table_cols(struct table *t, const struct parity_result *r,
			       const char *ours, const char *vs, size_t ncols)
{
	unsigned vary = parity_rows_varying(r);
	char title[40];
	size_t i;

	rows_level_title(r, title, sizeof(title));
	table_init(t, ncols);
	table_col(t, C_CELL, TABLE_LABEL, "cell", 4);
	table_col(t, C_METRIC, TABLE_LABEL, "metric", 6);
	table_col(t, C_OURS, TABLE_RATE, ours, 10);
	table_col(t, C_VS, TABLE_RATE, vs, 10);
	table_col(t, C_DELTA, TABLE_DELTA, "delta", 8);
	table_col(t, C_CI, TABLE_INTERVAL, title, 19);
	table_col(t, C_REG, TABLE_VERDICT, "regression", 10);
	table_col(t, C_VERDICT, TABLE_VERDICT, "verdict", 9);
	table_col(t, C_ROUNDS, TABLE_COUNT, "rounds", 6);
	table_col(t, C_MDE, TABLE_PERCENT, "mde", 7);
	table_col(t, C_EXCL, TABLE_TEXT, "excl", 0);
	for (i = 0; i < r->n_rows; i++) {
		const struct parity_row *w = &r->rows[i];
		const char *reg = verdict_regression_name(w->v.regression);
		char name[256], ci[80];
		size_t row = table_add_row(t);

		parity_row_label(w, vary, name, sizeof(name));
		table_set(t, row, C_CELL, name);
		table_set(t, row, C_METRIC, w->metric);
		table_num(t, row, C_OURS, w->ours_median);
		table_num(t, row, C_VS, w->vs_median);
		table_num(t, row, C_DELTA, w->v.delta_pct);
		verdict_interval_text(&w->v, ci, sizeof(ci));
		table_set(t, row, C_CI, ci);
		table_set(t, row, C_REG, reg ? reg : "unknown");
		/* Bold only what the data settles: a decided regression. */
		if (w->v.regression == VERDICT_REG_YES ||
		    w->v.regression == VERDICT_REG_INTERMITTENT)
			table_mark(t, row, C_REG);
		table_set(t, row, C_VERDICT, verdict_kind_name(w->v.kind));
		table_setf(t, row, C_ROUNDS, "%zu", w->v.rounds);
		table_num(t, row, C_MDE, w->v.mde_pct);
		table_setf(t, row, C_EXCL, "%zu/%zu%s", w->excluded_ours, w->excluded_vs,
			   w->forced ? "  FORCED" : "");
	}
}

void compare_table(struct table *t, const struct parity_result *r, const char *ours,
		   const char *vs)
{
	compare_table_cols(t, r, ours, vs, C_N);
}

/* The cells compared across machines (--across-machines), a line each, under
 * the answer: the machines differ, so a difference may be theirs. */
static void write_machines(FILE *f, const struct parity_result *r, enum table_format fmt)
{
	for (size_t i = 0; i < r->n_notes; i++) {
		char *s;

		if (r->notes[i].kind != PARITY_NOTE_FORCED ||
		    r->notes[i].diff.kind != RUN_DIFF_MACHINE)
			continue;
		s = parity_note_text(&r->notes[i]);
		table_line(f, fmt, fmt == TABLE_FMT_MD, s);
		if (fmt == TABLE_FMT_MD)
			fputc('\n', f);
		free(s);
	}
}

void compare_write(FILE *f, const struct parity_result *r, const char *ours_raw,
		   const char *vs_raw, double band_pct, enum table_format fmt)
{
	unsigned vary = parity_rows_varying(r);
	char *same = parity_rows_constant(r, vary), *line = NULL, *o = NULL, *v = NULL;
	struct table t;

	if (fmt == TABLE_FMT_CSV) {
		/* One table: the speedups as columns of it. */
		compare_table_cols(&t, r, ours_raw, vs_raw,
				   r->speedups.n_rows ? C_N_SPEEDUP : C_N);
		if (r->speedups.n_rows)
			compare_table_speedups(&t, r, ours_raw, vs_raw);
		table_write(f, &t, fmt);
		goto out;
	}
	compare_table(&t, r, ours_raw, vs_raw);
	/* The answer first: what a person acts on, then the rows behind it. */
	line = answer_text_compare(r, ours_raw, vs_raw);
	if (fmt == TABLE_FMT_MD) {
		o = escape_md(ours_raw);
		v = escape_md(vs_raw);
		fprintf(f, "### tpsdb compare: %s vs %s\n\n", o, v);
		table_line(f, fmt, 1, line);
		fputc('\n', f);
		write_machines(f, r, fmt);
	} else {
		o = escape_text(ours_raw);
		v = escape_text(vs_raw);
		table_line(f, fmt, 0, line);
		write_machines(f, r, fmt);
		write_lead(f, r, band_pct, vary);
	}
	if (same) {
		/* The keys every row shares, once, so that each label shows what differs. */
		char *s = tps_xasprintf("%s of every row: %s", fmt == TABLE_FMT_MD ? "Config" :
					"config", same);
		table_line(f, fmt, 0, s);
		if (fmt == TABLE_FMT_MD)
			fputc('\n', f);
		free(s);
	}
	table_write(f, &t, fmt);
	if (fmt == TABLE_FMT_MD) {
		write_speedups(f, r, ours_raw, vs_raw, fmt);
		write_accept(f, r, ours_raw, vs_raw, fmt);
		write_bench_rounds(f, r, fmt);
		write_questions(f, r, vary, fmt);
		write_open_md(f, r, vary);
		fprintf(f, "\nregression: is %s slower than %s by more than %.1f%%? yes/no when the "
			   "whole interval (the header's level: 90%% for one fixed batch, wider for "
			   "a batch that looked every round or a pool of batches) lies below/above "
			   "-%.1f%% (only a decided yes is bold). "
			   "tok/s: geometric means of the instances' requests, delta %s / %s - 1; "
			   "verdict: the same interval against +-%.1f%%; mde: its half-width; excl: "
			   "flagged samples left out (%s/%s).\n",
			o, v, band_pct, band_pct, o, v, band_pct, o, v);
		goto out;
	}
	write_open(f, r, vary);
	write_questions(f, r, vary, fmt);
	write_speedups(f, r, ours_raw, vs_raw, fmt);
	write_accept(f, r, ours_raw, vs_raw, fmt);
	write_bench_rounds(f, r, fmt);
	fprintf(f, "regression: is %s slower than %s by more than the band (%.1f%%)? yes/no when "
		"the whole interval (the header's level: 90%%, 5%% each side, for one fixed "
		"batch; wider for a batch that looked every round or a pool of batches) lies "
		"below/above -band; spoiled when an instance it used carries an environment "
		"finding; verdict: the "
		"same interval against +-band; tok/s: geometric means of the instances' "
		"requests, delta their ratio; interval: t on the per-round log ratios (each run "
		"one instance); mde: its half-width; excl: flagged samples left out (%s/%s)\n",
		o, v, band_pct, o, v);
out:
	table_release(&t);
	free(same);
	free(line);
	free(o);
	free(v);
}
