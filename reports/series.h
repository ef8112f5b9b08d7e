/* series.h: hands the runs schema/series_load.c loaded to analyze/series.c. The
 * store's types and the analysis' types stay apart (analyze/ sees no schema/
 * header), so this is the one place that reads one into the other. */
#ifndef REPORTS_SERIES_H
#define REPORTS_SERIES_H

#include <stddef.h>

#include "analyze/series.h"
#include "schema/series_load.h"

/* Assembles the series of runs[0..n) (as store_load_decode() filled them) with
 * series_assemble(). Fills *out, which the caller releases with series_set_release()
 * (also after -1). 0 ok, -1 after an error line (tolerance_pct NaN or negative). */
int series_from_decode(const struct store_decode *runs, size_t n, double tolerance_pct,
		       struct series_set *out);

#endif
