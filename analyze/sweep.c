/* sweep.c: monotonicity, decomposition and cross-engine attribution for a
 * speculative-decoding sweep. Every verify cycle yields its accepted drafts plus
 * one token of the target's, so cycles = predicted_n - draft_n_accepted, and decode
 * speed is tokens per cycle over time per cycle: the two things an engine can be
 * better or worse at (the drafter's acceptance, the host's per-cycle cost). */
#include "analyze/sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/estimate.h"
#include "analyze/stats.h"
#include "analyze/verdict.h"
#include "tpsdb.h"

/* Percent change from a to b; NaN unless both are finite and positive. */
static double change_pct(double a, double b)
{
	if (!(a > 0) || !(b > 0) || isinf(a) || isinf(b))
		return NAN;
	return (b / a - 1) * 100;
}

/* The accepted count to use: absent counts mean zero only where nothing was drafted. */
static double accepted(const struct sweep_rung *r)
{
	if (r->draft_n_accepted >= 0)
		return (double)r->draft_n_accepted;
	return r->draft_n <= 0 ? 0 : NAN;
}

/* Fills the interval fields of out from r's runs: a t interval on the log run tg,
 * and one on the run acceptances centred on the pooled acceptance (the counts'
 * ratio), since a mean of ratios can sit off the ratio of sums. */
static void point_interval(const struct sweep_rung *r, struct sweep_point *out)
{
	double *v;
	size_t i, k = 0;

	out->instances = r->n_runs ? r->n_runs : 1;
	out->tg_ci_lo = out->tg_ci_hi = out->accept_ci_lo = out->accept_ci_hi = NAN;
	out->mde_pct = NAN;
	if (r->n_runs < 2 || !r->tg_runs)
		return;
	v = tps_xmalloc(r->n_runs * sizeof(*v));
	for (i = 0; i < r->n_runs; i++)
		if (r->tg_runs[i] > 0 && isfinite(r->tg_runs[i]))
			v[k++] = log(r->tg_runs[i]);
	if (k >= 2) {
		double m = stats_mean(v, k), h = stats_t_quantile(1 - VERDICT_ALPHA, (double)(k - 1)) *
						 stats_stddev(v, k) / sqrt((double)k);
		out->tg_ci_lo = exp(m - h);
		out->tg_ci_hi = exp(m + h);
		out->mde_pct = sinh(h) * 100; /* (hi - lo) / 2 over exp(m) */
	}
	k = 0;
	for (i = 0; r->accept_runs && i < r->n_runs; i++)
		if (isfinite(r->accept_runs[i]))
			v[k++] = r->accept_runs[i];
	if (k >= 2 && !isnan(out->acceptance)) {
		double h = stats_t_quantile(1 - VERDICT_ALPHA, (double)(k - 1)) * stats_stddev(v, k) /
			   sqrt((double)k);
		out->accept_ci_lo = fmax(0, out->acceptance - h);
		out->accept_ci_hi = fmin(1, out->acceptance + h);
	}
	free(v);
}

void sweep_point_compute(const struct sweep_rung *r, struct sweep_point *out)
{
	double acc = accepted(r), cycles = NAN;

	out->speedup = NAN;
	out->acceptance = r->draft_n > 0 && r->draft_n_accepted >= 0 ?
		(double)r->draft_n_accepted / (double)r->draft_n : NAN;
	if (r->predicted_n > 0 && !isnan(acc) && (double)r->predicted_n > acc)
		cycles = (double)r->predicted_n - acc;
	out->cycles = cycles;
	out->tokens_per_cycle = (double)r->predicted_n / cycles;
	out->ms_per_cycle = r->predicted_ms > 0 && isfinite(r->predicted_ms) ?
		r->predicted_ms / cycles : NAN;
	point_interval(r, out);
}

/* The estimate's instances of a rung: each run's value, round and batch; no
 * start times, since a series' rungs always run in the same order and that
 * order is the design, not a position to balance. */
