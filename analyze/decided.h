/* decided.h: the stopping rule of `tpsdb collect --until-decided`. Given the parity
 * rows of one comparison (analyze/parity.h), it groups them into cells (model,
 * spec type, n_max, endpoint) and says which are decided: a cell is decided when it
 * has a pp row and a tg row and both are decided in verdict_rounds()'s sense (the
 * whole 95% interval beyond the band, faster or slower; or the 90% interval inside
 * it, parity by two one-sided tests). Pure: no stdio, no store. */
#ifndef ANALYZE_DECIDED_H
#define ANALYZE_DECIDED_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/parity.h"

/* One cell of a comparison: its rows per metric (borrowed from the result; NULL
 * when the metric has no row) and whether the cell is decided. */
struct decided_cell {
	const struct parity_row *row[PARITY_N_METRICS];
	int decided;
};

/* Groups r's rows into cells in row order (rows of one cell are adjacent, as
 * parity_decide() writes them). *out receives a heap array the caller frees (NULL
 * when there is no row); returns the number of cells. */
size_t decided_cells(const struct parity_result *r, struct decided_cell **out);

/* The index of the cell of cells[0..n) with this spec type ("" or NULL: base) and
 * n_max (INT64_MIN: none), or SIZE_MAX when none matches. */
size_t decided_find(const struct decided_cell *cells, size_t n, const char *spec_type,
		    int64_t n_max);

/* A row's state in words, into buf: "parity (+0.31%, mde 0.84%)", "slower
 * (-4.52%, mde 1.10%)", "undecided (+1.20%, mde 3.40%)"; a non-finite figure is
 * written "?". */
void decided_describe(const struct parity_row *row, char *buf, size_t len);

#endif
