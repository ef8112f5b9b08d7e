/* cmd_runs.c: `tpsdb runs`, the list of runs with their sample counts and the
 * median prefill and decode tok/s of the samples no flag spoils. The --json form is
 * a contract that CI scripts parse: keys are only ever added, never renamed. */
#include "reports/runs_write.h"
#include "schema/catalog.h"
#include "schema/store.h"
#include "tpsdb.h"

static const char usage[] =
	"tpsdb runs [--json] [--engine <label>] [--model <label>] [--tag <t>] [--host <name>]";

static const char help[] =
	"Lists the runs in the store, oldest first: start time, uuid, status, host, engine,\n"
	"model, tag, speculative type and depth, round (of its collect invocation),\n"
	"samples, failed samples, and the median prefill (pp) and decode (tg) tok/s over\n"
	"the samples whose data-quality flags do not spoil that metric (see 'tpsdb check').\n"
	"\n"
	"Options:\n"
	"  --json              a JSON array, one object per run, with the keys uuid,\n"
	"                      started_at, ended_at, status, source, host, engine, role,\n"
	"                      model, tag, endpoint, spec_type, n_max (null for a base\n"
	"                      run), ctx, n_predict, warmup (null when unknown),\n"
	"                      round and batch (the run's round and the uuid of its\n"
	"                      collect invocation; null when unknown), load_error,\n"
	"                      n_samples, n_failed, n_flagged, pp_median and tg_median\n"
	"                      (tok/s, null when no sample qualifies)\n"
	"  --engine <label>    only runs of this engine\n"
	"  --model <label>     only runs of this model\n"
	"  --tag <t>           only runs with this tag\n"
	"  --host <name>       only runs measured on this host\n"
	"\n"
	"Exit codes: 0 ok, 2 usage, 3 no store or a store error.\n";

enum { OPT_JSON = 256, OPT_ENGINE, OPT_MODEL, OPT_TAG, OPT_HOST };

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "host", required_argument, NULL, OPT_HOST },
	{ NULL, 0, NULL, 0 },
};

int cmd_runs(int argc, char **argv, struct tps_ctx *ctx)
{
	struct tps_getopt go = { 0 };
	struct run_filter f = { 0 };
	struct catalog_run *runs = NULL;
	struct store *s;
	size_t n = 0;
	int c, json = 0, ret = TPS_EXIT_ERROR;

	while ((c = tps_getopt(&go, argc, argv, opts)) != -1) {
		switch (c) {
		case 'h':
			printf("usage: %s\n\n%s", usage, help);
			return TPS_EXIT_OK;
		case OPT_JSON: json = 1; break;
		case OPT_ENGINE: f.engine = optarg; break;
		case OPT_MODEL: f.model = optarg; break;
		case OPT_TAG: f.tag = optarg; break;
		case OPT_HOST: f.host = optarg; break;
		default:
			fprintf(stderr, "usage: %s\n", usage);
			return TPS_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return tps_usage_error(usage, "unexpected argument '%s'", argv[optind]);
	ctx->readonly = 1;
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	if (catalog_runs(s, &f, &runs, &n) < 0)
		goto out;
	if (json) {
		if (runs_write_json(stdout, runs, n) < 0)
			goto out;
	} else if (n) {
		runs_write_table(stdout, runs, n);
	}
	ret = TPS_EXIT_OK;
out:
	catalog_runs_free(runs, n);
	return ret;
}
