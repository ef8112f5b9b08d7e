/* sweep.h: a speculative-decoding sweep, one rung per draft depth (the base without
 * drafting, then n_max = 1, 2, 3 ...). Checks that decode speed does not fall as
 * the depth grows, splits each rung's speed into tokens per verify cycle and time
 * per cycle, uses that split to say why two engines differ at one rung, and finds
 * the rungs where ours falls while the reference holds. */
#ifndef ANALYZE_SWEEP_H
#define ANALYZE_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/cellset.h"
#include "analyze/estimate.h"
#include "analyze/verdict.h"

#define SWEEP_TOLERANCE_PCT 5.0 /* default: a fall of more than this is a violation */
/* Within this many percent a part of a gap (tokens per cycle, cost per cycle, or
 * the gap itself) is called equal in the explanation. */
#define SWEEP_EQUAL_PCT 1.0

/* One rung as the store sums it over the rung's samples. Integer counts < 0
 * (TPS_NULL included) are absent; the base rung may leave its draft counts absent. */
struct sweep_rung {
	int64_t n_max;            /* draft depth; <= 0 (-1, TPS_NULL) marks the base */
	double tg;                /* decode tok/s (NaN when unknown) */
	int64_t predicted_n;      /* tokens generated */
	int64_t draft_n;          /* tokens drafted */
	int64_t draft_n_accepted; /* drafted tokens the target accepted */
	double predicted_ms;      /* decode time */
	/* The instances (runs, server instances) pooled into the rung, oldest first;
	 * all borrowed, n_runs 0 (NULL arrays): one run whose values are the above.
	 * Each run is reduced to its instance value: */
	size_t n_runs;
	const double *tg_runs;     /* the run's median decode tok/s */
	const double *rate_runs;   /* the run's summed predicted_n / predicted_ms, tok/s
				      (NULL: the cross-engine gap takes tg_runs) */
	const double *accept_runs; /* the run's accepted / drafted sums (NULL or NaN: none) */
	const int64_t *round_runs; /* the collector's round (INT64_MIN unknown); NULL: none */
	const char *const *batch_runs; /* the collector's batch id (NULL unknown); NULL:
					  none. Rounds pair within one batch. */
	/* Screening: series_assemble() leaves a rung's outlier instances out (the
	 * estimate's rule, estimate_outliers() on the log run tg) before it sums
	 * the rest, so the figures above and every part of them cover one set of
	 * instances. A rung built by hand is unscreened (0), and the estimate then
	 * leaves outliers out of its figure alone. */
	int screened;              /* 1: screened; the estimate leaves no more out */
	size_t n_screened;         /* instances screened out (not in n_runs) */
	/* The cell's instances as compare's estimate takes them (series_assemble()):
	 * every run, screened ones included, with their keyed values, rounds,
	 * batches and start times; unit_kept[i] 0 for a screened one. NULL (0): a
	 * gap is estimated on tg_runs alone. */
	const struct estimate_unit *units;
	const unsigned char *unit_kept;
	size_t n_units;
	int64_t looks_to;          /* a hand-built rung's sequential design (the
				      largest --max-rounds); 0: fixed */
	const struct pool *pool;   /* the rung's pool (series_assemble()): a gap of
				      two pooled rungs is pool_estimate() of the
				      two, compare's estimate of the cell; NULL: the
				      units and looks_to above */
};

/* What one rung decomposes into. A field that cannot be computed is NaN. */
struct sweep_point {
	double speedup;          /* tg / tg of the base rung */
	double acceptance;       /* draft_n_accepted / draft_n; NaN for the base */
	double cycles;           /* verify cycles: predicted_n - draft_n_accepted */
	double tokens_per_cycle; /* predicted_n / cycles, >= 1 (1 for the base) */
	double ms_per_cycle;     /* predicted_ms / cycles */
	/* Across instances (sweep_point_compute() with n_runs >= 2; else NaN): */
	size_t instances;        /* runs pooled (1 without n_runs) */
	double tg_ci_lo, tg_ci_hi; /* 95% t interval on the log run tg, mapped back */
	double accept_ci_lo, accept_ci_hi; /* 95% t interval of acceptance, on the
					      values, centred on acceptance and clipped
					      to [0, 1] */
	double mde_pct;          /* the tg interval's half-width in percent of tg: the
				    smallest difference from a neighbour this rung
				    alone could show */
};

