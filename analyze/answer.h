/* answer.h: the one-line answer over the cells of a comparison. Per metric, how
 * many cells answer the regression question yes, no or not yet, how many read
 * faster, slower or parity, and the geometric mean of their deltas with its
 * interval (the cells' log estimates averaged, their errors combined as
 * independent). Pure: the rows come from the one estimate of each cell. */
#ifndef ANALYZE_ANSWER_H
#define ANALYZE_ANSWER_H

#include <stddef.h>

#include "analyze/verdict.h"

/* The most decided regressions an answer names. */
#define ANSWER_NAMED 3

struct answer {
	size_t n;                          /* cells of the metric */
	size_t yes, no, undecided;         /* by the regression answer */
	size_t spoiled;                    /* spoiled by an environment finding: not
					      an answer, and no part of the mean */
	unsigned spoiled_env;              /* their findings, RUN_ENV_* bits */
	size_t intermittent;               /* answered intermittent (estimate.h): a
					      regression on some starts, counted
					      apart and no part of the mean (its
					      delta is of the other instances) */
	size_t faster, slower, parity;     /* by the two-sided verdict (decided only) */
	struct verdict geomean;            /* the geometric mean of the deltas: delta,
					      interval (NaN when a cell has none) and
					      both answers against the band */
	size_t named[ANSWER_NAMED];        /* indexes of the first regressions (yes) */
	size_t n_named;
};

/* The answer over v[0..n) (verdicts of one metric, one per cell, all against
 * band_pct). The geometric mean's interval is a t interval at the verdicts'
 * smallest level, on the mean log ratio with standard error sqrt(sum se^2) / n
 * and the fewest degrees of freedom among them; NaN when any cell lacks one (or
 * has only the requests' interval of one instance a side, which decides nothing).
 * A spoiled cell is counted apart and is no part of the mean, neither its point
 * nor its interval: the mean of spoiled cells alone is unknown.
 * Fills *out. */
void answer_build(const struct verdict *const *v, size_t n, double band_pct,
		  struct answer *out);

/* One metric's answer over the rows of a result (a comparison's or a gate's) that
 * are of that metric. */
struct answer_metric {
	int metric;               /* the result's metric index (enum parity_metric,
				     enum gate_metric) */
	struct answer a;          /* over a.n rows; a.named index rows[] and v[] */
	size_t *rows;             /* a.n: the indexes of the result's rows, in order */
	const struct verdict **v; /* a.n: their verdicts, borrowed from the result */
};

/* The one-line answer of a result: one answer_metric per metric that has rows, in
 * the order of the metrics' indexes. */
struct answer_set {
	struct answer_metric *m;
	size_t n;
};

/* The answers of n rows: row i is of metric metric[i] (counted by none when not in
 * [0, n_metrics)) with verdict v[i]; each metric's rows go through answer_build()
 * against band_pct[metric]. Fills *out (the verdicts stay borrowed), which the
 * caller releases with answer_set_release(). Cannot fail. */
void answer_set_build(const int *metric, const struct verdict *const *v, size_t n,
		      const double *band_pct, int n_metrics, struct answer_set *out);

/* Frees what *s holds and zeroes it; accepts NULL and a zeroed set. */
void answer_set_release(struct answer_set *s);

#endif
