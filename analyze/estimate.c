/* estimate.c: the one estimate of a cell (estimate.h). Instances are the unit:
 * each is reduced to the geometric mean of its requests, outliers among a side's
 * instances are left out by a robust rule, the rest pair into rounds, and the
 * rounds' log ratios give the point and the interval that every command prints.
 * The sequential level of an --until-decided batch is computed here too.
 * estimate_cell() only chooses: est_keep() keeps the instances, est_pair()
 * pairs them into rounds, one est_by_*() per method finds the interval, and
 * est_finish() answers and applies the overrides, all on one struct est_work. */
#include "analyze/estimate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "tpsdb.h"

void estimate_params_init(struct estimate_params *p)
{
	memset(p, 0, sizeof(*p));
	p->band_pct = VERDICT_BAND_PCT;
	p->robust = 1;
	p->floors = 1;
}

const char *estimate_reason_name(enum estimate_reason r)
{
	switch (r) {
	case ESTIMATE_REASON_ONE_INSTANCE:
		return "one-instance";
	case ESTIMATE_REASON_ORDER:
		return "unbalanced-order";
	case ESTIMATE_REASON_NO_DATA:
		return "no-data";
	case ESTIMATE_REASON_DISAGREE:
		return "instances-disagree";
	case ESTIMATE_REASON_SLOW_ONCE:
		return "one-slow-instance";
	case ESTIMATE_REASON_SLOW_EARLIER:
		return "slow-instance-earlier";
	case ESTIMATE_REASON_NONE:
		break;
	}
	return "";
}

void estimate_release(struct estimate *e)
{
	if (!e)
		return;
	free(e->round_pct);
	free(e->round_ours);
	free(e->round_vs);
	free(e->out_ours);
	free(e->out_vs);
	memset(e, 0, sizeof(*e));
}

void estimate_history_add(const struct estimate *e, struct estimate_history *h)
{
	double mean = 0, ss = 0, d;
	size_t i;

	if (!e->v.spoiled) {
		h->out_vs += e->n_out_vs;
		h->slow_ours += e->v.slow_ours;
	}
	/* A batch held open by a slow instance of ours still shows its kept
	 * rounds' scatter. */
	if (e->v.spoiled || (e->reason != ESTIMATE_REASON_NONE &&
			     e->reason != ESTIMATE_REASON_SLOW_ONCE &&
			     e->reason != ESTIMATE_REASON_SLOW_EARLIER) || e->n_rounds < 2)
		return;
	for (i = 0; i < e->n_rounds; i++)
		mean += log1p(e->round_pct[i] / 100) / (double)e->n_rounds;
	for (i = 0; i < e->n_rounds; i++) {
		d = log1p(e->round_pct[i] / 100) - mean;
		ss += d * d;
	}
	h->ss += ss;
	h->df += (double)(e->n_rounds - 1);
	h->batches++;
}

double estimate_history_sd(const struct estimate_history *h)
{
	if (!h || !(h->df >= ESTIMATE_EVIDENCE_DF) || !(h->ss >= 0))
		return NAN;
	return sqrt(h->ss / h->df);
}

static double normal_cdf(double x)
{
	return 0.5 * erfc(-x / sqrt(2.0));
}

/* P(the walk S_n, N(0, 1) steps, crosses c * sqrt(n) at some n in first..last):
 * the density of S at each look, below the boundary, is carried to the next look
 * by a convolution with the step's normal density (trapezoid rule on a grid of
 * step h, which is exact to far below the bisection's tolerance for Gaussians). */
static double crossing_prob(double c, int64_t first, int64_t last)
{
	const double h = 0.1, reach = 8.0;
	double lo = -reach * sqrt((double)last), hi = c * sqrt((double)last);
	size_t g = (size_t)((hi - lo) / h) + 2, i, j, kw = (size_t)(reach / h);
	double *f = tps_xcalloc(g, sizeof(*f)), *nf = tps_xcalloc(g, sizeof(*nf));
	double *kern = tps_xmalloc((2 * kw + 1) * sizeof(*kern)), cross = 0, sd0;
	int64_t n;

	for (i = 0; i <= 2 * kw; i++) {
		double x = ((double)i - (double)kw) * h;
		kern[i] = exp(-0.5 * x * x) / sqrt(2 * M_PI) * h;
	}
	/* The first look: S ~ N(0, first). */
	sd0 = sqrt((double)first);
	for (i = 0; i < g; i++) {
		double x = lo + (double)i * h;
		f[i] = x < c * sd0 ? exp(-0.5 * x * x / (double)first) / (sd0 * sqrt(2 * M_PI)) : 0;
	}
	cross = 1 - normal_cdf(c);
	for (n = first + 1; n <= last; n++) {
		double b = c * sqrt((double)n), below = 0;

		for (i = 0; i < g; i++) {
			double x = lo + (double)i * h, acc = 0;
			size_t j0 = i > kw ? i - kw : 0, j1 = i + kw < g ? i + kw : g - 1;

			for (j = j0; j <= j1; j++)
				acc += f[j] * kern[j + kw - i];
			nf[i] = x < b ? acc : 0;
			below += nf[i] * h;
		}
		/* Mass that was below at the last look and is not below now crossed
		 * (or drifted under the grid's floor, which is negligible). */
		{
			double before = 0;
			for (i = 0; i < g; i++)
				before += f[i] * h;
			cross += before - below;
		}
		memcpy(f, nf, g * sizeof(*f));
	}
	free(kern);
	free(f);
	free(nf);
	return cross;
}

