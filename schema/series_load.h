/* series_load.h: the runs a speculative series is assembled from, with what the
 * analysis needs of each: the usable decode samples and the draft sums. Which run
 * becomes which rung of which series is analyze/series.c's decision. */
#ifndef SCHEMA_SERIES_LOAD_H
#define SCHEMA_SERIES_LOAD_H

#include <stddef.h>

#include "schema/cells.h"

struct store;

/* One run and its decode figures. */
struct store_decode {
	struct cell_run run;   /* identity and config; run.n_max TPS_NULL for a base run */
	double *values;        /* usable decode tok/s, (prompt, rep) order; n_values of them */
	size_t n_values;
	size_t n_excluded;     /* samples flagged for decode, left out of values */
	struct cell_agg agg;   /* sums over the same samples (store_cell_agg()) */
};

/* Loads every run matching f (store_cell_runs(): the latest of each cell, or the
 * latest with f->tag, in its order) with its decode values and draft sums. *out is a
 * heap array of *n the caller frees with store_decode_free() (NULL and 0 when
 * nothing matches). 0 ok, -1 after an error line (*out NULL, *n 0). */
int store_load_decode(struct store *s, const struct cell_filter *f, struct store_decode **out,
		      size_t *n);

/* Frees v[0..n) and what each holds; accepts NULL. */
void store_decode_free(struct store_decode *v, size_t n);

#endif
