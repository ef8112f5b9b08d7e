/* estimate.h: the one estimate of a cell. Every command that shows a cell (compare,
 * gate, sweep, report, plot, collect --until-decided) turns the cell's server
 * instances, both sides, into this one struct and prints its numbers: the rounds
 * paired, the point estimate and its interval, the centre of each side that goes
 * with them, the instances used and the ones left out, the answer to the
 * regression question and the two-sided description. Pure: no stdio, no store. */
#ifndef ANALYZE_ESTIMATE_H
#define ANALYZE_ESTIMATE_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/verdict.h"

/* The first round an --until-decided batch looks at: with two rounds the t
 * interval has one degree of freedom and decides nothing. */
#define ESTIMATE_FIRST_LOOK 3
/* The most rounds a sequential design may plan (collect --max-rounds). */
#define ESTIMATE_MAX_LOOK 100
/* An instance further than this from its side's median instance (and than five
 * robust standard deviations of its siblings) is left out: log(1.25). */
#define ESTIMATE_OUTLIER_MIN_LOG 0.22314355131420976
#define ESTIMATE_OUTLIER_Z 5.0
/* The share of alpha a sequential design's boundary is computed for on the
 * normal scale: turning its per-look level into t quantiles at the few degrees
 * of freedom of early looks adds about 0.7 points of error (bench_sim_seq), so
 * the boundary is Pocock's for 4% and the batch's error stays within 5%. */
#define ESTIMATE_SEQ_ALPHA_SHARE 0.8
/* The scatter one instance a side is judged against when the host has no
 * calibrated A/A floor: the sd of an instance pair's log difference, percent,
 * per metric. Larger than any measured: prefill's worst A/A floor was 9.4% (an
 * H200 pair with a cold request), decode's 2.9%, a loaded two-core CPU host's
 * pairs parted by at most 10% (docs/PERFORMANCE.md, "One instance a side").
 * Only a large difference (about 25% prefill, 15% decode) decides against it,
 * and only with evidence that the machine is within it (ESTIMATE_EVIDENCE_DF). */
#define ESTIMATE_SCATTER_PP_PCT 15.0
#define ESTIMATE_SCATTER_TG_PCT 8.0
/* History: the round scatter of at most this many earlier batches of the cell
 * joins a batch's own (weighing at most what the batch's rounds do), unless the
 * one-sided F test finds the batch's scatter larger than the history's at this
 * level: at 0.5, whenever the batch scatters more than a typical draw of the
 * history would (docs/PERFORMANCE.md, "History as evidence"). */
#define ESTIMATE_HIST_BATCHES 4
/* The degrees of freedom of a scatter taken as known (the default one): the t
 * quantile is the normal one there. */
#define ESTIMATE_KNOWN_DF 1e7
#define ESTIMATE_HIST_ALPHA 0.5
/* The scatter floors of a rounds interval (the labels' instance spread, the
 * stored A/A floor) stand aside when the round sums scatter more than the
 * round ratios at this level (estimate_round_drift_p()): the instances of a
 * round moved together, drift the pairing cancels, not scatter of a ratio.
 * Under independent instances they stand aside in 0.1% of batches. */
#define ESTIMATE_DRIFT_ALPHA 0.001

/* One request's value of a metric, keyed for pairing by prompt and repetition. */
struct run_value {
	int64_t prompt_id, rep;
	double value;
};

/* One server instance (a run) of one side: its usable values of the metric,
 * and who it is. */
