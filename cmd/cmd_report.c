/* cmd_report.c: `tpsdb report`, the study in one go: the three-way base table with
 * parity verdicts, the speculative table, the per-prompt acceptance, the findings
 * and the runs behind every number, as markdown (plus summary.txt), JSON or CSV,
 * and the trend, sweep and parity figures beside them. */
#include "cmd/filter_opts.h"
#include "reports/plot.h"
#include "reports/tables.h"
#include "schema/cells.h"
#include "schema/record.h"
#include "schema/report_load.h"
#include "outfile.h"
#include "tpsdb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"tpsdb report [--format md|json|csv] [--out <dir>] [--engine <e>]... [--model <m>]...\n"
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
	"  Plots               links to trend.png, sweep.png and parity.png (with --out).\n"
	"Labels are escaped: '|' as '\\|', a newline as '<br>'.\n"
	"\n"
	"Options:\n"
	"  --format md|json|csv  md: report.md and summary.txt (the same as plain text);\n"
	"                      json: report.json {\"reference\", \"engines\", \"base\",\n"
	"                      \"speculative\": {\"columns\", \"rows\"}, \"prompts\", \"findings\",\n"
	"                      \"alarms\", \"warnings\", \"runs\", \"plots\"}; csv: report.csv,\n"
	"                      one number per row (section,model,endpoint,spec_type,engine,\n"
	"                      n_max,prompt,metric,value,verdict,delta_pct,significant,best,\n"
	"                      run,tag,detail)\n"
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

enum format { FMT_MD, FMT_JSON, FMT_CSV };

/* Every file a report folder may hold: a folder holding only these is replaced
 * as a whole. */
static const char *const report_files[] = {
	"report.md", "report.json", "report.csv", "summary.txt",
	"trend.png", "sweep.png", "parity.png", NULL,
};

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

/* Draws what it can of the three figures into dir. Missing gnuplot or a figure
 * without data skips; a gnuplot failure is a warning too, since the text of the
 * report stands on its own. The note and names go to fig. */
static int draw(struct store *s, struct outdir *dir, const struct tables *t,
		const struct tables_opts *o, const struct run_filter *run,
		struct tables_figures *fig, char **note, char **paths)
{
	static const char *const names[3] = { "trend.png", "sweep.png", "parity.png" };
	struct tables_arena *a = tables_arena_new();
	struct tables_trend_opts to = { 0 };
	struct report_trend hist = { 0 };
	struct plot_job *j = NULL;
	struct plot_trend tr;
	struct plot_sweep sw;
	struct plot_parity pa;
	const char *model = NULL;
	const char **cols = NULL;
	char *gnuplot = plot_find_gnuplot();
	int drawn[3] = { 0, 0, 0 }, i, ret = -1;
	size_t e;

