/* trend_write.h: the tables (text, markdown, CSV) and JSON of 'tpsdb trend', one entry per history series
 * and metric with the change points analyze/trend.h found in it. Renders only:
 * the series come loaded (cmd/side.h) and the trend decided. */
#ifndef REPORTS_TREND_WRITE_H
#define REPORTS_TREND_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/trend.h"
#include "reports/table.h"

/* The tables of items[0..n): one row per series (engine, model, config, metric,
 * runs, first and last build or date, change points, latest: a regression
 * marked) into *series, one per change point (engine, model, config, metric, the
 * run of the new level, its tag and version, at run, before, after, change: a
 * fall marked, p) into *cps. Release both with table_release(). */
void trend_tables(struct table *series, struct table *cps, const struct trend_item *items,
		  size_t n);

/* Writes items[0..n) to f in fmt: the table of series, then (when there is one)
 * the table of change points, or a line saying there are no runs with usable
 * samples when n is 0; CSV is the table of series alone. */
void trend_write(FILE *f, const struct trend_item *items, size_t n,
		 enum table_format fmt);

/* Writes {"series": [...]} with the keys 'tpsdb trend --help' lists. 0 ok, -1
 * after an error line (out of memory). */
int trend_write_json(FILE *f, const struct trend_item *items, size_t n);

#endif
