/* cmd_plot.c: `tpsdb plot`, one figure into one PNG or SVG file through gnuplot:
 * a metric's history with its change points and baseline band, a speculative
 * sweep, or the parity deltas per model. cmd/side.h loads what the figure needs
 * as the report loads it, analyze/study_figures.c turns it into the figure's data
 * and reports/report_figure.c draws it, as for the report's figures. */
#include "analyze/study.h"
#include "cmd/opts.h"
#include "cmd/side.h"
#include "reports/plot.h"
#include "reports/report_figure.h"
#include "reports/tables.h"
#include "schema/labels.h"
#include "tpsdb.h"

#include <stdlib.h>
#include <string.h>

int cmd_plot(int argc, char **argv, struct tps_ctx *ctx)
{
	struct filter_opts fo = { 0 };
	struct filter_list el = { 0 }, ml = { 0 }; /* --engine, --model */
	const char **engines = el.arg, **models = ml.arg;
	const char *out = NULL, *kind, *baseline = NULL, *ref = NULL;
	const char *spec = NULL;
	struct study_arena *a = NULL;
	struct study_error err = { 0 };
	struct report_figure fig = { 0 };
	struct plot_trend tr;
	struct plot_sweep sw;
	struct plot_parity pa;
	struct study_load in = { 0 };
	struct store *s;
	enum plot_format fmt;
	size_t i;
	int64_t n_max = RUN_NULL;
	char *gnuplot = NULL;
	int metric = STUDY_TG, ret;
	static const struct cmd_choice metrics[] = {
		{ "pp", STUDY_PP }, { "tg", STUDY_TG }, { NULL, 0 },
	};
	const struct cmd_option opts[] = {
		OPT_STRING("out", &out), OPT_NAMES("engine", &el), OPT_NAMES("model", &ml),
		OPT_CHOICE("metric", &metric, metrics), OPT_STRING("baseline", &baseline),
		OPT_LIST("tag", &fo.tag), OPT_STRING("ref", &ref), OPT_STRING("spec-type", &spec),
		OPT_COUNT("n-max", &n_max, 1, INT64_MAX), OPT_END,
	};

	/* Nothing is held until gnuplot is found: a usage error returns. */
	if ((ret = cmd_opts_parse(&cmd_plot_entry, opts, argc, argv)) >= 0)
		return ret;
	if (optind >= argc)
		return tps_usage_error(usage_plot, "which figure: trend, sweep or parity");
	kind = argv[optind];
	if (strcmp(kind, "trend") && strcmp(kind, "sweep") && strcmp(kind, "parity"))
		return tps_usage_error(usage_plot, "the figure is trend, sweep or parity, not '%s'",
				       kind);
	if (optind + 1 < argc)
		return tps_usage_error(usage_plot, "unexpected argument '%s'", argv[optind + 1]);
	if (!out)
		return tps_usage_error(usage_plot, "--out <file.png|file.svg> is required");
	if (plot_format_of(out, &fmt) < 0)
		return tps_usage_error(usage_plot, "--out must end in .png or .svg, not '%s'", out);
	ret = TPS_EXIT_ERROR;
	if (!(gnuplot = plot_find_gnuplot())) {
		tps_error("gnuplot not found on PATH: install it with 'apt-get install %s'",
			  PLOT_PACKAGE);
		goto out;
	}
	if (!(s = tps_ctx_store(ctx)) || filter_opts_check(s, &fo) < 0)
		goto out;
	for (i = 0; i < el.n_arg; i++)
		if (store_label_check(s, STORE_LABEL_ENGINE, engines[i], "--engine") != 1)
			goto out;
	for (i = 0; i < ml.n_arg; i++)
		if (store_label_check(s, STORE_LABEL_MODEL, models[i], "--model") != 1)
			goto out;
	a = study_arena_new();
	if (!strcmp(kind, "trend")) {
		struct study_trend_opts to = { 0 };
		to.engines = engines;
		to.n_engines = el.n_arg;
		to.model = ml.n_arg ? models[0] : NULL;
		to.spec_type = spec;
		to.n_max = n_max;
		to.baseline = baseline;
		to.metric = metric;
		fo.f.model.v = to.model ? &to.model : NULL;
		fo.f.model.n = to.model != NULL;
		if (study_load(s, &fo.f, baseline, STUDY_LOAD_HISTORY, &in) < 0)
			goto out;
		if (study_trend(&to, &in.in, a, &tr, &fig.no_band, &err) < 0)
			goto fail;
		fig.trend = &tr;
		fig.baseline = baseline;
	} else if (!strcmp(kind, "sweep")) {
		if (study_load(s, &fo.f, NULL, STUDY_LOAD_POOLS, &in) < 0)
			goto out;
		if (study_sweep(&in.in, engines, el.n_arg, ml.n_arg ? models[0] : NULL, spec,
				a, &sw, &err) < 0)
			goto fail;
		fig.sweep = &sw;
	} else {
		struct study_opts o = { 0 };
		o.engines = engines;
		o.n_engines = el.n_arg;
		o.models = models;
		o.n_models = ml.n_arg;
		o.tag = fo.f.tag.n ? fo.f.tag.v[0] : NULL;
		o.ref = ref;
		if (study_load(s, &fo.f, NULL, STUDY_LOAD_POOLS, &in) < 0)
			goto out;
		if (study_parity(&o, &in.in, metric, a, &pa, &err) < 0)
			goto fail;
		fig.parity = &pa;
	}
	if (report_figure_write(gnuplot, &fig, out, fmt) < 0)
		goto out;
	ret = TPS_EXIT_OK;
	goto out;
fail:
	tables_error(&err);
out:
	study_arena_free(a);
	study_load_release(&in);
	filter_opts_release(&fo);
	free(gnuplot);
	return ret;
}

CMD_ENTRY(plot, "render trend, sweep or parity plots with gnuplot",
	  CMD_READONLY | CMD_OPERANDS);
