/* cmd_report.c: `tpsdb report`, the study in one go: the three-way base table with
 * parity verdicts, the speculative table, the per-prompt acceptance, the findings
 * and the runs behind every number, as markdown (plus summary.txt), JSON or CSV,
 * and the trend, sweep and parity figures beside them. */
#include "cmd/filter_opts.h"
#include "cmd/opts.h"
#include "reports/plot.h"
#include "reports/tables.h"
#include "schema/cells.h"
#include "schema/record.h"
#include "schema/labels.h"
#include "schema/report_load.h"
#include "reports/strv.h"
#include "outfile.h"
#include "tpsdb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"tpsdb report [--format md|json|csv|html] [--out <dir>] [--engine <e>]... [--model <m>]...\n"
	"             [--tag <t>] [--ref <engine>] [--no-plots]\n"
	"             " FILTER_SYNOPSIS_MORE;

static const char help[] =
	"Writes the study's tables from the latest run of every cell (one engine, model,\n"
	"spec type, n_max and endpoint). Every number is a median over the samples whose\n"
	"data-quality flags do not spoil that metric.\n"
	"\n"
	"Markdown (the default) holds, in order:\n"
	"  Base throughput     | model | <engine> pp / tg | ... |, engines in --engine order,\n"
	"                      else role ours, then other, then upstream. A cell is\n"
	"                      '<pp> / <tg>': pp a whole number, tg one decimal, e.g.\n"
	"                      '13150 / 142.6', then the verdicts of pp / tg against the\n"
	"                      reference, paired by prompt and repetition as 'compare' does:\n"
	"                      '13150 / 142.6 (parity / -3.1% slower)'. A verdict is\n"
	"                      'parity', '+x.x% faster' or '-x.x% slower', with a trailing\n"
	"                      '?' when not significant, 'n/a' without pairs. The reference's\n"
	"                      own cell ends in '(ref)'; a pair of runs 'compare' would\n"
	"                      refuse (another GGUF or config) in '(not comparable)'; no\n"
	"                      run is '-', a metric with every sample flagged '-'.\n"
	"  Speculative         | model / config | <engine> n1 | ... |, columns by n_max then\n"
	"                      engine; a cell is '<decode tok/s> · <acceptance>', e.g.\n"
	"                      '230.7 · 0.71'; each engine's fastest rung in a row is bold.\n"
	"  Per-prompt          per model / spec type: | prompt | <engine> n<k> | ... | with\n"
	"  acceptance          the acceptance of each prompt, then 'all prompts' and\n"
	"                      'decode tok/s' rows.\n"
	"  Data quality        the findings of the runs shown (as 'tpsdb check'), load\n"
	"                      failures of an engine and model with no number, the\n"
	"                      model-identity alarms and any forced comparison.\n"
	"  Runs                | run | engine | model | config | tag | started |\n"
	"  Plots               links to trend.png, sweep.png and parity.png (with --out);\n"
	"                      the trend is of the model with the longest history.\n"
	"Labels are escaped: '|' as '\\|', a newline as '<br>'.\n"
	"\n"
	"Options:\n"
	"  --format md|json|csv  md: report.md and summary.txt (the same as plain text);\n"
	"                      json: report.json {\"reference\", \"engines\", \"base\",\n"
	"                      \"speculative\": {\"columns\", \"rows\"}, \"prompts\", \"findings\",\n"
	"                      \"alarms\", \"warnings\", \"runs\", \"plots\"}; csv: report.csv,\n"
	"                      one number per row (section,model,endpoint,spec_type,engine,\n"
	"                      n_max,prompt,metric,value,verdict,delta_pct,significant,best,\n"
	"                      run,tag,detail); html (needs --out): index.html with\n"
	"                      the same tables, the figures as SVG, and a page per model\n"
	"                      (model-<i>.html, trend-<i>.svg) with its history and change\n"
	"                      points; self-contained, nothing from the network\n"
	"  --out <dir>         write the files and the plots into dir (made if missing);\n"
	"                      the new report is built beside it and swapped in whole,\n"
	"                      so a failure leaves the previous one as it was; without\n"
	"                      it the report goes to stdout and no plots are drawn\n"
	"  --engine <e>        an engine column (repeatable; the order is kept)\n"
	"  --model <m>         only this model (repeatable)\n"
	"  --tag <t>           only runs with this tag\n"
	FILTER_HELP_MORE
	"  --limit <n>             the trend plot: only the latest n runs of each series\n"
	"  --ref <engine>      the reference of the verdicts (default: the first engine\n"
	"                      with role upstream)\n"
	"  --no-plots          do not run gnuplot\n"
	"Without gnuplot the text is still written and a warning says the plots were\n"
	"skipped (install them with 'apt-get install " PLOT_PACKAGE "').\n"
	"\n"
	"Exit codes: 0 ok, 2 usage, 3 no store, no such engine, or a write error.\n";