double estimate_look_alpha(int64_t looks_to, double alpha)
{
	static double cache[ESTIMATE_MAX_LOOK + 1];
	static double cache_alpha[ESTIMATE_MAX_LOOK + 1];
	double lo = 1.0, hi = 6.0, c = 0;
	int it;

	if (looks_to <= ESTIMATE_FIRST_LOOK || !(alpha > 0 && alpha < 0.5))
		return alpha;
	if (looks_to > ESTIMATE_MAX_LOOK)
		looks_to = ESTIMATE_MAX_LOOK;
	if (cache[looks_to] > 0 && cache_alpha[looks_to] == alpha)
		return cache[looks_to];
	for (it = 0; it < 40; it++) {
		c = (lo + hi) / 2;
		if (crossing_prob(c, ESTIMATE_FIRST_LOOK, looks_to) > alpha)
			lo = c;
		else
			hi = c;
	}
	cache[looks_to] = 1 - normal_cdf(hi);
	cache_alpha[looks_to] = alpha;
	return cache[looks_to];
}

/* Value i of an instance, keyed or not. */
static double uval(const struct estimate_unit *u, size_t i)
{
	return u->vals ? u->vals[i].value : u->v[i];
}

static int usable(double x)
{
	return x > 0 && isfinite(x);
}

double estimate_unit_log(const struct estimate_unit *u)
{
	double s = 0;
	size_t k = 0;

	if (!isnan(u->value))
		return usable(u->value) ? log(u->value) : NAN;
	for (size_t i = 0; i < u->n; i++)
		if (usable(uval(u, i))) {
			s += log(uval(u, i));
			k++;
		}
	return k ? s / (double)k : NAN;
}

static int key_cmp(const struct run_value *a, const struct run_value *b)
{
	if (a->prompt_id != b->prompt_id)
		return a->prompt_id < b->prompt_id ? -1 : 1;
	return a->rep < b->rep ? -1 : a->rep > b->rep;
}

/* Whether some instance of u[0..n) belongs to batch b. */
static int holds_batch(const struct estimate_unit *u, size_t n, const size_t *idx, const char *b)
{
	for (size_t i = 0; i < n; i++)
		if (u[idx[i]].batch && !strcmp(u[idx[i]].batch, b))
			return 1;
	return 0;
}

size_t estimate_rounds(const struct estimate_unit *a, const size_t *ia, size_t na,
		       const struct estimate_unit *b, const size_t *ib, size_t nb, size_t *pairs)
{
	size_t i, j, r = 0, n = na < nb ? na : nb;
	int numbered = 1, pass;
	char *used_a, *used_b;

	for (i = 0; i < na; i++)
		numbered &= a[ia[i]].round != INT64_MIN;
	for (j = 0; j < nb; j++)
		numbered &= b[ib[j]].round != INT64_MIN;
	if (!numbered) {
		for (r = 0; r < n; r++)
			pairs[2 * r] = pairs[2 * r + 1] = r;
		return n;
	}
	used_a = tps_xcalloc(na ? na : 1, 1);
	used_b = tps_xcalloc(nb ? nb : 1, 1);
	/* Rounds restart at 1 in every collect batch. First the rounds of a batch
	 * both sides hold; then, by number alone, runs whose batch the other side
	 * lacks (a baseline frozen from an earlier batch) or that have none. No
	 * run pairs twice. */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < na && r < n; i++) {
			const struct estimate_unit *x = &a[ia[i]];

			if (used_a[i])
				continue;
			for (j = 0; j < nb; j++) {
				const struct estimate_unit *y = &b[ib[j]];
				int ok;

				if (used_b[j] || x->round != y->round)
					continue;
				if (pass == 0)
					ok = x->batch && y->batch && !strcmp(x->batch, y->batch);
				else
					ok = !x->batch || !y->batch ||
					     (!holds_batch(b, nb, ib, x->batch) &&
					      !holds_batch(a, na, ia, y->batch));
				if (!ok)
					continue;
				pairs[2 * r] = i;
				pairs[2 * r + 1] = j;
				used_a[i] = used_b[j] = 1;
				r++;
				break;
			}
		}
	}
	free(used_a);
	free(used_b);
	return r;
}

/* The log values of a round's two instances (the mean log of their requests)
 * over the keys both hold (all values when either has no keys or none are
 * shared), so that prompts of different speed cancel in the difference; *lost
 * counts the values left out. The kept log values go to *xa / *xb (heap, caller
 * frees), in key order and paired by index when *paired is 1. */
static void round_logs(const struct estimate_unit *a, const struct estimate_unit *b,
		       double *la, double *lb, double **xa, size_t *na, double **xb, size_t *nb,
		       size_t *lost, int *paired)
{
	size_t i = 0, j = 0, k = 0, cap = (a->n > b->n ? a->n : b->n) + 1;
	double *pa = tps_xmalloc(cap * sizeof(*pa)), *pb = tps_xmalloc(cap * sizeof(*pb));

	*na = *nb = 0;
	if (a->vals && b->vals) {
		while (i < a->n && j < b->n) {
			int c = key_cmp(&a->vals[i], &b->vals[j]);
			if (c < 0) {
				i++;
			} else if (c > 0) {
				j++;
			} else {
				if (usable(a->vals[i].value) && usable(b->vals[j].value)) {
					pa[k] = a->vals[i].value;
					pb[k] = b->vals[j].value;
					k++;
				}
				i++;
				j++;
			}
		}
	}
	*paired = k > 0;
	if (k) {
		*na = *nb = k;
		*lost = a->n + b->n - 2 * k;
	} else {
		for (i = 0; i < a->n; i++)
			if (usable(uval(a, i)))
				pa[(*na)++] = uval(a, i);
		for (j = 0; j < b->n; j++)
			if (usable(uval(b, j)))
				pb[(*nb)++] = uval(b, j);
		*lost = 0;
	}
	for (i = 0; i < *na; i++)
		pa[i] = log(pa[i]);
	for (j = 0; j < *nb; j++)
		pb[j] = log(pb[j]);
	*la = *na ? stats_mean(pa, *na) : estimate_unit_log(a);
	*lb = *nb ? stats_mean(pb, *nb) : estimate_unit_log(b);
	*xa = pa;
	*xb = pb;
}

