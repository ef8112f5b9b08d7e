/* test_record_json.c: the export line codec. Every run and sample field survives
 * write then read, absent values (NULL strings, TPS_NULL, NaN) travel as JSON null,
 * the raw timings object is embedded as an object and comes back byte for byte, and
 * malformed lines are refused with a message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "schema/json_strict.h"
#include "schema/record_check.h"
#include "schema/record_json.h"
#include "tpsdb.h"

#define UUID "0f0e0d0c-0b0a-4009-8807-060504030201"

static void full_run(struct run_rec *r)
{
	run_rec_init(r);
	snprintf(r->uuid, sizeof(r->uuid), "%s", UUID);
	r->started_at = tps_xstrdup("2026-01-02T03:04:05.678Z");
	r->ended_at = tps_xstrdup("2026-01-02T03:09:05.000Z");
	r->status = tps_xstrdup("partial");
	r->source = tps_xstrdup("collect");
	r->host.name = tps_xstrdup("gpu-a");
	r->host.gpu = tps_xstrdup("NVIDIA H200");
	r->host.driver = tps_xstrdup("570.86.15");
	r->host.cuda = tps_xstrdup("12.8");
	r->engine.label = tps_xstrdup("ours");
	r->engine.role = tps_xstrdup("ours");
	r->engine.version = tps_xstrdup("b9859-abc");
	r->engine.sha256 = tps_xstrdup("e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1");
	r->model.label = tps_xstrdup("q35");
	r->model.file = tps_xstrdup("q35-Q4_K_M.gguf");
	r->model.bytes = 20123456789LL;
	r->model.sha256 = tps_xstrdup("ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12");
	r->model.quant = tps_xstrdup("Q4_K_M");
	r->ctx = 32768;
	r->n_predict = 512;
	r->n_max = 8;
	r->seed = 42;
	r->warmup = 2;
	r->ignore_eos = 1;
	r->temperature = 0.7;
	r->endpoint = tps_xstrdup("chat");
	r->spec_type = tps_xstrdup("draft-simple");
	r->drafter = tps_xstrdup("q35-0.5b.gguf");
	r->extra_args = tps_xstrdup("-fa on --threads 8");
	r->tag = tps_xstrdup("b9859, \"quoted\"\nsecond line \xc3\xa9");
	r->notes = tps_xstrdup("tab\there");
	r->load_error = tps_xstrdup("error: out of memory\nlast line");
	r->log_path = tps_xstrdup("/var/log/x.log");
	r->prompt_set = tps_xstrdup("ffee");
	r->looks_to = 6;
	r->looks_metric = tps_xstrdup("tg");
}

static void full_sample(struct sample_rec *s, int i)
{
	sample_rec_init(s);
	s->prompt_name = tps_xasprintf("prompt-%d", i);
	sha256_hex(s->prompt_name, strlen(s->prompt_name), s->prompt_hash);
	s->rep = 3 + i;
	s->seq = 10 + i;
	s->cache_n = 0;
	s->prompt_n = 1802;
	s->prompt_ms = 33.749;
	s->prompt_per_second = 53394.17464221161;
	s->predicted_n = 512;
	s->predicted_ms = 331.604;
	s->predicted_per_second = 1540.9946804019253;
	s->draft_n = 468;
	s->draft_n_accepted = 452;
	s->wall_ms = 371.25;
	s->http_status = 200;
	s->error = tps_xstrdup("none really");
	s->stop_type = tps_xstrdup("limit");
	s->output_hash = tps_xstrdup("0dfa0dfa0dfa0dfa0dfa0dfa0dfa0dfa0dfa0dfa0dfa0dfa0dfa0dfa0dfa0dfa");
	s->timings = tps_xstrdup("{\"cache_n\":0,\"prompt_n\":1802,\"prompt_ms\":33.749,"
				 "\"future_field\":[1,2,{\"x\":null}],\"predicted_n\":512}");
	s->flags = SAMPLE_TRUNCATED | SAMPLE_COLD;
}

static void assert_str_eq(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void assert_dbl_eq(double a, double b)
{
	if (isnan(a) || isnan(b))
		assert_true(isnan(a) && isnan(b));
	else
		assert_true(a == b); /* exact: the codec must not lose bits */
}

