/* cmd_sweep.c: `tpsdb sweep`, the speculative series of each engine and model: decode
 * speed, speedup and acceptance per draft depth, the rungs where speed falls, the
 * shape against other engines and why two engines differ at one rung. Every rung
 * pools the runs of its cell; a decided fall beyond the tolerance is a failed check
 * (exit 1). A step or gap measured on two machines is refused (exit 3) unless
 * --across-machines, which marks it and checks the rest. */
#include "analyze/series.h"
#include "cmd/opts.h"
#include "cmd/side.h"
#include "reports/sweep_write.h"
#include "schema/labels.h"
#include "tpsdb.h"

#include <stdio.h>

int cmd_sweep(int argc, char **argv, struct tps_ctx *ctx)
{
	struct filter_opts fo = { 0 };
	enum out_format fmt = OUT_TEXT;
	struct series_set set = { 0 };
	struct series_verdict vd = { 0 };
	struct side sd = { 0 };
	struct series_view v = { 0 };
	double tolerance = SWEEP_TOLERANCE_PCT;
	struct store *s;
	int ret;
	const struct cmd_option opts[] = {
		OPT_STRING("engine", &v.engine), OPT_LIST("model", &fo.model),
		OPT_PERCENT("tolerance", &tolerance), OPT_STRING("ref", &v.ref),
		OPT_LIST("tag", &fo.tag), OPT_LIST("host", &fo.host), OPT_LIST("batch", &fo.batch),
		OPT_FLAG("across-machines", &v.across_machines), OPT_FORMAT(&fmt), OPT_END,
	};

	if ((ret = cmd_opts_parse(&cmd_sweep_entry, opts, argc, argv)) >= 0)
		goto out;
	ret = TPS_EXIT_ERROR;
	if (!(s = tps_ctx_store(ctx)) ||
	    (v.engine && store_label_check(s, STORE_LABEL_ENGINE, v.engine, "--engine") != 1) ||
	    filter_opts_check(s, &fo) < 0)
		goto out;
	/* Every engine is loaded, --engine or not: the shape and the gaps need the others. */
	if (side_load(s, &fo.f, NULL, RUN_LOAD_VALUES, &sd) < 0)
		goto out;
	if (series_assemble(sd.pools, sd.n_pools, tolerance, &set) < 0) {
		tps_error("cannot analyse the sweep: the tolerance must be a number >= 0");
		goto out;
	}
	if (series_decide(&v, &set, tolerance, &vd) < 0)
		goto out;
	if (sweep_write_notes(&v, &set, &vd, fo.model.n == 1 ? fo.model.v[0] : NULL) < 0) {
		/* A refusal across machines is also a document, as compare's is. */
		if (fmt == OUT_JSON && vd.n_shown && !vd.clashed && vd.machines_refused)
			sweep_write_refused_json(stdout, &set, &vd);
		goto out;
	}
	if (fmt == OUT_JSON) {
		if (sweep_write_json(stdout, &set, &vd) < 0)
			goto out;
	} else {
		sweep_write(stdout, &set, &vd, tolerance, format_table(fmt));
	}
	ret = vd.n_violations ? TPS_EXIT_FAIL : TPS_EXIT_OK;
out:
	series_verdict_release(&vd);
	series_set_release(&set);
	side_release(&sd);
	filter_opts_release(&fo);
	return ret;
}

CMD_ENTRY(sweep, "monotonicity and speedup of speculative series", CMD_READONLY);
