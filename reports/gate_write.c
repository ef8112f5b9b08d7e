/* gate_write.c: renders a gate result (analyze/gate.h) as the text table, JSON,
 * GitHub annotations and JUnit XML, with one sentence per failure shared by the
 * text, JUnit and GitHub outputs. Decides nothing: statuses and counts are the
 * result's. */
#include "reports/gate_write.h"
#include "reports/answer_text.h"
#include "escape.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/compare_write.h"
#include "reports/json.h"
#include "reports/until_write.h"
#include "reports/md.h"
#include "reports/table.h"
#include "reports/parity.h"
#include "reports/sweep_text.h"
#include "schema/record.h"
#include "outfile.h"
#include "tpsdb.h"

#define CELL_LEN 256 /* a cell's display name */
#define MSG_LEN 768  /* one failure sentence */
#define ACROSS_LEN (MSG_LEN + 1024) /* one with two machines named */

static void cell_name(const struct gate_cell *c, char *buf, size_t len)
{
	run_cell_name(c->side, buf, len);
}

/* The two machines of diff (kind RUN_DIFF_MACHINE: a, the candidate's newest
 * run; b, a run of the baseline or of the candidate's own pool). */
static void machines_text(const struct gate_cell *c, const struct run_diff *d, char *buf,
			  size_t len)
{
	int own = 0;

	for (size_t k = 0; k < c->pool->n; k++)
		own |= c->pool->runs[k] == d->b;
	snprintf(buf, len, "measured on different machines: the candidate on '%s', %s on '%s'",
		 d->a->machine ? d->a->machine : d->a->host,
		 own ? "another of its runs" : "the baseline", d->b->machine ? d->b->machine :
		 d->b->host);
}

void gate_write_note(const struct gate_report *h, const struct gate_note *n, char *buf,
		     size_t len)
{
	char cell[CELL_LEN], why[1024];

	cell_name(n->cell, cell, sizeof(cell));
	switch (n->kind) {
	case GATE_NOTE_CAND_ONLY:
		snprintf(buf, len, "cell '%s': the candidate has it, the baseline '%s' does not",
			 cell, h->baseline);
		break;
	case GATE_NOTE_ENGINES:
		snprintf(buf, len, "cell '%s': the baseline holds %zu engines; gating against '%s'",
			 cell, n->n_engines, n->base->side->engine);
		break;
	case GATE_NOTE_NOT_COMPARABLE:
		parity_diff_text(&n->diff, why, sizeof(why));
		snprintf(buf, len, "cell '%s': not gated, the runs are not comparable: %s", cell,
			 why);
		break;
	case GATE_NOTE_NO_DATA:
		snprintf(buf, len, "cell '%s' %s: no usable values on %s side; not gated", cell,
			 gate_metric_name(n->metric),
			 n->baseline_empty ? "the baseline's" : "the candidate's");
		break;
	case GATE_NOTE_BASE_ONLY:
		snprintf(buf, len, "cell '%s': the baseline '%s' has it, the candidate does not",
			 cell, h->baseline);
		break;
	case GATE_NOTE_MACHINES:
		machines_text(n->cell, &n->diff, why, sizeof(why));
		snprintf(buf, len, "ACROSS MACHINES: cell '%s' gated unpaired against baseline "
			 "'%s' (--across-machines), %s", cell, h->baseline, why);
		break;
	}
}

char *gate_write_threshold_err(const struct gate_threshold_err *e, const char *path)
{
	char where[600] = "--max-regress";

	if (path && e->kind == GATE_THRESHOLD_SYNTAX)
		return tps_xasprintf("'%s' line %ld: expected 'metric = pct'", path, e->line);
	if (path)
		snprintf(where, sizeof(where), "'%s' line %ld", path, e->line);
	if (e->kind == GATE_THRESHOLD_METRIC)
		return tps_xasprintf("%s: unknown metric '%s' (tg, pp or accept)", where, e->name);
	return tps_xasprintf("%s: a threshold is a percent >= 0, not '%s'", where, e->value);
}

int gate_write_stop(const struct gate_report *h, const struct gate_result *r)
{
	char cell[CELL_LEN] = "", why[1024] = "";

	if (r->stop_cell)
		cell_name(r->stop_cell, cell, sizeof(cell));
	switch (r->stop) {
	case GATE_STOP_BAD_PARAMS:
		return tps_error("cannot gate '%s': a threshold or noise multiplier is not a "
				 "number >= 0", cell);
	case GATE_STOP_BAD_TREND:
		return tps_error("cannot search '%s' for change points: bad parameters", cell);
	case GATE_STOP_MACHINES:
		machines_text(r->stop_cell, &r->stop_diff, why, sizeof(why));
		return tps_error("refusing to gate cell '%s' against baseline '%s': %s "
				 "(--across-machines gates them unpaired; --host chooses one machine's runs)",
				 cell, h->baseline, why);
	case GATE_STOP_NOTHING_SHARED:
	case GATE_STOP_NONE:
		break;
	}
	if (r->stop == GATE_STOP_NOTHING_SHARED && h->near)
		compare_write_near(why, sizeof(why), h->near, h->engine, h->baseline);
	return tps_error("nothing to gate: no cell of '%s'%s%s%s is in the baseline '%s'%s",
			 h->engine, h->tag ? " tagged '" : "", h->tag ? h->tag : "",
			 h->tag ? "'" : "", h->baseline, why);
}

int gate_write_refused_json(FILE *f, const struct gate_report *h, const struct gate_result *r)
{
	cJSON *root = cJSON_CreateObject(), *x;
	char cell[CELL_LEN] = "", why[1024] = "";
	const struct run *a = r->stop_diff.a, *b = r->stop_diff.b;

	cJSON_AddBoolToObject(root, "pass", 0);
	cJSON_AddStringToObject(root, "baseline", h->baseline);
	cJSON_AddStringToObject(root, "engine", h->engine);
	cJSON_AddStringToObject(root, "status", "refused");
	x = cJSON_AddObjectToObject(root, "refused");
	cJSON_AddStringToObject(x, "reason", "machines-differ");
	if (r->stop_cell)
		cell_name(r->stop_cell, cell, sizeof(cell));
	cJSON_AddStringToObject(x, "cell", cell);
	json_put_str(x, "candidate_machine", a ? (a->machine ? a->machine : a->host) : NULL);
	json_put_str(x, "baseline_machine", b ? (b->machine ? b->machine : b->host) : NULL);
	if (r->stop_cell)
		machines_text(r->stop_cell, &r->stop_diff, why, sizeof(why));
	cJSON_AddStringToObject(x, "message", why);
	cJSON_AddArrayToObject(root, "cells");
	cJSON_AddArrayToObject(root, "warnings");
	return json_write(f, root);
}

