/* test_collect_prompts.c: the built-in prompt set (nine kinds, each after the same
 * reference text) and the parser for a user's prompt file. */
#include "collect/prompts.h"
#include "tpsdb.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static void test_collect_prompts_builtin(void **state)
{
	static const char *const kinds[] = { "code", "explanation", "summary", "factual-qa",
					     "translation", "creative", "math", "code-review",
					     "extraction" };
	struct prompt_set ps = { 0 }, chat = { 0 }, bare = { 0 };
	const char *ref = prompts_reference();
	char hex[65];

	(void)state;
	prompts_builtin(&ps, 1, 0);
	assert_int_equal(ps.n, 9);
	/* About 1760 llama-spm tokens, at roughly 3.9 bytes a token. */
	assert_in_range(strlen(ref), 6500, 7500);
	for (size_t i = 0; i < ps.n; i++) {
		assert_string_equal(ps.v[i].name, kinds[i]);
		assert_memory_equal(ps.v[i].text, ref, strlen(ref));
		assert_memory_equal(ps.v[i].text + strlen(ref), "\n\n", 2);
		assert_true(strlen(ps.v[i].text) > strlen(ref) + 100);
		prompts_hash(ps.v[i].text, 0, hex);
		assert_string_equal(ps.v[i].hash, hex);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(ps.v[i].hash, ps.v[j].hash);
	}
	prompts_builtin(&chat, 1, 1);
	prompts_builtin(&bare, 0, 0);
	assert_string_equal(chat.v[0].text, ps.v[0].text);
	assert_string_not_equal(chat.v[0].hash, ps.v[0].hash);
	assert_string_equal(bare.v[0].text + 0, ps.v[0].text + strlen(ref) + 2);
	prompts_release(&ps);
	prompts_release(&chat);
	prompts_release(&bare);
	prompts_release(NULL);
}

static void test_collect_prompts_hash(void **state)
{
	char hex[65];

	(void)state;
	/* sha256("abc") and sha256("[chat]\nabc"). */
	prompts_hash("abc", 0, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	prompts_hash("abc", 1, hex);
	assert_string_not_equal(hex,
				"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static void test_collect_prompts_parse(void **state)
{
	static const char text[] =
		"# my prompts\n"
		"\n"
		"## first\n"
		"\n"
		"Line one.\n"
		"   indented\n"
		"\n"
		"## @reference\n"
		"A short reference.\n"
		"## second.v2\n"
		"# not a comment here\n"
		"x\n"
		"\n\n";
	struct prompt_set ps = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(prompts_parse(&ps, text, "p", 1, 0, err, sizeof(err)), 0);
	assert_int_equal(ps.n, 2);
	assert_string_equal(ps.v[0].name, "first");
	assert_string_equal(ps.v[0].text, "A short reference.\n\nLine one.\n   indented");
	assert_string_equal(ps.v[1].name, "second.v2");
	assert_string_equal(ps.v[1].text, "A short reference.\n\n# not a comment here\nx");
	prompts_release(&ps);
	assert_int_equal(prompts_parse(&ps, "## a\nhello\n", "p", 1, 0, err, sizeof(err)), 0);
	assert_int_equal(strncmp(ps.v[0].text, prompts_reference(), 40), 0);
	prompts_release(&ps);
	assert_int_equal(prompts_parse(&ps, "## a\nhello", "p", 0, 0, err, sizeof(err)), 0);
	assert_string_equal(ps.v[0].text, "hello");
	prompts_release(&ps);
}

static void test_collect_prompts_bad(void **state)
{
	static const struct {
		const char *text, *err;
	} cases[] = {
		{ "", "p: no prompts (each starts with a line '## <name>')" },
		{ "# only\n", "p: no prompts (each starts with a line '## <name>')" },
		{ "## @reference\nr\n", "p: no prompts (each starts with a line '## <name>')" },
		{ "hello\n## a\nx\n", "p:1: text before the first '## <name>' line" },
		{ "## a b\nx\n", "p:1: prompt name 'a b' is not [A-Za-z0-9._-]+" },
		{ "## \nx\n", "p:1: prompt name '' is not [A-Za-z0-9._-]+" },
		{ "## a\nx\n## a\ny\n", "p:3: prompt 'a' appears twice (first at line 1)" },
		{ "## a\n\n  \n## b\nx\n", "p:1: prompt 'a' is empty" },
	};
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct prompt_set ps = { 0 };
		char err[256] = "";
		assert_int_equal(prompts_parse(&ps, cases[c].text, "p", 1, 0, err, sizeof(err)), -1);
		assert_string_equal(err, cases[c].err);
		assert_int_equal(ps.n, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_collect_prompts_builtin),
		cmocka_unit_test(test_collect_prompts_hash),
		cmocka_unit_test(test_collect_prompts_parse),
		cmocka_unit_test(test_collect_prompts_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
