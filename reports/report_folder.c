/* report_folder.c: where the report goes: stdout, or a folder of the report's
 * files (report.md and summary.txt, report.json, report.csv, or index.html and a
 * page per model) with the figures of the study drawn beside them by gnuplot
 * (trend, sweep and parity of decode; trend-pp and parity-pp of prefill). The
 * folder is built aside and swapped in whole (outfile.h), so a failure or a kill
 * leaves the previous report as it was. */
#include "reports/report_folder.h"
#include "reports/plot.h"
#include "reports/strv.h"
#include "outfile.h"
#include "tpsdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every file a report folder may hold: a folder holding only these is replaced
 * as a whole. The HTML report adds a page and a figure per model, numbered
 * (model-<i>.html, trend-<i>.svg): report_names() lists those too. */
static const char *const report_files[] = {
	"report.md", "report.json", "report.csv", "summary.txt",
	"trend.png", "sweep.png", "parity.png", "trend-pp.png", "parity-pp.png",
	"index.html", "trend.svg", "sweep.svg", "parity.svg", "trend-pp.svg", "parity-pp.svg",
	NULL,
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
static int write_one(const char *path, enum report_format fmt, int text, const struct tables *t,
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
	if (fmt == REPORT_JSON)
		rc = tables_write_json(f, t, fig);
	else if (fmt == REPORT_CSV)
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

/* The HTML report's model pages: one per model of the study's figures, named
 * model-<i>.html with its trend in trend-<i>.svg. */
struct pages {
	struct tables_html_model *pages; /* n of them */
	size_t n;
	char **names;                    /* page and figure names, 2 per model */
	size_t n_names;
};

static void pages_init(struct pages *d, const struct study_figures *sf)
{
	size_t i, k;

	memset(d, 0, sizeof(*d));
	d->n = sf->n_models;
	d->pages = tps_xcalloc(d->n + 1, sizeof(*d->pages));
	for (i = 0; i < d->n; i++) {
		char *page = tps_xasprintf("model-%zu.html", i + 1);
		char *svg = tps_xasprintf("trend-%zu.svg", i + 1);
		strv_add(&d->names, &d->n_names, page);
		strv_add(&d->names, &d->n_names, svg);
		free(page);
		free(svg);
		d->pages[i].model = sf->models[i];
		d->pages[i].page = d->names[2 * i];
		d->pages[i].trend = &sf->model_trends[i];
		for (k = 0; k < sf->model_trends[i].n_series; k++)
			d->pages[i].n_runs += sf->model_trends[i].series[k].n;
	}
}

static void pages_release(struct pages *d)
{
	free(d->pages);
	strv_free(d->names, d->n_names);
	memset(d, 0, sizeof(*d));
}

/* A trend's title, as plot_trend_text() words it; caller frees. */
static char *trend_title(const struct plot_trend *tr)
{
	struct plot_text w;
	char *title;

	plot_trend_text(tr, &w);
	title = w.title;
	w.title = NULL;
	plot_text_release(&w);
	return title;
}

/* The report's figures in drawing order: decode's trend (trend.png keeps its
 * name from before prefill had one), prefill's, the sweep, and the parity bars of
 * decode and of prefill. */
enum { FIG_TREND, FIG_TREND_PP, FIG_SWEEP, FIG_PARITY, FIG_PARITY_PP, FIG_N };

/* Draws what it can of the figures into dir: the trends, sweep and parity bars,
 * as PNG (md, json, csv) or SVG (html), and for HTML each model's trend. Missing
 * gnuplot or a figure without data skips; a gnuplot failure is a warning too,
 * since the text of the report stands on its own. The note and names go to fig
 * and d. */
static int draw(struct outdir *dir, const struct study *s, struct pages *d, int html,
		struct tables_figures *fig, char **note)
{
	static const char *const png[FIG_N] = { "trend.png", "trend-pp.png", "sweep.png",
						 "parity.png", "parity-pp.png" };
	static const char *const svg[FIG_N] = { "trend.svg", "trend-pp.svg", "sweep.svg",
						 "parity.svg", "parity-pp.svg" };
	const char *const *names = html ? svg : png;
	enum plot_format pf = html ? PLOT_SVG : PLOT_PNG;
	const struct study_figures *sf = &s->fig;
	struct plot_job *j = NULL;
	char *gnuplot = plot_find_gnuplot(), *p = NULL;
	int drawn[FIG_N] = { 0 }, any = 0, rc = 0, ret = -1, k;
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
	plot_job_keys(j, sf->cols, s->n_engines);
	for (k = 0; k < FIG_N; k++) {
		int c;

		if (!(k == FIG_TREND ? sf->trend.n_series > 0 :
		      k == FIG_TREND_PP ? sf->trend_pp.n_series > 0 :
		      k == FIG_SWEEP ? sf->has_sweep :
		      k == FIG_PARITY ? sf->has_parity : sf->has_parity_pp))
			continue;
		p = outdir_file(dir, names[k]);
		c = k == FIG_TREND ? plot_job_trend(j, &sf->trend, p, pf) :
		    k == FIG_TREND_PP ? plot_job_trend(j, &sf->trend_pp, p, pf) :
		    k == FIG_SWEEP ? plot_job_sweep(j, &sf->sweep, p, pf) :
		    k == FIG_PARITY ? plot_job_parity(j, &sf->parity, p, pf) :
		    plot_job_parity(j, &sf->parity_pp, p, pf);
		free(p);
		p = NULL;
		if (c < 0)
			goto out;
		drawn[k] = any = 1;
	}
	for (i = 0; html && i < sf->n_models; i++) {
		if (!sf->model_trends[i].n_series)
			continue;
		p = outdir_file(dir, d->names[2 * i + 1]);
		if (plot_job_trend(j, &sf->model_trends[i], p, PLOT_SVG) < 0)
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
	fig->trend = drawn[FIG_TREND] ? names[FIG_TREND] : NULL;
	fig->trend_pp = drawn[FIG_TREND_PP] ? names[FIG_TREND_PP] : NULL;
	fig->sweep = drawn[FIG_SWEEP] ? names[FIG_SWEEP] : NULL;
	fig->parity = drawn[FIG_PARITY] ? names[FIG_PARITY] : NULL;
	fig->parity_pp = drawn[FIG_PARITY_PP] ? names[FIG_PARITY_PP] : NULL;
	if (drawn[FIG_TREND])
		fig->trend_what = trend_title(&sf->trend);
	if (drawn[FIG_TREND_PP])
		fig->trend_pp_what = trend_title(&sf->trend_pp);
	for (i = 0; html && i < sf->n_models; i++)
		d->pages[i].trend_svg = sf->model_trends[i].n_series ? d->names[2 * i + 1] : NULL;
	if (!any)
		*note = tps_xstrdup("No plots: nothing to draw.");
	ret = 0;
out:
	plot_job_free(j);
	free(p);
	free(gnuplot);
	return ret;
}

int report_format_of(const char *name)
{
	static const struct {
		const char *name;
		enum report_format fmt;
	} v[] = { { "md", REPORT_MD }, { "json", REPORT_JSON }, { "csv", REPORT_CSV },
		  { "html", REPORT_HTML } };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(name, v[i].name))
			return (int)v[i].fmt;
	return -1;
}

int report_stdout(enum report_format fmt, const struct tables *t)
{
	return write_one(NULL, fmt, 0, t, NULL);
}

int report_folder_write(const char *out, enum report_format fmt, int no_plots,
			const struct study *s, const struct tables *t)
{
	const char *name = fmt == REPORT_MD ? "report.md" : fmt == REPORT_JSON ? "report.json"
			   : fmt == REPORT_CSV ? "report.csv" : "index.html";
	struct tables_figures fig = { 0 };
	struct outdir *dir = NULL;
	struct pages pg;
	char **names = NULL, *note = NULL, *tmp_main = NULL, *tmp_txt = NULL;
	char *main_path = NULL, *txt = NULL;
	size_t n_names = 0, k;
	int c, html = fmt == REPORT_HTML, ret = -1;

	pages_init(&pg, &s->fig);
	names = report_names(pg.n, &n_names);
	if (!(dir = outdir_begin(out, (const char *const *)names)))
		goto out;
	if (no_plots)
		note = tps_xstrdup("Plots not drawn (--no-plots).");
	else if (draw(dir, s, &pg, html, &fig, &note) < 0)
		goto out;
	fig.note = note;
	tmp_main = outdir_file(dir, name);
	if (fmt == REPORT_MD)
		tmp_txt = outdir_file(dir, "summary.txt");
	if (html)
		c = write_html(tmp_main, t, &fig, pg.pages, pg.n, NULL) < 0;
	else
		c = write_one(tmp_main, fmt, 0, t, &fig) < 0 ||
		    (tmp_txt && write_one(tmp_txt, fmt, 1, t, &fig) < 0);
	for (k = 0; !c && html && k < pg.n; k++) {
		char *p = outdir_file(dir, pg.pages[k].page);
		c = write_html(p, t, &fig, pg.pages, pg.n, &pg.pages[k]) < 0;
		free(p);
	}
	if (c)
		goto out;
	c = outdir_commit(dir);
	dir = NULL;
	if (c < 0)
		goto out;
	main_path = tps_xasprintf("%s/%s", out, name);
	if (fmt == REPORT_MD)
		txt = tps_xasprintf("%s/summary.txt", out);
	printf("wrote %s%s%s", main_path, txt ? ", " : "", txt ? txt : "");
	if (fig.trend)
		printf(", %s/%s", out, fig.trend);
	if (fig.trend_pp)
		printf(", %s/%s", out, fig.trend_pp);
	if (fig.sweep)
		printf(", %s/%s", out, fig.sweep);
	if (fig.parity)
		printf(", %s/%s", out, fig.parity);
	if (fig.parity_pp)
		printf(", %s/%s", out, fig.parity_pp);
	if (html && pg.n)
		printf(", %zu model page%s", pg.n, pg.n == 1 ? "" : "s");
	printf("\n");
	ret = 0;
out:
	outdir_abort(dir);
	pages_release(&pg);
	strv_free(names, n_names);
	free(fig.trend_what);
	free(fig.trend_pp_what);
	free(note);
	free(tmp_main);
	free(tmp_txt);
	free(main_path);
	free(txt);
	return ret;
}
