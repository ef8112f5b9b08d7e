/* md.c: markdown and plain-text rendering of the report's tables. Labels come from
 * the command line and the store, so every cell is escaped on the way out: a row of
 * the markdown is always exactly one line with ncols + 1 unescaped pipes. */
#include "reports/md.h"
#include "strbuf.h"
#include "escape.h"
#include "tpsdb.h"

#include <math.h>
#include <stdarg.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void md_table_init(struct md_table *t, size_t ncols)
{
	t->ncols = ncols;
	t->nrows = 1;
	t->cells = tps_xcalloc(ncols, sizeof(*t->cells));
	t->right = tps_xcalloc(ncols, 1);
}

void md_table_release(struct md_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; t->cells && i < t->nrows * t->ncols; i++)
		free(t->cells[i].text);
	free(t->cells);
	free(t->right);
	memset(t, 0, sizeof(*t));
}

size_t md_table_add_row(struct md_table *t)
{
	t->cells = tps_xrealloc(t->cells, (t->nrows + 1) * t->ncols * sizeof(*t->cells));
	memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof(*t->cells));
	return t->nrows++;
}

void md_table_set(struct md_table *t, size_t row, size_t col, const char *text)
{
	struct md_cell *c = &t->cells[row * t->ncols + col];

	free(c->text);
	c->text = tps_xstrdup(text ? text : "");
}

void md_table_setf(struct md_table *t, size_t row, size_t col, const char *fmt, ...)
{
	struct md_cell *c = &t->cells[row * t->ncols + col];
	va_list ap;
	char *p = NULL;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		p = tps_xstrdup("");
	va_end(ap);
	free(c->text);
	c->text = p;
}

void md_table_mark(struct md_table *t, size_t row, size_t col)
{
	t->cells[row * t->ncols + col].mark = 1;
}

const char *md_table_get(const struct md_table *t, size_t row, size_t col)
{
	const char *s = t->cells[row * t->ncols + col].text;
	return s ? s : "";
}


char *md_plain(const char *s)
{
	return escape_text(s);
}

size_t md_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++) {
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	}
	return w;
}

void md_table_write_md(FILE *f, const struct md_table *t)
{
	size_t r, c;

	for (r = 0; r < t->nrows; r++) {
		fputc('|', f);
		for (c = 0; c < t->ncols; c++) {
			const struct md_cell *cell = &t->cells[r * t->ncols + c];
			char *e = escape_md(cell->text);
			if (cell->mark && *e)
				fprintf(f, " **%s** |", e);
			else
				fprintf(f, " %s |", e);
			free(e);
		}
		fputc('\n', f);
		if (r == 0) {
			fputc('|', f);
			for (c = 0; c < t->ncols; c++)
				fputs(t->right[c] ? "--:|" : "---|", f);
			fputc('\n', f);
		}
	}
}

void md_table_write_gfm(FILE *f, const struct md_table *t)
{
	size_t n = t->nrows * t->ncols, r, c, k;
	char **txt = tps_xcalloc(n, sizeof(*txt));
	size_t *width = tps_xcalloc(t->ncols, sizeof(*width));

	for (r = 0; r < t->nrows; r++) {
		for (c = 0; c < t->ncols; c++) {
			const struct md_cell *cell = &t->cells[r * t->ncols + c];
			char *e = escape_md(cell->text), *m;
			size_t w;
			if (cell->mark && *e) {
				m = tps_xasprintf("**%s**", e);
				free(e);
				e = m;
			}
			txt[r * t->ncols + c] = e;
			w = md_width(e);
			if (w > width[c])
				width[c] = w;
		}
	}
	for (c = 0; c < t->ncols; c++) {
		if (width[c] < 3)
			width[c] = 3; /* room for the "--:" of the rule */
	}
	for (r = 0; r < t->nrows; r++) {
		fputc('|', f);
		for (c = 0; c < t->ncols; c++) {
			const char *e = txt[r * t->ncols + c];
			size_t pad = width[c] - md_width(e);
			fputc(' ', f);
			for (k = 0; t->right[c] && k < pad; k++)
				fputc(' ', f);
			fputs(e, f);
			for (k = 0; !t->right[c] && k < pad; k++)
				fputc(' ', f);
			fputs(" |", f);
		}
		fputc('\n', f);
		if (r == 0) {
			fputc('|', f);
			for (c = 0; c < t->ncols; c++) {
				for (k = 0; k < width[c] + 1; k++)
					fputc('-', f);
				fputs(t->right[c] ? ":|" : "-|", f);
			}
			fputc('\n', f);
		}
	}
	for (r = 0; r < n; r++)
		free(txt[r]);
	free(txt);
	free(width);
}

