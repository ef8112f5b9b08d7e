/* test_response.c: the response reader, which reads the text where it lies, gives
 * what a full parse gives: every field as cJSON decodes it (cJSON is the oracle
 * here), the timings object byte for byte, members only at the top level, and the
 * same error text for each kind of bad field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "collect/response.h"
#include "tpsdb.h"

static void test_response_timings_verbatim(void **state)
{
	/* Odd spacing, an exponent, a brace inside a string, an array, and decoys: a
	 * "timings" key in the generated text and one in a nested object. */
	static const char timings[] =
		"{ \"prompt_n\" : 600, \"prompt_ms\":10.5,\"prompt_per_second\": 5.7142857e4 ,"
		" \"predicted_n\":4, \"predicted_per_second\":1250.0, \"x\":[1,{\"y\":\"}\"}] }";
	char json[1024], err[256];
	struct response r;

	(void)state;
	snprintf(json, sizeof(json),
		 "{\"content\":\"say \\\"timings\\\": {}\",\"generation_settings\":"
		 "{\"timings\":{\"a\":1},\"n_predict\":4},\"prompt\":\"p\",\"timings\":%s,"
		 "\"stop_type\":\"limit\"}", timings);
	response_init(&r);
	assert_int_equal(response_parse(json, strlen(json), &r, err, sizeof(err)), 0);
	assert_string_equal(r.sample.timings, timings);
	assert_int_equal(r.sample.prompt_n, 600);
	assert_float_equal(r.sample.prompt_per_second, 57142.857, 1e-3);
	assert_int_equal(r.n_predict, 4);
	response_release(&r);
}

/* The string member key of obj as cJSON decodes it, or NULL. */
static const char *oracle_str(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double oracle_num(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static void assert_same_str(const char *got, const char *want)
{
	if (!want)
		assert_null(got);
	else
		assert_string_equal(got, want);
}

static void assert_same_num(double got, double want)
{
	if (isnan(want))
		assert_true(isnan(got));
	else
		assert_true(got == want);
}

/* Every field of a /completion response, against cJSON's reading of it. */
static void test_response_matches_cjson(void **state)
{
	static const char *const texts[] = {
		/* Escapes of every kind in the text that is hashed and the prompt. */
		"{\"content\":\"caf\\u00e9 \\ud83d\\ude00 tab\\t quote\\\" slash\\/ back\\\\\","
		"\"prompt\":\"line\\none \\\"two\\\"\",\"model\":\"m\\u002egguf\","
		"\"stop_type\":\"eos\",\"timings\":{\"prompt_n\":1760,\"prompt_ms\":123.456,"
		"\"prompt_per_second\":14256.1,\"predicted_n\":512,\"predicted_ms\":3.2e3,"
		"\"predicted_per_second\":160,\"cache_n\":0,\"draft_n\":30,\"draft_n_accepted\":12},"
		"\"generation_settings\":{\"n_predict\":512,\"seed\":4294967295,"
		"\"temperature\":0.8,\"ignore_eos\":true}}",
		/* Escaped member names are the names they stand for; backslashes before a
		 * closing quote; empty strings; white space everywhere. */
		"  {  \"tim\\u0069ngs\" : { \"predicted_per_second\" : 1E2 } ,"
		" \"content\" : \"ends in a backslash \\\\\" , \"prompt\":\"\" ,"
		" \"generation_settings\" : { \"ignore_eos\" : false , \"n_predict\" : -1 ,"
		" \"temperature\" : null } , \"model\" : \"\\\\\\\"\" }  ",
		/* Nested decoys of every field: only the top level counts. */
		"{\"x\":{\"content\":\"no\",\"prompt\":\"no\",\"timings\":{\"prompt_n\":\"bad\"}},"
		"\"y\":[{\"model\":\"no\"},\"stop_type\"],\"timings\":{\"prompt_per_second\":5},"
		"\"content\":\"yes\",\"prompt\":\"p\"}",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		cJSON *root = cJSON_Parse(texts[i]);
		const cJSON *t, *gs;
		const char *content;
		struct response r;
		char err[256], hex[65];

		assert_non_null(root);
		t = cJSON_GetObjectItemCaseSensitive(root, "timings");
		gs = cJSON_GetObjectItemCaseSensitive(root, "generation_settings");
		response_init(&r);
		assert_int_equal(response_parse(texts[i], strlen(texts[i]), &r, err, sizeof(err)), 0);
		content = oracle_str(root, "content");
		sha256_hex(content, strlen(content), hex);
		assert_string_equal(r.sample.output_hash, hex);
		assert_same_str(r.prompt, oracle_str(root, "prompt"));
		assert_same_str(r.model, oracle_str(root, "model"));
		assert_same_str(r.sample.stop_type, oracle_str(root, "stop_type"));
		assert_string_equal(r.endpoint, "completion");
		assert_same_num(r.sample.prompt_per_second, oracle_num(t, "prompt_per_second"));
		assert_same_num(r.sample.predicted_per_second, oracle_num(t, "predicted_per_second"));
		assert_same_num(r.sample.prompt_ms, oracle_num(t, "prompt_ms"));
		assert_same_num(r.sample.predicted_ms, oracle_num(t, "predicted_ms"));
		assert_same_num(r.sample.prompt_n == TPS_NULL ? NAN : (double)r.sample.prompt_n,
				oracle_num(t, "prompt_n"));
		assert_same_num(r.sample.draft_n_accepted == TPS_NULL ? NAN :
				(double)r.sample.draft_n_accepted, oracle_num(t, "draft_n_accepted"));
		assert_same_num(r.temperature, oracle_num(gs, "temperature"));
		assert_same_num(r.n_predict == TPS_NULL || oracle_num(gs, "n_predict") < 0 ?
				NAN : (double)r.n_predict,
				oracle_num(gs, "n_predict") < 0 ? NAN : oracle_num(gs, "n_predict"));
		assert_same_num(r.seed == TPS_NULL ? NAN : (double)r.seed, oracle_num(gs, "seed"));
		if (cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(gs, "ignore_eos")))
			assert_int_equal(r.ignore_eos,
					 cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(gs, "ignore_eos")));
		else
			assert_int_equal(r.ignore_eos, -1);
		response_release(&r);
		cJSON_Delete(root);
	}
}

