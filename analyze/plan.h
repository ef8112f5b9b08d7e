/* plan.h: the cheapest measurement design for a cell, from its stored runs. A
 * round's log ratio varies by a part between the rounds' differences and a part
 * between the requests of one instance; with what an instance and a request cost,
 * the reps of every prompt and the rounds for a stated chance that the sequential
 * rule of collect --until-decided decides follow. Pure: plan_cells()
 * matches the cells of the sides' pools (analyze/cellset.h), reports/plan_write.c
 * prints the result. */
#ifndef ANALYZE_PLAN_H
#define ANALYZE_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/cellset.h"

/* Index of a metric, in the order of the cell set's RUN_PP, RUN_TG. */
enum plan_metric {
	PLAN_PP,
	PLAN_TG,
	PLAN_N_METRICS,
};

/* More requests per instance than this are never planned: where the between-
 * instance part is nil (or too small to see) every extra request looks free, but
 * that rests on few instances, and a longer instance meets more of the host's drift. */
#define PLAN_MAX_REQUESTS 32
/* The default --max-rounds a plan may ask. */
#define PLAN_MAX_ROUNDS 10

/* One cell: the pool of each side that measured it (each run a server instance,
 * its usable values per metric, wall times and duration), and the number of
 * distinct prompts its runs asked. Strings borrowed from the pools' newest run;
 * n_max etc. INT64_MIN when absent. */
struct plan_cell {
	const char *model, *spec_type, *endpoint, *config;
	int64_t n_max, ctx, n_predict;
	const struct pool *pool[2];   /* ours (or the --engine), vs; NULL: none */
	size_t n_prompts;
};

struct plan_input {
	const char *side[2];      /* engine labels; side[1] NULL with one engine */
	struct plan_cell *cells;  /* owned: plan_input_release() */
	size_t n_cells;
};

/* The cells of the pools a[0..na) of side 0 and, when vs is not NULL, b[0..nb)
 * of side 1: one per pool of a (in a's order) that b also measured (the same
 * cell, ctx and n_predict), or every pool of a with one side. Fills *in, whose
 * cells borrow the pools; release with plan_input_release(). */
void plan_cells(const char *ours, const struct pool *a, size_t na, const char *vs,
		const struct pool *b, size_t nb, struct plan_input *in);
void plan_input_release(struct plan_input *in);

struct plan_opts {
	double band_pct;          /* the margin the sequential rule asks about */
	double power;             /* the chance of deciding the plan is for, 0 < p < 1 */
	size_t max_rounds;        /* the most rounds a plan may ask (collect --max-rounds) */
	size_t default_prompts;   /* the collector's default design */
	size_t default_reps;
};

/* Sets band 2% (the parity band), power 0.8, at most 10 rounds and a default
 * design of 9 prompts x 3 reps; the command overwrites the design with what
 * collect/ says its default is. */
void plan_opts_init(struct plan_opts *o);

/* Why a row has no design, or where its round variance came from. */
enum plan_status {
	PLAN_OK,
	PLAN_FEW_INSTANCES, /* a side has fewer than 2 instances: no between part */
	PLAN_FEW_REQUESTS,  /* no instance repeated a request slot set: no within part */
	PLAN_NO_COST,       /* no complete run with start, end and every wall_ms */
	PLAN_FEW_ROUNDS,    /* a pair with fewer than 2 matched rounds: the round
			       variance is the between-instance estimate (a design,
			       but one that ignores how a round's instances move
			       together) */
};

/* 1 when a row of this status has a design (PLAN_OK, PLAN_FEW_ROUNDS). */
int plan_status_designs(enum plan_status s);

/* A design and what it predicts. Every design asks every prompt of the cell:
 * only the repetitions vary. */
struct plan_design {
	size_t prompts, reps;     /* requests per instance = prompts * reps */
	double round_sd_pct;      /* predicted sd of one round's log ratio, x100 */
	size_t rounds;            /* the least --max-rounds whose chance of deciding
				     reaches the power; 0 when beyond max_rounds */
	double chance;            /* the chance of deciding by rounds (by max_rounds
				     when out of reach); NaN when unknown */
	double mean_rounds;       /* the rounds the rule runs on average (it stops
				     once decided); NaN when unknown */
	double server_s;          /* rounds * 2 instances * their cost: the most the
				     design spends; NaN with rounds 0 */
};