static struct estimate_unit *rung_units(const struct sweep_rung *r, int use_rate, size_t *n)
{
	struct estimate_unit *u;
	size_t k, m = r->n_runs ? r->n_runs : 1;

	u = tps_xcalloc(m, sizeof(*u));
	for (k = 0; k < m; k++) {
		if (r->n_runs)
			u[k].value = use_rate ? r->rate_runs[k] : r->tg_runs[k];
		else if (use_rate && r->predicted_n > 0 && r->predicted_ms > 0)
			u[k].value = (double)r->predicted_n / r->predicted_ms * 1000;
		else
			u[k].value = r->tg;
		u[k].round = r->n_runs && r->round_runs && r->round_runs[k] >= 1 ?
			r->round_runs[k] : INT64_MIN;
		u[k].batch = r->n_runs && r->batch_runs ? r->batch_runs[k] : NULL;
	}
	*n = m;
	return u;
}

int sweep_step_interval(const struct sweep_rung *a, const struct sweep_rung *b, int use_rate,
			double band_pct, struct verdict *out)
{
	struct estimate_params p;
	struct estimate e;
	struct estimate_unit *ua, *ub;
	size_t na, nb;
	int ret;

	use_rate = use_rate && (a->n_runs ? a->rate_runs != NULL : 1) &&
		   (b->n_runs ? b->rate_runs != NULL : 1);
	ua = rung_units(a, use_rate, &na);
	ub = rung_units(b, use_rate, &nb);
	estimate_params_init(&p);
	p.band_pct = band_pct;
	p.scatter_pct = ESTIMATE_SCATTER_TG_PCT;
	/* Rungs of one engine, measured in one session on one machine: the sweep's
	 * shape takes the default as known (compare's one instance a side asks for
	 * evidence, analyze/estimate.h). */
	p.default_known = 1;
	/* Screened rungs hold no outlier left: the rule once, not again on the rest. */
	p.robust = !(a->screened && b->screened);
	/* b over a: the change from rung a to rung b. */
	ret = estimate_cell(ub, nb, ua, na, &p, &e);
	if (ret == 0) {
		*out = e.v;
		ret = e.v.kind == VERDICT_UNKNOWN ? 1 : 0;
	}
	estimate_release(&e);
	free(ua);
	free(ub);
	return ret;
}

static void step_set(struct sweep_step *s, const struct sweep_rung *rungs, size_t i, double c)
{
	s->from = i;
	s->to = i + 1;
	s->from_n_max = rungs[i].n_max;
	s->to_n_max = rungs[i + 1].n_max;
	s->change_pct = c;
	s->ref_change_pct = NAN;
	s->decided = 0;
	s->ci_lo_pct = s->ci_hi_pct = s->mde_pct = NAN;
	s->rounds = 0;
	s->machine_a = s->machine_b = NULL;
}

int sweep_rungs_same_machine(const struct sweep_rung *a, const struct sweep_rung *b,
			     const struct run **x, const struct run **y)
{
	if (x)
		*x = NULL;
	if (y)
		*y = NULL;
	if (!a->pool || !b->pool)
		return 1;
	return pools_same_machine(a->pool, b->pool, x, y);
}

/* Sets step s (step_set() already) across machines when rungs a and b were not
 * measured on one machine: its changes NaN, nothing decided. 1 when it did. */
static int step_across(struct sweep_step *s, const struct sweep_rung *a,
		       const struct sweep_rung *b)
{
	if (sweep_rungs_same_machine(a, b, &s->machine_a, &s->machine_b))
		return 0;
	s->change_pct = s->ref_change_pct = NAN;
	return 1;
}

/* The violation check of step i: the step's one estimate (sweep_step_interval())
 * gives the change; a violation is decided when the whole interval lies below
 * -tol, and a fall past -tol (or an interval reaching past it) that the
 * interval does not settle is an undecided dip. One run a side is judged against
 * the default decode scatter; without any interval nothing is decided. */
