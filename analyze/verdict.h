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
};

/* Which bound decided: the band given, or k times the noise floor (when larger). */
enum verdict_bound {
	VERDICT_BOUND_BAND,
	VERDICT_BOUND_NOISE,
};

/* "unknown", "parity", "faster", "slower"; static strings. */
const char *verdict_kind_name(enum verdict_kind kind);
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

enum verdict_gate_outcome {
	VERDICT_GATE_NODATA, /* a side has no value, or the baseline mean is <= 0 */
	VERDICT_GATE_PASS,
	VERDICT_GATE_FAIL,
};

/* "no-data", "pass", "fail"; static strings. */
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
};

/* The gate: fails when the candidate's mean tok/s is more than threshold_pct below
 * the baseline's, i.e. delta_pct < -threshold_pct; a regression of exactly the
 * threshold (97 against 100 at 3%, up to 1e-9 of rounding) passes. NaN values are skipped. p may be NULL for the defaults.
 * Returns 0, or -1 (out untouched, nothing printed) when a parameter is NaN or
 * negative. */
int verdict_gate(const double *candidate, size_t n_candidate, const double *baseline,
		size_t n_baseline, const struct verdict_gate_params *p,
		struct verdict_gate_result *out);

#endif
