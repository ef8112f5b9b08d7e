/* changepoint.c: E-divisive means (Matteson and James 2014, alpha = 1) with
 * Otava's t-test significance and split-then-merge passes (Fleming et al. 2023).
 * The energy statistic of every split of a segment is computed in O(L^2) time and
 * O(L) memory from running sums of |x_a - x_b|, never a full distance matrix. */
#include "analyze/changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "tpsdb.h"

void changepoint_params_init(struct changepoint_params *p)
{
	p->pvalue = CHANGEPOINT_PVALUE;
	p->min_magnitude_pct = CHANGEPOINT_MIN_MAGNITUDE_PCT;
	p->min_segment = CHANGEPOINT_MIN_SEGMENT;
}

void changepoint_free(struct changepoint *cps)
{
	free(cps);
}

/* Otava's first-pass threshold: splitting looks at segments that may still hold
 * other changes, which blurs the test, so it is relaxed there and the merge pass
 * applies the real threshold. */
static double weak_pvalue(double p)
{
	double w = p < 0.05 ? p * 10 : p < 0.5 ? p * 2 : p;
	return w > 1 ? 1 : w;
}

/* Scratch for split_scores(), sized for the whole series once. */
struct scan {
	double *rowsum; /* rowsum[i] = sum_{i < b < j} |z_i - z_b| at column j */
	double *col;    /* col[i] = W(i, j) = sum_{i <= a < b < j} |z_a - z_b| */
	double *w0;     /* w0[t] = W(0, t) */
	double *score;  /* score[t] = max over kappa of Q-hat(z[0:t], z[t:kappa]) */
};

/* For each split t of z[0..len), the largest Q-hat(z[0:t], z[t:kappa]) over
 * tau + min_seg <= kappa <= len, into sc->score[t] (-inf where t is not a legal
 * split: either side shorter than min_seg). With n = t and m = kappa - t,
 * Q-hat = 2/(n+m) * between - 2m/((n+m)(n-1)) * withinX - 2n/((n+m)(m-1)) * withinY,
 * the within terms summing each unordered pair once. */
static void split_scores(const double *z, size_t len, size_t min_seg, struct scan *sc)
{
	for (size_t t = 0; t <= len; t++)
		sc->score[t] = -INFINITY;
	sc->w0[0] = 0;
	for (size_t j = 1; j <= len; j++) {
		/* Extend the row sums with column j - 1, then rebuild column j downwards:
		 * W(i, j) = W(i + 1, j) + sum_{i < b < j} |z_i - z_b|. */
		size_t last = j - 1;

		sc->rowsum[last] = 0;
		for (size_t i = 0; i < last; i++)
			sc->rowsum[i] += fabs(z[i] - z[last]);
		sc->col[j] = 0;
		for (size_t i = j; i-- > 0;)
			sc->col[i] = sc->col[i + 1] + sc->rowsum[i];
		sc->w0[j] = sc->col[0];
		for (size_t t = min_seg; t + min_seg <= j; t++) {
			double n = (double)t, m = (double)(j - t), nm = (double)j;
			double wx = sc->w0[t], wy = sc->col[t], between = sc->col[0] - wx - wy;
			double q = 2 * between / nm - 2 * m / (nm * (n - 1)) * wx -
				2 * n / (nm * (m - 1)) * wy;

			if (q > sc->score[t])
				sc->score[t] = q;
		}
	}
}

/* The pooled t test and summary of y[s..t) against y[t..e). */
static void compare(const double *y, size_t s, size_t t, size_t e, struct changepoint *cp,
		struct stats_test *tt)
{
	stats_student(y + s, t - s, y + t, e - t, tt);
	cp->mean_before = stats_mean(y + s, t - s);
	cp->mean_after = stats_mean(y + t, e - t);
	cp->stddev_before = stats_stddev(y + s, t - s);
	cp->stddev_after = stats_stddev(y + t, e - t);
	cp->n_before = t - s;
	cp->n_after = e - t;
	cp->change_pct = (cp->mean_after / cp->mean_before - 1) * 100;
	if (cp->mean_before == cp->mean_after)
		cp->change_pct = 0;
	cp->pvalue = tt->p;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

/* Fills stats[k] for each split at[k] against its neighbours in y[0..m). */
static void compare_all(const double *y, size_t m, const size_t *at, size_t k,
		struct changepoint *stats)
{
	struct stats_test tt;

