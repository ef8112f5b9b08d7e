/* cmd_runs.c: `tpsdb runs`, the list of runs with their sample counts and the
 * median prefill and decode tok/s of the samples no flag spoils. The --json form is
 * a contract that CI scripts parse: keys are only ever added, never renamed. */
#include "cmd/opts.h"
#include "cmd/side.h"
#include "collect/loaderr.h"
#include "reports/runs_write.h"
#include "schema/catalog.h"
#include "schema/store.h"
#include "tpsdb.h"

int cmd_runs(int argc, char **argv, struct tps_ctx *ctx)
{
	struct filter_opts fo = { 0 };
	enum out_format fmt = OUT_TEXT;
	struct catalog_run *runs = NULL;
	struct store *s;
	struct side sd = { 0 };
	size_t n = 0, i, kept;
	int pooled = 0, ret = TPS_EXIT_ERROR;
	const struct cmd_option opts[] = {
		OPT_FLAG("pooled", &pooled), OPT_FORMAT(&fmt), OPT_LIMIT(&fo), OPT_FILTERS(&fo),
		OPT_END,
	};

	if ((ret = cmd_opts_parse(&cmd_runs_entry, opts, argc, argv)) >= 0)
		return ret;
	ret = TPS_EXIT_ERROR;
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	if (filter_opts_check(s, &fo) < 0)
		goto out;
	if (catalog_runs(s, &fo.f, &runs, &n) < 0)
		goto out;
	for (i = 0; i < n; i++)
		runs[i].load_line = loaderr_line(runs[i].load_error);
	/* The selection every decision takes: the same loader and rule. */
	if (pooled) {
		struct run_filter f = fo.f;

		f.limit = 0;
		if (side_load(s, &f, NULL, 0, &sd) < 0)
			goto out;
		for (i = kept = 0; i < n; i++)
			if (pools_hold(sd.pools, sd.n_pools, runs[i].uuid))
				runs[kept++] = runs[i];
			else
				catalog_run_release(&runs[i]);
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

CMD_ENTRY(runs, "list runs", CMD_READONLY);
