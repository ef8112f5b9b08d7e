/* trend_md.h: `tpsdb trend --format md`, the series and their change points as
 * GitHub markdown tables, for a pull request or a CI summary. */
#ifndef REPORTS_TREND_MD_H
#define REPORTS_TREND_MD_H

#include <stddef.h>
#include <stdio.h>

#include "reports/trend_write.h"

/* Writes a table of the n series (engine, model, config, metric, runs, first and
 * last run's version or start, change points, latest: "**regression**" when the
 * newest change is a fall, else "-"), then, when any series has one, a table of
 * the change points (series, the run where the new level starts, its tag and
 * version, before, after, change %, p). Labels escaped; "_No runs with usable
 * samples._" when n is 0. */
void trend_md_write(FILE *f, const struct trend_write_item *items, size_t n);

#endif
