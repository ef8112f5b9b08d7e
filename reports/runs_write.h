/* runs_write.h: the forms of `tpsdb runs`: one table (text, markdown, CSV) for people
 * and spreadsheets, and a JSON array that CI scripts parse (keys are only ever added, never renamed). */
#ifndef REPORTS_RUNS_WRITE_H
#define REPORTS_RUNS_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "reports/table.h"
#include "schema/catalog.h"

/* Writes the n runs as a JSON array, one object per run (uuid ... load_error,
 * load_error_line (its error line, collect/loaderr.h), n_samples, n_failed, n_flagged, pp_median, tg_median; absent values null), and a
 * newline. 0 ok, -1 after an error line when cJSON runs out of memory. */
int runs_write_json(FILE *f, const struct catalog_run *runs, size_t n);

/* The table of the n runs: STARTED (to the second), UUID, STATUS, HOST, ENGINE,
 * VERSION, MODEL, TAG, SPEC, N_MAX, ROUND, SAMPLES, FAILED, PP_RUN_MED, TG_RUN_MED (the
 * medians of this run's requests, one run alone) and,
 * when a run has one, CONFIG; numbers right-aligned, "-" for an absent value.
 * Release t with table_release(). */
void runs_table(struct table *t, const struct catalog_run *runs, size_t n);

/* Writes the n runs as that table in fmt (reports/table.h: every label escaped
 * for its sink), the markdown with a line under it saying the medians are one
 * run's, not compare's pooled estimate. With none: nothing in text, a line
 * saying so in markdown, the header alone in CSV. */
void runs_write(FILE *f, const struct catalog_run *runs, size_t n, enum table_format fmt);

#endif
