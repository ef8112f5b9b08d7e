/* cmd_compare.c: `tpsdb compare`, the parity table of two engines: each side's
 * runs loaded and pooled (cmd/side.h), every cell both measured given its one
 * estimate per metric (analyze/parity.c), written by reports/compare_write.c; the
 * exit code is informational (0) unless a cell had to be refused or nothing was
 * comparable (3). */
#include "analyze/config.h"
#include "analyze/config_near.h"
#include "analyze/parity.h"
#include "cmd/opts.h"
#include "cmd/side.h"
#include "reports/compare_write.h"
#include "reports/parity.h"
#include "schema/labels.h"
#include "tpsdb.h"

#include <string.h>

int cmd_compare(int argc, char **argv, struct tps_ctx *ctx)
{
	struct filter_opts fo = { 0 };
	enum out_format fmt = OUT_TEXT;
	struct filter_list ours_tag = { 0 }, vs_tag = { 0 };
	struct parity_result res = { 0 };
	struct side side[2], hist[2];
	struct parity_opts o;
	struct run_filter f[2];
	struct store *s;
	const char *ignore = NULL;
	int k, strict = 0, ret;
	static const struct cmd_choice metrics[] = {
		{ "pp", PARITY_PP }, { "tg", PARITY_TG }, { "both", PARITY_BOTH }, { NULL, 0 },
	};
	const struct cmd_option opts[] = {
		OPT_STRING("ours", &o.ours), OPT_STRING("vs", &o.vs),
		OPT_LIST("model", &fo.model), OPT_CHOICE("metric", &o.metrics, metrics),
		OPT_PERCENT("band", &o.band_pct), OPT_LIST("tag", &fo.tag),
		OPT_NAMES("ours-tag", &ours_tag), OPT_NAMES("vs-tag", &vs_tag),
		OPT_LIST("batch", &fo.batch), OPT_LIST("host", &fo.host),
		OPT_FLAG("force", &o.force), OPT_FLAG("across-machines", &o.across_machines),
		OPT_FLAG("strict", &strict),
		OPT_PARSE("ignore-config", &ignore, ignore_config_opt, 0),
		OPT_FORMAT(&fmt), OPT_END,
	};

	parity_opts_init(&o);
	memset(side, 0, sizeof(side));
	memset(hist, 0, sizeof(hist));
	/* Nothing is held until the store is open: a usage error returns. */
	if ((ret = cmd_opts_parse(&cmd_compare_entry, opts, argc, argv)) >= 0)
		return ret;
	if (!o.ours || !o.vs)
		return tps_usage_error(usage_compare, "--ours and --vs are both required");
	/* A side's own tags replace the shared ones. */
	if (!ours_tag.n_arg)
		ours_tag = fo.tag;
	if (!vs_tag.n_arg)
		vs_tag = fo.tag;
	if (filter_pair_check(usage_compare, o.ours, &ours_tag, o.vs, &vs_tag,
			      "for an A/A pair give --ours-tag and --vs-tag, or use "
			      "'tpsdb calibrate'"))
		return TPS_EXIT_USAGE;
	ret = TPS_EXIT_ERROR;
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

CMD_ENTRY(compare, "parity deltas between two engines", CMD_READONLY);
