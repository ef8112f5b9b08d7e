/* verdict.h: the two decisions tpsdb prints. The parity verdict compares two
 * engines on the same prompts (paired tok/s, higher is better) and says "parity",
 * "faster" or "slower" with a confidence interval and tests behind it; the gate
 * compares a candidate build with a baseline and passes or fails it. Both widen
 * their bound to k times the measured A/A noise when that is larger. */
#ifndef ANALYZE_VERDICT_H
#define ANALYZE_VERDICT_H

#include <stddef.h>

#define VERDICT_BAND_PCT 2.0        /* default parity band, percent */
#define VERDICT_NOISE_K 2.0         /* default multiplier of the A/A noise floor */
#define VERDICT_MAX_REGRESS_PCT 3.0 /* default gate threshold, percent */
#define VERDICT_ALPHA 0.05          /* p below this is evidence */
/* The fewest pairs a verdict can be significant with: below 6 pairs the smallest
 * two-sided exact Wilcoxon p is 2/2^5 = 0.0625, so p < 0.05 is out of reach. */
#define VERDICT_MIN_PAIRS 6

enum verdict_kind {
	VERDICT_UNKNOWN, /* no usable pair */
	VERDICT_PARITY,
	VERDICT_FASTER,  /* ours is faster than vs */
	VERDICT_SLOWER,
	VERDICT_UNDECIDED, /* pooled rounds whose interval settles nothing yet */
};

/* Where a verdict's interval came from. */
enum verdict_method {
	VERDICT_METHOD_REQUESTS, /* one instance per side: requests of the one pair,
				    band widened to k x the stored instance noise */
	VERDICT_METHOD_ROUNDS,   /* t interval on the per-round log ratios */
	VERDICT_METHOD_WELCH,    /* unpaired instances: Welch on the log run values */
};

/* Which bound decided: the band given, or k times the noise floor (when larger). */
enum verdict_bound {
	VERDICT_BOUND_BAND,
	VERDICT_BOUND_NOISE,
};

/* "unknown", "parity", "faster", "slower", "undecided"; static strings. */
const char *verdict_kind_name(enum verdict_kind kind);
/* "requests", "rounds" or "welch"; static strings. */
const char *verdict_method_name(enum verdict_method method);
/* "band" or "noise"; static strings. */
const char *verdict_bound_name(enum verdict_bound bound);

struct verdict_params {
	double band_pct;  /* parity band, percent, >= 0 */
	double noise_pct; /* measured A/A noise, percent; 0 = unknown */
	double noise_k;   /* multiplier of noise_pct, >= 0 */
};

/* Sets the defaults: band 2%, noise unknown, k = 2. */
void verdict_params_init(struct verdict_params *p);

struct verdict {
	enum verdict_kind kind;
	enum verdict_bound bound; /* which bound band_pct came from */
	double band_pct;          /* the effective band: max(band, k * noise) */
	double delta_pct;         /* (median of ours/vs - 1) * 100: the point estimate */
	double mean_delta_pct;    /* mean of the per-pair (ours/vs - 1) * 100 */
	double ci_lo_pct;         /* 95% CI of the delta: t interval on the log ratios, */
	double ci_hi_pct;         /* mapped back to percent; NaN below two pairs */
	double p_wilcoxon;        /* signed-rank test of the log ratios; NaN if none */
	double p_sign;            /* exact sign test of the log ratios; NaN if none */
	size_t n_pairs;           /* pairs used */
	size_t n_skipped;         /* pairs left out: a NaN, infinite, zero or negative value */
	int significant;          /* see verdict_paired() */
	/* The instance view (every verdict fills these): */
	enum verdict_method method;
	size_t rounds;            /* paired rounds the interval used; 1 for one pair */
	size_t instances_ours, instances_vs; /* runs of each side pooled */
	double mde_pct;           /* half-width of the 95% interval, percent: the
				     smallest difference this data could call */
	int decided;              /* the interval settles faster, slower or parity */
	enum verdict_kind lean;   /* the point estimate's side under the band rule */
	double rounds_more;       /* estimated further rounds to decide; 0 when
				     decided, NaN when no estimate is possible */
};

/* The parity verdict for n pairs (ours[i], vs[i]) of tok/s measured on the same
 * prompt. A pair with a NaN, an infinity or a value <= 0 is skipped (n_skipped).
 * kind is parity when |delta_pct| <= band_pct (up to 1e-9 of rounding: 102 vs
 * 100 is parity in a 2% band), else faster or slower; unknown with no usable
 * pair. significant needs n_pairs >= VERDICT_MIN_PAIRS and then, for faster or
 * slower, p_wilcoxon < VERDICT_ALPHA and the whole CI beyond the band on the
 * delta's side; for parity, the whole CI inside [-band, +band]. The
 * median makes the point estimate robust to one outlier pair; the CI and the tests
 * use log ratios so that +x% and its inverse weigh the same. p may be NULL for the
 * defaults. Returns 0, or -1 (out untouched, nothing printed) when a parameter is
 * NaN or negative. */
