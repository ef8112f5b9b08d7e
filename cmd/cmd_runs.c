/* cmd_runs.c: `tpsdb runs`, the list of runs with their sample counts and the
 * median prefill and decode tok/s of the samples no flag spoils. The --json form is
 * a contract that CI scripts parse: keys are only ever added, never renamed. */
#include "analyze/stats.h"
#include "reports/json.h"
#include "schema/catalog.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"tpsdb runs [--json] [--engine <label>] [--model <label>] [--tag <t>] [--host <name>]";

static const char help[] =
	"Lists the runs in the store, oldest first: start time, uuid, status, host, engine,\n"
	"model, tag, speculative type and depth, samples, failed samples, and the median\n"
	"prefill (pp) and decode (tg) tok/s over the samples whose data-quality flags do\n"
	"not spoil that metric (see 'tpsdb check').\n"
	"\n"
	"Options:\n"
	"  --json              a JSON array, one object per run, with the keys uuid,\n"
	"                      started_at, ended_at, status, source, host, engine, role,\n"
	"                      model, tag, endpoint, spec_type, n_max (null for a base\n"
	"                      run), ctx, n_predict, warmup (null when unknown),\n"
	"                      load_error, n_samples, n_failed, n_flagged, pp_median and\n"
	"                      tg_median (tok/s, null when no sample qualifies)\n"
	"  --engine <label>    only runs of this engine\n"
	"  --model <label>     only runs of this model\n"
	"  --tag <t>           only runs with this tag\n"
	"  --host <name>       only runs measured on this host\n"
	"\n"
	"Exit codes: 0 ok, 2 usage, 3 no store or a store error.\n";

enum { OPT_JSON = 256, OPT_ENGINE, OPT_MODEL, OPT_TAG, OPT_HOST };

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "host", required_argument, NULL, OPT_HOST },
	{ NULL, 0, NULL, 0 },
};

static void put_dbl(cJSON *o, const char *k, double v)
{
	if (isnan(v))
		cJSON_AddNullToObject(o, k);
	else
		cJSON_AddNumberToObject(o, k, v);
}

static int print_json(const struct catalog_run *runs, size_t n)
{
	cJSON *arr = cJSON_CreateArray();
	char *text;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct catalog_run *r = &runs[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddItemToArray(arr, o);
		json_put_str(o, "uuid", r->uuid);
		json_put_str(o, "started_at", r->started_at);
		json_put_str(o, "ended_at", r->ended_at);
		json_put_str(o, "status", r->status);
		json_put_str(o, "source", r->source);
		json_put_str(o, "host", r->host);
		json_put_str(o, "engine", r->engine);
		json_put_str(o, "role", r->role);
		json_put_str(o, "model", r->model);
		json_put_str(o, "tag", r->tag);
		json_put_str(o, "endpoint", r->endpoint);
		json_put_str(o, "spec_type", r->spec_type);
		json_put_i64(o, "n_max", r->n_max);
		json_put_i64(o, "ctx", r->ctx);
		json_put_i64(o, "n_predict", r->n_predict);
		json_put_i64(o, "warmup", r->warmup);
		json_put_str(o, "load_error", r->load_error);
		json_put_i64(o, "n_samples", r->n_samples);
		json_put_i64(o, "n_failed", r->n_failed);
		json_put_i64(o, "n_flagged", r->n_flagged);
		put_dbl(o, "pp_median", stats_median(r->pp, r->npp));
		put_dbl(o, "tg_median", stats_median(r->tg, r->ntg));
	}
	text = cJSON_Print(arr);
	cJSON_Delete(arr);
	if (!text)
		return tps_error("out of memory writing JSON");
	printf("%s\n", text);
	cJSON_free(text);
	return 0;
}

/* A table cell: control characters (a tag may hold a newline) become '?'. */
static char *cell(const char *s)
{
	char *c = tps_xstrdup(s ? s : ""), *p;
	for (p = c; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	}
	return c;
}

enum { COL_STARTED, COL_UUID, COL_STATUS, COL_HOST, COL_ENGINE, COL_MODEL, COL_TAG,
       COL_SPEC, COL_NMAX, COL_SAMPLES, COL_FAILED, COL_PP, COL_TG, NCOLS };

