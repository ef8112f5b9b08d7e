/* cmd_calibrate.c: `tpsdb calibrate`, the A/A noise floor. For every cell that one
 * engine measured at least twice (the same binary, model and config, with a server
 * restart between, as `tpsdb collect --aa` does), it pairs the two latest runs prompt
 * by prompt, stores how far they drift apart per metric, and a cell of one
 * instance a side is then decided with its interval widened by that floor
 * (analyze/estimate.h). Load: cmd/side.h (every run of each
 * series); floors: analyze/noise.c; writing them: schema/noise.c; output:
 * reports/calibrate_write.c. */
#include "cmd/filter_opts.h"
#include "cmd/opts.h"
#include "cmd/side.h"
#include "analyze/noise.h"
#include "reports/calibrate_write.h"
#include "schema/noise.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "engine", required_argument, NULL, FILTER_OPT_ENGINE },
	{ "model", required_argument, NULL, FILTER_OPT_MODEL },
	{ "tag", required_argument, NULL, FILTER_OPT_TAG },
	{ "host", required_argument, NULL, FILTER_OPT_HOST },
	FORMAT_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

int cmd_calibrate(int argc, char **argv, struct tps_ctx *ctx)
{
	struct filter_opts fo = { 0 };
	enum out_format fmt = OUT_TEXT;
	struct cmd_opts co = { .cmd = &cmd_calibrate_entry, .fo = &fo, .fmt = &fmt };
	struct side sd = { 0 };
	struct noise_pair *pairs = NULL;
	size_t n = 0, n_floors = 0, i;
	int c, m, ret = TPS_EXIT_ERROR, in_tx = 0;
	struct store *s;

	while ((c = cmd_opts_next(&co, argc, argv, opts)) >= 0)
		; /* every option is a shared one, taken there */
	if (c == CMD_OPTS_STOP) {
		ret = co.ret;
		goto out;
	}
	/* Every run of each series: the A/A pair is its two latest. */
	if (!(s = tps_ctx_store(ctx)) || filter_opts_check(s, &fo) < 0 ||
	    side_load_history(s, &fo.f, NULL, RUN_LOAD_VALUES, &sd) < 0)
		goto out;
	noise_calibrate(sd.pools, sd.n_pools, &pairs, &n, &n_floors);
	for (i = 0; i < n; i++) {
		if (pairs[i].identical)
			tps_warning("runs %s and %s hold identical samples (the same results "
				    "imported twice?): not an A/A pair, no noise floor taken",
				    pairs[i].a->uuid, pairs[i].b->uuid);
	}
	if (store_begin(s) < 0)
		goto out;
	in_tx = 1;
	for (i = 0; i < n; i++) {
		for (m = 0; m < PARITY_N_METRICS; m++) {
			struct noise_rec rec;

			if (pairs[i].diff.kind != PARITY_DIFF_NONE || isnan(pairs[i].pct[m]))
				continue;
			rec.run_a = pairs[i].a->uuid;
			rec.run_b = pairs[i].b->uuid;
			rec.metric = m == PARITY_METRIC_PP ? "pp" : "tg";
			rec.noise_pct = pairs[i].pct[m];
			rec.n_pairs = (int64_t)pairs[i].n_pairs[m];
			if (store_noise_put(s, &rec) < 0)
				goto out;
		}
	}
	if (fmt != OUT_JSON)
		calibrate_write(stdout, pairs, n, format_table(fmt));
	if (!n_floors) {
		tps_error("no A/A pair to calibrate from: collect the same engine twice on one "
			  "cell first ('tpsdb collect --aa')");
		goto out;
	}
	if (store_commit(s) < 0)
		goto out;
	in_tx = 0;
	if (fmt == OUT_JSON && calibrate_write_json(pairs, n) < 0)
		goto out;
	ret = TPS_EXIT_OK;
out:
	if (in_tx)
		store_rollback(ctx->store);
	free(pairs);
	side_release(&sd);
	filter_opts_release(&fo);
	return ret;
}

/* No store, no runs to calibrate: it never creates one. */
const struct cmd_entry cmd_calibrate_entry = {
	.name = "calibrate",
	.summary = "measure a host's A/A noise floor (same engine, restarted)",
	.usage = usage_calibrate,
	.help = help_calibrate,
	.flags = CMD_EXISTING,
	.exec = cmd_calibrate,
};
