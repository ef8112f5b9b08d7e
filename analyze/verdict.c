/* verdict.c: the parity verdict over paired tok/s and the regression gate. The
 * point estimate is a median so one bad pair cannot flip it; the interval and the
 * tests work on log ratios, where a ratio and its inverse are symmetric; the bound
 * is the band or k times the A/A noise, whichever is wider. */
#include "analyze/verdict.h"

#include <math.h>
#include <stdlib.h>

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
	case VERDICT_UNKNOWN:
		break;
	}
	return "unknown";
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
	if (m == 0)
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
	free(delta);
	free(logr);
	free(ratio);
	return 0;
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
	return 0;
}
