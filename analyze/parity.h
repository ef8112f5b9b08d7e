/* parity.h: two engines on the same cells. Given each side's pools (the cell
 * set's, analyze/cellset.h), it matches the cells both measured, refuses a pair
 * of runs that are not comparable (another GGUF, another config) and gives each
 * metric the cell's one estimate (pool_estimate()). Pure: reports/ turns the
 * result into words. */
#ifndef ANALYZE_PARITY_H
#define ANALYZE_PARITY_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/accept.h"
#include "analyze/answer.h"
#include "analyze/cellset.h"
#include "analyze/estimate.h"
#include "analyze/speedup.h"
#include "analyze/verdict.h"

enum parity_metric_bits {
	PARITY_PP = 1 << 0,
	PARITY_TG = 1 << 1,
	PARITY_BOTH = PARITY_PP | PARITY_TG,
};

/* Index of a metric in the per-metric arrays below; the same order as the cell
 * set's RUN_PP, RUN_TG. */
enum parity_metric {
	PARITY_METRIC_PP,
	PARITY_METRIC_TG,
	PARITY_N_METRICS,
};

struct parity_opts {
	const char *ours, *vs;         /* engine labels the rows name; both required */
	int metrics;                   /* PARITY_PP, PARITY_TG or both */
	double band_pct;               /* parity band and regression margin, default
					  VERDICT_BAND_PCT */
	int force;                     /* compare cells that would be refused for
					  a difference of the runs (not of the
					  machines) */
	int across_machines;           /* compare a cell whose sides were measured
					  on different machines, unpaired */
	int own_newest;                /* each side keeps its own pool (no
					  pools_pair()): collect's between-round
					  answer, whose batch is the one running */
};

/* Sets the defaults: both metrics, band 2%, no force. */
void parity_opts_init(struct parity_opts *o);

/* The metrics bits a name gives ('tpsdb compare --metric'): "pp", "tg" or
 * "both"; -1 for any other. */
int parity_metrics_of(const char *name);

/* Output identity of two runs: over the keys (prompt, rep) both carry a hash for,
 * *compared gets their count and *identical those whose hashes match. Only at
 * temperature 0 on both sides; else both are -1 (not comparable). Pure. */
void parity_outputs(const struct run *a, const struct run *b, int64_t *compared,
		    int64_t *identical);

/* What parity_decide() judges: the pools of each side (cellset_pools() of the
 * side's cell set), in the store's cell order (model, spec type, n_max, ...).
 * Two pools share a cell when their faces' model, spec type, n_max, endpoint and
 * config agree; each vs pool pairs with at most one of ours, in this order. All
 * borrowed. */
struct parity_input {
	const struct pool *ours, *vs;
	size_t n_ours, n_vs;
};

/* A remark for the reader. LONE: a cell one side measured while the other side
 * (the engine label in `missing`) measured the model only in other cells. FORCED:
 * a cell compared although diff says it should not be. */
enum parity_note_kind {
	PARITY_NOTE_LONE,
	PARITY_NOTE_FORCED,
};

struct parity_note {
	enum parity_note_kind kind;
	const struct run *cell;         /* the pool's face, borrowed from the input */
	const char *missing;            /* LONE: the engine label without the cell */
	struct run_diff diff;           /* FORCED: what differs */
};

/* One metric of one cell: pool_estimate() of its two pools. */
struct parity_row {
	char *model, *spec_type, *endpoint; /* spec_type "" for a base cell */
	char *config;                       /* the cell's run.config, "" for none */
	int64_t n_max, ctx, n_predict;      /* INT64_MIN (TPS_NULL) when absent */
	const char *metric;                 /* "pp" or "tg", static */
	const char *ours, *vs;              /* engine labels, borrowed from the opts */
	char ours_run[40], vs_run[40];      /* uuids of the pools' newest runs */
	const struct pool *pool_ours, *pool_vs; /* the runs pooled, borrowed from
					       the input */
	unsigned question;                  /* pools_question() of the two pools:
					       1 << RUN_PP or 1 << RUN_TG when the
					       batch stopped on that metric alone
					       (--metric); 0 both */
	struct verdict v;                   /* delta, interval, both answers, band */
	double noise_pct;                   /* the stored floor; NaN when none */
	double ours_median, vs_median;      /* the estimate's centres: the geometric
					       mean of the medians of the instances
					       behind it (one instance: its median);
					       delta_pct is their ratio exactly */
	enum estimate_reason reason;        /* why nothing is decided, when so */
	size_t n_ours_first, n_vs_first;    /* rounds by the side that started first */
	size_t n_out_ours, n_out_vs;        /* instances left out as outliers */
	char out_ours[4][40], out_vs[4][40]; /* their uuids (the first four) */
	size_t excluded_ours, excluded_vs;  /* samples flagged for this metric, left out */
	size_t unpaired;                    /* usable values with no partner on the other
					       side, those of unpaired runs included */
	int forced;                         /* 1 when the cell would have been refused */
	int across;                         /* 1 when its sides were measured on
					       different machines (--across-machines):
					       compared unpaired; the machines are
					       those of the pools' faces */
	/* The environment of every run pooled in the cell, both sides: the OR of
	 * their RUN_ENV_* findings and the sum of their degenerate-output samples;
	 * env_ours / env_vs per side. */
	unsigned env_flags, env_ours, env_vs;
	int64_t degenerate;
	/* Output identity of the cell's two newest runs (parity_outputs()): pairs
	 * compared and pairs whose output hashes match; -1 when not at temperature 0. */
	int64_t outputs_compared, outputs_identical;
	/* When v is spoiled: the newest clean batch's answer of the cell
	 * (pool_newest_clean(), filled by the command from the sides' histories);
	 * found 0 otherwise or when there is none. */
	struct clean_answer newest_clean;
};