static void print_table(const struct catalog_run *runs, size_t n)
{
	static const char *const head[NCOLS] = { "STARTED", "UUID", "STATUS", "HOST", "ENGINE",
		"MODEL", "TAG", "SPEC", "N_MAX", "SAMPLES", "FAILED", "PP_MED", "TG_MED" };
	/* Numbers align right, words left. */
	static const int right[NCOLS] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1 };
	char **cells = tps_xcalloc(n * NCOLS, sizeof(*cells));
	size_t width[NCOLS], i, j;

	for (j = 0; j < NCOLS; j++)
		width[j] = strlen(head[j]);
	for (i = 0; i < n; i++) {
		const struct catalog_run *r = &runs[i];
		char **c = &cells[i * NCOLS];
		double pp = stats_median(r->pp, r->npp), tg = stats_median(r->tg, r->ntg);
		char *started = cell(r->started_at);

		if (strlen(started) > 19)
			started[19] = '\0'; /* to the second */
		if (strlen(started) > 10 && started[10] == 'T')
			started[10] = ' ';
		c[COL_STARTED] = started;
		c[COL_UUID] = cell(r->uuid);
		c[COL_STATUS] = cell(r->status);
		c[COL_HOST] = cell(r->host);
		c[COL_ENGINE] = cell(r->engine);
		c[COL_MODEL] = cell(r->model);
		c[COL_TAG] = cell(r->tag && *r->tag ? r->tag : "-");
		c[COL_SPEC] = cell(r->spec_type && *r->spec_type ? r->spec_type : "-");
		c[COL_NMAX] = r->n_max == TPS_NULL ? tps_xstrdup("-") :
			tps_xasprintf("%lld", (long long)r->n_max);
		c[COL_SAMPLES] = tps_xasprintf("%lld", (long long)r->n_samples);
		c[COL_FAILED] = tps_xasprintf("%lld", (long long)r->n_failed);
		c[COL_PP] = isnan(pp) ? tps_xstrdup("-") : tps_xasprintf("%.2f", pp);
		c[COL_TG] = isnan(tg) ? tps_xstrdup("-") : tps_xasprintf("%.2f", tg);
		for (j = 0; j < NCOLS; j++) {
			if (strlen(c[j]) > width[j])
				width[j] = strlen(c[j]);
		}
	}
	for (i = 0; i <= n; i++) {
		for (j = 0; j < NCOLS; j++) {
			const char *v = i ? cells[(i - 1) * NCOLS + j] : head[j];
			int w = (int)width[j];
			if (right[j])
				printf("%*s", w, v);
			else if (j == NCOLS - 1)
				fputs(v, stdout);
			else
				printf("%-*s", w, v);
			fputs(j == NCOLS - 1 ? "\n" : "  ", stdout);
		}
	}
	for (i = 0; i < n * NCOLS; i++)
		free(cells[i]);
	free(cells);
}

int cmd_runs(int argc, char **argv, struct tps_ctx *ctx)
{
	struct run_filter f = { 0 };
	struct catalog_run *runs = NULL;
	struct store *s;
	size_t n = 0;
	int c, json = 0, ret = TPS_EXIT_ERROR;

	struct tps_getopt go = { 0 };

	while ((c = tps_getopt(&go, argc, argv, opts)) != -1) {
		switch (c) {
		case 'h':
			printf("usage: %s\n\n%s", usage, help);
			return TPS_EXIT_OK;
		case OPT_JSON: json = 1; break;
		case OPT_ENGINE: f.engine = optarg; break;
		case OPT_MODEL: f.model = optarg; break;
		case OPT_TAG: f.tag = optarg; break;
		case OPT_HOST: f.host = optarg; break;
		default:
			fprintf(stderr, "usage: %s\n", usage);
			return TPS_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return tps_usage_error(usage, "unexpected argument '%s'", argv[optind]);
	ctx->readonly = 1;
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	if (catalog_runs(s, &f, &runs, &n) < 0)
		goto out;
	if (json) {
		if (print_json(runs, n) < 0)
			goto out;
	} else if (n) {
		print_table(runs, n);
	}
	ret = TPS_EXIT_OK;
out:
	catalog_runs_free(runs, n);
	return ret;
}