int gate_write_out(const struct gate_report *h, const struct gate_result *r,
		   enum out_format fmt, const char *junit)
{
	const char *gh = getenv("GITHUB_ACTIONS");
	char msg[MSG_LEN + 1024];
	FILE *summary;
	size_t i;

	for (i = 0; i < r->n_notes; i++) {
		gate_write_note(h, &r->notes[i], msg, sizeof(msg));
		tps_warning("%s", msg);
	}
	if (junit && gate_write_junit(junit, h, r) < 0)
		return -1;
	if (fmt == OUT_JSON) {
		if (gate_write_json(stdout, h, r) < 0)
			return -1;
	} else {
		gate_write(stdout, h, r, format_table(fmt));
	}
	/* The runner reads annotations from stdout and stderr alike; with JSON or
	 * markdown they go to stderr so that stdout stays one document. */
	if (gh && !strcmp(gh, "true"))
		gate_write_github(fmt != OUT_TEXT ? stderr : stdout, h, r);
	if ((summary = step_summary_open())) {
		gate_write(summary, h, r, TABLE_FMT_MD);
		fputc('\n', summary);
		step_summary_close(summary);
	}
	return 0;
}

static const char *row_status(const struct gate_row *w)
{
	switch (w->g.outcome) {
	case VERDICT_GATE_FAIL:
		return "FAIL";
	case VERDICT_GATE_INCONCLUSIVE:
		return "INCONCLUSIVE";
	case VERDICT_GATE_SPOILED:
		return "SPOILED";
	case VERDICT_GATE_INTERMITTENT:
		return "INTERMITTENT";
	default:
		return "pass";
	}
}

/* A row the gate did not answer: open, or spoiled by the environment. */
static int row_open(const struct gate_row *w)
{
	return w->g.outcome == VERDICT_GATE_INCONCLUSIVE || w->g.outcome == VERDICT_GATE_SPOILED;
}

static void row_message(const struct gate_report *h, const struct gate_row *w, char *buf,
			size_t len)
{
	char cell[CELL_LEN];

	cell_name(w->cand, cell, sizeof(cell));
	const char *reg = verdict_regression_name(w->g.v.regression);
	char ci[80];

	verdict_interval_text(&w->g.v, ci, sizeof(ci));
	snprintf(buf, len, "%s %s: candidate %.6g vs baseline %.6g (%+.2f%%, interval %s): "
		 "regression %s at -%.2f%% against baseline '%s'", cell,
		 gate_metric_name(w->metric), w->g.candidate_mean, w->g.baseline_mean,
		 w->g.delta_pct, ci, reg ? reg : "unknown", w->g.threshold_pct, h->baseline);
	if (w->g.v.regression == VERDICT_REG_SPOILED) {
		char ans[400];
		size_t at = strlen(buf);

		clean_answer_text(&w->newest_clean, ans, sizeof(ans));
		snprintf(buf + at, len - at, "; %s", ans);
	}
}

static void viol_message(const struct gate_violation *v, char *buf, size_t len)
{
	char a[24], b[24];

	char ci[80] = "";

	if (v->step && isfinite(v->step->ci_lo_pct))
		snprintf(ci, sizeof(ci), ", interval [%+.2f%%, %+.2f%%]%s", v->step->ci_lo_pct,
			 v->step->ci_hi_pct, v->step->decided ? "" : ", undecided");
	else
		snprintf(ci, sizeof(ci), ", undecided (one run a rung: no interval)");
	snprintf(buf, len, "%s %s %s: decode falls %.1f%% from n_max=%s to n_max=%s%s",
		 v->series->engine, v->series->model, v->series->spec_type, v->drop_pct,
		 sweep_text_rung(v->from, a, sizeof(a)), sweep_text_rung(v->to, b, sizeof(b)),
		 ci);
}

/* A sweep step measured on two machines, in the sweep's own words for the
 * machines (parity_diff_text() of its two runs, as sweep_text_across() says them):
 * "ACROSS MACHINES: ours qwen3-8b draft-simple: decode from n_max=2 to n_max=3 not
 * checked, measured on different machines: ours on '...', ours on '...'". */
static void across_message(const struct gate_sweep_across *x, char *buf, size_t len)
{
	const struct run_diff d = { RUN_DIFF_MACHINE, x->step->machine_a, x->step->machine_b };
	char a[24], b[24], why[1024];

	parity_diff_text(&d, why, sizeof(why));
	snprintf(buf, len, "ACROSS MACHINES: %s %s %s: decode from n_max=%s to n_max=%s not "
		 "checked, %s", x->series->engine, x->series->model, x->series->spec_type,
		 sweep_text_rung(x->step->from_n_max, a, sizeof(a)),
		 sweep_text_rung(x->step->to_n_max, b, sizeof(b)), why);
}

/* The machine of a run as the JSON names it: its machine, else its host. */
static const char *run_machine(const struct run *r)
{
	return r->machine ? r->machine : r->host ? r->host : "";
}

static void find_message(const struct gate_finding *f, char *buf, size_t len)
{
	char cell[CELL_LEN];

	cell_name(f->cell, cell, sizeof(cell));
	if (f->env_flags) {
		char names[160];
		parity_env_names(f->env_flags, names, sizeof(names));
		snprintf(buf, len, "%s: the %s run %s carries %s: its numbers may be the "
			 "environment's, not the engine's", cell, f->base ? "baseline" : "candidate",
			 f->cell->side->uuid, names);
		return;
	}
	snprintf(buf, len, "%s: %lld of %lld samples of %srun %s are %s", cell,
		 (long long)f->count, (long long)f->n_samples, f->base ? "the baseline " : "",
		 f->cell->side->uuid, record_flag_name(f->flag));
}

static void output_message(const struct gate_output *o, char *buf, size_t len)
{
	char cell[CELL_LEN];

	cell_name(o->cand, cell, sizeof(cell));
	if (o->compared < 0)
		snprintf(buf, len, "%s: outputs not comparable (a run not at temperature 0)", cell);
	else
		snprintf(buf, len, "%s: %lld of %lld outputs identical to the baseline run %s", cell,
			 (long long)o->identical, (long long)o->compared, o->base->side->uuid);
}