static void step_decide(struct sweep_report *out, const struct sweep_rung *rungs, size_t i,
			double c, double tol)
{
	struct verdict v;
	struct sweep_step *st;
	int have = sweep_step_interval(&rungs[i], &rungs[i + 1], 0, tol, &v) == 0 &&
		   isfinite(v.ci_lo_pct) && isfinite(v.ci_hi_pct);

	if (have && isfinite(v.delta_pct))
		c = v.delta_pct;
	if (!(c < -tol) && !(have && c < 0 && v.ci_lo_pct < -tol))
		return;
	st = &out->violations[out->n_violations++];
	step_set(st, rungs, i, c);
	if (!have)
		return;
	st->ci_lo_pct = v.ci_lo_pct;
	st->ci_hi_pct = v.ci_hi_pct;
	st->mde_pct = v.mde_pct;
	st->rounds = v.rounds;
	/* The estimate's own decision at the tolerance: an interval that cannot
	 * see the instance scatter (one instance a rung, no default) decides no
	 * violation, however far its requests' interval lies. */
	st->decided = v.kind == VERDICT_SLOWER;
	if (st->decided)
		out->n_decided++;
}

int sweep_analyze(const struct sweep_rung *rungs, size_t n, double tolerance_pct,
		struct sweep_report *out)
{
	size_t steps = n ? n - 1 : 0;

	memset(out, 0, sizeof(*out));
	out->base = SIZE_MAX;
	if (!(tolerance_pct >= 0))
		return -1;
	out->points = tps_xcalloc(n ? n : 1, sizeof(*out->points));
	out->violations = tps_xcalloc(steps ? steps : 1, sizeof(*out->violations));
	out->anomalies = tps_xcalloc(steps ? steps : 1, sizeof(*out->anomalies));
	out->across = tps_xcalloc(steps ? steps : 1, sizeof(*out->across));
	out->n_points = n;
	for (size_t i = 0; i < n && out->base == SIZE_MAX; i++)
		if (sweep_rung_is_base(rungs[i].n_max))
			out->base = i;
	for (size_t i = 0; i < n; i++) {
		sweep_point_compute(&rungs[i], &out->points[i]);
		/* A speedup over a base measured on another machine is none. */
		if (out->base != SIZE_MAX &&
		    sweep_rungs_same_machine(&rungs[out->base], &rungs[i], NULL, NULL)) {
			double c = change_pct(rungs[out->base].tg, rungs[i].tg);
			out->points[i].speedup = c / 100 + 1;
		}
	}
	for (size_t i = 0; i + 1 < n; i++) {
		double c = change_pct(rungs[i].tg, rungs[i + 1].tg);
		double a = change_pct(out->points[i].acceptance, out->points[i + 1].acceptance);
		struct sweep_step *x = &out->across[out->n_across];

		/* Rungs of two machines: neither a fall nor a rise is theirs to tell. */
		step_set(x, rungs, i, NAN);
		if (step_across(x, &rungs[i], &rungs[i + 1])) {
			out->n_across++;
			continue;
		}
		step_decide(out, rungs, i, c, tolerance_pct);
		if (sweep_rung_is_base(rungs[i].n_max) || sweep_rung_is_base(rungs[i + 1].n_max))
			continue;
		/* A rung that accepted nothing then something is a rise without a ratio. */
		if (out->points[i].acceptance == 0 && out->points[i + 1].acceptance > 0)
			a = INFINITY;
		if (a > tolerance_pct)
			step_set(&out->anomalies[out->n_anomalies++], rungs, i, a);
	}
	out->shape = out->n_decided ? SWEEP_NOT_MONOTONE :
		     out->n_violations || out->n_across ? SWEEP_SHAPE_UNDECIDED : SWEEP_MONOTONE;
	return 0;
}

const char *sweep_shape_name(enum sweep_shape s)
{
	switch (s) {
	case SWEEP_NOT_MONOTONE:
		return "not-monotone";
	case SWEEP_SHAPE_UNDECIDED:
		return "undecided";
	case SWEEP_MONOTONE:
		break;
	}
	return "monotone";
}