size_t estimate_outliers(const double *lg, size_t n, char *bad, double *median, int *disagree)
{
	double *x = tps_xmalloc((n ? n : 1) * sizeof(*x)), *dev = NULL, med, mad, lim;
	char *mark = tps_xcalloc(n ? n : 1, 1);
	size_t k = 0, i, marked = 0;

	if (median)
		*median = NAN;
	if (disagree)
		*disagree = 0;
	for (i = 0; i < n; i++)
		if (isfinite(lg[i]))
			x[k++] = lg[i];
	if (k < 3)
		goto out;
	med = stats_median(x, k);
	dev = tps_xmalloc(k * sizeof(*dev));
	for (i = 0; i < k; i++)
		dev[i] = fabs(x[i] - med);
	mad = stats_median(dev, k);
	lim = fmax(ESTIMATE_OUTLIER_MIN_LOG, ESTIMATE_OUTLIER_Z * 1.4826 * mad);
	for (i = 0; i < n; i++)
		if (isfinite(lg[i]) && fabs(lg[i] - med) > lim && !bad[i]) {
			mark[i] = 1;
			marked++;
		}
	if (median)
		*median = med;
	/* Leaving out is for a clear majority only: with two of three apart, which
	 * group is the outlier is a guess, and a guess must not decide. */
	if (marked && k - marked < 2 * marked + 1) {
		if (disagree)
			*disagree = 1;
		marked = 0;
		goto out;
	}
	for (i = 0; i < n; i++)
		bad[i] |= mark[i];
out:
	free(mark);
	free(dev);
	free(x);
	return marked;
}

/* Marks the outliers of one side in bad[] (1) and lists them in *idx; 1 when
 * its instances disagree with no clear majority (then none is marked). *slow
 * counts those below the side's median (far slower). */
static int mark_outliers(const double *lg, size_t n, char *bad, size_t **idx, size_t *n_idx,
			 size_t *slow)
{
	double med;
	int disagree;

	*slow = 0;
	if (!estimate_outliers(lg, n, bad, &med, &disagree))
		return disagree;
	for (size_t i = 0; i < n; i++)
		if (bad[i]) {
			*idx = tps_xrealloc(*idx, (*n_idx + 1) * sizeof(**idx));
			(*idx)[(*n_idx)++] = i;
			*slow += lg[i] < med;
		}
	return 0;
}

/* How many of lg[0..n) are finite. */
static size_t n_finite(const double *lg, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += isfinite(lg[i]) != 0;
	return k;
}

/* The error of the one round's log ratio from the requests' log values
 * xa[0..na) and xb[0..nb): paired by key (the t error of the mean difference)
 * when they pair, else the two sides as independent samples. */
static void one_round_se(const double *xa, size_t na, const double *xb, size_t nb, int paired,
			 double *se, double *df)
{
	if (paired && na >= 2 && na == nb) {
		double *d = tps_xmalloc(na * sizeof(*d));

		for (size_t i = 0; i < na; i++)
			d[i] = xa[i] - xb[i];
		*se = stats_stddev(d, na) / sqrt((double)na);
		*df = (double)(na - 1);
		free(d);
	} else if (na >= 2 && nb >= 2) {
		double va = stats_stddev(xa, na), vb = stats_stddev(xb, nb);

		*se = sqrt(va * va / (double)na + vb * vb / (double)nb);
		*df = (double)((na < nb ? na : nb) - 1);
	} else {
		*se = NAN;
		*df = NAN;
	}
}

/* Joins the earlier batches' round scatter h to this batch's (*sd with *df
 * degrees of freedom) unless the F test finds this batch's larger than the
 * history's at ESTIMATE_HIST_ALPHA (one-sided: a history quieter than today
 * would narrow the interval wrongly; a louder one only widens it). The history
 * weighs at most what the batch does (its degrees of freedom capped at the
 * batch's): a history from a quieter day that the test cannot yet tell apart
 * must not outweigh today. Says which in v. */
static void with_history(const struct estimate_history *h, double *sd, double *df,
			 struct verdict *v)
{
	double s2 = *sd * *sd, hdf, up;

	if (!h || !(h->df > 0) || !(h->ss > 0) || !(*df > 0))
		return;
	up = stats_f_upper(s2 / (h->ss / h->df), *df, h->df);
	v->hist_batches = h->batches;
	v->hist_df = h->df;
	if (!(up >= ESTIMATE_HIST_ALPHA)) {
		v->history = VERDICT_HIST_REJECTED;
		return;
	}
	v->history = VERDICT_HIST_POOLED;
	hdf = fmin(h->df, *df);
	*sd = sqrt((*df * s2 + h->ss * hdf / h->df) / (*df + hdf));
	*df += hdf;
}