static void trend_message(const struct gate_trend *t, char *buf, size_t len)
{
	char cell[CELL_LEN];
	const char *tag = t->run->tag;

	cell_name(t->cell, cell, sizeof(cell));
	snprintf(buf, len, "%s %s: change point at run %s%s%s%s: %.4g -> %.4g (%+.2f%%, p=%.2g)",
		 cell, gate_metric_name(t->metric), t->run->uuid, *tag ? " (tag '" : "", tag,
		 *tag ? "')" : "", t->cp.mean_before, t->cp.mean_after, t->cp.change_pct,
		 t->cp.pvalue);
}

/* A row's status, and the --fail-on that made an open row fail. */
static void status_name(const struct gate_row *w, char *buf, size_t len)
{
	if (w->fails && w->g.outcome != VERDICT_GATE_FAIL &&
	    w->g.outcome != VERDICT_GATE_INTERMITTENT)
		snprintf(buf, len, "%s (fails: --fail-on %s)", row_status(w),
			 gate_fail_on_name(w->fails));
	else
		snprintf(buf, len, "%s", row_status(w));
}

enum { G_CELL, G_METRIC, G_BASE, G_CAND, G_DELTA, G_CI, G_THRESH, G_ROUNDS, G_MDE, G_REG,
       G_STATUS, G_N };

static const struct table_colspec gate_cols[G_N] = {
	[G_CELL] = { TABLE_LABEL, "cell", 4 },
	[G_METRIC] = { TABLE_LABEL, "metric", 6 },
	[G_BASE] = { TABLE_RATE, "baseline", 10 },
	[G_CAND] = { TABLE_RATE, "candidate", 10 },
	[G_DELTA] = { TABLE_DELTA, "delta", 8 },
	[G_CI] = { TABLE_INTERVAL, "90% interval", 19 },
	[G_THRESH] = { TABLE_NUMBER, "threshold", 9 },
	[G_ROUNDS] = { TABLE_COUNT, "rounds", 6 },
	[G_MDE] = { TABLE_PERCENT, "mde", 7 },
	[G_REG] = { TABLE_VERDICT, "regression", 10 },
	[G_STATUS] = { TABLE_VERDICT, "status", 0 },
};

/* The config every row shares (caller frees; NULL when none) and which keys vary. */
static unsigned rows_vary(const struct gate_result *r, char **same)
{
	const char **cfg = tps_xcalloc(r->n_rows ? r->n_rows : 1, sizeof(*cfg));
	unsigned vary;
	size_t i;

	for (i = 0; i < r->n_rows; i++)
		cfg[i] = r->rows[i].cand->side->config;
	vary = parity_configs_varying(cfg, r->n_rows, same);
	free(cfg);
	return vary;
}

void gate_table(struct table *t, const struct gate_result *r)
{
	char cell[CELL_LEN], *same = NULL, title[40];
	unsigned vary = rows_vary(r, &same);
	const struct verdict **lv = tps_xcalloc(r->n_rows + 1, sizeof(*lv));
	size_t i;

	free(same);
	for (i = 0; i < r->n_rows; i++)
		lv[i] = &r->rows[i].g.v;
	verdict_level_title(lv, r->n_rows, title, sizeof(title));
	free(lv);
	table_init_cols(t, gate_cols, G_N);
	table_col_headf(t, G_CI, "%s", title);
	for (i = 0; i < r->n_rows; i++) {
		const struct gate_row *w = &r->rows[i];
		/* Acceptance is a ratio: three decimals; tok/s: one. */
		enum table_kind k = w->metric == GATE_ACCEPT ? TABLE_RATIO : TABLE_RATE;
		const char *reg = verdict_regression_name(w->g.v.regression);
		char ci[80];
		size_t row = table_add_row(t);

		run_cell_label(w->cand->side, vary, cell, sizeof(cell));
		table_set(t, row, G_CELL, cell);
		table_set(t, row, G_METRIC, gate_metric_name(w->metric));
		table_num_as(t, row, G_BASE, k, w->g.baseline_mean);
		table_num_as(t, row, G_CAND, k, w->g.candidate_mean);
		table_num(t, row, G_DELTA, w->g.delta_pct);
		verdict_interval_text(&w->g.v, ci, sizeof(ci));
		table_set(t, row, G_CI, ci);
		table_setf(t, row, G_THRESH, "-%.1f%%", w->g.threshold_pct);
		table_setf(t, row, G_ROUNDS, "%zu", w->g.rounds);
		table_num(t, row, G_MDE, w->g.mde_pct);
		table_set(t, row, G_REG, reg ? reg : "unknown");
		status_name(w, ci, sizeof(ci));
		table_set(t, row, G_STATUS, ci);
		if (w->g.outcome != VERDICT_GATE_PASS)
			table_mark(t, row, G_STATUS);
	}
}

/* The other checks' tables in markdown (checks_md()): the sweep's violations,
 * the findings and the trend's change points. */
static const struct table_colspec viol_cols[] = {
	{ TABLE_LABEL, "engine", 0 },
	{ TABLE_LABEL, "model", 0 },
	{ TABLE_LABEL, "spec", 0 },
	{ TABLE_TEXT, "from n_max", 0 },
	{ TABLE_TEXT, "to n_max", 0 },
	{ TABLE_NUMBER, "decode falls", 0 },
	{ TABLE_VERDICT, "status", 0 },
};
static const struct table_colspec find_cols[] = {
	{ TABLE_LABEL, "cell", 0 },
	{ TABLE_LABEL, "run", 0 },
	{ TABLE_TEXT, "flag", 0 },
	{ TABLE_NUMBER, "samples", 0 },
	{ TABLE_VERDICT, "status", 0 },
};
static const struct table_colspec trend_cols[] = {
	{ TABLE_LABEL, "cell", 0 },
	{ TABLE_LABEL, "metric", 0 },
	{ TABLE_LABEL, "new level from run", 0 },
	{ TABLE_LABEL, "tag", 0 },
	{ TABLE_NUMBER, "before", 0 },
	{ TABLE_NUMBER, "after", 0 },
	{ TABLE_DELTA, "change", 0 },
	{ TABLE_NUMBER, "p", 0 },
	{ TABLE_VERDICT, "status", 0 },
};

/* The markdown lines, under heading, of the rows the gate did not answer
 * (intermittent 0: never silent, also in a step summary) or answered
 * intermittent (1: the slow starts named). */
