/* runs_write.h: the two forms of `tpsdb runs`: an aligned table for people and a
 * JSON array that CI scripts parse (keys are only ever added, never renamed). */
#ifndef REPORTS_RUNS_WRITE_H
#define REPORTS_RUNS_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "schema/catalog.h"

/* Writes the n runs as a JSON array, one object per run (uuid ... load_error,
 * n_samples, n_failed, n_flagged, pp_median, tg_median; absent values null), and a
 * newline. 0 ok, -1 after an error line when cJSON runs out of memory. */
int runs_write_json(FILE *f, const struct catalog_run *runs, size_t n);

/* Writes the n runs (n > 0) as a table: STARTED (to the second) ... PP_MED, TG_MED;
 * numbers right-aligned, "-" for an absent value, control characters as '?'. */
void runs_write_table(FILE *f, const struct catalog_run *runs, size_t n);

struct md_table;

/* Fills t (made here with md_table_init(); the caller releases it) with the table
 * runs_write_table() prints: a header row, then a row per run. */
void runs_write_fill(struct md_table *t, const struct catalog_run *runs, size_t n);

#endif
