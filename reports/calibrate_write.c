/* calibrate_write.c: renders the A/A noise floors of `tpsdb calibrate`, one table
 * row (text, markdown, CSV) per cell and metric or one JSON object each; a pair that is not an A/A pair
 * becomes the same sentence as a warning or in the JSON's "skipped". */
#include "reports/calibrate_write.h"
#include "escape.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "reports/json.h"
#include "reports/parity.h"
#include "reports/table.h"
#include "schema/record.h"
#include "tpsdb.h"

static const char *metric_name(int m)
{
	return m == PARITY_METRIC_PP ? "pp" : "tg";
}

/* The sentence for a pair that is not an A/A pair; heap, caller frees. */
static char *skip_text(const struct noise_pair *p)
{
	char cell[160], why[160];

	run_cell_name(p->b, cell, sizeof(cell));
	parity_diff_text(&p->diff, why, sizeof(why));
	return tps_xasprintf("%s %s: the two latest runs are not an A/A pair: %s", cell,
			     p->b->engine, why);
}

enum { K_CELL, K_ENGINE, K_METRIC, K_FLOOR, K_PAIRS, K_RUNS, K_N };

void calibrate_table(struct table *t, const struct noise_pair *p, size_t n)
{
	size_t i;
	int m;

	table_init(t, K_N);
	table_col(t, K_CELL, TABLE_LABEL, "CELL", 28);
	table_col(t, K_ENGINE, TABLE_LABEL, "ENGINE", 14);
	table_col(t, K_METRIC, TABLE_LABEL, "METRIC", 6);
	table_col(t, K_FLOOR, TABLE_NUMBER, "FLOOR_%", 9);
	table_col(t, K_PAIRS, TABLE_COUNT, "PAIRS", 6);
	table_col(t, K_RUNS, TABLE_LABEL, "RUNS", 0);
	for (i = 0; i < n; i++) {
		char cell[160];

		if (p[i].diff.kind != RUN_DIFF_NONE)
			continue;
		run_cell_name(p[i].b, cell, sizeof(cell));
		for (m = 0; m < PARITY_N_METRICS; m++) {
			size_t row;

			if (isnan(p[i].pct[m]))
				continue;
			row = table_add_row(t);
			table_set(t, row, K_CELL, cell);
			table_set(t, row, K_ENGINE, p[i].b->engine);
			table_set(t, row, K_METRIC, metric_name(m));
			table_setf(t, row, K_FLOOR, "%.2f", p[i].pct[m]);
			table_setf(t, row, K_PAIRS, "%zu", p[i].n_pairs[m]);
			table_setf(t, row, K_RUNS, "%.8s %.8s", p[i].a->uuid, p[i].b->uuid);
		}
	}
}

void calibrate_write_identical(const struct noise_pair *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i].identical)
			tps_warning("runs %s and %s hold identical samples (the same results "
				    "imported twice?): not an A/A pair, no noise floor taken",
				    p[i].a->uuid, p[i].b->uuid);
}

void calibrate_write(FILE *f, const struct noise_pair *p, size_t n, enum table_format fmt)
{
	struct table t;
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i].diff.kind != RUN_DIFF_NONE) {
			char *msg = skip_text(&p[i]), *e = escape_text(msg);
			tps_warning("%s", e);
			free(msg);
			free(e);
		}
	}
	calibrate_table(&t, p, n);
	table_write(f, &t, fmt);
	table_release(&t);
}

int calibrate_write_json(const struct noise_pair *p, size_t n)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *floors = cJSON_AddArrayToObject(root, "floors");
	cJSON *skipped = cJSON_AddArrayToObject(root, "skipped");
	size_t i;
	int m;

	for (i = 0; i < n; i++) {
		const struct run *a = p[i].a, *b = p[i].b;

		if (p[i].diff.kind != RUN_DIFF_NONE) {
			char *msg = skip_text(&p[i]);
			cJSON_AddItemToArray(skipped, cJSON_CreateString(msg));
			free(msg);
			continue;
		}
		for (m = 0; m < PARITY_N_METRICS; m++) {
			cJSON *o;

			if (isnan(p[i].pct[m]))
				continue;
			o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "engine", b->engine);
			cJSON_AddStringToObject(o, "model", b->model);
			cJSON_AddStringToObject(o, "spec_type", b->spec_type);
			if (b->n_max == TPS_NULL)
				cJSON_AddNullToObject(o, "n_max");
			else
				cJSON_AddNumberToObject(o, "n_max", (double)b->n_max);
			cJSON_AddStringToObject(o, "endpoint", b->endpoint);
			cJSON_AddStringToObject(o, "metric", metric_name(m));
			cJSON_AddNumberToObject(o, "noise_pct", p[i].pct[m]);
			cJSON_AddNumberToObject(o, "n_pairs", (double)p[i].n_pairs[m]);
			cJSON_AddStringToObject(o, "run_a", a->uuid);
			cJSON_AddStringToObject(o, "run_b", b->uuid);
			cJSON_AddItemToArray(floors, o);
		}
	}
	return json_write(stdout, root);
}