enum { OPT_FORMAT = 256, OPT_OUT, OPT_ENGINE, OPT_MODEL, OPT_TAG, OPT_REF, OPT_NO_PLOTS };

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "ref", required_argument, NULL, OPT_REF },
	{ "no-plots", no_argument, NULL, OPT_NO_PLOTS },
	FILTER_OPTIONS_MORE,
	FILTER_OPTION_LIMIT,
	{ NULL, 0, NULL, 0 },
};

enum format { FMT_MD, FMT_JSON, FMT_CSV, FMT_HTML };

/* Every file a report folder may hold: a folder holding only these is replaced
 * as a whole. The HTML report adds a page and a figure per model, numbered
 * (model-<i>.html, trend-<i>.svg): report_names() lists those too. */
static const char *const report_files[] = {
	"report.md", "report.json", "report.csv", "summary.txt",
	"trend.png", "sweep.png", "parity.png",
	"index.html", "trend.svg", "sweep.svg", "parity.svg", NULL,
};

/* Model pages a folder may hold and still be swapped whole: a report of more
 * models names its own; a stale page beyond both is left alone, never removed. */
#define REPORT_PAGES_MIN 64

/* report_files plus model-<i>.html and trend-<i>.svg for i up to
 * max(n, REPORT_PAGES_MIN); NULL-terminated, caller frees with strv_free(). */
static char **report_names(size_t n, size_t *count)
{
	char **v = NULL;
	size_t i, m = n > REPORT_PAGES_MIN ? n : REPORT_PAGES_MIN;

	*count = 0;
	for (i = 0; report_files[i]; i++)
		strv_add(&v, count, report_files[i]);
	for (i = 1; i <= m; i++) {
		char *a = tps_xasprintf("model-%zu.html", i), *b = tps_xasprintf("trend-%zu.svg", i);
		strv_add(&v, count, a);
		strv_add(&v, count, b);
		free(a);
		free(b);
	}
	v = tps_xrealloc(v, (*count + 1) * sizeof(*v));
	v[*count] = NULL;
	return v;
}

/* One file of the report into path (inside the folder being built), or stdout
 * for NULL. */
static int write_one(const char *path, enum format fmt, int text, const struct tables *t,
		     const struct tables_figures *fig)
{
	struct outfile *of = NULL;
	FILE *f = stdout;
	int rc;

	if (path) {
		if (!(of = outfile_open(path)))
			return -1;
		f = outfile_stream(of);
	}
	if (fmt == FMT_JSON)
		rc = tables_write_json(f, t, fig);
	else if (fmt == FMT_CSV)
		rc = tables_write_csv(f, t);
	else if (text)
		rc = tables_write_text(f, t, fig);
	else
		rc = tables_write_md(f, t, fig);
	if (of) {
		/* the commit names the write error */
		if (rc < 0 && !ferror(f)) {
			outfile_abort(of);
			return tps_error("cannot write '%s'", path);
		}
		return outfile_commit(of);
	}
	if (rc < 0 || fflush(stdout) != 0 || ferror(stdout))
		return tps_error("cannot write the report to stdout");
	return 0;
}

/* One page of the HTML report into path: index.html (m NULL) or a model's page. */
static int write_html(const char *path, const struct tables *t, const struct tables_figures *fig,
		      const struct tables_html_model *models, size_t n_models,
		      const struct tables_html_model *m)
{
	struct outfile *of = outfile_open(path);
	FILE *f;
	int rc;

	if (!of)
		return -1;
	f = outfile_stream(of);
	rc = m ? tables_write_html_model(f, m) : tables_write_html(f, t, fig, models, n_models);
	if (rc < 0 && !ferror(f)) {
		outfile_abort(of);
		return tps_error("cannot write '%s'", path);
	}
	return outfile_commit(of);
}

/* The figures' data: the histories of every model (one load, of the runs the run
 * filters select; --limit keeps each series' latest runs), the trend of the model
 * with the longest history for the report's trend figure, and for HTML one trend
 * per model shown. Lives until the pages are written. */
