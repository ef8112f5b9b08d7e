/* summary.c: renders the end-of-collect table. Column widths follow the widest
 * cell, numbers are right-aligned, and an absent figure is "-". */
#include "reports/summary.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SUMMARY_COLS 9

static void fmt_rate(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", v);
}

void summary_render(FILE *f, const struct summary_row *rows, size_t n)
{
	static const char *const head[SUMMARY_COLS] = {
		"model", "engine", "n_max", "status", "ok", "failed", "pp tok/s", "tg tok/s",
		"accept",
	};
	/* Text columns are left-aligned, figures right-aligned. */
	static const int right[SUMMARY_COLS] = { 0, 0, 1, 0, 1, 1, 1, 1, 1 };
	char (*cells)[SUMMARY_COLS][64] = tps_xcalloc(n + 1, sizeof(*cells));
	size_t width[SUMMARY_COLS] = { 0 }, i, c;

	for (c = 0; c < SUMMARY_COLS; c++)
		snprintf(cells[0][c], sizeof(cells[0][c]), "%s", head[c]);
	for (i = 0; i < n; i++) {
		const struct summary_row *r = &rows[i];
		char (*row)[64] = cells[i + 1];
		snprintf(row[0], 64, "%s", r->model);
		snprintf(row[1], 64, "%s", r->engine);
		if (r->n_max == TPS_NULL)
			snprintf(row[2], 64, "-");
		else
			snprintf(row[2], 64, "%lld", (long long)r->n_max);
		snprintf(row[3], 64, "%s", r->status);
		snprintf(row[4], 64, "%zu", r->n_ok);
		snprintf(row[5], 64, "%zu", r->n_failed);
		fmt_rate(r->pp, row[6], 64);
		fmt_rate(r->tg, row[7], 64);
		if (isnan(r->accept))
			snprintf(row[8], 64, "-");
		else
			snprintf(row[8], 64, "%.1f%%", 100 * r->accept);
	}
	for (i = 0; i <= n; i++) {
		for (c = 0; c < SUMMARY_COLS; c++) {
			size_t w = strlen(cells[i][c]);
			if (w > width[c])
				width[c] = w;
		}
	}
	for (i = 0; i <= n; i++) {
		for (c = 0; c < SUMMARY_COLS; c++) {
			int w = (int)width[c];
			const char *sep = c + 1 < SUMMARY_COLS ? "  " : "\n";
			if (c + 1 == SUMMARY_COLS && !right[c])
				fprintf(f, "%s%s", cells[i][c], sep);
			else if (right[c])
				fprintf(f, "%*s%s", w, cells[i][c], sep);
			else
				fprintf(f, "%-*s%s", w, cells[i][c], sep);
		}
	}
	free(cells);
}
