/* calibrate_write.h: what `tpsdb calibrate` prints from the A/A floors that
 * analyze/noise.c found: a text table with a warning per skipped pair, or the JSON
 * document the README documents. */
#ifndef REPORTS_CALIBRATE_WRITE_H
#define REPORTS_CALIBRATE_WRITE_H

#include <stddef.h>

#include "analyze/noise.h"

/* Prints the header line, then per pair in order either a "tpsdb: warning: ..."
 * line on stderr naming why it is not an A/A pair, or one row per metric with a
 * floor on stdout. */
void calibrate_write_text(const struct noise_pair *p, size_t n);

/* Prints {"floors":[...],"skipped":[...]} on stdout. 0 ok, -1 after an error line
 * (out of memory). */
int calibrate_write_json(const struct noise_pair *p, size_t n);

#endif
