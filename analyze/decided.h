/* decided.h: the stopping rule of `tpsdb collect --until-decided`. Given the parity
 * rows of one comparison (analyze/parity.h), it groups them into cells (model,
 * spec type, n_max, endpoint) and says which are decided: a cell is decided when it
 * has a row of every metric the batch watches (pp and tg, or one of them with
 * collect's --metric) and each answers the batch's question: the regression
 * question (yes or no, the default) or the two-sided one (faster, slower or
 * parity). A metric not watched is not asked. The rows' intervals already pay
 * for the batch's looks (their looks_to), the unwatched metric's too.
 * Pure: no stdio, no store. */
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

/* The question a batch runs until it is answered. */
enum decided_question {
	DECIDED_REGRESSION, /* regression yes or no */
	DECIDED_PARITY,     /* faster, slower or parity */
};

/* 1 when row answers q. */
int decided_row(const struct parity_row *row, enum decided_question q);

/* Groups r's rows into cells in row order (rows of one cell are adjacent, as
 * parity_decide() writes them), decided by question q on the metrics watched
 * (PARITY_PP, PARITY_TG or both; another value is read as both). *out receives a
 * heap array the caller frees (NULL when there is no row); returns the number of
 * cells. */
size_t decided_cells(const struct parity_result *r, enum decided_question q, int watched,
		     struct decided_cell **out);

/* The metrics a collect batch watches: watched when it names pp, tg or both,
 * else both (the default). */
int decided_watched(int watched);

/* The index of the cell of cells[0..n) with this spec type ("" or NULL: base) and
 * n_max (INT64_MIN: none), or SIZE_MAX when none matches. */
size_t decided_find(const struct decided_cell *cells, size_t n, const char *spec_type,
		    int64_t n_max);

#endif