/* A step between two neighbouring rungs, from and to (indexes into the rungs). */
struct sweep_step {
	size_t from, to;
	int64_t from_n_max, to_n_max;
	double change_pct;     /* tg change from -> to (acceptance change for anomalies) */
	double ref_change_pct; /* the reference's tg change (sweep_shape), else NaN */
	/* Violations only: the interval of the change (NaN without one), decided 1
	 * when the step's estimate decides it slower than -tolerance (with one run
	 * a side, against the default decode scatter ESTIMATE_SCATTER_TG_PCT: only
	 * a large fall), 0 for an undecided dip. */
	int decided;
	double ci_lo_pct, ci_hi_pct, mde_pct;
	size_t rounds;         /* rounds paired; 0: Welch on the run means, or none */
	/* A step whose rungs were not measured on one machine
	 * (sweep_rungs_same_machine()): two runs found on different machines,
	 * else NULL. Such a step is neither decided nor explained (change_pct
	 * and ref_change_pct NaN, decided 0): one comparison is on one machine. */
	const struct run *machine_a, *machine_b;
};

/* What a sweep's steps say of its shape: no fall past the tolerance at all, a
 * decided violation, or only dips no interval settles or steps measured across
 * machines (an undecided shape, never called monotone). */
enum sweep_shape {
	SWEEP_MONOTONE,
	SWEEP_NOT_MONOTONE,
	SWEEP_SHAPE_UNDECIDED,
};

/* "monotone", "not-monotone", "undecided"; static strings. */
const char *sweep_shape_name(enum sweep_shape s);

struct sweep_report {
	size_t base;                   /* index of the base rung; SIZE_MAX without one */
	size_t n_points;
	struct sweep_point *points;    /* one per rung, in rung order */
	size_t n_violations;
	struct sweep_step *violations; /* tg fell by more than the tolerance (decided),
					  or may have (undecided: decided 0) */
	size_t n_decided;              /* violations with decided 1: the failed check */
	enum sweep_shape shape;        /* from n_decided and the undecided dips */
	size_t n_anomalies;
	struct sweep_step *anomalies;  /* acceptance rose by more than the tolerance */
	size_t n_across;
	struct sweep_step *across;     /* steps whose two rungs were measured on
					  different machines (machine_a, machine_b):
					  checked for neither a fall nor a rise */
};

/* Analyses rungs[0..n) in order. The base is the first rung with n_max <= 0;
 * speedups are NaN without one. A violation is a step between neighbours where tg
 * falls by more than tolerance_pct percent. With two runs or more in both rungs
 * the step is decided as a compare row is (sweep_step_interval()): a violation
 * when the whole 95% interval of the change lies below -tolerance_pct, an
 * undecided dip (listed, decided 0) when the point estimate or the interval's
 * lower end lies below it but the upper end does not; with one run on a side the
 * default decode scatter stands for the instances' (only a large fall decides).
 * The shape is monotone without any such step, not monotone with a decided
 * violation, else undecided. An anomaly is a step between two
 * drafting rungs where acceptance rises by more than tolerance_pct percent
 * (relative), since a deeper draft should be accepted less often. Steps with a
 * NaN or non-positive value are skipped. A step whose two rungs were not measured
 * on one machine (sweep_rungs_same_machine()) is neither: it goes to across, and
 * the shape is at best undecided; a rung's speedup against a base measured on
 * another machine is NaN. Fills *out, whose arrays the caller frees
 * with sweep_report_release(). Returns 0, or -1 (out zeroed, nothing printed) when
 * tolerance_pct is NaN or negative. */
int sweep_analyze(const struct sweep_rung *rungs, size_t n, double tolerance_pct,
		struct sweep_report *out);

/* Whether rungs a and b were measured on one machine: 1 when either has no pool
 * (a rung built by hand) or pools_same_machine() of their pools says so, else 0
 * with the two runs it found on different machines in *x and *y (when not NULL).
 * The one machine test of the sweep: steps, speedups, shape steps and gaps. Pure. */
int sweep_rungs_same_machine(const struct sweep_rung *a, const struct sweep_rung *b,
			     const struct run **x, const struct run **y);