/* The intermittent rule (estimate.h): slow instances of ours left out, none of
 * vs's (n_vs usable), turn the answer to intermittent from
 * ESTIMATE_INTERMITTENT_MIN, and hold a "no" open at one, or at none when the
 * earlier batches of h had some. */
static void slow_starts(struct estimate *out, size_t slow, size_t n_vs,
			const struct estimate_history *h)
{
	struct verdict *v = &out->v;

	if (!(slow || (h && h->slow_ours)) || out->n_out_vs || (h && h->out_vs) ||
	    n_vs < ESTIMATE_OUTLIER_MIN_N || out->reason == ESTIMATE_REASON_DISAGREE ||
	    v->regression == VERDICT_REG_UNKNOWN)
		return;
	if (slow >= ESTIMATE_INTERMITTENT_MIN) {
		v->kind = VERDICT_INTERMITTENT;
		v->regression = VERDICT_REG_INTERMITTENT;
		v->decided = v->significant = 0;
		return;
	}
	if (v->regression == VERDICT_REG_YES)
		return;
	if (v->regression == VERDICT_REG_NO || (v->decided && v->kind != VERDICT_SLOWER)) {
		if (out->reason == ESTIMATE_REASON_NONE)
			out->reason = slow ? ESTIMATE_REASON_SLOW_ONCE :
				ESTIMATE_REASON_SLOW_EARLIER;
		v->regression = VERDICT_REG_UNDECIDED;
		if (v->decided)
			v->kind = VERDICT_UNDECIDED;
		v->decided = v->significant = 0;
	}
}

/* The variance of one round's request log differences xa[i] - xb[i] about
 * their mean (paired by key, n >= 2), or NaN: the request scatter that a stored
 * floor holds in full and a round's instance mean averages away. */
static double request_var(const double *xa, const double *xb, size_t n, int paired)
{
	double m = 0, ss = 0;

	if (!paired || n < 2)
		return NAN;
	for (size_t i = 0; i < n; i++)
		m += (xa[i] - xb[i]) / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (xa[i] - xb[i] - m) * (xa[i] - xb[i] - m);
	return ss / (double)(n - 1);
}

double estimate_floor_round_sd(double noise_pct, double req_var, double req_n)
{
	double f, v;

	if (!(noise_pct > 0))
		return 0;
	f = noise_pct / 100;
	v = f * f;
	/* The floor is the root mean square of an instance pair's request deltas:
	 * it holds the scatter between instances and the requests' own in full,
	 * and a round's log ratio, a mean over req_n requests, keeps 1 / req_n of
	 * the latter. */
	if (isfinite(req_var) && req_var > 0 && req_n >= 1)
		v -= req_var * (1 - 1 / req_n);
	return v > 0 ? sqrt(v) : 0;
}

double estimate_instance_round_sd(const double *ra, const double *rb, size_t k)
{
	double sa, sb;

	if (k < 2)
		return 0;
	sa = stats_stddev(ra, k);
	sb = stats_stddev(rb, k);
	return sqrt(sa * sa + sb * sb);
}

double estimate_round_drift_p(const double *ra, const double *rb, size_t k)
{
	double *sum, *dif, ss, sd;

	if (k < 2)
		return NAN;
	sum = tps_xmalloc(k * sizeof(*sum));
	dif = tps_xmalloc(k * sizeof(*dif));
	for (size_t i = 0; i < k; i++) {
		sum[i] = ra[i] + rb[i];
		dif[i] = ra[i] - rb[i];
	}
	ss = stats_stddev(sum, k);
	sd = stats_stddev(dif, k);
	free(sum);
	free(dif);
	if (!(ss > 0))
		return 1;
	if (!(sd > 0))
		return 0;
	return stats_f_upper(ss * ss / (sd * sd), (double)(k - 1), (double)(k - 1));
}

/* The scatter of one round's log ratio that a rounds interval uses: never less
 * than the machine has shown for the cell. Two estimates of it compete, and the
 * one whose interval is wider at the level alpha wins:
 * - the rounds' own, *sd with *df degrees of freedom (with the history's when
 *   with_history() pooled it);
 * - the labels' instance spread over the k rounds used (ra, rb: each side's
 *   round log values), sqrt(var_a + var_b) with 2 (k - 1) degrees of freedom.
 *   With independent instances it is the pooled estimate of the rounds' ratio
 *   scatter and the scatter of their sums, both about a round's variance, so
 *   it is a valid interval of its own; scatter common to both sides of a round
 *   (drift between rounds) only widens it, and then the rounds' own wins.
 * Each is first raised, as a hard lower bound, to the cell's stored A/A floor
 * (p->noise_pct) less the request scatter the rounds average away (req_var
 * over req_n requests a round). A low-df estimate whose few round ratios
 * agree by chance can then not be more confident than the spread of the same
 * instances or the stored floor allow. Sets *sd and *df, and says which in v. */