void sweep_report_release(struct sweep_report *r)
{
	if (!r)
		return;
	free(r->points);
	free(r->violations);
	free(r->anomalies);
	free(r->across);
	memset(r, 0, sizeof(*r));
	r->base = SIZE_MAX;
}

int sweep_gap(const struct sweep_rung *ours, const struct sweep_rung *ref, struct sweep_gap *out)
{
	struct sweep_point o, r;

	out->n_max = ours->n_max;
	out->tg_pct = out->tpc_pct = out->cost_pct = NAN;
	out->log_gap = out->log_tpc = out->log_cost = NAN;
	out->share_acceptance = out->share_cost = NAN;
	out->decided = 0;
	out->regression = VERDICT_REG_UNKNOWN;
	out->ci_lo_pct = out->ci_hi_pct = out->mde_pct = NAN;
	out->sums_pct = NAN;
	out->outliers = ours->n_screened + ref->n_screened;
	out->sums_wider = 0;
	out->reason = ESTIMATE_REASON_NONE;
	out->instances_ours = ours->n_runs ? ours->n_runs : 1;
	out->instances_ref = ref->n_runs ? ref->n_runs : 1;
	out->machine_a = out->machine_b = NULL;
	out->undrafted = 0;
	if (ours->n_max != ref->n_max)
		return -1;
	if (!sweep_rung_is_base(ours->n_max))
		out->undrafted = (ours->draft_n <= 0) | (ref->draft_n <= 0) << 1;
	/* One comparison is on one machine: across two, no figure at all. */
	if (!sweep_rungs_same_machine(ours, ref, &out->machine_a, &out->machine_b))
		return 0;
	sweep_point_compute(ours, &o);
	sweep_point_compute(ref, &r);
	if (isnan(o.tokens_per_cycle) || isnan(r.tokens_per_cycle) ||
			isnan(o.ms_per_cycle) || isnan(r.ms_per_cycle))
		return -1;
	out->log_tpc = log(o.tokens_per_cycle) - log(r.tokens_per_cycle);
	out->log_cost = log(o.ms_per_cycle) - log(r.ms_per_cycle);
	out->log_gap = out->log_tpc - out->log_cost;
	out->tpc_pct = expm1(out->log_tpc) * 100;
	out->cost_pct = expm1(out->log_cost) * 100;
	out->tg_pct = out->sums_pct = expm1(out->log_gap) * 100;
	/* A gap at rounding level has no meaningful split into shares. */
	if (fabs(out->log_gap) > 1e-12) {
		out->share_acceptance = out->log_tpc / out->log_gap;
		out->share_cost = -out->log_cost / out->log_gap;
	}
	return 0;
}

/* How many of a rung's units the estimate's out[0..n) and the rung's screening
 * disagree on. */
static size_t screen_mismatch(const struct sweep_rung *g, const size_t *out, size_t n)
{
	size_t i, k, miss = 0;

	for (i = 0; i < g->n_units; i++) {
		int est = 0;
		for (k = 0; k < n; k++)
			est |= out[k] == i;
		miss += est != !g->unit_kept[i];
	}
	return miss;
}

/* The estimate of ours against ref over their units, as compare makes it, at
 * band_pct. 0 filled, -1 refused. */
static int gap_estimate(const struct sweep_rung *ours, const struct sweep_rung *ref,
			double band_pct, struct estimate *e)
{
	struct estimate_params p;

	estimate_params_init(&p);
	p.band_pct = band_pct;
	if (ours->pool && ref->pool)
		return pool_estimate(ours->pool, ref->pool, RUN_TG, &p, e, NULL, NULL);
	p.scatter_pct = ESTIMATE_SCATTER_TG_PCT;
	p.looks_to = ours->looks_to > ref->looks_to ? ours->looks_to : ref->looks_to;
	if (p.looks_to < 0)
		p.looks_to = 0;
	if (p.looks_to > ESTIMATE_MAX_LOOK)
		p.looks_to = ESTIMATE_MAX_LOOK;
	return estimate_cell(ours->units, ours->n_units, ref->units, ref->n_units, &p, e);
}