/* The 95% interval of the change from rung a to rung b in percent, with the run
 * (instance) as the unit: when every run of both carries a round number and two
 * rounds or more are shared, a t interval on the per-round log ratios; else,
 * with two runs or more on each side, Welch's t on the log run values (vals:
 * tg_runs, or rate_runs when use_rate and both have them). Fills *out (a
 * struct verdict against band_pct, verdict_decide_interval()) and returns 0, or
 * 1 (out untouched) when neither applies. */
struct verdict;
int sweep_step_interval(const struct sweep_rung *a, const struct sweep_rung *b, int use_rate,
			double band_pct, struct verdict *out);

/* Frees the arrays of a report filled by sweep_analyze() and zeroes it. Accepts
 * NULL and a zeroed report. */
void sweep_report_release(struct sweep_report *r);

/* Decomposes one rung (NaN fields where a count is absent or not positive). */
void sweep_point_compute(const struct sweep_rung *rung, struct sweep_point *out);

/* Why two engines decode at different speeds at the same rung. Since
 * tg = tokens_per_cycle / time_per_cycle, log(tg_o / tg_r) = log_tpc - log_cost
 * exactly, and each part's share of the gap is its term over log_gap. */
struct sweep_gap {
	int64_t n_max;
	double tg_pct;           /* (tg_o / tg_r - 1) * 100 from the sums, not the tg
				    fields; sweep_gap_decide() replaces it with the
				    estimate's point when it has an interval */
	double tpc_pct;          /* tokens per cycle, ours over ref, as percent change */
	double cost_pct;         /* ms per cycle, ours over ref; > 0: ours costs more */
	double log_gap, log_tpc, log_cost; /* natural logs of the three ratios */
	double share_acceptance; /* log_tpc / log_gap; NaN when |log_gap| <= 1e-12 */
	double share_cost;       /* -log_cost / log_gap; the shares add up to 1 */
	/* Across instances (sweep_gap_decide(), the one estimate of the gap; without
	 * an interval, one run a side, nothing is decided and the rest is NaN): */
	int decided;             /* 0: the interval settles neither a gap beyond
				    SWEEP_EQUAL_PCT nor parity within it */
	double ci_lo_pct, ci_hi_pct, mde_pct;
	enum verdict_regression regression; /* the same interval against
					       VERDICT_BAND_PCT: ours slower by more? */
	size_t instances_ours, instances_ref; /* instances of each side, outliers included
						(as compare counts them) */
	double sums_pct;         /* the sums' gap, the one the parts split (tg_pct
				    before sweep_gap_decide() replaced it) */
	size_t outliers;         /* instances left out of the figure (both sides):
				    screened out of the rungs, or by the estimate */
	int sums_wider;          /* the sums hold instances the figure left out, or
				    leave out one it holds */
	enum estimate_reason reason; /* why the estimate decides nothing although it
					has an interval (unbalanced order), or
					has none (one instance a side) */
	int undrafted;           /* at a drafting rung, the sides whose rung drafted no
				    token (draft_n <= 0: no request reported one): 1
				    ours, 2 ref, 3 both; 0 none. Speculation did not
				    run there, so acceptance and cycle cost do not
				    explain the gap (sweep_gap_why()) */
	const struct run *machine_a, *machine_b; /* the rungs were measured on
						    different machines: these two
						    runs (sweep_rungs_same_machine()),
						    and the gap is neither computed
						    nor decided; NULL otherwise */
};

/* Fills *out for ours and ref at the same rung. Returns 0, or -1 (out holds NaN,
 * nothing printed) when the n_max differ or a count needed is absent or not
 * positive. Rungs measured on different machines (sweep_rungs_same_machine())
 * return 0 with only n_max, the instance counts and machine_a/machine_b filled:
 * the figures stay NaN, and neither sweep_gap_decide() nor sweep_gap_why()
 * explains it. */
int sweep_gap(const struct sweep_rung *ours, const struct sweep_rung *ref, struct sweep_gap *out);