static void scatter_floor(const struct estimate_params *p, const double *ra, const double *rb,
			  size_t k, double req_var, double req_n, double alpha, double *sd,
			  double *df, struct verdict *v)
{
	double inst = estimate_instance_round_sd(ra, rb, k), inst_df = 2.0 * (double)(k - 1);
	double stored = estimate_floor_round_sd(p->noise_pct, req_var, req_n);
	double own = fmax(*sd, stored), wide = fmax(inst, stored);

	/* Scatter common to a round's two instances (drift between rounds) moves
	 * the round sums and cancels in the ratios: when the sums scatter more
	 * than the ratios at ESTIMATE_DRIFT_ALPHA (one-sided F test, both with
	 * k - 1 degrees of freedom), the between-instance evidence holds the
	 * drift the pairing removes, and the rounds' own scatter is the round's. */
	if (k >= 2 && inst > 0) {
		double rd = estimate_round_drift_p(ra, rb, k);

		v->drift_p = rd;
		if (rd < ESTIMATE_DRIFT_ALPHA) {
			v->scatter_source = VERDICT_SCATTER_DRIFT;
			v->round_scatter_pct = *sd * 100;
			return;
		}
	}
	v->scatter_source = stored > *sd ? VERDICT_SCATTER_FLOOR : VERDICT_SCATTER_ROUNDS;
	if (inst > 0 && stats_t_quantile(1 - alpha, inst_df) * wide >
				stats_t_quantile(1 - alpha, *df) * own) {
		own = wide;
		*df = inst_df;
		v->scatter_source = stored > inst ? VERDICT_SCATTER_FLOOR : VERDICT_SCATTER_INSTANCES;
	}
	*sd = own;
	v->round_scatter_pct = own * 100;
}

/* What the steps of one estimate share, from the instances kept to the interval
 * a method finds. est_init() sets it up, est_work_release() frees it. */
struct est_work {
	const struct estimate_unit *a, *b; /* ours' and vs's instances */
	size_t na, nb;
	const struct estimate_params *p;
	struct estimate *out;
	double alpha;           /* the one-sided level of the interval */
	double *la, *lb;        /* each instance's log value (estimate_unit_log()) */
	char *used_a, *used_b;  /* the instances behind the estimate: the values
				   of the others count as unpaired */
	size_t slow_a;          /* ours' outliers far slower than its median */
	size_t *ka, *kb;        /* the instances kept: indexes into a and b */
	size_t ua, ub;
	size_t k;               /* rounds paired (out->n_rounds) */
	double *d, *ra, *rb;    /* per round: the log ratio, each side's log value */
	int *first;             /* per round: 1 ours started first, -1 vs, 0 unknown */
	int order_known;        /* every round's start order is known */
	double req_ss;          /* the rounds' request scatter (request_var()), summed */
	double req_inv;         /* 1 / each such round's request count, summed */
	size_t req_k;           /* the rounds in those sums */
	double m, se, df;       /* the interval a method found: the log ratio, its
				   standard error and degrees of freedom */
};

static void est_work_release(struct est_work *w)
{
	free(w->la);
	free(w->lb);
	free(w->used_a);
	free(w->used_b);
	free(w->ka);
	free(w->kb);
	free(w->d);
	free(w->ra);
	free(w->rb);
	free(w->first);
	memset(w, 0, sizeof(*w));
}

/* Starts *out as an estimate of nothing and *w for the cell; -1 for bad
 * parameters (nothing held). */
static int est_init(struct est_work *w, const struct estimate_unit *a, size_t na,
		    const struct estimate_unit *b, size_t nb, const struct estimate_params *p,
		    struct estimate *out)
{
	memset(w, 0, sizeof(*w));
	memset(out, 0, sizeof(*out));
	out->v.kind = VERDICT_UNKNOWN;
	out->v.lean = VERDICT_UNKNOWN;
	out->v.regression = VERDICT_REG_UNKNOWN;
	out->v.delta_pct = out->v.ci_lo_pct = out->v.ci_hi_pct = out->v.mde_pct = NAN;
	out->v.scatter_pct = NAN;
	out->v.round_scatter_pct = NAN;
	out->v.drift_p = NAN;
	out->ours_center = out->vs_center = NAN;
	if (!(p->band_pct >= 0) || p->noise_pct < 0 || p->scatter_pct < 0 || p->looks_to < 0 ||
	    p->looks_to > ESTIMATE_MAX_LOOK)
		return -1;
	out->v.band_pct = p->band_pct;
	out->v.bound = VERDICT_BOUND_BAND;
	out->v.instances_ours = na;
	out->v.instances_vs = nb;
	w->alpha = p->looks_to ? estimate_look_alpha(p->looks_to,
						     VERDICT_ALPHA * ESTIMATE_SEQ_ALPHA_SHARE) :
		VERDICT_ALPHA;
	out->v.ci_level = 1 - 2 * w->alpha;
	w->a = a;
	w->na = na;
	w->b = b;
	w->nb = nb;
	w->p = p;
	w->out = out;
	w->m = w->se = w->df = NAN;
	w->order_known = 1;
	return 0;
}

/* The instances kept: each one's log value, the outliers of each side left out
 * (with p->robust), the rest in w->ka and w->kb. 0 when a side keeps none
 * (ESTIMATE_REASON_NO_DATA: nothing to estimate), else 1. */
