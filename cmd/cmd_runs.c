/* cmd_runs.c: `tpsdb runs`, the list of runs with their sample counts and the
 * median prefill and decode tok/s of the samples no flag spoils. The --json form is
 * a contract that CI scripts parse: keys are only ever added, never renamed. */
#include "cmd/filter_opts.h"
#include "cmd/opts.h"
#include "reports/runs_write.h"
#include "schema/catalog.h"
#include "schema/store.h"
#include "tpsdb.h"

static const char usage[] =
	"tpsdb runs [--format text|json|md|csv] [--json] [--limit <n>]\n"
	"            " FILTER_SYNOPSIS;

static const char help[] =
	"Lists the runs in the store, oldest first: start time, uuid, status, host, engine,\n"
	"model, tag, speculative type and depth, round (of its collect invocation),\n"
	"samples, failed samples, and the median prefill (pp) and decode (tg) tok/s over\n"
	"the samples whose data-quality flags do not spoil that metric (see 'tpsdb check').\n"
	"\n"
	"Options:\n"
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

enum { OPT_JSON = 256 };

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "json", no_argument, NULL, OPT_JSON },
	FORMAT_OPTIONS,
	FILTER_OPTION_LIMIT,
	FILTER_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

int cmd_runs(int argc, char **argv, struct tps_ctx *ctx)
{
	struct filter_opts fo = { 0 };
	struct cmd_opts co = { .cmd = &cmd_runs_entry, .fo = &fo };
	enum out_format fmt = OUT_TEXT;
	struct catalog_run *runs = NULL;
	struct store *s;
	size_t n = 0;
	int c, ret = TPS_EXIT_ERROR;

	while ((c = cmd_opts_next(&co, argc, argv, opts)) >= 0) {
		switch (c) {
		case OPT_JSON: fmt = OUT_JSON; break;
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
	if (fmt == OUT_JSON) {
		if (runs_write_json(stdout, runs, n) < 0)
			goto out;
	} else {
		runs_write(stdout, runs, n, format_table(fmt));
	}
	ret = TPS_EXIT_OK;
out:
	catalog_runs_free(runs, n);
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
