/* baseline_write.c: renders the named baselines of schema/baseline.c and the runs
 * one of them freezes. */
#include "reports/baseline_write.h"
#include "escape.h"
#include "reports/json.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

int baseline_write_list(FILE *f, const struct baseline_info *b, size_t n, int json)
{
	size_t i;

	if (json) {
		cJSON *arr = cJSON_CreateArray();
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
	if (!n) {
		fprintf(f, "no baselines\n");
		return 0;
	}
	fprintf(f, "%-24s  %-24s  %5s  %8s\n", "name", "created", "runs", "samples");
	for (i = 0; i < n; i++) {
		char *e = escape_text(b[i].name);
		fprintf(f, "%-24s  %-24s  %5lld  %8lld\n", e, b[i].created_at,
			(long long)b[i].n_runs, (long long)b[i].n_samples);
		free(e);
	}
	return 0;
}

int baseline_write_show(FILE *f, const char *name, const struct cell_run *runs, size_t n,
			int json)
{
	char *nm_e;
	size_t i;

	if (json) {
		cJSON *root = cJSON_CreateObject(), *arr;
		cJSON_AddStringToObject(root, "name", name);
		arr = cJSON_AddArrayToObject(root, "runs");
		for (i = 0; i < n; i++) {
			const struct cell_run *r = &runs[i];
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
	nm_e = escape_text(name);
	fprintf(f, "baseline '%s': %zu run(s)\n", nm_e, n);
	free(nm_e);
	for (i = 0; i < n; i++) {
		const struct cell_run *r = &runs[i];
		char nm[32] = "-";
		/* Every label through escape_text(): the store may hold anything. */
		char *u = escape_text(r->uuid), *e = escape_text(r->engine);
		char *m = escape_text(r->model);
		char *s = escape_text(*r->spec_type ? r->spec_type : "-");
		char *t = escape_text(*r->tag ? r->tag : "-");
		if (r->n_max != TPS_NULL)
			snprintf(nm, sizeof(nm), "%lld", (long long)r->n_max);
		fprintf(f, "  %s  %-16s  %-20s  %-14s  %5s  %-12s  %5lld samples\n", u, e, m, s,
			nm, t, (long long)r->n_samples);
		free(u);
		free(e);
		free(m);
		free(s);
		free(t);
	}
	return 0;
}