static void assert_runs_equal(const struct run_rec *a, const struct run_rec *b)
{
	assert_string_equal(a->uuid, b->uuid);
	assert_str_eq(a->started_at, b->started_at);
	assert_str_eq(a->ended_at, b->ended_at);
	assert_str_eq(a->status, b->status);
	assert_str_eq(a->source, b->source);
	assert_str_eq(a->host.name, b->host.name);
	assert_str_eq(a->host.gpu, b->host.gpu);
	assert_str_eq(a->host.driver, b->host.driver);
	assert_str_eq(a->host.cuda, b->host.cuda);
	assert_str_eq(a->engine.label, b->engine.label);
	assert_str_eq(a->engine.role, b->engine.role);
	assert_str_eq(a->engine.version, b->engine.version);
	assert_str_eq(a->engine.sha256, b->engine.sha256);
	assert_str_eq(a->model.label, b->model.label);
	assert_str_eq(a->model.file, b->model.file);
	assert_true(a->model.bytes == b->model.bytes);
	assert_true(a->looks_to == b->looks_to);
	assert_str_eq(a->looks_metric, b->looks_metric);
	assert_str_eq(a->model.sha256, b->model.sha256);
	assert_str_eq(a->model.quant, b->model.quant);
	assert_true(a->ctx == b->ctx);
	assert_true(a->n_predict == b->n_predict);
	assert_true(a->n_max == b->n_max);
	assert_true(a->seed == b->seed);
	assert_true(a->warmup == b->warmup);
	assert_int_equal(a->ignore_eos, b->ignore_eos);
	assert_dbl_eq(a->temperature, b->temperature);
	assert_str_eq(a->endpoint, b->endpoint);
	assert_str_eq(a->spec_type, b->spec_type);
	assert_str_eq(a->drafter, b->drafter);
	assert_str_eq(a->extra_args, b->extra_args);
	assert_str_eq(a->tag, b->tag);
	assert_str_eq(a->notes, b->notes);
	assert_str_eq(a->load_error, b->load_error);
	assert_str_eq(a->log_path, b->log_path);
	assert_str_eq(a->prompt_set, b->prompt_set);
}

static void assert_samples_equal(const struct sample_rec *a, const struct sample_rec *b)
{
	assert_str_eq(a->prompt_name, b->prompt_name);
	assert_string_equal(a->prompt_hash, b->prompt_hash);
	assert_true(a->rep == b->rep);
	assert_true(a->seq == b->seq);
	assert_true(a->cache_n == b->cache_n);
	assert_true(a->prompt_n == b->prompt_n);
	assert_dbl_eq(a->prompt_ms, b->prompt_ms);
	assert_dbl_eq(a->prompt_per_second, b->prompt_per_second);
	assert_true(a->predicted_n == b->predicted_n);
	assert_dbl_eq(a->predicted_ms, b->predicted_ms);
	assert_dbl_eq(a->predicted_per_second, b->predicted_per_second);
	assert_true(a->draft_n == b->draft_n);
	assert_true(a->draft_n_accepted == b->draft_n_accepted);
	assert_dbl_eq(a->wall_ms, b->wall_ms);
	assert_true(a->http_status == b->http_status);
	assert_str_eq(a->error, b->error);
	assert_str_eq(a->stop_type, b->stop_type);
	assert_str_eq(a->output_hash, b->output_hash);
	assert_str_eq(a->timings, b->timings);
	assert_int_equal(a->flags, b->flags);
}

/* write -> parse -> read -> write again; returns the first line (caller frees). */
static char *round_trip(const struct run_rec *r, const struct sample_rec *s, size_t n)
{
	char *line = record_json_write(r, s, n), *again, err[256] = "";
	cJSON *root = cJSON_Parse(line);
	struct run_rec back;
	struct sample_rec *bs = NULL;
	size_t bn = 0, i;

	assert_non_null(line);
	assert_null(strchr(line, '\n')); /* one line, whatever the strings hold */
	assert_non_null(root);
	run_rec_init(&back);
	assert_int_equal(record_json_read(root, &back, &bs, &bn, err, sizeof(err)), 0);
	assert_int_equal(bn, n);
	assert_runs_equal(r, &back);
	for (i = 0; i < n; i++)
		assert_samples_equal(&s[i], &bs[i]);
	again = record_json_write(&back, bs, bn);
	assert_string_equal(line, again);
	free(again);
	for (i = 0; i < bn; i++)
		sample_rec_release(&bs[i]);
	free(bs);
	run_rec_release(&back);
	cJSON_Delete(root);
	return line;
}