struct estimate_unit {
	const double *v;         /* the values without keys; or NULL: */
	const struct run_value *vals; /* the values with their keys, in ascending
				    (prompt, rep) order: a round's two instances
				    are then reduced over the keys both hold, so
				    both sides cover the same prompts; NULL with v */
	size_t n;
	double value;            /* the instance value; NaN: the geometric mean of
				    its values */
	int64_t round;           /* the collector's round; INT64_MIN unknown */
	const char *batch;       /* NULL unknown: may pair with any batch */
	const char *started_at;  /* ISO 8601; NULL unknown: the order is unknown (it
				    counts only between two runs of one batch) */
	const char *uuid;        /* borrowed, for naming left-out instances */
	unsigned env;            /* the collector's environment findings while it
				    measured (RUN_ENV_* bits); any on an instance
				    the estimate uses spoils the answer */
	int facts;               /* 1: the collector kept environment facts while
				    it measured (struct env_facts.known); with env
				    0 they show a quiet machine. 0: unknown (an
				    import, a hand-made table): one instance a side
				    then decides nothing (estimate_cell()) */
};

/* The round scatter earlier batches of the cell showed: the sum of squares of
 * their round log ratios about each batch's mean, with its degrees of freedom
 * (rounds less one per batch), over batches batches. */
struct estimate_history {
	double ss, df;
	size_t batches;
	size_t out_vs;  /* instances of vs the outlier screen left out in those
			   batches: a host that glitched lately (no intermittent) */
	size_t slow_ours; /* instances of ours it left out far slower than ours'
			     median in those batches: a "no" stays open */
};

struct estimate_params {
	double band_pct;   /* the margin: "ours slower by more than band_pct?" and the
			      parity band; >= 0 */
	double noise_pct;  /* the cell's stored A/A floor (sd of an instance pair's
			      difference, percent); 0 or NaN: none. One
			      instance a side is judged against it; a rounds
			      interval's scatter never falls below it (less
			      the request scatter a round averages away) */
	double scatter_pct; /* the metric's default instance scatter for one instance
			      a side without a floor (ESTIMATE_SCATTER_*); 0 none:
			      one instance a side decides nothing */
	int64_t looks_to;  /* 0: a fixed design; else the batch looked after every
			      round from ESTIMATE_FIRST_LOOK to looks_to (its
			      --max-rounds), and the interval pays for those looks */
	int robust;        /* leave outlier instances out (the default: 1) */
	int unpaired;      /* pair no rounds: the two sides were measured on
			      different machines (--across-machines), so a round
			      shares nothing; Welch's t on the instances */
	int default_known; /* 1: one instance a side takes scatter_pct as known
			      without the evidence estimate_cell() asks for (a
			      sweep's steps between the rungs of one engine, one
			      session on one machine); 0, the default: only with
			      it */
	int floors;        /* raise a rounds interval's scatter to the instance
			      spread and the stored floor (the default: 1);
			      0: the rounds' own scatter alone, the rule before
			      issue 41, kept for bench_sim_floor's side by side */
	const struct estimate_history *hist; /* NULL or df 0: none */
};

/* Sets the defaults: band 2%, no floor, no default scatter, no history, a fixed
 * design, robust, scatter floors on. */
void estimate_params_init(struct estimate_params *p);

/* Why an estimate decides nothing although it has numbers. */
enum estimate_reason {
	ESTIMATE_REASON_NONE,
	ESTIMATE_REASON_ONE_INSTANCE, /* one instance a side and no evidence of the
					 scatter between instances (a floor, or
					 facts and history for the default) */
	ESTIMATE_REASON_ORDER,        /* every round started with the same side */
	ESTIMATE_REASON_NO_DATA,      /* no usable instance on a side */
	ESTIMATE_REASON_DISAGREE,     /* a side's instances disagree and no clear
					 majority says which are the outliers */
	ESTIMATE_REASON_SLOW_ONCE,    /* one instance of ours ran far slower and
					 none of vs's did: a host glitch or an
					 engine slow on some starts, not yet told
					 apart; a "no" is held open */
	ESTIMATE_REASON_SLOW_EARLIER, /* none of this batch, but an earlier batch
					 of the cell had instances of ours far
					 slower and none of vs's: a "no" is held
					 open */
};

