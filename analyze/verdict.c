/* verdict.c: the parity verdict over paired tok/s and the regression gate. The
 * point estimate is a median so one bad pair cannot flip it; the interval and the
 * tests work on log ratios, where a ratio and its inverse are symmetric; the bound
 * is the band or k times the A/A noise, whichever is wider. */
#include "analyze/verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "tpsdb.h"

const char *verdict_kind_name(enum verdict_kind kind)
{
	switch (kind) {
	case VERDICT_PARITY:
		return "parity";
	case VERDICT_FASTER:
		return "faster";
	case VERDICT_SLOWER:
		return "slower";
	case VERDICT_UNDECIDED:
		return "undecided";
	case VERDICT_UNKNOWN:
		break;
	}
	return "unknown";
}

const char *verdict_method_name(enum verdict_method method)
{
	switch (method) {
	case VERDICT_METHOD_ROUNDS:
		return "rounds";
	case VERDICT_METHOD_WELCH:
		return "welch";
	case VERDICT_METHOD_REQUESTS:
		break;
	}
	return "requests";
}

const char *verdict_bound_name(enum verdict_bound bound)
{
	return bound == VERDICT_BOUND_NOISE ? "noise" : "band";
}

const char *verdict_gate_outcome_name(enum verdict_gate_outcome outcome)
{
	switch (outcome) {
	case VERDICT_GATE_PASS:
		return "pass";
	case VERDICT_GATE_FAIL:
		return "fail";
	case VERDICT_GATE_INCONCLUSIVE:
		return "inconclusive";
	case VERDICT_GATE_NODATA:
		break;
	}
	return "no-data";
}

void verdict_params_init(struct verdict_params *p)
{
	p->band_pct = VERDICT_BAND_PCT;
	p->noise_pct = 0;
	p->noise_k = VERDICT_NOISE_K;
}

void verdict_gate_params_init(struct verdict_gate_params *p)
{
	p->max_regress_pct = VERDICT_MAX_REGRESS_PCT;
	p->noise_pct = 0;
	p->noise_k = VERDICT_NOISE_K;
}

/* A parameter is usable when it is a number >= 0 (infinity included: an infinite
 * band is a legal way to say "never fail"). */
static int param_ok(double v)
{
	return v >= 0;
}

/* max(base, k * noise) and which of the two it was; a tie goes to the band. */
static double effective_bound(double base, double noise, double k, enum verdict_bound *which)
{
	double widened = k * noise;

	if (noise > 0 && widened > base) {
		*which = VERDICT_BOUND_NOISE;
		return widened;
	}
	*which = VERDICT_BOUND_BAND;
	return base;
}

/* Slack for comparing a percent against a bound: 102 vs 100 is 2.0000000000000018%
 * in doubles, and a 2% band must call that parity. Far below any real effect. */
#define EDGE_EPS 1e-9

static double pct(double ratio)
{
	return (ratio - 1) * 100;
}