static void test_record_json_every_field(void **state)
{
	struct run_rec r;
	struct sample_rec s[2];
	char *line;

	(void)state;
	full_run(&r);
	full_sample(&s[0], 0);
	full_sample(&s[1], 1);
	line = round_trip(&r, s, 2);
	assert_non_null(strstr(line, "\"tpsdb_run\":1"));
	free(line);
	sample_rec_release(&s[0]);
	sample_rec_release(&s[1]);
	run_rec_release(&r);
}

static void test_record_json_nulls(void **state)
{
	static const char *const null_keys[] = {
		"\"ended_at\":null", "\"status\":null", "\"gpu\":null", "\"bytes\":null",
		"\"ctx\":null", "\"n_predict\":null", "\"ignore_eos\":null",
		"\"temperature\":null", "\"seed\":null", "\"n_max\":null", "\"warmup\":null",
		"\"load_error\":null", "\"seq\":null", "\"cache_n\":null", "\"prompt_ms\":null",
		"\"predicted_per_second\":null", "\"draft_n\":null", "\"wall_ms\":null",
		"\"http_status\":null", "\"error\":null", "\"timings\":null",
	};
	struct run_rec r;
	struct sample_rec s;
	char *line;
	size_t i;

	(void)state;
	run_rec_init(&r);
	snprintf(r.uuid, sizeof(r.uuid), "%s", UUID);
	r.started_at = tps_xstrdup("2026-01-01T00:00:00.000Z");
	sample_rec_init(&s);
	sha256_hex("x", 1, s.prompt_hash);
	s.rep = 1;
	line = round_trip(&r, &s, 1);
	for (i = 0; i < sizeof(null_keys) / sizeof(null_keys[0]); i++) {
		if (!strstr(line, null_keys[i]))
			fail_msg("%s missing from %s", null_keys[i], line);
	}
	free(line);
	/* No samples at all is a run too (a load failure). */
	line = round_trip(&r, NULL, 0);
	assert_non_null(strstr(line, "\"samples\":[]"));
	free(line);
	sample_rec_release(&s);
	run_rec_release(&r);
}

static void test_record_json_nan_is_null(void **state)
{
	struct run_rec r;
	struct sample_rec s;
	char *line;

	(void)state;
	full_run(&r);
	full_sample(&s, 0);
	r.temperature = NAN;
	s.prompt_ms = NAN;
	s.predicted_per_second = -NAN;
	s.wall_ms = NAN;
	line = round_trip(&r, &s, 1);
	assert_non_null(strstr(line, "\"temperature\":null"));
	assert_non_null(strstr(line, "\"prompt_ms\":null"));
	assert_non_null(strstr(line, "\"predicted_per_second\":null"));
	assert_null(strstr(line, "nan"));
	assert_null(strstr(line, "NaN"));
	free(line);
	sample_rec_release(&s);
	run_rec_release(&r);
}

static void test_record_json_raw_timings(void **state)
{
	struct run_rec r;
	struct sample_rec s[2];
	cJSON *root, *t;
	char *line;

	(void)state;
	full_run(&r);
	full_sample(&s[0], 0);
	full_sample(&s[1], 1);
	/* Not JSON: kept verbatim as a string rather than lost. */
	free(s[1].timings);
	s[1].timings = tps_xstrdup("{truncated");
	line = round_trip(&r, s, 2);
	root = cJSON_Parse(line);
	t = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "samples"), 0),
				"timings");
	assert_true(cJSON_IsObject(t)); /* embedded, not a string */
	assert_true(cJSON_IsArray(cJSON_GetObjectItem(t, "future_field")));
	t = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "samples"), 1),
				"timings");
	assert_true(cJSON_IsString(t));
	assert_string_equal(t->valuestring, "{truncated");
	cJSON_Delete(root);
	free(line);
	sample_rec_release(&s[0]);
	sample_rec_release(&s[1]);
	run_rec_release(&r);
}