/* Why parity_decide() stopped. */
enum parity_stop {
	PARITY_STOP_NONE,
	PARITY_STOP_REFUSED,    /* cell's runs differ (diff) and o->force is off */
	PARITY_STOP_BAD_PARAMS, /* o->band_pct or o->noise_k is not a number >= 0 */
};

struct parity_result {
	struct parity_row *rows;   /* order of the input's ours[], pp before tg */
	size_t n_rows;
	struct parity_note *notes; /* in the order met: ours[] first, then vs[] */
	size_t n_notes;
	enum parity_stop stop;
	const struct run *stop_cell;         /* the cell that stopped it, borrowed */
	struct run_diff stop_diff;           /* REFUSED: what differs */
	struct answer_set answers;           /* parity_answer() of the rows, at the
						band (after 0 only) */
	struct speedup_set speedups;         /* every shared llama-bench cell's
						speedup (speedup_add()), pp+tg
						tests too, and the geomean of each
						kind (after 0 only) */
	struct pool *pools;                  /* the pools the rows judge, two per
						shared cell (pools_pair() of the
						input's; rows point into them) */
	size_t n_pools;
	size_t n_across;                     /* cells compared across machines */
	struct accept_set accept;            /* the per-prompt acceptance of every
						shared cell where a side drafted
						(accept_add()), for the pooled runs
						whose per-prompt figures were loaded */
};

/* Judges every shared cell of in. Each pair of pools is first taken as a
 * comparison takes it (pools_pair(): the newest batch that measured both sides).
 * A cell whose two runs differ (run_mismatch()) stops the judging with stop
 * REFUSED and -1, unless o->force, which compares it anyway, marks its rows
 * forced and adds a FORCED note. A cell whose two sides were measured on
 * different machines (pools_same_machine()) stops it the same way with diff kind
 * RUN_DIFF_MACHINE (the two runs in diff), unless o->across_machines, which
 * compares it unpaired (estimate_params.unpaired), marks its rows across and
 * adds a FORCED note with that diff. A cell of one side only
 * gets a LONE note when the other side measured its model elsewhere. No shared
 * cell is not an error: n_rows is 0 and the caller decides. After 0, answers holds
 * the rows' one-line answer at o->band_pct (parity_answer()). Fills *out (rows own
 * their strings; notes and stop_* borrow from in), which the caller releases with
 * parity_result_release(), also after -1. 0 ok, -1 with out->stop set. */
int parity_decide(const struct parity_input *in, const struct parity_opts *o,
		  struct parity_result *out);

/* Frees what *r holds and zeroes it; accepts NULL and a zeroed result. */
void parity_result_release(struct parity_result *r);

/* The one-line answer of r's rows: per metric (enum parity_metric: pp, then tg),
 * the rows of that metric, forced ones included, through answer_build() against
 * band_pct (answer_set_build()). Fills *out, borrowing r's verdicts; the caller
 * releases it with answer_set_release(). parity_decide() fills r->answers so. */
void parity_answer(const struct parity_result *r, double band_pct, struct answer_set *out);

/* Rows of r whose runs carry an environment finding or degenerate output: what
 * compare warns about, and what --strict fails on. Pure. */
size_t parity_env_rows(const struct parity_result *r);

/* Merge-joins two value lists ordered by (prompt_id, rep): *ours and *vs receive
 * the values of the keys both hold, in key order, as heap arrays of *n doubles the
 * caller frees (NULL when *n is 0). Values without a partner are counted in
 * *unpaired when it is non-NULL. */
void parity_pair(const struct run_value *a, size_t na, const struct run_value *b, size_t nb,
		 double **ours, double **vs, size_t *n, size_t *unpaired);

#endif
