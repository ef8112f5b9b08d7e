/* cmd_trend.c: `tpsdb trend`, the change points of every history series: one
 * engine on one model and config, each run reduced to the median of its unflagged
 * samples, searched as Apache Otava does (analyze/changepoint.h). Informational:
 * it always exits 0 when it could read the store; 'gate --trend' is the check. */
#include "analyze/changepoint.h"
#include "analyze/stats.h"
#include "reports/md.h"
#include "schema/cells.h"
#include "schema/history.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"tpsdb trend [--engine <e>] [--model <m>] [--metric pp|tg] [--pvalue <p>]\n"
	"            [--min-magnitude <pct>] [--min-segment <n>] [--tag <t>] [--json]";

static const char help[] =
	"Finds the change points in each history series: one engine label on one model\n"
	"and config (spec type, n_max, endpoint), its runs in start order, each run the\n"
	"median of its samples not flagged for the metric. E-divisive means proposes the\n"
	"splits and a pooled two-sample t test keeps those with p below --pvalue and a\n"
	"change of at least --min-magnitude percent (Apache Otava's method).\n"
	"\n"
	"For each change point: the run (uuid and tag) where the new level starts, the\n"
	"means before and after, the change in percent and the p-value. A series whose\n"
	"latest change point is a fall in tok/s is flagged as a latest regression.\n"
	"\n"
	"Options:\n"
	"  --engine <e>            only this engine\n"
	"  --model <m>             only this model\n"
	"  --metric pp|tg          one metric (default: both, pp first)\n"
	"  --pvalue <p>            significance, in (0, 1] (default 0.001)\n"
	"  --min-magnitude <pct>   smallest change kept, percent (default 2)\n"
	"  --min-segment <n>       fewest runs on each side of a change (default 3, >= 2)\n"
	"  --tag <t>               only runs with this tag\n"
	"  --json                  {\"series\": [{\"engine\", \"model\", \"spec_type\", \"n_max\",\n"
	"                          \"endpoint\", \"metric\", \"n_runs\", \"change_points\": [{\"run\",\n"
	"                          \"tag\", \"index\", \"before\", \"after\", \"change_pct\",\n"
	"                          \"p_value\"}], \"latest_regression\"}]}\n"
	"\n"
	"Exit codes: 0 ok (change points are information, not failure), 2 usage, 3 no\n"
	"store or a store error.\n";

enum { OPT_ENGINE = 256, OPT_MODEL, OPT_METRIC, OPT_PVALUE, OPT_MAGNITUDE, OPT_SEGMENT,
       OPT_TAG, OPT_JSON };

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "pvalue", required_argument, NULL, OPT_PVALUE },
	{ "min-magnitude", required_argument, NULL, OPT_MAGNITUDE },
	{ "min-segment", required_argument, NULL, OPT_SEGMENT },
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "json", no_argument, NULL, OPT_JSON },
	{ NULL, 0, NULL, 0 },
};

/* Round to what the text shows and a little more, so JSON does not carry the last
 * bits of a floating-point sum into a golden file. */
static double round_to(double v, double unit)
{
	return round(v / unit) * unit;
}

static double round_sig(double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.4g", v);
	return strtod(buf, NULL);
}