static int est_keep(struct est_work *w)
{
	struct estimate *out = w->out;
	size_t na = w->na, nb = w->nb, i, slow_b = 0;
	char *bad_a = tps_xcalloc(na ? na : 1, 1), *bad_b = tps_xcalloc(nb ? nb : 1, 1);

	w->la = tps_xmalloc((na ? na : 1) * sizeof(*w->la));
	w->lb = tps_xmalloc((nb ? nb : 1) * sizeof(*w->lb));
	w->used_a = tps_xcalloc(na ? na : 1, 1);
	w->used_b = tps_xcalloc(nb ? nb : 1, 1);
	for (i = 0; i < na; i++)
		w->la[i] = estimate_unit_log(&w->a[i]);
	for (i = 0; i < nb; i++)
		w->lb[i] = estimate_unit_log(&w->b[i]);
	if (w->p->robust &&
	    (mark_outliers(w->la, na, bad_a, &out->out_ours, &out->n_out_ours, &w->slow_a) |
	     mark_outliers(w->lb, nb, bad_b, &out->out_vs, &out->n_out_vs, &slow_b)))
		out->reason = ESTIMATE_REASON_DISAGREE;
	out->v.slow_ours = w->slow_a;
	out->v.outliers_ours = out->n_out_ours;
	out->v.outliers_vs = out->n_out_vs;
	w->ka = tps_xmalloc((na ? na : 1) * sizeof(*w->ka));
	w->kb = tps_xmalloc((nb ? nb : 1) * sizeof(*w->kb));
	for (i = 0; i < na; i++)
		if (!bad_a[i] && isfinite(w->la[i]))
			w->ka[w->ua++] = i;
	for (i = 0; i < nb; i++)
		if (!bad_b[i] && isfinite(w->lb[i]))
			w->kb[w->ub++] = i;
	free(bad_a);
	free(bad_b);
	if (!w->ua || !w->ub) {
		out->reason = ESTIMATE_REASON_NO_DATA;
		return 0;
	}
	return 1;
}

/* Round i of the kept instances: x of ours with y of vs. Their log values over
 * the keys both hold, the request scatter, the round's log ratio, and which
 * side started first (within one batch, where the collector alternated it;
 * across batches it is the order the user ran them in). */
static void est_round(struct est_work *w, size_t i, size_t x, size_t y)
{
	const struct estimate_unit *a = w->a, *b = w->b;
	const char *ta = a[x].started_at, *tb = b[y].started_at;
	struct estimate *out = w->out;
	double *xa, *xb, rv;
	size_t nxa, nxb, lost;
	int paired;

	round_logs(&a[x], &b[y], &w->ra[i], &w->rb[i], &xa, &nxa, &xb, &nxb, &lost, &paired);
	rv = request_var(xa, xb, nxa, paired);
	if (isfinite(rv)) {
		w->req_ss += rv;
		w->req_inv += 1 / (double)nxa;
		w->req_k++;
	}
	free(xa);
	free(xb);
	out->n_unpaired += lost;
	w->used_a[x] = w->used_b[y] = 1;
	w->d[i] = w->ra[i] - w->rb[i];
	out->round_ours[i] = x;
	out->round_vs[i] = y;
	out->round_pct[i] = (exp(w->d[i]) - 1) * 100;
	if (ta && tb && *ta && *tb && strcmp(ta, tb) && a[x].batch && b[y].batch &&
	    !strcmp(a[x].batch, b[y].batch))
		w->first[i] = strcmp(ta, tb) < 0 ? 1 : -1;
	else
		w->order_known = 0;
}

/* The kept instances paired into rounds (estimate_rounds(); none with
 * p->unpaired), each round's numbers in w and out. */
static void est_pair(struct est_work *w)
{
	struct estimate *out = w->out;
	size_t ua = w->ua, ub = w->ub, r, i;
	size_t *pairs = tps_xmalloc(2 * (ua < ub ? ua : ub) * sizeof(*pairs));

	r = w->p->unpaired ? 0 : estimate_rounds(w->a, w->ka, ua, w->b, w->kb, ub, pairs);
	w->d = tps_xmalloc((r ? r : 1) * sizeof(*w->d));
	w->ra = tps_xmalloc((r ? r : 1) * sizeof(*w->ra));
	w->rb = tps_xmalloc((r ? r : 1) * sizeof(*w->rb));
	w->first = tps_xcalloc(r ? r : 1, sizeof(*w->first));
	out->round_pct = tps_xmalloc((r ? r : 1) * sizeof(*out->round_pct));
	out->round_ours = tps_xmalloc((r ? r : 1) * sizeof(*out->round_ours));
	out->round_vs = tps_xmalloc((r ? r : 1) * sizeof(*out->round_vs));
	for (i = 0; i < r; i++)
		est_round(w, i, w->ka[pairs[2 * i]], w->kb[pairs[2 * i + 1]]);
	free(pairs);
	w->k = r;
	out->n_rounds = r;
	out->v.n_pairs = r;
}

/* Two rounds or more: a t interval on the rounds' log ratios, stratified by
 * which side started when every start is known, its scatter pooled with the
 * history's (with_history()) and never below the machine's (scatter_floor()). */
static void est_by_rounds(struct est_work *w)
{
	struct estimate *out = w->out;
	const struct estimate_params *p = w->p;
	size_t k = w->k, i, c1 = 0, c2 = 0;
	double s1 = 0, s2 = 0, sd = stats_stddev(w->d, k), ca = 0, cb = 0;

	for (i = 0; i < k; i++) {
		if (w->first[i] > 0)
			s1 += w->d[i], c1++;
		else if (w->first[i] < 0)
			s2 += w->d[i], c2++;
		ca += w->ra[i];
		cb += w->rb[i];
	}
	out->n_ours_first = c1;
	out->n_vs_first = c2;
	out->v.method = VERDICT_METHOD_ROUNDS;
	out->v.rounds = k;
	w->df = (double)(k - 1);
	with_history(p->hist, &sd, &w->df, &out->v);
	/* The request scatter's mean over the rounds, and the requests a round
	 * averages (the harmonic mean of their counts). */
	if (p->floors)
		scatter_floor(p, w->ra, w->rb, k, w->req_k ? w->req_ss / (double)w->req_k : NAN,
			      w->req_k ? (double)w->req_k / w->req_inv : NAN, w->alpha, &sd, &w->df,
			      &out->v);
	else {
		out->v.scatter_source = VERDICT_SCATTER_ROUNDS;
		out->v.round_scatter_pct = sd * 100;
	}
	ca /= (double)k;
	cb /= (double)k;
	if (w->order_known && c1 && c2) {
		/* Position enters the estimate: each order group weighs half, so a
		 * first-starter's edge cancels; the spread around the overall mean
		 * keeps the position effect in the error, which only widens it. The
		 * centres carry the same correction so their ratio is m. */
		double plain = stats_mean(w->d, k);

		w->m = (s1 / (double)c1 + s2 / (double)c2) / 2;
		w->se = sd * 0.5 * sqrt(1.0 / (double)c1 + 1.0 / (double)c2);
		ca += (w->m - plain) / 2;
		cb -= (w->m - plain) / 2;
	} else {
		w->m = stats_mean(w->d, k);
		w->se = sd / sqrt((double)k);
		if (w->order_known)
			out->reason = ESTIMATE_REASON_ORDER;
	}
	out->ours_center = exp(ca);
	out->vs_center = exp(cb);
}

