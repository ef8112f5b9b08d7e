/* trend_write.h: the text and JSON of 'tpsdb trend', one entry per history series
 * and metric with the change points analyze/trend.h found in it. Renders only:
 * the series come loaded (schema/history.h) and the trend decided. */
#ifndef REPORTS_TREND_WRITE_H
#define REPORTS_TREND_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/trend.h"
#include "schema/history.h"

/* One series and what was found in it; all borrowed. */
struct trend_write_item {
	const struct history_series *se;
	const char *metric; /* "pp" or "tg" */
	const struct trend *t;
};

/* Writes items[0..n) to f: as text, a line per series ("<engine> <model> <config>
 * <metric>: <n> runs, <k> change points"), a line per change point and a line when
 * the latest change is a regression, or "no runs with usable samples" when n is 0;
 * as JSON (json != 0), {"series": [...]} with the keys 'tpsdb trend --help' lists.
 * Labels are made printable in text. 0 ok, -1 after an error line (out of memory
 * building the JSON). */
int trend_write(FILE *f, const struct trend_write_item *items, size_t n, int json);

/* The config of a series as the text names it ("base", "draft-simple n_max=3",
 * "... (chat)"), raw, into buf; returns buf. */
const char *trend_write_config(const struct history_series *se, char *buf, size_t len);

#endif