int verdict_paired(const double *ours, const double *vs, size_t n,
		const struct verdict_params *p, struct verdict *out)
{
	struct verdict_params def;
	struct stats_test t;
	double *ratio, *logr, *delta, band, lo, hi;
	size_t m = 0;

	if (!p) {
		verdict_params_init(&def);
		p = &def;
	}
	if (!param_ok(p->band_pct) || !param_ok(p->noise_pct) || !param_ok(p->noise_k))
		return -1;
	ratio = tps_xmalloc((n ? n : 1) * sizeof(*ratio));
	logr = tps_xmalloc((n ? n : 1) * sizeof(*logr));
	delta = tps_xmalloc((n ? n : 1) * sizeof(*delta));
	for (size_t i = 0; i < n; i++) {
		/* !(x > 0) is also true for NaN. */
		if (!(ours[i] > 0) || !(vs[i] > 0) || isinf(ours[i]) || isinf(vs[i]))
			continue;
		ratio[m] = ours[i] / vs[i];
		/* A subnormal rate makes the ratio overflow or vanish: no usable pair. */
		if (!isfinite(ratio[m]) || !(ratio[m] > 0))
			continue;
		/* Not log(ratio): this form negates exactly when ours and vs swap, so a
		 * pair and its mirror tie in the signed-rank test as they should. */
		logr[m] = log(ours[i]) - log(vs[i]);
		delta[m] = pct(ratio[m]);
		m++;
	}
	band = effective_bound(p->band_pct, p->noise_pct, p->noise_k, &out->bound);
	out->band_pct = band;
	out->n_pairs = m;
	out->n_skipped = n - m;
	out->delta_pct = pct(stats_median(ratio, m));
	out->mean_delta_pct = stats_mean(delta, m);
	stats_mean_ci(logr, m, 0.95, &lo, &hi);
	out->ci_lo_pct = pct(exp(lo));
	out->ci_hi_pct = pct(exp(hi));
	stats_wilcoxon(logr, m, &t);
	out->p_wilcoxon = t.p;
	stats_sign_test(logr, m, &t);
	out->p_sign = t.p;
	out->significant = 0;
	if (m == 0 || !isfinite(out->delta_pct))
		out->kind = VERDICT_UNKNOWN;
	else if (fabs(out->delta_pct) <= band + EDGE_EPS)
		out->kind = VERDICT_PARITY;
	else
		out->kind = out->delta_pct > 0 ? VERDICT_FASTER : VERDICT_SLOWER;
	if (m >= VERDICT_MIN_PAIRS) {
		/* NaN compares false everywhere below, so a missing CI or p is never
		 * evidence. */
		int evidence = out->p_wilcoxon < VERDICT_ALPHA;

		if (out->kind == VERDICT_PARITY)
			out->significant = out->ci_lo_pct >= -band - EDGE_EPS &&
				out->ci_hi_pct <= band + EDGE_EPS;
		else if (out->kind == VERDICT_FASTER)
			out->significant = evidence && out->ci_lo_pct > band;
		else if (out->kind == VERDICT_SLOWER)
			out->significant = evidence && out->ci_hi_pct < -band;
	}
	/* One instance per side: the requests' interval, at least as wide as the
	 * instance noise the band was widened to when a floor is stored. */
	out->method = VERDICT_METHOD_REQUESTS;
	out->rounds = m ? 1 : 0;
	out->instances_ours = out->instances_vs = 1;
	out->mde_pct = (out->ci_hi_pct - out->ci_lo_pct) / 2;
	if (p->noise_pct > 0 && !(out->mde_pct >= p->noise_k * p->noise_pct))
		out->mde_pct = p->noise_k * p->noise_pct;
	out->decided = out->significant;
	out->lean = out->kind;
	out->rounds_more = out->decided ? 0 : NAN;
	free(delta);
	free(logr);
	free(ratio);
	return 0;
}

/* The band rule's side of a point estimate. */
static enum verdict_kind band_side(double delta_pct, double band)
{
	if (!isfinite(delta_pct))
		return VERDICT_UNKNOWN;
	if (fabs(delta_pct) <= band + EDGE_EPS)
		return VERDICT_PARITY;
	return delta_pct > 0 ? VERDICT_FASTER : VERDICT_SLOWER;
}

/* The rounds an interval of n units with standard error se needs until its
 * half-width (at the quantile q) falls below margin, a log-space distance; NaN
 * when margin is not positive or it would take more than 1000. */
static double more_rounds(double se, size_t n, double q, double margin)
{
	double sd = se * sqrt((double)n);

	if (!(margin > 0) || !isfinite(sd))
		return NAN;
	for (size_t k = n + 1; k <= 1000; k++)
		if (stats_t_quantile(q, (double)(k - 1)) * sd / sqrt((double)k) < margin)
			return (double)(k - n);
	return NAN;
}

void verdict_decide_interval(double m, double se, double df, size_t n, double band_pct,
			     struct verdict *out)
{
	double t95 = stats_t_quantile(0.975, df), t90 = stats_t_quantile(0.95, df);
	double lo = m - t95 * se, hi = m + t95 * se;
	double lo90 = pct(exp(m - t90 * se)), hi90 = pct(exp(m + t90 * se));
	double ub = log1p(band_pct / 100), lb = log1p(-band_pct / 100);

