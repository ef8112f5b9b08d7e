/* baseline_write.c: renders the named baselines of schema/baseline.c and the runs
 * one of them freezes: one table each (text, markdown, CSV), or JSON. */
#include "reports/baseline_write.h"
#include "reports/json.h"
#include "reports/table.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

int baseline_write_list_json(FILE *f, const struct baseline_info *b, size_t n)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, o);
		cJSON_AddStringToObject(o, "name", b[i].name);
		cJSON_AddStringToObject(o, "created_at", b[i].created_at);
		cJSON_AddNumberToObject(o, "runs", (double)b[i].n_runs);
		cJSON_AddNumberToObject(o, "samples", (double)b[i].n_samples);
	}
	return json_write(f, arr);
}

void baseline_list_table(struct table *t, const struct baseline_info *b, size_t n)
{
	static const struct table_colspec cols[] = {
		{ TABLE_LABEL, "name", 24 },
		{ TABLE_LABEL, "created", 24 },
		{ TABLE_COUNT, "runs", 5 },
		{ TABLE_COUNT, "samples", 8 },
	};
	size_t i, row;

	table_init_cols(t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; i < n; i++) {
		row = table_add_row(t);
		table_set(t, row, 0, b[i].name);
		table_set(t, row, 1, b[i].created_at);
		table_setf(t, row, 2, "%lld", (long long)b[i].n_runs);
		table_setf(t, row, 3, "%lld", (long long)b[i].n_samples);
	}
}

void baseline_write_list(FILE *f, const struct baseline_info *b, size_t n,
			 enum table_format fmt)
{
	struct table t;

	if (!n && fmt != TABLE_FMT_CSV) {
		table_line(f, fmt, 0, "no baselines");
		return;
	}
	baseline_list_table(&t, b, n);
	table_write(f, &t, fmt);
	table_release(&t);
}

int baseline_write_show_json(FILE *f, const char *name, const struct run *runs,
			     size_t n)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	size_t i;

	cJSON_AddStringToObject(root, "name", name);
	arr = cJSON_AddArrayToObject(root, "runs");
	for (i = 0; i < n; i++) {
		const struct run *r = &runs[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, o);
		cJSON_AddStringToObject(o, "uuid", r->uuid);
		cJSON_AddStringToObject(o, "engine", r->engine);
		cJSON_AddStringToObject(o, "model", r->model);
		cJSON_AddStringToObject(o, "spec_type", r->spec_type);
		json_put_i64(o, "n_max", r->n_max);
		cJSON_AddStringToObject(o, "endpoint", r->endpoint);
		cJSON_AddStringToObject(o, "tag", r->tag);
		cJSON_AddStringToObject(o, "host", r->host);
		cJSON_AddStringToObject(o, "started_at", r->started_at);
		cJSON_AddNumberToObject(o, "samples", (double)r->n_samples);
	}
	return json_write(f, root);
}

void baseline_show_table(struct table *t, const struct run *runs, size_t n)
{
	static const struct table_colspec cols[] = {
		{ TABLE_LABEL, "uuid", 0 },
		{ TABLE_LABEL, "engine", 16 },
		{ TABLE_LABEL, "model", 20 },
		{ TABLE_LABEL, "spec_type", 14 },
		{ TABLE_COUNT, "n_max", 5 },
		{ TABLE_LABEL, "tag", 12 },
		{ TABLE_COUNT, "samples", 5 },
	};
	size_t i, row;

	table_init_cols(t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; i < n; i++) {
		const struct run *r = &runs[i];

		row = table_add_row(t);
		table_set(t, row, 0, r->uuid);
		table_set(t, row, 1, r->engine);
		table_set(t, row, 2, r->model);
		table_set(t, row, 3, *r->spec_type ? r->spec_type : "-");
		if (r->n_max != TPS_NULL)
			table_setf(t, row, 4, "%lld", (long long)r->n_max);
		else
			table_set(t, row, 4, "-");
		table_set(t, row, 5, *r->tag ? r->tag : "-");
		table_setf(t, row, 6, "%lld", (long long)r->n_samples);
	}
}

void baseline_write_show(FILE *f, const char *name, const struct run *runs, size_t n,
			 enum table_format fmt)
{
	struct table t;
	char *line;

	if (fmt != TABLE_FMT_CSV) {
		line = tps_xasprintf("baseline '%s': %zu run(s)", name, n);
		table_line(f, fmt, 0, line);
		free(line);
		if (fmt == TABLE_FMT_MD)
			fputc('\n', f);
	}
	baseline_show_table(&t, runs, n);
	t.indent = "  ";
	table_write(f, &t, fmt);
	table_release(&t);
}
