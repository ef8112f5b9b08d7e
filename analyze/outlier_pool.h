/* outlier_pool.h: the outlier instances of a whole store, for `tpsdb check`: every
 * run's values of each metric reduced to one log value, runs pooled by cell (engine,
 * model, spec type, n_max, endpoint, config), tag, batch and metric, and the robust
 * rule of analyze/estimate.h applied within each pool. Pure: no stdio, no store. */
#ifndef ANALYZE_OUTLIER_POOL_H
#define ANALYZE_OUTLIER_POOL_H

#include <stddef.h>
#include <stdint.h>

/* One instance: a run's values of one metric and what makes its pool (NULL reads
 * as ""). Everything borrowed. */
struct outlier_instance {
	const char *engine, *model, *spec_type, *endpoint, *config, *tag, *batch;
	int64_t n_max;
	int metric;                /* 0 pp, 1 tg: a pool holds one metric */
	const double *v;           /* the run's usable values of the metric */
	size_t n;
};

/* What outlier_pool_find() says of one instance. */
struct outlier_verdict {
	int outlier;               /* 1: far from the rest of its pool */
	double value;              /* its instance value (the geometric mean of v) */
	double median;             /* its pool's median instance value; NaN when the
				      pool is too small to judge */
};

/* Judges in[0..n) pool by pool: out[i] for in[i] (out holds n). Returns how many
 * instances are outliers. */
size_t outlier_pool_find(const struct outlier_instance *in, size_t n,
			 struct outlier_verdict *out);

#endif
