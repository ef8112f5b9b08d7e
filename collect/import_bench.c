/* import_bench.c: llama-bench output, -o json / jsonl objects and -o csv / sql files
 * (collect/llama_bench.c turns those into objects): one run per configuration and
 * build, one sample per repetition. The checking pass keeps each object (the
 * driver keeps its parsed value); the writing pass adds it. */
#include "collect/import_int.h"
#include "collect/llama_bench.h"
#include "collect/response.h"
#include "schema/record_check.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The text of one configuration value: an integral number as an integer, a bool as
 * 0/1, a string as itself, "-" when absent. */
static void cfg_val(const cJSON *obj, const char *key, char *buf, size_t len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (cJSON_IsBool(v))
		snprintf(buf, len, "%d", cJSON_IsTrue(v) ? 1 : 0);
	else if (cJSON_IsNumber(v) && fabs(v->valuedouble) < 9e15 &&
		 v->valuedouble == (double)(long long)v->valuedouble)
		snprintf(buf, len, "%lld", (long long)v->valuedouble);
	else if (cJSON_IsNumber(v))
		snprintf(buf, len, "%g", v->valuedouble);
	else if (cJSON_IsString(v) && *v->valuestring)
		snprintf(buf, len, "%s", v->valuestring);
	else
		snprintf(buf, len, "-");
}

/* The canonical configuration text of a result (schema/0005_run_config.sql): the
 * test, then the settings llama-bench varies, in a fixed order. Caller frees. */
static char *bench_config(const cJSON *obj, const char *test)
{
	static const struct { const char *name, *key; } k[] = {
		{ "fa", "flash_attn" }, { "ngl", "n_gpu_layers" }, { "b", "n_batch" },
		{ "ub", "n_ubatch" }, { "ctk", "type_k" }, { "ctv", "type_v" },
		{ "t", "n_threads" }, { "sm", "split_mode" }, { "nkvo", "no_kv_offload" },
	};
	char v[128], *out = tps_xstrdup(test), *t;
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		cfg_val(obj, k[i].key, v, sizeof(v));
		t = tps_xasprintf("%s %s=%s", out, k[i].name, v);
		free(out);
		out = t;
	}
	/* "backends" since 2024, "backend" before. */
	cfg_val(obj, cJSON_GetObjectItemCaseSensitive(obj, "backends") ? "backends" : "backend",
		v, sizeof(v));
	t = tps_xasprintf("%s backend=%s", out, v);
	free(out);
	return t;
}

static const char *obj_str(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int64_t obj_i64(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble < 9e15 ?
		(int64_t)v->valuedouble : TPS_NULL;
}

/* The run of obj's configuration and build, made on first sight. NULL after an
 * error line. */
static struct bench_run *bench_run_of(struct importer *im, const cJSON *obj,
				      const char *test, const char *model)
{
	const char *bc = obj_str(obj, "build_commit"), *tt = obj_str(obj, "test_time");
	const cJSON *bn = cJSON_GetObjectItemCaseSensitive(obj, "build_number");
	static const char *const whole[] = { "build_number", "model_n_params", "model_size" };
	char *config, *version, *key;
	struct bench_run *br = NULL;
	size_t i;

	/* Integer fields are integers: 8.5 parameters is a damaged file. And they are
	 * checked before obj_i64() casts them, which would keep -5 or 1e20 as "unknown". */
	for (i = 0; i < sizeof(whole) / sizeof(whole[0]); i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, whole[i]);
		char msg[96];

		if (!cJSON_IsNumber(v))
			continue;
		if (!(v->valuedouble >= 0 && v->valuedouble < 9e15))
			snprintf(msg, sizeof(msg), "'%s' is negative or out of range", whole[i]);
		else if (v->valuedouble != floor(v->valuedouble))
			snprintf(msg, sizeof(msg), "'%s' is not a whole number", whole[i]);
		else
			continue;
		import_bad(im, msg);
		return NULL;
	}
	config = bench_config(obj, test);
	if (im->o->engine_version)
		version = tps_xstrdup(im->o->engine_version);
	else if (bc && cJSON_IsNumber(bn) && fabs(bn->valuedouble) < 9e15)
		version = tps_xasprintf("b%lld-%s", (long long)bn->valuedouble, bc);
	else
		version = tps_xstrdup(bc ? bc : "");
	/* The machine is part of the key: rows of two machines are two runs, each
	 * with its own (cpu_info, gpu_info; the backend is in the config). And each
	 * file is a process of its own, one instance of its build, whether one
	 * import names it or several do. */
	key = tps_xasprintf("%s\x1f%s\x1f%s\x1f%s\x1f%s", config, version,
			    obj_str(obj, "cpu_info") ? obj_str(obj, "cpu_info") : "",
			    obj_str(obj, "gpu_info") ? obj_str(obj, "gpu_info") : "",
			    im->file);
	for (i = 0; i < im->nbench; i++) {
		if (!strcmp(im->bench[i]->key, key)) {
			br = im->bench[i];
			goto out;
		}
	}
	br = tps_xcalloc(1, sizeof(*br));
	br->key = key;
	key = NULL;
	run_rec_init(&br->run);
	im->bench = tps_xrealloc(im->bench, (im->nbench + 1) * sizeof(*im->bench));
	im->bench[im->nbench++] = br;
	br->run.engine.version = version;
	version = NULL;
	br->run.config = config;
	config = NULL;
	br->run.cpu = tps_xstrdup(obj_str(obj, "cpu_info"));
	if (!im->o->gpu && obj_str(obj, "gpu_info"))
		br->run.host.gpu = tps_xstrdup(obj_str(obj, "gpu_info"));
	br->run.model_type = tps_xstrdup(obj_str(obj, "model_type"));
	br->run.model_n_params = obj_i64(obj, "model_n_params");
	br->run.model.bytes = obj_i64(obj, "model_size");
	/* The test's own time, so that old results imported as history keep their order. */
	if (tt)
		br->run.started_at = tps_xstrdup(tt);
	if (import_start_run_rec(im, &br->run, &br->run_id, model, "llama-bench") < 0)
		br = NULL;
out:
	free(config);
	free(version);
	free(key);
	return br;
}