/* "", "one-instance", "unbalanced-order", "no-data", "instances-disagree",
 * "one-slow-instance", "slow-instance-earlier"; static strings. */
const char *estimate_reason_name(enum estimate_reason r);

struct estimate {
	struct verdict v;        /* interval, point, both answers, method, counts */
	double ours_center;      /* exp of the mean log instance value of the
				    instances behind the estimate: delta_pct is */
	double vs_center;        /* (ours_center / vs_center - 1) * 100 exactly */
	size_t n_rounds;         /* rounds paired and used */
	size_t n_ours_first, n_vs_first; /* rounds by who started first (known order) */
	double *round_pct;       /* per round used: (ours / vs - 1) * 100; owned */
	size_t *round_ours, *round_vs; /* per round used: indexes into the units; owned */
	size_t *out_ours, *out_vs; /* indexes of the instances left out as outliers */
	size_t n_out_ours, n_out_vs;
	size_t n_unpaired;       /* values that took no part: of instances in no
				    round, and keys the round's partner lacks */
	enum estimate_reason reason;
};

/* Intermittent slowness. The outlier screen (estimate_outliers()) leaves out a
 * side's far-off instances, which is right for a host glitch and wrong for an
 * engine that is slow on some of its starts (CUDA graphs rebuilt on some starts):
 * leaving those out answers "no regression" for an engine that is 3x slower one
 * start in ten. A glitch of the host is as likely to hit vs as ours; an engine's
 * slow starts hit ours alone. So, after the screen, with S the instances of ours
 * left out below ours' median (far slower) and V those of vs left out (either
 * way), when vs had at least ESTIMATE_OUTLIER_MIN_N usable instances (the screen
 * could have seen a glitch of it):
 *   - V > 0, or vs had outliers in the earlier batches of p->hist (the same
 *     machine: estimate_history.out_vs): a host that glitches, left out on both
 *     sides as before, answered as before;
 *   - V = 0, S >= ESTIMATE_INTERMITTENT_MIN: kind and regression "intermittent"
 *     (S of ours' instances far slower), whatever the kept rounds say: collect
 *     --until-decided stops there, the gate fails it under --fail-on regression;
 *   - V = 0, S = 1: one slow start could be either (a glitch lands on ours half
 *     the time), so it is not named intermittent, but it holds a "no" (and a
 *     decided parity or "faster") open: regression undecided, reason
 *     ESTIMATE_REASON_SLOW_ONCE; more rounds tell it (a second slow start of
 *     ours, or a glitch of vs). A "yes" stands.
 *   - V = 0, S = 0, but the earlier batches of p->hist left out slow instances
 *     of ours and none of vs (estimate_history.slow_ours): an engine's slow
 *     starts need not fall in every batch (one start in ten misses a batch of
 *     eight rounds 43% of the time), so a "no" is held open as at S = 1,
 *     reason ESTIMATE_REASON_SLOW_EARLIER; that alone never names it
 *     intermittent (a glitch of an earlier batch hits ours half the time).
 * Instances of ours left out above its median (far faster) are no regression
 * and stay left out; a side whose instances disagree with no clear majority
 * (ESTIMATE_REASON_DISAGREE) marks none, so none count. Spoiled (an environment
 * finding) takes precedence. Why two: a batch that holds one glitch on a random
 * side would be called intermittent half the time at one; at two, an A/A batch
 * is called so only when two glitches of the batch both fall on ours and vs drew
 * none in the batch or its history (docs/PERFORMANCE.md, "Intermittent slowness,
 * one instance a side": 3.7% of A/A batches whose instances glitch 1 in 10, 0%
 * with one glitch a batch). */
#define ESTIMATE_INTERMITTENT_MIN 2
#define ESTIMATE_OUTLIER_MIN_N 3

