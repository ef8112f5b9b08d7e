/* test_table.c: reports/table.c, the one table writer: the same table as text,
 * markdown and CSV, each column aligned and its numbers formatted by its kind,
 * every label escaped for its sink, marks, key columns and the text's styles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/table.h"

/* table_write(t, fmt) into a heap string the caller frees. */
static char *render(const struct table *t, enum table_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	table_write(f, t, fmt);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void expect(const struct table *t, enum table_format fmt, const char *want)
{
	char *got = render(t, fmt);

	assert_string_equal(got, want);
	free(got);
}

/* A table of two rows: a label, a rate, a delta, a verdict (the second marked). */
static int setup(void **state)
{
	struct table *t = calloc(1, sizeof(*t));
	size_t r;

	table_init(t, 4);
	table_col(t, 0, TABLE_LABEL, "cell", 0);
	table_col(t, 1, TABLE_RATE, "tok/s", 0);
	table_col(t, 2, TABLE_DELTA, "delta", 0);
	table_col(t, 3, TABLE_VERDICT, "verdict", 0);
	r = table_add_row(t);
	table_set(t, r, 0, "dense-8b");
	table_num(t, r, 1, 142.66);
	table_num(t, r, 2, 0.2);
	table_set(t, r, 3, "parity");
	r = table_add_row(t);
	table_set(t, r, 0, "moe");
	table_num(t, r, 1, 1234.5);
	table_num(t, r, 2, -5.987);
	table_set(t, r, 3, "slower");
	table_mark(t, r, 3);
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	table_release(*state);
	free(*state);
	return 0;
}

static void test_table_text(void **state)
{
	expect(*state, TABLE_FMT_TEXT,
	       "cell       tok/s   delta  verdict\n"
	       "dense-8b   142.7  +0.20%  parity\n"
	       "moe       1234.5  -5.99%  slower\n");
}

static void test_table_md(void **state)
{
	expect(*state, TABLE_FMT_MD,
	       "| cell     |  tok/s |  delta | verdict    |\n"
	       "|----------|-------:|-------:|------------|\n"
	       "| dense-8b |  142.7 | +0.20% | parity     |\n"
	       "| moe      | 1234.5 | -5.99% | **slower** |\n");
}

static void test_table_csv(void **state)
{
	expect(*state, TABLE_FMT_CSV,
	       "cell,tok/s,delta,verdict\n"
	       "dense-8b,142.7,+0.20%,parity\n"
	       "moe,1234.5,-5.99%,slower\n");
}

/* Each sink gets its own escape of the same raw label. */
static void test_table_escaping(void **state)
{
	struct table t;
	size_t r;

	(void)state;
	table_init(&t, 2);
	table_col(&t, 0, TABLE_LABEL, "engine", 0);
	table_col(&t, 1, TABLE_COUNT, "n", 0);
	r = table_add_row(&t);
	table_set(&t, r, 0, "a|b\n\"c\",d\x1b");
	table_num(&t, r, 1, 3);
	expect(&t, TABLE_FMT_TEXT,
	       "engine          n\n"
	       "a|b\\n\"c\",d\\x1b  3\n");
	expect(&t, TABLE_FMT_MD,
	       "| engine         |   n |\n"
	       "|----------------|----:|\n"
	       "| a\\|b<br>\"c\",d? |   3 |\n");
	expect(&t, TABLE_FMT_CSV,
	       "engine,n\n"
	       "\"a|b\n\"\"c\"\",d\x1b\",3\n");
	table_release(&t);
}

/* The kinds' formats, and "-" for a number that is not finite. */
static void test_table_kinds(void **state)
{
	static const struct {
		enum table_kind kind;
		double v;
		const char *want;
	} cases[] = {
		{ TABLE_RATE, 13002.25, "13002.2" },
		{ TABLE_RATIO, 0.80345, "0.803" },
		{ TABLE_DELTA, 3.0, "+3.00%" },
		{ TABLE_DELTA, -0.004, "-0.00%" },
		{ TABLE_PERCENT, 0.125, "0.12%" },
		{ TABLE_COUNT, 72, "72" },
		{ TABLE_NUMBER, 6.8e-12, "6.8e-12" },
		{ TABLE_RATE, NAN, "-" },
		{ TABLE_DELTA, INFINITY, "-" },
	};
	struct table t;
	size_t i;

	(void)state;
	table_init(&t, 1);
	table_add_row(&t);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		table_col(&t, 0, cases[i].kind, "x", 0);
		table_num(&t, 1, 0, cases[i].v);
		assert_string_equal(table_get(&t, 1, 0), cases[i].want);
		table_num_as(&t, 1, 0, TABLE_RATIO, 0.5);
		assert_string_equal(table_get(&t, 1, 0), "0.500");
	}
	/* Numbers right-aligned, words left: in text and in the markdown rule. */
	for (i = 0; i < 2; i++)
		table_col(&t, 0, i ? TABLE_LABEL : TABLE_COUNT, "x", 0);
	assert_int_equal(t.t.right[0], 0);
	table_release(&t);
}

/* Text styles: least widths, an indent, a rule, marks shown as " *", key columns
 * only in CSV, and no blank at the end of a line whose last cells are empty. */
static void test_table_text_styles(void **state)
{
	struct table t;
	size_t r;

	(void)state;
	table_init(&t, 4);
	table_col(&t, 0, TABLE_LABEL, "engine", 0);
	table_col(&t, 1, TABLE_LABEL, "cell", 6);
	table_col(&t, 2, TABLE_COUNT, "n", 4);
	table_col(&t, 3, TABLE_TEXT, "note", 0);
	t.key_cols = 1;
	r = table_add_row(&t);
	table_set(&t, r, 0, "ours");
	table_set(&t, r, 1, "m");
	table_set(&t, r, 2, "7");
	table_mark(&t, r, 2);
	t.indent = "  ";
	t.rule = 1;
	expect(&t, TABLE_FMT_TEXT,
	       "  cell       n  note\n"
	       "  ------------------\n"
	       "  m          7\n");
	t.text_marks = 1;
	t.left_header = 1;
	expect(&t, TABLE_FMT_TEXT,
	       "  cell    n     note\n"
	       "  ------------------\n"
	       "  m        7 *\n");
	expect(&t, TABLE_FMT_MD,
	       "| cell |     n | note |\n"
	       "|------|------:|------|\n"
	       "| m    | **7** |      |\n");
	expect(&t, TABLE_FMT_CSV,
	       "engine,cell,n,note\n"
	       "ours,m,7,\n");
	table_release(&t);
}

/* The prose beside a table: escaped per sink, none in a CSV. */
static void test_table_line(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	table_line(f, TABLE_FMT_TEXT, 1, "a|b\n");
	table_line(f, TABLE_FMT_MD, 1, "a|b\n");
	table_line(f, TABLE_FMT_MD, 0, "[x]");
	table_line(f, TABLE_FMT_CSV, 1, "nothing");
	fclose(f);
	assert_string_equal(buf, "a|b\\n\n**a\\|b<br>**\n\\[x\\]\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_table_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_md, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_csv, setup, teardown),
		cmocka_unit_test(test_table_escaping),
		cmocka_unit_test(test_table_kinds),
		cmocka_unit_test(test_table_text_styles),
		cmocka_unit_test(test_table_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