static void rows_md(FILE *f, const struct gate_result *r, int intermittent, const char *heading)
{
	char cell[CELL_LEN], ans[400];
	size_t i;
	int first = 1;

	for (i = 0; i < r->n_rows; i++) {
		const struct gate_row *w = &r->rows[i];
		char *line, *m;

		if (intermittent ? w->g.outcome != VERDICT_GATE_INTERMITTENT : !row_open(w))
			continue;
		if (first)
			fprintf(f, "\n%s:\n\n", heading);
		first = 0;
		cell_name(w->cand, cell, sizeof(cell));
		verdict_answer_text(&w->g.v, w->g.reason, ans, sizeof(ans));
		line = tps_xasprintf("%s %s: %s, regression %s%s", cell, gate_metric_name(w->metric),
				     row_status(w), ans, w->fails ? " (fails the gate)" : "");
		m = escape_md(line);
		fprintf(f, "- %s\n", m);
		free(m);
		free(line);
	}
}

/* One line of a list under the table: indented in text, a list item in markdown
 * (after a blank line before the first, *first). */
static void list_line(FILE *f, enum table_format fmt, const char *line, int *first)
{
	char *m = fmt == TABLE_FMT_MD ? escape_md(line) : escape_text(line);

	fprintf(f, "%s%s%s\n", fmt == TABLE_FMT_MD && *first ? "\n" : "",
		fmt == TABLE_FMT_MD ? "- " : "  ", m);
	*first = 0;
	free(m);
}

/* One line a candidate cell whose batch stopped on one metric alone (--metric),
 * a list item in markdown. */
static void questions(FILE *f, const struct gate_result *r, enum table_format fmt)
{
	char cell[CELL_LEN], q[200];
	size_t i;
	int first = 1;

	for (i = 0; i < r->n_rows; i++) {
		const struct gate_row *w = &r->rows[i];
		char *line;

		parity_question_text(w->question, q, sizeof(q));
		if (!*q || (i && r->rows[i - 1].cand == w->cand))
			continue;
		cell_name(w->cand, cell, sizeof(cell));
		line = tps_xasprintf("%s: %s", cell, q);
		list_line(f, fmt, line, &first);
		free(line);
	}
}

/* One line a spoiled row: the candidate's newest clean answer against the same
 * baseline (clean_answer_text()), a list item in markdown. */
static void clean_answers(FILE *f, const struct gate_result *r, enum table_format fmt)
{
	char cell[CELL_LEN], ans[400];
	size_t i;
	int first = 1;

	for (i = 0; i < r->n_rows; i++) {
		const struct gate_row *w = &r->rows[i];
		char *line;

		if (w->g.v.regression != VERDICT_REG_SPOILED)
			continue;
		cell_name(w->cand, cell, sizeof(cell));
		clean_answer_text(&w->newest_clean, ans, sizeof(ans));
		line = tps_xasprintf("%s %s: %s", cell, gate_metric_name(w->metric), ans);
		list_line(f, fmt, line, &first);
		free(line);
	}
}

/* The markdown of the other checks: one table each. */
static void checks_md(FILE *f, const struct gate_result *r)
{
	struct table t;
	char cell[CELL_LEN], a[32], b[32];
	size_t i, row;

	if (r->n_viol) {
		fprintf(f, "\nSweep violations:\n\n");
		table_init_cols(&t, viol_cols, sizeof(viol_cols) / sizeof(viol_cols[0]));
		for (i = 0; i < r->n_viol; i++) {
			const struct gate_violation *v = &r->viol[i];
			row = table_add_row(&t);
			table_set(&t, row, 0, v->series->engine);
			table_set(&t, row, 1, v->series->model);
			table_set(&t, row, 2, v->series->spec_type);
			table_set(&t, row, 3, sweep_text_rung(v->from, a, sizeof(a)));
			table_set(&t, row, 4, sweep_text_rung(v->to, b, sizeof(b)));
			table_setf(&t, row, 5, "%.1f%%", v->drop_pct);
			table_set(&t, row, 6, v->step && v->step->decided ? "FAIL" : "undecided");
			if (v->step && v->step->decided)
				table_mark(&t, row, 6);
		}
		table_write(f, &t, TABLE_FMT_MD);
		table_release(&t);
	}
	if (r->n_sweep_across) {
		fprintf(f, "\nSweep steps not checked (INCONCLUSIVE: neither a fall nor a pass):\n\n");
		for (i = 0; i < r->n_sweep_across; i++) {
			char msg[ACROSS_LEN], *line, *m;

			across_message(&r->sweep_across[i], msg, sizeof(msg));
			line = tps_xasprintf("%s%s", msg, r->sweep_across[i].fails ?
					     " (fails the gate)" : "");
			m = escape_md(line);
			fprintf(f, "- %s\n", m);
			free(m);
			free(line);
		}
	}
	if (r->n_find) {
		fprintf(f, "\nFindings:\n\n");
		table_init_cols(&t, find_cols, sizeof(find_cols) / sizeof(find_cols[0]));
		for (i = 0; i < r->n_find; i++) {
			const struct gate_finding *g = &r->find[i];
			row = table_add_row(&t);
			run_cell_name(g->cell->side, cell, sizeof(cell));
			table_set(&t, row, 0, cell);
			table_set(&t, row, 1, g->cell->side->uuid);
			if (g->env_flags) {
				char names[160];
				parity_env_names(g->env_flags, names, sizeof(names));
				table_set(&t, row, 2, names);
			} else {
				table_set(&t, row, 2, record_flag_name(g->flag));
			}
			table_setf(&t, row, 3, "%lld of %lld", (long long)g->count,
				   (long long)g->n_samples);
			table_set(&t, row, 4, g->fails ? "FAIL" : "noted");
			if (g->fails)
				table_mark(&t, row, 4);
		}
		table_write(f, &t, TABLE_FMT_MD);
		table_release(&t);
	}
	if (r->n_trend) {
		fprintf(f, "\nTrend change points:\n\n");
		table_init_cols(&t, trend_cols, sizeof(trend_cols) / sizeof(trend_cols[0]));
		for (i = 0; i < r->n_trend; i++) {
			const struct gate_trend *g = &r->trend[i];
			row = table_add_row(&t);
			run_cell_name(g->cell->side, cell, sizeof(cell));
			table_set(&t, row, 0, cell);
			table_set(&t, row, 1, gate_metric_name(g->metric));
			table_set(&t, row, 2, g->run->uuid);
			table_set(&t, row, 3, *g->run->tag ? g->run->tag : "-");
			table_num(&t, row, 4, g->cp.mean_before);
			table_num(&t, row, 5, g->cp.mean_after);
			table_num(&t, row, 6, g->cp.change_pct);
			md_num(a, sizeof(a), "%.2g", g->cp.pvalue);
			table_set(&t, row, 7, a);
			table_set(&t, row, 8, g->fail ? "FAIL" : "pass");
			if (g->fail)
				table_mark(&t, row, 8);
		}
		table_write(f, &t, TABLE_FMT_MD);
		table_release(&t);
	}
}