static void put_num(cJSON *o, const char *k, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

/* One series: its per-run medians and change points. */
static int search(const struct history_series *se, const struct changepoint_params *p,
		  struct changepoint **cps, size_t *ncp)
{
	double *y = tps_xcalloc(se->n ? se->n : 1, sizeof(*y));
	size_t i;
	int rc;

	for (i = 0; i < se->n; i++)
		y[i] = stats_median(se->runs[i].values, se->runs[i].n);
	rc = changepoint_detect(y, se->n, p, cps, ncp);
	free(y);
	if (rc < 0)
		return tps_error("cannot search for change points: a parameter is out of range");
	return 0;
}

static const char *config(const struct history_series *se, char *buf, size_t len)
{
	if (se->n_max == TPS_NULL && !*se->spec_type)
		snprintf(buf, len, "base");
	else if (se->n_max == TPS_NULL)
		snprintf(buf, len, "%s base", se->spec_type);
	else
		snprintf(buf, len, "%s n_max=%lld", *se->spec_type ? se->spec_type : "spec",
			 (long long)se->n_max);
	if (strcmp(se->endpoint, "completion")) {
		size_t n = strlen(buf);
		snprintf(buf + n, len - n, " (%s)", se->endpoint);
	}
	return buf;
}

static void print_text(const struct history_series *se, const char *metric,
		       const struct changepoint *cps, size_t ncp)
{
	/* Labels are made printable: a newline in one must not fake a line. */
	char cfg[160], *e = md_plain(se->engine), *mo = md_plain(se->model), *c;
	size_t k;

	c = md_plain(config(se, cfg, sizeof(cfg)));
	printf("%s %s %s %s: %zu run%s, %zu change point%s\n", e, mo, c, metric, se->n,
	       se->n == 1 ? "" : "s", ncp, ncp == 1 ? "" : "s");
	free(e);
	free(mo);
	free(c);
	for (k = 0; k < ncp; k++) {
		const struct history_run *r = &se->runs[cps[k].index];
		char *u = md_plain(r->uuid), *t = md_plain(*r->tag ? r->tag : "-");
		printf("  run %s (tag %s) at run %zu: %.1f -> %.1f (%+.1f%%), p=%.2g\n", u, t,
		       cps[k].index + 1, cps[k].mean_before, cps[k].mean_after,
		       cps[k].change_pct, cps[k].pvalue);
		free(u);
		free(t);
	}
	if (ncp && cps[ncp - 1].change_pct < 0)
		printf("  latest change is a regression\n");
}

static cJSON *series_json(const struct history_series *se, const char *metric,
			  const struct changepoint *cps, size_t ncp)
{
	cJSON *o = cJSON_CreateObject(), *a;
	size_t k;

	cJSON_AddStringToObject(o, "engine", se->engine);
	cJSON_AddStringToObject(o, "model", se->model);
	cJSON_AddStringToObject(o, "spec_type", se->spec_type);
	if (se->n_max == TPS_NULL)
		cJSON_AddNullToObject(o, "n_max");
	else
		cJSON_AddNumberToObject(o, "n_max", (double)se->n_max);
	cJSON_AddStringToObject(o, "endpoint", se->endpoint);
	cJSON_AddStringToObject(o, "metric", metric);
	cJSON_AddNumberToObject(o, "n_runs", (double)se->n);
	a = cJSON_AddArrayToObject(o, "change_points");
	for (k = 0; k < ncp; k++) {
		const struct history_run *r = &se->runs[cps[k].index];
		cJSON *c = cJSON_CreateObject();
		cJSON_AddStringToObject(c, "run", r->uuid);
		cJSON_AddStringToObject(c, "tag", r->tag);
		cJSON_AddNumberToObject(c, "index", (double)cps[k].index);
		put_num(c, "before", round_to(cps[k].mean_before, 0.01));
		put_num(c, "after", round_to(cps[k].mean_after, 0.01));
		put_num(c, "change_pct", round_to(cps[k].change_pct, 0.01));
		put_num(c, "p_value", round_sig(cps[k].pvalue));
		cJSON_AddItemToArray(a, c);
	}
	cJSON_AddBoolToObject(o, "latest_regression", ncp && cps[ncp - 1].change_pct < 0);
	return o;
}

int cmd_trend(int argc, char **argv, struct tps_ctx *ctx)
{
	struct changepoint_params p;
	struct cell_filter cf = { 0 };
	struct history_series *h[2] = { NULL, NULL };
	size_t nh[2] = { 0, 0 }, i, total = 0;
	cJSON *root = NULL, *arr = NULL;
	char *text = NULL;
	struct store *s;
	int c, json = 0, want[2] = { 1, 1 }, m, ret = TPS_EXIT_ERROR;
	int64_t seg;

	changepoint_params_init(&p);
	struct tps_getopt go = { 0 };

	while ((c = tps_getopt(&go, argc, argv, opts)) != -1) {
		switch (c) {
		case 'h':
			printf("usage: %s\n\n%s", usage, help);
			return TPS_EXIT_OK;
		case OPT_ENGINE: cf.engine = optarg; break;
		case OPT_MODEL: cf.model = optarg; break;
		case OPT_TAG: cf.tag = optarg; break;
		case OPT_JSON: json = 1; break;
		case OPT_METRIC:
			if (!strcmp(optarg, "pp"))
				want[1] = 0;
			else if (!strcmp(optarg, "tg"))
				want[0] = 0;
			else
				return tps_usage_error(usage, "--metric is pp or tg, not '%s'", optarg);
			break;
		case OPT_PVALUE:
			if (tps_parse_double(optarg, &p.pvalue) < 0 || p.pvalue <= 0 || p.pvalue > 1)
				return tps_usage_error(usage, "--pvalue needs a number in (0, 1], not '%s'",
						       optarg);
			break;
		case OPT_MAGNITUDE:
			if (tps_parse_double(optarg, &p.min_magnitude_pct) < 0 ||
			    p.min_magnitude_pct < 0)
				return tps_usage_error(usage, "--min-magnitude needs a number >= 0, not "
						       "'%s'", optarg);
			break;
		case OPT_SEGMENT:
			if (tps_parse_i64(optarg, &seg) < 0 || seg < 2 || seg > 1000000)
				return tps_usage_error(usage, "--min-segment needs a whole number >= 2, "
						       "not '%s'", optarg);
			p.min_segment = (size_t)seg;
			break;
		default:
			fprintf(stderr, "usage: %s\n", usage);
			return TPS_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return tps_usage_error(usage, "unexpected argument '%s'", argv[optind]);
	ctx->readonly = 1;
	if (!(s = tps_ctx_store(ctx)))
		return TPS_EXIT_ERROR;
	for (m = 0; m < 2; m++) {
		if (want[m] && store_history(s, &cf, m ? CELL_TG : CELL_PP, &h[m], &nh[m]) < 0)
			goto out;
	}
	if (json) {
		root = cJSON_CreateObject();
		arr = cJSON_AddArrayToObject(root, "series");
	}
	/* Series order is the store's (model, config, engine); pp before tg. */
	for (m = 0; m < 2; m++) {
		for (i = 0; i < nh[m]; i++) {
			struct changepoint *cps = NULL;
			size_t ncp = 0;
			const char *metric = m ? "tg" : "pp";
			if (search(&h[m][i], &p, &cps, &ncp) < 0)
				goto out;
			if (json)
				cJSON_AddItemToArray(arr, series_json(&h[m][i], metric, cps, ncp));
			else
				print_text(&h[m][i], metric, cps, ncp);
			changepoint_free(cps);
			total++;
		}
	}
	if (json) {
		if (!(text = cJSON_Print(root))) {
			tps_error("out of memory writing JSON");
			goto out;
		}
		printf("%s\n", text);
	} else if (!total) {
		printf("no runs with usable samples\n");
	}
	ret = TPS_EXIT_OK;
out:
	cJSON_free(text);
	cJSON_Delete(root);
	history_free(h[0], nh[0]);
	history_free(h[1], nh[1]);
	return ret;
}
