/* cmd_gate.c: `tpsdb gate`, pass or fail a candidate build against a frozen baseline:
 * options, then both sides loaded and pooled as compare loads them (cmd/side.h),
 * the decision (analyze/gate.c) and the text, JSON, JUnit XML and GitHub
 * annotations (reports/gate_write.c). Thresholds are parsed by
 * analyze/gate_threshold.c; the file is read here. */
#include "analyze/config.h"
#include "analyze/config_near.h"
#include "analyze/gate.h"
#include "analyze/gate_threshold.h"
#include "analyze/series.h"
#include "cmd/opts.h"
#include "cmd/side.h"
#include "reports/compare_write.h"
#include "reports/gate_write.h"
#include "schema/baseline.h"
#include "schema/labels.h"
#include "tpsdb.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_MAX, OPT_METRIC, OPT_FAIL_ON };

/* The usage error of a threshold that did not parse, of the file path (NULL:
 * --max-regress). */
static int threshold_error(const struct gate_threshold_err *e, const char *path)
{
	char *msg = gate_write_threshold_err(e, path);
	int ret = tps_usage_error(usage_gate, "%s", msg);

	free(msg);
	return ret;
}

static int read_thresholds(const char *path, double *th)
{
	struct gate_threshold_err e;
	char *text;
	int ret = 0;

	if (!(text = tps_read_text(path)))
		return TPS_EXIT_ERROR;
	if (gate_threshold_parse_text(text, th, &e) < 0)
		ret = threshold_error(&e, path);
	free(text);
	return ret;
}

struct gate_cli {
	struct gate_report rep;
	struct gate_params p;
	struct filter_opts fo;      /* the candidate's --tag, --batch, --model */
	const char *junit, *thresh_file, *ignore_config;
	enum out_format fmt;
};

/* Parses argv into *o; returns -1 to go on, else the exit code. */
static int parse_args(int argc, char **argv, struct gate_cli *o)
{
	struct gate_threshold_err e;
	double flag_th[GATE_N_METRICS];
	int flag_set[GATE_N_METRICS] = { 0 }, metric_given = 0, strict = 0, identical = 0;
	int c, m, ret;
	unsigned fail_on_given = 0, bits;
	char bad[64];
	const struct cmd_option opts[] = {
		OPT_STRING("baseline", &o->rep.baseline), OPT_STRING("engine", &o->rep.engine),
		OPT_LIST("tag", &o->fo.tag), OPT_LIST("model", &o->fo.model),
		OPT_LIST("host", &o->fo.host), OPT_LIST("batch", &o->fo.batch),
		OPT_CALLBACK("max-regress", OPT_MAX), OPT_STRING("thresholds", &o->thresh_file),
		OPT_CALLBACK("metric", OPT_METRIC), OPT_FLAG("sweep", &o->p.sweep),
		OPT_FLAG("strict", &strict), OPT_CALLBACK("fail-on", OPT_FAIL_ON),
		OPT_FLAG("require-identical-output", &identical), OPT_FLAG("trend", &o->p.trend),
		OPT_FLAG("across-machines", &o->p.across_machines), OPT_STRING("junit", &o->junit),
		OPT_PARSE("ignore-config", &o->ignore_config, ignore_config_opt, 0),
		OPT_FORMAT(&o->fmt),
		OPT_END,
	};
	struct cmd_opts co = { .cmd = &cmd_gate_entry, .opts = opts };

	gate_params_init(&o->p);
	for (m = 0; m < GATE_N_METRICS; m++) {
		o->p.gated[m] = 0;
		flag_th[m] = VERDICT_MAX_REGRESS_PCT;
	}
	while ((c = cmd_opts_next(&co, argc, argv)) >= 0) {
		switch (c) {
		case OPT_FAIL_ON:
			if (gate_fail_on_parse(optarg, &bits, bad, sizeof(bad)) < 0)
				return tps_usage_error(usage_gate, "--fail-on: unknown check '%s' "
						       "(regression, inconclusive, environment, "
						       "output)", bad);
			fail_on_given |= bits;
			break;
		case OPT_MAX:
			if (gate_threshold_parse(optarg, flag_th, flag_set, &e) < 0)
				return threshold_error(&e, NULL);
			break;
		case OPT_METRIC:
			if ((m = gate_metric_index(optarg)) < 0)
				return tps_usage_error(usage_gate,
						       "--metric is tg, pp or accept, not '%s'",
						       optarg);
			o->p.gated[m] = 1;
			metric_given = 1;
			break;
		}
	}
	if (c == CMD_OPTS_STOP)
		return co.ret;
	if (!o->rep.baseline || !o->rep.engine)
		return tps_usage_error(usage_gate, "--baseline and --engine are both required");
	/* --fail-on chooses; --strict and --require-identical-output add to it. */
	o->p.fail_on = (fail_on_given ? fail_on_given : GATE_FAIL_REGRESSION) |
		       (strict ? GATE_FAIL_ALL : 0) | (identical ? GATE_FAIL_OUTPUT : 0);
	if (!metric_given)
		for (m = 0; m < GATE_N_METRICS; m++)
			o->p.gated[m] = 1;
	if (o->thresh_file && (ret = read_thresholds(o->thresh_file, o->p.threshold)) != 0)
		return ret;
	for (m = 0; m < GATE_N_METRICS; m++)
		if (flag_set[m])
			o->p.threshold[m] = flag_th[m];
	return -1;
}

