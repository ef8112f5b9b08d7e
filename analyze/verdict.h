/* verdict.h: the words of a decision. One interval of a difference (ours over
 * vs, higher is better) answers the regression question (is ours slower by more
 * than the band?) and gives the two-sided description (faster, slower, parity);
 * the gate's outcomes are the regression answer at its threshold. The interval
 * itself comes from analyze/estimate.c, the one estimate of a cell. */
#ifndef ANALYZE_VERDICT_H
#define ANALYZE_VERDICT_H

#include <stddef.h>

#define VERDICT_BAND_PCT 2.0        /* default parity band, percent */
#define VERDICT_MAX_REGRESS_PCT 3.0 /* default gate threshold, percent */
#define VERDICT_ALPHA 0.05          /* one-sided level of each answer */

enum verdict_kind {
	VERDICT_UNKNOWN, /* no usable pair */
	VERDICT_PARITY,
	VERDICT_FASTER,  /* ours is faster than vs */
	VERDICT_SLOWER,
	VERDICT_UNDECIDED, /* pooled rounds whose interval settles nothing yet */
	VERDICT_SPOILED,   /* an instance it used carries an environment finding */
	VERDICT_INTERMITTENT, /* some of ours' instances ran far slower, none of
				 vs's: the regression answer is intermittent */
};

/* Where a verdict's interval came from. */
enum verdict_method {
	VERDICT_METHOD_REQUESTS, /* one instance per side: requests of the one pair,
				    band widened to k x the stored instance noise */
	VERDICT_METHOD_ROUNDS,   /* t interval on the per-round log ratios */
	VERDICT_METHOD_WELCH,    /* unpaired instances: Welch on the log run values */
	VERDICT_METHOD_SPREAD,   /* one instance on one side, several on the other:
				    the one round's log ratio against the several
				    side's own instance spread (estimate.h) */
};

/* What the interval of a single instance pair holds: the requests alone
 * (BAND: then it decides nothing), or the requests and the cell's stored A/A
 * floor in quadrature (NOISE), or, without a floor, the metric's conservative
 * default scatter where facts and history show it holds (DEFAULT: only a large
 * difference decides; estimate.h). Pooled rounds are always BAND; the spread
 * method is NOISE where the floor is the larger scatter, else BAND. */
enum verdict_bound {
	VERDICT_BOUND_BAND,
	VERDICT_BOUND_NOISE,
	VERDICT_BOUND_DEFAULT,
};

/* Whether earlier batches' round scatter joined the interval's. */
enum verdict_history {
	VERDICT_HIST_NONE,     /* no earlier batch of the cell on this host */
	VERDICT_HIST_POOLED,   /* pooled with this batch's rounds */
	VERDICT_HIST_REJECTED, /* the F test told the two scatters apart: this
				  batch alone */
};

/* "none", "pooled", "rejected"; static strings. */
const char *verdict_history_name(enum verdict_history h);

/* What set the scatter of one round's log ratio that a rounds interval used
 * (estimate.c, scatter_floor()): never less than the machine has shown. */
enum verdict_scatter {
	VERDICT_SCATTER_NONE,      /* not a rounds interval */
	VERDICT_SCATTER_ROUNDS,    /* the rounds' own scatter (with history's when
				      pooled) was the largest evidence */
	VERDICT_SCATTER_INSTANCES, /* raised to the labels' instance spread: the
				      variance of each side's instances about its
				      mean, summed over the two sides */
	VERDICT_SCATTER_FLOOR,     /* raised to the cell's stored A/A floor, less
				      the request scatter the rounds average away */
	VERDICT_SCATTER_DRIFT,     /* the rounds' own: the round sums scatter far
				      more than the ratios (drift common to both
				      sides, which pairing cancels), so the
				      between-instance evidence stood aside */
};

/* "rounds", "instances", "floor", "drift"; NULL for none (JSON null). */
const char *verdict_scatter_name(enum verdict_scatter s);

/* The answer to the user's question, "is ours slower than vs by more than the
 * band?": the one-sided non-inferiority test at the interval's level. */
enum verdict_regression {
	VERDICT_REG_UNKNOWN,   /* no estimate */
	VERDICT_REG_NO,        /* the whole interval lies above -band */
	VERDICT_REG_YES,       /* the whole interval lies below -band */
	VERDICT_REG_UNDECIDED, /* the interval holds -band */
	VERDICT_REG_SPOILED,   /* not asked: an instance the interval used was
				  measured on a busy, throttled or misplaced
				  machine (struct verdict.spoiled) */
	VERDICT_REG_INTERMITTENT, /* ours is slow on some starts: slow_ours of its
				  instances ran far slower than its others and
				  none of vs's did (estimate.h, "Intermittent");
				  the gate fails it as a regression */
};

/* "no", "yes", "undecided", "spoiled", "intermittent"; NULL for unknown (JSON
 * null). */
const char *verdict_regression_name(enum verdict_regression r);