	out->delta_pct = pct(exp(m));
	out->ci_lo_pct = pct(exp(lo));
	out->ci_hi_pct = pct(exp(hi));
	out->mde_pct = (out->ci_hi_pct - out->ci_lo_pct) / 2;
	out->band_pct = band_pct;
	out->bound = VERDICT_BOUND_BAND;
	out->lean = band_side(out->delta_pct, band_pct);
	out->decided = 0;
	out->rounds_more = NAN;
	/* NaN bounds compare false, so a missing interval never decides. */
	if (out->lean == VERDICT_UNKNOWN)
		out->kind = VERDICT_UNKNOWN;
	else if (out->ci_lo_pct > band_pct + EDGE_EPS)
		out->kind = VERDICT_FASTER, out->decided = 1;
	else if (out->ci_hi_pct < -band_pct - EDGE_EPS)
		out->kind = VERDICT_SLOWER, out->decided = 1;
	else if (lo90 >= -band_pct - EDGE_EPS && hi90 <= band_pct + EDGE_EPS)
		out->kind = VERDICT_PARITY, out->decided = 1;
	else
		out->kind = VERDICT_UNDECIDED;
	out->significant = out->decided;
	if (out->decided)
		out->rounds_more = 0;
	else if (out->kind == VERDICT_UNDECIDED)
		/* The band is [log(1 - b), log(1 + b)] in log space, not symmetric: a
		 * lean beyond it is decided by the 95% interval clearing the edge on
		 * its side, parity by the 90% interval fitting inside both edges. */
		out->rounds_more = out->lean == VERDICT_PARITY ?
			more_rounds(se, n, 0.95, fmin(ub - m, m - lb)) :
			more_rounds(se, n, 0.975, m > 0 ? m - ub : lb - m);
}

int verdict_rounds(const double *round_log, size_t n_rounds, const double *ours_log,
		   size_t n_ours, const double *vs_log, size_t n_vs,
		   const struct verdict_params *p, struct verdict *out)
{
	struct verdict_params def;
	double *d = tps_xmalloc((n_rounds ? n_rounds : 1) * sizeof(*d)), m, se, df;
	size_t k = 0, n;
	int ret = 1;

	if (!p) {
		verdict_params_init(&def);
		p = &def;
	}
	if (!param_ok(p->band_pct) || !param_ok(p->noise_pct) || !param_ok(p->noise_k)) {
		free(d);
		return -1;
	}
	for (size_t i = 0; i < n_rounds; i++)
		if (isfinite(round_log[i]))
			d[k++] = round_log[i];
	if (k >= 2) {
		m = stats_mean(d, k);
		se = stats_stddev(d, k) / sqrt((double)k);
		df = (double)(k - 1);
		n = k;
		out->method = VERDICT_METHOD_ROUNDS;
	} else if (stats_count(ours_log, n_ours) >= 2 && stats_count(vs_log, n_vs) >= 2) {
		m = stats_welch(ours_log, n_ours, vs_log, n_vs, &se, &df);
		n = stats_count(ours_log, n_ours) < stats_count(vs_log, n_vs) ?
			stats_count(ours_log, n_ours) : stats_count(vs_log, n_vs);
		out->method = VERDICT_METHOD_WELCH;
	} else {
		goto out;
	}
	verdict_decide_interval(m, se, df, n, p->band_pct, out);
	out->mean_delta_pct = out->delta_pct;
	out->p_wilcoxon = out->p_sign = NAN;
	out->n_pairs = k;
	out->n_skipped = n_rounds - k;
	out->rounds = out->method == VERDICT_METHOD_ROUNDS ? k : 0;
	out->instances_ours = n_ours;
	out->instances_vs = n_vs;
	ret = 0;
out:
	free(d);
	return ret;
}

int verdict_gate(const double *candidate, size_t n_candidate, const double *baseline,
		size_t n_baseline, const struct verdict_gate_params *p,
		struct verdict_gate_result *out)
{
	struct verdict_gate_params def;
	double threshold;

