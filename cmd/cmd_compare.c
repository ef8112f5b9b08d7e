/* cmd_compare.c: `tpsdb compare`, the parity table of two engines: each side's
 * runs loaded and pooled (cmd/side.h), every cell both measured given its one
 * estimate per metric (analyze/parity.c), written by reports/compare_write.c; the
 * exit code is informational (0) unless a cell had to be refused or nothing was
 * comparable (3). */
#include "analyze/config.h"
#include "analyze/config_near.h"
#include "analyze/parity.h"
#include "cmd/filter_opts.h"
#include "cmd/opts.h"
#include "cmd/side.h"
#include "reports/compare_write.h"
#include "reports/parity.h"
#include "schema/labels.h"
#include "tpsdb.h"

#include <string.h>

enum {
	OPT_OURS = 256, OPT_VS, OPT_METRIC, OPT_BAND, OPT_OURS_TAG, OPT_VS_TAG, OPT_FORCE,
	OPT_IGNORE_CONFIG, OPT_STRICT, OPT_ACROSS,
};

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "ours", required_argument, NULL, OPT_OURS },
	{ "vs", required_argument, NULL, OPT_VS },
	{ "model", required_argument, NULL, FILTER_OPT_MODEL },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "band", required_argument, NULL, OPT_BAND },
	{ "tag", required_argument, NULL, FILTER_OPT_TAG },
	{ "ours-tag", required_argument, NULL, OPT_OURS_TAG },
	{ "vs-tag", required_argument, NULL, OPT_VS_TAG },
	{ "batch", required_argument, NULL, FILTER_OPT_BATCH },
	{ "host", required_argument, NULL, FILTER_OPT_HOST },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "across-machines", no_argument, NULL, OPT_ACROSS },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "ignore-config", required_argument, NULL, OPT_IGNORE_CONFIG },
	FORMAT_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

static int pct_opt(const char *name, const char *v, double *out)
{
	if (tps_parse_double(v, out) < 0 || *out < 0)
		return tps_usage_error(usage_compare, "--%s needs a number >= 0, not '%s'", name, v);
	return 0;
}

