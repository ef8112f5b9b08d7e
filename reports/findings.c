/* findings.c: turns the per-run quality summary of the store into finding lines.
 * The detail of a sample finding names the worst example the store kept (the
 * smallest predicted_n of a truncated decode, the largest cache_n and so on), so
 * one line says both what went wrong and by how much. */
#include "reports/findings.h"
#include "analyze/clock.h"
#include "reports/tail.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Whether kind is the name of a RUN_ENV_* bit: a finding about the whole run. */
static int env_kind(const char *kind)
{
	unsigned b;

	for (b = 1; b < RUN_ENV_FLAGS_END; b <<= 1) {
		if (!strcmp(kind, record_env_flag_name(b)))
			return 1;
	}
	return 0;
}

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
		       !strcmp(kind, "interrupted") || !strcmp(kind, "orphaned") ||
		       !strcmp(kind, "outlier-instance") || !strcmp(kind, "timings-disagree") ||
		       env_kind(kind);
}

void findings_add_outliers(struct findings *fs, const struct pool_outlier *o, size_t n)
{
	struct catalog_quality q;

	for (size_t i = 0; i < n; i++) {
		memset(&q, 0, sizeof(q));
		q.uuid = (char *)o[i].run->uuid;
		q.engine = (char *)o[i].run->engine;
		q.model = (char *)o[i].run->model;
		add(fs, &q, "outlier-instance", 1, 1, tps_xasprintf(
			    "outlier instance: %s %.1f tok/s against %.1f, the median of its "
			    "pool's instances; compare and gate leave it out",
			    o[i].metric == RUN_PP ? "pp" : "tg", o[i].value, o[i].median));
	}
}

void findings_add_clock(struct findings *fs, const char *run, const char *engine,
			const char *model, const struct clock_check *c)
{
	struct catalog_quality q;

	memset(&q, 0, sizeof(q));
	q.uuid = (char *)run;
	q.engine = (char *)engine;
	q.model = (char *)model;
	add(fs, &q, "timings-disagree", 1, 1, tps_xasprintf(
		    "timings disagree: the server reports a decode of %.1f tok/s, the client's "
		    "clock saw %.1f tok/s (%+.0f%%, more than the %.0f%% allowed; medians of %zu "
		    "samples); the engine's timings are not the tokens' pace", c->server,
		    c->client, 100 * c->share, 100 * CLOCK_DISAGREE_SHARE, c->n));
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
	case SAMPLE_DEGENERATE:
		if (!isnan(q->degen_max_share))
			return tps_xasprintf("degenerate output (up to %.0f%% of the text is one "
					     "short repeated piece)", 100 * q->degen_max_share);
		return tps_xstrdup("degenerate output (one short repeated piece)");
	}
	return tps_xstrdup("flagged");
}

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The detail of an environment finding, from the facts the collector kept in
 * run.env (docs/ENVIRONMENT.md); a fact it lacks is left out of the sentence. */
static char *env_detail(const cJSON *env, unsigned flag)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(env, "host");
	const cJSON *g = cJSON_GetObjectItemCaseSensitive(env, "gpu");
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(env, "log");
	double a, b;

	switch (flag) {
	case RUN_ENV_HOST_BUSY:
		a = num(h, "others_share");
		b = num(h, "ncpu");
		if (!isnan(a) && !isnan(b))
			return tps_xasprintf("host busy: other processes used %.0f%% of %g CPUs "
					     "while it measured (load %.2f at the end; the "
					     "server used %.2f CPUs)", 100 * a, b,
					     num(h, "load1_end"), num(h, "server_cpus"));
		return tps_xstrdup("host busy: other processes used the CPUs while it measured");
	case RUN_ENV_GPU_CONTENDED:
		a = num(g, "other_procs");
		b = num(g, "util_idle");
		if (isnan(b))
			return tps_xasprintf("GPU shared: %g other compute process(es) on the "
					     "run's GPU", isnan(a) ? 0 : a);
		return tps_xasprintf("GPU shared: %g other compute process(es) on the run's GPU, "
				     "utilisation %g%% while the loaded server sat idle",
				     isnan(a) ? 0 : a, b);
	case RUN_ENV_GPU_THROTTLED:
		return tps_xasprintf("GPU throttled while it measured (%s)",
				     str(g, "throttle") ? str(g, "throttle") : "throttle reasons");
	case RUN_ENV_CLOCKS_CHANGED:
		return tps_xasprintf("clocks changed while it computed: SM %g-%g MHz, memory "
				     "%g-%g MHz", num(g, "sm_clock_min"), num(g, "sm_clock_max"),
				     num(g, "mem_clock_min"), num(g, "mem_clock_max"));
	case RUN_ENV_PARTIAL_OFFLOAD:
		a = num(l, "layers_offloaded");
		b = num(l, "layers_total");
		if (!isnan(a) && !isnan(b))
			return tps_xasprintf("partial offload: %g of %g layers on the GPU", a, b);
		return tps_xstrdup("partial offload: some layers ran on the CPU");
	case RUN_ENV_KV_ON_HOST:
		a = num(l, "kv_host_mib");
		b = num(l, "kv_gpu_mib");
		if (!isnan(a))
			return tps_xasprintf("KV cache in host memory (%.1f MiB on the host, %.1f "
					     "MiB on the GPU)", a, isnan(b) ? 0 : b);
		return tps_xstrdup("KV cache in host memory");
	}
	return tps_xstrdup("environment flagged");
}

void findings_add(struct findings *fs, const struct catalog_quality *q)
{
	const char *st = q->status ? q->status : "";
	int b;

	if (!strcmp(st, "failed")) {
		/* The error line when the log has one: llama.cpp ends a refused argument
		 * with its usage, so the last line says nothing. */
		char *t = q->load_line ? tps_xstrdup(q->load_line) : log_tail(q->load_error);
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
	if (q->env_flags) {
		cJSON *env = q->env ? cJSON_Parse(q->env) : NULL;
		unsigned e;

		for (e = 1; e < RUN_ENV_FLAGS_END; e <<= 1) {
			if (q->env_flags & e)
				add(fs, q, record_env_flag_name(e), 1, 1, env_detail(env, e));
		}
		cJSON_Delete(env);
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

char *findings_env_detail(const char *env, unsigned flag)
{
	cJSON *o = env ? cJSON_Parse(env) : NULL;
	char *d = env_detail(o, flag);

	cJSON_Delete(o);
	return d;
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