struct figdata {
	struct tables_arena *a;
	struct report_trend hist;
	const char **cols;                /* the table's engines */
	struct plot_trend main;           /* the report's trend */
	const char *main_model;
	const char **models;              /* every model of the tables, in order */
	size_t n_models;
	struct plot_trend *mtr;           /* HTML: n_models */
	struct tables_html_model *pages;  /* HTML: n_models */
	char **names;                     /* page and figure names, 2 per model */
	size_t n_names;
};

static void figdata_release(struct figdata *d)
{
	tables_arena_free(d->a);
	report_trend_release(&d->hist);
	free(d->cols);
	free(d->models);
	free(d->mtr);
	free(d->pages);
	strv_free(d->names, d->n_names);
	memset(d, 0, sizeof(*d));
}

static int figdata_load(struct store *s, const struct tables *t, const struct tables_opts *o,
			const struct run_filter *run, int html, struct figdata *d)
{
	struct tables_trend_opts to = { 0 };
	size_t e, i, k;

	d->a = tables_arena_new();
	d->cols = tps_xcalloc(t->n_engines + 1, sizeof(*d->cols));
	for (e = 0; e < t->n_engines; e++)
		d->cols[e] = t->engines[e].label;
	d->models = tps_xcalloc(t->n_base + t->n_spec + 1, sizeof(*d->models));
	for (i = 0; i < t->n_base + t->n_spec; i++) {
		const char *m = i < t->n_base ? t->base[i].model : t->spec[i - t->n_base].model;
		for (k = 0; k < d->n_models && strcmp(d->models[k], m); k++)
			;
		if (k == d->n_models)
			d->models[d->n_models++] = m;
	}
	if (report_load_trend_where(s, NULL, o->tag, run, NULL, CELL_TG, &d->hist) < 0)
		return -1;
	to.engines = d->cols;
	to.n_engines = t->n_engines;
	to.n_max = TPS_NULL;
	to.metric = CELL_TG;
	/* The report's trend: the model with the most runs among those shown, not
	 * merely the first (a model with three single points says nothing). */
	d->main_model = tables_trend_longest(&d->hist, d->cols, t->n_engines, d->models,
					     d->n_models, NULL, TPS_NULL);
	memset(&d->main, 0, sizeof(d->main));
	if (d->main_model) {
		to.model = d->main_model;
		if (tables_trend(&to, &d->hist, d->a, &d->main) < 0)
			return -1;
	}
	if (!html)
		return 0;
	d->mtr = tps_xcalloc(d->n_models + 1, sizeof(*d->mtr));
	d->pages = tps_xcalloc(d->n_models + 1, sizeof(*d->pages));
	for (i = 0; i < d->n_models; i++) {
		char *page = tps_xasprintf("model-%zu.html", i + 1);
		char *svg = tps_xasprintf("trend-%zu.svg", i + 1);
		to.model = d->models[i];
		if (tables_trend(&to, &d->hist, d->a, &d->mtr[i]) < 0) {
			free(page);
			free(svg);
			return -1;
		}
		strv_add(&d->names, &d->n_names, page);
		strv_add(&d->names, &d->n_names, svg);
		free(page);
		free(svg);
		d->pages[i].model = d->models[i];
		d->pages[i].page = d->names[2 * i];
		d->pages[i].trend = &d->mtr[i];
		for (k = 0; k < d->mtr[i].n_series; k++)
			d->pages[i].n_runs += d->mtr[i].series[k].n;
	}
	return 0;
}

/* Draws what it can of the figures into dir: the trend, sweep and parity, as PNG
 * (md, json, csv) or SVG (html), and for HTML each model's trend. Missing gnuplot
 * or a figure without data skips; a gnuplot failure is a warning too, since the
 * text of the report stands on its own. The note and names go to fig and d. */
static int draw(struct outdir *dir, const struct tables *t, struct figdata *d, int html,
		struct tables_figures *fig, char **note)
{
	static const char *const png[3] = { "trend.png", "sweep.png", "parity.png" };
	static const char *const svg[3] = { "trend.svg", "sweep.svg", "parity.svg" };
	const char *const *names = html ? svg : png;
	enum plot_format pf = html ? PLOT_SVG : PLOT_PNG;
	struct plot_job *j = NULL;
	struct plot_sweep sw;
	struct plot_parity pa;
	char *gnuplot = plot_find_gnuplot(), *p = NULL;
	int drawn[3] = { 0, 0, 0 }, any, rc = 0, ret = -1;
	size_t i;

