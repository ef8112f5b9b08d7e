/* report_write.c: the report as markdown (report.md) and as plain text
 * (summary.txt). Both come from one walk over the tables, with a hook per markup,
 * and every table goes through one md_table, so the two files cannot drift apart;
 * a label is escaped for markdown and made printable for text. */
#include "reports/tables_int.h"
#include "reports/md.h"
#include "reports/strv.h"
#include "tpsdb.h"

#include <stdlib.h>
#include <string.h>

void tables_md_base(const struct tables *t, struct md_table *mt)
{
	size_t i, e, r;

	md_table_init(mt, t->n_engines + 1);
	md_table_set(mt, 0, 0, "model");
	for (e = 0; e < t->n_engines; e++)
		md_table_setf(mt, 0, e + 1, "%s pp / tg", t->engines[e].label);
	for (i = 0; i < t->n_base; i++) {
		char *m = cell_label_endpoint(t->base[i].model, t->base[i].endpoint);
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

void tables_md_spec(const struct tables *t, struct md_table *mt)
{
	size_t i, k, r;

	md_table_init(mt, t->n_spec_cols + 1);
	md_table_set(mt, 0, 0, "model / config");
	for (k = 0; k < t->n_spec_cols; k++)
		md_table_setf(mt, 0, k + 1, "%s n%lld", t->engines[t->spec_cols[k].engine].label,
			      (long long)t->spec_cols[k].n_max);
	for (i = 0; i < t->n_spec; i++) {
		const struct tables_spec_row *row = &t->spec[i];
		char *m = cell_label_endpoint(row->model, row->endpoint);
		r = md_table_add_row(mt);
		md_table_setf(mt, r, 0, "%s / %s", m, study_spec_name(row->spec_type));
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

void tables_md_prompts(const struct tables *t, const struct tables_prompt_table *pt,
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
			md_num(buf, sizeof(buf), "%.2f", pt->accept[i * pt->n_cols + k]);
			md_table_set(mt, r, k + 1, buf);
		}
	}
	r = md_table_add_row(mt);
	md_table_set(mt, r, 0, "all prompts");
	for (k = 0; k < pt->n_cols; k++) {
		md_num(buf, sizeof(buf), "%.2f", pt->all[k]);
		md_table_set(mt, r, k + 1, buf);
	}
	r = md_table_add_row(mt);
	md_table_set(mt, r, 0, "decode tok/s");
	for (k = 0; k < pt->n_cols; k++) {
		md_num(buf, sizeof(buf), "%.1f", pt->decode[k]);
		md_table_set(mt, r, k + 1, buf);
	}
}

void tables_md_runs(const struct tables *t, struct md_table *mt)
{
	static const char *const head[6] = { "run", "engine", "model", "config", "tag",
					     "started" };
	size_t i, r;

	md_table_init(mt, 6);
	for (i = 0; i < 6; i++)
		md_table_set(mt, 0, i, head[i]);
	for (i = 0; i < t->n_runs; i++) {
		const struct tables_run *x = &t->runs[i];
		char *c = cell_label(x->spec_type, x->n_max, x->endpoint);
		r = md_table_add_row(mt);
		md_table_set(mt, r, 0, x->uuid);
		md_table_set(mt, r, 1, x->engine);
		md_table_set(mt, r, 2, x->model);
		md_table_set(mt, r, 3, c);
		md_table_set(mt, r, 4, study_same(x->tag, "") ? "-" : x->tag);
		md_table_set(mt, r, 5, x->started_at);
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
	char *e = o->md ? md_escape(text) : md_plain(text);
	fprintf(o->f, "%s%s\n", prefix, e);
	free(e);
}

/* Writes a table and releases it: each is built, written once and dropped. */
static void table(struct out *o, struct md_table *mt)
{
	if (o->md)
		md_table_write_md(o->f, mt);
	else
		md_table_write_text(o->f, mt);
	fputc('\n', o->f);
	md_table_release(mt);
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
		fprintf(o->f, "In tok/s, prefill (pp) as a whole number, decode (tg) to one "
			"decimal: each cell's estimate against the reference engine %s, the one "
			"'tpsdb compare' prints (the geometric mean of the requests of the instances "
			"behind it; a cell without a comparison, its latest run's median). In "
			"parentheses, the verdicts of pp / tg from the same 90%% interval: "
			"\"parity\" when it lies inside the band, the delta and \"faster\" or "
			"\"slower\" when it lies beyond, else the delta and \"undecided\" (one "
			"instance a side decides nothing without a stored A/A floor); \"n/a\" one "
			"without values.\n\n", ref);
		free(ref);
	} else {
		fprintf(o->f, "Medians of the unflagged samples of the latest run, in tok/s: "
			"prefill (pp) as a whole number, decode (tg) to one decimal. No reference engine (no engine has "
			"role upstream; see --ref): no verdicts.\n\n");
	}
	for (i = 0; i < t->n_engines; i++) {
		/* The answer first, per engine against the reference. */
		char *line = tables_answer_text(t, i), *e;

		if (!line)
			continue;
		e = o->md ? md_escape(line) : md_plain(line);
		fprintf(o->f, o->md ? "**%s**\n\n" : "%s\n\n", e);
		free(e);
		free(line);
	}
	heading(o, 2, "Base throughput");
	if (t->n_base) {
		tables_md_base(t, &mt);
		table(o, &mt);
	} else {
		fprintf(o->f, "No base runs.\n\n");
	}
	heading(o, 2, "Speculative decoding");
	if (t->n_spec) {
		fprintf(o->f, "Each cell is decode tok/s %s acceptance (drafted tokens accepted) "
			"at that n_max; %s marks an engine's fastest rung in its row only when "
			"it is decided (its 90%% interval across runs lies above every other "
			"rung's).\n\n",
			"\xc2\xb7", o->md ? "bold" : "a trailing *");
		tables_md_spec(t, &mt);
		table(o, &mt);
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
		h = o->md ? md_escape(title) : md_plain(title);
		heading(o, 3, h);
		free(h);
		free(title);
		free(m);
		tables_md_prompts(t, pt, &mt);
		table(o, &mt);
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
		tables_md_runs(t, &mt);
		table(o, &mt);
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

