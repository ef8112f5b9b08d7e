/* report_write.c: the report as markdown (report.md) and as plain text
 * (summary.txt). Both come from one walk over the tables, with a hook per markup,
 * and every table is one struct table (table.h) written by table_write(), so the
 * two files cannot drift apart; a label is escaped for markdown and made printable
 * for text. */
#include "escape.h"
#include "reports/tables_int.h"
#include "reports/md.h"
#include "reports/table.h"
#include "reports/strv.h"
#include "tpsdb.h"

#include <stdlib.h>
#include <string.h>

/* The cells hold text and numbers alike ("13150 / 142.6 (parity)", "0.71"): every
 * column stays TABLE_TEXT, left-aligned, as the report has always shown them. */
void tables_build_base(const struct tables *t, struct table *tab)
{
	size_t i, e, r;

	tables_table_init(tab, t->n_engines + 1);
	table_col(tab, 0, TABLE_LABEL, "model", 0);
	for (e = 0; e < t->n_engines; e++)
		table_col_headf(tab, e + 1, "%s pp / tg", t->engines[e].label);
	for (i = 0; i < t->n_base; i++) {
		char *m = cell_label_endpoint(t->base[i].model, t->base[i].endpoint);
		r = table_add_row(tab);
		table_set(tab, r, 0, m);
		free(m);
		for (e = 0; e < t->n_engines; e++) {
			char *c = tables_base_text(t, &t->base[i], e);
			table_set(tab, r, e + 1, c);
			free(c);
		}
	}
}

void tables_build_spec(const struct tables *t, struct table *tab)
{
	size_t i, k, r;

	tables_table_init(tab, t->n_spec_cols + 1);
	table_col(tab, 0, TABLE_LABEL, "model / config", 0);
	for (k = 0; k < t->n_spec_cols; k++)
		table_col_headf(tab, k + 1, "%s n%lld", t->engines[t->spec_cols[k].engine].label,
				(long long)t->spec_cols[k].n_max);
	for (i = 0; i < t->n_spec; i++) {
		const struct tables_spec_row *row = &t->spec[i];
		char *m = cell_label_endpoint(row->model, row->endpoint);
		r = table_add_row(tab);
		table_setf(tab, r, 0, "%s / %s", m, study_spec_name(row->spec_type));
		free(m);
		for (k = 0; k < t->n_spec_cols; k++) {
			char *c = tables_spec_text(&row->cells[k]);
			table_set(tab, r, k + 1, c);
			if (row->cells[k].best)
				table_mark(tab, r, k + 1);
			free(c);
		}
	}
}

/* One row of the prompts table: its label, then vals[0..n) in fmt. */
static void prompts_row(struct table *tab, const char *label, const double *vals, size_t n,
			const char *fmt)
{
	size_t k, r = table_add_row(tab);
	char buf[32];

	table_set(tab, r, 0, label);
	for (k = 0; k < n; k++) {
		md_num(buf, sizeof(buf), fmt, vals[k]);
		table_set(tab, r, k + 1, buf);
	}
}

void tables_build_prompts(const struct tables *t, const struct tables_prompt_table *pt,
			  struct table *tab)
{
	size_t i, k;

	tables_table_init(tab, pt->n_cols + 1);
	table_col(tab, 0, TABLE_LABEL, "prompt", 0);
	for (k = 0; k < pt->n_cols; k++)
		table_col_headf(tab, k + 1, "%s n%lld", t->engines[pt->cols[k].engine].label,
				(long long)pt->cols[k].n_max);
	for (i = 0; i < pt->n_prompts; i++)
		prompts_row(tab, pt->prompts[i], &pt->accept[i * pt->n_cols], pt->n_cols, "%.2f");
	prompts_row(tab, "all prompts", pt->all, pt->n_cols, "%.2f");
	prompts_row(tab, "decode tok/s", pt->decode, pt->n_cols, "%.1f");
}

void tables_build_runs(const struct tables *t, struct table *tab)
{
	static const char *const head[8] = { "run", "engine", "model", "config", "tag",
					     "started", "build", "machine" };
	size_t i, r, nc;

	/* The machine column where the runs come from several. */
	nc = t->n_machines > 1 ? 8 : 7;
	tables_table_init(tab, nc);
	for (i = 0; i < nc; i++)
		table_col(tab, i, i < 3 ? TABLE_LABEL : TABLE_TEXT, head[i], 0);
	for (i = 0; i < t->n_runs; i++) {
		const struct tables_run *x = &t->runs[i];
		char *c = cell_label(x->spec_type, x->n_max, x->endpoint);
		r = table_add_row(tab);
		table_set(tab, r, 0, x->uuid);
		table_set(tab, r, 1, x->engine);
		table_set(tab, r, 2, x->model);
		table_set(tab, r, 3, c);
		table_set(tab, r, 4, study_same(x->tag, "") ? "-" : x->tag);
		table_set(tab, r, 5, x->started_at);
		table_set(tab, r, 6, *x->build ? x->build : "-");
		if (nc == 8)
			table_set(tab, r, 7, x->machine ? x->machine : "-");
		free(c);
	}
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
	char *e = o->md ? escape_md(text) : md_plain(text);
	fprintf(o->f, "%s%s\n", prefix, e);
	free(e);
}

