/* summary.c: renders the end-of-collect table. Column widths follow the widest
 * cell, numbers are right-aligned, and an absent figure is "-"; md_table_write_styled()
 * lays it out, as it does every aligned table. */
#include "reports/summary.h"
#include "reports/md.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SUMMARY_COLS 10
#define COL_ROUND 3 /* left out when every row has one round */

static void rate(struct md_table *t, size_t row, size_t col, double v)
{
	if (isnan(v))
		md_table_set(t, row, col, "-");
	else
		md_table_setf(t, row, col, "%.1f", v);
}

void summary_render(FILE *f, const struct summary_row *rows, size_t n)
{
	static const char *const head[SUMMARY_COLS] = {
		"model", "engine", "n_max", "round", "status", "ok", "failed", "pp tok/s",
		"tg tok/s", "accept",
	};
	/* Text columns are left-aligned, figures right-aligned. */
	static const unsigned char right[SUMMARY_COLS] = { 0, 0, 1, 1, 0, 1, 1, 1, 1, 1 };
	static const struct md_text_style style = { .align_header = 1, .raw = 1 };
	struct md_table t;
	size_t i, c, col, ncols = SUMMARY_COLS - 1;

	for (i = 0; i < n; i++) {
		if (rows[i].rounds > 1)
			ncols = SUMMARY_COLS;
	}
	md_table_init(&t, ncols);
	for (c = col = 0; c < SUMMARY_COLS; c++) {
		if (c == COL_ROUND && ncols < SUMMARY_COLS)
			continue;
		md_table_set(&t, 0, col, head[c]);
		t.right[col++] = right[c];
	}
	for (i = 0; i < n; i++) {
		const struct summary_row *r = &rows[i];
		size_t row = md_table_add_row(&t);

		col = 0;
		/* A label is cut at 63 bytes, as when cells lived in 64-byte buffers. */
		md_table_setf(&t, row, col++, "%.63s", r->model);
		md_table_setf(&t, row, col++, "%.63s", r->engine);
		if (r->n_max == TPS_NULL)
			md_table_set(&t, row, col++, "-");
		else
			md_table_setf(&t, row, col++, "%lld", (long long)r->n_max);
		if (ncols == SUMMARY_COLS)
			md_table_setf(&t, row, col++, "%lld/%lld", (long long)r->round,
				      (long long)r->rounds);
		md_table_setf(&t, row, col++, "%.63s", r->status);
		md_table_setf(&t, row, col++, "%zu", r->n_ok);
		md_table_setf(&t, row, col++, "%zu", r->n_failed);
		rate(&t, row, col++, r->pp);
		rate(&t, row, col++, r->tg);
		if (isnan(r->accept))
			md_table_set(&t, row, col, "-");
		else
			md_table_setf(&t, row, col, "%.1f%%", 100 * r->accept);
	}
	md_table_write_styled(f, &t, &style);
	md_table_release(&t);
}
