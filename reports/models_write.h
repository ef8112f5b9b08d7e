/* models_write.h: the two forms of `tpsdb models`: the registry as an aligned table
 * followed by one "ALARM: ..." line per identity alarm, or one JSON document. */
#ifndef REPORTS_MODELS_WRITE_H
#define REPORTS_MODELS_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "schema/catalog.h"

/* Writes {"models": [{"label", "file", "bytes", "sha256", "quant", "hosts", "runs"}],
 * "alarms": [...as alarms_json()]} and a newline; an unknown size is null. All
 * borrowed. 0 ok, -1 after an error line when cJSON runs out of memory. */
int models_write_json(FILE *f, const struct catalog_model *m, size_t nm,
		      const struct catalog_alarm *a, size_t na);

/* Writes the registry as a table (none when nm is 0: LABEL FILE BYTES SHA256 (its
 * first twelve hex digits) QUANT RUNS HOSTS, "-" for unknown), then "ALARM: <text>"
 * per alarm. All borrowed. */
void models_write_text(FILE *f, const struct catalog_model *m, size_t nm,
		       const struct catalog_alarm *a, size_t na);

#endif
