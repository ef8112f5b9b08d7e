/* cmd_calibrate.c: `tpsdb calibrate`, the A/A noise floor. For every cell that one
 * engine measured at least twice (the same binary, model and config, with a server
 * restart between, as `tpsdb collect --aa` does), it pairs the two latest runs prompt
 * by prompt, stores how far they drift apart per metric, and compare and gate then
 * widen their bounds to k times that floor. */
#include "analyze/noise.h"
#include "reports/parity.h"
#include "schema/cells.h"
#include "schema/noise.h"
#include "schema/record.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"tpsdb calibrate [--engine <label>] [--model <label>] [--tag <t>] [--host <name>] [--json]";

static const char help[] =
	"Measures the A/A noise floor of each cell (model, spec type, n_max, endpoint)\n"
	"that one engine measured at least twice with identical config: the two latest\n"
	"runs are paired by prompt and repetition, and the floor of each metric (pp, tg)\n"
	"is the root mean square of the paired % deltas: the run's shift and the\n"
	"requests' scatter together.\n"
	"Floors are stored; 'compare' and 'gate' then never use a parity band or a\n"
	"regression threshold below k times the floor (--noise-k, default 2), and say so.\n"
	"Make the A/A runs with 'tpsdb collect --aa' (each model's pass over the engines\n"
	"twice, so a cell's pair is as far apart in time as the cells compare pairs), or\n"
	"by collecting the same engine twice.\n"
	"\n"
	"  --engine <label>   only this engine's runs     --model <label>  only this model\n"
	"  --tag <t>          only runs with this tag     --host <name>    only this host\n"
	"  --json             {\"floors\":[{\"engine\",\"model\",\"spec_type\",\"n_max\",\n"
	"                     \"endpoint\",\"metric\",\"noise_pct\",\"n_pairs\",\"run_a\",\"run_b\"}],\n"
	"                     \"skipped\":[\"...\"]}\n"
	"\n"
	"Exit codes: 0 floors stored, 2 usage, 3 no A/A pair found or a store error.\n";

enum { OPT_ENGINE = 256, OPT_MODEL, OPT_TAG, OPT_HOST, OPT_JSON };

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "json", no_argument, NULL, OPT_JSON },
	{ NULL, 0, NULL, 0 },
};

static int same_series(const struct cell_run *a, const struct cell_run *b)
{
	return !strcmp(a->engine, b->engine) && !strcmp(a->model, b->model) &&
	       !strcmp(a->spec_type, b->spec_type) && a->n_max == b->n_max &&
	       !strcmp(a->endpoint, b->endpoint);
}

/* The floor of one metric between runs a and b; NaN when no pair is usable. */
static int floor_of(struct store *s, const struct cell_run *a, const struct cell_run *b,
		    enum cell_metric m, double *pct, size_t *pairs)
{
	struct cell_value *va = NULL, *vb = NULL;
	double *xa = NULL, *xb = NULL;
	size_t na = 0, nb = 0, n = 0, skipped;
	int ret = -1;

	if (store_cell_values(s, a->id, m, &va, &na, &skipped) < 0 ||
	    store_cell_values(s, b->id, m, &vb, &nb, &skipped) < 0)
		goto out;
	parity_pair(va, na, vb, nb, &xa, &xb, &n, NULL);
	*pct = noise_floor_pct(xa, xb, n, pairs);
	ret = 0;
out:
	free(va);
	free(vb);
	free(xa);
	free(xb);
	return ret;
}

