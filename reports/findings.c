/* findings.c: turns the per-run quality summary of the store into finding lines.
 * The detail of a sample finding names the worst example the store kept (the
 * smallest predicted_n of a truncated decode, the largest cache_n and so on), so
 * one line says both what went wrong and by how much. */
#include "reports/findings.h"
#include "reports/tail.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static void add(struct findings *fs, const struct catalog_quality *q, const char *kind,
		int64_t count, int64_t total, char *detail)
{
	struct finding *f;

	fs->v = tps_xrealloc(fs->v, (fs->n + 1) * sizeof(*fs->v));
	f = &fs->v[fs->n++];
	f->run = tps_xstrdup(q->uuid ? q->uuid : "");
	f->engine = tps_xstrdup(q->engine ? q->engine : "");
	f->model = tps_xstrdup(q->model ? q->model : "");
	f->kind = kind;
	f->count = count;
	f->total = total;
	f->detail = detail;
	f->run_level = !strcmp(kind, "load-failed") || !strcmp(kind, "partial") ||
		       !strcmp(kind, "interrupted") || !strcmp(kind, "orphaned");
}

/* The last line of a server log, at most 200 bytes of it. */
static char *log_tail(const char *log)
{
	if (!log || !*log)
		return tps_xstrdup("the engine failed to start (no server log kept)");
	return tail_line(log, 200);
}

static char *sample_detail(const struct catalog_quality *q, unsigned flag)
{
	switch (flag) {
	case SAMPLE_TRUNCATED:
		if (q->n_predict != TPS_NULL && q->trunc_min_predicted_n != TPS_NULL &&
		    q->trunc_min_predicted_n < q->n_predict)
			return tps_xasprintf("truncated decode (predicted_n %lld < n_predict %lld)",
					     (long long)q->trunc_min_predicted_n,
					     (long long)q->n_predict);
		if (q->trunc_min_predicted_n != TPS_NULL)
			return tps_xasprintf("truncated decode (stopped on eos, predicted_n %lld)",
					     (long long)q->trunc_min_predicted_n);
		return tps_xstrdup("truncated decode (stopped on eos)");
	case SAMPLE_CACHED:
		if (q->cache_max_n != TPS_NULL)
			return tps_xasprintf("cache-inflated prefill (cache_n %lld)",
					     (long long)q->cache_max_n);
		return tps_xstrdup("cache-inflated prefill");
	case SAMPLE_SHORT_PROMPT:
		if (q->short_min_prompt_n != TPS_NULL)
			return tps_xasprintf("short prompt (prompt_n %lld < %d)",
					     (long long)q->short_min_prompt_n, SAMPLE_MIN_PROMPT_N);
		return tps_xasprintf("short prompt (prompt_n < %d)", SAMPLE_MIN_PROMPT_N);
	case SAMPLE_FAILED:
		if (q->failed_example) {
			char *t = log_tail(q->failed_example), *d;
			d = tps_xasprintf("failed requests (%s)", t);
			free(t);
			return d;
		}
		return tps_xstrdup("failed requests (no timings)");
	case SAMPLE_COLD:
		return tps_xstrdup("cold-start prefill (first request after the server started)");
	case SAMPLE_AGGREGATE:
		return tps_xstrdup("aggregate-only results (llama-bench -o csv/sql: averages, "
				   "no per-repetition samples to pair)");
	}
	return tps_xstrdup("flagged");
}

void findings_add(struct findings *fs, const struct catalog_quality *q)
{
	const char *st = q->status ? q->status : "";
	int b;

	if (!strcmp(st, "failed")) {
		char *t = log_tail(q->load_error);
		add(fs, q, "load-failed", 1, 1, tps_xasprintf("LOADFAIL: %s", t));
		free(t);
	} else if (!strcmp(st, "partial")) {
		add(fs, q, "partial", 1, 1, tps_xasprintf(
			    "partial run: stopped before all of its requests were answered "
			    "(%lld samples kept)", (long long)q->total));
	} else if (q->orphaned) {
		add(fs, q, "orphaned", 1, 1, tps_xasprintf(
			    "orphaned run: still marked running, but its collector is gone (killed "
			    "or out of memory); treated as interrupted (%lld samples kept)",
			    (long long)q->total));
	} else if (!strcmp(st, "interrupted")) {
		add(fs, q, "interrupted", 1, 1, tps_xasprintf(
			    "interrupted run: stopped by a signal (%lld samples kept)",
			    (long long)q->total));
	}
	for (b = 0; b < CATALOG_NFLAGS; b++) {
		if (q->count[b])
			add(fs, q, record_flag_name(1u << b), q->count[b], q->total,
			    sample_detail(q, 1u << b));
	}
}

void findings_build(struct findings *fs, const struct catalog_quality *q, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		findings_add(fs, &q[i]);
}

void findings_release(struct findings *fs)
{
	size_t i;

	if (!fs)
		return;
	for (i = 0; i < fs->n; i++) {
		free(fs->v[i].run);
		free(fs->v[i].engine);
		free(fs->v[i].model);
		free(fs->v[i].detail);
	}
	free(fs->v);
	fs->v = NULL;
	fs->n = 0;
}

char *findings_line(const struct finding *f)
{
	if (f->run_level)
		return tps_xasprintf("run %s %s/%s: %s", f->run, f->engine, f->model, f->detail);
	return tps_xasprintf("run %s %s/%s: %lld of %lld samples %s", f->run, f->engine,
			     f->model, (long long)f->count, (long long)f->total, f->detail);
}

cJSON *findings_json(const struct findings *fs)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->v[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, o);
		cJSON_AddStringToObject(o, "run", f->run);
		cJSON_AddStringToObject(o, "engine", f->engine);
		cJSON_AddStringToObject(o, "model", f->model);
		cJSON_AddStringToObject(o, "kind", f->kind);
		cJSON_AddNumberToObject(o, "count", (double)f->count);
		cJSON_AddNumberToObject(o, "total", (double)f->total);
		cJSON_AddStringToObject(o, "detail", f->detail);
	}
	return arr;
}