/* Escaped quotes and runs of backslashes at every offset of a string, across the
 * point where the reader stops scanning bytes one by one and calls memchr(): the
 * string ends where cJSON says it does. */
static void test_response_escapes_at_every_offset(void **state)
{
	static const char *const runs[] = { "\\\"", "\\\\", "\\\\\\\"", "\\u0022" };
	size_t off, r;

	(void)state;
	for (r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		for (off = 0; off < 64; off++) {
			char json[512], body[200], err[256], hex[65];
			struct response resp;
			cJSON *root;
			const char *want;

			memset(body, 'a', off);
			snprintf(body + off, sizeof(body) - off, "%s}\\\"timings\\\":z", runs[r]);
			snprintf(json, sizeof(json), "{\"content\":\"%s\",\"prompt\":\"%s\","
				 "\"timings\":{\"prompt_per_second\":%zu}}", body, body, off + 1);
			root = cJSON_Parse(json);
			assert_non_null(root);
			want = cJSON_GetObjectItemCaseSensitive(root, "content")->valuestring;
			response_init(&resp);
			assert_int_equal(response_parse(json, strlen(json), &resp, err, sizeof(err)), 0);
			sha256_hex(want, strlen(want), hex);
			assert_string_equal(resp.sample.output_hash, hex);
			assert_string_equal(resp.prompt, want);
			assert_true(resp.sample.prompt_per_second == (double)(off + 1));
			response_release(&resp);
			cJSON_Delete(root);
		}
	}
}

/* The chat route: the first choice's message, else its text; finish_reason
 * "length" is a limit, anything else an EOS. */
static void test_response_chat(void **state)
{
	static const char msg[] = "{\"choices\":[{\"message\":{\"content\":\"hi \\u00e9\"},"
				  "\"finish_reason\":\"length\"},{\"message\":{\"content\":\"no\"}}],"
				  "\"timings\":{\"predicted_per_second\":10}}";
	static const char txt[] = "{\"choices\":[ {\"text\":\"plain\",\"finish_reason\":\"stop\"} ],"
				  "\"timings\":{\"predicted_per_second\":10}}";
	struct response r;
	char err[256], hex[65];

	(void)state;
	response_init(&r);
	assert_int_equal(response_parse(msg, strlen(msg), &r, err, sizeof(err)), 0);
	assert_string_equal(r.endpoint, "chat");
	sha256_hex("hi \xc3\xa9", 5, hex);
	assert_string_equal(r.sample.output_hash, hex);
	assert_string_equal(r.sample.stop_type, "limit");
	response_release(&r);
	assert_int_equal(response_parse(txt, strlen(txt), &r, err, sizeof(err)), 0);
	sha256_hex("plain", 5, hex);
	assert_string_equal(r.sample.output_hash, hex);
	assert_string_equal(r.sample.stop_type, "eos");
	response_release(&r);
}

/* Each bad field gives its one error text. */
static void test_response_errors(void **state)
{
	static const struct { const char *json, *err; } t[] = {
		{ "[1]", "not a JSON object" },
		{ "{\"content\":\"x\"}", "no 'timings' block" },
		{ "{\"error\":{\"code\":503,\"message\":\"Loading \\\"model\\\"\"}}",
		  "no 'timings' block: the server answered an error: Loading \"model\"" },
		{ "{\"timings\":[1]}", "'timings' is not an object" },
		{ "{\"timings\":{\"prompt_n\":\"600\",\"prompt_per_second\":1}}",
		  "'prompt_n' is not a number" },
		{ "{\"timings\":{\"prompt_n\":true,\"prompt_per_second\":1}}",
		  "'prompt_n' is not a number" },
		{ "{\"timings\":{\"prompt_ms\":-1,\"prompt_per_second\":1}}",
		  "'prompt_ms' is negative or not finite (-1)" },
		{ "{\"timings\":{\"prompt_per_second\":1e999}}",
		  "'prompt_per_second' is negative or not finite (inf)" },
		{ "{\"timings\":{\"predicted_n\":1.5,\"predicted_per_second\":1}}",
		  "'predicted_n' is not a whole number (1.5)" },
		{ "{\"timings\":{\"prompt_n\":null,\"cache_n\":null}}",
		  "'timings' has neither prompt_per_second nor predicted_per_second" },
		{ "{\"timings\":{\"draft_n\":2,\"draft_n_accepted\":3,\"predicted_per_second\":1}}",
		  "'draft_n_accepted' (3) exceeds 'draft_n' (2)" },
		{ "{\"timings\":{\"prompt_per_second\":1,}}", "not valid JSON" },
	};
	struct response r;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		response_init(&r);
		assert_int_equal(response_parse(t[i].json, strlen(t[i].json), &r, err, sizeof(err)),
				 -1);
		assert_string_equal(err, t[i].err);
		response_release(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_response_timings_verbatim),
		cmocka_unit_test(test_response_matches_cjson),
		cmocka_unit_test(test_response_escapes_at_every_offset),
		cmocka_unit_test(test_response_chat),
		cmocka_unit_test(test_response_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
