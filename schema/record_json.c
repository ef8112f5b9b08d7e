/* record_json.c: the export line codec. Field names are the store's column names,
 * absent values are JSON null, and the raw timings object is embedded as JSON (not a
 * string) so the export stays readable. The cJSON trees stay inside these functions. */
#include "schema/record_json.h"
#include "analyze/envrule.h"
#include "schema/record_check.h"
#include "schema/json_strict.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void put_str(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static void put_i64(cJSON *o, const char *k, int64_t v)
{
	if (v == TPS_NULL)
		cJSON_AddNullToObject(o, k);
	else
		cJSON_AddNumberToObject(o, k, (double)v);
}

static void put_dbl(cJSON *o, const char *k, double v)
{
	if (isnan(v))
		cJSON_AddNullToObject(o, k);
	else
		cJSON_AddNumberToObject(o, k, v);
}

char *record_json_write(const struct run_rec *r, const struct sample_rec *smp, size_t n)
{
	cJSON *root = cJSON_CreateObject(), *run = cJSON_CreateObject();
	cJSON *h, *e, *m, *env, *arr = cJSON_CreateArray();
	char *out, *ret;
	size_t i, len;

	cJSON_AddNumberToObject(root, RECORD_JSON_MARK, 1);
	cJSON_AddItemToObject(root, "run", run);
	put_str(run, "uuid", r->uuid);
	put_str(run, "started_at", r->started_at);
	put_str(run, "ended_at", r->ended_at);
	put_str(run, "status", r->status);
	put_str(run, "source", r->source);
	h = cJSON_AddObjectToObject(run, "host");
	put_str(h, "name", r->host.name);
	put_str(h, "gpu", r->host.gpu);
	put_str(h, "driver", r->host.driver);
	put_str(h, "cuda", r->host.cuda);
	e = cJSON_AddObjectToObject(run, "engine");
	put_str(e, "label", r->engine.label);
	put_str(e, "role", r->engine.role);
	put_str(e, "version", r->engine.version);
	put_str(e, "sha256", r->engine.sha256);
	m = cJSON_AddObjectToObject(run, "model");
	put_str(m, "label", r->model.label);
	put_str(m, "file", r->model.file);
	put_i64(m, "bytes", r->model.bytes);
	put_str(m, "sha256", r->model.sha256);
	put_str(m, "quant", r->model.quant);
	put_i64(run, "ctx", r->ctx);
	put_i64(run, "n_predict", r->n_predict);
	put_i64(run, "ignore_eos", r->ignore_eos < 0 ? TPS_NULL : r->ignore_eos);
	put_dbl(run, "temperature", r->temperature);
	put_i64(run, "seed", r->seed);
	put_str(run, "endpoint", r->endpoint);
	put_str(run, "spec_type", r->spec_type);
	put_i64(run, "n_max", r->n_max);
	put_str(run, "drafter", r->drafter);
	put_str(run, "extra_args", r->extra_args);
	put_str(run, "tag", r->tag);
	put_str(run, "notes", r->notes);
	put_str(run, "load_error", r->load_error);
	put_str(run, "log_path", r->log_path);
	put_i64(run, "warmup", r->warmup);
	put_str(run, "prompt_set", r->prompt_set);
	put_i64(run, "round", r->round);
	put_str(run, "batch", r->batch);
	put_str(run, "config", r->config);
	put_str(run, "cpu", r->cpu);
	put_str(run, "model_type", r->model_type);
	put_i64(run, "model_n_params", r->model_n_params);
	/* Written only when set, so an export of a store without sequential
	 * batches stays byte for byte what it was. */
	if (r->looks_to != TPS_NULL)
		put_i64(run, "looks_to", r->looks_to);
	if (r->looks_metric)
		put_str(run, "looks_metric", r->looks_metric);
	if (r->spec_settings && *r->spec_settings)
		put_str(run, "spec_settings", r->spec_settings);
	env = r->env ? cJSON_Parse(r->env) : NULL;
	if (env)
		cJSON_AddItemToObject(run, "env", env);
	else
		put_str(run, "env", r->env);
	put_i64(run, "env_flags", (int64_t)r->env_flags);
	put_str(run, "collector_host", r->collector_host);
	put_str(run, "collector_boot", r->collector_boot);
	put_i64(run, "collector_pid", r->collector_pid);
	put_i64(run, "collector_start", r->collector_start);
	cJSON_AddItemToObject(root, "samples", arr);
	for (i = 0; i < n; i++) {
		const struct sample_rec *s = &smp[i];
		cJSON *o = cJSON_CreateObject(), *t;
		cJSON_AddItemToArray(arr, o);
		put_str(o, "prompt", s->prompt_name);
		put_str(o, "prompt_hash", s->prompt_hash);
		put_i64(o, "rep", s->rep);
		put_i64(o, "seq", s->seq);
		put_i64(o, "cache_n", s->cache_n);
		put_i64(o, "prompt_n", s->prompt_n);
		put_dbl(o, "prompt_ms", s->prompt_ms);
		put_dbl(o, "prompt_per_second", s->prompt_per_second);
		put_i64(o, "predicted_n", s->predicted_n);
		put_dbl(o, "predicted_ms", s->predicted_ms);
		put_dbl(o, "predicted_per_second", s->predicted_per_second);
		put_i64(o, "draft_n", s->draft_n);
		put_i64(o, "draft_n_accepted", s->draft_n_accepted);
		put_dbl(o, "wall_ms", s->wall_ms);
		put_dbl(o, "client_ttft_ms", s->client_ttft_ms);
		put_dbl(o, "client_decode_per_second", s->client_decode_per_second);
		put_dbl(o, "client_e2e_ms", s->client_e2e_ms);
		put_i64(o, "http_status", s->http_status);
		put_str(o, "error", s->error);
		put_str(o, "stop_type", s->stop_type);
		put_str(o, "output_hash", s->output_hash);
		put_i64(o, "flags", (int64_t)s->flags);
		put_dbl(o, "repeat_share", s->repeat_share);
		t = s->timings ? cJSON_Parse(s->timings) : NULL;
		if (t)
			cJSON_AddItemToObject(o, "timings", t);
		else
			put_str(o, "timings", s->timings);
	}
	out = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	if (!out) {
		tps_error("out of memory writing an export line");
		return NULL;
	}
	/* Text another tool wrote into the store may not be UTF-8; the line must be
	 * (it is read back by import, which refuses invalid UTF-8). */
	len = strlen(out);
	ret = json_utf8_valid(out, len) ? tps_xstrdup(out) : json_utf8_repair(out, len);
	cJSON_free(out);
	return ret;
}