/* Decides gap (filled by sweep_gap() from the same rungs) across instances: the
 * cell's one estimate of ours against ref. With units on both rungs it is
 * compare's, exactly: estimate_cell() over every unit (keyed values, rounds,
 * batches, start times, the outlier rule) with the rungs' sequential design; the
 * sums cover its instances when its outliers are the rungs' screened ones.
 * Without, sweep_step_interval() from ref to ours on the runs' decode speeds.
 * Against the band SWEEP_EQUAL_PCT: decided 1 when the interval lies wholly
 * beyond the band (a gap) or wholly inside (on par, TOST); 0 otherwise, and
 * when the rounds all started with the same side (reason). With one run on a
 * side the figure is the estimate's point, with no interval (ci NaN). A gap
 * across machines (machine_a set) is left as it is. */
void sweep_gap_decide(const struct sweep_rung *ours, const struct sweep_rung *ref,
		      struct sweep_gap *gap);

/* The closing clause of a gap's explanation: which part the gap comes from. */
enum sweep_cause {
	SWEEP_CAUSE_NONE,        /* nothing to add (the base, or parts that do not explain it) */
	SWEEP_CAUSE_CANCEL,      /* on par, the two parts move against each other and cancel */
	SWEEP_CAUSE_HOST,        /* only the per-cycle cost moves, the way the gap goes */
	SWEEP_CAUSE_DRAFTER,     /* only acceptance moves, the way the gap goes */
	SWEEP_CAUSE_BOTH,        /* both move the way the gap goes: give the shares */
	SWEEP_CAUSE_COST_WINS,   /* the parts oppose and the cost outweighs the acceptance */
	SWEEP_CAUSE_ACCEPT_WINS, /* the parts oppose and the acceptance outweighs the cost */
};

/* What a gap's explanation says, decided from the numbers; reports/sweep_text.c
 * words it. Signs are -1, 0 or 1, where within SWEEP_EQUAL_PCT counts as 0. */
struct sweep_why {
	int base;       /* the rung drafts nothing: only the per-token cost is named */
	int gap;        /* sweep_sign(tg_pct): ours faster (1) or slower (-1) */
	int accept;     /* sweep_sign(tpc_pct): ours accepts more (1) or less (-1) */
	int cost;       /* sweep_sign(cost_pct): ours' cycle costs more (1) or less (-1) */
	int against;    /* the cost clause goes against the acceptance clause, or is the
			 * only one that moves ("but" rather than "and") */
	int split;      /* the parts explain the figure: the sums cover the figure's
			 * instances (not sums_wider) and their gap lies on its side;
			 * else they are not named as its cause (cause NONE) */
	int undrafted;  /* gap->undrafted at a drafting rung: a side drafted nothing,
			 * so the parts are not named (cause NONE) */
	enum sweep_cause cause;
};

/* -1, 0 or 1: the sign of a percentage once values within SWEEP_EQUAL_PCT count as
 * 0 (NaN is 0). */
int sweep_sign(double pct);

/* 1 when n_max marks the base rung of a series (no drafting): TPS_NULL, -1 or any
 * value <= 0; 0 for a drafting depth. The one test for "is this the base". */
int sweep_rung_is_base(int64_t n_max);

/* Decides how gap is explained (see enum sweep_cause). Returns 0, or -1 (out
 * zeroed) when the gap holds NaN and has no explanation. */
int sweep_gap_why(const struct sweep_gap *gap, struct sweep_why *out);

/* The cross-engine shape check over two series on the same rungs (ours[i] and
 * ref[i] must have equal n_max): the steps where ours' tg falls by more than
 * tolerance_pct while the reference's falls by no more than that (holds or rises),
 * the signature of a regression on our side. A step is decided (and names that
 * cause) only when ours' step interval lies wholly below -tolerance_pct and the
 * reference's wholly above it; its interval fields are ours'. A step whose four
 * rungs were not all measured on one machine (sweep_rungs_same_machine() of
 * ours[i] with each other) is listed undecided with machine_a and machine_b
 * set and its changes NaN, whatever they were. out must hold n entries; the count
 * goes to *count. Returns 0, or -1 (*count 0, nothing printed) when the rungs do
 * not match or tolerance_pct is NaN or negative. */
int sweep_shape(const struct sweep_rung *ours, const struct sweep_rung *ref, size_t n,
		double tolerance_pct, struct sweep_step *out, size_t *count);

#endif
