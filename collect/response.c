/* response.c: turns a llama-server response into a sample_rec. Both routes carry
 * the same `timings` object; /completion also echoes the prompt and its generation
 * settings, /v1/chat/completions puts the text under choices[0].message. The cJSON
 * tree never leaves this file's functions. */
#include "collect/response.h"
#include "collect/repeat.h"
#include "schema/json_strict.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void response_init(struct response *r)
{
	memset(r, 0, sizeof(*r));
	sample_rec_init(&r->sample);
	r->n_predict = r->seed = TPS_NULL;
	r->ignore_eos = -1;
	r->temperature = NAN;
}

void response_release(struct response *r)
{
	if (!r)
		return;
	sample_rec_release(&r->sample);
	free(r->prompt);
	free(r->model);
	response_init(r);
}

/* A number field of obj: absent or null leaves *out alone. Refuses other types and
 * values outside [0, max]. */
static int get_num(const cJSON *obj, const char *key, double max, double *out, char *err,
		   size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsNumber(v))
		return tps_fail(err, errlen, "'%s' is not a number", key);
	if (!isfinite(v->valuedouble) || v->valuedouble < 0)
		return tps_fail(err, errlen, "'%s' is negative or not finite (%g)", key,
				v->valuedouble);
	if (v->valuedouble > max)
		return tps_fail(err, errlen, "'%s' is absurd (%g)", key, v->valuedouble);
	*out = v->valuedouble;
	return 0;
}

static int get_count(const cJSON *obj, const char *key, int64_t *out, char *err,
		     size_t errlen)
{
	double d = NAN;

	if (get_num(obj, key, RESPONSE_MAX_COUNT, &d, err, errlen) < 0)
		return -1;
	if (isnan(d))
		return 0;
	if (d != floor(d))
		return tps_fail(err, errlen, "'%s' is not a whole number (%g)", key, d);
	*out = (int64_t)d;
	return 0;
}

