/* compare_write.h: what `tpsdb compare` prints from a parity decision
 * (analyze/parity.h): the warnings, the aligned text table and the JSON document
 * the README documents. */
#ifndef REPORTS_COMPARE_WRITE_H
#define REPORTS_COMPARE_WRITE_H

#include <stddef.h>

#include "analyze/config.h"
#include "analyze/parity.h"

/* Prints each note of r as a "tpsdb: warning: ..." line on stderr, in order. */
void compare_write_notes(const struct parity_result *r);

/* Prints the parity table of r's rows on stdout, columns headed by the engine
 * labels ours and vs, and the legend line under it. */
/* band_pct is the --band asked for: a row whose mde_pct is wider is led by a line
 * saying so; undecided rows are followed by how far from decided they are. */
void compare_write_text(const struct parity_result *r, const char *ours, const char *vs,
			double band_pct);

/* Writes into buf (len bytes) the tail of the "no cell measured by both" error:
 * which config keys the nearest cells of ours and vs differ in, with each side's
 * value, and the --ignore-config that would pair them. */
void compare_write_near(char *buf, size_t len, const struct config_near *n, const char *ours,
			const char *vs);

/* How many rows are llama-bench cells of one process a side, which decide
 * nothing (their reason is ESTIMATE_REASON_ONE_INSTANCE). */
size_t compare_one_instance_cells(const struct parity_result *r);

/* Prints {"rows":[...],"warnings":[...]} on stdout. 0 ok, -1 after an error line
 * (out of memory). */
int compare_write_json(const struct parity_result *r);

#endif
