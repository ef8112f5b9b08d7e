/* cmd_check.c: `tpsdb check`, everything that makes a number untrustworthy, in one
 * place: the per-sample data-quality flags set at ingest, grouped per run with an
 * example, runs that failed to load or stopped early, the model-identity alarms and
 * SQLite's own integrity check. Any of them fails the command (exit 1). */
#include "cmd/opts.h"
#include "cmd/side.h"
#include "analyze/clock.h"
#include "reports/check_write.h"
#include "reports/findings.h"
#include "reports/strv.h"
#include "schema/catalog.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <stdlib.h>

struct problems {
	char **p;
	size_t n;
};

/* Each line of the integrity check's problems (store_integrity()). */
static void on_problem(const char *problem, void *arg)
{
	struct problems *ps = arg;

	strv_add(&ps->p, &ps->n, problem);
}

/* The outlier instances of the pools of the filter's cell set, those compare
 * and gate would take (pools_outliers()), as findings. -1 after an error line. */
static int add_outliers(struct store *s, const struct run_filter *rf, struct findings *fs)
{
	struct pool_outlier *o = NULL;
	struct side sd;
	size_t n = 0;
	int ret = -1;

	if (side_load(s, rf, NULL, RUN_LOAD_VALUES, &sd) == 0) {
		o = pools_outliers(sd.pools, sd.n_pools, &n);
		findings_add_outliers(fs, o, n);
		ret = 0;
	}
	free(o);
	side_release(&sd);
	return ret;
}

/* Runs whose server decode rate parts from the client's clock (analyze/clock.h). */
static void add_clock(const struct catalog_quality *q, size_t n, struct findings *fs)
{
	struct clock_check cc;
	size_t i;

	for (i = 0; i < n; i++) {
		clock_check(q[i].tg_server, q[i].tg_client, q[i].n_clock, &cc);
		if (cc.disagree)
			findings_add_clock(fs, q[i].uuid, q[i].engine, q[i].model, &cc);
	}
}

int cmd_check(int argc, char **argv, struct tps_ctx *ctx)
{
	struct filter_opts fo = { 0 };
	struct catalog_quality *q = NULL;
	struct catalog_alarm *a = NULL;
	struct findings fs = { 0 };
	struct problems ps = { 0 };
	struct check_result res = { 0 };
	struct store *s;
	size_t nq = 0, na = 0;
	int json = 0, ret;
	const struct cmd_option opts[] = { OPT_FLAG("json", &json), OPT_FILTERS(&fo), OPT_END };

	if ((ret = cmd_opts_parse(&cmd_check_entry, opts, argc, argv)) >= 0)
		goto out;
	ret = TPS_EXIT_ERROR;
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	if (filter_opts_check(s, &fo) < 0)
		goto out;
	/* A damaged store may fail the loaders part-way; the integrity check still runs
	 * and is still reported, and the exit is then 3. */
	if (side_quality(s, &fo.f, &q, &nq) < 0)
		res.incomplete = 1;
	if (catalog_alarms(s, &a, &na) < 0)
		res.incomplete = 1;
	if (store_integrity(s, on_problem, &ps) < 0)
		goto out;
	findings_build(&fs, q, nq);
	add_clock(q, nq, &fs);
	if (!res.incomplete && add_outliers(s, &fo.f, &fs) < 0)
		res.incomplete = 1;
	res.fs = &fs;
	res.alarm = a;
	res.nalarm = na;
	res.problem = ps.p;
	res.nproblem = ps.n;
	if (json) {
		if (check_write_json(stdout, &res) < 0)
			goto out;
	} else {
		check_write_text(stdout, &res);
	}
	if (res.incomplete)
		ret = TPS_EXIT_ERROR;
	else
		ret = fs.n || na || ps.n ? TPS_EXIT_FAIL : TPS_EXIT_OK;
out:
	findings_release(&fs);
	filter_opts_release(&fo);
	strv_free(ps.p, ps.n);
	catalog_quality_free(q, nq);
	catalog_alarms_free(a, na);
	return ret;
}

CMD_ENTRY(check, "data-quality findings and the integrity check", CMD_READONLY);