/* Readers: a missing key or null is "absent"; a value of the wrong type is an error. */
static int get_str(const cJSON *o, const char *k, char **out, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsString(v))
		return tps_fail(err, errlen, "'%s' is not a string", k);
	*out = tps_xstrdup(v->valuestring);
	return 0;
}

static int get_i64(const cJSON *o, const char *k, int64_t *out, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble != floor(v->valuedouble) ||
	    fabs(v->valuedouble) > RECORD_MAX_INT)
		return tps_fail(err, errlen, "'%s' is not an integer", k);
	*out = (int64_t)v->valuedouble;
	return 0;
}

/* A bit set: a whole number in [0, UINT32_MAX], checked before it is narrowed (2^32 + 8
 * would become 8). tpsdb always writes one, so null is refused rather than read as
 * "no findings"; only an absent key (an older export) is 0. record_check_* then
 * refuses the bits it does not know. */
static int get_bits(const cJSON *o, const char *k, const char *what, unsigned *out, char *err,
		    size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	int64_t i = 0;

	if (v && cJSON_IsNull(v))
		return tps_fail(err, errlen, "%s is null, not a number", what);
	if (get_i64(o, k, &i, err, errlen) < 0)
		return -1;
	if (i < 0 || i > UINT32_MAX)
		return tps_fail(err, errlen, "%s is out of range (%lld)", what, (long long)i);
	*out = (unsigned)i;
	return 0;
}

