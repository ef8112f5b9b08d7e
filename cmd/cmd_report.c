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

static const char usage[] =
	"tpsdb report [--format md|json|csv|html] [--out <dir>] [--engine <e>]... [--model <m>]...\n"
	"             [--tag <t>] [--ref <engine>] [--no-plots]\n"
	"             " FILTER_SYNOPSIS_MORE;

static const char help[] =
	"Writes the study's tables from the runs of every cell (one engine, model, spec\n"
	"type, n_max and endpoint) that compare pools: the batch of the cell's newest\n"
	"run, or every run of --tag or --batch. A number beside a verdict is that\n"
	"comparison's estimate, as compare prints it; any other is a median over the\n"
	"newest run's samples whose data-quality flags do not spoil that metric.\n"
	"\n"
	"Who is judged: without --ref, ours (the engine of role ours, else the first\n"
	"column) against every other engine, upstream included, each cell the very\n"
	"comparison 'tpsdb compare --ours <ours> --vs <engine>' prints; with --ref <e>,\n"
	"every other engine against e.\n"
	"\n"
	"Markdown (the default) holds, in order:\n"
	"  Base throughput     | model | <engine> pp / tg | ... |, engines in --engine order,\n"
	"                      else role ours, then other, then upstream. A cell is\n"
	"                      '<pp> / <tg>': pp a whole number, tg one decimal, e.g.\n"
	"                      '13150 / 142.6', then the verdicts of pp / tg, paired by\n"
	"                      prompt and repetition as 'compare' does. Without --ref an\n"
	"                      engine's cell holds ours' verdicts against it after ours'\n"
	"                      name: '13107 / 143.0 (ours: parity / -3.1% slower)' reads\n"
	"                      'ours is 3.1% slower than this engine'; ours' own cell\n"
	"                      ends in '(ours)'. With --ref the verdicts are the cell's\n"
	"                      engine's against the reference: '13150 / 142.6 (parity /\n"
	"                      -3.1% slower)', the reference's own cell ending in\n"
	"                      '(ref)'. A verdict is 'parity', '+x.x% faster', '-x.x%\n"
	"                      slower' or '+x.x% undecided', 'spoiled (<findings>)' when\n"
	"                      an instance it used carries an environment finding\n"
	"                      (host-busy, ...), 'n/a' without pairs; a pair of runs\n"
	"                      'compare' would refuse (another GGUF or config) is '(not\n"
	"                      comparable)'; no run is '-', a metric with every sample\n"
	"                      flagged '-'. Above the tables, one answer line per\n"
	"                      comparison: 'ours vs <engine>: pp ...; tg ...' (with --ref\n"
	"                      '<engine> vs <ref>: ...').\n"
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
	"  Plots               with --out: trend.png and trend-pp.png (decode and prefill\n"
	"                      tok/s per run, each of the model with the longest history\n"
	"                      of that metric), sweep.png, parity.png and parity-pp.png\n"
	"                      (the tg and pp deltas of each comparison, one bar per\n"
	"                      engine; a spoiled or not comparable cell has none), .svg\n"
	"                      for html.\n"
	"Labels are escaped: '|' as '\\|', a newline as '<br>'.\n"
	"\n"
	"Options:\n"
	"  --format md|json|csv  md: report.md and summary.txt (the same as plain text);\n"
	"                      json: report.json {\"reference\", \"ours\" (without --ref),\n"
	"                      \"engines\", \"base\", \"speculative\": {\"columns\", \"rows\"},\n"
	"                      \"prompts\", \"findings\", \"alarms\", \"warnings\", \"runs\",\n"
	"                      \"plots\"}; without --ref a verdict names its comparison\n"
	"                      (\"ours\": <ours>, \"vs\": <the cell's engine>), a spoiled one\n"
	"                      its findings (\"spoiled\": [...]); csv: report.csv, one\n"
	"                      number per row (section,model,endpoint,spec_type,engine,\n"
	"                      n_max,prompt,metric,value,verdict,regression,delta_pct,\n"
	"                      significant,best,run,tag,detail), a base row's detail\n"
	"                      '<ours> vs <engine>' without --ref, with ': spoiled\n"
	"                      (<findings>)' after it for a spoiled verdict (that alone\n"
	"                      with --ref), ours' rows' verdict 'ours' (the reference's\n"
	"                      'ref'); html (needs --out): index.html with\n"
	"                      the same tables, the figures as SVG, and a page per model\n"
	"                      (model-<i>.html, trend-<i>.svg) with its history and change\n"
	"                      points; self-contained, nothing from the network\n"
	"  --out <dir>         write the files and the plots into dir (made if missing);\n"
	"                      the new report is built beside it and swapped in whole,\n"
	"                      so a failure leaves the previous one as it was; without\n"
	"                      it the report goes to stdout and no plots are drawn\n"
	"  --engine <e>        an engine column (repeatable; the order is kept)\n"
	"  --model <m>         only this model (repeatable)\n"
	"  --tag <t>[,<t>...]  only runs with these tags, pooled whole\n"
	FILTER_HELP_MORE
	"  --limit <n>             the trend plot: only the latest n runs of each series\n"
	"  --ref <engine>      judge every other engine against this one (default: ours\n"
	"                      against every other engine)\n"
	"  --no-plots          do not run gnuplot\n"
	"Without gnuplot the text is still written and a warning says the plots were\n"
	"skipped (install them with 'apt-get install " PLOT_PACKAGE "').\n"
	"\n"
	"Exit codes: 0 ok, 2 usage, 3 no store, no such engine, or a write error.\n";

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

/* The getopt loop's names for the report's formats. */
enum format { FMT_MD = REPORT_MD, FMT_JSON = REPORT_JSON, FMT_CSV = REPORT_CSV,
	      FMT_HTML = REPORT_HTML };

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
	/* The figures are drawn into the folder only: no history without one. */
	if (study_load(s, &fo.f, NULL, STUDY_LOAD_POOLS | STUDY_LOAD_QUALITY |
		       (out ? STUDY_LOAD_HISTORY : 0), &in) < 0)
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
	.usage = usage,
	.help = help,
	.flags = CMD_READONLY,
	.exec = cmd_report,
};
