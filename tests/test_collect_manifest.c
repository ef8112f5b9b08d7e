/* test_collect_manifest.c: the models and spec manifest parsers and the shell-like
 * argument splitting, table-driven: each good text with what it must yield, each
 * bad text with the one message it must give. */
#include "collect/manifest.h"
#include "tpsdb.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

struct good_case {
	enum manifest_kind kind;
	const char *text;
	size_t n;
	const char *labels, *paths, *args; /* '|'-joined over the entries */
	const char *n_max;                 /* first entry's list, ',' joined */
};

static const struct good_case goods[] = {
	{ MANIFEST_MODELS, "", 0, "", "", "", "" },
	{ MANIFEST_MODELS, "# only a comment\n\n   \n", 0, "", "", "", "" },
	{ MANIFEST_MODELS, "a | /m/a.gguf\n", 1, "a", "/m/a.gguf", "", "" },
	{ MANIFEST_MODELS, "a|/m/a.gguf|-fa on\r\n  # x\nb | /m/b c.gguf |  --x 'y z' \n", 2,
	  "a|b", "/m/a.gguf|/m/b c.gguf", "-fa on|--x 'y z'", "" },
	{ MANIFEST_MODELS, "a | /m/a.gguf |\n", 1, "a", "/m/a.gguf", "", "" },
	{ MANIFEST_SPEC, "q35 | /m/q35.gguf | --spec-type draft-mtp | 1,2,3\n", 1, "q35",
	  "/m/q35.gguf", "--spec-type draft-mtp", "1,2,3" },
	{ MANIFEST_SPEC, "d | /m/d.gguf | -md /m/x.gguf | 8, 2 ,4", 1, "d", "/m/d.gguf",
	  "-md /m/x.gguf", "8,2,4" },
};

struct bad_case {
	enum manifest_kind kind;
	const char *text;
	const char *err;
};

static const struct bad_case bads[] = {
	{ MANIFEST_MODELS, "a\n", "f:1: expected 'label | gguf path' and optional extra server "
	  "args, found 1 fields" },
	{ MANIFEST_MODELS, "# c\na | b | c | d\n", "f:2: expected 'label | gguf path' and "
	  "optional extra server args, found 4 fields" },
	{ MANIFEST_MODELS, " | /m/x\n", "f:1: the label is empty" },
	{ MANIFEST_MODELS, "a b | /m/x\n", "f:1: label 'a b' has blank space in it" },
	{ MANIFEST_MODELS, "a=b | /m/x\n", "f:1: label 'a=b' has '=' in it" },
	{ MANIFEST_MODELS, "a | /m/x\n\na | /m/y\n", "f:3: label 'a' is used twice" },
	{ MANIFEST_MODELS, "a | \n", "f:1: the gguf path of 'a' is empty" },
	{ MANIFEST_MODELS, "a | x | --p 'open\n", "f:1: unbalanced ' quote in '--p 'open'" },
	{ MANIFEST_SPEC, "a | x | --s\n", "f:1: expected 4 fields 'label | gguf path | spec "
	  "server args | n_max list', found 3" },
	{ MANIFEST_SPEC, "a | x | --s | 1 | 2\n", "f:1: expected 4 fields 'label | gguf path | "
	  "spec server args | n_max list', found 5" },
	{ MANIFEST_SPEC, "a | x | | 1\n", "f:1: the spec server args of 'a' are empty" },
	{ MANIFEST_SPEC, "a | x | --s | 0\n", "f:1: n_max '0' is not a whole number from 1 to "
	  "4096" },
	{ MANIFEST_SPEC, "a | x | --s | 1.5\n", "f:1: n_max '1.5' is not a whole number from 1 "
	  "to 4096" },
	{ MANIFEST_SPEC, "a | x | --s | 3,3\n", "f:1: n_max 3 is listed twice" },
	{ MANIFEST_SPEC, "a | x | --s | ,\n", "f:1: the n_max list is empty (write e.g. "
	  "'1,2,3')" },
};

static char *joined(const struct manifest *m, int which)
{
	char *s = tps_xstrdup("");
	for (size_t i = 0; i < m->n; i++) {
		const char *v = which == 0 ? m->v[i].label : which == 1 ? m->v[i].path :
				m->v[i].args;
		char *t = tps_xasprintf("%s%s%s", s, i ? "|" : "", v);
		free(s);
		s = t;
	}
	return s;
}

