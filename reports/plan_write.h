/* plan_write.h: the three forms of `tpsdb plan`: an aligned text table with the
 * notes under it, the same table as GitHub markdown, and JSON (keys only ever
 * added). Every form carries the numbers of one struct plan_result. */
#ifndef REPORTS_PLAN_WRITE_H
#define REPORTS_PLAN_WRITE_H

#include <stdio.h>

#include "analyze/plan.h"
#include "reports/table.h"

/* Writes r as a table (one row per cell and metric) followed by a line per row
 * without a design saying why, and the notes on how the design was split and the
 * default compared. side are the engine labels (side[1] NULL with one engine);
 * fmt is text, markdown or CSV (the per-metric table alone). Never fails (stream
 * errors are main's). */
void plan_write_table(FILE *f, const struct plan_result *r, const char *const side[2],
		      const struct plan_opts *o, enum table_format fmt);

/* Writes r as one JSON object {"band_pct", "power", "max_rounds", "sides", "rows", ...}
 * and a newline (keys in README "plan --json"). 0 ok, -1 after an error line when
 * out of memory. */
int plan_write_json(FILE *f, const struct plan_result *r, const char *const side[2],
		    const struct plan_opts *o);

/* The error line of a plan without cells: side[1] NULL plans the one engine
 * side[0], else the pair. */
void plan_write_none(const char *const side[2]);

#endif
