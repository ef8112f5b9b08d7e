/* cmd_trend.c: `tpsdb trend`, the change points of every history series: one
 * engine on one model and config, each run reduced to the median of its unflagged
 * samples, searched as Apache Otava does (analyze/changepoint.h). Informational:
 * it always exits 0 when it could read the store; 'gate --trend' is the check. */
#include "analyze/changepoint.h"
#include "analyze/trend.h"
#include "cmd/filter_opts.h"
#include "cmd/opts.h"
#include "cmd/side.h"
#include "reports/trend_write.h"
#include "tpsdb.h"

#include <string.h>

enum { OPT_METRIC = 256, OPT_PVALUE, OPT_MAGNITUDE, OPT_SEGMENT };

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "pvalue", required_argument, NULL, OPT_PVALUE },
	{ "min-magnitude", required_argument, NULL, OPT_MAGNITUDE },
	{ "min-segment", required_argument, NULL, OPT_SEGMENT },
	FORMAT_OPTIONS,
	FILTER_OPTION_LIMIT,
	FILTER_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

int cmd_trend(int argc, char **argv, struct tps_ctx *ctx)
{
	struct changepoint_params p;
	struct filter_opts fo = { 0 };
	enum out_format fmt = OUT_TEXT;
	struct cmd_opts co = { .cmd = &cmd_trend_entry, .fo = &fo, .fmt = &fmt };
	struct trend_item *items = NULL;
	struct side sd = { 0 };
	size_t n = 0;
	struct store *s;
	int c, want[2] = { 1, 1 }, ret = TPS_EXIT_ERROR;
	int64_t seg;

	changepoint_params_init(&p);

	while ((c = cmd_opts_next(&co, argc, argv, opts)) >= 0) {
		switch (c) {
		case OPT_METRIC:
			if (!strcmp(optarg, "pp"))
				want[1] = 0;
			else if (!strcmp(optarg, "tg"))
				want[0] = 0;
			else
				return tps_usage_error(usage_trend,
						       "--metric is pp or tg, not '%s'", optarg);
			break;
		case OPT_PVALUE:
			if (tps_parse_double(optarg, &p.pvalue) < 0 || p.pvalue <= 0 || p.pvalue > 1)
				return tps_usage_error(usage_trend,
						       "--pvalue needs a number in (0, 1], not '%s'",
						       optarg);
			break;
		case OPT_MAGNITUDE:
			if (tps_parse_double(optarg, &p.min_magnitude_pct) < 0 ||
			    p.min_magnitude_pct < 0)
				return tps_usage_error(usage_trend,
						       "--min-magnitude needs a number >= 0, not "
						       "'%s'", optarg);
			break;
		case OPT_SEGMENT:
			if (tps_parse_i64(optarg, &seg) < 0 || seg < 2 || seg > 1000000)
				return tps_usage_error(usage_trend,
						       "--min-segment needs a whole number >= 2, "
						       "not '%s'", optarg);
			p.min_segment = (size_t)seg;
			break;
		}
	}
	if (c == CMD_OPTS_STOP)
		return co.ret;
	if (!(s = tps_ctx_store(ctx)) || filter_opts_check(s, &fo) < 0)
		goto out;
	/* The limit counts per series, in a history's own order. */
	if (side_load_history(s, &fo.f, NULL, RUN_LOAD_VALUES, &sd) < 0)
		goto out;
	/* A series comes from one machine. */
	side_split_machines(&sd);
	/* Series order is the store's (model, config, engine); pp before tg. */
	if (trend_items(sd.pools, sd.n_pools, want, fo.f.limit, &p, &items, &n) < 0) {
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

const struct cmd_entry cmd_trend_entry = {
	.name = "trend",
	.summary = "change points in each history series",
	.usage = usage_trend,
	.help = help_trend,
	.flags = CMD_READONLY,
	.exec = cmd_trend,
};
