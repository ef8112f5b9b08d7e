/* cmd_plan.c: `tpsdb plan`, the cheapest reps of every prompt and the rounds the
 * sequential rule needs to decide, learned from the stored runs of the same cells
 * (cmd/side.h -> analyze/plan.c -> reports/plan_write.c). The collector's default
 * design, which the plan is set against, is read from collect/. */
#include "analyze/estimate.h"
#include "analyze/plan.h"
#include "cmd/opts.h"
#include "cmd/side.h"
#include "collect/prompts.h"
#include "collect/setup.h"
#include "reports/plan_write.h"
#include "schema/labels.h"
#include "tpsdb.h"

#include <string.h>

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

int cmd_plan(int argc, char **argv, struct tps_ctx *ctx)
{
	struct filter_opts fo = { 0 };
	enum out_format fmt = OUT_TEXT;
	struct side sd[2];
	struct plan_input in = { 0 };
	struct plan_result res = { 0 };
	struct plan_opts o;
	const char *ours = NULL, *vs = NULL, *engine = NULL, *side[2];
	struct store *s;
	int k, ret = TPS_EXIT_ERROR;
	const struct cmd_option opts[] = {
		OPT_NONEMPTY("ours", &ours, "a label"), OPT_NONEMPTY("vs", &vs, "a label"),
		OPT_NONEMPTY("engine", &engine, "a label"), OPT_LIST("model", &fo.model),
		OPT_LIST("tag", &fo.tag), OPT_LIST("batch", &fo.batch), OPT_LIST("host", &fo.host),
		OPT_NUMBER("band", &o.band_pct, 0, 100, CMD_OPEN_LO,
			   "a percentage above 0 and at most 100"),
		/* The old name of --band: its default was the band already. */
		OPT_NUMBER("mde", &o.band_pct, 0, 100, CMD_OPEN_LO,
			   "a percentage above 0 and at most 100"),
		OPT_NUMBER("power", &o.power, 0, 1, CMD_OPEN_LO | CMD_OPEN_HI,
			   "a chance above 0 and below 1"),
		OPT_COUNT("max-rounds", &o.max_rounds, 2, ESTIMATE_MAX_LOOK),
		OPT_FORMAT(&fmt), OPT_END,
	};

	memset(sd, 0, sizeof(sd));
	plan_opts_init(&o);
	default_design(&o);
	if ((k = cmd_opts_parse(&cmd_plan_entry, opts, argc, argv)) >= 0)
		return k;
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

CMD_ENTRY(plan, "the cheapest reps and rounds to decide, from stored variance",
	  CMD_READONLY | CMD_SYNOPSIS);