static void test_collect_manifest_good(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(goods) / sizeof(goods[0]); c++) {
		struct manifest m = { 0 };
		char err[256] = "", *s, nm[128] = "";

		assert_int_equal(manifest_parse(&m, goods[c].kind, goods[c].text, "f", err,
						sizeof(err)), 0);
		assert_int_equal(m.n, goods[c].n);
		s = joined(&m, 0);
		assert_string_equal(s, goods[c].labels);
		free(s);
		s = joined(&m, 1);
		assert_string_equal(s, goods[c].paths);
		free(s);
		s = joined(&m, 2);
		assert_string_equal(s, goods[c].args);
		free(s);
		for (size_t i = 0; m.n && i < m.v[0].n_n_max; i++)
			snprintf(nm + strlen(nm), sizeof(nm) - strlen(nm), "%s%lld", i ? "," : "",
				 (long long)m.v[0].n_max[i]);
		assert_string_equal(nm, goods[c].n_max);
		manifest_release(&m);
	}
}

static void test_collect_manifest_bad(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(bads) / sizeof(bads[0]); c++) {
		struct manifest m = { 0 };
		char err[256] = "";

		assert_int_equal(manifest_parse(&m, bads[c].kind, bads[c].text, "f", err,
						sizeof(err)), -1);
		assert_string_equal(err, bads[c].err);
		assert_int_equal(m.n, 0);
		manifest_release(&m);
	}
}

static void test_collect_manifest_appends(void **state)
{
	struct manifest m = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(manifest_parse(&m, MANIFEST_MODELS, "a | x\n", "f", err, sizeof(err)), 0);
	/* A failing second file leaves the first file's entries alone. */
	assert_int_equal(manifest_parse(&m, MANIFEST_MODELS, "b | y\na | z\n", "g", err,
					sizeof(err)), -1);
	assert_string_equal(err, "g:2: label 'a' is used twice");
	assert_int_equal(m.n, 1);
	assert_int_equal(manifest_parse(&m, MANIFEST_MODELS, "b | y\n", "g", err, sizeof(err)), 0);
	assert_int_equal(m.n, 2);
	assert_int_equal(m.v[1].line, 1);
	assert_non_null(manifest_find(&m, "b"));
	assert_null(manifest_find(&m, "c"));
	manifest_release(&m);
	manifest_release(NULL);
}

static void test_collect_manifest_split(void **state)
{
	static const struct {
		const char *in, *out; /* out: words joined with '/' */
	} cases[] = {
		{ "", "" },
		{ "   ", "" },
		{ "-fa on", "-fa/on" },
		{ "  --x  'a b'  \"c d\" ", "--x/a b/c d" },
		{ "a'b c'd", "ab cd" },
		{ "'' x", "/x" },
		{ "\"q\\\"uote\" back\\ slash", "q\"uote/back slash" },
		{ "'no $expansion' \"$HOME\"", "no $expansion/$HOME" },
	};
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char **argv = NULL, err[128], out[256] = "";
		size_t argc = 0;

		assert_int_equal(manifest_split_args(cases[c].in, &argv, &argc, err, sizeof(err)), 0);
		assert_non_null(argv);
		for (size_t i = 0; i < argc; i++)
			snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", i ? "/" : "",
				 argv[i]);
		assert_string_equal(out, cases[c].out);
		assert_null(argv[argc]);
		manifest_free_args(argv);
	}
}

static void test_collect_manifest_split_unbalanced(void **state)
{
	char **argv = NULL, err[128];
	size_t argc = 0;

	(void)state;
	assert_int_equal(manifest_split_args("a b", &argv, &argc, err, sizeof(err)), 0);
	assert_int_equal(manifest_split_args("c \"d", &argv, &argc, err, sizeof(err)), -1);
	assert_string_equal(err, "unbalanced \" quote in 'c \"d'");
	/* The words of the bad string were taken back. */
	assert_int_equal(argc, 2);
	assert_string_equal(argv[1], "b");
	assert_null(argv[2]);
	manifest_free_args(argv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_collect_manifest_good),
		cmocka_unit_test(test_collect_manifest_bad),
		cmocka_unit_test(test_collect_manifest_appends),
		cmocka_unit_test(test_collect_manifest_split),
		cmocka_unit_test(test_collect_manifest_split_unbalanced),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
