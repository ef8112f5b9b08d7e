/* import_speed.c: the --output file of llama.cpp's speed_bench.py
 * (tools/server/bench/speed-bench/): one file is one server instance, so one run,
 * and each of its per-request results one sample named by its category. Counts
 * are kept where the file has them, so the rates are record_rate()'s n / t; what
 * the file only averages (its summary) is not read. The checking pass keeps the
 * parsed object (the driver keeps the tree); the writing pass adds it. */
#include "collect/import_int.h"
#include "collect/response.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The members speed_bench.py writes in every result (its RequestResult). */
static const char *const result_members[] = {
	"category", "ok", "turns", "latency_s", "prompt_tokens", "completion_tokens",
	"draft_n", "draft_n_accepted", "prompt_ms", "predicted_ms",
	"prompt_per_second", "predicted_per_second",
};

/* A whole number in [0, RESPONSE_MAX_COUNT], or -1. */
static int64_t whole(const cJSON *v)
{
	if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) ||
	    !(v->valuedouble <= RESPONSE_MAX_COUNT) || v->valuedouble != floor(v->valuedouble))
		return -1;
	return (int64_t)v->valuedouble;
}

/* A number in [0, max] or null (NAN); -1 when it is anything else. */
static int num_or_null(const cJSON *v, double max, double *out)
{
	*out = NAN;
	if (cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) || !(v->valuedouble <= max))
		return -1;
	*out = v->valuedouble;
	return 0;
}

