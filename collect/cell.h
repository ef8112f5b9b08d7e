/* cell.h: one cell of the collect matrix, start to finish: start the server (or
 * attach to a running one), wait until it is ready, send the warm-ups, then every
 * prompt --reps times, committing each sample as it arrives, and stop the server.
 * Faults are data here: they end up in the run's status and the samples' errors. */
#ifndef COLLECT_CELL_H
#define COLLECT_CELL_H

#include <stddef.h>
#include <stdint.h>

struct store;
struct plan;
struct host_rec;
struct prompt_set;
struct progress;

/* The knobs of a collect session that every cell shares. */
struct collect_opts {
	int64_t reps, ctx, n_predict, seed, warmup;
	int chat;                  /* 1: /v1/chat/completions */
	int ban_byte_tokens;
	double load_timeout_s, request_timeout_s;
	const char *gpu;           /* CUDA_VISIBLE_DEVICES for servers; NULL leaves it */
	int base_port;
	const char *tag, *notes;
	const char *out_dir;       /* existing directory for the server logs */
	const char *url;           /* attach mode: the running server; NULL launches */
	int64_t looks_to;          /* --until-decided: the batch's last look, recorded
				      on every run (run.looks_to); TPS_NULL none */
	const char *looks_metric;  /* --until-decided --metric pp or tg: the one metric
				      its stopping rule watched (run.looks_metric);
				      NULL both */
};

struct cell_env {
	struct store *store;
	const struct collect_opts *o;
	struct plan *plan;         /* cells read; engine versions learnt are kept */
	const struct host_rec *host;
	const struct prompt_set *prompts;
	struct progress *progress;
	const char *batch;         /* the session's batch id, recorded on every run */
};

/* Give up on a cell after this many timeouts in a row: the server is wedged. */
#define CELL_MAX_TIMEOUTS_IN_ROW 3

struct cell_result {
	char status[16];           /* complete, partial, failed, interrupted */
	int load_failed;           /* the server never became ready */
	size_t n_ok, n_failed;
	double pp, tg;             /* medians over the samples each metric trusts */
	double accept;             /* sum draft_n_accepted / sum draft_n, NAN none */
	char log_path[4096];       /* "" in attach mode */
	char *load_line;           /* a failed load's error line (collect/loaderr.h),
				      heap; NULL none. The caller frees it. */
	char *env;                 /* the run's environment facts as stored (run.env,
				      collect/runenv.h), heap; NULL when it measured
				      nothing. The caller frees it. */
	int gpu_index;             /* the run's GPU (runenv_gpu()), -1 unknown */
};

/* Runs cell k of env->plan as run number seq (0-based, in session order) of round
 * `round` (1-based) and records it as one run. A server that does not get
 * ready becomes a 'failed' run with the reason and its log tail in load_error; a
 * request that fails becomes a sample with the error; if the server dies, the
 * prompts left are recorded as not attempted. A pending signal ends the cell as
 * 'interrupted' with its samples kept. The server is stopped before this returns.
 * Returns 0 when the cell was recorded (res says how it went), -1 after an error
 * line when the store or the system failed. */
int cell_measure(const struct cell_env *env, size_t k, size_t seq, int64_t round,
		 struct cell_result *res);

#endif