/* One metric of one cell. sds are on the log scale (x100: about percent). */
struct plan_row {
	const struct plan_cell *cell; /* borrowed from the input */
	enum plan_metric metric;
	enum plan_status status;
	int short_side;           /* FEW_INSTANCES: the side lacking instances */
	size_t inst[2];           /* instances per side that had usable values */
	size_t n_inst, n_req;     /* instances and requests the parts came from */
	double sw_pct;            /* within-instance sd; NaN when unknown */
	double sb_pct;            /* between-instance sd, floored at 0; NaN when unknown */
	double sm_pct;            /* sd of the instance means (before the within part is
				     taken off); NaN when unknown */
	double df_w, df_b;        /* their degrees of freedom */
	int paired;               /* 1: two sides, the round variance from matched rounds */
	size_t n_rounds;          /* matched rounds (instances of ours and vs in one
				     round) */
	double sd_d_pct;          /* observed sd of a matched round's log ratio d_r;
				     NaN under 2 rounds */
	double inv_m;             /* mean of 1/requests over the matched instances */
	double sbd_pct;           /* between-round-difference sd: sqrt(max(0, var(d) -
				     2 s_w^2 inv_m)); NaN when unknown */
	double fit_sd_pct;        /* the round sd the parts predict for the design the
				     rounds had (m = 1 / inv_m); NaN when unknown */
	double c_inst_ms;         /* median time of an instance outside its requests */
	double c_req_ms;          /* median wall_ms of a request */
	size_t n_cost;            /* instances the instance cost came from */
	double m_star;            /* Kalibera-Jones requests per instance over the
				     round variance, unrounded; NaN when unknown or
				     unbounded (no between part) */
	struct plan_design best, deflt;
	double cost_ratio;        /* deflt.server_s / best.server_s; NaN when unknown */
};

/* One cell, both metrics at once (one collect measures both): of the reps of
 * every prompt, the one whose rounds (the more either metric needs) take the least
 * predicted server time. */
struct plan_both {
	const struct plan_cell *cell; /* borrowed from the input */
	int ok;                   /* 0: a metric's row has no design (see the rows) */
	struct plan_design best, deflt; /* round_sd_pct and mean_rounds NaN: they
					   differ by metric; chance the worse
					   metric's when out of reach, else NaN */
	double cost_ratio;        /* deflt.server_s / best.server_s; NaN when unknown */
};

struct plan_result {
	struct plan_row *rows;    /* per cell in input order, pp then tg; heap */
	size_t n_rows;
	struct plan_both *cells;  /* per cell in input order; heap */
	size_t n_cells;
	double band_pct, power;
	size_t max_rounds;
};

/* The variance parts of one metric over instances of the given sides (bits 1 and
 * 2 of side_mask). Each value is log(value) less the mean of its (prompt, rep)
 * slot over the instances of its side, since pairing by slot cancels what a
 * prompt or a repetition does to both engines alike. Within: the pooled variance
 * of those about their instance's mean, df = requests - instances - (slots - 1)
 * per side. Between: the pooled variance of the instance means about their side's
 * mean (df = instances - 1 per side) less the within variance over the harmonic
 * mean of the requests per instance, floored at 0. Fills the sd, df, count and
 * inst[] fields of *row; unknown parts are NaN. Values <= 0 or not finite are
 * skipped. Never fails. */
void plan_components(const struct plan_cell *c, enum plan_metric m, int side_mask,
		     struct plan_row *row);

/* The round variance of a pair as the rounds show it: plan_components() over
 * both sides, then the instances of ours and vs paired into rounds as the
 * estimate pairs them (estimate_rounds()), each reduced to its mean log value,
 * and d_r = log(ours_r) - log(vs_r). var(d) over the rounds is what a round's log
 * ratio really varies by: it keeps out what moves both instances of a round
 * together (the host, the hour), which the between-instance part counts twice.
 * Fills n_rounds, sd_d_pct, inv_m, sbd_pct (s_bd^2 = max(0, var(d) - 2 s_w^2
 * mean(1/m))) and fit_sd_pct; a design of m requests then has round variance
 * s_bd^2 + 2 s_w^2 / m. Returns the matched rounds; under 2 the round fields are
 * NaN (the caller falls back to 2 (s_b^2 + s_w^2 / m)). Never fails. */
size_t plan_pair_components(const struct plan_cell *c, enum plan_metric m,
			    struct plan_row *row);