/* The text lines after the table: what is open, left out, and the other checks. */
static void checks_text(FILE *f, const struct gate_result *r)
{
	char msg[MSG_LEN], cell[CELL_LEN], *e;
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		const struct gate_row *w = &r->rows[i];
		char ans[400];
		size_t k;

		cell_name(w->cand, cell, sizeof(cell));
		e = escape_text(cell);
		if (w->g.outcome == VERDICT_GATE_INTERMITTENT) {
			verdict_answer_text(&w->g.v, w->g.reason, ans, sizeof(ans));
			fprintf(f, "  intermittent%s: %s %s: regression %s%s\n",
				w->fails ? " FAIL" : "", e, gate_metric_name(w->metric), ans,
				w->fails ? "" : " (--fail-on regression fails it)");
		}
		if (row_open(w)) {
			int spoiled = w->g.outcome == VERDICT_GATE_SPOILED;

			verdict_answer_text(&w->g.v, w->g.reason, ans, sizeof(ans));
			fprintf(f, "  %s%s: %s %s: regression %s%s\n",
				spoiled ? "spoiled" : "inconclusive", w->fails ? " FAIL" : "", e,
				gate_metric_name(w->metric), ans,
				w->fails ? "" : spoiled ? " (--fail-on environment fails it)" :
				" (--fail-on inconclusive fails it)");
		}
		for (k = 0; k < w->g.n_out_cand && k < 4; k++)
			fprintf(f, "  left out: %s %s: candidate instance %.8s, an outlier\n", e,
				gate_metric_name(w->metric), w->g.out_cand[k]);
		for (k = 0; k < w->g.n_out_base && k < 4; k++)
			fprintf(f, "  left out: %s %s: baseline instance %.8s, an outlier\n", e,
				gate_metric_name(w->metric), w->g.out_base[k]);
		free(e);
	}
	for (i = 0; i < r->n_viol; i++) {
		viol_message(&r->viol[i], msg, sizeof(msg));
		e = escape_text(msg);
		fprintf(f, "  sweep %s: %s\n", r->viol[i].step && r->viol[i].step->decided ?
			"FAIL" : "undecided dip", e);
		free(e);
	}
	for (i = 0; i < r->n_sweep_across; i++) {
		char am[ACROSS_LEN];

		across_message(&r->sweep_across[i], am, sizeof(am));
		e = escape_text(am);
		fprintf(f, "  sweep inconclusive%s: %s%s\n", r->sweep_across[i].fails ? " FAIL" : "",
			e, r->sweep_across[i].fails ? "" : " (--fail-on inconclusive fails it)");
		free(e);
	}
	for (i = 0; i < r->n_find; i++) {
		find_message(&r->find[i], msg, sizeof(msg));
		e = escape_text(msg);
		fprintf(f, "  finding%s: %s\n", r->find[i].fails ? " FAIL" : "", e);
		free(e);
	}
	for (i = 0; i < r->n_trend; i++) {
		trend_message(&r->trend[i], msg, sizeof(msg));
		e = escape_text(msg);
		fprintf(f, "  trend %s: %s\n", r->trend[i].fail ? "FAIL" : "pass", e);
		free(e);
	}
	for (i = 0; i < r->n_outputs; i++) {
		output_message(&r->outputs[i], msg, sizeof(msg));
		e = escape_text(msg);
		fprintf(f, "  outputs %s: %s\n", r->outputs[i].fail ? "FAIL" : "pass", e);
		free(e);
	}
}

/* The cells gated across machines (--across-machines), a line each under the
 * answer: a difference may be the machines'. */
static void write_machines(FILE *f, const struct gate_report *h, const struct gate_result *r,
			   enum table_format fmt)
{
	char msg[MSG_LEN + 1024];

	for (size_t i = 0; i < r->n_notes; i++) {
		if (r->notes[i].kind != GATE_NOTE_MACHINES)
			continue;
		gate_write_note(h, &r->notes[i], msg, sizeof(msg));
		if (fmt == TABLE_FMT_MD) {
			table_line(f, fmt, 1, msg);
			fputc('\n', f);
		} else {
			char *m = escape_text(msg);
			fprintf(f, "  %s\n", m);
			free(m);
		}
	}
}

void gate_write(FILE *f, const struct gate_report *h, const struct gate_result *r,
		enum table_format fmt)
{
	char *same = NULL, *line = NULL, *e = NULL, *t = NULL, *b = NULL, msg[MSG_LEN + 1024];
	struct table tab;
	size_t i;

	gate_table(&tab, r);
	if (fmt == TABLE_FMT_CSV) {
		table_write(f, &tab, fmt);
		goto out;
	}
	rows_vary(r, &same);
	if (r->n_rows)
		line = answer_text_gate(r);
	if (fmt == TABLE_FMT_MD) {
		e = escape_md(h->engine);
		b = escape_md(h->baseline);
		t = escape_md(h->tag);
		fprintf(f, "### tpsdb gate: %s: '%s'%s%s%s against baseline '%s' (%zu failure%s)\n\n",
			r->status == GATE_STATUS_FAIL ? "**FAIL**" : gate_status_name(r->status), e,
			h->tag ? " tag '" : "", h->tag ? t : "", h->tag ? "'" : "", b, r->n_fail,
			r->n_fail == 1 ? "" : "s");
		if (line) {
			table_line(f, fmt, 0, line);
			fputc('\n', f);
		}
		write_machines(f, h, r, fmt);
		if (same) {
			char *s = tps_xasprintf("Config of every row: %s", same);
			table_line(f, fmt, 0, s);
			fputc('\n', f);
			free(s);
		}
		table_write(f, &tab, fmt);
		rows_md(f, r, 0, "Not answered");
		rows_md(f, r, 1, "Slow on some starts");
		questions(f, r, fmt);
		clean_answers(f, r, fmt);
		checks_md(f, r);
		if (r->n_notes) {
			fprintf(f, "\nWarnings:\n\n");
			for (i = 0; i < r->n_notes; i++) {
				char *m;
				gate_write_note(h, &r->notes[i], msg, sizeof(msg));
				m = escape_md(msg);
				fprintf(f, "- %s\n", m);
				free(m);
			}
		}
		fprintf(f, "\ntok/s: geometric means of the instances' requests (accept: "
			   "accepted/drafted). regression: yes (fail) when the whole interval (the "
			   "header's level, compare's) lies below -threshold, no (pass) when it lies "
			   "above, spoiled when an instance it used carries an environment finding, "
			   "else undecided (inconclusive). mde: the interval's half-width.\n");
		goto out;
	}
	e = escape_text(h->engine);
	t = escape_text(h->tag);
	b = escape_text(h->baseline);
	fprintf(f, "gate: '%s'%s%s%s against baseline '%s': %s (%zu failure(s))\n", e,
		h->tag ? " tag '" : "", t, h->tag ? "'" : "", b, gate_status_name(r->status),
		r->n_fail);
	if (line) {
		char *m = escape_text(line);
		fprintf(f, "  %s\n", m);
		free(m);
	}
	write_machines(f, h, r, fmt);
	if (same) {
		char *m = escape_text(same);
		fprintf(f, "  config of every row: %s\n", m);
		free(m);
	}
	tab.indent = "  ";
	table_write(f, &tab, fmt);
	questions(f, r, fmt);
	clean_answers(f, r, fmt);
	checks_text(f, r);
	fprintf(f, "tok/s: geometric means of the instances' requests (accept: accepted/"
		"drafted); regression: the whole interval (the header's level, compare's) below "
		"-threshold (fail) or above it (pass), spoiled by an environment finding, else "
		"inconclusive\n");
out:
	table_release(&tab);
	free(same);
	free(line);
	free(e);
	free(t);
	free(b);
}

