/* cells.h: what the store hands the analyzer. A cell is one model and config (spec
 * type, n_max, ctx, n_predict, endpoint) measured by one engine; analysis pairs the
 * cells of two engines, or the rungs of one engine's speculative series. Only ids,
 * labels and per-run values cross this boundary, never SQL. */
#ifndef SCHEMA_CELLS_H
#define SCHEMA_CELLS_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/parity.h"

struct store;
struct run_filter;

/* One run as the analyzer sees it: identity and config, no samples. */
struct cell_run {
	int64_t id;
	char uuid[40];
	char *engine, *role, *model, *model_sha256, *model_quant, *host, *tag;
	char *started_at, *status, *spec_type, *endpoint, *prompt_set;
	char *config; /* migration 0005: llama-bench's test and settings, "" for none */
	int64_t n_max, ctx, n_predict, warmup; /* TPS_NULL when absent */
	int64_t n_samples;
	int64_t round;     /* the collector's round (1-based); TPS_NULL when unknown */
	char *batch;       /* the collect invocation's batch id; NULL when unknown */
	char *ended_at;    /* when the run ended; NULL when unknown */
	int64_t looks_to;  /* migration 0006: the batch's last look; TPS_NULL none */
	/* Migration 0007: the run's RUN_ENV_* findings, its samples flagged
	 * degenerate-output, and its temperature (NAN unknown). */
	unsigned env_flags;
	int64_t n_degenerate;
	double temperature;
	/* Filled by store_cell_outputs() only; NULL and 0 until then. */
	struct parity_output *outputs; /* the hashes are owned by the run */
	size_t n_outputs;
};

struct cell_filter {
	const char *engine, *model, *tag, *host; /* NULL: any */
	const char *baseline; /* only the runs frozen in this baseline */
	const char *batch;    /* only the runs of this collect batch; NULL: any */
	int all;              /* 0: the latest run per (engine, model, spec_type, n_max,
				 endpoint); 1: every run, oldest first (history) */
	/* More conditions the runs must also meet (engine version, start dates, batch,
	 * ...), borrowed; NULL: none. Its limit counts in a history only. */
	const struct run_filter *run;
};

/* Lists the runs matching f that hold at least one sample (failed-to-load runs
 * carry no timings), ordered by model, spec type, n_max (base first), engine, start.
 * *out is a heap array the caller frees with cell_runs_free(). 0 ok, -1 after an
 * error line. */
int store_cell_runs(struct store *s, const struct cell_filter *f, struct cell_run **out,
		    size_t *n);
void cell_runs_free(struct cell_run *runs, size_t n);

/* Reads the output hashes of r's samples that carry one and did not fail, ordered
 * by (prompt_id, rep), into r->outputs (freed with the run). 0 ok, -1 after an
 * error line. */
int store_cell_outputs(struct store *s, struct cell_run *r);
/* Frees the strings one cell_run holds and zeroes it; accepts NULL. */
void cell_run_release(struct cell_run *r);

enum cell_metric {
	CELL_PP, /* prompt_per_second */
	CELL_TG, /* predicted_per_second */
};

/* One sample's value of a metric, keyed for pairing by prompt and repetition. */
struct cell_value {
	int64_t prompt_id, rep;
	double value;
};

/* The usable values of one metric in one run, ordered by (prompt_id, rep): samples
 * with a flag that spoils this metric are left out and counted in *excluded. *out is
 * a heap array the caller frees. 0 ok, -1 after an error line. */
int store_cell_values(struct store *s, int64_t run_id, enum cell_metric m,
		      struct cell_value **out, size_t *n, size_t *excluded);

/* Sums over one run's samples usable for decode, for speculative analysis. */
struct cell_agg {
	int64_t n;                 /* samples counted */
	int64_t predicted_n, draft_n, draft_n_accepted;
	double predicted_ms;
	int has_draft;             /* any sample reported draft_n */
};

/* Aggregates in SQL (no rows cross). 0 ok, -1 after an error line. */
int store_cell_agg(struct store *s, int64_t run_id, struct cell_agg *out);

/* Per-prompt decode and acceptance of one run (the per-prompt acceptance table):
 * calls cb once per prompt in name order with the prompt's name, its mean tg and its
 * summed draft counts. 0 ok, -1 after an error line. */
int store_cell_prompts(struct store *s, int64_t run_id,
		       void (*cb)(const char *prompt, double tg, int64_t draft_n,
				  int64_t draft_n_accepted, void *arg),
		       void *arg);

/* The per-sample acceptance of one run, draft_n_accepted / draft_n, ordered by
 * (prompt_id, rep) like store_cell_values(): samples flagged for decode, and those
 * that drafted nothing (draft_n absent or 0), are left out and counted in
 * *excluded. *out is a heap array the caller frees. 0 ok, -1 after an error line. */
int store_cell_accept_values(struct store *s, int64_t run_id, struct cell_value **out,
			     size_t *n, size_t *excluded);

/* How many of one run's samples carry each flag: counts[i] for the flag 1 << i, for
 * i < n_flags (SAMPLE_COLD is bit 4, so 5 covers them all); *n_samples gets the
 * run's sample count when non-NULL. 0 ok, -1 after an error line. */
int store_cell_flag_counts(struct store *s, int64_t run_id, int64_t *counts, size_t n_flags,
			   int64_t *n_samples);

#endif
