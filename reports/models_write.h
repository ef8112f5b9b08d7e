/* models_write.h: the forms of `tpsdb models`: the registry as one table (text,
 * markdown, CSV) followed by one "ALARM: ..." line per identity alarm, or one JSON document. */
#ifndef REPORTS_MODELS_WRITE_H
#define REPORTS_MODELS_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "reports/table.h"
#include "schema/catalog.h"

/* Writes {"models": [{"label", "file", "bytes", "sha256", "quant", "hosts", "runs"}],
 * "alarms": [...as alarms_json()]} and a newline; an unknown size is null. All
 * borrowed. 0 ok, -1 after an error line when cJSON runs out of memory. */
int models_write_json(FILE *f, const struct catalog_model *m, size_t nm,
		      const struct catalog_alarm *a, size_t na);

/* The registry's table: LABEL FILE BYTES SHA256 (its first twelve hex digits) QUANT
 * RUNS HOSTS, "-" for unknown. Release t with table_release(). All borrowed. */
void models_table(struct table *t, const struct catalog_model *m, size_t nm);

/* Writes the registry's table in fmt (in text and markdown none when nm is 0),
 * then "ALARM: <text>" per alarm (a markdown list item; with CSV, on stderr, so
 * stdout stays one table). All borrowed. */
void models_write(FILE *f, const struct catalog_model *m, size_t nm,
		  const struct catalog_alarm *a, size_t na, enum table_format fmt);

#endif