/* The chance that collect --until-decided with --max-rounds rounds answers the
 * regression question at band_pct when the engines are alike (a true difference
 * of 0, parity: the hardest "no") and one round's log ratio has sd round_sd (log
 * scale). Each of n_sims simulated batches (normal round log ratios from a fixed
 * seed per batch, so the answer is deterministic and a batch's first rounds are
 * the same whatever rounds is) is looked at after every round from
 * ESTIMATE_FIRST_LOOK to rounds, as collect does: the log ratio and error of each
 * look are estimate_cell()'s (rounds alternating who starts; drawn once at a 1%
 * round sd and scaled, the estimate being linear in the rounds' log ratios), the
 * answer verdict_decide_interval()'s at the level of a batch that looks to
 * rounds, and a batch stops at its first "yes" or "no". The batches are kept for
 * the process (grown on demand), as estimate_look_alpha() keeps its levels.
 * *mean_rounds (when not NULL) receives the rounds run on average. 0 for rounds
 * under ESTIMATE_FIRST_LOOK (the rule never looks), NaN for a bad input. */
double plan_seq_chance(double round_sd, double band_pct, size_t rounds, size_t n_sims,
		       double *mean_rounds);

/* Simulated batches per chance. */
#define PLAN_SIMS 2000

/* The least rounds in ESTIMATE_FIRST_LOOK..max_rounds whose plan_seq_chance()
 * reaches power, with its chance and mean rounds in *chance and *mean_rounds
 * (those of max_rounds when none does); 0 when none does or an input is bad. */
size_t plan_rounds_needed(double round_sd, double band_pct, double power, size_t max_rounds,
			  double *chance, double *mean_rounds);

/* Futility: one metric's numbers at a look of collect --until-decided. */
struct plan_look {
	double m, se, df;  /* the look's log ratio, its standard error and degrees of
			      freedom (those of a rounds interval, history pooled) */
	size_t rounds;     /* the rounds the look used */
	double band_pct;   /* the band the question holds the interval against */
	int two_sided;     /* 1: the parity question (faster, slower or parity);
			      0: the regression question (yes or no) */
};

/* Below this chance of being decided by --max-rounds a cell is stopped as
 * unanswerable (collect --until-decided). The chance is taken at the look's own
 * trend, itself an estimate: in simulation about one in nine of the A/A batches
 * stopped would have answered by round 10, one in 160 at the margin
 * (docs/PERFORMANCE.md, "Futility"). */
#define PLAN_FUTILE_CHANCE 0.05

/* The chance that a batch at look l, whose rounds go on to max_rounds with the
 * look's log ratio as the true one and its scatter (se * sqrt(rounds)) as the
 * round sd, is decided at one of its looks l->rounds + 1 .. max_rounds: the
 * generator and seeds of plan_seq_chance() (normal rounds from a fixed seed per
 * batch, so the answer is deterministic), each look's mean and scatter those of the look's
 * rounds (its df standing for their sum of squares) and the new ones, the level
 * that of a batch that looks to max_rounds (estimate_look_alpha()), the answer
 * verdict_decide_interval()'s. Conditional power at the current trend (Lan,
 * Simon and Halperin 1982): the floors a real look raises the scatter to are in
 * l->se already. 0 when no look is left (max_rounds <= l->rounds); NaN when l has
 * no usable numbers (a look that is not a rounds interval). */
double plan_seq_chance_from(const struct plan_look *l, size_t max_rounds, size_t n_sims);

/* The least --max-rounds (beyond l->rounds, up to ESTIMATE_MAX_LOOK) whose
 * plan_seq_chance_from() reaches power, found by bisection; 0 when not even
 * ESTIMATE_MAX_LOOK rounds would, or l is not usable. */
size_t plan_rounds_from(const struct plan_look *l, double power);

/* Plans every cell of in for both metrics: components (plan_pair_components()
 * with two sides; one engine's instances otherwise, a round's variance then 2
 * (s_b^2 + s_w^2 / m)), costs, and of every reps r (all the cell's prompts,
 * prompts x r within PLAN_MAX_REQUESTS, at least 1 rep) the design whose rounds
 * for o's band and power cost the least server time (a tie to fewer reps; while
 * none is in reach, the highest chance); the
 * same for o's default design, and their ratio. And per cell the plan_both of its
 * two rows. *out is released with plan_result_release(). 0 ok, -1 when an option
 * is out of range (band not > 0, power not in (0, 1), max_rounds under 2 or
 * beyond ESTIMATE_MAX_LOOK, a default design of 0). */
int plan_decide(const struct plan_input *in, const struct plan_opts *o, struct plan_result *out);

/* The design collect could default to for cell i of r: metric m (PLAN_PP or
 * PLAN_TG; PLAN_N_METRICS for both at once, the more either needs): the reps of
 * every prompt, with the rounds it plans in *rounds when not NULL (0 when out of
 * reach). 0 when the cell has no design (or i is out of range). */
size_t plan_default_reps(const struct plan_result *r, size_t i, int m, size_t *rounds);

/* Frees the rows and zeroes *r; accepts NULL and a zeroed result. */
void plan_result_release(struct plan_result *r);

#endif
