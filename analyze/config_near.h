/* config_near.h: when two sides share no cell, the pair of cells nearest to
 * sharing one: the llama-bench configuration keys that keep them apart
 * (analyze/config.h reads the texts), for compare's and gate's hint. Pure. */
#ifndef ANALYZE_CONFIG_NEAR_H
#define ANALYZE_CONFIG_NEAR_H

#include <stddef.h>

#include "analyze/cellset.h"

#define CONFIG_MAX_DIFF 16 /* keys config_nearest() reports */

/* What two sides' configurations differ in, for the nearest pair of cells. */
struct config_near {
	size_t n_keys;                         /* keys that differ, in stored order */
	char key[CONFIG_MAX_DIFF][16];
	char ours[CONFIG_MAX_DIFF][64];        /* each side's value ("-" absent) */
	char vs[CONFIG_MAX_DIFF][64];
	size_t n_cells;                        /* a's cells those keys would pair */
};

/* Over every pair of runs (one of a, one of b) with the same model, spec type,
 * n_max and endpoint and the same llama-bench test, finds the pair whose
 * configurations differ in the fewest keys and fills *out with those keys and
 * values, and how many of a's cells (runs of one cell count once) would find a
 * partner if they were ignored.
 * Returns 1 when such a pair exists, else 0 (out zeroed). */
int config_nearest(const struct run *a, size_t na, const struct run *b,
		   size_t nb, struct config_near *out);

#endif
