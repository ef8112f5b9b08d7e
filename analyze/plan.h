/* plan.h: the cheapest measurement design for a cell, from its stored runs. The
 * variance of a run's log rates splits into a part between server instances and a
 * part between the requests of one instance; with what an instance and a request
 * cost, Kalibera and Jones' multi-level rule gives the requests per instance, and a
 * t interval the paired rounds a target precision needs. Pure: plan_cells()
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
/* Rounds beyond this are "more than": the target is out of reach of the design. */
#define PLAN_MAX_ROUNDS 1000

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
	double mde_pct;           /* the target: the 95% interval's half-width, percent */
	size_t default_prompts;   /* the collector's default design */
	size_t default_reps;
};

/* Sets mde 2% (the parity band) and a default design of 9 prompts x 3 reps; the
 * command overwrites the design with what collect/ says its default is. */
void plan_opts_init(struct plan_opts *o);

/* Why a row has no design. */
enum plan_status {
	PLAN_OK,
	PLAN_FEW_INSTANCES, /* a side has fewer than 2 instances: no between part */
	PLAN_FEW_REQUESTS,  /* no instance repeated a request slot set: no within part */
	PLAN_NO_COST,       /* no complete run with start, end and every wall_ms */
};

/* A design and what it predicts. */
struct plan_design {
	size_t prompts, reps;     /* requests per instance = prompts * reps */
	double round_sd_pct;      /* sd of one round's log ratio, x100 */
	size_t rounds;            /* rounds for the target; 0 when > PLAN_MAX_ROUNDS */
	double server_s;          /* rounds * 2 instances * their cost; NaN with rounds 0 */
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
	double c_inst_ms;         /* median time of an instance outside its requests */
	double c_req_ms;          /* median wall_ms of a request */
	size_t n_cost;            /* instances the instance cost came from */
	double m_star;            /* Kalibera-Jones requests per instance, unrounded;
				     +inf when sb is 0; NaN when unknown */
	int capped;               /* 1: the design was held to PLAN_MAX_REQUESTS */
	struct plan_design best, deflt;
	double cost_ratio;        /* deflt.server_s / best.server_s; NaN when unknown */
};

/* One cell, both metrics at once (one collect measures both): of every prompts x
 * reps with at most n_prompts prompts (exactly n_prompts for a speculative cell)
 * and PLAN_MAX_REQUESTS requests, the one whose rounds (the more either metric
 * needs) take the least predicted server time; a tie goes to more prompts. */
struct plan_both {
	const struct plan_cell *cell; /* borrowed from the input */
	int ok;                   /* 0: a metric's row has no design (see the rows) */
	struct plan_design best, deflt; /* round_sd_pct NaN: it differs by metric */
	double cost_ratio;        /* deflt.server_s / best.server_s; NaN when unknown */
};

struct plan_result {
	struct plan_row *rows;    /* per cell in input order, pp then tg; heap */
	size_t n_rows;
	struct plan_both *cells;  /* per cell in input order; heap */
	size_t n_cells;
	double mde_pct;
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

/* The rounds a paired comparison needs so that the 95% t interval of the mean
 * log ratio (df rounds - 1) has a half-width h with 100 sinh(h) <= mde_pct (the
 * mde compare prints at no difference), when one round's log ratio has variance
 * var: the least n >= 2 with t(0.975, n - 1) sqrt(var / n) <= asinh(mde / 100);
 * 0 when more than PLAN_MAX_ROUNDS would be needed or an input is not usable. */
size_t plan_rounds_needed(double var, double mde_pct);

/* Plans every cell of in for both metrics: components (both sides pooled when
 * there are two), costs, the cheapest design (m* = sqrt(c_inst s_w^2 / (c_req
 * s_b^2)); of its floor (at least 1) and ceiling, each split prompts first
 * (min(m, n_prompts) prompts, and the reps to reach m; a speculative cell, one
 * with a spec_type, never fewer than n_prompts requests), the one with the smaller
 * cost x variance per round), its rounds for o->mde_pct (one round's variance
 * 2 (s_b^2 + s_w^2 / m)) and server time, the same for o's default design, and
 * their ratio. When m* is PLAN_MAX_REQUESTS or more (s_b 0 makes it infinite)
 * the row is capped and the design is the one of at most PLAN_MAX_REQUESTS
 * requests with the least predicted server time. And per cell the plan_both of
 * its two rows. *out
 * is released with plan_result_release(). 0 ok, -1 when an option is out of
 * range (mde not > 0, a default design of 0). */
int plan_decide(const struct plan_input *in, const struct plan_opts *o, struct plan_result *out);

/* Frees the rows and zeroes *r; accepts NULL and a zeroed result. */
void plan_result_release(struct plan_result *r);

#endif