static int get_dbl(const cJSON *o, const char *k, double *out, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0)
		return tps_fail(err, errlen, "'%s' is not a non-negative number", k);
	*out = v->valuedouble;
	return 0;
}

static int read_run(const cJSON *o, struct run_rec *r, char *err, size_t errlen)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(o, "host");
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(o, "engine");
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "model");
	const cJSON *env;
	char *uuid = NULL;
	int64_t ie = TPS_NULL;

	if (!cJSON_IsObject(o) || !cJSON_IsObject(h) || !cJSON_IsObject(e) || !cJSON_IsObject(m))
		return tps_fail(err, errlen, "'run' needs objects 'host', 'engine' and 'model'");
	if (get_str(o, "uuid", &uuid, err, errlen) < 0)
		return -1;
	if (!uuid || strlen(uuid) != 36) {
		free(uuid);
		return tps_fail(err, errlen, "'run.uuid' is missing or not a uuid");
	}
	memcpy(r->uuid, uuid, 37);
	free(uuid);
	if (get_str(o, "started_at", &r->started_at, err, errlen) < 0 ||
	    get_str(o, "ended_at", &r->ended_at, err, errlen) < 0 ||
	    get_str(o, "status", &r->status, err, errlen) < 0 ||
	    get_str(o, "source", &r->source, err, errlen) < 0 ||
	    get_str(h, "name", &r->host.name, err, errlen) < 0 ||
	    get_str(h, "gpu", &r->host.gpu, err, errlen) < 0 ||
	    get_str(h, "driver", &r->host.driver, err, errlen) < 0 ||
	    get_str(h, "cuda", &r->host.cuda, err, errlen) < 0 ||
	    get_str(e, "label", &r->engine.label, err, errlen) < 0 ||
	    get_str(e, "role", &r->engine.role, err, errlen) < 0 ||
	    get_str(e, "version", &r->engine.version, err, errlen) < 0 ||
	    get_str(e, "sha256", &r->engine.sha256, err, errlen) < 0 ||
	    get_str(m, "label", &r->model.label, err, errlen) < 0 ||
	    get_str(m, "file", &r->model.file, err, errlen) < 0 ||
	    get_i64(m, "bytes", &r->model.bytes, err, errlen) < 0 ||
	    get_str(m, "sha256", &r->model.sha256, err, errlen) < 0 ||
	    get_str(m, "quant", &r->model.quant, err, errlen) < 0 ||
	    get_i64(o, "ctx", &r->ctx, err, errlen) < 0 ||
	    get_i64(o, "n_predict", &r->n_predict, err, errlen) < 0 ||
	    get_i64(o, "ignore_eos", &ie, err, errlen) < 0 ||
	    get_dbl(o, "temperature", &r->temperature, err, errlen) < 0 ||
	    get_i64(o, "seed", &r->seed, err, errlen) < 0 ||
	    get_str(o, "endpoint", &r->endpoint, err, errlen) < 0 ||
	    get_str(o, "spec_type", &r->spec_type, err, errlen) < 0 ||
	    get_i64(o, "n_max", &r->n_max, err, errlen) < 0 ||
	    get_str(o, "drafter", &r->drafter, err, errlen) < 0 ||
	    get_str(o, "extra_args", &r->extra_args, err, errlen) < 0 ||
	    get_str(o, "tag", &r->tag, err, errlen) < 0 ||
	    get_str(o, "notes", &r->notes, err, errlen) < 0 ||
	    get_str(o, "load_error", &r->load_error, err, errlen) < 0 ||
	    get_str(o, "log_path", &r->log_path, err, errlen) < 0 ||
	    get_i64(o, "warmup", &r->warmup, err, errlen) < 0 ||
	    get_str(o, "prompt_set", &r->prompt_set, err, errlen) < 0 ||
	    get_i64(o, "round", &r->round, err, errlen) < 0 ||
	    get_str(o, "batch", &r->batch, err, errlen) < 0 ||
	    get_str(o, "config", &r->config, err, errlen) < 0 ||
	    get_str(o, "cpu", &r->cpu, err, errlen) < 0 ||
	    get_str(o, "model_type", &r->model_type, err, errlen) < 0 ||
	    get_i64(o, "model_n_params", &r->model_n_params, err, errlen) < 0 ||
	    get_i64(o, "looks_to", &r->looks_to, err, errlen) < 0 ||
	    get_str(o, "looks_metric", &r->looks_metric, err, errlen) < 0 ||
	    get_str(o, "spec_settings", &r->spec_settings, err, errlen) < 0 ||
	    get_bits(o, "env_flags", "'run.env_flags'", &r->env_flags, err, errlen) < 0 ||
	    get_str(o, "collector_host", &r->collector_host, err, errlen) < 0 ||
	    get_str(o, "collector_boot", &r->collector_boot, err, errlen) < 0 ||
	    get_i64(o, "collector_pid", &r->collector_pid, err, errlen) < 0 ||
	    get_i64(o, "collector_start", &r->collector_start, err, errlen) < 0)
		return -1;
	/* Exports before migration 0007 have neither key: no environment recorded. */
	env = cJSON_GetObjectItemCaseSensitive(o, "env");
	if (cJSON_IsObject(env)) {
		char *raw = cJSON_PrintUnformatted(env);
		r->env = tps_xstrdup(raw);
		cJSON_free(raw);
	} else if (env && !cJSON_IsNull(env)) {
		return tps_fail(err, errlen, "'run.env' is not a JSON object");
	}
	/* Older exports have neither round nor batch: they stay unknown. */
	/* Checked before the cast: 2^32 + 1 would become 1. */
	if (ie != TPS_NULL && ie != 0 && ie != 1)
		return tps_fail(err, errlen, "'run.ignore_eos' is not 0 or 1");
	r->ignore_eos = ie == TPS_NULL ? -1 : (int)ie;
	if (!r->started_at)
		return tps_fail(err, errlen, "'run.started_at' is missing");
	return 0;
}