/* Fewer rounds, two instances a side or more: Welch's t on the kept instances'
 * log values, all of them used. */
static void est_by_welch(struct est_work *w)
{
	struct estimate *out = w->out;
	size_t ua = w->ua, ub = w->ub, i;
	double *xa = tps_xmalloc(ua * sizeof(*xa)), *xb = tps_xmalloc(ub * sizeof(*xb));

	for (i = 0; i < ua; i++)
		xa[i] = w->la[w->ka[i]];
	for (i = 0; i < ub; i++)
		xb[i] = w->lb[w->kb[i]];
	w->m = stats_welch(xa, ua, xb, ub, &w->se, &w->df);
	for (i = 0; i < ua; i++)
		w->used_a[w->ka[i]] = 1;
	for (i = 0; i < ub; i++)
		w->used_b[w->kb[i]] = 1;
	out->ours_center = exp(stats_mean(xa, ua));
	out->vs_center = exp(stats_mean(xb, ub));
	out->v.method = VERDICT_METHOD_WELCH;
	out->v.rounds = 0;
	free(xa);
	free(xb);
}

/* One instance on one side, several kept on the other (estimate.h). When the
 * one shares a round with the other side (its first round, by number) it pairs
 * with its round partner and the several side's spread s is the scatter of the
 * pair's difference (s * sqrt(2)); without a partner, the one against the
 * several side's mean (s * sqrt(1 + 1/n), Welch's form with the one side's
 * scatter taken as the other's). */
static void est_by_spread(struct est_work *w)
{
	const struct estimate_unit *a = w->a, *b = w->b;
	struct estimate *out = w->out;
	size_t ua = w->ua, ub = w->ub, pa = w->k ? out->round_ours[0] : SIZE_MAX,
	       pb = w->k ? out->round_vs[0] : SIZE_MAX;
	const size_t *ks = ua >= 2 ? w->ka : w->kb;
	const double *ls = ua >= 2 ? w->la : w->lb;
	size_t ns = ua >= 2 ? ua : ub, i, nxa, nxb, lost = 0;
	double *xs = tps_xmalloc(ns * sizeof(*xs)), lx, ly, *xa, *xb, sd, rse = NAN, rdf = NAN,
	       f = w->p->noise_pct > 0 ? w->p->noise_pct / 100 : 0, s;
	int paired = pa != SIZE_MAX && pb != SIZE_MAX && a[pa].round != INT64_MIN &&
		     b[pb].round != INT64_MIN;

	for (i = 0; i < ns; i++)
		xs[i] = ls[ks[i]];
	s = stats_stddev(xs, ns);
	if (paired) {
		int by_key;

		round_logs(&a[pa], &b[pb], &lx, &ly, &xa, &nxa, &xb, &nxb, &lost, &by_key);
		one_round_se(xa, nxa, xb, nxb, by_key, &rse, &rdf);
		free(xa);
		free(xb);
		sd = s * sqrt(2.0);
	} else {
		double one = ua >= 2 ? w->lb[w->kb[0]] : w->la[w->ka[0]], mean = stats_mean(xs, ns);

		lx = ua >= 2 ? mean : one;
		ly = ua >= 2 ? one : mean;
		sd = s * sqrt(1 + 1.0 / (double)ns);
	}
	free(xs);
	w->m = lx - ly;
	/* The requests' error of the round adds in quadrature: several instances
	 * that happen to agree exactly must not claim none. */
	w->se = fmax(sd, f);
	if (isfinite(rse))
		w->se = sqrt(w->se * w->se + rse * rse);
	/* The spread's degrees of freedom; where the calibrated floor is the
	 * larger, it is taken as one instance a side takes it. */
	w->df = f > sd ? (isfinite(rdf) && paired ? rdf : 1) : (double)(ns - 1);
	out->n_unpaired = lost;
	/* The several side's instances are all evidence: of the scatter. */
	for (i = 0; i < ua; i++)
		w->used_a[w->ka[i]] = 1;
	for (i = 0; i < ub; i++)
		w->used_b[w->kb[i]] = 1;
	out->ours_center = exp(lx);
	out->vs_center = exp(ly);
	out->v.method = VERDICT_METHOD_SPREAD;
	out->v.bound = f > sd ? VERDICT_BOUND_NOISE : VERDICT_BOUND_BAND;
	out->v.scatter_pct = w->se * 100;
	out->v.rounds = paired;
	out->v.n_pairs = paired;
}

/* One instance a side (estimate.h): the ratio of x's and y's geometric means with
 * the requests' error, widened in quadrature by the cell's floor or the metric's
 * default scatter where the evidence allows, else deciding nothing. */
