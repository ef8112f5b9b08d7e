/* cmd_compare.c: `tpsdb compare`, the parity table of two engines. Every cell both
 * measured gets a paired verdict per metric (reports/parity.c); the exit code is
 * informational (0) unless a cell had to be refused or nothing was comparable (3). */
#include "reports/json.h"
#include "reports/md.h"
#include "reports/parity.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"tpsdb compare --ours <engine> --vs <engine> [--model <label>] [--metric pp|tg|both]\n"
	"              [--band <pct>] [--tag <t>] [--ours-tag <t>] [--vs-tag <t>]\n"
	"              [--noise-k <k>] [--host <name>] [--force] [--json]";

static const char help[] =
	"Parity deltas between two engines for every model and config cell (model,\n"
	"spec_type, n_max, endpoint) both measured, using the latest run of each side\n"
	"(or the latest carrying --tag, --ours-tag, --vs-tag). Samples are paired by\n"
	"prompt and repetition; samples flagged for a metric are left out and counted.\n"
	"\n"
	"  --ours <engine>      the engine judged (required)\n"
	"  --vs <engine>        the engine it is judged against (required)\n"
	"  --model <label>      only this model\n"
	"  --metric <m>         pp (prefill), tg (decode) or both (default)\n"
	"  --band <pct>         parity band in percent (default 2)\n"
	"  --noise-k <k>        the band is at least k times the stored A/A noise floor\n"
	"                       of the cell (default 2)\n"
	"  --tag <t>            pick runs by tag on both sides\n"
	"  --ours-tag <t>, --vs-tag <t>   pick runs by tag on one side\n"
	"  --host <name>        only runs measured on this host\n"
	"  --force              compare cells whose runs differ in model sha256 or config\n"
	"                       (ctx, n_predict, endpoint, prompt set); loudly warned\n"
	"  --json               {\"rows\":[...],\"warnings\":[...]}\n"
	"\n"
	"delta is the median over pairs of ours/vs - 1; the 95% CI is a t interval on the\n"
	"log ratios; p is Wilcoxon's signed-rank test. A verdict is parity when |delta| is\n"
	"within the effective band, else faster or slower; significant needs 6 pairs.\n"
	"\n"
	"Exit codes: 0 compared (whatever the verdicts), 2 usage, 3 a cell was refused,\n"
	"nothing was comparable, or a store error.\n";

enum {
	OPT_OURS = 256, OPT_VS, OPT_MODEL, OPT_METRIC, OPT_BAND, OPT_TAG, OPT_OURS_TAG,
	OPT_VS_TAG, OPT_NOISE_K, OPT_HOST, OPT_FORCE, OPT_JSON,
};

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "ours", required_argument, NULL, OPT_OURS },
	{ "vs", required_argument, NULL, OPT_VS },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "band", required_argument, NULL, OPT_BAND },
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "ours-tag", required_argument, NULL, OPT_OURS_TAG },
	{ "vs-tag", required_argument, NULL, OPT_VS_TAG },
	{ "noise-k", required_argument, NULL, OPT_NOISE_K },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "json", no_argument, NULL, OPT_JSON },
	{ NULL, 0, NULL, 0 },
};

