/* cmd_runs.c: `tpsdb runs`, the list of runs with their sample counts and the
 * median prefill and decode tok/s of the samples no flag spoils. The --json form is
 * a contract that CI scripts parse: keys are only ever added, never renamed. */
#include "cmd/filter_opts.h"
#include "cmd/opts.h"
#include "cmd/side.h"
#include "reports/runs_write.h"
#include "schema/catalog.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <string.h>

static const char usage[] =
	"tpsdb runs [--pooled] [--format text|json|md|csv] [--json] [--limit <n>]\n"
	"            " FILTER_SYNOPSIS;

static const char help[] =
	"Lists the runs in the store, oldest first: start time, uuid, status, host, engine,\n"
	"model, tag, speculative type and depth, round (of its collect invocation),\n"
	"samples, failed samples, and the median prefill (pp) and decode (tg) tok/s over\n"
	"the samples whose data-quality flags do not spoil that metric (see 'tpsdb check').\n"
	"\n"
	"Options:\n"
	"  --pooled                only the runs compare, gate, sweep, report and check\n"
	"                          pool for the same filters: per cell, the batch of its\n"
	"                          newest run (an import: the runs of its tag), or every\n"
	"                          run of --tag or --batch; a run at another ctx,\n"
	"                          n_predict, GGUF or prompt set than the newest is left\n"
	"                          out, as they leave it out\n"
	"  --format <f>            text (default), json, md (a GitHub markdown table) or\n"
	"                          csv (the same columns, RFC 4180)\n"
	"  --json                  the same as --format json: a JSON array, one object\n"
	"                          per run, with the keys uuid, started_at, ended_at,\n"
	"                          status, source, host, engine, role, model, tag,\n"
	"                          endpoint, spec_type, n_max (null for a base run), ctx,\n"
	"                          n_predict, warmup (null when unknown), round and batch\n"
	"                          (the run's round and the uuid of its collect\n"
	"                          invocation; null when unknown), load_error, n_samples,\n"
	"                          n_failed, n_flagged, pp_median and tg_median (tok/s,\n"
	"                          null when no sample qualifies)\n"
	FILTER_HELP_LIMIT
	FILTER_HELP
	"\n"
	"Exit codes: 0 ok, 2 usage, 3 no store or a store error.\n";

enum { OPT_JSON = 256, OPT_POOLED };

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "pooled", no_argument, NULL, OPT_POOLED },
	FORMAT_OPTIONS,
	FILTER_OPTION_LIMIT,
	FILTER_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

/* Whether r is in one of the side's pools. */
static int pooled_run(const struct side *sd, const struct run *r)
{
	for (size_t i = 0; i < sd->n_pools; i++)
		for (size_t k = 0; k < sd->pools[i].n; k++)
			if (sd->pools[i].runs[k] == r)
				return 1;
	return 0;
}

int cmd_runs(int argc, char **argv, struct tps_ctx *ctx)
{
	struct filter_opts fo = { 0 };
	struct cmd_opts co = { .cmd = &cmd_runs_entry, .fo = &fo };
	enum out_format fmt = OUT_TEXT;
	struct catalog_run *runs = NULL;
	struct store *s;
	struct side sd = { 0 };
	size_t n = 0, i, k, kept;
	int c, pooled = 0, ret = TPS_EXIT_ERROR;

	while ((c = cmd_opts_next(&co, argc, argv, opts)) >= 0) {
		switch (c) {
		case OPT_JSON: fmt = OUT_JSON; break;
		case OPT_POOLED: pooled = 1; break;
		case FILTER_OPT_FORMAT:
			if (format_opt_parse(optarg, &fmt, usage))
				return TPS_EXIT_USAGE;
			break;
		}
	}
	if (c == CMD_OPTS_STOP)
		return co.ret;
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	if (filter_opts_check(s, &fo) < 0)
		goto out;
	if (catalog_runs(s, &fo.f, &runs, &n) < 0)
		goto out;
	/* The selection every decision takes: the same loader and rule. */
	if (pooled) {
		struct run_filter f = fo.f;

		f.limit = 0;
		if (side_load(s, &f, NULL, 0, &sd) < 0)
			goto out;
		for (i = kept = 0; i < n; i++) {
			int in = 0;

			for (k = 0; k < sd.set.n && !in; k++)
				in = !strcmp(sd.set.runs[k].uuid, runs[i].uuid) &&
				     pooled_run(&sd, &sd.set.runs[k]);
			if (in)
				runs[kept++] = runs[i];
			else
				catalog_run_release(&runs[i]);
		}
		n = kept;
	}
	if (fmt == OUT_JSON) {
		if (runs_write_json(stdout, runs, n) < 0)
			goto out;
	} else {
		runs_write(stdout, runs, n, format_table(fmt));
	}
	ret = TPS_EXIT_OK;
out:
	catalog_runs_free(runs, n);
	side_release(&sd);
	filter_opts_release(&fo);
	return ret;
}

const struct cmd_entry cmd_runs_entry = {
	.name = "runs",
	.summary = "list runs",
	.usage = usage,
	.help = help,
	.flags = CMD_READONLY,
	.exec = cmd_runs,
};
