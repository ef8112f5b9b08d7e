/* test_collect_parse.c: the collector's small pure readers and writers: /props,
 * nvidia-smi output, request bodies, server error bodies and the summary table. */
#include "collect/props.h"
#include "collect/provenance.h"
#include "collect/request.h"
#include "reports/summary.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static void test_collect_parse_props(void **state)
{
	static const char full[] =
		"{\"default_generation_settings\":{\"n_ctx\":4096,\"params\":{}},"
		"\"total_slots\":1,\"model_path\":\"/m/tiny-F16.gguf\","
		"\"build_info\":\"b6000-abc1234\",\"is_sleeping\":false}";
	static const char sparse[] =
		"{\"build_info\":\"\",\"default_generation_settings\":{\"n_ctx\":-1}}";
	struct props p;
	char err[128];

	(void)state;
	assert_int_equal(props_parse(full, strlen(full), &p, err, sizeof(err)), 0);
	assert_string_equal(p.build_info, "b6000-abc1234");
	assert_string_equal(p.model_path, "/m/tiny-F16.gguf");
	assert_int_equal(p.n_ctx, 4096);
	props_release(&p);
	assert_int_equal(props_parse(sparse, strlen(sparse), &p, err, sizeof(err)), 0);
	assert_null(p.build_info);
	assert_null(p.model_path);
	assert_true(p.n_ctx == TPS_NULL);
	props_release(&p);
	assert_int_equal(props_parse("[1]", 3, &p, err, sizeof(err)), -1);
	assert_string_equal(err, "/props is not a JSON object");
	props_release(&p);
	assert_int_equal(props_parse("<html>", 6, &p, err, sizeof(err)), -1);
	props_release(&p);
	props_release(NULL);
}

static void test_collect_parse_nvidia_smi(void **state)
{
	static const char query[] =
		"NVIDIA H200, 570.86.15\n"
		"NVIDIA H100 80GB HBM3, 565.57.01\n";
	static const char plain[] =
		"+-----------------------------------------------------------------------------------------+\n"
		"| NVIDIA-SMI 570.86.15              Driver Version: 570.86.15      CUDA Version: 12.8     |\n"
		"|-----------------------------------------+------------------------+----------------------+\n";
	char *gpu = NULL, *driver = NULL, *cuda;

	(void)state;
	assert_int_equal(provenance_parse_query(query, -1, &gpu, &driver), 0);
	assert_string_equal(gpu, "NVIDIA H200");
	assert_string_equal(driver, "570.86.15");
	free(gpu);
	free(driver);
	assert_int_equal(provenance_parse_query(query, 1, &gpu, &driver), 0);
	assert_string_equal(gpu, "NVIDIA H100 80GB HBM3");
	assert_string_equal(driver, "565.57.01");
	free(gpu);
	free(driver);
	assert_int_equal(provenance_parse_query(query, 7, &gpu, &driver), 0);
	assert_string_equal(gpu, "NVIDIA H200");
	free(gpu);
	free(driver);
	assert_int_equal(provenance_parse_query("No devices were found\n", -1, &gpu, &driver), -1);
	assert_int_equal(provenance_parse_query("", -1, &gpu, &driver), -1);
	cuda = provenance_parse_cuda(plain);
	assert_string_equal(cuda, "12.8");
	free(cuda);
	assert_null(provenance_parse_cuda("Driver Version: 1\n"));
	assert_null(provenance_parse_cuda(NULL));
	assert_null(provenance_parse_cuda("CUDA Version: N/A"));
}

static void test_collect_parse_request(void **state)
{
	struct request_opts o = { 0, 512, 42, 0 };
	cJSON *root, *bias, *msgs;
	char *body;

	(void)state;
	assert_string_equal(request_path(&o), "/completion");
	body = request_body(&o, "Hello \"world\"\n");
	root = cJSON_Parse(body);
	assert_non_null(root);
	assert_string_equal(cJSON_GetObjectItem(root, "prompt")->valuestring, "Hello \"world\"\n");
	assert_int_equal(cJSON_GetObjectItem(root, "n_predict")->valueint, 512);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(root, "ignore_eos")));
	assert_int_equal(cJSON_GetObjectItem(root, "temperature")->valueint, 0);
	assert_int_equal(cJSON_GetObjectItem(root, "seed")->valueint, 42);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(root, "cache_prompt")));
	/* Streamed: the client's clock sees each token (collect/stream.h). */
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(root, "stream")));
	assert_null(cJSON_GetObjectItem(root, "logit_bias"));
	assert_null(cJSON_GetObjectItem(root, "messages"));
	cJSON_Delete(root);
	free(body);

	o.chat = 1;
	o.ban_byte_tokens = 1;
	assert_string_equal(request_path(&o), "/v1/chat/completions");
	body = request_body(&o, "hi");
	root = cJSON_Parse(body);
	msgs = cJSON_GetObjectItem(root, "messages");
	assert_int_equal(cJSON_GetArraySize(msgs), 1);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(msgs, 0), "role")->valuestring,
			    "user");
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(msgs, 0), "content")->valuestring,
			    "hi");
	assert_int_equal(cJSON_GetObjectItem(root, "max_tokens")->valueint, 512);
	assert_null(cJSON_GetObjectItem(root, "prompt"));
	bias = cJSON_GetObjectItem(root, "logit_bias");
	assert_int_equal(cJSON_GetArraySize(bias), REQUEST_BAN_LAST - REQUEST_BAN_FIRST + 1);
	assert_int_equal(cJSON_GetArrayItem(cJSON_GetArrayItem(bias, 0), 0)->valueint, 3);
	assert_true(cJSON_IsFalse(cJSON_GetArrayItem(cJSON_GetArrayItem(bias, 0), 1)));
	assert_int_equal(cJSON_GetArrayItem(cJSON_GetArrayItem(bias, 255), 0)->valueint, 258);
	cJSON_Delete(root);
	free(body);
}