static const char *get_str(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int parse_timings(const cJSON *t, struct sample_rec *s, char *err, size_t errlen)
{
	if (get_count(t, "cache_n", &s->cache_n, err, errlen) < 0 ||
	    get_count(t, "prompt_n", &s->prompt_n, err, errlen) < 0 ||
	    get_num(t, "prompt_ms", RESPONSE_MAX_MS, &s->prompt_ms, err, errlen) < 0 ||
	    get_num(t, "prompt_per_second", RESPONSE_MAX_RATE, &s->prompt_per_second, err,
		    errlen) < 0 ||
	    get_count(t, "predicted_n", &s->predicted_n, err, errlen) < 0 ||
	    get_num(t, "predicted_ms", RESPONSE_MAX_MS, &s->predicted_ms, err, errlen) < 0 ||
	    get_num(t, "predicted_per_second", RESPONSE_MAX_RATE, &s->predicted_per_second,
		    err, errlen) < 0 ||
	    get_count(t, "draft_n", &s->draft_n, err, errlen) < 0 ||
	    get_count(t, "draft_n_accepted", &s->draft_n_accepted, err, errlen) < 0)
		return -1;
	if (isnan(s->prompt_per_second) && isnan(s->predicted_per_second))
		return tps_fail(err, errlen, "'timings' has neither prompt_per_second nor "
				"predicted_per_second");
	if (s->draft_n != TPS_NULL && s->draft_n_accepted != TPS_NULL &&
	    s->draft_n_accepted > s->draft_n)
		return tps_fail(err, errlen, "'draft_n_accepted' (%lld) exceeds 'draft_n' (%lld)",
				(long long)s->draft_n_accepted, (long long)s->draft_n);
	return 0;
}

/* The generated text: /completion's "content", or the chat route's first choice. */
static const char *output_text(const cJSON *root, const char **endpoint)
{
	const cJSON *choices = cJSON_GetObjectItemCaseSensitive(root, "choices");

	if (cJSON_IsArray(choices)) {
		const cJSON *c0 = cJSON_GetArrayItem(choices, 0);
		const cJSON *msg = cJSON_GetObjectItemCaseSensitive(c0, "message");
		*endpoint = "chat";
		if (get_str(msg, "content"))
			return get_str(msg, "content");
		return get_str(c0, "text");
	}
	*endpoint = "completion";
	return get_str(root, "content");
}

/* Skips the string that opens at json[i] ('"'); returns the index after its closing
 * quote, or len when it is not closed. */
static size_t skip_string(const char *json, size_t len, size_t i)
{
	for (i++; i < len && json[i] != '"'; i++) {
		if (json[i] == '\\')
			i++;
	}
	return i < len ? i + 1 : len;
}

/* The text of the top-level member key's object value in json (already known to be
 * valid JSON), or NULL when there is none. A key is only recognised one level deep,
 * so a "timings" inside generated content or a nested object never matches. */
static const char *raw_member(const char *json, size_t len, const char *key, size_t *n)
{
	size_t i = 0, klen = strlen(key);
	int depth = 0;

	while (i < len) {
		char c = json[i];
		if (c == '"') {
			size_t start = i + 1, end = skip_string(json, len, i), j = end;
			if (depth != 1 || end - start - 1 != klen || memcmp(json + start, key, klen)) {
				i = end;
				continue;
			}
			while (j < len && isspace((unsigned char)json[j]))
				j++;
			if (j >= len || json[j] != ':') {
				i = end;
				continue;
			}
			for (j++; j < len && isspace((unsigned char)json[j]); j++)
				;
			if (j < len && json[j] == '{') {
				size_t v = j;
				int d = 0;
				while (j < len) {
					if (json[j] == '"') {
						j = skip_string(json, len, j);
						continue;
					}
					if (json[j] == '{')
						d++;
					else if (json[j] == '}' && --d == 0) {
						*n = j - v + 1;
						return json + v;
					}
					j++;
				}
			}
			return NULL;
		}
		if (c == '{' || c == '[')
			depth++;
		else if (c == '}' || c == ']')
			depth--;
		i++;
	}
	return NULL;
}

int response_from_json(const cJSON *root, const char *json, size_t len, struct response *out,
		       char *err, size_t errlen)
{
	const cJSON *t, *gs;
	const char *text, *stop, *verbatim = NULL;
	size_t vlen = 0;
	char *raw = NULL;
	char hex[65];
	int ret = -1;

	if (!cJSON_IsObject(root)) {
		tps_fail(err, errlen, "not a JSON object");
		goto out;
	}
	t = cJSON_GetObjectItemCaseSensitive(root, "timings");
	if (!t) {
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, "error");
		const char *msg = get_str(e, "message");
		if (msg)
			tps_fail(err, errlen,
				 "no 'timings' block: the server answered an error: %s", msg);
		else
			tps_fail(err, errlen, "no 'timings' block");
		goto out;
	}
	if (!cJSON_IsObject(t)) {
		tps_fail(err, errlen, "'timings' is not an object");
		goto out;
	}
	if (parse_timings(t, &out->sample, err, errlen) < 0)
		goto out;
	if (json)
		verbatim = raw_member(json, len, "timings", &vlen);
	if (verbatim) {
		out->sample.timings = tps_xstrndup(verbatim, vlen);
	} else {
		raw = cJSON_PrintUnformatted(t);
		if (!raw) {
			tps_fail(err, errlen, "out of memory");
			goto out;
		}
		out->sample.timings = tps_xstrdup(raw);
	}
	text = output_text(root, &out->endpoint);
	if (text) {
		sha256_hex(text, strlen(text), hex);
		out->sample.output_hash = tps_xstrdup(hex);
		out->sample.repeat_share = repeat_share(text, strlen(text));
	}
	if ((stop = get_str(root, "stop_type")))
		out->sample.stop_type = tps_xstrdup(stop);
	else if (!strcmp(out->endpoint, "chat")) {
		const cJSON *c0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "choices"), 0);
		const char *fr = get_str(c0, "finish_reason");
		/* OpenAI's "length" is llama-server's "limit"; "stop" is an EOS or word. */
		if (fr)
			out->sample.stop_type = tps_xstrdup(!strcmp(fr, "length") ? "limit" : "eos");
	}
	out->prompt = tps_xstrdup(get_str(root, "prompt"));
	out->model = tps_xstrdup(get_str(root, "model"));
	gs = cJSON_GetObjectItemCaseSensitive(root, "generation_settings");
	if (cJSON_IsObject(gs)) {
		const cJSON *ie = cJSON_GetObjectItemCaseSensitive(gs, "ignore_eos");
		const cJSON *np = cJSON_GetObjectItemCaseSensitive(gs, "n_predict");
		const cJSON *sd = cJSON_GetObjectItemCaseSensitive(gs, "seed");
		const cJSON *tp = cJSON_GetObjectItemCaseSensitive(gs, "temperature");
		if (cJSON_IsBool(ie))
			out->ignore_eos = cJSON_IsTrue(ie);
		/* -1 means "until EOS or context end": no request to compare with. */
		if (cJSON_IsNumber(np) && np->valuedouble >= 0 && np->valuedouble < RESPONSE_MAX_COUNT)
			out->n_predict = (int64_t)np->valuedouble;
		if (cJSON_IsNumber(sd) && sd->valuedouble >= 0 && sd->valuedouble < 9e18)
			out->seed = (int64_t)sd->valuedouble;
		if (cJSON_IsNumber(tp) && isfinite(tp->valuedouble))
			out->temperature = tp->valuedouble;
	}
	out->sample.http_status = 200;
	ret = 0;
out:
	cJSON_free(raw);
	return ret;
}

int response_parse(const char *json, size_t len, struct response *out, char *err,
		   size_t errlen)
{
	cJSON *root;
	char why[96];
	size_t at;
	int ret;

	/* cJSON is lenient; the bytes must be RFC 8259 first (schema/json_strict.h). The
	 * message stays "not valid JSON" without the detail: it is stored as the
	 * sample's error, and one server fault should give one error text. */
	if (json_strict_check(json, len, &at, why, sizeof(why)) < 0)
		return tps_fail(err, errlen, "not valid JSON");
	if (!(root = cJSON_ParseWithLength(json, len)))
		return tps_fail(err, errlen, "out of memory parsing JSON");
	ret = response_from_json(root, json, len, out, err, errlen);
	cJSON_Delete(root);
	return ret;
}