static int print_json(const struct parity_result *r)
{
	cJSON *root = cJSON_CreateObject(), *rows, *warn;
	char *text;
	size_t i;

	rows = cJSON_AddArrayToObject(root, "rows");
	for (i = 0; i < r->n_rows; i++) {
		const struct parity_row *w = &r->rows[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddItemToArray(rows, o);
		cJSON_AddStringToObject(o, "model", w->model);
		cJSON_AddStringToObject(o, "spec_type", w->spec_type);
		json_put_i64(o, "n_max", w->n_max);
		cJSON_AddStringToObject(o, "endpoint", w->endpoint);
		cJSON_AddStringToObject(o, "metric", w->metric);
		cJSON_AddStringToObject(o, "ours", w->ours);
		cJSON_AddStringToObject(o, "vs", w->vs);
		json_put_num(o, "ours_median", w->ours_median);
		json_put_num(o, "vs_median", w->vs_median);
		json_put_num(o, "delta_pct", w->v.delta_pct);
		json_put_num(o, "mean_delta_pct", w->v.mean_delta_pct);
		json_put_num(o, "ci_lo_pct", w->v.ci_lo_pct);
		json_put_num(o, "ci_hi_pct", w->v.ci_hi_pct);
		json_put_num(o, "p_value", w->v.p_wilcoxon);
		json_put_num(o, "p_sign", w->v.p_sign);
		cJSON_AddNumberToObject(o, "n_pairs", (double)w->v.n_pairs);
		cJSON_AddStringToObject(o, "verdict", verdict_kind_name(w->v.kind));
		cJSON_AddBoolToObject(o, "significant", w->v.significant);
		json_put_num(o, "band_pct", w->v.band_pct);
		cJSON_AddStringToObject(o, "bound", verdict_bound_name(w->v.bound));
		json_put_num(o, "noise_pct", w->noise_pct);
		cJSON_AddNumberToObject(o, "excluded_ours", (double)w->excluded_ours);
		cJSON_AddNumberToObject(o, "excluded_vs", (double)w->excluded_vs);
		cJSON_AddNumberToObject(o, "unpaired", (double)w->unpaired);
		cJSON_AddStringToObject(o, "ours_run", w->ours_run);
		cJSON_AddStringToObject(o, "vs_run", w->vs_run);
		cJSON_AddBoolToObject(o, "forced", w->forced);
	}
	warn = cJSON_AddArrayToObject(root, "warnings");
	for (i = 0; i < r->n_warnings; i++)
		cJSON_AddItemToArray(warn, cJSON_CreateString(r->warnings[i]));
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return tps_error("out of memory writing JSON");
	printf("%s\n", text);
	cJSON_free(text);
	return 0;
}

static void print_table(const struct parity_result *r, const char *ours, const char *vs)
{
	int wc = 4;
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		char name[256];
		int l;
		parity_cell_name(r->rows[i].model, r->rows[i].spec_type, r->rows[i].n_max,
				 r->rows[i].endpoint, name, sizeof(name));
		l = (int)strlen(name);
		if (l > wc)
			wc = l;
	}
	printf("%-*s  %-6s  %10s  %10s  %8s  %-17s  %-8s  %5s  %-7s  %-3s  %-11s  %s\n", wc,
	       "cell", "metric", ours, vs, "delta", "95% CI", "p", "pairs", "verdict", "sig",
	       "band", "excl");
	for (i = 0; i < r->n_rows; i++) {
		const struct parity_row *w = &r->rows[i];
		char name[256], a[32], b[32], d[32], lo[32], hi[32], ci[80], p[32], band[40];
		char excl[48];

		parity_cell_name(w->model, w->spec_type, w->n_max, w->endpoint, name, sizeof(name));
		md_num(a, sizeof(a), "%.1f", w->ours_median);
		md_num(b, sizeof(b), "%.1f", w->vs_median);
		md_num(d, sizeof(d), "%+.2f%%", w->v.delta_pct);
		md_num(lo, sizeof(lo), "%+.2f", w->v.ci_lo_pct);
		md_num(hi, sizeof(hi), "%+.2f", w->v.ci_hi_pct);
		snprintf(ci, sizeof(ci), "[%s, %s]", lo, hi);
		md_num(p, sizeof(p), "%.2g", w->v.p_wilcoxon);
		snprintf(band, sizeof(band), "%.1f%% %s", w->v.band_pct,
			 verdict_bound_name(w->v.bound));
		snprintf(excl, sizeof(excl), "%zu/%zu%s", w->excluded_ours, w->excluded_vs,
			 w->forced ? "  FORCED" : "");
		printf("%-*s  %-6s  %10s  %10s  %8s  %-17s  %-8s  %5zu  %-7s  %-3s  %-11s  %s\n",
		       wc, name, w->metric, a, b, d, ci, p, w->v.n_pairs,
		       verdict_kind_name(w->v.kind), w->v.significant ? "yes" : "no", band, excl);
	}
	printf("tok/s medians; delta = median of per-pair %s/%s - 1; CI: 95%% t on log ratios; "
	       "p: Wilcoxon signed-rank; band: max(--band, k x A/A noise); excl: flagged "
	       "samples left out (%s/%s)\n", ours, vs, ours, vs);
}