	for (size_t i = 0; i < k; i++)
		compare(y, i ? at[i - 1] : 0, at[i], i + 1 < k ? at[i + 1] : m, &stats[i], &tt);
}

/* The merge pass: drop the weakest split until every one passes. Returns the count
 * kept, with at[] compacted in place and stats[] describing exactly those. */
static size_t merge(const double *y, size_t m, size_t *at, size_t k, struct changepoint *stats,
		const struct changepoint_params *p)
{
	while (k > 0) {
		size_t weakest = 0;

		compare_all(y, m, at, k, stats);
		for (size_t i = 1; i < k; i++)
			if (!(stats[i].pvalue <= stats[weakest].pvalue))
				weakest = i;
		/* NaN p (cannot happen with min_segment >= 2, kept safe) counts as failing. */
		if (!(stats[weakest].pvalue >= p->pvalue)) {
			weakest = 0;
			for (size_t i = 1; i < k; i++)
				if (fabs(stats[i].change_pct) < fabs(stats[weakest].change_pct))
					weakest = i;
			if (fabs(stats[weakest].change_pct) >= p->min_magnitude_pct)
				break;
		}
		memmove(at + weakest, at + weakest + 1, (k - weakest - 1) * sizeof(*at));
		k--;
	}
	return k;
}

int changepoint_detect(const double *x, size_t n, const struct changepoint_params *p,
		struct changepoint **out, size_t *count)
{
	struct changepoint_params def;
	struct changepoint *stats = NULL;
	struct scan sc = {NULL, NULL, NULL, NULL};
	struct stats_test tt;
	double *y = NULL, weak;
	size_t *pos = NULL, *at = NULL, *stack = NULL;
	size_t m = 0, k = 0, depth = 0;
	int ret = -1;

	*out = NULL;
	*count = 0;
	if (!p) {
		changepoint_params_init(&def);
		p = &def;
	}
	if (!(p->pvalue > 0 && p->pvalue <= 1) || !(p->min_magnitude_pct >= 0) || p->min_segment < 2)
		goto out;
	y = tps_xmalloc((n ? n : 1) * sizeof(*y));
	pos = tps_xmalloc((n ? n : 1) * sizeof(*pos));
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			continue;
		y[m] = x[i];
		pos[m++] = i;
	}
	/* At most one split per min_segment values, and each live segment on the stack
	 * is disjoint from the others, so m + 1 entries of each bound everything. */
	at = tps_xmalloc((m + 1) * sizeof(*at));
	stack = tps_xmalloc(2 * (m + 1) * sizeof(*stack));
	sc.rowsum = tps_xmalloc((m + 1) * sizeof(*sc.rowsum));
	sc.col = tps_xmalloc((m + 1) * sizeof(*sc.col));
	sc.w0 = tps_xmalloc((m + 1) * sizeof(*sc.w0));
	sc.score = tps_xmalloc((m + 1) * sizeof(*sc.score));
	weak = weak_pvalue(p->pvalue);

	stack[depth++] = 0;
	stack[depth++] = m;
	while (depth > 0) {
		size_t e = stack[--depth], s = stack[--depth], tau = 0;
		double best = -INFINITY;

		if (e - s < 2 * p->min_segment)
			continue;
		/* The split is the most divergent position by Q-hat among those where the
		 * t test between the two sides passes. Testing only the single best
		 * position (Otava) fails on a step down then up: the best split by Q-hat
		 * may leave both later regimes on one side, whose spread hides the step. */
		split_scores(y + s, e - s, p->min_segment, &sc);
		for (size_t t = s + p->min_segment; t + p->min_segment <= e; t++) {
			struct changepoint cp;

			if (!(sc.score[t - s] > best))
				continue;
			compare(y, s, t, e, &cp, &tt);
			if (cp.pvalue < weak) {
				best = sc.score[t - s];
				tau = t;
			}
		}
		if (tau == 0)
			continue;
		at[k++] = tau;
		stack[depth++] = s;
		stack[depth++] = tau;
		stack[depth++] = tau;
		stack[depth++] = e;
	}
	qsort(at, k, sizeof(*at), cmp_size);
	stats = tps_xcalloc(k ? k : 1, sizeof(*stats));
	k = merge(y, m, at, k, stats, p);
	if (k > 0) {
		for (size_t i = 0; i < k; i++)
			stats[i].index = pos[at[i]];
		*out = stats;
		stats = NULL;
	}
	*count = k;
	ret = 0;
out:
	free(stats);
	free(sc.score);
	free(sc.w0);
	free(sc.col);
	free(sc.rowsum);
	free(stack);
	free(at);
	free(pos);
	free(y);
	return ret;
}
