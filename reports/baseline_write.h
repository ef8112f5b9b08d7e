/* baseline_write.h: the output of `tpsdb baseline list` and `tpsdb baseline show`,
 * as one table (text, markdown, CSV) or as JSON. */
#ifndef REPORTS_BASELINE_WRITE_H
#define REPORTS_BASELINE_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "reports/table.h"
#include "schema/baseline.h"
#include "analyze/cellset.h"

/* `baseline list --json`: a JSON array of {"name", "created_at", "runs",
 * "samples"}. All borrowed. -1 after an error line when cJSON runs out of memory,
 * else 0. */
int baseline_write_list_json(FILE *f, const struct baseline_info *b, size_t n);

/* The table of `baseline list`: name, created, runs, samples. Release t with
 * table_release(). */
void baseline_list_table(struct table *t, const struct baseline_info *b, size_t n);

/* `baseline list`: that table in fmt ("no baselines" when n is 0, but for CSV: its
 * header alone). All borrowed. */
void baseline_write_list(FILE *f, const struct baseline_info *b, size_t n,
			 enum table_format fmt);

/* `baseline show --json`: {"name", "runs": [{"uuid", "engine", "model",
 * "spec_type", "n_max", "endpoint", "tag", "host", "started_at", "samples"}]}. All
 * borrowed. 0 ok, -1 as above. */
int baseline_write_show_json(FILE *f, const char *name, const struct run *runs,
			     size_t n);

/* The table of `baseline show`: uuid, engine, model, spec_type, n_max, tag,
 * samples. Release t with table_release(). */
void baseline_show_table(struct table *t, const struct run *runs, size_t n);

/* `baseline show`: "baseline '<name>': <n> run(s)" and the table in fmt (CSV: the
 * table alone). All borrowed. */
void baseline_write_show(FILE *f, const char *name, const struct run *runs, size_t n,
			 enum table_format fmt);

#endif
