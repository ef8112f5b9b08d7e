/* verdict.c: an interval in words. The interval of a log ratio, where a ratio
 * and its inverse are symmetric, answers the one-sided regression question and
 * the two-sided description against the band; the gate's outcome is the first. */
#include "analyze/verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "tpsdb.h"

const char *verdict_regression_name(enum verdict_regression r)
{
	switch (r) {
	case VERDICT_REG_NO:
		return "no";
	case VERDICT_REG_YES:
		return "yes";
	case VERDICT_REG_UNDECIDED:
		return "undecided";
	case VERDICT_REG_SPOILED:
		return "spoiled";
	case VERDICT_REG_INTERMITTENT:
		return "intermittent";
	case VERDICT_REG_UNKNOWN:
		break;
	}
	return NULL;
}

double verdict_common_level(const struct verdict *const *v, size_t n)
{
	double level = n ? v[0]->ci_level : 0.9;

	for (size_t i = 1; i < n; i++)
		if (v[i]->ci_level != level)
			return NAN;
	return level;
}

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
	case VERDICT_SPOILED:
		return "spoiled";
	case VERDICT_INTERMITTENT:
		return "intermittent";
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
	case VERDICT_METHOD_SPREAD:
		return "spread";
	case VERDICT_METHOD_REQUESTS:
		break;
	}
	return "requests";
}

const char *verdict_bound_name(enum verdict_bound bound)
{
	switch (bound) {
	case VERDICT_BOUND_NOISE:
		return "noise";
	case VERDICT_BOUND_DEFAULT:
		return "default";
	case VERDICT_BOUND_BAND:
		break;
	}
	return "band";
}

const char *verdict_history_name(enum verdict_history h)
{
	switch (h) {
	case VERDICT_HIST_POOLED:
		return "pooled";
	case VERDICT_HIST_REJECTED:
		return "rejected";
	case VERDICT_HIST_NONE:
		break;
	}
	return "none";
}

const char *verdict_scatter_name(enum verdict_scatter s)
{
	switch (s) {
	case VERDICT_SCATTER_ROUNDS:
		return "rounds";
	case VERDICT_SCATTER_INSTANCES:
		return "instances";
	case VERDICT_SCATTER_FLOOR:
		return "floor";
	case VERDICT_SCATTER_DRIFT:
		return "drift";
	case VERDICT_SCATTER_NONE:
		break;
	}
	return NULL;
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
	case VERDICT_GATE_SPOILED:
		return "spoiled";
	case VERDICT_GATE_INTERMITTENT:
		return "intermittent";
	case VERDICT_GATE_NODATA:
		break;
	}
	return "no-data";
}

/* Slack for comparing a percent against a bound: 102 vs 100 is 2.0000000000000018%
 * in doubles, and a 2% band must call that parity. Far below any real effect. */
#define EDGE_EPS 1e-9

static double pct(double ratio)
{
	return (ratio - 1) * 100;
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

void verdict_decide_interval(double m, double se, double df, double alpha, double band_pct,
			     struct verdict *out)
{
	double q = stats_t_quantile(1 - alpha, df);
	double lo = pct(exp(m - q * se)), hi = pct(exp(m + q * se));

	out->log_m = m;
	out->log_se = se;
	out->df = df;
	out->delta_pct = pct(exp(m));
	out->ci_lo_pct = isfinite(lo) ? lo : NAN;
	out->ci_hi_pct = isfinite(hi) ? hi : NAN;
	out->mde_pct = (out->ci_hi_pct - out->ci_lo_pct) / 2;
	out->band_pct = band_pct;
	out->ci_level = 1 - 2 * alpha;
	out->lean = band_side(out->delta_pct, band_pct);
	out->decided = 0;
	/* NaN bounds compare false, so a missing interval never decides. */
	if (out->lean == VERDICT_UNKNOWN) {
		out->kind = VERDICT_UNKNOWN;
		out->regression = VERDICT_REG_UNKNOWN;
		out->mde_pct = out->ci_lo_pct = out->ci_hi_pct = NAN;
	} else {
		if (out->ci_lo_pct > band_pct + EDGE_EPS)
			out->kind = VERDICT_FASTER, out->decided = 1;
		else if (out->ci_hi_pct < -band_pct - EDGE_EPS)
			out->kind = VERDICT_SLOWER, out->decided = 1;
		else if (out->ci_lo_pct >= -band_pct - EDGE_EPS &&
			 out->ci_hi_pct <= band_pct + EDGE_EPS)
			out->kind = VERDICT_PARITY, out->decided = 1;
		else
			out->kind = VERDICT_UNDECIDED;
		/* The edge itself: a slowdown of exactly the band is no regression. */
		if (out->ci_hi_pct < -band_pct - EDGE_EPS)
			out->regression = VERDICT_REG_YES;
		else if (out->ci_lo_pct >= -band_pct - EDGE_EPS)
			out->regression = VERDICT_REG_NO;
		else
			out->regression = VERDICT_REG_UNDECIDED;
	}
	out->significant = out->decided;
}

enum verdict_gate_outcome verdict_gate_outcome_of(const struct verdict *v)
{
	switch (v->regression) {
	case VERDICT_REG_YES:
		return VERDICT_GATE_FAIL;
	case VERDICT_REG_NO:
		return VERDICT_GATE_PASS;
	case VERDICT_REG_UNDECIDED:
		return VERDICT_GATE_INCONCLUSIVE;
	case VERDICT_REG_SPOILED:
		return VERDICT_GATE_SPOILED;
	case VERDICT_REG_INTERMITTENT:
		return VERDICT_GATE_INTERMITTENT;
	case VERDICT_REG_UNKNOWN:
		break;
	}
	return VERDICT_GATE_NODATA;
}