/* sweep_gap_decide() on units: compare's estimate of the cell. */
static void gap_decide_units(const struct sweep_rung *ours, const struct sweep_rung *ref,
			     struct sweep_gap *gap)
{
	struct estimate e, r;

	if (gap_estimate(ours, ref, SWEEP_EQUAL_PCT, &e) < 0)
		return;
	gap->reason = e.reason;
	gap->instances_ours = ours->n_units;
	gap->instances_ref = ref->n_units;
	gap->outliers = e.n_out_ours + e.n_out_vs;
	gap->sums_wider = screen_mismatch(ours, e.out_ours, e.n_out_ours) +
			  screen_mismatch(ref, e.out_vs, e.n_out_vs) > 0;
	if (isfinite(e.v.delta_pct))
		gap->tg_pct = e.v.delta_pct;
	if (e.reason != ESTIMATE_REASON_NONE && e.reason != ESTIMATE_REASON_ORDER &&
	    e.reason != ESTIMATE_REASON_DISAGREE && e.reason != ESTIMATE_REASON_SLOW_ONCE &&
	    e.reason != ESTIMATE_REASON_SLOW_EARLIER) {
		estimate_release(&e);
		return; /* one instance a side: a point, no interval across instances */
	}
	if (!isnan(e.v.ci_lo_pct) && !isnan(e.v.ci_hi_pct)) {
		gap->decided = e.reason == ESTIMATE_REASON_NONE && e.v.decided;
		gap->ci_lo_pct = e.v.ci_lo_pct;
		gap->ci_hi_pct = e.v.ci_hi_pct;
		gap->mde_pct = e.v.mde_pct;
		if (e.reason == ESTIMATE_REASON_NONE &&
		    gap_estimate(ours, ref, VERDICT_BAND_PCT, &r) == 0) {
			gap->regression = r.v.regression;
			estimate_release(&r);
		}
	}
	estimate_release(&e);
}

void sweep_gap_decide(const struct sweep_rung *ours, const struct sweep_rung *ref,
		      struct sweep_gap *gap)
{
	struct verdict v, r;

	if (gap->machine_a)
		return; /* measured on two machines: nothing to decide */
	gap->decided = 0;
	gap->regression = VERDICT_REG_UNDECIDED;
	gap->reason = ESTIMATE_REASON_NONE;
	if (ours->units && ref->units) {
		gap_decide_units(ours, ref, gap);
		return;
	}
	/* The decode speeds, as compare reads the same cell: one estimate. */
	if (sweep_step_interval(ref, ours, 0, SWEEP_EQUAL_PCT, &v) != 0 ||
	    isnan(v.ci_lo_pct) || isnan(v.ci_hi_pct))
		return;
	gap->decided = v.decided;
	/* The gap's figure is the one estimate; the parts stay the sums' split. */
	gap->tg_pct = v.delta_pct;
	gap->ci_lo_pct = v.ci_lo_pct;
	gap->ci_hi_pct = v.ci_hi_pct;
	gap->mde_pct = v.mde_pct;
	if (v.outliers_ours + v.outliers_vs) {
		gap->outliers += v.outliers_ours + v.outliers_vs;
		gap->sums_wider = 1;
	}
	/* The same interval against the regression band. */
	if (sweep_step_interval(ref, ours, 0, VERDICT_BAND_PCT, &r) == 0)
		gap->regression = r.regression;
}

int sweep_sign(double v)
{
	return v > SWEEP_EQUAL_PCT ? 1 : v < -SWEEP_EQUAL_PCT ? -1 : 0;
}

int sweep_rung_is_base(int64_t n_max)
{
	return n_max <= 0; /* TPS_NULL is INT64_MIN */
}

