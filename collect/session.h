/* session.h: one 'tpsdb collect' session over a built plan: make the temporary
 * HOMEs, detect the host, hash each binary and model once, then, model by model,
 * run the rounds the caller asks for (each a whole pass over the engines,
 * collect/plan.h) cell by cell (collect/cell.c), with a progress line. The caller
 * owns the loop: which model, which round, which cells; the session calls nothing
 * of the caller's. Every run carries its round and the session's batch id. It
 * returns one row per run; rendering them is the command's business. */
#ifndef COLLECT_SESSION_H
#define COLLECT_SESSION_H

#include <stddef.h>
#include <stdint.h>

struct store;
struct plan;
struct prompt_set;
struct collect_setup;

/* How one run went. */
struct session_row {
	size_t cell;               /* index into the plan's cells */
	int64_t round;             /* 1-based */
	const char *status;        /* complete, partial, failed, interrupted or
				      LOADFAIL (static strings) */
	size_t n_ok, n_failed;
	double pp, tg, accept;     /* as in struct cell_result */
	double wall_s;             /* the run's wall time, server start to stop */
	char *load_line;           /* a failed load's error line (collect/loaderr.h);
				      NULL none; owned */
	char *env;                 /* the run's environment facts as stored (run.env);
				      NULL none; owned */
	int gpu_index;             /* the run's GPU, -1 unknown */
	unsigned findings;         /* the caller's to fill: the run's RUN_ENV_* findings */
	int retried;               /* the caller's to fill: measured again in its round
				      (collect --wait-quiet), so not the round's instance */
};

struct session_result {
	struct session_row *rows;  /* one per run, in order; owned */
	size_t n_rows, cap_rows;
	size_t n_planned;          /* runs the plan allows: every cell in every round
				      (and the tries measured again beyond them) */
	int64_t rounds;            /* plan_rounds(p): the most rounds a model may run */
	char batch[40];            /* the batch id every run of the session carries */
	size_t n_bad;              /* rows whose run is not 'complete' */
	int signal;                /* the signal that stopped the session, 0 none */
};

/* An open session: the host detected, the files hashed, the HOMEs made. */
struct session;

/* Opens a session over plan p into store s, with the knobs and overrides in setup
 * (setup->c.out_dir must be an existing directory), its rows going to res
 * (release with session_result_release()). note is NULL or a short text the
 * progress line shows after the run ("2 of 4 cells open"), borrowed and read at
 * every redraw, so the caller may rewrite it between rounds. Returns the session,
 * or NULL after an error line (the system failed, or a signal came while the
 * files were hashed). */
struct session *session_open(struct store *s, struct plan *p, const struct prompt_set *ps,
			     const struct collect_setup *setup, const char *note,
			     struct session_result *res);
/* Runs round `round` (1-based) of model mi: its cells in plan_round_order(), less
 * those whose run[k] is 0 (run NULL: every cell), each a run of its own appended to
 * res; a signal stops it between cells. Then clears the progress line, so the
 * caller may print. -1 when the store or the system failed. */
int session_round(struct session *ss, size_t mi, int64_t round, const unsigned char *run);
/* Measures cell k in round `round` as the session's next run, its row appended to
 * res (a cell measured again in its round, collect --wait-quiet, is a run of its
 * own with the same round). -1 when the store or the system failed. */
int session_cell(struct session *ss, size_t k, int64_t round);
/* Clears the progress line, so the caller may print. */
void session_clear(struct session *ss);
/* Closes ss (NULL is accepted): removes the fresh HOMEs and sets res->signal to the
 * signal that stopped the session, 0 none. */
void session_close(struct session *ss);
/* Frees what res owns; accepts one zero-initialised. */
void session_result_release(struct session_result *res);

#endif
