/* cmd_check.c: `tpsdb check`, everything that makes a number untrustworthy, in one
 * place: the per-sample data-quality flags set at ingest, grouped per run with an
 * example, runs that failed to load or stopped early, the model-identity alarms and
 * SQLite's own integrity check. Any of them fails the command (exit 1). */
#include "cmd/filter_opts.h"
#include "cmd/opts.h"
#include "cmd/side.h"
#include "reports/check_write.h"
#include "reports/findings.h"
#include "reports/strv.h"
#include "schema/catalog.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"tpsdb check [--json]\n"
	"            " FILTER_SYNOPSIS;

static const char help[] =
	"Reports the data-quality findings of the runs, one line per run and kind, e.g.\n"
	"  run <uuid> ours/q35: 3 of 18 samples truncated decode (predicted_n 20 < n_predict 512)\n"
	"Sample kinds (set at ingest; each keeps the sample out of the metric it spoils):\n"
	"  truncated        decode stopped before n_predict, or on EOS (spoils tg)\n"
	"  cache-inflated   prefill served partly from the prompt cache, cache_n > 0 (pp)\n"
	"  short-prompt     prefill of fewer than 512 prompt tokens measures overhead (pp)\n"
	"  failed           HTTP error, no timings or a transport error (pp and tg)\n"
	"  cold-start       the first request after the server started (pp)\n"
	"  aggregate-only   a llama-bench -o csv/sql average, not one repetition (pp and tg)\n"
	"  degenerate-output  the text is mostly one short repeated piece: half of it or\n"
	"                   more repeats at a period of at most 16 bytes (no metric)\n"
	"Run kinds:\n"
	"  load-failed      the engine never served the model: LOADFAIL and the log tail\n"
	"  partial          the run stopped before all of its requests were answered\n"
	"  interrupted      the run was stopped by a signal\n"
	"  orphaned         still marked running, but the process collecting it is gone\n"
	"                   (SIGKILL, out of memory, a reboot); compare, gate, report and\n"
	"                   runs show it as interrupted\n"
	"  outlier-instance an instance (run) whose pp or tg lies far from the other\n"
	"                   instances of its pool, three or more: beyond 25% and 5 robust\n"
	"                   sd (1.4826 MAD) of their median, on the log scale. The pools\n"
	"                   are compare's and gate's for the same filters (per cell, the\n"
	"                   batch of its newest run; every run of --tag or --batch), so\n"
	"                   check names the instances they leave out\n"
	"Environment kinds (recorded by collect; docs/ENVIRONMENT.md):\n"
	"  host-busy        other processes used more than 50% of all CPUs' time while\n"
	"                   the run measured (TPSDB_HOST_BUSY_PCT sets the share)\n"
	"  gpu-contended    another compute process on the run's GPU, or it was 10% or\n"
	"                   more busy before the server started\n"
	"  gpu-throttled    a power, thermal or slowdown throttle reason while it measured\n"
	"  clocks-changed   SM or memory clock moved by more than 10% while it computed\n"
	"  partial-offload  the log says fewer layers went to the GPU than the model has\n"
	"  kv-on-host       the log puts (some of) the KV cache in host memory\n"
	"Then the model-identity alarms of 'tpsdb models' and PRAGMA integrity_check; these\n"
	"two always cover the whole store, whatever the filters.\n"
	"\n"
	"Options:\n"
	"  --json              {\"findings\": [{\"run\", \"engine\", \"model\", \"kind\", \"count\",\n"
	"                      \"total\", \"detail\"}], \"alarms\": [...as 'tpsdb models --json'],\n"
	"                      \"integrity\": \"ok\" or [\"<problem>\", ...], and\n"
	"                      \"complete\": false only when the store could not be read\n"
	"                      whole}; a sample finding counts samples (count of\n"
	"                      total), a run finding has count 1\n"
	"                      and total 1\n"
	FILTER_HELP
	"\n"
	"Exit codes: 0 clean (no finding, no alarm, integrity ok), 1 anything found,\n"
	"2 usage, 3 no store or a store error. A store too damaged to read whole\n"
	"still gets its report (findings and alarms as far as read, every integrity\n"
	"problem, \"complete\": false) with an error line, and exits 3.\n";