	if (!p) {
		verdict_gate_params_init(&def);
		p = &def;
	}
	if (!param_ok(p->max_regress_pct) || !param_ok(p->noise_pct) || !param_ok(p->noise_k))
		return -1;
	threshold = effective_bound(p->max_regress_pct, p->noise_pct, p->noise_k, &out->bound);
	out->threshold_pct = threshold;
	out->candidate_mean = stats_mean(candidate, n_candidate);
	out->baseline_mean = stats_mean(baseline, n_baseline);
	out->n_candidate = stats_count(candidate, n_candidate);
	out->n_baseline = stats_count(baseline, n_baseline);
	out->delta_pct = pct(out->candidate_mean / out->baseline_mean);
	if (isnan(out->candidate_mean) || !(out->baseline_mean > 0) || !isfinite(out->delta_pct)) {
		out->outcome = VERDICT_GATE_NODATA;
		out->delta_pct = NAN;
	} else {
		out->outcome = out->delta_pct < -threshold - EDGE_EPS ?
			VERDICT_GATE_FAIL : VERDICT_GATE_PASS;
	}
	out->method = VERDICT_METHOD_REQUESTS;
	out->rounds = out->outcome == VERDICT_GATE_NODATA ? 0 : 1;
	out->instances_cand = out->instances_base = 1;
	out->ci_lo_pct = out->ci_hi_pct = out->mde_pct = NAN;
	out->decided = out->outcome != VERDICT_GATE_NODATA;
	out->rounds_more = NAN;
	return 0;
}

int verdict_gate_rounds(const double *cand_log, size_t n_cand, const double *base_log,
			size_t n_base, const size_t *pairs, size_t n_pairs,
			const struct verdict_gate_params *p, struct verdict_gate_result *out)
{
	struct verdict_gate_params def;
	struct verdict v;
	double *d = tps_xmalloc((n_pairs ? n_pairs : 1) * sizeof(*d)), m, se, df, lt;
	size_t k = 0, n;
	int ret = 1;

	if (!p) {
		verdict_gate_params_init(&def);
		p = &def;
	}
	if (!param_ok(p->max_regress_pct) || !param_ok(p->noise_pct) || !param_ok(p->noise_k)) {
		free(d);
		return -1;
	}
	for (size_t i = 0; i < n_pairs; i++) {
		double x = cand_log[pairs[2 * i]] - base_log[pairs[2 * i + 1]];
		if (isfinite(x))
			d[k++] = x;
	}
	if (k >= 2) {
		m = stats_mean(d, k);
		se = stats_stddev(d, k) / sqrt((double)k);
		df = (double)(k - 1);
		n = k;
		out->method = VERDICT_METHOD_ROUNDS;
	} else if (stats_count(cand_log, n_cand) >= 2 && stats_count(base_log, n_base) >= 2) {
		m = stats_welch(cand_log, n_cand, base_log, n_base, &se, &df);
		n = n_cand < n_base ? n_cand : n_base;
		out->method = VERDICT_METHOD_WELCH;
	} else {
		goto out;
	}
	memset(&v, 0, sizeof(v));
	verdict_decide_interval(m, se, df, n, 0, &v);
	out->bound = VERDICT_BOUND_BAND;
	out->threshold_pct = p->max_regress_pct;
	out->delta_pct = v.delta_pct;
	out->ci_lo_pct = v.ci_lo_pct;
	out->ci_hi_pct = v.ci_hi_pct;
	out->mde_pct = v.mde_pct;
	out->candidate_mean = exp(stats_mean(cand_log, n_cand));
	out->baseline_mean = exp(stats_mean(base_log, n_base));
	out->n_candidate = stats_count(cand_log, n_cand);
	out->n_baseline = stats_count(base_log, n_base);
	out->rounds = out->method == VERDICT_METHOD_ROUNDS ? k : 0;
	out->instances_cand = n_cand;
	out->instances_base = n_base;
	out->rounds_more = NAN;
	lt = log1p(-p->max_regress_pct / 100);
	if (!isfinite(out->delta_pct)) {
		out->outcome = VERDICT_GATE_NODATA;
		out->decided = 0;
	} else if (out->ci_hi_pct < -p->max_regress_pct - EDGE_EPS) {
		out->outcome = VERDICT_GATE_FAIL;
		out->decided = 1;
	} else if (out->delta_pct < -p->max_regress_pct - EDGE_EPS) {
		out->outcome = VERDICT_GATE_INCONCLUSIVE;
		out->decided = 0;
		out->rounds_more = more_rounds(se, n, 0.975, lt - m);
	} else {
		out->outcome = VERDICT_GATE_PASS;
		out->decided = 1;
	}
	ret = 0;
out:
	free(d);
	return ret;
}