static void est_by_requests(struct est_work *w)
{
	const struct estimate_params *p = w->p;
	const struct estimate_unit *x = &w->a[w->ka[0]], *y = &w->b[w->kb[0]];
	struct estimate *out = w->out;
	double f = p->noise_pct > 0 ? p->noise_pct / 100 : 0, lx, ly, *xa, *xb;
	double hsd = estimate_history_sd(p->hist);
	/* Facts that show a quiet machine on both: without them the instance may
	 * have measured a busy GPU that no rule saw, and the default is no
	 * evidence of its scatter. */
	int quiet = x->facts && y->facts && !x->env && !y->env;
	size_t nxa, nxb, lost;
	int paired;

	round_logs(x, y, &lx, &ly, &xa, &nxa, &xb, &nxb, &lost, &paired);
	w->m = lx - ly;
	one_round_se(xa, nxa, xb, nxb, paired, &w->se, &w->df);
	free(xa);
	free(xb);
	out->n_unpaired = lost;
	w->used_a[w->ka[0]] = w->used_b[w->kb[0]] = 1;
	out->ours_center = exp(lx);
	out->vs_center = exp(ly);
	out->v.method = VERDICT_METHOD_REQUESTS;
	out->v.rounds = 1;
	out->v.n_pairs = 1;
	if (f > 0) {
		/* The floor is the sd of an instance pair's difference, calibrated
		 * on this machine (tpsdb calibrate): evidence of its own. The one
		 * round's draw of it adds in quadrature. */
		w->se = isfinite(w->se) ? sqrt(w->se * w->se + f * f) : f;
		out->v.bound = VERDICT_BOUND_NOISE;
		out->v.scatter_pct = f * 100;
		if (!isfinite(w->df))
			w->df = 1;
	} else if (p->scatter_pct > 0 &&
		   (p->default_known || (quiet && hsd <= p->scatter_pct / 100))) {
		/* No floor: the metric's default scatter, larger than any measured
		 * and within what this machine's earlier batches showed, taken as
		 * known (the normal quantile), so that only a difference far beyond
		 * the host's scatter decides. */
		f = p->scatter_pct / 100;
		w->se = isfinite(w->se) ? sqrt(w->se * w->se + f * f) : f;
		out->v.bound = VERDICT_BOUND_DEFAULT;
		out->v.scatter_pct = p->scatter_pct;
		w->df = ESTIMATE_KNOWN_DF;
	} else {
		out->reason = ESTIMATE_REASON_ONE_INSTANCE;
	}
}

/* The answers from the interval a method found, and what overrides them: the
 * values of instances not used count as unpaired; a reason that the interval
 * cannot see holds it undecided; ours' slow starts (slow_starts()); a finding
 * of the environment on an instance used spoils it. */
static void est_finish(struct est_work *w)
{
	struct estimate *out = w->out;
	unsigned env = 0;
	size_t i;

	for (i = 0; i < w->na; i++) {
		if (!w->used_a[i])
			out->n_unpaired += w->a[i].n;
		else
			env |= w->a[i].env;
	}
	for (i = 0; i < w->nb; i++) {
		if (!w->used_b[i])
			out->n_unpaired += w->b[i].n;
		else
			env |= w->b[i].env;
	}
	verdict_decide_interval(w->m, w->se, w->df, w->alpha, w->p->band_pct, &out->v);
	if (out->reason == ESTIMATE_REASON_ONE_INSTANCE || out->reason == ESTIMATE_REASON_ORDER ||
	    out->reason == ESTIMATE_REASON_DISAGREE) {
		/* Numbers to show, nothing decided: the interval leaves out what it
		 * cannot see (instance scatter, the position of the first start, or
		 * which of a side's disagreeing instances measured it). */
		if (out->v.kind != VERDICT_UNKNOWN)
			out->v.kind = VERDICT_UNDECIDED;
		if (out->v.regression != VERDICT_REG_UNKNOWN)
			out->v.regression = VERDICT_REG_UNDECIDED;
		out->v.decided = out->v.significant = 0;
	}
	slow_starts(out, w->slow_a, n_finite(w->lb, w->nb), w->p->hist);
	/* A measurement the environment spoiled is shown, never decided. */
	out->v.spoiled = env;
	if (env && out->v.regression != VERDICT_REG_UNKNOWN) {
		out->v.kind = VERDICT_SPOILED;
		out->v.regression = VERDICT_REG_SPOILED;
		out->v.decided = out->v.significant = 0;
	}
}

/* README, "How compare decides": the instances are the unit; outliers are left
 * out; the rest pair into rounds; then one method gives the interval, by what
 * the data hold: two rounds or more, else two instances a side (Welch), else
 * one against several (the spread), else one a side (the requests). The
 * answers and their overrides (est_finish()) are the same for all. */
int estimate_cell(const struct estimate_unit *a, size_t na, const struct estimate_unit *b,
		  size_t nb, const struct estimate_params *p, struct estimate *out)
{
	struct est_work w;

	if (est_init(&w, a, na, b, nb, p, out) < 0)
		return -1;
	if (est_keep(&w)) {
		est_pair(&w);
		if (w.k >= 2)
			est_by_rounds(&w);
		else if (w.ua >= 2 && w.ub >= 2)
			est_by_welch(&w);
		else if (w.ua >= 2 || w.ub >= 2)
			est_by_spread(&w);
		else
			est_by_requests(&w);
		est_finish(&w);
	}
	est_work_release(&w);
	return 0;
}
