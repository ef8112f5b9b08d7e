/* series.c: the series of the speculative runs schema/ loaded, through the one
 * view of them schema/report_load.c gives analyze/series.c. Nothing is decided
 * here: absent sums travel as the store reported them. */
#include "reports/series.h"
#include "schema/report_load.h"

#include <stdlib.h>

#include "tpsdb.h"

/* series_assemble() of runs[0..n), with the error line the commands print when
 * it refuses (tolerance_pct NaN or negative). */
static int series_build(const struct series_run *runs, size_t n, double tolerance_pct,
			struct series_set *out)
{
	if (series_assemble(runs, n, tolerance_pct, out) < 0)
		return tps_error("cannot analyse the sweep: the tolerance must be a number >= 0");
	return 0;
}

int series_from_decode(const struct store_decode *runs, size_t n, double tolerance_pct,
		       struct series_set *out)
{
	struct series_run *v = report_series_runs(runs, n);
	int ret = series_build(v, n, tolerance_pct, out);

	free(v);
	return ret;
}
