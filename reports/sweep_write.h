/* sweep_write.h: the output of 'tpsdb sweep': each shown series as a table of its
 * rungs with its violations, anomalies and shape steps, then the per-rung gaps
 * between engines; as text or as the documented JSON. */
#ifndef REPORTS_SWEEP_WRITE_H
#define REPORTS_SWEEP_WRITE_H

#include <stdio.h>

#include "analyze/series.h"

/* Writes the text report of set under v to out; tolerance_pct is the one the set
 * was analysed with (shown in violations and used for the shape check). */
void sweep_write_text(FILE *out, const struct series_view *v, double tolerance_pct,
		      const struct series_set *set);

/* Writes {"series":[...],"gaps":[...]} for set under v to out. 0 ok, -1 after an
 * error line (out of memory). */
int sweep_write_json(FILE *out, const struct series_view *v, double tolerance_pct,
		     const struct series_set *set);

#endif
