/* compare_md.h: `tpsdb compare --format md`, the parity table as GitHub markdown,
 * the form llama.cpp pull requests paste (compare-llama-bench.py's tables), with
 * each verdict's significance in view. */
#ifndef REPORTS_COMPARE_MD_H
#define REPORTS_COMPARE_MD_H

#include <stdio.h>

#include "analyze/parity.h"

/* Writes a heading naming ours and vs, one table row per cell and metric (cell,
 * metric, the two medians in tok/s, delta, 95% CI, p, pairs, rounds, mde, band,
 * verdict, decided), the undecided rows' leanings and the warnings as lists, and a
 * legend. A decided faster or slower is bold; "decided" is the verdict's decided
 * (for one round, its significance). Every label
 * goes through md_escape(). band_pct is the --band asked for. */
void compare_md_write(FILE *f, const struct parity_result *r, const char *ours,
		      const char *vs, double band_pct);

#endif