/* Writes a table and releases it: each is built, written once and dropped. */
static void table(struct out *o, struct table *tab)
{
	table_write(o->f, tab, o->md ? TABLE_FMT_MD : TABLE_FMT_TEXT);
	fputc('\n', o->f);
	table_release(tab);
}

static void figure(struct out *o, const char *what, const char *file)
{
	char *e;

	if (!file)
		return;
	if (o->md) {
		e = escape_md(what);
		/* The file name is ours (trend.png and so on), but a link still must not
		 * carry a ')' or a blank. */
		fprintf(o->f, "![%s](%s)\n\n", e, file);
		free(e);
	} else {
		fprintf(o->f, "%s: %s\n", what, file);
	}
}

/* Where the runs that match come from several machines, a section that names
 * each and the engines measured there: a comparison pairs runs of one machine
 * only. */
static void write_machines(struct out *o, const struct tables *t)
{
	size_t n, i;
	char **lines = tables_machine_lines(t, &n);

	if (n) {
		char *intro = tables_machines_intro(n);

		heading(o, 2, "Machines");
		fprintf(o->f, "%s\n\n", intro);
		free(intro);
		for (i = 0; i < n; i++)
			line(o, "- ", lines[i]);
		fputc('\n', o->f);
	}
	strv_free(lines, n);
}

/* A paragraph of words that hold labels, or nothing when text is NULL; frees it. */
static void para(struct out *o, char *text)
{
	if (!text)
		return;
	line(o, "", text);
	fputc('\n', o->f);
	free(text);
}