void md_table_write_styled(FILE *f, const struct md_table *t, const struct md_text_style *st)
{
	size_t n = t->nrows * t->ncols, r, c, total = 0;
	char **txt = tps_xcalloc(n, sizeof(*txt));
	size_t *width = tps_xcalloc(t->ncols, sizeof(*width));

	for (c = 0; st->min_width && c < t->ncols; c++)
		width[c] = st->min_width[c];
	for (r = 0; r < t->nrows; r++) {
		for (c = 0; c < t->ncols; c++) {
			const struct md_cell *cell = &t->cells[r * t->ncols + c];
			/* Every cell goes through md_plain(): a label from the store must
			 * never reach a terminal as an escape code or a CI log as a
			 * workflow command, whatever the caller did before. */
			char *p = md_plain(cell->text), *q;
			size_t w;
			if (cell->mark && *p && !st->plain_marks) {
				q = tps_xasprintf("%s *", p);
				free(p);
				p = q;
			}
			txt[r * t->ncols + c] = p;
			w = md_width(p);
			if (w > width[c])
				width[c] = w;
		}
	}
	for (c = 0; c < t->ncols; c++)
		total += width[c] + (c ? 2 : 0);
	for (r = 0; r < t->nrows; r++) {
		/* Pad only up to the last non-empty cell, so no line ends in blanks. */
		size_t last = 0;
		for (c = 0; c < t->ncols; c++) {
			if (*txt[r * t->ncols + c])
				last = c;
		}
		if (st->indent)
			fputs(st->indent, f);
		for (c = 0; c <= last; c++) {
			const char *p = txt[r * t->ncols + c];
			size_t w = md_width(p), pad = width[c] - w, k;
			int rightmost = c == last;
			if (c)
				fputs("  ", f);
			if (t->right[c] && (r > 0 || st->align_header)) {
				for (k = 0; k < pad; k++)
					fputc(' ', f);
				fputs(p, f);
			} else {
				fputs(p, f);
				for (k = 0; !rightmost && k < pad; k++)
					fputc(' ', f);
			}
		}
		fputc('\n', f);
		if (r == 0 && st->rule) {
			size_t k;
			if (st->indent)
				fputs(st->indent, f);
			for (k = 0; k < total; k++)
				fputc('-', f);
			fputc('\n', f);
		}
	}
	for (r = 0; r < n; r++)
		free(txt[r]);
	free(txt);
	free(width);
}

void md_table_write_text(FILE *f, const struct md_table *t)
{
	static const struct md_text_style report = { .rule = 1 };

	md_table_write_styled(f, t, &report);
}

void md_num(char *buf, size_t len, const char *fmt, double v)
{
	if (isfinite(v))
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "-");
}

FILE *step_summary_open(void)
{
	const char *path = getenv("GITHUB_STEP_SUMMARY");
	FILE *f;

	if (!path || !*path)
		return NULL;
	if (!(f = fopen(path, "a")))
		tps_warning("cannot append to $GITHUB_STEP_SUMMARY '%s': %s", path,
			    strerror(errno));
	return f;
}

void step_summary_close(FILE *f)
{
	int bad;

	if (!f)
		return;
	bad = ferror(f);
	if (fclose(f) != 0 || bad)
		tps_warning("cannot write $GITHUB_STEP_SUMMARY: %s",
			    errno ? strerror(errno) : "write error");
}
