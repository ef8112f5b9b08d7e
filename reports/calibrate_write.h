/* calibrate_write.h: what `tpsdb calibrate` prints from the A/A floors that
 * analyze/noise.c found: a table (text, markdown, CSV) with a warning per skipped pair, or the JSON
 * document the README documents. */
#ifndef REPORTS_CALIBRATE_WRITE_H
#define REPORTS_CALIBRATE_WRITE_H

#include <stddef.h>

#include <stdio.h>

#include "analyze/noise.h"
#include "reports/table.h"

/* The table of the floors: one row per pair and metric with a floor (CELL, ENGINE,
 * METRIC, FLOOR_%, PAIRS, RUNS: the two runs' first eight hex digits). Release t
 * with table_release(). */
void calibrate_table(struct table *t, const struct noise_pair *p, size_t n);

/* Prints a "tpsdb: warning: ..." line on stderr per pair that is not an A/A pair,
 * naming why, then the table (its header alone when no pair has a floor) to f in
 * fmt. */
void calibrate_write(FILE *f, const struct noise_pair *p, size_t n, enum table_format fmt);

/* Prints a "tpsdb: warning: ..." line on stderr per pair whose two runs hold
 * identical samples (the same results imported twice), which gives no floor. */
void calibrate_write_identical(const struct noise_pair *p, size_t n);

/* Prints {"floors":[...],"skipped":[...]} on stdout. 0 ok, -1 after an error line
 * (out of memory). */
int calibrate_write_json(const struct noise_pair *p, size_t n);

#endif
