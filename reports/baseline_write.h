/* baseline_write.h: the output of `tpsdb baseline list` and `tpsdb baseline show`,
 * as text columns or as JSON. */
#ifndef REPORTS_BASELINE_WRITE_H
#define REPORTS_BASELINE_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "schema/baseline.h"
#include "schema/cells.h"

/* `baseline list`: a JSON array of {"name", "created_at", "runs", "samples"}, or
 * text (a header and one line per baseline, "no baselines" when n is 0). All
 * borrowed. The JSON form returns -1 after an error line when cJSON runs out of
 * memory; both 0 otherwise. */
int baseline_write_list(FILE *f, const struct baseline_info *b, size_t n, int json);

/* `baseline show`: {"name", "runs": [{"uuid", "engine", "model", "spec_type",
 * "n_max", "endpoint", "tag", "host", "started_at", "samples"}]} or text ("baseline
 * '<name>': <n> run(s)" and a line per run). All borrowed. 0 ok, -1 as above. */
int baseline_write_show(FILE *f, const char *name, const struct cell_run *runs, size_t n,
			int json);

#endif
