/* sweep_md.h: `tpsdb sweep --format md`, the speculative series as GitHub markdown:
 * one table of rungs per shown series, its violations in bold. */
#ifndef REPORTS_SWEEP_MD_H
#define REPORTS_SWEEP_MD_H

#include <stdio.h>

#include "analyze/series.h"

/* Writes, for each series of set shown under v, a heading (engine, model, spec
 * type) and a table of its rungs (n_max, run, decode tok/s, speedup, acceptance,
 * tokens per cycle, ms per cycle, samples, status): a rung that decode falls to by
 * more than tolerance_pct, decided, is "**falls -x%**", an undecided dip (pooled
 * runs whose interval straddles the tolerance) "undecided -x% (95% CI ..)", else
 * "ok"; a pooled rung's run is its newest with the count of runs, its decode speed
 * with the 95% interval across runs. Then the count of decided violations, and of
 * undecided dips when any. Labels escaped. */
void sweep_md_write(FILE *f, const struct series_view *v, double tolerance_pct,
		    const struct series_set *set);

#endif
