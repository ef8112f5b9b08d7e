/* table.h: the one table model of the commands' output. A command fills one table,
 * columns with a kind that decides alignment and number formatting, and one writer
 * renders it as aligned text, GitHub markdown or CSV, so the formats of a command
 * can never show different columns. Built on md_table (md.h). */
#ifndef REPORTS_TABLE_H
#define REPORTS_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "reports/md.h"

/* What a column holds. Numbers are right-aligned; everything else left. */
enum table_kind {
	TABLE_LABEL,    /* a name from the store or the command line */
	TABLE_TEXT,     /* free text */
	TABLE_RATE,     /* tok/s: "%.1f" */
	TABLE_RATIO,    /* a ratio such as acceptance: "%.3f" */
	TABLE_DELTA,    /* a signed percentage: "%+.2f%%" */
	TABLE_PERCENT,  /* an unsigned percentage: "%.2f%%" */
	TABLE_INTERVAL, /* an interval, as text */
	TABLE_VERDICT,  /* a decision word; a marked one is bold in markdown */
	TABLE_COUNT,    /* a whole number */
	TABLE_NUMBER,   /* any other number, as text the caller formats; right-aligned */
};

/* How a table is written. */
enum table_format { TABLE_FMT_TEXT, TABLE_FMT_MD, TABLE_FMT_CSV };

/* What a command prints (its --format, cmd/opts.h's OPT_FORMAT row): a table in
 * one of the table formats, or its own JSON document. */
enum out_format { OUT_TEXT, OUT_JSON, OUT_MD, OUT_CSV };

/* The table format of fmt, which is not OUT_JSON: JSON is each command's own
 * document, not a table. */
enum table_format format_table(enum out_format fmt);

struct table {
	struct md_table t;      /* the cells; t.right follows the kinds */
	enum table_kind *kind;  /* per column */
	size_t *min_width;      /* per column, the least width in text */
	const char *indent;     /* text only: written before every line; NULL for none */
	int rule;               /* text only: a dashed rule under the header */
	int text_marks;         /* text only: a marked cell ends in " *" (else as it is) */
	int left_header;        /* text only: header cells left-aligned */
	size_t key_cols;        /* the first key_cols columns name the group a heading
				   shows in text and markdown: only CSV writes them */
	int md_unpadded;        /* markdown only: cells unpadded under "|---|" rules
				   (md_table_write_md), the layout of the report's pages */
};

/* Makes an empty table of ncols columns, every one TABLE_TEXT with an empty
 * header. Release with table_release(). */
void table_init(struct table *t, size_t ncols);
/* Frees the cells; accepts a zeroed table. */
void table_release(struct table *t);
/* Sets column col's kind, its header (copied; raw text) and its least width in
 * text (0 for none). */
void table_col(struct table *t, size_t col, enum table_kind kind, const char *header,
	       size_t min_width);
/* One column of a table as table_col() sets it: a command's columns are one
 * static array, read by table_init_cols(). */
struct table_colspec {
	enum table_kind kind;
	const char *header;
	size_t min_width;
};
/* Makes a table of the n columns cols[0..n) (table_init(), then table_col() for
 * each). Release with table_release(). */
void table_init_cols(struct table *t, const struct table_colspec *cols, size_t n);
/* Sets column col's header from a printf format. */
void table_col_headf(struct table *t, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Appends an empty row and returns its index (>= 1, row 0 is the header). */
size_t table_add_row(struct table *t);
/* Sets a cell to a copy of text (raw; NULL sets ""). */
void table_set(struct table *t, size_t row, size_t col, const char *text);
/* Sets a cell from a printf format. */
void table_setf(struct table *t, size_t row, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Sets a number cell in the format of its column's kind (a TABLE_RATE, RATIO,
 * DELTA, PERCENT or COUNT; any other kind takes "%.4g"): "-" when v is not finite. */
void table_num(struct table *t, size_t row, size_t col, double v);
/* As table_num(), in the format of kind instead of the column's (a column whose
 * rows hold tok/s and ratios). */
void table_num_as(struct table *t, size_t row, size_t col, enum table_kind kind, double v);
/* Marks a cell: bold in markdown; in text only with text_marks; nothing in CSV. */
void table_mark(struct table *t, size_t row, size_t col);
/* The raw text of a cell, borrowed; "" when unset. */
const char *table_get(const struct table *t, size_t row, size_t col);

/* Writes t to f as fmt: text (columns two spaces apart, each as wide as its widest
 * cell or min_width, every cell through md_plain()), markdown (md_table_write_gfm,
 * or md_table_write_md with md_unpadded: every cell through escape_md()) or CSV (a header line, then one line a row, each
 * field through csv_put()). Text and markdown leave out the key columns. */
void table_write(FILE *f, const struct table *t, enum table_format fmt);

/* Writes one line of prose around a table in fmt: text through md_plain() as it
 * is, markdown through escape_md() (bold when strong), CSV nothing (a CSV is the
 * table alone). */
void table_line(FILE *f, enum table_format fmt, int strong, const char *s);

#endif