/* One instance a side has no instance scatter of its own. It is judged against
 * the cell's stored A/A floor (bound NOISE: calibrated on this machine, evidence
 * of its own) or else the metric's default scatter (bound DEFAULT) only with
 * evidence that the default holds: both instances kept environment facts showing
 * a quiet machine (struct estimate_unit.facts, env 0), and this machine's
 * earlier clean batches of the cell (p->hist, at least ESTIMATE_EVIDENCE_DF
 * degrees of freedom) scattered within it. Otherwise it decides nothing
 * (ESTIMATE_REASON_ONE_INSTANCE), its delta shown: an import without facts (one
 * llama-bench file, a hand-made table) is shown, not decided.
 *
 * When one side has one instance and the other several (fewer than two rounds
 * pair), the several side's own instance spread s (n instances, n - 1 df) is
 * the scatter the data show (VERDICT_METHOD_SPREAD): with round numbers the one
 * instance pairs with its round partner (estimate_rounds()), the round's log
 * ratio with error s * sqrt(2) (two instances' difference) and the requests'
 * error in quadrature; without a partner by number, the one against the several
 * side's mean log, error s * sqrt(1 + 1/n) (Welch's form, the one side taken to
 * scatter as the other). The floor is the least scatter either may claim; t at
 * n - 1 df. No facts are asked for: the scatter is measured, and a finding on
 * any instance spoils. */
#define ESTIMATE_EVIDENCE_DF 2

/* The estimate of one metric of one cell from the instances a[0..na) of ours and
 * b[0..nb) of vs (oldest first). Each instance is reduced to its value (the
 * geometric mean of its values, over the keys its round's partner holds too);
 * with p->robust, the outliers of a side (estimate_outliers(): a clear majority
 * only) are left out, and a side whose instances disagree with no clear majority
 * leaves none out and decides nothing (ESTIMATE_REASON_DISAGREE). The rest pair
 * into rounds (estimate_rounds()). With two rounds or more, the round log ratios
 * give the point (stratified by which side started the round when every start
 * time is known: the mean of the two order groups' means, so a position effect
 * cancels) and a t interval, whose scatter joins p->hist's when the F test does
 * not tell them apart (with_history() in estimate.c) and is then raised, as a
 * hard lower bound at the same degrees of freedom, to the largest scatter the
 * machine has shown for the cell: the labels' instance spread over the rounds
 * used (estimate_instance_round_sd()) and the stored A/A floor
 * (estimate_floor_round_sd()); v.scatter_source and v.round_scatter_pct say
 * which and how much (scatter_floor() in estimate.c). When all rounds started
 * with the same side the estimate is reported but decides nothing. With fewer
 * rounds and two instances a side, Welch's t on the log values. With one
 * instance on one side and several on the other, the spread method above. With
 * one instance a side, the ratio of their geometric means with the requests'
 * standard error (paired by key when the values have keys, else unpaired),
 * widened in quadrature by the stored floor, else by p->scatter_pct (bound
 * DEFAULT), each only with the evidence above; without it it decides nothing.
 * Ours' slow instances then answer "intermittent" (above). The
 * interval is two-sided at 1 - 2 alpha, alpha 5% one-sided, or the per-look
 * level of a sequential design (estimate_look_alpha()). Fills *out (release with
 * estimate_release()). Returns 0, or -1 for bad parameters (out zeroed). */
int estimate_cell(const struct estimate_unit *a, size_t na, const struct estimate_unit *b,
		  size_t nb, const struct estimate_params *p, struct estimate *out);

/* Pairs the instances a[ia[0..na)] and b[ib[0..nb)] into rounds: when every one
 * carries a round number, first those of one round of a batch both sides hold
 * (rounds restart at 1 in every collect batch), then, by number alone, those
 * whose batch the other side does not hold (a baseline frozen from an earlier
 * batch) or that have none; else by start order, the k-th of each side (oldest
 * first) forming round k. No instance pairs twice. pairs[2r] and pairs[2r+1]
 * receive the positions in ia and ib of round r; returns the rounds (at most
 * min(na, nb); pairs holds 2 of them). */