static void test_record_json_malformed(void **state)
{
	static const struct {
		const char *json, *why;
	} cases[] = {
		{ "{\"tpsdb_run\":1,\"samples\":[]}", "'run' needs" },
		{ "{\"tpsdb_run\":1,\"run\":{\"uuid\":\"short\",\"host\":{},\"engine\":{},"
		  "\"model\":{},\"started_at\":\"t\"},\"samples\":[]}", "not a uuid" },
		{ "{\"tpsdb_run\":1,\"run\":{\"uuid\":\"" UUID "\",\"host\":{},\"engine\":{},"
		  "\"model\":{}},\"samples\":[]}", "started_at" },
		{ "{\"tpsdb_run\":1,\"run\":{\"uuid\":\"" UUID "\",\"host\":{},\"engine\":{},"
		  "\"model\":{},\"started_at\":\"t\",\"ctx\":\"4096\"},\"samples\":[]}", "'ctx'" },
		{ "{\"tpsdb_run\":1,\"run\":{\"uuid\":\"" UUID "\",\"host\":{},\"engine\":{},"
		  "\"model\":{},\"started_at\":\"t\",\"n_max\":2.5},\"samples\":[]}", "'n_max'" },
		{ "{\"tpsdb_run\":1,\"run\":{\"uuid\":\"" UUID "\",\"host\":{},\"engine\":{},"
		  "\"model\":{},\"started_at\":\"t\"},\"samples\":{}}", "'samples'" },
		{ "{\"tpsdb_run\":1,\"run\":{\"uuid\":\"" UUID "\",\"host\":{},\"engine\":{},"
		  "\"model\":{},\"started_at\":\"t\"},\"samples\":[{\"prompt_hash\":\"ab\","
		  "\"rep\":1}]}", "prompt_hash" },
		{ "{\"tpsdb_run\":1,\"run\":{\"uuid\":\"" UUID "\",\"host\":{},\"engine\":{},"
		  "\"model\":{},\"started_at\":\"t\"},\"samples\":[{\"prompt_hash\":"
		  "\"2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881\","
		  "\"rep\":0}]}", "'rep'" },
		{ "{\"tpsdb_run\":1,\"run\":{\"uuid\":\"" UUID "\",\"host\":{},\"engine\":{},"
		  "\"model\":{},\"started_at\":\"t\"},\"samples\":[{\"prompt_hash\":"
		  "\"2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881\","
		  "\"rep\":1,\"prompt_ms\":-1}]}", "'prompt_ms'" },
	};
	size_t i, j, n;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cJSON *root = cJSON_Parse(cases[i].json);
		struct run_rec r;
		struct sample_rec *s = NULL;
		char err[256] = "";

		assert_non_null(root);
		run_rec_init(&r);
		assert_int_equal(record_json_read(root, &r, &s, &n, err, sizeof(err)), -1);
		if (!strstr(err, cases[i].why))
			fail_msg("case %zu: '%s' does not mention %s", i, err, cases[i].why);
		for (j = 0; j < n; j++)
			sample_rec_release(&s[j]);
		free(s);
		run_rec_release(&r);
		cJSON_Delete(root);
	}
}

/* The RFC 8259 check every reader runs before cJSON (issue 12, defect 4): what
 * cJSON would take and the RFC does not, and the reason given. */
