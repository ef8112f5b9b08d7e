/* session.h: one 'tpsdb collect' session over a built plan: make the temporary
 * HOMEs, detect the host, hash each binary and model once, then, model by model,
 * run its rounds (each a whole pass over the engines, collect/plan.h) cell by cell
 * (collect/cell.c) until the last round, a "no more rounds" from the caller's
 * hook, or a signal, with a progress line. Every run carries its round and the
 * session's batch id. It returns one row per run; rendering them is the command's
 * business. */
#ifndef COLLECT_SESSION_H
#define COLLECT_SESSION_H

#include <stddef.h>
#include <stdint.h>

struct store;
struct plan;
struct prompt_set;
struct collect_setup;

/* The "should I run another round?" question, asked after round `round` (1-based)
 * of model `model` (an index into p->models) has run, and only when a round is
 * left (round < plan_rounds(p)) and no signal is pending. batch is the session's
 * batch id, carried by every run of this invocation, so the hook can load exactly
 * the runs of this model in this batch from s and compare them. The progress
 * line is cleared before the call, so the hook may print. The rows of the
 * session_result handed to session_run() are filled as runs end and may be read
 * by the hook through its arg. Returns 1 to run
 * round + 1, 0 to end this model's rounds (the session goes on with the next
 * model), -1 after an error line to end the session as a store error does. */
typedef int (*session_more_fn)(void *arg, struct store *s, const struct plan *p,
			       size_t model, int64_t round, const char *batch);

/* Asked before each cell of a round starts: 1 when cell k (an index into
 * p->cells) has nothing left to decide and is not started again, 0 to run it. */
typedef int (*session_skip_fn)(void *arg, size_t cell);

struct session_hooks {
	session_more_fn more;      /* NULL: every model runs plan_rounds(p) rounds */
	session_skip_fn skip;      /* NULL: every cell runs in every round */
	void *arg;                 /* handed to more and skip */
	const char *note;          /* NULL, or a short text the progress line shows after
				      the run (e.g. "2 of 4 cells open"), read at every
				      redraw: the hook may rewrite it between rounds */
};

/* How one run went. */
struct session_row {
	size_t cell;               /* index into the plan's cells */
	int64_t round;             /* 1-based */
	const char *status;        /* complete, partial, failed, interrupted or
				      LOADFAIL (static strings) */
	size_t n_ok, n_failed;
	double pp, tg, accept;     /* as in struct cell_result */
	double wall_s;             /* the run's wall time, server start to stop */
};

struct session_result {
	struct session_row *rows;  /* one per run, in order; owned */
	size_t n_rows;
	size_t n_planned;          /* runs the plan allows: every cell in every round */
	int64_t rounds;            /* plan_rounds(p): the most rounds a model may run */
	char batch[40];            /* the batch id every run of the session carries */
	size_t n_bad;              /* rows whose run is not 'complete' */
	int signal;                /* the signal that stopped the session, 0 none */
};

/* Runs the rounds of every model of p into store s, with the knobs and overrides
 * in setup (setup->c.out_dir must be an existing directory) and the hooks (NULL:
 * none). The fresh HOMEs are removed before it returns. Returns 0 with res filled
 * (release with session_result_release()), also when cells failed or a signal cut
 * the session short between cells; -1 after an error line when the store or the
 * system failed, a hook failed, or a signal came while the files were hashed. */
int session_run(struct store *s, struct plan *p, const struct prompt_set *ps,
		const struct collect_setup *setup, const struct session_hooks *hooks,
		struct session_result *res);
/* Frees what res owns; accepts one zero-initialised. */
void session_result_release(struct session_result *res);

#endif