/* "unknown", "parity", "faster", "slower", "undecided", "spoiled", "intermittent";
 * static strings. */
const char *verdict_kind_name(enum verdict_kind kind);
/* "requests", "rounds", "welch" or "spread"; static strings. */
const char *verdict_method_name(enum verdict_method method);
/* "band", "noise" or "default"; static strings. */
const char *verdict_bound_name(enum verdict_bound bound);

struct verdict {
	enum verdict_kind kind;   /* the two-sided description, decided or undecided */
	enum verdict_bound bound; /* see enum verdict_bound */
	double band_pct;          /* the band the answers hold the interval against */
	double delta_pct;         /* (exp(m) - 1) * 100: the point estimate */
	double ci_lo_pct;         /* the interval at ci_level, on the log ratio, mapped */
	double ci_hi_pct;         /* back to percent; NaN when there is none */
	size_t n_pairs;           /* rounds used (1 for one instance pair) */
	int significant;          /* == decided */
	enum verdict_method method;
	size_t rounds;            /* paired rounds the interval used; 1 for one pair */
	size_t instances_ours, instances_vs; /* runs of each side given */
	double mde_pct;           /* half-width of the interval, percent: the smallest
				     difference this data could call */
	int decided;              /* kind is faster, slower or parity by the interval */
	enum verdict_kind lean;   /* the point estimate's side under the band rule */
	enum verdict_regression regression; /* the one-sided answer, same interval */
	double ci_level;          /* the interval's two-sided level: 1 - 2 alpha, alpha
				     0.05 or a sequential design's per-look level */
	size_t outliers_ours, outliers_vs; /* instances left out (estimate.h) */
	double log_m, log_se, df; /* the interval's log ratio, standard error and
				     degrees of freedom (NaN when unknown) */
	double scatter_pct;       /* bound NOISE or DEFAULT: the instance scatter the
				     one pair was judged against; NaN otherwise */
	enum verdict_history history; /* earlier batches' scatter, rounds only */
	size_t hist_batches;      /* the earlier batches it came from */
	double hist_df;           /* and its degrees of freedom (0 none) */
	enum verdict_scatter scatter_source; /* rounds only: what set round_scatter_pct */
	double round_scatter_pct; /* rounds only: the sd of one round's log ratio the
				     interval used, percent (NaN otherwise) */
	double drift_p;           /* rounds only: estimate_round_drift_p() of the
				     rounds used (NaN when not tested) */
	unsigned spoiled;         /* the RUN_ENV_* findings of the instances the
				     interval used; non-zero: kind VERDICT_SPOILED,
				     regression VERDICT_REG_SPOILED, nothing decided */
	size_t slow_ours;         /* of ours' outliers, those far slower than its
				     median; with none of vs's: kind and regression
				     intermittent from two (one holds a "no" open) */
};

/* Decides the interval of a log ratio with mean m, standard error se and df
 * degrees of freedom, at one-sided level alpha, against band_pct: the interval
 * is m -/+ t(1 - alpha, df) se, two-sided at 1 - 2 alpha. regression: yes when
 * its upper end lies below -band_pct, no when its lower end lies above -band_pct
 * (a one-sided test at alpha each way), else undecided; kind: faster (slower)
 * when the whole interval lies above +band (below -band), parity when it lies
 * inside [-band, +band] (two one-sided tests, TOST), else undecided, with lean
 * the point estimate's side. A NaN se or df leaves the interval NaN and nothing
 * decided; a NaN m is unknown. Fills those fields of *out and leaves the rest. */
void verdict_decide_interval(double m, double se, double df, double alpha, double band_pct,
			     struct verdict *out);

enum verdict_gate_outcome {
	VERDICT_GATE_NODATA, /* a side has no value */
	VERDICT_GATE_PASS,   /* regression "no" at the threshold: decided */
	VERDICT_GATE_FAIL,   /* regression "yes" at the threshold */
	VERDICT_GATE_INCONCLUSIVE, /* regression undecided */
	VERDICT_GATE_SPOILED,      /* regression spoiled: an environment finding */
	VERDICT_GATE_INTERMITTENT, /* regression intermittent: fails as a regression */
};

/* "no-data", "pass", "fail", "inconclusive", "spoiled", "intermittent"; static
 * strings. */
const char *verdict_gate_outcome_name(enum verdict_gate_outcome outcome);

/* The gate's outcome for a verdict decided against the threshold: fail iff the
 * regression answer is yes, pass iff it is no, spoiled iff spoiled,
 * intermittent iff intermittent, else
 * inconclusive (no-data when unknown). No outcome contradicts its own interval. */
enum verdict_gate_outcome verdict_gate_outcome_of(const struct verdict *v);

/* The level the intervals of v[0..n) share (0.9 when n is 0), or NAN when they
 * differ: what an interval column's or a figure's title may claim. */
double verdict_common_level(const struct verdict *const *v, size_t n);

#endif