static void json_rows(cJSON *arr, const struct gate_result *r)
{
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		const struct gate_row *w = &r->rows[i];
		const struct run *s = w->cand->side;
		cJSON *c = cJSON_CreateObject();

		cJSON_AddItemToArray(arr, c);
		cJSON_AddStringToObject(c, "model", s->model);
		cJSON_AddStringToObject(c, "spec_type", s->spec_type);
		json_put_rung(c, "n_max", s->n_max);
		cJSON_AddStringToObject(c, "endpoint", s->endpoint);
		cJSON_AddStringToObject(c, "metric", gate_metric_name(w->metric));
		json_put_num(c, "baseline", w->g.baseline_mean);
		json_put_num(c, "candidate", w->g.candidate_mean);
		json_put_num(c, "delta_pct", w->g.delta_pct);
		json_put_num(c, "threshold_pct", w->g.threshold_pct);
		cJSON_AddStringToObject(c, "bound", verdict_bound_name(w->g.bound));
		json_put_num(c, "noise_pct", w->noise_pct);
		json_put_evidence(c, &w->g.v);
		cJSON_AddNumberToObject(c, "n_baseline", (double)w->g.n_baseline);
		cJSON_AddNumberToObject(c, "n_candidate", (double)w->g.n_candidate);
		cJSON_AddStringToObject(c, "baseline_run", w->base->side->uuid);
		cJSON_AddStringToObject(c, "candidate_run", s->uuid);
		cJSON_AddStringToObject(c, "status", verdict_gate_outcome_name(w->g.outcome));
		cJSON_AddNumberToObject(c, "rounds", (double)w->g.rounds);
		cJSON_AddNumberToObject(c, "instances_ours", (double)w->g.instances_cand);
		cJSON_AddNumberToObject(c, "instances_vs", (double)w->g.instances_base);
		json_put_num(c, "mde_pct", w->g.mde_pct);
		cJSON_AddBoolToObject(c, "decided", w->g.decided);
		json_put_num(c, "ci_lo_pct", w->g.ci_lo_pct);
		json_put_num(c, "ci_hi_pct", w->g.ci_hi_pct);
		cJSON_AddStringToObject(c, "method", verdict_method_name(w->g.method));
		json_put_num(c, "ci_level", w->g.v.ci_level);
		json_put_str(c, "question_metric", parity_question_name(w->question));
		cJSON_AddBoolToObject(c, "across_machines", w->across);
		json_put_str(c, "candidate_machine", s->machine);
		json_put_str(c, "baseline_machine", w->base->side->machine);
		json_put_regression(c, w->g.v.regression);
		if (w->g.reason)
			cJSON_AddStringToObject(c, "reason", estimate_reason_name(w->g.reason));
		else
			cJSON_AddNullToObject(c, "reason");
		{
			cJSON *out = cJSON_AddArrayToObject(c, "outlier_instances");
			size_t k;
			for (k = 0; k < w->g.n_out_cand && k < 4; k++) {
				cJSON *x = cJSON_CreateObject();
				cJSON_AddStringToObject(x, "side", "candidate");
				cJSON_AddStringToObject(x, "run", w->g.out_cand[k]);
				cJSON_AddItemToArray(out, x);
			}
			for (k = 0; k < w->g.n_out_base && k < 4; k++) {
				cJSON *x = cJSON_CreateObject();
				cJSON_AddStringToObject(x, "side", "baseline");
				cJSON_AddStringToObject(x, "run", w->g.out_base[k]);
				cJSON_AddItemToArray(out, x);
			}
		}
		json_put_i64(c, "outputs_compared", w->outputs_compared < 0 ? INT64_MIN :
			     w->outputs_compared);
		json_put_i64(c, "outputs_identical", w->outputs_identical < 0 ? INT64_MIN :
			     w->outputs_identical);
		json_put_clean(c, &w->newest_clean);
	}
}

