/* series.h: the speculative series of the runs schema/series_load.c loaded, for the
 * commands that still hand those runs over as they were loaded (sweep, gate). The
 * field-by-field view is schema/report_load.h's report_series_runs(); this only
 * hands it to analyze/series.c. */
#ifndef REPORTS_SERIES_H
#define REPORTS_SERIES_H

#include <stddef.h>

#include "analyze/series.h"
#include "schema/series_load.h"

/* Assembles the series of runs[0..n) (the speculative runs as schema/ loaded them)
 * with series_assemble(). Fills *out, which the caller releases with
 * series_set_release() (also after -1). 0 ok, -1 after an error line (tolerance_pct
 * NaN or negative). */
int series_from_decode(const struct store_decode *runs, size_t n, double tolerance_pct,
		       struct series_set *out);

#endif
