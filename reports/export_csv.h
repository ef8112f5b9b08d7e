/* export_csv.h: `tpsdb export --format csv`, one RFC 4180 row per sample with its
 * run's context before the sample's own columns, rows ending in CRLF. The JSONL
 * form is the store's own codec (schema/record_json.h). */
#ifndef REPORTS_EXPORT_CSV_H
#define REPORTS_EXPORT_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "schema/record.h"

/* Writes the header row (run_uuid ... timings) to f. Write errors are left in
 * ferror(f). */
void export_csv_header(FILE *f);

/* Writes one row per sample of run r (n samples, none for a run without samples):
 * absent values are empty fields, doubles the shortest of %.15g..%.17g that reads
 * back as the same value, flag_names the flag names joined by '|'. Both borrowed.
 * Write errors are left in ferror(f). */
void export_csv_run(FILE *f, const struct run_rec *r, const struct sample_rec *smp, size_t n);

#endif
