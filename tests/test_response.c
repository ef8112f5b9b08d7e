/* test_response.c: the response parser keeps the server's timings object byte for
 * byte, finds it only at the top level, and still reads every field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "collect/response.h"

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

static void test_response_timings_printed_without_text(void **state)
{
	static const char json[] = "{\"prompt\":\"p\",\"timings\":{\"prompt_n\":600,"
				   "\"prompt_per_second\":100}}";
	struct response r;
	char err[256];
	struct cJSON *root;

	(void)state;
	/* Through response_from_json without the text: the tree is printed instead. */
	root = cJSON_Parse(json);
	assert_non_null(root);
	response_init(&r);
	assert_int_equal(response_from_json(root, NULL, 0, &r, err, sizeof(err)), 0);
	assert_string_equal(r.sample.timings, "{\"prompt_n\":600,\"prompt_per_second\":100}");
	response_release(&r);
	cJSON_Delete(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_response_timings_verbatim),
		cmocka_unit_test(test_response_timings_printed_without_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
