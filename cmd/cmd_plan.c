/* cmd_plan.c: `tpsdb plan`, the cheapest reps of every prompt and the rounds the
 * sequential rule needs to decide, learned from the stored runs of the same cells
 * (cmd/side.h -> analyze/plan.c -> reports/plan_write.c). The collector's default
 * design, which the plan is set against, is read from collect/. */
#include "analyze/estimate.h"
#include "analyze/plan.h"
#include "cmd/filter_opts.h"
#include "cmd/opts.h"
#include "cmd/side.h"
#include "collect/prompts.h"
#include "collect/setup.h"
#include "reports/plan_write.h"
#include "schema/labels.h"
#include "tpsdb.h"

#include <string.h>

enum { OPT_OURS = 256, OPT_VS, OPT_ENGINE, OPT_BAND, OPT_MDE, OPT_POWER, OPT_MAX_ROUNDS };

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "ours", required_argument, NULL, OPT_OURS },
	{ "vs", required_argument, NULL, OPT_VS },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "model", required_argument, NULL, FILTER_OPT_MODEL },
	{ "tag", required_argument, NULL, FILTER_OPT_TAG },
	{ "batch", required_argument, NULL, FILTER_OPT_BATCH },
	{ "host", required_argument, NULL, FILTER_OPT_HOST },
	{ "band", required_argument, NULL, OPT_BAND },
	/* The old name of --band: its default was the band already. */
	{ "mde", required_argument, NULL, OPT_MDE },
	{ "power", required_argument, NULL, OPT_POWER },
	{ "max-rounds", required_argument, NULL, OPT_MAX_ROUNDS },
	FORMAT_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

/* The collector's default prompts x reps, from collect/ itself so the two cannot
 * drift apart. */
static void default_design(struct plan_opts *o)
{
	struct collect_setup cs;
	struct prompt_set ps = { 0 };

	setup_init(&cs, usage_plan);
	prompts_builtin(&ps, 0, 0);
	o->default_prompts = ps.n;
	o->default_reps = cs.c.reps > 0 ? (size_t)cs.c.reps : 1;
	prompts_release(&ps);
	setup_release(&cs);
}

static int label(const char *opt, const char *v, const char **out)
{
	if (!*v)
		return tps_usage_error(usage_plan, "--%s needs a label", opt);
	*out = v;
	return 0;
}

int cmd_plan(int argc, char **argv, struct tps_ctx *ctx)
{
	struct filter_opts fo = { 0 };
	enum out_format fmt = OUT_TEXT;
	struct cmd_opts co = { .cmd = &cmd_plan_entry, .fo = &fo, .fmt = &fmt, .synopsis = 1 };
	struct side sd[2];
	struct plan_input in = { 0 };
	struct plan_result res = { 0 };
	struct plan_opts o;
	const char *ours = NULL, *vs = NULL, *engine = NULL, *side[2];
	struct store *s;
	int64_t rounds;
	int c, k, ret = TPS_EXIT_ERROR;

	memset(sd, 0, sizeof(sd));
	plan_opts_init(&o);
	default_design(&o);
	while ((c = cmd_opts_next(&co, argc, argv, opts)) >= 0) {
		switch (c) {
		case OPT_OURS:
			if (label("ours", optarg, &ours))
				return TPS_EXIT_USAGE;
			break;
		case OPT_VS:
			if (label("vs", optarg, &vs))
				return TPS_EXIT_USAGE;
			break;
		case OPT_ENGINE:
			if (label("engine", optarg, &engine))
				return TPS_EXIT_USAGE;
			break;
		case OPT_BAND:
		case OPT_MDE:
			if (tps_parse_double(optarg, &o.band_pct) < 0 || !(o.band_pct > 0) ||
			    o.band_pct > 100)
				return tps_usage_error(usage_plan,
						       "--%s needs a percentage above 0 and "
						       "at most 100, not '%s'",
						       c == OPT_MDE ? "mde" : "band", optarg);
			break;
		case OPT_POWER:
			if (tps_parse_double(optarg, &o.power) < 0 || !(o.power > 0) ||
			    !(o.power < 1))
				return tps_usage_error(usage_plan,
						       "--power needs a chance above 0 and "
						       "below 1, not '%s'", optarg);
			break;
		case OPT_MAX_ROUNDS:
			if (tps_parse_i64(optarg, &rounds) < 0 || rounds < 2 ||
			    rounds > ESTIMATE_MAX_LOOK)
				return tps_usage_error(usage_plan,
						       "--max-rounds needs a whole number from 2 "
						       "to %d, not '%s'", ESTIMATE_MAX_LOOK,
						       optarg);
			o.max_rounds = (size_t)rounds;
			break;
		}
	}
	if (c == CMD_OPTS_STOP)
		return co.ret;
	if (engine && (ours || vs))
		return tps_usage_error(usage_plan, "--engine plans one engine; --ours and --vs a "
				       "pair: give one or the other");
	if (!engine && (!ours || !vs))
		return tps_usage_error(usage_plan, "--ours and --vs (or --engine) are required");
	/* compare refuses this pair, so a plan for it would plan what never runs. */
	if (!engine && filter_pair_check(usage_plan, ours, &fo.tag, vs, &fo.tag,
					 "--engine plans one engine"))
		return TPS_EXIT_USAGE;
	side[0] = engine ? engine : ours;
	side[1] = engine ? NULL : vs;
	if (!(s = tps_ctx_store(ctx)) || filter_opts_check(s, &fo) < 0)
		goto out;
	for (k = 0; k < 2 && side[k]; k++)
		if (store_label_check(s, STORE_LABEL_ENGINE, side[k],
				      engine ? "--engine" : k ? "--vs" : "--ours") != 1)
			goto out;
	/* Every run of the cell the filters select: a history, not a batch. */
	if ((k = side_plan(s, &fo.f, side, &o, sd, &in, &res)) < 0)
		goto out;
	if (!in.n_cells) {
		plan_write_none(side);
		goto out;
	}
	if (k) {
		tps_error("cannot plan: the default design is out of range");
		goto out;
	}
	if (fmt == OUT_JSON) {
		if (plan_write_json(stdout, &res, side, &o) < 0)
			goto out;
	} else {
		plan_write_table(stdout, &res, side, &o, format_table(fmt));
	}
	ret = TPS_EXIT_OK;
out:
	plan_result_release(&res);
	plan_input_release(&in);
	side_release(&sd[0]);
	side_release(&sd[1]);
	filter_opts_release(&fo);
	return ret;
}

const struct cmd_entry cmd_plan_entry = {
	.name = "plan",
	.summary = "the cheapest reps and rounds to decide, from stored variance",
	.usage = usage_plan,
	.help = help_plan,
	.flags = CMD_READONLY,
	.exec = cmd_plan,
};