	if (!gnuplot) {
		tps_warning("gnuplot not found on PATH: plots skipped (install it with "
			    "'apt-get install %s')", PLOT_PACKAGE);
		*note = tps_xasprintf("Plots skipped: gnuplot was not found (apt-get install %s).",
				      PLOT_PACKAGE);
		ret = 0;
		goto out;
	}
	cols = tps_xcalloc(t->n_engines + 1, sizeof(*cols));
	for (e = 0; e < t->n_engines; e++)
		cols[e] = t->engines[e].label;
	for (i = 0; i < 3; i++)
		paths[i] = outdir_file(dir, names[i]);
	if (!(j = plot_job_new()))
		goto out;
	/* The trend of the first model shown, on its base config, for every engine. */
	model = t->n_base ? t->base[0].model : o->n_models ? o->models[0] : NULL;
	to.engines = cols;
	to.n_engines = t->n_engines;
	to.model = model;
	to.n_max = TPS_NULL;
	to.metric = CELL_TG;
	if (report_load_trend_where(s, to.model, o->tag, run, to.baseline, to.metric, &hist) < 0 ||
	    tables_trend(&to, &hist, a, &tr) < 0)
		goto out;
	if (tr.n_series && plot_job_trend(j, &tr, paths[0], PLOT_PNG) < 0)
		goto out;
	drawn[0] = tr.n_series > 0;
	/* The sweep and parity figures come from the tables already built. */
	if (t->n_spec) {
		tables_sweep_of(t, 0, a, &sw);
		if (sw.n_series && plot_job_sweep(j, &sw, paths[1], PLOT_PNG) < 0)
			goto out;
		drawn[1] = sw.n_series > 0;
	}
	if (t->ref && t->n_base) {
		tables_parity_of(t, CELL_TG, a, &pa);
		if (pa.n_groups && pa.n_engines && plot_job_parity(j, &pa, paths[2], PLOT_PNG) < 0)
			goto out;
		drawn[2] = pa.n_groups > 0 && pa.n_engines > 0;
	}
	if (drawn[0] || drawn[1] || drawn[2]) {
		if (plot_job_run(j, gnuplot, PLOT_TIMEOUT_S) < 0) {
			tps_warning("plots skipped: gnuplot failed");
			*note = tps_xstrdup("Plots skipped: gnuplot failed.");
			ret = 0;
			goto out;
		}
	}
	fig->trend = drawn[0] ? names[0] : NULL;
	fig->sweep = drawn[1] ? names[1] : NULL;
	fig->parity = drawn[2] ? names[2] : NULL;
	if (!drawn[0] && !drawn[1] && !drawn[2])
		*note = tps_xstrdup("No plots: nothing to draw.");
	ret = 0;
out:
	plot_job_free(j);
	tables_arena_free(a);
	report_trend_release(&hist);
	free(cols);
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
	char *note = NULL, *paths[3] = { NULL, NULL, NULL }, *main_path = NULL, *txt = NULL;
	enum format fmt = FMT_MD;
	struct filter_opts fo = { 0 };
	int c, r, no_plots = 0, ret = TPS_EXIT_ERROR, i;

	struct tps_getopt go = { 0 };

	while ((c = tps_getopt(&go, argc, argv, opts)) != -1) {
		switch (c) {
		case 'h':
			printf("usage: %s\n\n%s", usage, help);
			ret = TPS_EXIT_OK;
			goto out;
		case OPT_FORMAT:
			if (!strcmp(optarg, "md"))
				fmt = FMT_MD;
			else if (!strcmp(optarg, "json"))
				fmt = FMT_JSON;
			else if (!strcmp(optarg, "csv"))
				fmt = FMT_CSV;
			else {
				ret = tps_usage_error(usage, "--format is md, json or csv, not '%s'",
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
		default:
			if ((r = filter_opts_take(&fo, c, optarg, usage)) == 1)
				break;
			ret = r ? r : TPS_EXIT_USAGE;
			if (!r)
				fprintf(stderr, "usage: %s\n", usage);
			goto out;
		}
	}
	if (optind < argc) {
		ret = tps_usage_error(usage, "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	if (out && !*out) {
		ret = tps_usage_error(usage, "--out needs a folder name");
		goto out;
	}
	o.engines = engines;
	o.models = models;
	ctx->readonly = 1;
	if (!(s = tps_ctx_store(ctx)))
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
								     : "report.csv";
		char *tmp_main = NULL, *tmp_txt = NULL;
		if (!(dir = outdir_begin(out, report_files)))
			goto out;
		if (no_plots)
			note = tps_xstrdup("Plots not drawn (--no-plots).");
		else if (draw(s, dir, &t, &o, &fo.f, &fig, &note, paths) < 0)
			goto out;
		fig.note = note;
		tmp_main = outdir_file(dir, name);
		if (fmt == FMT_MD)
			tmp_txt = outdir_file(dir, "summary.txt");
		c = write_one(tmp_main, fmt, 0, &t, &fig) < 0 ||
		    (tmp_txt && write_one(tmp_txt, fmt, 1, &t, &fig) < 0);
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
		printf("\n");
	} else if (write_one(NULL, fmt, 0, &t, NULL) < 0) {
		goto out;
	}
	ret = TPS_EXIT_OK;
out:
	outdir_abort(dir);
	tables_release(&t);
	report_input_release(&in);
	for (i = 0; i < 3; i++)
		free(paths[i]);
	free(note);
	free(main_path);
	free(txt);
	free(engines);
	free(models);
	return ret;
}
