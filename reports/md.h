/* md.h: the tables of the report, held as cells of raw text and rendered two ways:
 * as GitHub markdown (every label escaped, so a '|' or a newline in an engine or
 * model name cannot break a row) and as plain text aligned in columns for
 * summary.txt. The same table feeds both, so the two files cannot drift. */
#ifndef REPORTS_MD_H
#define REPORTS_MD_H

#include <stddef.h>
#include <stdio.h>

/* One cell: raw, unescaped text (never NULL once set) and whether it is marked
 * (the best rung of a speculative series): bold in markdown, a trailing " *" in
 * plain text. */
struct md_cell {
	char *text;
	int mark;
};

/* A table of ncols columns; row 0 is the header. Cells not set render as "". */
struct md_table {
	size_t ncols, nrows; /* nrows counts the header */
	struct md_cell *cells; /* nrows * ncols, row-major */
	unsigned char *right;  /* per column: 1 = right-aligned in plain text */
};

/* Makes an empty table of ncols columns holding only an empty header row. Release
 * with md_table_release(). */
void md_table_init(struct md_table *t, size_t ncols);
/* Frees the cells and zeroes t; accepts a zeroed table. */
void md_table_release(struct md_table *t);
/* Appends an empty row and returns its index (>= 1). */
size_t md_table_add_row(struct md_table *t);
/* Sets a cell to a copy of text (NULL sets ""); row 0 is the header. */
void md_table_set(struct md_table *t, size_t row, size_t col, const char *text);
/* Sets a cell from a printf format. */
void md_table_setf(struct md_table *t, size_t row, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Sets a cell's mark. */
void md_table_mark(struct md_table *t, size_t row, size_t col);
/* The raw text of a cell, borrowed; "" when unset. */
const char *md_table_get(const struct md_table *t, size_t row, size_t col);

/* Writes t as a GitHub markdown table: "| a | b |", then "|---|---|", then the
 * rows, each cell through escape_md(). Marked cells are "**text**". */
void md_table_write_md(FILE *f, const struct md_table *t);
/* As md_table_write_md(), with every column padded to its widest cell (in UTF-8
 * code points, after escaping) and right-aligned columns padded on the left, so
 * the markdown also reads as a table in a terminal or a diff (as the pipe tables
 * of llama.cpp's compare-llama-bench.py do). Renders the same on GitHub. */
void md_table_write_gfm(FILE *f, const struct md_table *t);
/* Writes t as plain text: columns padded to their widest cell (in UTF-8 code
 * points), two spaces apart, a dashed rule under the header, each cell through
 * md_plain(); a marked cell ends in " *". No trailing blanks on a line. */
void md_table_write_text(FILE *f, const struct md_table *t);

/* How md_table_write_styled() lays out plain text; zeroed, it is the layout of
 * md_table_write_text() without the rule. */
struct md_text_style {
	int rule;                /* a dashed rule under the header */
	int align_header;        /* header cells take their column's alignment, not left */
	const size_t *min_width; /* per column, the least width; NULL for none */
	const char *indent;      /* written before every line; NULL for none */
	int plain_marks;         /* a marked cell is written as it is, without " *"
				    (emphasis that only markdown shows) */
};

/* The one aligned-table printer: md_table_write_text() for the report, and
 * table_write()'s text (table.h) for every command's table, collect's summary
 * included. Columns two spaces apart, each as wide as its widest cell (or min_width),
 * a line padded only up to its last non-empty cell. st is borrowed. */
void md_table_write_styled(FILE *f, const struct md_table *t, const struct md_text_style *st);

/* s for plain text: escape_text() (escape.h): a newline becomes the two characters
 * "\n", a tab "\t", a carriage return "\r", any other control character "\xHH",
 * a C1 character "\u00HH", an invalid byte "\xHH" and a leading "::" "\x3a:", so a
 * label stays on its line, can still be read, and cannot reach a terminal or a CI
 * log as a command. Caller frees; NULL gives "". */
char *md_plain(const char *s);
/* The number of UTF-8 code points in s (continuation bytes not counted). */
size_t md_width(const char *s);
/* The text of a number cell: v printed with the printf format fmt (one double)
 * into buf, or "-" when v is not finite, which is how every table of reports/
 * shows a missing number. */
void md_num(char *buf, size_t len, const char *fmt, double v);

/* $GITHUB_STEP_SUMMARY opened for appending (never truncated), or NULL when it is
 * unset or empty, or after a warning line when it cannot be opened: the summary is
 * a courtesy, never a reason to fail. Close with step_summary_close(). */
FILE *step_summary_open(void);
/* Closes f (NULL is fine), warning when the writes did not all reach the file. */
void step_summary_close(FILE *f);

#endif
