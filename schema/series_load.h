/* series_load.h: the runs a speculative series is assembled from, with what the
 * analysis needs of each: the usable decode samples and the draft sums. Which runs
 * a cell pools is chosen here (the selection); which pool becomes which rung of
 * which series is analyze/series.c's decision. */
#ifndef SCHEMA_SERIES_LOAD_H
#define SCHEMA_SERIES_LOAD_H

#include <stddef.h>

#include "schema/cells.h"

struct store;

/* One run and its decode figures. */
struct store_decode {
	struct cell_run run;   /* identity and config; run.n_max TPS_NULL for a base run */
	double *values;        /* usable decode tok/s, (prompt, rep) order; n_values of them */
	int64_t *keys;         /* 2 n_values: each value's (prompt_id, rep) */
	size_t n_values;
	size_t n_excluded;     /* samples flagged for decode, left out of values */
	struct cell_agg agg;   /* sums over the same samples (store_cell_agg()) */
	int64_t round;         /* the collector's round (TPS_NULL unknown); read by
				  store_load_series() only, else TPS_NULL */
	char *batch;           /* its batch id, NULL unknown; idem */
};

/* Loads every run matching f (store_cell_runs(): the latest of each cell, or the
 * latest with f->tag, in its order) with its decode values and draft sums. *out is a
 * heap array of *n the caller frees with store_decode_free() (NULL and 0 when
 * nothing matches). 0 ok, -1 after an error line (*out NULL, *n 0). */
int store_load_decode(struct store *s, const struct cell_filter *f, struct store_decode **out,
		      size_t *n);

/* Loads the pools of the speculative series: every cell (engine, model, spec_type,
 * n_max, endpoint) matching f (f->all is ignored) with the runs it pools, oldest
 * first. A cell's pool: with batch (non-NULL), only its runs of that batch; with
 * f->tag, every run carrying it; else the runs carrying the tag of the cell's
 * latest run, that run alone when it has none. Runs whose config differs from the
 * pool's newest (parity_mismatch()) are left out. Each run comes with its values,
 * sums, round and batch. *out and *n as store_load_decode(). 0 ok, -1 after an
 * error line. */
int store_load_series(struct store *s, const struct cell_filter *f, const char *batch,
		      struct store_decode **out, size_t *n);

/* Frees v[0..n) and what each holds; accepts NULL. */
void store_decode_free(struct store_decode *v, size_t n);

#endif
