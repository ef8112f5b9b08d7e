/* accept.h: the draft acceptance of each prompt of a compared cell, on each side:
 * the accepted over the drafted tokens summed over the side's pooled runs (their
 * per-prompt figures, RUN_LOAD_PROMPTS), so a speculative engine's acceptance can
 * be read prompt by prompt (a speed-bench category) beside compare's interval.
 * Pure: reports/ prints it. */
#ifndef ANALYZE_ACCEPT_H
#define ANALYZE_ACCEPT_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/cellset.h"

/* One prompt of one cell; prompt NULL: the cell over every prompt. */
struct accept_row {
	size_t row;             /* the cell's first parity row (parity_result.rows) */
	char *prompt;
	int64_t drafted[2], accepted[2]; /* [0] ours, [1] vs: summed over the pool */
	size_t runs[2];                  /* the runs each sum took */
};

struct accept_set {
	struct accept_row *rows; /* per cell in the order added: its prompts by name,
				    then the cell's total */
	size_t n_rows;
};

/* Adds the prompts of the cell of pools ours and vs, whose parity rows start at
 * row, when a run of either drafted (a draft_n above 0 in its per-prompt
 * figures); anything else adds nothing. Returns 1 when it added rows, else 0. */
int accept_add(struct accept_set *s, const struct pool *ours, const struct pool *vs,
	       size_t row);

/* accepted / drafted of a row's side k (0 ours, 1 vs); NaN when nothing drafted. */
double accept_share(const struct accept_row *r, int k);

/* Frees what s holds and zeroes it; accepts NULL. */
void accept_release(struct accept_set *s);

#endif
