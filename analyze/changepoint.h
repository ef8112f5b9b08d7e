/* changepoint.h: change points in a history of one metric (values in time order),
 * found the way Apache Otava (formerly Hunter) finds them: E-divisive means picks
 * where to split, a two-sample t test between the two sides decides whether the
 * split is real, and a merge pass drops splits that do not hold between their final
 * neighbours. Deterministic: there is no permutation test. */
#ifndef ANALYZE_CHANGEPOINT_H
#define ANALYZE_CHANGEPOINT_H

#include <stddef.h>

/* Otava's default. Each split tests the best of many candidate positions, so a
 * nominal 0.05 would flag noise often; 0.001 keeps that rare on a steady series. */
#define CHANGEPOINT_PVALUE 0.001
/* The default parity band of verdict.h: a shift smaller than what a paired
 * comparison would call parity is not worth a change point. */
#define CHANGEPOINT_MIN_MAGNITUDE_PCT 2.0
/* Three points a side: a variance from two is too unstable for a t test. */
#define CHANGEPOINT_MIN_SEGMENT 3

struct changepoint_params {
	double pvalue;            /* keep a change point when its p < this; in (0, 1] */
	double min_magnitude_pct; /* and when |change_pct| >= this; >= 0 */
	size_t min_segment;       /* fewest values on each side of a split; >= 2 */
};

/* Sets the defaults above. */
void changepoint_params_init(struct changepoint_params *p);

struct changepoint {
	size_t index;              /* first input index of the new segment */
	double mean_before;        /* of the segment before, up to the previous change */
	double mean_after;         /* of the segment after, up to the next change */
	double stddev_before, stddev_after; /* sample standard deviations */
	size_t n_before, n_after;  /* values in those segments */
	double change_pct;         /* (mean_after / mean_before - 1) * 100 */
	double pvalue;             /* pooled t test between the two segments */
};

/* Finds the change points of x[0..n), in time order. NaN and infinite values are
 * skipped (an index still refers to x). The split step: every position of a
 * segment with at least min_segment values each side is scored by Matteson and
 * James' energy statistic Q-hat (alpha 1, best over the end of the second part),
 * and the segment is split at the highest-scoring position whose two sides pass
 * Student's pooled t test at Otava's relaxed first-pass threshold (10 x pvalue
 * below 0.05, 2 x below 0.5); both sides are then searched again. The merge step
 * recomputes every change point against its final neighbours and, while any fails
 * (p >= pvalue, or |change_pct| < min_magnitude_pct), drops the weakest (highest
 * p; else smallest change) and repeats, as Otava does. The pooled t test, not
 * Welch's, is Otava's choice and the right one here: a three-value side with a
 * small spread by chance gives Welch a tiny p on pure noise. A lone outlier cannot
 * win the split: with two or more values each side, Q-hat charges a spike to the
 * within-part term as much as it credits it to the between term.
 * On success *out is a heap array of *count entries that the caller frees with
 * changepoint_free() (NULL when none are found) and 0 is returned; -1 (nothing
 * printed, *out NULL, *count 0) when a parameter is out of range. p may be NULL
 * for the defaults. Time O(n^2) per level of splitting, memory O(n). */
int changepoint_detect(const double *x, size_t n, const struct changepoint_params *p,
		struct changepoint **out, size_t *count);

/* Frees an array returned by changepoint_detect(); accepts NULL. */
void changepoint_free(struct changepoint *cps);

#endif
