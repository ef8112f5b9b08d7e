/* table.c: the one writer of the commands' tables (table.h). The kind of a column,
 * not the command, decides how its numbers look and which side they align to, so
 * text, markdown and CSV cannot drift apart. */
#include "escape.h"
#include "reports/table.h"
#include "reports/csv.h"
#include "tpsdb.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static int kind_right(enum table_kind k)
{
	return k == TABLE_RATE || k == TABLE_RATIO || k == TABLE_DELTA || k == TABLE_PERCENT ||
	       k == TABLE_COUNT || k == TABLE_NUMBER;
}

void table_init(struct table *t, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	md_table_init(&t->t, ncols);
	t->kind = tps_xcalloc(ncols ? ncols : 1, sizeof(*t->kind));
	t->min_width = tps_xcalloc(ncols ? ncols : 1, sizeof(*t->min_width));
	for (size_t c = 0; c < ncols; c++)
		t->kind[c] = TABLE_TEXT;
}

void table_release(struct table *t)
{
	if (!t)
		return;
	md_table_release(&t->t);
	free(t->kind);
	free(t->min_width);
	memset(t, 0, sizeof(*t));
}

void table_col(struct table *t, size_t col, enum table_kind kind, const char *header,
	       size_t min_width)
{
	t->kind[col] = kind;
	t->t.right[col] = (unsigned char)kind_right(kind);
	t->min_width[col] = min_width;
	md_table_set(&t->t, 0, col, header);
}

void table_init_cols(struct table *t, const struct table_colspec *cols, size_t n)
{
	table_init(t, n);
	for (size_t c = 0; c < n; c++)
		table_col(t, c, cols[c].kind, cols[c].header, cols[c].min_width);
}

/* The formatted cell of table_col_headf() and table_setf(). */
static void table_vsetf(struct table *t, size_t row, size_t col, const char *fmt, va_list ap)
{
	char *p = NULL;

	if (vasprintf(&p, fmt, ap) < 0)
		p = NULL;
	md_table_set(&t->t, row, col, p);
	free(p);
}

void table_col_headf(struct table *t, size_t col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	table_vsetf(t, 0, col, fmt, ap);
	va_end(ap);
}

size_t table_add_row(struct table *t)
{
	return md_table_add_row(&t->t);
}

void table_set(struct table *t, size_t row, size_t col, const char *text)
{
	md_table_set(&t->t, row, col, text);
}

void table_setf(struct table *t, size_t row, size_t col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	table_vsetf(t, row, col, fmt, ap);
	va_end(ap);
}

void table_num_as(struct table *t, size_t row, size_t col, enum table_kind kind, double v)
{
	char buf[64];
	const char *fmt;

	switch (kind) {
	case TABLE_RATE: fmt = "%.1f"; break;
	case TABLE_RATIO: fmt = "%.3f"; break;
	case TABLE_DELTA: fmt = "%+.2f%%"; break;
	case TABLE_PERCENT: fmt = "%.2f%%"; break;
	case TABLE_COUNT: fmt = "%.0f"; break;
	default: fmt = "%.4g"; break;
	}
	md_num(buf, sizeof(buf), fmt, v);
	md_table_set(&t->t, row, col, buf);
}

void table_num(struct table *t, size_t row, size_t col, double v)
{
	table_num_as(t, row, col, t->kind[col], v);
}

void table_mark(struct table *t, size_t row, size_t col)
{
	md_table_mark(&t->t, row, col);
}

const char *table_get(const struct table *t, size_t row, size_t col)
{
	return md_table_get(&t->t, row, col);
}

static void write_csv(FILE *f, const struct table *t)
{
	size_t r, c;

	for (r = 0; r < t->t.nrows; r++) {
		for (c = 0; c < t->t.ncols; c++) {
			if (c)
				fputc(',', f);
			csv_put(f, md_table_get(&t->t, r, c));
		}
		fputc('\n', f);
	}
}

/* The columns of t from the first one after the key columns, copied into *out. */
static void without_keys(const struct table *t, struct md_table *out)
{
	size_t k = t->key_cols, n = t->t.ncols - k, r, c;

	md_table_init(out, n);
	for (r = 0; r < t->t.nrows; r++) {
		if (r)
			md_table_add_row(out);
		for (c = 0; c < n; c++) {
			md_table_set(out, r, c, md_table_get(&t->t, r, c + k));
			out->cells[r * n + c].mark = t->t.cells[r * t->t.ncols + c + k].mark;
		}
	}
	memcpy(out->right, t->t.right + k, n);
}

enum table_format format_table(enum out_format fmt)
{
	return fmt == OUT_MD ? TABLE_FMT_MD : fmt == OUT_CSV ? TABLE_FMT_CSV : TABLE_FMT_TEXT;
}

void table_write(FILE *f, const struct table *t, enum table_format fmt)
{
	struct md_text_style st = { 0 };
	struct md_table view = { 0 };
	const struct md_table *m = &t->t;

	if (fmt == TABLE_FMT_CSV) {
		write_csv(f, t);
		return;
	}
	if (t->key_cols) {
		without_keys(t, &view);
		m = &view;
	}
	if (fmt == TABLE_FMT_MD && t->md_unpadded) {
		md_table_write_md(f, m);
	} else if (fmt == TABLE_FMT_MD) {
		md_table_write_gfm(f, m);
	} else {
		st.rule = t->rule;
		st.align_header = !t->left_header;
		st.min_width = t->min_width + t->key_cols;
		st.indent = t->indent;
		st.plain_marks = !t->text_marks;
		md_table_write_styled(f, m, &st);
	}
	md_table_release(&view);
}

void table_line(FILE *f, enum table_format fmt, int strong, const char *s)
{
	char *e;

	if (fmt == TABLE_FMT_CSV)
		return;
	if (fmt == TABLE_FMT_MD) {
		e = escape_md(s);
		fprintf(f, strong ? "**%s**\n" : "%s\n", e);
	} else {
		e = md_plain(s);
		fprintf(f, "%s\n", e);
	}
	free(e);
}