/* What the gate reads: the candidate's side, the baseline's, the candidate's
 * history (--trend: every run of the engine) and its series (--sweep, from its
 * own pools, as 'tpsdb sweep' assembles them). */
struct gate_sides {
	struct side cand, base, hist, clean; /* clean: the newest clean batch's history */
	struct run_filter fc;               /* the candidate's filter */
	struct series_set sweep;
};

static int load(struct tps_ctx *ctx, struct gate_cli *o, struct gate_sides *g,
		struct gate_input *in)
{
	struct run_filter fc, fb = { 0 }, fh = { 0 };
	unsigned want = RUN_LOAD_VALUES | (o->p.gated[GATE_ACCEPT] ? RUN_LOAD_ACCEPT : 0);
	struct store *s;
	int ex;

	if (!(s = tps_ctx_store(ctx)))
		return -1;
	if ((ex = store_baseline_exists(s, o->rep.baseline)) < 0)
		return -1;
	if (!ex) {
		/* Not there: the check's error line lists the baselines there are. */
		store_label_check(s, STORE_LABEL_BASELINE, o->rep.baseline, "--baseline");
		return -1;
	}
	if (store_label_check(s, STORE_LABEL_ENGINE, o->rep.engine, "--engine") != 1 ||
	    filter_opts_check(s, &o->fo) < 0)
		return -1;
	o->rep.tag = o->fo.tag.n ? o->fo.tag.v[0] : NULL;
	fc = o->fo.f;
	fc.engine.v = &o->rep.engine;
	fc.engine.n = 1;
	g->fc = fc;
	/* A frozen set is chosen whole: the candidate's filters do not thin it. */
	fb.baseline = o->rep.baseline;
	fb.model = o->fo.f.model;
	if (side_load(s, &fc, o->ignore_config, want, &g->cand) < 0 ||
	    side_load(s, &fb, o->ignore_config, want, &g->base) < 0)
		return -1;
	if (o->ignore_config)
		compare_write_ignored(o->ignore_config, o->rep.engine, g->cand.ignored,
				      o->rep.baseline, g->base.ignored);
	in->cand = g->cand.pools;
	in->n_cand = g->cand.n_pools;
	in->base = g->base.pools;
	in->n_base = g->base.n_pools;
	if (o->p.trend) {
		/* The history is every run of the cell, whatever the tag. */
		fh.engine = fc.engine;
		fh.model = fc.model;
		if (side_load_history(s, &fh, o->ignore_config, want, &g->hist) < 0)
			return -1;
		side_split_machines(&g->hist);
		in->hist = g->hist.pools;
		in->n_hist = g->hist.n_pools;
	}
	if (o->p.sweep) {
		if (series_assemble(g->cand.pools, g->cand.n_pools, SWEEP_TOLERANCE_PCT,
				    &g->sweep) < 0)
			return tps_error("cannot analyse the sweep: the tolerance must be a number >= 0");
		in->sweep = &g->sweep;
	}
	return 0;
}

int cmd_gate(int argc, char **argv, struct tps_ctx *ctx)
{
	struct gate_cli o;
	struct gate_sides g;
	struct gate_input in;
	struct gate_result res = { 0 };
	int ret;

	memset(&o, 0, sizeof(o));
	memset(&g, 0, sizeof(g));
	memset(&in, 0, sizeof(in));
	if ((ret = parse_args(argc, argv, &o)) >= 0)
		goto out;
	ret = TPS_EXIT_ERROR;
	if (load(ctx, &o, &g, &in) < 0)
		goto out;
	if (gate_decide(&in, &o.p, &res) < 0) {
		struct config_near near;

		/* No shared cell: say which config keys keep the nearest ones apart. */
		if (res.stop == GATE_STOP_NOTHING_SHARED &&
		    config_nearest(g.cand.set.runs, g.cand.set.n, g.base.set.runs, g.base.set.n,
				   &near))
			o.rep.near = &near;
		gate_write_stop(&o.rep, &res);
		/* A baseline of another machine: exit 3, and with --json a document
		 * naming both machines. */
		if (res.stop == GATE_STOP_MACHINES && o.fmt == OUT_JSON)
			gate_write_refused_json(stdout, &o.rep, &res);
		goto out;
	}
	if (side_gate_newest_clean(tps_ctx_store(ctx), &g.fc, o.ignore_config, o.p.threshold,
				   &g.clean, &res) < 0)
		goto out;
	if (gate_write_out(&o.rep, &res, o.fmt, o.junit) < 0)
		goto out;
	ret = res.n_fail ? TPS_EXIT_FAIL : TPS_EXIT_OK;
out:
	gate_result_release(&res);
	series_set_release(&g.sweep);
	side_release(&g.cand);
	side_release(&g.base);
	side_release(&g.hist);
	side_release(&g.clean);
	filter_opts_release(&o.fo);
	return ret;
}

CMD_ENTRY(gate, "pass/fail a candidate against a baseline", CMD_READONLY);