int cmd_compare(int argc, char **argv, struct tps_ctx *ctx)
{
	struct filter_opts fo = { 0 };
	enum out_format fmt = OUT_TEXT;
	struct cmd_opts co = { .cmd = &cmd_compare_entry, .fo = &fo, .fmt = &fmt };
	struct filter_list ours_tag = { 0 }, vs_tag = { 0 };
	struct parity_result res = { 0 };
	struct side side[2], hist[2];
	struct parity_opts o;
	struct run_filter f[2];
	struct store *s;
	const char *ignore = NULL;
	int c, k, strict = 0, ret = TPS_EXIT_ERROR;

	parity_opts_init(&o);
	memset(side, 0, sizeof(side));
	memset(hist, 0, sizeof(hist));
	while ((c = cmd_opts_next(&co, argc, argv, opts)) >= 0) {
		switch (c) {
		case OPT_OURS: o.ours = optarg; break;
		case OPT_VS: o.vs = optarg; break;
		case OPT_OURS_TAG:
		case OPT_VS_TAG:
			if (filter_list_add(c == OPT_OURS_TAG ? &ours_tag : &vs_tag, optarg) < 0) {
				ret = tps_usage_error(usage_compare, "--%s-tag given more than %d times",
						      c == OPT_OURS_TAG ? "ours" : "vs",
						      FILTER_LIST_MAX);
				goto out;
			}
			break;
		case OPT_FORCE: o.force = 1; break;
		case OPT_ACROSS: o.across_machines = 1; break;
		case OPT_IGNORE_CONFIG:
			if (ignore_config_opt(optarg, usage_compare)) {
				ret = TPS_EXIT_USAGE;
				goto out;
			}
			ignore = optarg;
			break;
		case OPT_STRICT: strict = 1; break;
		case OPT_METRIC:
			if ((o.metrics = parity_metrics_of(optarg)) < 0) {
				ret = tps_usage_error(usage_compare,
						      "--metric is pp, tg or both, not '%s'",
						      optarg);
				goto out;
			}
			break;
		case OPT_BAND:
			if (pct_opt("band", optarg, &o.band_pct)) {
				ret = TPS_EXIT_USAGE;
				goto out;
			}
			break;
		}
	}
	if (c == CMD_OPTS_STOP) {
		ret = co.ret;
		goto out;
	}
	if (!o.ours || !o.vs) {
		ret = tps_usage_error(usage_compare, "--ours and --vs are both required");
		goto out;
	}
	/* A side's own tags replace the shared ones. */
	if (!ours_tag.n_arg)
		ours_tag = fo.tag;
	if (!vs_tag.n_arg)
		vs_tag = fo.tag;
	if (filter_pair_check(usage_compare, o.ours, &ours_tag, o.vs, &vs_tag,
			      "for an A/A pair give --ours-tag and --vs-tag, or use "
			      "'tpsdb calibrate'")) {
		ret = TPS_EXIT_USAGE;
		goto out;
	}
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	if (store_label_check(s, STORE_LABEL_ENGINE, o.ours, "--ours") != 1 ||
	    store_label_check(s, STORE_LABEL_ENGINE, o.vs, "--vs") != 1 ||
	    filter_opts_check(s, &fo) < 0 ||
	    filter_list_check(s, STORE_LABEL_TAG, &ours_tag,
			      fo.tag.n_arg && filter_list_same(&ours_tag, &fo.tag) ? "--tag" :
			      "--ours-tag") < 0 ||
	    filter_list_check(s, STORE_LABEL_TAG, &vs_tag,
			      fo.tag.n_arg && filter_list_same(&vs_tag, &fo.tag) ? "--tag" :
			      "--vs-tag") < 0)
		goto out;
	for (k = 0; k < 2; k++) {
		f[k] = fo.f;
		f[k].tag = filter_list_labels(k ? &vs_tag : &ours_tag);
		/* A combined pp+tg llama-bench test has a speedup, if no row. */
		f[k].bench_rates = 1;
	}
	if ((k = side_parity(s, f, ignore, &o, side, &res))) {
		if (k > 0)
			parity_stop_error(&res);
		/* A refusal is exit 3 and its error line; with --json also a document
		 * a script reads the reason and both runs' machines from. */
		if (k > 0 && res.stop == PARITY_STOP_REFUSED && fmt == OUT_JSON)
			compare_write_refused_json(&res);
		goto out;
	}
	if (side_newest_clean(s, f, ignore, &o, hist, &res) < 0)
		goto out;
	if (ignore)
		compare_write_ignored(ignore, o.ours, side[0].ignored, o.vs, side[1].ignored);
	compare_write_notes(&res);
	if (!res.n_rows) {
		struct config_near near;

		compare_write_none(o.ours, o.vs, fo.model.n == 1 ? fo.model.v[0] : NULL,
				   config_nearest(side[0].set.runs, side[0].set.n, side[1].set.runs,
						  side[1].set.n, &near) ? &near : NULL);
		goto out;
	}
	if (compare_write_out(&res, o.ours, o.vs, o.band_pct, fmt) < 0)
		goto out;
	ret = strict && parity_env_rows(&res) ? TPS_EXIT_FAIL : TPS_EXIT_OK;
out:
	parity_result_release(&res);
	side_release(&side[0]);
	side_release(&side[1]);
	side_release(&hist[0]);
	side_release(&hist[1]);
	filter_list_release(&ours_tag);
	filter_list_release(&vs_tag);
	filter_opts_release(&fo);
	return ret;
}

const struct cmd_entry cmd_compare_entry = {
	.name = "compare",
	.summary = "parity deltas between two engines",
	.usage = usage_compare,
	.help = help_compare,
	.flags = CMD_READONLY,
	.exec = cmd_compare,
};