static int read_sample(const cJSON *o, struct sample_rec *s, char *err, size_t errlen)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "timings");
	char *hash = NULL;

	if (!cJSON_IsObject(o))
		return tps_fail(err, errlen, "a sample is not an object");
	if (get_str(o, "prompt_hash", &hash, err, errlen) < 0)
		return -1;
	if (!hash || strlen(hash) != 64) {
		free(hash);
		return tps_fail(err, errlen, "a sample's 'prompt_hash' is missing or malformed");
	}
	memcpy(s->prompt_hash, hash, 65);
	free(hash);
	if (get_str(o, "prompt", &s->prompt_name, err, errlen) < 0 ||
	    get_i64(o, "rep", &s->rep, err, errlen) < 0 ||
	    get_i64(o, "seq", &s->seq, err, errlen) < 0 ||
	    get_i64(o, "cache_n", &s->cache_n, err, errlen) < 0 ||
	    get_i64(o, "prompt_n", &s->prompt_n, err, errlen) < 0 ||
	    get_dbl(o, "prompt_ms", &s->prompt_ms, err, errlen) < 0 ||
	    get_dbl(o, "prompt_per_second", &s->prompt_per_second, err, errlen) < 0 ||
	    get_i64(o, "predicted_n", &s->predicted_n, err, errlen) < 0 ||
	    get_dbl(o, "predicted_ms", &s->predicted_ms, err, errlen) < 0 ||
	    get_dbl(o, "predicted_per_second", &s->predicted_per_second, err, errlen) < 0 ||
	    get_i64(o, "draft_n", &s->draft_n, err, errlen) < 0 ||
	    get_i64(o, "draft_n_accepted", &s->draft_n_accepted, err, errlen) < 0 ||
	    get_dbl(o, "wall_ms", &s->wall_ms, err, errlen) < 0 ||
	    get_dbl(o, "client_ttft_ms", &s->client_ttft_ms, err, errlen) < 0 ||
	    get_dbl(o, "client_decode_per_second", &s->client_decode_per_second, err,
		    errlen) < 0 ||
	    get_dbl(o, "client_e2e_ms", &s->client_e2e_ms, err, errlen) < 0 ||
	    get_i64(o, "http_status", &s->http_status, err, errlen) < 0 ||
	    get_str(o, "error", &s->error, err, errlen) < 0 ||
	    get_str(o, "stop_type", &s->stop_type, err, errlen) < 0 ||
	    get_str(o, "output_hash", &s->output_hash, err, errlen) < 0 ||
	    get_bits(o, "flags", "a sample's 'flags'", &s->flags, err, errlen) < 0 ||
	    get_dbl(o, "repeat_share", &s->repeat_share, err, errlen) < 0)
		return -1;
	if (s->rep == TPS_NULL || s->rep < 1)
		return tps_fail(err, errlen, "a sample's 'rep' is missing or below 1");
	if (cJSON_IsObject(t)) {
		char *raw = cJSON_PrintUnformatted(t);
		s->timings = tps_xstrdup(raw);
		cJSON_free(raw);
	} else if (cJSON_IsString(t)) {
		s->timings = tps_xstrdup(t->valuestring);
	}
	return 0;
}