int cmd_calibrate(int argc, char **argv, struct tps_ctx *ctx)
{
	struct cell_filter f = { 0 };
	struct cell_run *runs = NULL;
	cJSON *floors = cJSON_CreateArray(), *skipped = cJSON_CreateArray();
	size_t n = 0, i;
	int c, json = 0, stored = 0, ret = TPS_EXIT_ERROR, in_tx = 0;
	struct store *s;

	struct tps_getopt go = { 0 };

	while ((c = tps_getopt(&go, argc, argv, opts)) != -1) {
		switch (c) {
		case 'h':
			printf("usage: %s\n\n%s", usage, help);
			ret = TPS_EXIT_OK;
			goto out;
		case OPT_ENGINE: f.engine = optarg; break;
		case OPT_MODEL: f.model = optarg; break;
		case OPT_TAG: f.tag = optarg; break;
		case OPT_HOST: f.host = optarg; break;
		case OPT_JSON: json = 1; break;
		default:
			fprintf(stderr, "usage: %s\n", usage);
			ret = TPS_EXIT_USAGE;
			goto out;
		}
	}
	if (optind < argc) {
		ret = tps_usage_error(usage, "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	f.all = 1;
	if (!(s = tps_ctx_store(ctx)) || store_cell_runs(s, &f, &runs, &n) < 0)
		goto out;
	if (store_begin(s) < 0)
		goto out;
	in_tx = 1;
	if (!json)
		printf("%-28s %-14s %-6s %9s %6s  %s\n", "CELL", "ENGINE", "METRIC", "FLOOR_%",
		       "PAIRS", "RUNS");
	/* Runs come grouped by series, oldest first: the last two of a group are the A/A
	 * pair. */
	for (i = 1; i < n; i++) {
		const struct cell_run *a = &runs[i - 1], *b = &runs[i];
		static const enum cell_metric metrics[] = { CELL_PP, CELL_TG };
		char cell[160], why[160];
		size_t k;

		if (!same_series(a, b) || (i + 1 < n && same_series(b, &runs[i + 1])))
			continue;
		parity_cell_name(b->model, b->spec_type, b->n_max, b->endpoint, cell, sizeof(cell));
		if (parity_mismatch(a, b, why, sizeof(why))) {
			char *msg = tps_xasprintf("%s %s: the two latest runs are not an A/A pair: %s",
						  cell, b->engine, why);
			cJSON_AddItemToArray(skipped, cJSON_CreateString(msg));
			if (!json)
				tps_warning("%s", msg);
			free(msg);
			continue;
		}
		for (k = 0; k < 2; k++) {
			struct noise_rec rec;
			const char *name = metrics[k] == CELL_PP ? "pp" : "tg";
			double pct;
			size_t pairs;
			cJSON *o;

			if (floor_of(s, a, b, metrics[k], &pct, &pairs) < 0)
				goto out;
			if (isnan(pct))
				continue;
			rec.run_a = a->uuid;
			rec.run_b = b->uuid;
			rec.metric = name;
			rec.noise_pct = pct;
			rec.n_pairs = (int64_t)pairs;
			if (store_noise_put(s, &rec) < 0)
				goto out;
			stored++;
			o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "engine", b->engine);
			cJSON_AddStringToObject(o, "model", b->model);
			cJSON_AddStringToObject(o, "spec_type", b->spec_type);
			if (b->n_max == TPS_NULL)
				cJSON_AddNullToObject(o, "n_max");
			else
				cJSON_AddNumberToObject(o, "n_max", (double)b->n_max);
			cJSON_AddStringToObject(o, "endpoint", b->endpoint);
			cJSON_AddStringToObject(o, "metric", name);
			cJSON_AddNumberToObject(o, "noise_pct", pct);
			cJSON_AddNumberToObject(o, "n_pairs", (double)pairs);
			cJSON_AddStringToObject(o, "run_a", a->uuid);
			cJSON_AddStringToObject(o, "run_b", b->uuid);
			cJSON_AddItemToArray(floors, o);
			if (!json)
				printf("%-28s %-14s %-6s %9.2f %6zu  %.8s %.8s\n", cell, b->engine, name,
				       pct, pairs, a->uuid, b->uuid);
		}
	}
	if (!stored) {
		tps_error("no A/A pair to calibrate from: collect the same engine twice on one "
			  "cell first ('tpsdb collect --aa')");
		goto out;
	}
	if (store_commit(s) < 0)
		goto out;
	in_tx = 0;
	if (json) {
		cJSON *root = cJSON_CreateObject();
		char *text;
		cJSON_AddItemToObject(root, "floors", floors);
		cJSON_AddItemToObject(root, "skipped", skipped);
		floors = skipped = NULL;
		text = cJSON_Print(root);
		puts(text);
		cJSON_free(text);
		cJSON_Delete(root);
	}
	ret = TPS_EXIT_OK;
out:
	if (in_tx)
		store_rollback(ctx->store);
	cJSON_Delete(floors);
	cJSON_Delete(skipped);
	cell_runs_free(runs, n);
	return ret;
}