	if (!gnuplot) {
		tps_warning("gnuplot not found on PATH: plots skipped (install it with "
			    "'apt-get install %s')", PLOT_PACKAGE);
		*note = tps_xasprintf("Plots skipped: gnuplot was not found (apt-get install %s).",
				      PLOT_PACKAGE);
		ret = 0;
		goto out;
	}
	if (!(j = plot_job_new()))
		goto out;
	/* One colour per engine across the report's figures. */
	plot_job_keys(j, d->cols, t->n_engines);
	if (d->main.n_series) {
		p = outdir_file(dir, names[0]);
		if (plot_job_trend(j, &d->main, p, pf) < 0)
			goto out;
		free(p);
		p = NULL;
		drawn[0] = 1;
	}
	/* The sweep and parity figures come from the tables already built. */
	if (t->n_spec) {
		tables_sweep_of(t, 0, d->a, &sw);
		if (sw.n_series) {
			p = outdir_file(dir, names[1]);
			if (plot_job_sweep(j, &sw, p, pf) < 0)
				goto out;
			free(p);
			p = NULL;
			drawn[1] = 1;
		}
	}
	if (t->ref && t->n_base) {
		tables_parity_of(t, CELL_TG, d->a, &pa);
		if (pa.n_groups && pa.n_engines) {
			p = outdir_file(dir, names[2]);
			if (plot_job_parity(j, &pa, p, pf) < 0)
				goto out;
			free(p);
			p = NULL;
			drawn[2] = 1;
		}
	}
	any = drawn[0] || drawn[1] || drawn[2];
	for (i = 0; html && i < d->n_models; i++) {
		if (!d->mtr[i].n_series)
			continue;
		p = outdir_file(dir, d->names[2 * i + 1]);
		if (plot_job_trend(j, &d->mtr[i], p, PLOT_SVG) < 0)
			goto out;
		free(p);
		p = NULL;
		any = 1;
	}
	if (any && (rc = plot_job_run(j, gnuplot, PLOT_TIMEOUT_S)) == -2)
		goto out; /* a figure could not be written: the report fails, one line */
	if (any && rc < 0) {
		tps_warning("plots skipped: gnuplot failed");
		*note = tps_xstrdup("Plots skipped: gnuplot failed.");
		ret = 0;
		goto out;
	}
	fig->trend = drawn[0] ? names[0] : NULL;
	fig->sweep = drawn[1] ? names[1] : NULL;
	fig->parity = drawn[2] ? names[2] : NULL;
	if (drawn[0])
		fig->trend_what = d->main.title;
	for (i = 0; html && i < d->n_models; i++)
		d->pages[i].trend_svg = d->mtr[i].n_series ? d->names[2 * i + 1] : NULL;
	if (!any)
		*note = tps_xstrdup("No plots: nothing to draw.");
	ret = 0;
out:
	plot_job_free(j);
	free(p);
	free(gnuplot);
	return ret;
}

