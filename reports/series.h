/* series.h: speculative series assembled from the store, one per (engine, model,
 * spec_type, endpoint): the engine's base run of that model (n_max NULL) followed by
 * its n_max 1, 2, 3 ... rungs, each with the median decode speed, the draft sums and
 * the sweep_analyze() verdict. Used by 'tpsdb sweep', 'tpsdb gate --sweep', the
 * report and the sweep plot. */
#ifndef REPORTS_SERIES_H
#define REPORTS_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/sweep.h"

struct store;

struct series_filter {
	const char *engine, *model, *tag, *host; /* NULL: any */
	const char *baseline;                    /* only runs frozen in this baseline */
	double tolerance_pct;                    /* for sweep_analyze(); default 5 */
};

/* Sets every filter to NULL and the tolerance to SWEEP_TOLERANCE_PCT. */
void series_filter_init(struct series_filter *f);

/* One rung. rung.tg is the median of the run's usable decode samples; the counts
 * are sums over the same samples (store_cell_agg()). */
struct series_rung {
	int64_t n_max;           /* TPS_NULL for the base */
	int64_t run_id;
	char run_uuid[40];
	char *tag;               /* of the run, "" when none */
	size_t n_values;         /* usable decode samples */
	size_t n_excluded;       /* samples flagged for decode, left out */
	struct sweep_rung rung;  /* what analyze/sweep.h consumes (n_max -1 for the base) */
	struct sweep_point point; /* filled from the report */
};

struct series {
	char *engine, *role, *model, *spec_type, *endpoint;
	size_t n_rungs;
	struct series_rung *rungs;  /* base first (when there is one), then n_max ascending */
	struct sweep_rung *sweep;   /* rungs[i].rung copied, for the analyze/ calls */
	struct sweep_report report; /* sweep_analyze(sweep, n_rungs, tolerance) */
};

struct series_set {
	struct series *v;  /* ordered by model, spec_type, endpoint, engine */
	size_t n;
};

/* Loads every series matching f: the latest run of each rung (or the latest with
 * f->tag), with a base run of the same engine and model taken from the runs with
 * n_max NULL (the same spec_type preferred, else spec_type ""). Every run with an
 * n_max is a drafting rung; an engine and model with only a base run form no
 * series, and a series without a base still has its rungs (speedups NaN). Fills *out, which the caller releases with
 * series_set_release() (also after -1). 0 ok, -1 after an error line. */
int series_load(struct store *s, const struct series_filter *f, struct series_set *out);

/* Frees what *set holds and zeroes it; accepts NULL and a zeroed set. */
void series_set_release(struct series_set *set);

/* The index of the rung with this n_max (TPS_NULL or <= 0: the base), or -1. */
long series_find(const struct series *se, int64_t n_max);

/* The cross-engine shape check of ours against ref over the rungs both hold:
 * sweep_shape() on the aligned rungs. *out is a heap array of *count steps (NULL
 * when none) the caller frees; the steps' from/to index the aligned rungs, so use
 * from_n_max/to_n_max (<= 0 for the base). 0 ok, -1 when the analysis refused its
 * input (nothing printed). */
int series_shape(const struct series *ours, const struct series *ref, double tolerance_pct,
		 struct sweep_step **out, size_t *count);

/* The gap between ours and ref at the rung n_max (TPS_NULL: the base) and its
 * sentence: fills *gap and writes sweep_gap_explain() into buf naming the two
 * engines. 0 ok, -1 when a side lacks the rung or the counts to split it. */
int series_gap(const struct series *ours, const struct series *ref, int64_t n_max,
	       struct sweep_gap *gap, char *buf, size_t len);

#endif
