/* summary.h: the one-screen table 'tpsdb collect' prints when it ends, one row per
 * run (a cell of the matrix in one round), so that a failed load or a slow engine is
 * seen at once. With more than one round a column says which ("2/5"). */
#ifndef REPORTS_SUMMARY_H
#define REPORTS_SUMMARY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct summary_row {
	const char *model, *engine;
	int64_t n_max;       /* TPS_NULL for a base run */
	const char *status;  /* complete, partial, failed, interrupted, LOADFAIL */
	size_t n_ok, n_failed;
	double pp, tg;       /* median tok/s over the samples each metric trusts; NAN none */
	double accept;       /* drafted tokens accepted, 0..1; NAN when nothing drafted */
	int64_t round;       /* 1-based */
	int64_t rounds;      /* the rounds planned; 1 (or 0) in every row: no round column */
	const char *why;     /* a failed load's error line; NULL none (no row with one:
				no why column) */
};

/* Writes the table (a header, then rows aligned in columns) to f. Pure apart from
 * the writes; the strings are borrowed. */
void summary_render(FILE *f, const struct summary_row *rows, size_t n);

#endif
