/* cmd_baseline.c: `tpsdb baseline`, named and frozen sets of runs for the gate:
 * set (freeze the runs compare would pool: each cell's newest batch, or every
 * run with a tag), list, show and rm. Runs stay in the store when their baseline
 * goes. */
#include "cmd/filter_opts.h"
#include "cmd/opts.h"
#include "cmd/side.h"
#include "reports/baseline_write.h"
#include "schema/baseline.h"
#include "schema/cellset.h"
#include "schema/labels.h"
#include "schema/record.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_REPLACE = 256 };

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "engine", required_argument, NULL, FILTER_OPT_ENGINE },
	{ "tag", required_argument, NULL, FILTER_OPT_TAG },
	{ "batch", required_argument, NULL, FILTER_OPT_BATCH },
	{ "model", required_argument, NULL, FILTER_OPT_MODEL },
	{ "host", required_argument, NULL, FILTER_OPT_HOST },
	{ "replace", no_argument, NULL, OPT_REPLACE },
	FORMAT_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

struct args {
	struct filter_opts fo;
	const char *name;
	int replace;
	enum out_format fmt;
};

/* Parses the options after the subcommand; which ones apply is checked by caller. */
static int parse(int argc, char **argv, struct args *a, int *seen)
{
	struct cmd_opts co = { .cmd = &cmd_baseline_entry, .fo = &a->fo };
	int c;

	memset(a, 0, sizeof(*a));
	*seen = 0;

	while ((c = cmd_opts_next(&co, argc, argv, opts)) >= 0) {
		switch (c) {
		case OPT_REPLACE: a->replace = 1; *seen |= 2; break;
		case FILTER_OPT_JSON: a->fmt = OUT_JSON; *seen |= 4; break;
		case FILTER_OPT_FORMAT:
			if (format_opt_parse(optarg, &a->fmt, usage_baseline))
				return -1;
			*seen |= 4;
			break;
		}
	}
	if (c == CMD_OPTS_STOP)
		return co.ret == TPS_EXIT_OK ? 1 : -1;
	if (a->fo.engine.n_arg || a->fo.tag.n_arg || a->fo.batch.n_arg || a->fo.model.n_arg ||
	    a->fo.host.n_arg)
		*seen |= 1;
	if (optind < argc)
		a->name = argv[optind++];
	if (optind < argc) {
		tps_usage_error(usage_baseline, "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	return 0;
}

static int do_set(struct store *s, struct args *a)
{
	struct side sd;
	int64_t *ids = NULL;
	size_t n = 0;
	int ret = TPS_EXIT_ERROR;

	if (store_begin(s) < 0)
		return TPS_EXIT_ERROR;
	/* The runs compare and gate would pool for these filters. */
	if (side_load(s, &a->fo.f, NULL, 0, &sd) < 0)
		goto out;
	ids = pools_run_ids(sd.pools, sd.n_pools, &n);
	if (!n) {
		tps_error("no run matches the filters for baseline '%s'", a->name);
		goto out;
	}
	if (store_baseline_create(s, a->name, a->replace, ids, n) < 0 || store_commit(s) < 0)
		goto out;
	printf("baseline '%s': %zu run(s) frozen\n", a->name, n);
	ret = TPS_EXIT_OK;
out:
	if (ret != TPS_EXIT_OK)
		store_rollback(s);
	free(ids);
	side_release(&sd);
	return ret;
}

static int do_list(struct store *s, const struct args *a)
{
	struct baseline_info *b = NULL;
	size_t n = 0;
	int ret = TPS_EXIT_ERROR;

	if (store_baseline_list(s, &b, &n) < 0)
		return TPS_EXIT_ERROR;
	if (a->fmt != OUT_JSON) {
		baseline_write_list(stdout, b, n, format_table(a->fmt));
		ret = TPS_EXIT_OK;
	} else if (baseline_write_list_json(stdout, b, n) == 0) {
		ret = TPS_EXIT_OK;
	}
	baseline_infos_free(b, n);
	return ret;
}

static int do_show(struct store *s, const struct args *a)
{
	struct run_filter f = { 0 };
	struct cellset set = { 0 };
	int ex, ret = TPS_EXIT_ERROR;

	if ((ex = store_baseline_exists(s, a->name)) < 0)
		return TPS_EXIT_ERROR;
	if (!ex) {
		store_label_check(s, STORE_LABEL_BASELINE, a->name, "baseline");
		return TPS_EXIT_ERROR;
	}
	f.baseline = a->name;
	/* Every frozen run, with its sample count. */
	if (store_cellset_load(s, &f, &set) < 0)
		goto out;
	cellset_want(&set, RUN_LOAD_VALUES);
	if (store_cellset_samples(s, &set) < 0)
		goto out;
	if (a->fmt != OUT_JSON) {
		baseline_write_show(stdout, a->name, set.runs, set.n, format_table(a->fmt));
		ret = TPS_EXIT_OK;
	} else if (baseline_write_show_json(stdout, a->name, set.runs, set.n) == 0) {
		ret = TPS_EXIT_OK;
	}
out:
	cellset_release(&set);
	return ret;
}

static int do_rm(struct store *s, const struct args *a)
{
	int r;

	if (store_begin(s) < 0)
		return TPS_EXIT_ERROR;
	if ((r = store_baseline_remove(s, a->name)) < 0 || (r == 1 && store_commit(s) < 0)) {
		store_rollback(s);
		return TPS_EXIT_ERROR;
	}
	if (!r) {
		store_rollback(s);
		store_label_check(s, STORE_LABEL_BASELINE, a->name, "baseline");
		return TPS_EXIT_ERROR;
	}
	printf("baseline '%s' removed\n", a->name);
	return TPS_EXIT_OK;
}

static int baseline_run(struct tps_ctx *ctx, const char *sub, struct args *a, int seen);

int cmd_baseline(int argc, char **argv, struct tps_ctx *ctx)
{
	struct args a;
	const char *sub;
	int seen, r;

	if (argc < 2)
		return tps_usage_error(usage_baseline,
				       "which baseline subcommand: set, list, show or rm?");
	sub = argv[1];
	if (!strcmp(sub, "-h") || !strcmp(sub, "--help"))
		return cmd_opts_help(&cmd_baseline_entry);
	if (strcmp(sub, "set") && strcmp(sub, "list") && strcmp(sub, "show") && strcmp(sub, "rm"))
		return tps_usage_error(usage_baseline, "unknown baseline subcommand '%s'", sub);
	if ((r = parse(argc - 1, argv + 1, &a, &seen)) != 0)
		return r > 0 ? TPS_EXIT_OK : TPS_EXIT_USAGE;
	r = baseline_run(ctx, sub, &a, seen);
	filter_opts_release(&a.fo);
	return r;
}

/* The subcommand sub with its parsed arguments. */
static int baseline_run(struct tps_ctx *ctx, const char *sub, struct args *a, int seen)
{
	struct store *s;

	if (!strcmp(sub, "list")) {
		if (a->name || (seen & ~4))
			return tps_usage_error(usage_baseline,
					       "'baseline list' takes only --format or --json");
	} else if (!a->name || !*a->name) {
		return tps_usage_error(usage_baseline, "'baseline %s' needs a name", sub);
	} else if (!strcmp(sub, "set") ? (seen & 4) != 0 : !strcmp(sub, "show") ? (seen & ~4) != 0 : seen != 0) {
		return tps_usage_error(usage_baseline,
				       "an option that 'baseline %s' does not take", sub);
	}
	ctx->readonly = !strcmp(sub, "list") || !strcmp(sub, "show");
	if (!(s = tps_ctx_store(ctx)))
		return TPS_EXIT_ERROR;
	if (!strcmp(sub, "set")) {
		if (filter_opts_check(s, &a->fo) < 0)
			return TPS_EXIT_ERROR;
		return do_set(s, a);
	}
	if (!strcmp(sub, "list"))
		return do_list(s, a);
	if (!strcmp(sub, "show"))
		return do_show(s, a);
	return do_rm(s, a);
}

/* A baseline names runs: without a store there are none, so it never creates one;
 * list and show open it read-only themselves. */
const struct cmd_entry cmd_baseline_entry = {
	.name = "baseline",
	.summary = "freeze, list and remove named sets of runs",
	.usage = usage_baseline,
	.help = help_baseline,
	.flags = CMD_EXISTING | CMD_OPERANDS,
	.exec = cmd_baseline,
};
