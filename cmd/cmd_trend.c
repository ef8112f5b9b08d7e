/* cmd_trend.c: `tpsdb trend`, the change points of every history series: one
 * engine on one model and config, each run reduced to the median of its unflagged
 * samples, searched as Apache Otava does (analyze/changepoint.h). Informational:
 * it always exits 0 when it could read the store; 'gate --trend' is the check. */
#include "analyze/changepoint.h"
#include "analyze/trend.h"
#include "cmd/opts.h"
#include "cmd/side.h"
#include "reports/trend_write.h"
#include "tpsdb.h"

int cmd_trend(int argc, char **argv, struct tps_ctx *ctx)
{
	struct changepoint_params p;
	struct filter_opts fo = { 0 };
	enum out_format fmt = OUT_TEXT;
	struct trend_item *items = NULL;
	struct side sd = { 0 };
	size_t n = 0;
	struct store *s;
	static const struct cmd_choice metrics[] = { { "pp", 1 }, { "tg", 2 }, { NULL, 0 } };
	int metric = 0, ret = TPS_EXIT_ERROR;
	const struct cmd_option opts[] = {
		OPT_CHOICE("metric", &metric, metrics),
		OPT_NUMBER("pvalue", &p.pvalue, 0, 1, CMD_OPEN_LO, "a number in (0, 1]"),
		OPT_PERCENT("min-magnitude", &p.min_magnitude_pct),
		OPT_COUNT("min-segment", &p.min_segment, 2, 1000000), OPT_FORMAT(&fmt),
		OPT_LIMIT(&fo), OPT_FILTERS(&fo), OPT_END,
	};

	changepoint_params_init(&p);
	if ((ret = cmd_opts_parse(&cmd_trend_entry, opts, argc, argv)) >= 0)
		return ret;
	ret = TPS_EXIT_ERROR;
	if (!(s = tps_ctx_store(ctx)) || filter_opts_check(s, &fo) < 0)
		goto out;
	/* The limit counts per series, in a history's own order. */
	if (side_load_history(s, &fo.f, NULL, RUN_LOAD_VALUES, &sd) < 0)
		goto out;
	/* A series comes from one machine. */
	side_split_machines(&sd);
	/* Series order is the store's (model, config, engine); pp before tg. */
	if (trend_items(sd.pools, sd.n_pools, (int[2]){ metric != 2, metric != 1 }, fo.f.limit,
			&p, &items, &n) < 0) {
		tps_error("cannot search for change points: a parameter is out of range");
		goto out;
	}
	if (fmt != OUT_JSON)
		trend_write(stdout, items, n, format_table(fmt));
	else if (trend_write_json(stdout, items, n) < 0)
		goto out;
	ret = TPS_EXIT_OK;
out:
	trend_items_free(items, n);
	side_release(&sd);
	filter_opts_release(&fo);
	return ret;
}

CMD_ENTRY(trend, "change points in each history series", CMD_READONLY);
