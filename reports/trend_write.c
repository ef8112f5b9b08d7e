/* trend_write.c: the outputs of 'tpsdb trend': one table of series and one of
 * change points, written as text, markdown or CSV by reports/table.c, and the
 * JSON document. The JSON rounds what the text
 * shows (and a little more) so that the last bits of a floating-point sum do not
 * end up in a golden file. */
#include "reports/trend_write.h"
#include "analyze/cell_label.h"
#include "reports/json.h"
#include "reports/md.h"
#include "reports/table.h"
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

/* A series' metric as the outputs name it. */
static const char *metric_name(const struct trend_item *it)
{
	return it->metric == RUN_PP ? "pp" : "tg";
}

/* How the JSON names a history's order. */
static const char *order_name(enum trend_by by)
{
	return by == TREND_BY_BUILD ? "build" : by == TREND_BY_FIRST_SEEN ? "first-seen" :
		"start";
}

static cJSON *series_json(const struct trend_item *it)
{
	const struct pool *se = &it->hist;
	const struct run *f = pool_face(se);
	const struct trend *t = &it->t;
	cJSON *o = cJSON_CreateObject(), *a;
	size_t k;

	cJSON_AddStringToObject(o, "engine", f->engine);
	json_put_str(o, "machine", f->machine);
	cJSON_AddStringToObject(o, "model", f->model);
	cJSON_AddStringToObject(o, "spec_type", f->spec_type);
	json_put_i64(o, "n_max", f->n_max);
	cJSON_AddStringToObject(o, "endpoint", f->endpoint);
	cJSON_AddStringToObject(o, "metric", metric_name(it));
	cJSON_AddNumberToObject(o, "n_runs", (double)se->n);
	cJSON_AddStringToObject(o, "order", order_name(it->by));
	a = cJSON_AddArrayToObject(o, "change_points");
	for (k = 0; k < t->n_cps; k++) {
		const struct changepoint *cp = &t->cps[k];
		const struct run *r = se->runs[cp->index];
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

/* Where a series starts or ends: its run's build (trend_version_label()), else
 * its start date; a heap string the caller frees. */
static char *run_point(const struct run *r)
{
	char *v = trend_version_label(r);

	if (*v)
		return v;
	free(v);
	return tps_xstrdup(r->started_at && *r->started_at ? r->started_at : "-");
}


enum { S_ENGINE, S_MODEL, S_CONFIG, S_METRIC, S_RUNS, S_FIRST, S_LAST, S_CPS, S_LATEST, S_N };
enum { C_ENGINE, C_MODEL, C_CONFIG, C_METRIC, C_RUN, C_TAG, C_VERSION, C_AT, C_BEFORE,
       C_AFTER, C_CHANGE, C_P, C_N };

/* Whether the series of items come from more than one machine. */
static int several_machines(const struct trend_item *items, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (!run_str_eq(pool_face(&items[i].hist)->machine,
				pool_face(&items[0].hist)->machine))
			return 1;
	return 0;
}

void trend_tables(struct table *st, struct table *ct, const struct trend_item *items,
		  size_t n)
{
	char num[48];
	size_t i, k;
	/* A series comes from one machine: where there are several, each engine
	 * cell names its series' machine. */
	int machines = several_machines(items, n);

	table_init(st, S_N);
	table_col(st, S_ENGINE, TABLE_LABEL, "engine", 0);
	table_col(st, S_MODEL, TABLE_LABEL, "model", 0);
	table_col(st, S_CONFIG, TABLE_LABEL, "config", 0);
	table_col(st, S_METRIC, TABLE_LABEL, "metric", 0);
	table_col(st, S_RUNS, TABLE_COUNT, "runs", 0);
	table_col(st, S_FIRST, TABLE_LABEL, "first", 0);
	table_col(st, S_LAST, TABLE_LABEL, "last", 0);
	table_col(st, S_CPS, TABLE_COUNT, "change points", 0);
	table_col(st, S_LATEST, TABLE_VERDICT, "latest", 0);
	table_init(ct, C_N);
	table_col(ct, C_ENGINE, TABLE_LABEL, "engine", 0);
	table_col(ct, C_MODEL, TABLE_LABEL, "model", 0);
	table_col(ct, C_CONFIG, TABLE_LABEL, "config", 0);
	table_col(ct, C_METRIC, TABLE_LABEL, "metric", 0);
	table_col(ct, C_RUN, TABLE_LABEL, "new level from run", 0);
	table_col(ct, C_TAG, TABLE_LABEL, "tag", 0);
	table_col(ct, C_VERSION, TABLE_LABEL, "version", 0);
	table_col(ct, C_AT, TABLE_COUNT, "at run", 0);
	table_col(ct, C_BEFORE, TABLE_RATE, "before", 0);
	table_col(ct, C_AFTER, TABLE_RATE, "after", 0);
	table_col(ct, C_CHANGE, TABLE_DELTA, "change", 0);
	table_col(ct, C_P, TABLE_NUMBER, "p", 0);
	for (i = 0; i < n; i++) {
		const struct pool *se = &items[i].hist;
		const struct run *f = pool_face(se);
		const struct trend *t = &items[i].t;
		size_t row = table_add_row(st);
		int reg = trend_latest_regression(t);
		char *cfg = cell_label(f->spec_type, f->n_max, f->endpoint);
		char *eng = machines ? tps_xasprintf("%s on %s", f->engine, f->machine ?
						     f->machine : f->host) : tps_xstrdup(f->engine);

		table_set(st, row, S_ENGINE, eng);
		table_set(st, row, S_MODEL, f->model);
		table_set(st, row, S_CONFIG, cfg);
		table_set(st, row, S_METRIC, metric_name(&items[i]));
		table_setf(st, row, S_RUNS, "%zu", se->n);
		if (se->n) {
			char *first = run_point(se->runs[0]), *last = run_point(se->runs[se->n - 1]);

			table_set(st, row, S_FIRST, first);
			table_set(st, row, S_LAST, last);
			free(first);
			free(last);
		} else {
			table_set(st, row, S_FIRST, "-");
			table_set(st, row, S_LAST, "-");
		}
		table_setf(st, row, S_CPS, "%zu", t->n_cps);
		table_set(st, row, S_LATEST, reg ? "regression" : "-");
		if (reg)
			table_mark(st, row, S_LATEST);
		for (k = 0; k < t->n_cps; k++) {
			const struct changepoint *cp = &t->cps[k];
			const struct run *r = se->runs[cp->index];
			size_t cr = table_add_row(ct);

			table_set(ct, cr, C_ENGINE, eng);
			table_set(ct, cr, C_MODEL, f->model);
			table_set(ct, cr, C_CONFIG, cfg);
			table_set(ct, cr, C_METRIC, metric_name(&items[i]));
			table_set(ct, cr, C_RUN, r->uuid);
			table_set(ct, cr, C_TAG, *r->tag ? r->tag : "-");
			char *v = trend_version_label(r);

			table_set(ct, cr, C_VERSION, *v ? v : "-");
			free(v);
			table_setf(ct, cr, C_AT, "%zu", cp->index + 1);
			table_num(ct, cr, C_BEFORE, cp->mean_before);
			table_num(ct, cr, C_AFTER, cp->mean_after);
			md_num(num, sizeof(num), "%+.1f%%", cp->change_pct);
			table_set(ct, cr, C_CHANGE, num);
			if (cp->change_pct < 0)
				table_mark(ct, cr, C_CHANGE);
			md_num(num, sizeof(num), "%.2g", cp->pvalue);
			table_set(ct, cr, C_P, num);
		}
		free(cfg);
		free(eng);
	}
}

void trend_write(FILE *f, const struct trend_item *items, size_t n,
		 enum table_format fmt)
{
	struct table st, ct;

	trend_tables(&st, &ct, items, n);
	if (fmt == TABLE_FMT_CSV) {
		table_write(f, &st, fmt);
		goto out;
	}
	if (!n) {
		fprintf(f, fmt == TABLE_FMT_MD ? "_No runs with usable samples._\n" :
			"no runs with usable samples\n");
		goto out;
	}
	table_write(f, &st, fmt);
	for (size_t i = 0; i < n; i++) {
		if (items[i].by != TREND_BY_FIRST_SEEN)
			continue;
		fprintf(f, "\n%sOrder: a build that names no build number (\"b0-unknown\": "
			   "built without git describe) is placed by when its binary (sha256, "
			   "else its version) was first seen, its runs by start time.%s\n",
			fmt == TABLE_FMT_MD ? "_" : "", fmt == TABLE_FMT_MD ? "_" : "");
		break;
	}
	if (ct.t.nrows > 1) {
		fprintf(f, "\nChange points (%sbefore and after are segment means, tok/s or "
			   "acceptance):\n\n", fmt == TABLE_FMT_MD ? "a fall in bold; " : "");
		table_write(f, &ct, fmt);
	}
out:
	table_release(&st);
	table_release(&ct);
}

int trend_write_json(FILE *f, const struct trend_item *items, size_t n)
{
	cJSON *root, *arr;
	size_t i;

	root = cJSON_CreateObject();
	arr = cJSON_AddArrayToObject(root, "series");
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(arr, series_json(&items[i]));
	return json_write(f, root);
}