static void json_checks(cJSON *root, const struct gate_result *r)
{
	cJSON *arr;
	char cell[CELL_LEN];
	size_t i;

	arr = cJSON_AddArrayToObject(root, "sweep_violations");
	for (i = 0; i < r->n_viol; i++) {
		const struct gate_violation *g = &r->viol[i];
		cJSON *v = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, v);
		cJSON_AddStringToObject(v, "engine", g->series->engine);
		cJSON_AddStringToObject(v, "model", g->series->model);
		cJSON_AddStringToObject(v, "spec_type", g->series->spec_type);
		json_put_rung(v, "from", g->from);
		json_put_rung(v, "to", g->to);
		json_put_num(v, "drop_pct", g->drop_pct);
		json_put_num(v, "ci_lo_pct", g->step ? g->step->ci_lo_pct : NAN);
		json_put_num(v, "ci_hi_pct", g->step ? g->step->ci_hi_pct : NAN);
		cJSON_AddBoolToObject(v, "decided", g->step && g->step->decided);
	}
	/* Steps the sweep never checked, measured on two machines: open. */
	arr = cJSON_AddArrayToObject(root, "sweep_across_machines");
	for (i = 0; i < r->n_sweep_across; i++) {
		const struct gate_sweep_across *g = &r->sweep_across[i];
		cJSON *v = cJSON_CreateObject(), *m;
		char msg[ACROSS_LEN];

		cJSON_AddItemToArray(arr, v);
		cJSON_AddStringToObject(v, "engine", g->series->engine);
		cJSON_AddStringToObject(v, "model", g->series->model);
		cJSON_AddStringToObject(v, "spec_type", g->series->spec_type);
		json_put_rung(v, "from", g->step->from_n_max);
		json_put_rung(v, "to", g->step->to_n_max);
		m = cJSON_AddArrayToObject(v, "machines");
		cJSON_AddItemToArray(m, cJSON_CreateString(run_machine(g->step->machine_a)));
		cJSON_AddItemToArray(m, cJSON_CreateString(run_machine(g->step->machine_b)));
		cJSON_AddStringToObject(v, "status", "inconclusive");
		cJSON_AddBoolToObject(v, "fails", g->fails != 0);
		across_message(g, msg, sizeof(msg));
		cJSON_AddStringToObject(v, "message", msg);
	}
	arr = cJSON_AddArrayToObject(root, "findings");
	for (i = 0; i < r->n_find; i++) {
		const struct gate_finding *g = &r->find[i];
		cJSON *v = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, v);
		cell_name(g->cell, cell, sizeof(cell));
		cJSON_AddStringToObject(v, "cell", cell);
		cJSON_AddStringToObject(v, "run", g->cell->side->uuid);
		if (g->env_flags) {
			char names[160];
			parity_env_names(g->env_flags, names, sizeof(names));
			cJSON_AddStringToObject(v, "flag", names);
		} else {
			cJSON_AddStringToObject(v, "flag", record_flag_name(g->flag));
		}
		cJSON_AddNumberToObject(v, "count", (double)g->count);
		cJSON_AddNumberToObject(v, "samples", (double)g->n_samples);
		cJSON_AddBoolToObject(v, "fails", g->fails != 0);
		cJSON_AddStringToObject(v, "side", g->base ? "baseline" : "candidate");
	}
	arr = cJSON_AddArrayToObject(root, "outputs");
	for (i = 0; i < r->n_outputs; i++) {
		const struct gate_output *g = &r->outputs[i];
		cJSON *v = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, v);
		cell_name(g->cand, cell, sizeof(cell));
		cJSON_AddStringToObject(v, "cell", cell);
		cJSON_AddStringToObject(v, "candidate_run", g->cand->side->uuid);
		cJSON_AddStringToObject(v, "baseline_run", g->base->side->uuid);
		json_put_i64(v, "outputs_compared", g->compared < 0 ? INT64_MIN : g->compared);
		json_put_i64(v, "outputs_identical", g->identical < 0 ? INT64_MIN : g->identical);
		cJSON_AddStringToObject(v, "status", g->fail ? "fail" : "pass");
	}
	arr = cJSON_AddArrayToObject(root, "trend");
	for (i = 0; i < r->n_trend; i++) {
		const struct gate_trend *t = &r->trend[i];
		cJSON *v = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, v);
		cJSON_AddStringToObject(v, "model", t->cell->side->model);
		cJSON_AddStringToObject(v, "spec_type", t->cell->side->spec_type);
		json_put_rung(v, "n_max", t->cell->side->n_max);
		cJSON_AddStringToObject(v, "metric", gate_metric_name(t->metric));
		cJSON_AddStringToObject(v, "run", t->run->uuid);
		cJSON_AddStringToObject(v, "tag", t->run->tag);
		json_put_num(v, "before", t->cp.mean_before);
		json_put_num(v, "after", t->cp.mean_after);
		json_put_num(v, "change_pct", t->cp.change_pct);
		json_put_num(v, "p_value", t->cp.pvalue);
		cJSON_AddNumberToObject(v, "n_before", (double)t->cp.n_before);
		cJSON_AddNumberToObject(v, "n_after", (double)t->cp.n_after);
		cJSON_AddStringToObject(v, "status", t->fail ? "fail" : "pass");
	}
}

int gate_write_json(FILE *f, const struct gate_report *h, const struct gate_result *r)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	char msg[MSG_LEN + 1024];
	size_t i;

	cJSON_AddBoolToObject(root, "pass", r->n_fail == 0);
	cJSON_AddStringToObject(root, "baseline", h->baseline);
	cJSON_AddStringToObject(root, "engine", h->engine);
	json_put_str(root, "tag", h->tag);
	cJSON_AddNumberToObject(root, "failures", (double)r->n_fail);
	cJSON_AddStringToObject(root, "status", r->status == GATE_STATUS_FAIL ? "fail" :
				r->status == GATE_STATUS_OPEN ? "inconclusive" : "pass");
	cJSON_AddNumberToObject(root, "inconclusive", (double)r->n_inconclusive);
	cJSON_AddNumberToObject(root, "sweep_inconclusive", (double)r->n_sweep_across);
	cJSON_AddNumberToObject(root, "spoiled", (double)r->n_spoiled);
	cJSON_AddNumberToObject(root, "across_machines", (double)r->n_across);
	json_rows(cJSON_AddArrayToObject(root, "cells"), r);
	arr = cJSON_AddArrayToObject(root, "warnings");
	for (i = 0; i < r->n_notes; i++) {
		gate_write_note(h, &r->notes[i], msg, sizeof(msg));
		cJSON_AddItemToArray(arr, cJSON_CreateString(msg));
	}
	json_checks(root, r);
	return json_write(f, root);
}

/* GitHub's workflow commands end a message at a newline and decode %XX: the
 * message goes through escape_github(), so a label cannot end it and start a
 * command of its own. */
static void gh_print(FILE *f, const char *kind, const char *msg)
{
	char *title = escape_github("tpsdb gate", 1), *m = escape_github(msg, 0);

	if (!strcmp(kind, "error"))
		fprintf(f, "::%s title=%s::%s\n", kind, title, m);
	else
		fprintf(f, "::%s::%s\n", kind, m);
	free(title);
	free(m);
}

