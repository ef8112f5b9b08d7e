/* cmd_report.c: `tpsdb report`, the study in one go: the base table with the
 * parity verdicts of ours against every other engine (or of every engine against
 * --ref), the speculative table, the per-prompt acceptance, the findings and the
 * runs behind every number, as markdown (plus summary.txt), JSON or CSV, and the
 * trend, sweep and parity figures of decode and prefill beside them. Options, one load
 * (cmd/side.h: the pools compare takes), one study (analyze/study.c), one
 * rendering (reports/). */
#include "cmd/filter_opts.h"
#include "analyze/study.h"
#include "cmd/opts.h"
#include "cmd/side.h"
#include "reports/plot.h"
#include "reports/report_folder.h"
#include "reports/tables.h"
#include "schema/labels.h"
#include "tpsdb.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_FORMAT = 256, OPT_OUT, OPT_ENGINE, OPT_MODEL, OPT_REF, OPT_NO_PLOTS };

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "tag", required_argument, NULL, FILTER_OPT_TAG },
	{ "ref", required_argument, NULL, OPT_REF },
	{ "no-plots", no_argument, NULL, OPT_NO_PLOTS },
	FILTER_OPTIONS_MORE,
	FILTER_OPTION_LIMIT,
	{ NULL, 0, NULL, 0 },
};

int cmd_report(int argc, char **argv, struct tps_ctx *ctx)
{
	struct study_opts o = { 0 };
	struct study st = { 0 };
	struct tables t = { 0 };
	struct study_load in = { 0 };
	struct store *s;
	const char **engines = tps_xcalloc((size_t)argc + 1, sizeof(*engines));
	const char **models = tps_xcalloc((size_t)argc + 1, sizeof(*models));
	const char *out = NULL;
	size_t i;
	int fmt = REPORT_MD;
	struct filter_opts fo = { 0 };
	struct cmd_opts co = { .cmd = &cmd_report_entry, .fo = &fo };
	int c, no_plots = 0, ret = TPS_EXIT_ERROR;

	while ((c = cmd_opts_next(&co, argc, argv, opts)) >= 0) {
		switch (c) {
		case OPT_FORMAT:
			if ((fmt = report_format_of(optarg)) < 0) {
				ret = tps_usage_error(usage_report,
						      "--format is md, json, csv or html, not '%s'",
						      optarg);
				goto out;
			}
			break;
		case OPT_OUT: out = optarg; break;
		case OPT_ENGINE: engines[o.n_engines++] = optarg; break;
		case OPT_MODEL: models[o.n_models++] = optarg; break;
		case OPT_REF: o.ref = optarg; break;
		case OPT_NO_PLOTS: no_plots = 1; break;
		}
	}
	if (c == CMD_OPTS_STOP) {
		ret = co.ret;
		goto out;
	}
	if (out && !*out) {
		ret = tps_usage_error(usage_report, "--out needs a folder name");
		goto out;
	}
	if (fmt == REPORT_HTML && !out) {
		ret = tps_usage_error(usage_report, "--format html writes a folder: name it with --out");
		goto out;
	}
	o.engines = engines;
	o.models = models;
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	if (filter_opts_check(s, &fo) < 0)
		goto out;
	o.tag = fo.f.tag.n ? fo.f.tag.v[0] : NULL;
	for (i = 0; i < o.n_engines; i++)
		if (store_label_check(s, STORE_LABEL_ENGINE, engines[i], "--engine") != 1)
			goto out;
	for (i = 0; i < o.n_models; i++)
		if (store_label_check(s, STORE_LABEL_MODEL, models[i], "--model") != 1)
			goto out;
	o.figures = out != NULL;
	/* The figures are drawn into the folder only; the histories also give a
	 * spoiled cell its newest clean answer. */
	if (study_load(s, &fo.f, NULL, STUDY_LOAD_POOLS | STUDY_LOAD_QUALITY |
		       STUDY_LOAD_HISTORY, &in) < 0)
		goto out;
	if (study_build(&o, &in.in, &st) < 0) {
		tables_error(&st.err);
		goto out;
	}
	tables_init(&t, &st, in.quality, in.alarms, in.n_alarms);
	if (out ? report_folder_write(out, (enum report_format)fmt, no_plots, &st, &t) < 0
		: report_stdout((enum report_format)fmt, &t) < 0)
		goto out;
	ret = TPS_EXIT_OK;
out:
	tables_release(&t);
	study_release(&st);
	study_load_release(&in);
	filter_opts_release(&fo);
	free(engines);
	free(models);
	return ret;
}

const struct cmd_entry cmd_report_entry = {
	.name = "report",
	.summary = "the study's tables, findings and plots",
	.usage = usage_report,
	.help = help_report,
	.flags = CMD_READONLY,
	.exec = cmd_report,
};