static void test_collect_parse_error_text(void **state)
{
	static const struct {
		const char *body, *text;
	} cases[] = {
		{ "{\"error\":{\"code\":500,\"message\":\"Invalid UTF-8\",\"type\":\"server_error\"}}",
		  "Invalid UTF-8" },
		{ "{\"error\":\"Loading model\"}", "Loading model" },
		{ "{\"error\":{\"code\":500}}", "{\"error\":{\"code\":500}}" },
		{ "<html>\n<b>Bad\tGateway</b>\n</html>", "<html> <b>Bad Gateway</b> </html>" },
		{ "", "empty body" },
	};
	char longbody[400];
	char *t;

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		t = request_error_text(cases[c].body, strlen(cases[c].body));
		assert_string_equal(t, cases[c].text);
		free(t);
	}
	memset(longbody, 'x', sizeof(longbody));
	t = request_error_text(longbody, sizeof(longbody));
	assert_int_equal(strlen(t), 200);
	free(t);
}

/* summary_render() of rows[0..n) must print want exactly. */
static void summary_is(const struct summary_row *rows, size_t n, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	summary_render(f, rows, n);
	fclose(f);
	assert_string_equal(buf, want);
	free(buf);
}

static void test_collect_parse_summary(void **state)
{
	struct summary_row rows[] = {
		{ "tiny", "ours", TPS_NULL, "complete", 18, 0, 10085.04, 449.94, NAN, 1, 1, NULL },
		{ "tiny", "llama.cpp", 3, "LOADFAIL", 0, 0, NAN, NAN, NAN, 1, 1, NULL },
		{ "tiny", "ours", 2, "partial", 5, 13, 6749.6, 249.7, 0.7125, 1, 1, NULL },
	};
	static const char want[] =
		"model  engine     n_max  status    ok  failed  pp tok/s  tg tok/s  accept\n"
		"tiny   ours           -  complete  18       0   10085.0     449.9       -\n"
		"tiny   llama.cpp      3  LOADFAIL   0       0         -         -       -\n"
		"tiny   ours           2  partial    5      13    6749.6     249.7   71.2%\n";

	(void)state;
	summary_is(rows, 3, want);
}

/* With more than one round, a column says which round each run was. */
static void test_collect_parse_summary_rounds(void **state)
{
	struct summary_row rows[] = {
		{ "tiny", "a", TPS_NULL, "complete", 2, 0, 100, 50, NAN, 1, 3, NULL },
		{ "tiny", "b", TPS_NULL, "complete", 2, 0, 100, 50, NAN, 1, 3, NULL },
		{ "tiny", "b", TPS_NULL, "complete", 2, 0, 100, 50, NAN, 2, 3, NULL },
	};
	static const char want[] =
		"model  engine  n_max  round  status    ok  failed  pp tok/s  tg tok/s  accept\n"
		"tiny   a           -    1/3  complete   2       0     100.0      50.0       -\n"
		"tiny   b           -    1/3  complete   2       0     100.0      50.0       -\n"
		"tiny   b           -    2/3  complete   2       0     100.0      50.0       -\n";

	(void)state;
	summary_is(rows, 3, want);
}

/* A failed load's error line is the last column, there only when a row has one. */
static void test_collect_parse_summary_why(void **state)
{
	struct summary_row rows[] = {
		{ "tiny", "ours", TPS_NULL, "complete", 2, 0, 100, 50, NAN, 1, 1, NULL },
		{ "tiny", "old", 2, "LOADFAIL", 0, 0, NAN, NAN, NAN, 1, 1,
		  "error: invalid argument: --spec-draft-n-max" },
	};
	static const char want[] =
		"model  engine  n_max  status    ok  failed  pp tok/s  tg tok/s  accept  why\n"
		"tiny   ours        -  complete   2       0     100.0      50.0       -  -\n"
		"tiny   old         2  LOADFAIL   0       0         -         -       -  "
		"error: invalid argument: --spec-draft-n-max\n";

	(void)state;
	summary_is(rows, 2, want);
}

/* The summary is the one table model's text: a name in UTF-8 is as wide as its
 * code points, so the columns after it stay aligned; a label with a control
 * character reaches the terminal escaped. */
static void test_collect_parse_summary_utf8(void **state)
{
	struct summary_row rows[] = {
		{ "mod\xc3\xa8le", "ours", TPS_NULL, "complete", 2, 0, 100, 50, NAN, 1, 1, NULL },
		{ "tiny", "a\033[2Jb", 1, "complete", 2, 0, 100, 50, 0.5, 1, 1, NULL },
	};
	static const char want[] =
		"model   engine     n_max  status    ok  failed  pp tok/s  tg tok/s  accept\n"
		"mod\xc3\xa8le  ours           -  complete   2       0     100.0      50.0       -\n"
		"tiny    a\\x1b[2Jb      1  complete   2       0     100.0      50.0   50.0%\n";

	(void)state;
	summary_is(rows, 2, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_collect_parse_props),
		cmocka_unit_test(test_collect_parse_nvidia_smi),
		cmocka_unit_test(test_collect_parse_request),
		cmocka_unit_test(test_collect_parse_error_text),
		cmocka_unit_test(test_collect_parse_summary),
		cmocka_unit_test(test_collect_parse_summary_rounds),
		cmocka_unit_test(test_collect_parse_summary_why),
		cmocka_unit_test(test_collect_parse_summary_utf8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