/* One llama-bench result object: a pp, tg or pp+tg test, at a depth, with
 * per-repetition samples_ts (tok/s) and samples_ns from -o json/jsonl, or only
 * avg_ts/stddev_ts from -o csv/sql, which becomes one sample flagged
 * aggregate-only. Both passes. */
int import_bench_add(struct importer *im, const cJSON *obj)
{
	const cJSON *ts = cJSON_GetObjectItemCaseSensitive(obj, "samples_ts");
	const cJSON *ns = cJSON_GetObjectItemCaseSensitive(obj, "samples_ns");
	const cJSON *avg = cJSON_GetObjectItemCaseSensitive(obj, "avg_ts");
	const cJSON *avg_ns = cJSON_GetObjectItemCaseSensitive(obj, "avg_ns");
	const cJSON *sd = cJSON_GetObjectItemCaseSensitive(obj, "stddev_ts");
	const cJSON *np = cJSON_GetObjectItemCaseSensitive(obj, "n_prompt");
	const cJSON *ng = cJSON_GetObjectItemCaseSensitive(obj, "n_gen");
	const cJSON *nd = cJSON_GetObjectItemCaseSensitive(obj, "n_depth");
	const char *model = obj_str(obj, "model_filename");
	int aggregate = !ts;
	int64_t n_prompt, n_gen, n_depth = 0;
	char test[96], name[128], key[160], count[65];
	struct bench_run *br;
	int i, n;

	if (!model)
		model = "";
	if ((!cJSON_IsArray(ts) && !(aggregate && cJSON_IsNumber(avg))) ||
	    !cJSON_IsNumber(np) || !cJSON_IsNumber(ng))
		return import_bad(im, "a llama-bench result needs 'samples_ts' (or 'avg_ts'), 'n_prompt' "
			  "and 'n_gen'");
	/* A count beyond RESPONSE_MAX_COUNT is refused below; cast only what fits
	 * (1e999 is inf to cJSON, and casting it is undefined). */
	if (!(fabs(np->valuedouble) < 9e15) || !(fabs(ng->valuedouble) < 9e15) ||
	    (cJSON_IsNumber(nd) && !(fabs(nd->valuedouble) < 9e15)))
		return import_bad(im, "'n_prompt', 'n_gen' or 'n_depth' is out of range");
	/* Counts are whole: 64.5 prompt tokens is a damaged file, not "pp64". */
	if (np->valuedouble != floor(np->valuedouble) || ng->valuedouble != floor(ng->valuedouble) ||
	    (cJSON_IsNumber(nd) && nd->valuedouble != floor(nd->valuedouble)))
		return import_bad(im, "'n_prompt', 'n_gen' or 'n_depth' is not a whole number");
	n_prompt = (int64_t)np->valuedouble;
	n_gen = (int64_t)ng->valuedouble;
	if (cJSON_IsNumber(nd))
		n_depth = (int64_t)nd->valuedouble;
	else if (nd && !cJSON_IsNull(nd))
		return import_bad(im, "'n_depth' is not a number");
	if (n_prompt < 0 || n_gen < 0 || n_prompt > RESPONSE_MAX_COUNT || n_gen > RESPONSE_MAX_COUNT ||
	    n_depth < 0 || n_depth > RESPONSE_MAX_COUNT || (!n_prompt && !n_gen))
		return import_bad(im, "'n_prompt', 'n_gen' or 'n_depth' is out of range");
	if (!im->bench_model)
		im->bench_model = tps_xstrdup(model);
	else if (strcmp(im->bench_model, model))
		return import_bad(im, "llama-bench results for more than one model: import each model's file separately");
	if (n_prompt && n_gen)
		snprintf(test, sizeof(test), "pp%lld+tg%lld", (long long)n_prompt, (long long)n_gen);
	else if (n_prompt)
		snprintf(test, sizeof(test), "pp%lld", (long long)n_prompt);
	else
		snprintf(test, sizeof(test), "tg%lld", (long long)n_gen);
	/* Depth 0 keeps the name llama-bench's table gives the test (and older imports). */
	if (n_depth)
		snprintf(name, sizeof(name), "%s@d%lld", test, (long long)n_depth);
	else
		snprintf(name, sizeof(name), "%s", test);
	if (!(br = bench_run_of(im, obj, name, model)))
		return -1;
	if (!im->file_uuid)
		im->file_uuid = br->run.uuid;
	n = aggregate ? 1 : cJSON_GetArraySize(ts);
	for (i = 0; i < n; i++) {
		const cJSON *t = aggregate ? avg : cJSON_GetArrayItem(ts, i);
		const cJSON *d = aggregate ? avg_ns : cJSON_IsArray(ns) ? cJSON_GetArrayItem(ns, i) : NULL;
		struct sample_rec smp;
		double ms = cJSON_IsNumber(d) ? d->valuedouble / 1e6 : NAN;
		int rc;

		if (!cJSON_IsNumber(t) || !isfinite(t->valuedouble) || t->valuedouble < 0 ||
		    t->valuedouble > RESPONSE_MAX_RATE || (!isnan(ms) && (ms < 0 || ms > RESPONSE_MAX_MS)))
			return import_bad(im, "a 'samples_ts', 'samples_ns' or 'avg_ts' value is negative, not a number or absurd");
		sample_rec_init(&smp);
		smp.prompt_name = tps_xstrdup(name);
		snprintf(key, sizeof(key), "llama-bench:%s", name);
		sha256_hex(key, strlen(key), smp.prompt_hash);
		if (n_prompt && !n_gen) {
			smp.prompt_n = n_prompt;
			smp.prompt_per_second = t->valuedouble;
			smp.prompt_ms = ms;
		} else if (n_gen && !n_prompt) {
			smp.predicted_n = n_gen;
			smp.predicted_per_second = t->valuedouble;
			smp.predicted_ms = ms;
		} else {
			/* A pp+tg test reports one combined rate: neither prefill nor decode. */
			smp.prompt_n = n_prompt;
			smp.predicted_n = n_gen;
			smp.error = tps_xstrdup("combined pp+tg test: no separate prefill or decode rate");
		}
		if (aggregate)
			smp.timings = cJSON_IsNumber(sd) && isfinite(sd->valuedouble) ?
				tps_xasprintf("{\"llama_bench_avg_ts\":%.17g,\"llama_bench_stddev_ts\":%.17g}",
					      t->valuedouble, sd->valuedouble) :
				tps_xasprintf("{\"llama_bench_avg_ts\":%.17g}", t->valuedouble);
		else if (cJSON_IsNumber(avg) && isfinite(avg->valuedouble))
			/* avg_ts too: the number compare-llama-bench.py compares, which
			 * the rounded samples_ts only approximate. */
			smp.timings = tps_xasprintf("{\"llama_bench_ts\":%.17g,\"llama_bench_avg_ts\":%.17g}",
						    t->valuedouble, avg->valuedouble);
		else
			smp.timings = tps_xasprintf("{\"llama_bench_ts\":%.17g}", t->valuedouble);
		smp.cache_n = 0;
		/* Repetitions count within the run, not across the runs of one file. */
		snprintf(key, sizeof(key), "%s:%s", br->run.uuid, smp.prompt_hash);
		sha256_hex(key, strlen(key), count);
		rc = import_sample_write_to(im, &br->run, br->run_id, &smp, count,
				     aggregate ? SAMPLE_AGGREGATE : 0);
		sample_rec_release(&smp);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int import_bench(struct importer *im, const cJSON *obj)
{
	if (import_bench_add(im, obj) < 0)
		return -1;
	import_rec_add(im, KIND_BENCH)->u.bench = obj;
	return 0;
}

/* A file that is not JSON: llama-bench's -o csv or -o sql, or refused with the
 * formats import reads. */
cJSON *import_bench_text(struct importer *im, const struct input *in, const char *first,
			 long **lines)
{
	char err[160], msg[512];
	long errline = 0;
	cJSON *arr;

	arr = llama_bench_text_parse(in->buf, in->len, lines, err, sizeof(err), &errline);
	if (!arr) {
		im->line = errline;
		if (*err)
			snprintf(msg, sizeof(msg), "not a readable llama-bench csv or sql file: %s",
				 err);
		else if (*first == '|')
			snprintf(msg, sizeof(msg), "a markdown table (llama-bench -o md) is not "
				 "importable: import reads " LLAMA_BENCH_FORMATS);
		else
			snprintf(msg, sizeof(msg), "not a format import reads (" LLAMA_BENCH_FORMATS
				 ")");
		import_bad(im, msg);
	}
	return arr;
}