void gate_write_github(FILE *f, const struct gate_report *h, const struct gate_result *r)
{
	char msg[MSG_LEN];
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		const struct gate_row *w = &r->rows[i];

		if (!w->fails && !row_open(w))
			continue;
		row_message(h, w, msg, sizeof(msg));
		/* An open row is a warning the run shows, never silence. */
		gh_print(f, w->fails ? "error" : "warning", msg);
	}
	for (i = 0; i < r->n_viol; i++) {
		viol_message(&r->viol[i], msg, sizeof(msg));
		gh_print(f, r->viol[i].step && r->viol[i].step->decided ? "error" : "warning", msg);
	}
	for (i = 0; i < r->n_sweep_across; i++) {
		char am[ACROSS_LEN];

		across_message(&r->sweep_across[i], am, sizeof(am));
		gh_print(f, r->sweep_across[i].fails ? "error" : "warning", am);
	}
	for (i = 0; i < r->n_find; i++) {
		find_message(&r->find[i], msg, sizeof(msg));
		gh_print(f, r->find[i].fails ? "error" : "warning", msg);
	}
	for (i = 0; i < r->n_trend; i++) {
		if (!r->trend[i].fail)
			continue;
		trend_message(&r->trend[i], msg, sizeof(msg));
		gh_print(f, "error", msg);
	}
	for (i = 0; i < r->n_notes; i++) {
		char note[MSG_LEN + 1024];
		gate_write_note(h, &r->notes[i], note, sizeof(note));
		gh_print(f, "warning", note);
	}
}

/* XML 1.0 text and attribute values, through escape_xml(): the five entities, '?'
 * for the control and C1 characters XML cannot carry, U+FFFD for invalid UTF-8. */
static void xml_put(FILE *f, const char *s)
{
	char *e = escape_xml(s);

	fputs(e, f);
	free(e);
}

/* One testcase: passed (failure and skipped NULL), failed, or skipped: a row the
 * gate did not answer is JUnit's skipped test, with the reason, never a pass. */
static void junit_case(FILE *f, const char *classname, const char *name, const char *failure,
		       const char *skipped)
{
	fputs("    <testcase classname=\"", f);
	xml_put(f, classname);
	fputs("\" name=\"", f);
	xml_put(f, name);
	if (!failure && !skipped) {
		fputs("\" time=\"0\"/>\n", f);
		return;
	}
	if (skipped) {
		fputs("\" time=\"0\">\n      <skipped message=\"", f);
		xml_put(f, skipped);
		fputs("\"/>\n    </testcase>\n", f);
		return;
	}
	fputs("\" time=\"0\">\n      <failure message=\"", f);
	xml_put(f, failure);
	fputs("\" type=\"regression\">", f);
	xml_put(f, failure);
	fputs("</failure>\n    </testcase>\n", f);
}

static void junit_cases(FILE *f, const struct gate_report *h, const struct gate_result *r)
{
	char msg[MSG_LEN], name[400], cls[400], cell[CELL_LEN];
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		const struct gate_row *w = &r->rows[i];
		cell_name(w->cand, cell, sizeof(cell));
		snprintf(cls, sizeof(cls), "tpsdb.gate.%s", w->cand->side->model);
		snprintf(name, sizeof(name), "%s %s%s", cell, gate_metric_name(w->metric),
			 w->across ? " (across machines)" : "");
		row_message(h, w, msg, sizeof(msg));
		junit_case(f, cls, name, w->fails ? msg : NULL,
			   !w->fails && row_open(w) ? msg : NULL);
	}
	for (i = 0; i < r->n_viol; i++) {
		snprintf(cls, sizeof(cls), "tpsdb.sweep.%s", r->viol[i].series->model);
		viol_message(&r->viol[i], msg, sizeof(msg));
		junit_case(f, cls, msg, r->viol[i].step && r->viol[i].step->decided ? msg : NULL,
			   NULL);
	}
	for (i = 0; i < r->n_sweep_across; i++) {
		const struct gate_sweep_across *x = &r->sweep_across[i];
		char am[ACROSS_LEN];

		snprintf(cls, sizeof(cls), "tpsdb.sweep.%s", x->series->model);
		across_message(x, am, sizeof(am));
		junit_case(f, cls, am, x->fails ? am : NULL, x->fails ? NULL : am);
	}
	for (i = 0; i < r->n_find; i++) {
		if (!r->find[i].fails)
			continue;
		find_message(&r->find[i], msg, sizeof(msg));
		junit_case(f, "tpsdb.quality", msg, msg, NULL);
	}
	for (i = 0; i < r->n_trend; i++) {
		const struct gate_trend *t = &r->trend[i];
		cell_name(t->cell, cell, sizeof(cell));
		snprintf(cls, sizeof(cls), "tpsdb.trend.%s", t->cell->side->model);
		snprintf(name, sizeof(name), "%s %s trend", cell, gate_metric_name(t->metric));
		trend_message(t, msg, sizeof(msg));
		junit_case(f, cls, name, t->fail ? msg : NULL, NULL);
	}
}

/* The cells gated across machines, as the suite's properties: a reader of the
 * report sees that its rows compare two machines. */
static void junit_machines(FILE *f, const struct gate_report *h, const struct gate_result *r)
{
	char msg[MSG_LEN + 1024];
	size_t i, n = 0;

	for (i = 0; i < r->n_notes; i++) {
		if (r->notes[i].kind != GATE_NOTE_MACHINES)
			continue;
		if (!n++)
			fputs("    <properties>\n", f);
		gate_write_note(h, &r->notes[i], msg, sizeof(msg));
		fputs("      <property name=\"across_machines\" value=\"", f);
		xml_put(f, msg);
		fputs("\"/>\n", f);
	}
	if (n)
		fputs("    </properties>\n", f);
}

int gate_write_junit(const char *path, const struct gate_report *h,
		     const struct gate_result *r)
{
	struct outfile *of = outfile_open(path);
	size_t tests = r->n_rows + r->n_viol + r->n_sweep_across + r->n_trend, skipped = 0, i;
	char name[400];
	FILE *f;

	if (!of)
		return -1;
	for (i = 0; i < r->n_find; i++)
		tests += r->find[i].fails != 0;
	for (i = 0; i < r->n_rows; i++)
		skipped += !r->rows[i].fails && row_open(&r->rows[i]);
	for (i = 0; i < r->n_sweep_across; i++)
		skipped += !r->sweep_across[i].fails;
	f = outfile_stream(of);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites name=\"tpsdb gate\" tests=\"%zu\" failures=\"%zu\">\n", tests,
		r->n_fail);
	fputs("  <testsuite name=\"", f);
	snprintf(name, sizeof(name), "tpsdb gate: %s against %s", h->engine, h->baseline);
	xml_put(f, name);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n", tests,
		r->n_fail, skipped);
	junit_machines(f, h, r);
	junit_cases(f, h, r);
	fputs("  </testsuite>\n</testsuites>\n", f);
	/* the commit names the first write error, and keeps the old file on one */
	return outfile_commit(of);
}