int cmd_report(int argc, char **argv, struct tps_ctx *ctx)
{
	struct tables_opts o = { 0 };
	struct tables_figures fig = { 0 };
	struct tables t = { 0 };
	struct report_load_opts lo = { 0 };
	struct report_input in = { 0 };
	struct outdir *dir = NULL;
	struct store *s;
	const char **engines = tps_xcalloc((size_t)argc + 1, sizeof(*engines));
	const char **models = tps_xcalloc((size_t)argc + 1, sizeof(*models));
	const char *out = NULL;
	struct figdata fd = { 0 };
	char *note = NULL, *main_path = NULL, *txt = NULL, **names = NULL;
	size_t n_names = 0, i;
	enum format fmt = FMT_MD;
	struct filter_opts fo = { 0 };
	struct cmd_opts co = { .cmd = &cmd_report_entry, .fo = &fo };
	int c, no_plots = 0, ret = TPS_EXIT_ERROR;

	while ((c = cmd_opts_next(&co, argc, argv, opts)) >= 0) {
		switch (c) {
		case OPT_FORMAT:
			if (!strcmp(optarg, "md"))
				fmt = FMT_MD;
			else if (!strcmp(optarg, "json"))
				fmt = FMT_JSON;
			else if (!strcmp(optarg, "csv"))
				fmt = FMT_CSV;
			else if (!strcmp(optarg, "html"))
				fmt = FMT_HTML;
			else {
				ret = tps_usage_error(usage, "--format is md, json, csv or html, not '%s'",
						      optarg);
				goto out;
			}
			break;
		case OPT_OUT: out = optarg; break;
		case OPT_ENGINE: engines[o.n_engines++] = optarg; break;
		case OPT_MODEL: models[o.n_models++] = optarg; break;
		case OPT_TAG: o.tag = optarg; break;
		case OPT_REF: o.ref = optarg; break;
		case OPT_NO_PLOTS: no_plots = 1; break;
		}
	}
	if (c == CMD_OPTS_STOP) {
		ret = co.ret;
		goto out;
	}
	if (out && !*out) {
		ret = tps_usage_error(usage, "--out needs a folder name");
		goto out;
	}
	if (fmt == FMT_HTML && !out) {
		ret = tps_usage_error(usage, "--format html writes a folder: name it with --out");
		goto out;
	}
	o.engines = engines;
	o.models = models;
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	if (filter_opts_check(s, &fo.f) < 0 ||
	    (o.tag && store_label_check(s, STORE_LABEL_TAG, o.tag, "--tag") != 1))
		goto out;
	for (i = 0; i < o.n_engines; i++)
		if (store_label_check(s, STORE_LABEL_ENGINE, engines[i], "--engine") != 1)
			goto out;
	for (i = 0; i < o.n_models; i++)
		if (store_label_check(s, STORE_LABEL_MODEL, models[i], "--model") != 1)
			goto out;
	lo.tag = o.tag;
	lo.engines = o.engines;
	lo.n_engines = o.n_engines;
	lo.models = o.models;
	lo.n_models = o.n_models;
	lo.ref = o.ref;
	lo.full = 1;
	lo.run = &fo.f;
	if (report_load(s, &lo, &in) < 0 || tables_build(&o, &in, &t) < 0)
		goto out;
	if (out) {
		/* Built beside the old folder and swapped in whole: a failure or a kill
		 * leaves the previous report as it was. */
		const char *name = fmt == FMT_MD ? "report.md" : fmt == FMT_JSON ? "report.json"
				   : fmt == FMT_CSV ? "report.csv" : "index.html";
		char *tmp_main = NULL, *tmp_txt = NULL;
		size_t k;
		if (figdata_load(s, &t, &o, &fo.f, fmt == FMT_HTML, &fd) < 0)
			goto out;
		names = report_names(fd.n_models, &n_names);
		if (!(dir = outdir_begin(out, (const char *const *)names)))
			goto out;
		if (no_plots)
			note = tps_xstrdup("Plots not drawn (--no-plots).");
		else if (draw(dir, &t, &fd, fmt == FMT_HTML, &fig, &note) < 0)
			goto out;
		fig.note = note;
		tmp_main = outdir_file(dir, name);
		if (fmt == FMT_MD)
			tmp_txt = outdir_file(dir, "summary.txt");
		if (fmt == FMT_HTML)
			c = write_html(tmp_main, &t, &fig, fd.pages, fd.n_models, NULL) < 0;
		else
			c = write_one(tmp_main, fmt, 0, &t, &fig) < 0 ||
			    (tmp_txt && write_one(tmp_txt, fmt, 1, &t, &fig) < 0);
		for (k = 0; !c && fmt == FMT_HTML && k < fd.n_models; k++) {
			char *pg = outdir_file(dir, fd.pages[k].page);
			c = write_html(pg, &t, &fig, fd.pages, fd.n_models, &fd.pages[k]) < 0;
			free(pg);
		}
		free(tmp_main);
		free(tmp_txt);
		if (c)
			goto out;
		c = outdir_commit(dir);
		dir = NULL;
		if (c < 0)
			goto out;
		main_path = tps_xasprintf("%s/%s", out, name);
		if (fmt == FMT_MD)
			txt = tps_xasprintf("%s/summary.txt", out);
		printf("wrote %s%s%s", main_path, txt ? ", " : "", txt ? txt : "");
		if (fig.trend)
			printf(", %s/%s", out, fig.trend);
		if (fig.sweep)
			printf(", %s/%s", out, fig.sweep);
		if (fig.parity)
			printf(", %s/%s", out, fig.parity);
		if (fmt == FMT_HTML && fd.n_models)
			printf(", %zu model page%s", fd.n_models, fd.n_models == 1 ? "" : "s");
		printf("\n");
	} else if (write_one(NULL, fmt, 0, &t, NULL) < 0) {
		goto out;
	}
	ret = TPS_EXIT_OK;
out:
	outdir_abort(dir);
	tables_release(&t);
	report_input_release(&in);
	figdata_release(&fd);
	strv_free(names, n_names);
	free(note);
	free(main_path);
	free(txt);
	free(engines);
	free(models);
	return ret;
}

const struct cmd_entry cmd_report_entry = {
	.name = "report",
	.summary = "the study's tables, findings and plots",
	.usage = usage,
	.help = help,
	.flags = CMD_READONLY,
	.exec = cmd_report,
};