static void test_json_strict(void **state)
{
	static const struct { const char *text; size_t len; const char *why; } cases[] = {
		{ "{\"a\":[1,-0.5e+3,\"x\",true,false,null,{}]}", 0, NULL },
		{ " \"\\u00e9\\ud83d\\ude00\" ", 0, NULL },
		{ "\"\xc3\xa9\xf0\x9f\x98\x80\"", 0, NULL },
		{ "007", 0, "leading zero in a number" },
		{ "-01", 0, "leading zero in a number" },
		{ "{\"a\":01}", 0, "leading zero in a number" },
		{ "{\"k\0ey\":1}", 10, "NUL byte in a string" },
		{ "\"\\u0000\"", 0, "\\u0000 in a string" },
		{ "\"\xff\"", 0, "invalid UTF-8 in a string" },
		{ "\"\xc0\xaf\"", 0, "invalid UTF-8 in a string" },     /* overlong */
		{ "\"\xed\xa0\x80\"", 0, "invalid UTF-8 in a string" }, /* a surrogate */
		{ "\"\\ud800\"", 0, "lone surrogate in a string" },
		{ "\"\\udc00\\ud800\"", 0, "lone surrogate in a string" },
		{ "\"a\tb\"", 0, "control character in a string" },
		{ "\"\\x\"", 0, "invalid escape in a string" },
		{ "[1,]", 0, "unexpected character" },
		{ "{\"a\":1,}", 0, "expected a string key" },
		{ "{\"a\" 1}", 0, "expected ':'" },
		{ "[1 2]", 0, "expected ',' or ']'" },
		{ "1.", 0, "invalid number" },
		{ "1e", 0, "invalid number" },
		{ ".5", 0, "unexpected character" },
		{ "NaN", 0, "unexpected character" },
		{ "{} x", 0, "text after the value" },
		{ "{}{}", 0, "text after the value" },
		{ "", 0, "unexpected end of input" },
		{ "[", 0, "unexpected end of input" },
		{ "\"abc", 0, "unterminated string" },
		/* RFC 8259 white space only: a form feed or vertical tab is not. */
		{ " \t\r\n{}\r\n", 0, NULL },
		{ "\f{}", 0, "unexpected character" },
		{ "\v[1]", 0, "unexpected character" },
		{ "[1,\f2]", 0, "unexpected character" },
		{ "{}\f", 0, "text after the value" },
		{ "{\"a\":\v1}", 0, "unexpected character" },
		/* One key once per object; the same key in another object is fine. */
		{ "{\"a\":1,\"b\":2,\"a\":3}", 0, "duplicate key in an object" },
		{ "{\"t\":{\"x\":160,\"x\":1e300}}", 0, "duplicate key in an object" },
		{ "{\"a\":{\"a\":1},\"b\":[{\"a\":1},{\"a\":2}]}", 0, NULL },
		{ "{\"\":1,\"\":2}", 0, "duplicate key in an object" },
		/* Escapes are read: these keys are the same key. */
		{ "{\"a\":1,\"\\u0061\":2}", 0, "duplicate key in an object" },
		{ "{\"\\u00e9\":1,\"\xc3\xa9\":2}", 0, "duplicate key in an object" },
		{ "{\"\\ud83d\\ude00\":1,\"\xf0\x9f\x98\x80\":2}", 0, "duplicate key in an object" },
		{ "{\"a\\/b\":1,\"a/b\":2}", 0, "duplicate key in an object" },
		{ "{\"a\\nb\":1,\"a\\tb\":2,\"a\\\\b\":3}", 0, NULL },
	};
	char deep[2 * JSON_STRICT_MAX_DEPTH + 4], why[96];
	size_t i, at;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len = cases[i].len ? cases[i].len : strlen(cases[i].text);
		int rc = json_strict_check(cases[i].text, len, &at, why, sizeof(why));
		if (!cases[i].why && rc != 0)
			fail_msg("case %zu: refused: %s", i, why);
		if (cases[i].why && (rc != -1 || strcmp(why, cases[i].why)))
			fail_msg("case %zu: rc %d, '%s', want '%s'", i, rc, rc ? why : "", cases[i].why);
	}
	/* Many keys: the set grows and still finds the one repeated. */
	{
		char *big = tps_xmalloc(26 * 5000 + 64), *p = big;
		p += sprintf(p, "{");
		for (i = 0; i < 5000; i++)
			p += sprintf(p, "%s\"%sk%zu\":%zu", i ? "," : "", i % 2 ? "" : "\\u0061",
				     i, i);
		strcpy(p, "}");
		assert_int_equal(json_strict_check(big, strlen(big), &at, why, sizeof(why)), 0);
		strcpy(p, ",\"k4321\":0}");
		assert_int_equal(json_strict_check(big, strlen(big), &at, why, sizeof(why)), -1);
		assert_string_equal(why, "duplicate key in an object");
		assert_int_equal(at, (size_t)(p - big) + 1);
		free(big);
	}
	/* The offset names the first bad byte. */
	assert_int_equal(json_strict_check("[1, 02]", 7, &at, why, sizeof(why)), -1);
	assert_int_equal(at, 4);
	/* Nesting: the limit passes, one more is refused. */
	memset(deep, '[', JSON_STRICT_MAX_DEPTH);
	memset(deep + JSON_STRICT_MAX_DEPTH, ']', JSON_STRICT_MAX_DEPTH);
	assert_int_equal(json_strict_check(deep, 2 * JSON_STRICT_MAX_DEPTH, &at, why, sizeof(why)), 0);
	memset(deep, '[', JSON_STRICT_MAX_DEPTH + 1);
	memset(deep + JSON_STRICT_MAX_DEPTH + 1, ']', JSON_STRICT_MAX_DEPTH + 1);
	assert_int_equal(json_strict_check(deep, 2 * JSON_STRICT_MAX_DEPTH + 2, &at, why, sizeof(why)), -1);
	assert_string_equal(why, "nested too deep");
}

