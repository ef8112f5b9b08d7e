/* cmd_baseline.c: `tpsdb baseline`, named and frozen sets of runs for the gate:
 * set (freeze the runs compare would pool: each cell's newest batch, or every
 * run with a tag), list, show and rm. Runs stay in the store when their baseline
 * goes. */
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

struct args {
	struct filter_opts fo;
	const char *name;
	int replace;
	int fmt; /* enum out_format; -1 when neither --format nor --json is given */
};

/* Parses the options after the subcommand: 0, 1 after --help, -1 after a usage
 * error. *seen says which kinds were given (1 a filter, 2 --replace, 4 --format or
 * --json); which apply is checked by the caller. */
static int parse(int argc, char **argv, struct args *a, int *seen)
{
	const struct cmd_option opts[] = {
		OPT_LIST("engine", &a->fo.engine), OPT_LIST("tag", &a->fo.tag),
		OPT_LIST("batch", &a->fo.batch), OPT_LIST("model", &a->fo.model),
		OPT_LIST("host", &a->fo.host), OPT_FLAG("replace", &a->replace),
		OPT_FORMAT(&a->fmt), OPT_END,
	};
	int r;

	memset(a, 0, sizeof(*a));
	a->fmt = -1;
	if ((r = cmd_opts_parse(&cmd_baseline_entry, opts, argc, argv)) >= 0)
		return r == TPS_EXIT_OK ? 1 : -1;
	*seen = (a->fo.engine.n_arg || a->fo.tag.n_arg || a->fo.batch.n_arg ||
		 a->fo.model.n_arg || a->fo.host.n_arg) | (a->replace ? 2 : 0) |
		(a->fmt >= 0 ? 4 : 0);
	if (a->fmt < 0)
		a->fmt = OUT_TEXT;
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

	if (filter_opts_check(s, &a->fo) < 0 || store_begin(s) < 0)
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

static int do_list(struct store *s, struct args *a)
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

static int do_show(struct store *s, struct args *a)
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

static int do_rm(struct store *s, struct args *a)
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

/* The subcommands, and the options each takes: 1 a filter, 2 --replace, 4 --format
 * or --json. */
static const struct {
	const char *name;
	int (*run)(struct store *s, struct args *a);
	int takes;
} subs[] = { { "set", do_set, 1 | 2 }, { "list", do_list, 4 }, { "show", do_show, 4 },
	     { "rm", do_rm, 0 } };

int cmd_baseline(int argc, char **argv, struct tps_ctx *ctx)
{
	struct args a;
	struct store *s;
	size_t i;
	int seen, r;

	if (argc < 2)
		return tps_usage_error(usage_baseline,
				       "which baseline subcommand: set, list, show or rm?");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return fputs(help_baseline, stdout) < 0 ? TPS_EXIT_ERROR : TPS_EXIT_OK;
	for (i = 0; i < 4 && strcmp(argv[1], subs[i].name); i++)
		;
	if (i == 4)
		return tps_usage_error(usage_baseline, "unknown baseline subcommand '%s'", argv[1]);
	if ((r = parse(argc - 1, argv + 1, &a, &seen)) != 0)
		return r > 0 ? TPS_EXIT_OK : TPS_EXIT_USAGE;
	if (i == 1 && (a.name || (seen & ~4)))
		r = tps_usage_error(usage_baseline, "'baseline list' takes only --format or --json");
	else if (i != 1 && (!a.name || !*a.name))
		r = tps_usage_error(usage_baseline, "'baseline %s' needs a name", subs[i].name);
	else if (seen & ~subs[i].takes)
		r = tps_usage_error(usage_baseline, "an option that 'baseline %s' does not take",
				    subs[i].name);
	else {
		ctx->readonly = i == 1 || i == 2; /* list, show */
		r = (s = tps_ctx_store(ctx)) ? subs[i].run(s, &a) : TPS_EXIT_ERROR;
	}
	filter_opts_release(&a.fo);
	return r;
}

/* A baseline names runs: without a store there are none, so it never creates one;
 * list and show open it read-only themselves. */
CMD_ENTRY(baseline, "freeze, list and remove named sets of runs",
	  CMD_EXISTING | CMD_OPERANDS);