size_t estimate_rounds(const struct estimate_unit *a, const size_t *ia, size_t na,
		       const struct estimate_unit *b, const size_t *ib, size_t nb, size_t *pairs);

/* The robust rule on its own: marks bad[i] = 1 for each of lg[0..n) (log instance
 * values of one side of one cell; NaN skipped) that lies further from their
 * median than both ESTIMATE_OUTLIER_MIN_LOG and ESTIMATE_OUTLIER_Z robust sd;
 * needs three finite values, else marks none. Only a clear majority may leave
 * instances out: at least twice as many kept as marked, plus one (one of four,
 * two of seven). Short of that nothing is marked and *disagree (when not NULL)
 * is set to 1: which group is the outlier is not known, and the estimate decides
 * nothing (ESTIMATE_REASON_DISAGREE); it is 0 otherwise. Returns how many it
 * marked, and the median in *median when median is non-NULL (NaN with fewer
 * than three). */
size_t estimate_outliers(const double *lg, size_t n, char *bad, double *median, int *disagree);

/* The log value of an instance as estimate_cell() reduces it (the mean log of
 * its positive finite values, or log(u->value) when given); NaN without one. */
double estimate_unit_log(const struct estimate_unit *u);

/* Adds what an earlier batch's estimate e (of that batch alone, a fixed design)
 * shows of the round scatter to *h: the sum of squares of its round log ratios
 * about their mean, rounds less one degrees of freedom, one batch. Adds nothing
 * when e is no evidence of it: spoiled, deciding nothing for a reason, or under
 * two rounds. Counts vs's outliers (out_vs) of any batch not spoiled. */
void estimate_history_add(const struct estimate *e, struct estimate_history *h);

/* The round scatter *h shows (sd of a round's log ratio, on ESTIMATE_EVIDENCE_DF
 * degrees of freedom or more), or NaN when h is NULL or has fewer. */
double estimate_history_sd(const struct estimate_history *h);
/* The scatter floors of a rounds interval (estimate_cell()): the sd of one
 * round's log ratio each piece of evidence allows at the least.
 * estimate_instance_round_sd(): the labels' instance spread, sqrt(var_a +
 * var_b) of each side's round log values ra[0..k), rb[0..k) about its mean
 * (independent instances give a round's ratio that variance); 0 under two
 * rounds. estimate_floor_round_sd(): the stored A/A floor noise_pct (the root
 * mean square of an instance pair's request deltas, percent) as the sd of a
 * round's log ratio, less the request scatter req_var (variance of a round's
 * paired request log differences; NaN unknown) that a mean over req_n requests
 * averages away; 0 without a floor. */
double estimate_instance_round_sd(const double *ra, const double *rb, size_t k);
/* The one-sided F test's p that the round sums ra[i] + rb[i] scatter more than
 * the round ratios ra[i] - rb[i] (k - 1 degrees of freedom each): small when
 * scatter common to a round's two instances (drift between rounds) moves both
 * sides together; NaN under two rounds. */
double estimate_round_drift_p(const double *ra, const double *rb, size_t k);
double estimate_floor_round_sd(double noise_pct, double req_var, double req_n);

/* Frees what e owns and zeroes it; accepts NULL. */
void estimate_release(struct estimate *e);

/* The one-sided level of each look of a sequential design that looks after every
 * round from ESTIMATE_FIRST_LOOK to looks_to, so that the chance of any false
 * answer over all its looks is alpha: Pocock's constant boundary for the
 * information times 3, 4, ..., looks_to (Pocock 1977; Jennison & Turnbull,
 * "Group Sequential Methods", 2000, ch. 2 and 11), found by recursive numerical
 * integration (Armitage, McPherson & Rowe 1969). looks_to below the first look:
 * alpha itself. Values are cached per looks_to. */
double estimate_look_alpha(int64_t looks_to, double alpha);

#endif
