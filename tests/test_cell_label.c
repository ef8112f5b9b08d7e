/* test_cell_label.c: analyze/cell_label.c: the configuration of a cell in every
 * combination of spec_type, n_max and endpoint, and the endpoint suffix alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "analyze/cell_label.h"
#include "schema/record.h"

static void test_cell_label_config(void **state)
{
	static const struct {
		const char *spec_type;
		int64_t n_max;
		const char *endpoint, *want;
	} cases[] = {
		{ "", TPS_NULL, "completion", "base" },
		{ NULL, TPS_NULL, NULL, "base" },
		{ "", TPS_NULL, "chat", "base (chat)" },
		{ "draft-simple", TPS_NULL, "completion", "draft-simple base" },
		{ "draft-simple", TPS_NULL, "", "draft-simple base" },
		{ "draft-simple", 3, "completion", "draft-simple n_max=3" },
		{ "draft-simple", 0, "chat", "draft-simple n_max=0 (chat)" },
		{ "", 4, "completion", "spec n_max=4" },
		{ NULL, 4, "llama-bench", "spec n_max=4 (llama-bench)" },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = cell_label(cases[i].spec_type, cases[i].n_max, cases[i].endpoint);
		assert_string_equal(got, cases[i].want);
		free(got);
	}
}

static void test_cell_label_endpoint(void **state)
{
	static const struct {
		const char *name, *endpoint, *want;
	} cases[] = {
		{ "tiny", "completion", "tiny" },
		{ "tiny", "", "tiny" },
		{ "tiny", NULL, "tiny" },
		{ "tiny", "chat", "tiny (chat)" },
		{ NULL, "chat", " (chat)" },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = cell_label_endpoint(cases[i].name, cases[i].endpoint);
		assert_string_equal(got, cases[i].want);
		free(got);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cell_label_config),
		cmocka_unit_test(test_cell_label_endpoint),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
