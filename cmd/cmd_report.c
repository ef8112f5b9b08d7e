/* cmd_report.c: `tpsdb report`, the study in one go: the base table with the
 * parity verdicts of ours against every other engine (or of every engine against
 * --ref), the speculative table, the per-prompt acceptance, the findings and the
 * runs behind every number, as markdown (plus summary.txt), JSON or CSV, and the
 * trend, sweep and parity figures of decode and prefill beside them. Options, one load
 * (cmd/side.h: the pools compare takes), one study (analyze/study.c), one
 * rendering (reports/). */
#include "analyze/study.h"
#include "cmd/opts.h"
#include "cmd/side.h"
#include "reports/plot.h"
#include "reports/report_folder.h"
#include "reports/tables.h"
#include "schema/labels.h"
#include "tpsdb.h"

int cmd_report(int argc, char **argv, struct tps_ctx *ctx)
{
	struct study_opts o = { 0 };
	struct study st = { 0 };
	struct tables t = { 0 };
	struct study_load in = { 0 };
	struct store *s;
	static const struct cmd_choice formats[] = {
		{ "md", REPORT_MD }, { "json", REPORT_JSON }, { "csv", REPORT_CSV },
		{ "html", REPORT_HTML }, { NULL, 0 },
	};
	struct filter_list el = { 0 }, ml = { 0 };
	const char *out = NULL;
	size_t i;
	int fmt = REPORT_MD;
	struct filter_opts fo = { 0 };
	int no_plots = 0, ret;
	const struct cmd_option opts[] = {
		OPT_CHOICE("format", &fmt, formats), OPT_NONEMPTY("out", &out, "a folder name"),
		OPT_NAMES("engine", &el), OPT_NAMES("model", &ml), OPT_LIST("tag", &fo.tag),
		OPT_STRING("ref", &o.ref), OPT_FLAG("no-plots", &no_plots), OPT_FILTERS_MORE(&fo),
		OPT_LIMIT(&fo), OPT_END,
	};

	if ((ret = cmd_opts_parse(&cmd_report_entry, opts, argc, argv)) >= 0)
		return ret;
	if (fmt == REPORT_HTML && !out)
		return tps_usage_error(usage_report, "--format html writes a folder: name it with --out");
	ret = TPS_EXIT_ERROR;
	o.engines = el.arg;
	o.n_engines = el.n_arg;
	o.models = ml.arg;
	o.n_models = ml.n_arg;
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	if (filter_opts_check(s, &fo) < 0)
		goto out;
	o.tag = fo.f.tag.n ? fo.f.tag.v[0] : NULL;
	for (i = 0; i < o.n_engines; i++)
		if (store_label_check(s, STORE_LABEL_ENGINE, o.engines[i], "--engine") != 1)
			goto out;
	for (i = 0; i < o.n_models; i++)
		if (store_label_check(s, STORE_LABEL_MODEL, o.models[i], "--model") != 1)
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
	return ret;
}

CMD_ENTRY(report, "the study's tables, findings and plots", CMD_READONLY);