static int write_doc(struct out *o, const struct tables *t, const struct tables_figures *fig)
{
	struct table tab = { 0 };
	char **lines, *ref, *title;
	size_t n, i;

	heading(o, 1, "tpsdb report");
	/* Several machines: which the numbers come from, before any number. */
	para(o, tables_machines_note(t));
	/* The answers first, one table of every comparison x metric x model; the
	 * words that explain them come under it. */
	if (t->n_rows) {
		tables_build_answers(t, &tab);
		table(o, &tab);
		title = tables_answers_legend(t);
		line(o, "", title);
		fputc('\n', o->f);
		free(title);
	}
	if (t->ref) {
		ref = o->md ? escape_md(t->ref) : md_plain(t->ref);
		fprintf(o->f, "In tok/s, prefill (pp) as a whole number, decode (tg) to one "
			"decimal: each cell's estimate against the reference engine %s, the one "
			"'tpsdb compare' prints (the geometric mean of the requests of the instances "
			"behind it; a cell without a comparison, its latest run's median). In "
			"parentheses, the verdicts of pp / tg from compare's interval (90%% for a batch of fixed rounds, wider for an until-decided batch or a pool of batches): "
			"\"parity\" when it lies inside the band, the delta and \"faster\" or "
			"\"slower\" when it lies beyond, else the delta and \"undecided\" (one "
			"instance a side decides nothing without a stored A/A floor); \"n/a\" one "
			"without values.\n\n", ref);
		free(ref);
	} else if (t->ours && t->n_engines > 1) {
		ref = o->md ? escape_md(t->ours) : md_plain(t->ours);
		fprintf(o->f, "In tok/s, prefill (pp) as a whole number, decode (tg) to one "
			"decimal. No --ref: %s (the engine of role ours, else the first column) is "
			"compared with every other engine, each comparison the one 'tpsdb compare "
			"--ours %s --vs <engine>' prints. An engine's cell holds its estimate in that "
			"comparison (the geometric mean of the requests of the instances behind it) "
			"and in parentheses, after \"%s:\", the verdicts of pp / tg of %s against "
			"that engine from compare's interval (90%% for a batch of fixed rounds, wider for an until-decided batch or a pool of batches) (\"%s: -3.1%% slower\": %s is 3.1%% "
			"slower than it): \"parity\" when it lies inside the band, the delta and "
			"\"faster\" or \"slower\" when it lies beyond, else the delta and "
			"\"undecided\" (one instance a side decides nothing without a stored A/A "
			"floor); \"n/a\" one without values. The cell of %s, marked (ours), holds its "
			"estimate in its comparison with the first other engine; a cell without a "
			"comparison, its latest run's median.\n\n", ref, ref, ref, ref, ref, ref, ref);
		free(ref);
	} else {
		fprintf(o->f, "Medians of the unflagged samples of the latest run, in tok/s: "
			"prefill (pp) as a whole number, decode (tg) to one decimal. One engine and "
			"no --ref: nothing to compare, no verdicts.\n\n");
	}
	if (tables_any_spoiled(t))
		fprintf(o->f, "\"spoiled (<findings>)\": an instance the estimate used was "
			"measured on a busy, throttled or misplaced machine (the findings under Data "
			"quality): its interval is no answer, so the cell has no verdict and its "
			"answer counts it apart.\n\n");
	for (i = 0; i < t->n_engines; i++) {
		/* The answer first, per comparison: each engine against the reference,
		 * or ours against each engine. */
		char *line = tables_answer_text(t, i), *e;

		if (!line)
			continue;
		e = o->md ? escape_md(line) : md_plain(line);
		fprintf(o->f, o->md ? "**%s**\n\n" : "%s\n\n", e);
		free(e);
		free(line);
	}
	write_machines(o, t);
	heading(o, 2, "Base throughput");
	if (t->n_base) {
		size_t k, e;
		int m, any = 0;

		para(o, tables_section_machines(t, 0));

		tables_build_base(t, &tab);
		table(o, &tab);
		/* A spoiled verdict: the newest clean answer of the same comparison. */
		for (k = 0; k < t->n_base; k++)
			for (e = 0; e < t->n_engines; e++)
				for (m = 0; m < 2; m++) {
					char *l = tables_clean_text(t, k, e, m), *x;

					if (!l)
						continue;
					x = o->md ? escape_md(l) : md_plain(l);
					fprintf(o->f, "- %s\n", x);
					any = 1;
					free(x);
					free(l);
				}
		if (any)
			fputc('\n', o->f);
	} else {
		fprintf(o->f, "No base runs.\n\n");
	}
	heading(o, 2, "Speculative decoding");
	if (t->n_spec) {
		para(o, tables_section_machines(t, 1));
		fprintf(o->f, "Each cell is decode tok/s %s acceptance (drafted tokens accepted) "
			"at that n_max; %s marks an engine's fastest rung in its row only when "
			"it is decided (its 90%% interval across runs lies above every other "
			"rung's).\n\n",
			"\xc2\xb7", o->md ? "bold" : "a trailing *");
		tables_build_spec(t, &tab);
		table(o, &tab);
	} else {
		fprintf(o->f, "No speculative runs.\n\n");
	}
	heading(o, 2, "Per-prompt acceptance");
	if (!t->n_prompts)
		fprintf(o->f, "No speculative runs.\n\n");
	for (i = 0; i < t->n_prompts; i++) {
		const struct tables_prompt_table *pt = &t->prompts[i];
		char *m = cell_label_endpoint(pt->model, pt->endpoint), *h;
		title = tps_xasprintf("%s / %s", m, study_spec_name(pt->spec_type));
		h = o->md ? escape_md(title) : md_plain(title);
		heading(o, 3, h);
		free(h);
		free(title);
		free(m);
		tables_build_prompts(t, pt, &tab);
		table(o, &tab);
	}
	heading(o, 2, "Data quality and model identity");
	lines = tables_quality_lines(t, &n);
	for (i = 0; i < n; i++)
		line(o, "- ", lines[i]);
	if (!n)
		fprintf(o->f, "No findings and no model-identity alarms.\n");
	fputc('\n', o->f);
	strv_free(lines, n);
	heading(o, 2, "Runs");
	if (t->n_runs) {
		tables_build_runs(t, &tab);
		table(o, &tab);
	} else {
		fprintf(o->f, "No runs.\n\n");
	}
	if (fig) {
		heading(o, 2, "Plots");
		if (fig->note)
			fprintf(o->f, "%s\n\n", fig->note);
		figure(o, "trend of decode tok/s", fig->trend);
		figure(o, "trend of prefill tok/s", fig->trend_pp);
		figure(o, "speculative sweep", fig->sweep);
		figure(o, "parity deltas of decode (tg)", fig->parity);
		figure(o, "parity deltas of prefill (pp)", fig->parity_pp);
		if (!o->md && (fig->trend || fig->trend_pp || fig->sweep || fig->parity ||
			       fig->parity_pp))
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

