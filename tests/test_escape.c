/* test_escape.c: reports/escape.c, the one place untrusted text is made safe per
 * sink: the UTF-8 decoder's edge cases, and each sink's escapes (terminal text,
 * GitHub workflow messages and properties, XML, CDATA, JSON's UTF-8 repair). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "reports/json.h"

/* Checks that f(in) is want, freeing the result. */
static void expect(char *(*f)(const char *), const char *in, const char *want)
{
	char *got = f(in);
	assert_string_equal(got, want);
	free(got);
}

static void test_utf8_seq(void **state)
{
	unsigned cp = 0;

	(void)state;
	assert_int_equal(escape_utf8_seq("A", &cp), 1);
	assert_int_equal(escape_utf8_seq("\xc3\xa9", &cp), 2);
	assert_int_equal(cp, 0xe9);
	assert_int_equal(escape_utf8_seq("\xe2\x82\xac", &cp), 3);
	assert_int_equal(escape_utf8_seq("\xf0\x9f\x98\x80", &cp), 4);
	assert_int_equal(escape_utf8_seq("\xc0\xaf", &cp), 0);     /* overlong */
	assert_int_equal(escape_utf8_seq("\xed\xa0\x80", &cp), 0); /* surrogate */
	assert_int_equal(escape_utf8_seq("\xf4\x90\x80\x80", &cp), 0); /* > U+10FFFF */
	assert_int_equal(escape_utf8_seq("\xe2\x82", &cp), 0);     /* cut by the end */
	assert_int_equal(escape_utf8_seq("\x80", &cp), 0);         /* lone continuation */
	assert_int_equal(escape_utf8_seq("\xff", &cp), 0);
}

static void test_utf8_repair(void **state)
{
	(void)state;
	expect(escape_utf8, "ok \xc3\xa9", "ok \xc3\xa9");
	expect(escape_utf8, "a\xff" "b", "a\xef\xbf\xbd" "b");
	expect(escape_utf8, "\xe2\x82", "\xef\xbf\xbd\xef\xbf\xbd");
	assert_null(escape_utf8(NULL));
}

static void test_text(void **state)
{
	(void)state;
	expect(escape_text, "plain caf\xc3\xa9", "plain caf\xc3\xa9");
	expect(escape_text, "a\nb\tc\rd", "a\\nb\\tc\\rd");
	expect(escape_text, "\x1b[31mred\x7f", "\\x1b[31mred\\x7f");
	expect(escape_text, "\xc2\x9b" "31m", "\\u009b31m");
	expect(escape_text, "\xff\xfe", "\\xff\\xfe");
	expect(escape_text, "::add-mask::x", "\\x3a:add-mask::x");
	expect(escape_text, "x\n::error::y", "x\\n::error::y");
	expect(escape_text, NULL, "");
}

static char *gh_msg(const char *s)
{
	return escape_github(s, 0);
}

static char *gh_prop(const char *s)
{
	return escape_github(s, 1);
}

static void test_github(void **state)
{
	(void)state;
	expect(gh_msg, "50% a\r\nb", "50%25 a%0D%0Ab");
	expect(gh_msg, "a:b,c", "a:b,c");
	expect(gh_prop, "a:b,c%\n", "a%3Ab%2Cc%25%0A");
	expect(gh_msg, "\x1b[2J\xc2\x85\xff", "\\x1b[2J\\u0085\\xff");
	expect(gh_msg, "\n::add-mask::s", "%0A::add-mask::s");
}

static void test_xml_cdata(void **state)
{
	(void)state;
	expect(escape_xml, "<a b=\"c\" d='e'>&]]>", "&lt;a b=&quot;c&quot; d=&apos;e&apos;&gt;&amp;]]&gt;");
	expect(escape_xml, "\x01\xc2\x9b\xff", "??\xef\xbf\xbd");
	expect(escape_cdata, "a]]>b]]]>", "a]] >b]]] >");
	expect(escape_cdata, "\xff", "\xef\xbf\xbd");
}

static void test_json_print(void **state)
{
	cJSON *root = cJSON_CreateObject(), *arr, *back;
	char *text;

	(void)state;
	cJSON_AddStringToObject(root, "label", "bad\xff\xc3");
	arr = cJSON_AddArrayToObject(root, "list");
	cJSON_AddItemToArray(arr, cJSON_CreateString("\xe2\x82"));
	cJSON_AddStringToObject(root, "k\xfe", "ok");
	text = json_print(root);
	assert_non_null(text);
	back = cJSON_Parse(text);
	assert_non_null(back);
	assert_string_equal(cJSON_GetObjectItem(back, "label")->valuestring,
			    "bad\xef\xbf\xbd\xef\xbf\xbd");
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(back, "list"), 0)->valuestring,
			    "\xef\xbf\xbd\xef\xbf\xbd");
	assert_non_null(cJSON_GetObjectItem(back, "k\xef\xbf\xbd"));
	cJSON_Delete(back);
	cJSON_free(text);
	cJSON_Delete(root);
}

/* The markdown and CSV sinks moved here from reports/md.c and reports/csv.c. */
static void test_md_csv(void **state)
{
	char *got;

	(void)state;
	expect(escape_md, "a|b\n*c*\r\t[d]<e>`\\", "a\\|b<br>\\*c\\* \\[d\\]\\<e\\>\\`\\\\");
	expect(escape_md, "n_max \x1b\xc2\x9b\xff", "n_max ??\xef\xbf\xbd");
	expect(escape_md, NULL, "");
	expect(escape_csv, "plain text", "plain text");
	expect(escape_csv, "a,b", "\"a,b\"");
	expect(escape_csv, "say \"hi\"\n", "\"say \"\"hi\"\"\n\"");
	expect(escape_csv, "bad\xff", "bad\xef\xbf\xbd");
	got = escape_csv(NULL);
	assert_null(got);
}

/* gnuplot: quotes doubled in a script string, '"' as two quotes in a data field,
 * control characters as spaces, a cut after max code points, CDATA kept whole. */
static void test_gnuplot(void **state)
{
	static const struct {
		const char *in;
		size_t max;
		int field;
		const char *out;
	} cases[] = {
		{ "it's", 100, 0, "it''s" },
		{ "it's", 100, 1, "it's" },
		{ "a\"b", 100, 1, "a''b" },
		{ "a\"b", 100, 0, "a\"b" },
		{ "x\ny\tz\x7f", 100, 0, "x y z " },
		{ "a]]>b", 100, 0, "a]] >b" },
		{ "h\xe9llo", 100, 0, "h\xef\xbf\xbdllo" },
		{ "abcdef", 3, 0, "abc..." },
		{ "", 3, 0, "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *e = escape_gnuplot(cases[i].in, cases[i].max, cases[i].field);
		assert_string_equal(e, cases[i].out);
		free(e);
	}
	{
		char *e = escape_gnuplot(NULL, 5, 0);
		assert_string_equal(e, "");
		free(e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_seq),
		cmocka_unit_test(test_utf8_repair),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_github),
		cmocka_unit_test(test_xml_cdata),
		cmocka_unit_test(test_json_print),
		cmocka_unit_test(test_md_csv),
		cmocka_unit_test(test_gnuplot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