int verdict_paired(const double *ours, const double *vs, size_t n,
		const struct verdict_params *p, struct verdict *out);

/* The pooled verdict with the server instance as the unit. round_log[0..n_rounds)
 * holds one log ratio (ours over vs) per paired round; ours_log / vs_log hold the
 * log instance value (run median) of every run of each side. With n_rounds >= 2
 * the interval is a t interval on the finite round log ratios (method ROUNDS);
 * with fewer, and at least two runs on each side, Welch's t on the log run values
 * (method WELCH). The point estimate is exp(mean) - 1. The band is p->band_pct
 * alone: the spread across instances is already in the interval, so the stored
 * noise floor does not widen it. Decided: faster (slower) when the whole 95%
 * interval lies above +band (below -band); parity when the 90% interval lies
 * inside [-band, +band], which is two one-sided tests at 5% each (TOST). Else
 * kind is UNDECIDED, lean the band rule's side and rounds_more an estimate of the
 * further rounds the interval needs to shrink past the nearer edge. Returns 0, 1
 * (out untouched) when neither method applies (fewer than two finite rounds and
 * fewer than two runs on a side: the caller falls back to verdict_paired()), or
 * -1 when a parameter is NaN or negative. */
int verdict_rounds(const double *round_log, size_t n_rounds, const double *ours_log,
		   size_t n_ours, const double *vs_log, size_t n_vs,
		   const struct verdict_params *p, struct verdict *out);

/* The interval decision shared by compare, gate and sweep: given the log-space
 * mean m, the standard error se and the degrees of freedom df of a difference,
 * fills delta, both 95% bounds, mde_pct, kind, lean, decided, significant and
 * rounds_more (for n units, n > 0) against band_pct. */
void verdict_decide_interval(double m, double se, double df, size_t n, double band_pct,
			     struct verdict *out);

enum verdict_gate_outcome {
	VERDICT_GATE_NODATA, /* a side has no value, or the baseline mean is <= 0 */
	VERDICT_GATE_PASS,
	VERDICT_GATE_FAIL,
	VERDICT_GATE_INCONCLUSIVE, /* past the threshold, not significantly */
};

/* "no-data", "pass", "fail", "inconclusive"; static strings. */
const char *verdict_gate_outcome_name(enum verdict_gate_outcome outcome);

struct verdict_gate_params {
	double max_regress_pct; /* allowed slowdown, percent, >= 0 */
	double noise_pct;       /* measured A/A noise, percent; 0 = unknown */
	double noise_k;         /* multiplier of noise_pct, >= 0 */
};

/* Sets the defaults: 3% allowed regression, noise unknown, k = 2. */
void verdict_gate_params_init(struct verdict_gate_params *p);

struct verdict_gate_result {
	enum verdict_gate_outcome outcome;
	enum verdict_bound bound;   /* which bound threshold_pct came from */
	double threshold_pct;       /* max(max_regress, k * noise) */
	double delta_pct;           /* (mean(candidate) / mean(baseline) - 1) * 100; NaN without data */
	double candidate_mean, baseline_mean;
	size_t n_candidate, n_baseline; /* non-NaN values used */
	/* The instance view, as in struct verdict: */
	enum verdict_method method;
	size_t rounds, instances_cand, instances_base;
	double ci_lo_pct, ci_hi_pct; /* 95% interval of delta_pct; NaN with one pair */
	double mde_pct;              /* its half-width; NaN with one pair */
	int decided;                 /* the outcome is significant */
	double rounds_more;          /* INCONCLUSIVE: estimated further rounds */
};

/* The gate: fails when the candidate's mean tok/s is more than threshold_pct below
 * the baseline's, i.e. delta_pct < -threshold_pct; a regression of exactly the
 * threshold (97 against 100 at 3%, up to 1e-9 of rounding) passes. NaN values are skipped. p may be NULL for the defaults.
 * Returns 0, or -1 (out untouched, nothing printed) when a parameter is NaN or
 * negative. */
int verdict_gate(const double *candidate, size_t n_candidate, const double *baseline,
		size_t n_baseline, const struct verdict_gate_params *p,
		struct verdict_gate_result *out);

/* The pooled gate: cand_log / base_log are the log means of each run of the two
 * sides, pairs[] (n_pairs of them, may be 0) index them into rounds (pairs[2i]
 * the candidate's run, pairs[2i+1] the baseline's). With two rounds or more the
 * interval is a t interval on the round log ratios, else Welch on the log run
 * means when each side has two runs. FAIL when the whole 95% interval lies below
 * -max_regress_pct (the stored floor does not widen it), INCONCLUSIVE when the
 * point estimate does but the interval does not, else PASS. Returns 0, 1 (out
 * untouched) when neither method applies (fall back to verdict_gate()), -1 for a
 * bad parameter. */
int verdict_gate_rounds(const double *cand_log, size_t n_cand, const double *base_log,
			size_t n_base, const size_t *pairs, size_t n_pairs,
			const struct verdict_gate_params *p, struct verdict_gate_result *out);

#endif
