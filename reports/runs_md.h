/* runs_md.h: `tpsdb runs --format md`, the list of runs as a GitHub markdown table
 * for an issue or a pull request. */
#ifndef REPORTS_RUNS_MD_H
#define REPORTS_RUNS_MD_H

#include <stddef.h>
#include <stdio.h>

#include "schema/catalog.h"

/* Writes the n runs as one markdown table (the columns of the text table, every
 * label escaped, numbers right-aligned), or a line saying there are none. */
void runs_md_write(FILE *f, const struct catalog_run *runs, size_t n);

#endif
