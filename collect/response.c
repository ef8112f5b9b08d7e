/* response.c: turns a llama-server response into a sample_rec. Both routes carry
 * the same `timings` object; /completion also echoes the prompt and its generation
 * settings, /v1/chat/completions puts the text under choices[0].message. The text
 * is read where it lies (schema/json_span.h), once json_strict_check() accepted
 * it: no tree, and the timings kept byte for byte. */
#include "collect/response.h"
#include "collect/repeat.h"
#include "schema/json_span.h"
#include "schema/json_strict.h"
#include "tpsdb.h"

#include <math.h>
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

/* A number field v (named key): absent or null leaves *out alone. Refuses other
 * types and values outside [0, max]. */
static int get_num(struct json_span v, const char *key, double max, double *out, char *err,
		   size_t errlen)
{
	enum json_type t = json_span_type(v);
	double d;

	if (t == JSON_ABSENT || t == JSON_NULL)
		return 0;
	if (t != JSON_NUMBER)
		return tps_fail(err, errlen, "'%s' is not a number", key);
	d = json_span_number(v);
	if (!isfinite(d) || d < 0)
		return tps_fail(err, errlen, "'%s' is negative or not finite (%g)", key, d);
	if (d > max)
		return tps_fail(err, errlen, "'%s' is absurd (%g)", key, d);
	*out = d;
	return 0;
}

static int get_count(struct json_span v, const char *key, int64_t *out, char *err,
		     size_t errlen)
{
	double d = NAN;

	if (get_num(v, key, RESPONSE_MAX_COUNT, &d, err, errlen) < 0)
		return -1;
	if (isnan(d))
		return 0;
	if (d != floor(d))
		return tps_fail(err, errlen, "'%s' is not a whole number (%g)", key, d);
	*out = (int64_t)d;
	return 0;
}

/* The member key of object obj. */
static struct json_span member(struct json_span obj, const char *key)
{
	struct json_span v;

	json_span_members(obj, &key, 1, &v);
	return v;
}

enum { T_CACHE_N, T_PROMPT_N, T_PROMPT_MS, T_PROMPT_PS, T_PREDICTED_N, T_PREDICTED_MS,
       T_PREDICTED_PS, T_DRAFT_N, T_DRAFT_ACCEPTED, T_N };

static int parse_timings(struct json_span t, struct sample_rec *s, char *err, size_t errlen)
{
	static const char *const keys[T_N] = {
		"cache_n", "prompt_n", "prompt_ms", "prompt_per_second", "predicted_n",
		"predicted_ms", "predicted_per_second", "draft_n", "draft_n_accepted",
	};
	struct json_span m[T_N];

	json_span_members(t, keys, T_N, m);
	if (get_count(m[T_CACHE_N], keys[T_CACHE_N], &s->cache_n, err, errlen) < 0 ||
	    get_count(m[T_PROMPT_N], keys[T_PROMPT_N], &s->prompt_n, err, errlen) < 0 ||
	    get_num(m[T_PROMPT_MS], keys[T_PROMPT_MS], RESPONSE_MAX_MS, &s->prompt_ms, err,
		    errlen) < 0 ||
	    get_num(m[T_PROMPT_PS], keys[T_PROMPT_PS], RESPONSE_MAX_RATE, &s->prompt_per_second,
		    err, errlen) < 0 ||
	    get_count(m[T_PREDICTED_N], keys[T_PREDICTED_N], &s->predicted_n, err, errlen) < 0 ||
	    get_num(m[T_PREDICTED_MS], keys[T_PREDICTED_MS], RESPONSE_MAX_MS, &s->predicted_ms,
		    err, errlen) < 0 ||
	    get_num(m[T_PREDICTED_PS], keys[T_PREDICTED_PS], RESPONSE_MAX_RATE,
		    &s->predicted_per_second, err, errlen) < 0 ||
	    get_count(m[T_DRAFT_N], keys[T_DRAFT_N], &s->draft_n, err, errlen) < 0 ||
	    get_count(m[T_DRAFT_ACCEPTED], keys[T_DRAFT_ACCEPTED], &s->draft_n_accepted, err,
		      errlen) < 0)
		return -1;
	/* A rate from the counts (schema/record.h) or the engine's own: one is needed. */
	if (isnan(record_pp_rate(s)) && isnan(record_tg_rate(s)))
		return tps_fail(err, errlen, "'timings' has neither prompt_per_second nor "
				"predicted_per_second");
	if (record_pp_rate(s) > RESPONSE_MAX_RATE || record_tg_rate(s) > RESPONSE_MAX_RATE)
		return tps_fail(err, errlen, "'timings' gives a rate above %g (tokens over "
				"milliseconds)", RESPONSE_MAX_RATE);
	if (s->draft_n != TPS_NULL && s->draft_n_accepted != TPS_NULL &&
	    s->draft_n_accepted > s->draft_n)
		return tps_fail(err, errlen, "'draft_n_accepted' (%lld) exceeds 'draft_n' (%lld)",
				(long long)s->draft_n_accepted, (long long)s->draft_n);
	return 0;
}

/* The generated text (owned, *len set): /completion's "content", or the chat
 * route's first choice (choices an array), whose message or text it is. */
