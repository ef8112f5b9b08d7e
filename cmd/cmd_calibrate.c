/* cmd_calibrate.c: `tpsdb calibrate`, the A/A noise floor. For every cell that one
 * engine measured at least twice (the same binary, model and config, with a server
 * restart between, as `tpsdb collect --aa` does), it pairs the two latest runs prompt
 * by prompt, stores how far they drift apart per metric, and a cell of one
 * instance a side is then decided with its interval widened by that floor
 * (analyze/estimate.h). Load: cmd/side.h (every run of each
 * series); floors: analyze/noise.c; writing them: schema/noise.c; output:
 * reports/calibrate_write.c. */
#include "cmd/opts.h"
#include "cmd/side.h"
#include "analyze/noise.h"
#include "reports/calibrate_write.h"
#include "schema/noise.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <stdlib.h>

int cmd_calibrate(int argc, char **argv, struct tps_ctx *ctx)
{
	struct filter_opts fo = { 0 };
	enum out_format fmt = OUT_TEXT;
	struct side sd = { 0 };
	struct noise_pair *pairs = NULL;
	size_t n = 0, n_floors = 0;
	int ret, in_tx = 0;
	struct store *s;
	const struct cmd_option opts[] = {
		OPT_LIST("engine", &fo.engine), OPT_LIST("model", &fo.model),
		OPT_LIST("tag", &fo.tag), OPT_LIST("host", &fo.host), OPT_FORMAT(&fmt), OPT_END,
	};

	if ((ret = cmd_opts_parse(&cmd_calibrate_entry, opts, argc, argv)) >= 0)
		goto out;
	ret = TPS_EXIT_ERROR;
	/* Every run of each series: the A/A pair is its two latest. */
	if (!(s = tps_ctx_store(ctx)) || filter_opts_check(s, &fo) < 0 ||
	    side_load_history(s, &fo.f, NULL, RUN_LOAD_VALUES, &sd) < 0)
		goto out;
	noise_calibrate(sd.pools, sd.n_pools, &pairs, &n, &n_floors);
	calibrate_write_identical(pairs, n);
	if (store_begin(s) < 0)
		goto out;
	in_tx = 1;
	if (store_noise_put_pairs(s, pairs, n) < 0)
		goto out;
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
CMD_ENTRY(calibrate, "measure a host's A/A noise floor (same engine, restarted)",
	  CMD_EXISTING);