/* The shared value rules, one broken field at a time, through the export codec. */
static void test_record_check_rules(void **state)
{
	struct run_rec r;
	struct sample_rec s[2];
	char err[256];

	(void)state;
	full_run(&r);
	full_sample(&s[0], 0);
	full_sample(&s[1], 1);
	assert_int_equal(record_check_run(&r, err, sizeof(err)), 0);
	assert_int_equal(record_check_samples(s, 2, err, sizeof(err)), 0);
	/* A one-metric question: pp or tg, and only of a batch that looked. */
	free(r.looks_metric);
	r.looks_metric = tps_xstrdup("both");
	assert_int_equal(record_check_run(&r, err, sizeof(err)), -1);
	assert_string_equal(err, "'run.looks_metric' is not pp or tg");
	free(r.looks_metric);
	r.looks_metric = tps_xstrdup("pp");
	assert_int_equal(record_check_run(&r, err, sizeof(err)), 0);
	r.looks_to = TPS_NULL;
	assert_int_equal(record_check_run(&r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "without 'run.looks_to'"));
	free(r.looks_metric);
	r.looks_metric = NULL;
	assert_int_equal(record_check_run(&r, err, sizeof(err)), 0);
	r.n_max = 0;
	assert_int_equal(record_check_run(&r, err, sizeof(err)), -1);
	r.n_max = TPS_NULL;
	assert_int_equal(record_check_run(&r, err, sizeof(err)), 0);
	free(r.ended_at);
	r.ended_at = tps_xstrdup("2026-02-30T00:00:00Z");
	assert_int_equal(record_check_run(&r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "ended_at"));
	free(r.ended_at);
	r.ended_at = tps_xstrdup("2026-02-28 23:59:60.5+05:30");
	assert_int_equal(record_check_run(&r, err, sizeof(err)), 0);
	/* What merge takes from another store must export and import again (issue 29,
	 * item 2): env one strict JSON object, looks_to a round count, integers that a
	 * JSON number carries exactly, a uuid. */
	assert_int_equal(record_check_whole(&r, s, 2, err, sizeof(err)), 0);
	r.env = tps_xstrdup("{\"a\":NaN}");
	assert_int_equal(record_check_run(&r, err, sizeof(err)), -1);
	assert_string_equal(err, "'run.env' is not a JSON object");
	free(r.env);
	r.env = tps_xstrdup("{not json");
	assert_int_equal(record_check_run(&r, err, sizeof(err)), -1);
	assert_string_equal(err, "'run.env' is not a JSON object");
	free(r.env);
	r.env = tps_xstrdup("{\"gpu\":{\"sm_clock_min\":1980}}");
	assert_int_equal(record_check_run(&r, err, sizeof(err)), 0);
	r.looks_to = 1000000000000;
	assert_int_equal(record_check_run(&r, err, sizeof(err)), -1);
	assert_string_equal(err, "'run.looks_to' is not a round number");
	r.looks_to = 6;
	r.seed = (int64_t)1 << 62;
	assert_int_equal(record_check_run(&r, err, sizeof(err)), -1);
	assert_string_equal(err, "'run.seed' is out of range (4611686018427387904)");
	r.seed = 42;
	s[0].seq = (int64_t)1 << 62;
	assert_int_equal(record_check_samples(s, 2, err, sizeof(err)), -1);
	assert_string_equal(err, "sample 1: a sample's 'rep' or 'seq' is out of range");
	s[0].seq = 0;
	r.uuid[0] = '\0';
	assert_int_equal(record_check_run(&r, err, sizeof(err)), 0);
	assert_int_equal(record_check_whole(&r, s, 2, err, sizeof(err)), -1);
	assert_string_equal(err, "'run.uuid' is missing or not a uuid");
	snprintf(r.uuid, sizeof(r.uuid), "%s", UUID);
	assert_int_equal(record_check_whole(&r, s, 2, err, sizeof(err)), 0);
	free(r.notes);
	r.notes = tps_xstrdup("bad \xe2\x82");
	assert_int_equal(record_check_run(&r, err, sizeof(err)), -1);
	assert_string_equal(err, "the run's notes is not valid UTF-8");
	s[1].predicted_per_second = RECORD_MAX_RATE * 2;
	assert_int_equal(record_check_samples(s, 2, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "sample 2: 'predicted_per_second'"));
	s[1].predicted_per_second = 10;
	s[1].rep = s[0].rep;
	memcpy(s[1].prompt_hash, s[0].prompt_hash, 65);
	assert_int_equal(record_check_samples(s, 2, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "appears twice"));
	run_rec_release(&r);
	sample_rec_release(&s[0]);
	sample_rec_release(&s[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_json_every_field),
		cmocka_unit_test(test_record_json_nulls),
		cmocka_unit_test(test_record_json_nan_is_null),
		cmocka_unit_test(test_record_json_raw_timings),
		cmocka_unit_test(test_record_json_malformed),
		cmocka_unit_test(test_json_strict),
		cmocka_unit_test(test_record_check_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
