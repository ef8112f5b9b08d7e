/* trend.h: the one trend decision behind 'tpsdb trend', the report's trend figure
 * and 'gate --trend': a history series (each run's usable values of one metric, in
 * time order) is reduced to one median per run and searched for change points
 * (changepoint.h); the newest change point says whether the series now regresses. */
#ifndef ANALYZE_TREND_H
#define ANALYZE_TREND_H

#include <stddef.h>

#include "analyze/changepoint.h"

struct trend {
	double *medians;         /* n_runs per-run medians, heap; NaN for a run with no value */
	size_t n_runs;
	struct changepoint *cps; /* n_cps change points in time order, heap; NULL when none;
				    an index is a run's */
	size_t n_cps;
};

/* Reduces each of the n_runs runs of series to its median and finds the change
 * points of those medians with p (NULL: the defaults). values(series, i, &n) hands
 * over run i's usable values, borrowed, and their count; schema's
 * history_run_values() is that accessor for a loaded history series, so no type
 * crosses between the two folders. A run with no value gets a NaN median, which
 * the search skips. On success fills *out, which the caller releases with
 * trend_release(), and returns 0; -1 (nothing printed, *out empty) when a
 * parameter is out of range. */
int trend_detect(const void *series, size_t n_runs,
		 const double *(*values)(const void *series, size_t i, size_t *n),
		 const struct changepoint_params *p, struct trend *out);

/* The per-run medians of the n_runs runs of series alone, read through values as
 * in trend_detect() (NaN for a run with no value): a heap array of n_runs (at
 * least one) doubles the caller frees. Cannot fail. */
double *trend_medians(const void *series, size_t n_runs,
		      const double *(*values)(const void *series, size_t i, size_t *n));

/* The newest change point of t, or NULL when it has none; borrowed from t. */
const struct changepoint *trend_latest(const struct trend *t);

/* 1 when the newest change point of t is a fall of the metric (a regression of a
 * tok/s or acceptance series), else 0. */
int trend_latest_regression(const struct trend *t);

/* Frees what trend_detect() filled and empties *t; accepts an empty *t. */
void trend_release(struct trend *t);

#endif
