/* noise.h: the stored A/A noise floors (schema 0002). A floor is the |delta| between
 * two runs of the same engine, model and config with a server restart between them;
 * compare and gate never call a difference smaller than k times it. */
#ifndef SCHEMA_NOISE_H
#define SCHEMA_NOISE_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/noise.h"

struct store;

struct noise_rec {
	const char *run_a, *run_b; /* uuids of the A/A runs */
	const char *metric;        /* "pp" or "tg" */
	double noise_pct;
	int64_t n_pairs;
};

/* Stores a floor for the cell of run_a (its host, engine, model and config). Inside
 * the caller's transaction. 0 ok, -1 after an error line. */
int store_noise_put(struct store *s, const struct noise_rec *n);

/* Stores, with store_noise_put(), every floor the n pairs of p hold: of each
 * metric of each A/A pair (diff.kind RUN_DIFF_NONE) whose pct is a number.
 * Inside the caller's transaction. 0 ok, -1 after an error line. */
int store_noise_put_pairs(struct store *s, const struct noise_pair *p, size_t n);

/* The newest floor for this model label and config cell, any engine or host, for
 * metric ("pp"/"tg"); spec_type "" and n_max TPS_NULL for a base cell. Returns 1 and
 * fills *pct (and *n_pairs when non-NULL) when found, 0 when none is stored, -1 on
 * error. */
int store_noise_get(struct store *s, const char *model, const char *spec_type, int64_t n_max,
		    int64_t ctx, int64_t n_predict, const char *endpoint, const char *metric,
		    double *pct, int64_t *n_pairs);

#endif