static char *output_text(struct json_span content, struct json_span choices,
			 const char **endpoint, size_t *len)
{
	if (json_span_type(choices) == JSON_ARRAY) {
		struct json_span c0 = json_span_first(choices);
		char *text = json_span_string(member(member(c0, "message"), "content"), len);
		*endpoint = "chat";
		return text ? text : json_span_string(member(c0, "text"), len);
	}
	*endpoint = "completion";
	return json_span_string(content, len);
}

enum { R_TIMINGS, R_ERROR, R_CHOICES, R_CONTENT, R_STOP_TYPE, R_PROMPT, R_MODEL, R_GS };
enum { G_IGNORE_EOS, G_N_PREDICT, G_SEED, G_TEMPERATURE, G_N };

const char *const response_members[RESPONSE_N_MEMBERS] = {
	"timings", "error", "choices", "content", "stop_type", "prompt", "model",
	"generation_settings",
};

int response_from_checked(const char *json, size_t len, struct response *out, char *err,
			  size_t errlen)
{
	struct json_span root = json_span_of(json, len), m[RESPONSE_N_MEMBERS];

	if (json_span_type(root) != JSON_OBJECT)
		return tps_fail(err, errlen, "not a JSON object");
	json_span_members(root, response_members, RESPONSE_N_MEMBERS, m);
	return response_from_members(m, out, err, errlen);
}

int response_from_members(const struct json_span *m, struct response *out, char *err,
			  size_t errlen)
{
	static const char *const gkeys[G_N] = { "ignore_eos", "n_predict", "seed", "temperature" };
	struct json_span g[G_N], t;
	char hex[65], *text = NULL, *stop;
	size_t tlen;
	int ret = -1;

	t = m[R_TIMINGS];
	if (json_span_type(t) == JSON_ABSENT) {
		char *msg = json_span_string(member(m[R_ERROR], "message"), NULL);
		if (msg)
			tps_fail(err, errlen,
				 "no 'timings' block: the server answered an error: %s", msg);
		else
			tps_fail(err, errlen, "no 'timings' block");
		free(msg);
		goto out;
	}
	if (json_span_type(t) != JSON_OBJECT) {
		tps_fail(err, errlen, "'timings' is not an object");
		goto out;
	}
	if (parse_timings(t, &out->sample, err, errlen) < 0)
		goto out;
	out->sample.timings = tps_xstrndup(t.p, t.n);
	if ((text = output_text(m[R_CONTENT], m[R_CHOICES], &out->endpoint, &tlen))) {
		sha256_hex(text, tlen, hex);
		out->sample.output_hash = tps_xstrdup(hex);
		out->sample.repeat_share = repeat_share(text, tlen);
	}
	if ((stop = json_span_string(m[R_STOP_TYPE], NULL))) {
		out->sample.stop_type = stop;
	} else if (!strcmp(out->endpoint, "chat")) {
		struct json_span c0 = json_span_first(m[R_CHOICES]);
		char *fr = json_span_string(member(c0, "finish_reason"), NULL);
		/* OpenAI's "length" is llama-server's "limit"; "stop" is an EOS or word. */
		if (fr)
			out->sample.stop_type = tps_xstrdup(!strcmp(fr, "length") ? "limit" : "eos");
		free(fr);
	}
	out->prompt = json_span_string(m[R_PROMPT], NULL);
	out->model = json_span_string(m[R_MODEL], NULL);
	json_span_members(m[R_GS], gkeys, G_N, g);
	if (json_span_type(g[G_IGNORE_EOS]) == JSON_TRUE ||
	    json_span_type(g[G_IGNORE_EOS]) == JSON_FALSE)
		out->ignore_eos = json_span_type(g[G_IGNORE_EOS]) == JSON_TRUE;
	if (json_span_type(g[G_N_PREDICT]) == JSON_NUMBER) {
		double d = json_span_number(g[G_N_PREDICT]);
		/* -1 means "until EOS or context end": no request to compare with. */
		if (d >= 0 && d < RESPONSE_MAX_COUNT)
			out->n_predict = (int64_t)d;
	}
	if (json_span_type(g[G_SEED]) == JSON_NUMBER) {
		double d = json_span_number(g[G_SEED]);
		if (d >= 0 && d < 9e18)
			out->seed = (int64_t)d;
	}
	if (json_span_type(g[G_TEMPERATURE]) == JSON_NUMBER &&
	    isfinite(json_span_number(g[G_TEMPERATURE])))
		out->temperature = json_span_number(g[G_TEMPERATURE]);
	out->sample.http_status = 200;
	ret = 0;
out:
	free(text);
	return ret;
}

int response_parse(const char *json, size_t len, struct response *out, char *err,
		   size_t errlen)
{
	char why[96];
	size_t at;

	/* The bytes must be RFC 8259 first (schema/json_strict.h). The message stays
	 * "not valid JSON" without the detail: it is stored as the sample's error, and
	 * one server fault should give one error text. */
	if (json_strict_check(json, len, &at, why, sizeof(why)) < 0)
		return tps_fail(err, errlen, "not valid JSON");
	return response_from_checked(json, len, out, err, errlen);
}