int record_json_read(const cJSON *root, struct run_rec *run, struct sample_rec **smp,
		     size_t *n, char *err, size_t errlen)
{
	const cJSON *samples = cJSON_GetObjectItemCaseSensitive(root, "samples");
	const cJSON *it;
	size_t i = 0, count;

	*smp = NULL;
	*n = 0;
	if (read_run(cJSON_GetObjectItemCaseSensitive(root, "run"), run, err, errlen) < 0)
		return -1;
	if (!cJSON_IsArray(samples))
		return tps_fail(err, errlen, "'samples' is not an array");
	count = (size_t)cJSON_GetArraySize(samples);
	*smp = tps_xcalloc(count ? count : 1, sizeof(**smp));
	cJSON_ArrayForEach(it, samples) {
		sample_rec_init(&(*smp)[i]);
		*n = ++i;
		if (read_sample(it, &(*smp)[i - 1], err, errlen) < 0)
			return -1;
	}
	/* The same value rules as every other input format (schema/record_check.h). */
	if (record_check_whole(run, *smp, *n, err, errlen) < 0)
		return -1;
	return 0;
}

static double env_num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

void record_env_facts(const char *json, struct env_facts *f)
{
	cJSON *root = json ? cJSON_Parse(json) : NULL;
	const cJSON *h, *g, *l, *t;
	double v;

	*f = ENV_FACTS_NONE;
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		return;
	}
	f->known = 1;
	if (cJSON_IsObject(h = cJSON_GetObjectItemCaseSensitive(root, "host"))) {
		f->wall_s = env_num(h, "wall_s");
		f->others_share = env_num(h, "others_share");
		f->busy_share = env_num(h, "busy_share");
	}
	if (cJSON_IsObject(g = cJSON_GetObjectItemCaseSensitive(root, "gpu"))) {
		f->has_gpu = 1;
		f->other_procs = env_num(g, "other_procs");
		f->util_idle = env_num(g, "util_idle");
		f->sm_min = env_num(g, "sm_clock_min");
		f->sm_max = env_num(g, "sm_clock_max");
		f->mem_min = env_num(g, "mem_clock_min");
		f->mem_max = env_num(g, "mem_clock_max");
		t = cJSON_GetObjectItemCaseSensitive(g, "throttle_reasons");
		if (cJSON_IsString(t))
			f->throttle = strtoull(t->valuestring, NULL, 16);
	}
	if (cJSON_IsObject(l = cJSON_GetObjectItemCaseSensitive(root, "log"))) {
		/* A layer count outside an int's range is no count (an imported file
		 * may say anything). */
		if ((v = env_num(l, "layers_offloaded")) >= 0 && v <= INT_MAX)
			f->layers_offloaded = (int)v;
		if ((v = env_num(l, "layers_total")) >= 0 && v <= INT_MAX)
			f->layers_total = (int)v;
		f->kv_host_mib = env_num(l, "kv_host_mib");
	}
	cJSON_Delete(root);
}