int sweep_gap_why(const struct sweep_gap *gap, struct sweep_why *out)
{
	int g, help_a, help_c;

	memset(out, 0, sizeof(*out));
	if (isnan(gap->tg_pct) || isnan(gap->tpc_pct) || isnan(gap->cost_pct))
		return -1;
	out->base = sweep_rung_is_base(gap->n_max);
	out->gap = g = sweep_sign(gap->tg_pct);
	out->accept = sweep_sign(gap->tpc_pct);
	out->cost = sweep_sign(gap->cost_pct);
	out->cause = SWEEP_CAUSE_NONE;
	/* The parts split the sums; the figure is the estimate, which on unscreened
	 * rungs may leave an outlier instance out of it alone. Only parts of the same
	 * data, on the same side, may be named as its cause. */
	out->split = !gap->sums_wider &&
		     (isnan(gap->sums_pct) || sweep_sign(gap->sums_pct) == g);
	/* A side that drafted nothing did not speculate: its tokens per cycle of 1
	 * are no acceptance, and the gap is not one of the drafter or the cycle. */
	out->undrafted = out->base ? 0 : gap->undrafted;
	if (out->base || !out->split || out->undrafted)
		return 0; /* no drafting: a cycle is one token, only its cost remains */
	/* For ours: acceptance helps when higher, cost helps when lower. */
	help_a = out->accept;
	help_c = -out->cost;
	out->against = (help_a && help_c && help_a != help_c) || (!help_a && help_c);
	if (g == 0) {
		if (help_a && help_c && help_a != help_c)
			out->cause = SWEEP_CAUSE_CANCEL;
	} else if (!help_a && help_c == g) {
		out->cause = SWEEP_CAUSE_HOST;
	} else if (!help_c && help_a == g) {
		out->cause = SWEEP_CAUSE_DRAFTER;
	} else if (help_a == g && help_c == g) {
		out->cause = SWEEP_CAUSE_BOTH;
	} else if (help_a && help_c && help_a != help_c) {
		out->cause = help_c == g ? SWEEP_CAUSE_COST_WINS : SWEEP_CAUSE_ACCEPT_WINS;
	}
	return 0;
}

int sweep_shape(const struct sweep_rung *ours, const struct sweep_rung *ref, size_t n,
		double tolerance_pct, struct sweep_step *out, size_t *count)
{
	*count = 0;
	if (!(tolerance_pct >= 0))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (ours[i].n_max != ref[i].n_max)
			return -1;
	for (size_t i = 0; i + 1 < n; i++) {
		double o = change_pct(ours[i].tg, ours[i + 1].tg);
		double r = change_pct(ref[i].tg, ref[i + 1].tg);

		struct verdict vo, vr;
		int ho, hr;

		step_set(&out[*count], ours, i, NAN);
		if (step_across(&out[*count], &ours[i], &ours[i + 1]) ||
		    step_across(&out[*count], &ours[i], &ref[i]) ||
		    step_across(&out[*count], &ours[i], &ref[i + 1])) {
			(*count)++;
			continue;
		}
		if (!(o < -tolerance_pct) || !(r >= -tolerance_pct))
			continue;
		step_set(&out[*count], ours, i, o);
		out[*count].ref_change_pct = r;
		/* A cause is named only when both intervals decide it: ours' fall
		 * wholly past the tolerance, the reference's change wholly within. */
		ho = sweep_step_interval(&ours[i], &ours[i + 1], 0, tolerance_pct, &vo) == 0 &&
		     isfinite(vo.ci_hi_pct);
		hr = sweep_step_interval(&ref[i], &ref[i + 1], 0, tolerance_pct, &vr) == 0 &&
		     isfinite(vr.ci_lo_pct);
		if (ho) {
			out[*count].ci_lo_pct = vo.ci_lo_pct;
			out[*count].ci_hi_pct = vo.ci_hi_pct;
			out[*count].mde_pct = vo.mde_pct;
			out[*count].rounds = vo.rounds;
		}
		out[*count].decided = ho && hr && vo.ci_hi_pct < -tolerance_pct &&
				      vr.ci_lo_pct >= -tolerance_pct;
		(*count)++;
	}
	return 0;
}
