/* cmd_plot.c: `tpsdb plot`, one figure into one PNG or SVG file through gnuplot:
 * a metric's history with its change points and baseline band, a speculative
 * sweep, or the parity deltas per model. cmd/side.h loads what the figure needs
 * as the report loads it, analyze/study_figures.c turns it into the figure's data
 * and reports/report_figure.c draws it, as for the report's figures. */
#include "cmd/filter_opts.h"
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

enum {
	OPT_OUT = 256, OPT_ENGINE, OPT_MODEL, OPT_METRIC, OPT_BASELINE, OPT_REF, OPT_SPEC,
	OPT_NMAX,
};

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "tag", required_argument, NULL, FILTER_OPT_TAG },
	{ "ref", required_argument, NULL, OPT_REF },
	{ "spec-type", required_argument, NULL, OPT_SPEC },
	{ "n-max", required_argument, NULL, OPT_NMAX },
	{ NULL, 0, NULL, 0 },
};

int cmd_plot(int argc, char **argv, struct tps_ctx *ctx)
{
	struct filter_opts fo = { 0 };
	struct cmd_opts co = { .cmd = &cmd_plot_entry, .fo = &fo };
	const char **engines = tps_xcalloc((size_t)argc + 1, sizeof(*engines));
	const char **models = tps_xcalloc((size_t)argc + 1, sizeof(*models));
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
	size_t ne = 0, nm = 0, i;
	int64_t n_max = RUN_NULL;
	char *gnuplot = NULL;
	int c, metric = STUDY_TG, ret = TPS_EXIT_ERROR;

	while ((c = cmd_opts_next(&co, argc, argv, opts)) >= 0) {
		switch (c) {
		case OPT_OUT: out = optarg; break;
		case OPT_ENGINE: engines[ne++] = optarg; break;
		case OPT_MODEL: models[nm++] = optarg; break;
		case OPT_METRIC:
			if (!strcmp(optarg, "pp"))
				metric = STUDY_PP;
			else if (!strcmp(optarg, "tg"))
				metric = STUDY_TG;
			else {
				ret = tps_usage_error(usage_plot,
						      "--metric is pp or tg, not '%s'", optarg);
				goto out;
			}
			break;
		case OPT_BASELINE: baseline = optarg; break;
		case OPT_REF: ref = optarg; break;
		case OPT_SPEC: spec = optarg; break;
		case OPT_NMAX:
			if (tps_parse_i64(optarg, &n_max) < 0 || n_max < 1) {
				ret = tps_usage_error(usage_plot,
						      "--n-max needs a whole number >= 1, not '%s'",
						      optarg);
				goto out;
			}
			break;
		}
	}
	if (c == CMD_OPTS_STOP) {
		ret = co.ret;
		goto out;
	}
	if (optind >= argc) {
		ret = tps_usage_error(usage_plot, "which figure: trend, sweep or parity");
		goto out;
	}
	kind = argv[optind];
	if (strcmp(kind, "trend") && strcmp(kind, "sweep") && strcmp(kind, "parity")) {
		ret = tps_usage_error(usage_plot,
				      "the figure is trend, sweep or parity, not '%s'", kind);
		goto out;
	}
	if (optind + 1 < argc) {
		ret = tps_usage_error(usage_plot, "unexpected argument '%s'", argv[optind + 1]);
		goto out;
	}
	if (!out) {
		ret = tps_usage_error(usage_plot, "--out <file.png|file.svg> is required");
		goto out;
	}
	if (plot_format_of(out, &fmt) < 0) {
		ret = tps_usage_error(usage_plot, "--out must end in .png or .svg, not '%s'", out);
		goto out;
	}
	if (!(gnuplot = plot_find_gnuplot())) {
		tps_error("gnuplot not found on PATH: install it with 'apt-get install %s'",
			  PLOT_PACKAGE);
		goto out;
	}
	if (!(s = tps_ctx_store(ctx)) || filter_opts_check(s, &fo) < 0)
		goto out;
	for (i = 0; i < ne; i++)
		if (store_label_check(s, STORE_LABEL_ENGINE, engines[i], "--engine") != 1)
			goto out;
	for (i = 0; i < nm; i++)
		if (store_label_check(s, STORE_LABEL_MODEL, models[i], "--model") != 1)
			goto out;
	a = study_arena_new();
	if (!strcmp(kind, "trend")) {
		struct study_trend_opts to = { 0 };
		to.engines = engines;
		to.n_engines = ne;
		to.model = nm ? models[0] : NULL;
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
		if (study_sweep(&in.in, engines, ne, nm ? models[0] : NULL, spec, a, &sw,
				&err) < 0)
			goto fail;
		fig.sweep = &sw;
	} else {
		struct study_opts o = { 0 };
		o.engines = engines;
		o.n_engines = ne;
		o.models = models;
		o.n_models = nm;
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
	free(engines);
	free(models);
	return ret;
}

const struct cmd_entry cmd_plot_entry = {
	.name = "plot",
	.summary = "render trend, sweep or parity plots with gnuplot",
	.usage = usage_plot,
	.help = help_plot,
	.flags = CMD_READONLY | CMD_OPERANDS,
	.exec = cmd_plot,
};
