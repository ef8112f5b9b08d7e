/* models_write.c: renders `tpsdb models` from catalog_models() and catalog_alarms()
 * rows. The alarms go through reports/alarms.c, as in `tpsdb check`. */
#include "reports/models_write.h"
#include "escape.h"
#include "reports/alarms.h"
#include "reports/json.h"
#include "reports/md.h"
#include "reports/table.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

int models_write_json(FILE *f, const struct catalog_model *m, size_t nm,
		      const struct catalog_alarm *a, size_t na)
{
	cJSON *root = cJSON_CreateObject(), *models = cJSON_CreateArray();
	size_t i, j;

	cJSON_AddItemToObject(root, "models", models);
	for (i = 0; i < nm; i++) {
		cJSON *o = cJSON_CreateObject(), *hosts = cJSON_CreateArray();
		cJSON_AddItemToArray(models, o);
		cJSON_AddStringToObject(o, "label", m[i].label);
		cJSON_AddStringToObject(o, "file", m[i].file);
		json_put_i64(o, "bytes", m[i].bytes);
		cJSON_AddStringToObject(o, "sha256", m[i].sha256);
		cJSON_AddStringToObject(o, "quant", m[i].quant);
		cJSON_AddItemToObject(o, "hosts", hosts);
		for (j = 0; j < m[i].hosts.n; j++)
			cJSON_AddItemToArray(hosts, cJSON_CreateString(m[i].hosts.name[j]));
		cJSON_AddNumberToObject(o, "runs", (double)m[i].runs);
	}
	cJSON_AddItemToObject(root, "alarms", alarms_json(a, na));
	return json_write(f, root);
}

static char *hosts_text(const struct catalog_hosts *h)
{
	char *t = tps_xstrdup(h->n ? "" : "-"), *more;
	size_t i;

	for (i = 0; i < h->n; i++) {
		more = tps_xasprintf("%s%s%s", t, i ? "," : "", h->name[i]);
		free(t);
		t = more;
	}
	return t;
}

enum { COL_LABEL, COL_FILE, COL_BYTES, COL_SHA, COL_QUANT, COL_RUNS, COL_HOSTS, NCOLS };

void models_table(struct table *t, const struct catalog_model *m, size_t n)
{
	static const char *const head[NCOLS] = { "LABEL", "FILE", "BYTES", "SHA256", "QUANT",
		"RUNS", "HOSTS" };
	static const size_t min_width[NCOLS] = { 0, 0, 12, 12, 0, 5, 0 };
	size_t i, j;

	table_init(t, NCOLS);
	for (j = 0; j < NCOLS; j++)
		table_col(t, j, j == COL_BYTES || j == COL_RUNS ? TABLE_COUNT : TABLE_LABEL,
			  head[j], min_width[j]);
	for (i = 0; i < n; i++) {
		size_t row = table_add_row(t);
		char *hosts = hosts_text(&m[i].hosts);

		table_set(t, row, COL_LABEL, m[i].label);
		table_set(t, row, COL_FILE, *m[i].file ? m[i].file : "-");
		if (m[i].bytes == TPS_NULL)
			table_set(t, row, COL_BYTES, "-");
		else
			table_setf(t, row, COL_BYTES, "%lld", (long long)m[i].bytes);
		/* Twelve hex digits tell files apart; the alarms print them whole. */
		table_setf(t, row, COL_SHA, "%.12s", *m[i].sha256 ? m[i].sha256 : "-");
		table_set(t, row, COL_QUANT, *m[i].quant ? m[i].quant : "-");
		table_setf(t, row, COL_RUNS, "%lld", (long long)m[i].runs);
		table_set(t, row, COL_HOSTS, hosts);
		free(hosts);
	}
}

void models_write(FILE *f, const struct catalog_model *m, size_t nm,
		  const struct catalog_alarm *a, size_t na, enum table_format fmt)
{
	struct table t;
	size_t i;

	if (nm || fmt == TABLE_FMT_CSV) {
		models_table(&t, m, nm);
		table_write(f, &t, fmt);
		table_release(&t);
	}
	if (fmt == TABLE_FMT_MD && na)
		fputc('\n', f);
	for (i = 0; i < na; i++) {
		char *text = alarms_text(&a[i]);
		char *s = tps_xasprintf("ALARM: %s", text);

		/* A CSV is the table alone: its alarms go where warnings go. */
		if (fmt == TABLE_FMT_MD)
			fputs("- ", f);
		table_line(fmt == TABLE_FMT_CSV ? stderr : f,
			   fmt == TABLE_FMT_CSV ? TABLE_FMT_TEXT : fmt, 0, s);
		free(s);
		free(text);
	}
}