enum { OPT_JSON = 256 };

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "json", no_argument, NULL, OPT_JSON },
	FILTER_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

struct problems {
	char **p;
	size_t n;
};

/* SQLite puts "*** in database main ***" and a newline before its first problem:
 * each problem becomes one line of its own, and the header goes. */
static void on_problem(const char *problem, void *arg)
{
	struct problems *ps = arg;
	const char *p = problem, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if (nl > p && strncmp(p, "*** in database ", 16)) {
			char *line = tps_xstrndup(p, (size_t)(nl - p));
			strv_add(&ps->p, &ps->n, line);
			free(line);
		}
		p = *nl ? nl + 1 : nl;
	}
}

/* The outlier instances of every pool of the filter's cell set, per metric:
 * the pools compare and gate would take, the rule their estimate applies
 * (pool_outliers()), the findings word it. -1 after an error line. */
static int add_outliers(struct store *s, const struct run_filter *rf, struct findings *fs)
{
	static const char *const names[2] = { "pp", "tg" };
	struct side sd;
	char *bad = NULL;
	double med;
	size_t i, k;
	int m, ret = -1;

	if (side_load(s, rf, NULL, RUN_LOAD_VALUES, &sd) < 0)
		goto out;
	for (i = 0; i < sd.n_pools; i++) {
		const struct pool *p = &sd.pools[i];

		bad = tps_xrealloc(bad, p->n + 1);
		for (m = 0; m < 2; m++) {
			struct estimate_unit *u;

			if (!pool_outliers(p, (enum run_metric)m, bad, &med))
				continue;
			u = pool_units(p, (enum run_metric)m);
			for (k = 0; k < p->n; k++)
				if (bad[k])
					findings_add_outlier(fs, p->runs[k]->uuid, p->runs[k]->engine,
							     p->runs[k]->model, names[m],
							     exp(estimate_unit_log(&u[k])), med);
			free(u);
		}
	}
	ret = 0;
out:
	free(bad);
	side_release(&sd);
	return ret;
}

int cmd_check(int argc, char **argv, struct tps_ctx *ctx)
{
	struct filter_opts fo = { 0 };
	struct cmd_opts co = { .cmd = &cmd_check_entry, .fo = &fo };
	struct catalog_quality *q = NULL;
	struct catalog_alarm *a = NULL;
	struct findings fs = { 0 };
	struct problems ps = { 0 };
	struct check_result res = { 0 };
	struct store *s;
	size_t nq = 0, na = 0;
	int c, json = 0, ret = TPS_EXIT_ERROR;

	while ((c = cmd_opts_next(&co, argc, argv, opts)) >= 0) {
		switch (c) {
		case OPT_JSON: json = 1; break;
		}
	}
	if (c == CMD_OPTS_STOP) {
		ret = co.ret;
		goto out;
	}
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	if (filter_opts_check(s, &fo) < 0)
		goto out;
	/* A damaged store may fail the loaders part-way; the integrity check still runs
	 * and is still reported, and the exit is then 3. */
	if (catalog_quality(s, &fo.f, &q, &nq) < 0)
		res.incomplete = 1;
	if (catalog_alarms(s, &a, &na) < 0)
		res.incomplete = 1;
	if (store_integrity(s, on_problem, &ps) < 0)
		goto out;
	findings_build(&fs, q, nq);
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

const struct cmd_entry cmd_check_entry = {
	.name = "check",
	.summary = "data-quality findings and the integrity check",
	.usage = usage,
	.help = help,
	.flags = CMD_READONLY,
	.exec = cmd_check,
};
