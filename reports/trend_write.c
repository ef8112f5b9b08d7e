/* trend_write.c: the two outputs of 'tpsdb trend'. The JSON rounds what the text
 * shows (and a little more) so that the last bits of a floating-point sum do not
 * end up in a golden file. */
#include "reports/trend_write.h"
#include "reports/json.h"
#include "reports/md.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

const char *trend_write_config(const struct history_series *se, char *buf, size_t len)
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

static void write_text(FILE *f, const struct trend_write_item *it)
{
	const struct history_series *se = it->se;
	const struct trend *t = it->t;
	/* Labels are made printable: a newline in one must not fake a line. */
	char cfg[160], *e = md_plain(se->engine), *mo = md_plain(se->model), *c;
	size_t k;

	c = md_plain(trend_write_config(se, cfg, sizeof(cfg)));
	fprintf(f, "%s %s %s %s: %zu run%s, %zu change point%s\n", e, mo, c, it->metric, se->n,
		se->n == 1 ? "" : "s", t->n_cps, t->n_cps == 1 ? "" : "s");
	free(e);
	free(mo);
	free(c);
	for (k = 0; k < t->n_cps; k++) {
		const struct changepoint *cp = &t->cps[k];
		const struct history_run *r = &se->runs[cp->index];
		char *u = md_plain(r->uuid), *tg = md_plain(*r->tag ? r->tag : "-");
		fprintf(f, "  run %s (tag %s) at run %zu: %.1f -> %.1f (%+.1f%%), p=%.2g\n", u, tg,
			cp->index + 1, cp->mean_before, cp->mean_after, cp->change_pct, cp->pvalue);
		free(u);
		free(tg);
	}
	if (trend_latest_regression(t))
		fprintf(f, "  latest change is a regression\n");
}

static cJSON *series_json(const struct trend_write_item *it)
{
	const struct history_series *se = it->se;
	const struct trend *t = it->t;
	cJSON *o = cJSON_CreateObject(), *a;
	size_t k;

	cJSON_AddStringToObject(o, "engine", se->engine);
	cJSON_AddStringToObject(o, "model", se->model);
	cJSON_AddStringToObject(o, "spec_type", se->spec_type);
	json_put_i64(o, "n_max", se->n_max);
	cJSON_AddStringToObject(o, "endpoint", se->endpoint);
	cJSON_AddStringToObject(o, "metric", it->metric);
	cJSON_AddNumberToObject(o, "n_runs", (double)se->n);
	a = cJSON_AddArrayToObject(o, "change_points");
	for (k = 0; k < t->n_cps; k++) {
		const struct changepoint *cp = &t->cps[k];
		const struct history_run *r = &se->runs[cp->index];
		cJSON *c = cJSON_CreateObject();
		cJSON_AddStringToObject(c, "run", r->uuid);
		cJSON_AddStringToObject(c, "tag", r->tag);
		cJSON_AddNumberToObject(c, "index", (double)cp->index);
		json_put_num(c, "before", round_to(cp->mean_before, 0.01));
		json_put_num(c, "after", round_to(cp->mean_after, 0.01));
		json_put_num(c, "change_pct", round_to(cp->change_pct, 0.01));
		json_put_num(c, "p_value", round_sig(cp->pvalue));
		cJSON_AddItemToArray(a, c);
	}
	cJSON_AddBoolToObject(o, "latest_regression", trend_latest_regression(t));
	return o;
}

int trend_write(FILE *f, const struct trend_write_item *items, size_t n, int json)
{
	cJSON *root, *arr;
	size_t i;

	if (!json) {
		for (i = 0; i < n; i++)
			write_text(f, &items[i]);
		if (!n)
			fprintf(f, "no runs with usable samples\n");
		return 0;
	}
	root = cJSON_CreateObject();
	arr = cJSON_AddArrayToObject(root, "series");
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(arr, series_json(&items[i]));
	return json_write(f, root);
}