static int pct_opt(const char *name, const char *v, double *out)
{
	if (tps_parse_double(v, out) < 0 || *out < 0)
		return tps_usage_error(usage, "--%s needs a number >= 0, not '%s'", name, v);
	return 0;
}

int cmd_compare(int argc, char **argv, struct tps_ctx *ctx)
{
	struct parity_result res = { 0 };
	struct parity_opts o;
	struct store *s;
	const char *tag = NULL, *ours_tag = NULL, *vs_tag = NULL;
	int c, json = 0, ret = TPS_EXIT_ERROR;
	size_t i;

	parity_opts_init(&o);
	struct tps_getopt go = { 0 };

	while ((c = tps_getopt(&go, argc, argv, opts)) != -1) {
		switch (c) {
		case 'h':
			printf("usage: %s\n\n%s", usage, help);
			return TPS_EXIT_OK;
		case OPT_OURS: o.ours = optarg; break;
		case OPT_VS: o.vs = optarg; break;
		case OPT_MODEL: o.model = optarg; break;
		case OPT_HOST: o.host = optarg; break;
		case OPT_TAG: tag = optarg; break;
		case OPT_OURS_TAG: ours_tag = optarg; break;
		case OPT_VS_TAG: vs_tag = optarg; break;
		case OPT_FORCE: o.force = 1; break;
		case OPT_JSON: json = 1; break;
		case OPT_METRIC:
			if (!strcmp(optarg, "pp"))
				o.metrics = PARITY_PP;
			else if (!strcmp(optarg, "tg"))
				o.metrics = PARITY_TG;
			else if (!strcmp(optarg, "both"))
				o.metrics = PARITY_BOTH;
			else
				return tps_usage_error(usage, "--metric is pp, tg or both, not '%s'",
						       optarg);
			break;
		case OPT_BAND:
			if (pct_opt("band", optarg, &o.band_pct))
				return TPS_EXIT_USAGE;
			break;
		case OPT_NOISE_K:
			if (pct_opt("noise-k", optarg, &o.noise_k))
				return TPS_EXIT_USAGE;
			break;
		default:
			fprintf(stderr, "usage: %s\n", usage);
			return TPS_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return tps_usage_error(usage, "unexpected argument '%s'", argv[optind]);
	if (!o.ours || !o.vs)
		return tps_usage_error(usage, "--ours and --vs are both required");
	o.ours_tag = ours_tag ? ours_tag : tag;
	o.vs_tag = vs_tag ? vs_tag : tag;
	ctx->readonly = 1;
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	if (parity_compare(s, &o, &res) < 0)
		goto out;
	for (i = 0; i < res.n_warnings; i++)
		tps_warning("%s", res.warnings[i]);
	if (!res.n_rows) {
		tps_error("no cell measured by both '%s' and '%s'%s%s%s", o.ours, o.vs,
			  o.model ? " for model '" : "", o.model ? o.model : "", o.model ? "'" : "");
		goto out;
	}
	if (json) {
		if (print_json(&res) < 0)
			goto out;
	} else {
		print_table(&res, o.ours, o.vs);
	}
	ret = TPS_EXIT_OK;
out:
	parity_result_release(&res);
	return ret;
}