static const cJSON *member(const cJSON *obj, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

/* "results[i]: why" through import_bad(). */
static int bad_result(struct importer *im, int i, const char *why)
{
	char msg[256];

	snprintf(msg, sizeof(msg), "speed-bench results[%d]: %s", i, why);
	return import_bad(im, msg);
}

/* One result into smp: its category the prompt; decode from completion_tokens
 * over predicted_ms (llama-server's usage and timings count the same tokens);
 * prefill only for a one-turn request, whose prompt_per_second is the server's
 * own prompt_n / prompt_ms, so prompt_n comes back from it and the rest of
 * prompt_tokens is what the prompt cache served. A multi-turn request's
 * prompt_per_second is the script's prompt_tokens (every turn's whole prompt)
 * over the prompt_ms of the tokens not cached: no prefill rate, so none is kept. */
static int read_result(struct importer *im, const cJSON *r, int i, struct sample_rec *smp)
{
	const cJSON *cat = member(r, "category"), *ok = member(r, "ok"), *err = member(r, "error");
	const cJSON *fin = member(r, "finish_reason");
	int64_t turns, pt, ct, dn, da;
	double lat, pms, tms, pps, tps;
	char *key, *text;
	size_t k;

	if (!cJSON_IsObject(r))
		return bad_result(im, i, "not a JSON object");
	for (k = 0; k < sizeof(result_members) / sizeof(result_members[0]); k++) {
		if (!member(r, result_members[k])) {
			char why[96];
			snprintf(why, sizeof(why), "no '%s'", result_members[k]);
			return bad_result(im, i, why);
		}
	}
	if (!cJSON_IsString(cat) || !*cat->valuestring)
		return bad_result(im, i, "'category' is not a non-empty string");
	if (!cJSON_IsBool(ok))
		return bad_result(im, i, "'ok' is not true or false");
	if ((turns = whole(member(r, "turns"))) < 1)
		return bad_result(im, i, "'turns' is not a whole number above 0");
	pt = whole(member(r, "prompt_tokens"));
	ct = whole(member(r, "completion_tokens"));
	dn = whole(member(r, "draft_n"));
	da = whole(member(r, "draft_n_accepted"));
	if (pt < 0 || ct < 0 || dn < 0 || da < 0)
		return bad_result(im, i, "a token count ('prompt_tokens', 'completion_tokens', "
				  "'draft_n', 'draft_n_accepted') is not a whole number in range");
	if (da > dn)
		return bad_result(im, i, "'draft_n_accepted' exceeds 'draft_n'");
	if (num_or_null(member(r, "latency_s"), RESPONSE_MAX_MS / 1000, &lat) < 0 ||
	    num_or_null(member(r, "prompt_ms"), RESPONSE_MAX_MS, &pms) < 0 ||
	    num_or_null(member(r, "predicted_ms"), RESPONSE_MAX_MS, &tms) < 0 ||
	    num_or_null(member(r, "prompt_per_second"), RESPONSE_MAX_RATE, &pps) < 0 ||
	    num_or_null(member(r, "predicted_per_second"), RESPONSE_MAX_RATE, &tps) < 0)
		return bad_result(im, i, "a time or rate is negative, not a number or absurd");
	if (err && !cJSON_IsNull(err) && !cJSON_IsString(err))
		return bad_result(im, i, "'error' is not a string or null");

	smp->prompt_name = tps_xstrdup(cat->valuestring);
	key = tps_xasprintf("speed-bench:%s", cat->valuestring);
	sha256_hex(key, strlen(key), smp->prompt_hash);
	free(key);
	smp->wall_ms = isnan(lat) ? NAN : lat * 1000;
	/* The result as the file held it: what no column keeps (id, turns, tokens). */
	if ((text = cJSON_PrintUnformatted(r))) {
		smp->timings = tps_xstrdup(text);
		cJSON_free(text);
	}
	if (!cJSON_IsTrue(ok)) {
		/* A request that failed: a failed sample, its counts the script's zeros. */
		smp->error = tps_xstrdup(cJSON_IsString(err) && *err->valuestring ?
					 err->valuestring : "speed_bench.py: request failed");
		return 0;
	}
	smp->predicted_n = ct;
	smp->predicted_ms = tms;
	smp->predicted_per_second = tps;
	smp->draft_n = dn;
	smp->draft_n_accepted = da;
	if (turns == 1) {
		/* The server's rate is its count over its time, to a double's rounding:
		 * anything further off is no count, and the rate stays the reported one. */
		double x = pps * pms / 1000, n = round(x);
		smp->prompt_ms = pms;
		smp->prompt_per_second = pps;
		if (isfinite(n) && n > 0 && n <= (double)pt && fabs(x - n) < 1e-6 * n + 1e-9) {
			smp->prompt_n = (int64_t)n;
			smp->cache_n = pt - smp->prompt_n;
		}
	}
	if (cJSON_IsString(fin))
		smp->stop_type = tps_xstrdup(!strcmp(fin->valuestring, "length") ? "limit" :
					     !strcmp(fin->valuestring, "stop") ? "eos" :
					     fin->valuestring);
	smp->http_status = 200;
	return 0;
}

/* The results' order for repetitions: by category, then by id, so the k-th
 * request of a category is the same question in two files of the same prompts,
 * whatever order the requests finished in. */
struct order {
	const cJSON *r;
	int at;
};

static const char *str_of(const cJSON *r, const char *key)
{
	const cJSON *v = member(r, key);
	return cJSON_IsString(v) ? v->valuestring : "";
}

static int order_cmp(const void *a, const void *b)
{
	const struct order *x = a, *y = b;
	int c = strcmp(str_of(x->r, "category"), str_of(y->r, "category"));

	if (!c)
		c = strcmp(str_of(x->r, "id"), str_of(y->r, "id"));
	return c ? c : x->at - y->at;
}

/* Both passes: one file, one run. */
int import_speed_add(struct importer *im, const cJSON *obj)
{
	const cJSON *res = member(obj, "results"), *cfg = member(obj, "config"), *it;
	const cJSON *model, *osl, *extra;
	struct order *ord = NULL;
	struct bench_run *br;
	char key[160], count[65];
	int i, n, ret = -1;

	if (!cJSON_IsObject(cfg))
		return import_bad(im, "speed-bench 'config' is not a JSON object");
	if (!cJSON_IsArray(res))
		return import_bad(im, "speed-bench 'results' is not an array");
	if ((n = cJSON_GetArraySize(res)) == 0)
		return import_bad(im, "speed-bench 'results' is empty: holds no results");
	model = member(cfg, "model");
	osl = member(cfg, "osl");
	extra = member(cfg, "extra_inputs");
	if (osl && !cJSON_IsNull(osl) && whole(osl) < 1)
		return import_bad(im, "speed-bench 'config.osl' is not a whole number above 0");

	br = tps_xcalloc(1, sizeof(*br));
	run_rec_init(&br->run);
	im->bench = tps_xrealloc(im->bench, (im->nbench + 1) * sizeof(*im->bench));
	im->bench[im->nbench++] = br;
	if (im->o->n_predict == TPS_NULL && whole(osl) > 0)
		br->run.n_predict = whole(osl);
	if (cJSON_IsObject(extra)) {
		const cJSON *t = member(extra, "temperature"), *e = member(extra, "ignore_eos");
		if (cJSON_IsNumber(t) && isfinite(t->valuedouble))
			br->run.temperature = t->valuedouble;
		if (cJSON_IsBool(e))
			br->run.ignore_eos = cJSON_IsTrue(e);
	}
	if (import_start_run_rec(im, &br->run, &br->run_id,
				 cJSON_IsString(model) ? model->valuestring : NULL,
				 "/v1/chat/completions") < 0)
		goto out;
	if (!im->file_uuid)
		im->file_uuid = br->run.uuid;

	ord = tps_xcalloc((size_t)n, sizeof(*ord));
	i = 0;
	cJSON_ArrayForEach(it, res) {
		ord[i].r = it;
		ord[i].at = i;
		i++;
	}
	qsort(ord, (size_t)n, sizeof(*ord), order_cmp);
	for (i = 0; i < n; i++) {
		struct sample_rec smp;
		int rc;

		sample_rec_init(&smp);
		if (read_result(im, ord[i].r, ord[i].at, &smp) < 0) {
			sample_rec_release(&smp);
			goto out;
		}
		/* The order the server answered them in (with --concurrency 1, the file's). */
		smp.seq = br->run.warmup + ord[i].at;
		snprintf(key, sizeof(key), "%s:%s", br->run.uuid, smp.prompt_hash);
		sha256_hex(key, strlen(key), count);
		rc = import_sample_write_to(im, &br->run, br->run_id, &smp, count, 0);
		sample_rec_release(&smp);
		if (rc < 0)
			goto out;
	}
	ret = 0;
out:
	free(ord);
	return ret;
}

int import_speed(struct importer *im, const cJSON *obj)
{
	if (import_speed_add(im, obj) < 0)
		return -1;
	import_rec_add(im, KIND_SPEED)->u.bench = obj;
	return 0;
}
