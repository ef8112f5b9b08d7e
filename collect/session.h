/* session.h: one 'tpsdb collect' session over a built plan: make the temporary
 * HOMEs, detect the host, hash each binary and model once, then measure the cells
 * in order (collect/cell.c) until the last one or a signal, with a progress line.
 * It returns one row per cell run; rendering them is the command's business. */
#ifndef COLLECT_SESSION_H
#define COLLECT_SESSION_H

#include <stddef.h>

struct store;
struct plan;
struct prompt_set;
struct collect_setup;

/* How one cell went. */
struct session_row {
	size_t cell;               /* index into the plan's cells */
	const char *status;        /* complete, partial, failed, interrupted or
				      LOADFAIL (static strings) */
	size_t n_ok, n_failed;
	double pp, tg, accept;     /* as in struct cell_result */
};

struct session_result {
	struct session_row *rows;  /* one per cell run, in order; owned */
	size_t n_rows;
	size_t n_bad;              /* rows whose run is not 'complete' */
	int signal;                /* the signal that stopped the session, 0 none */
};

/* Runs every cell of p into store s, with the knobs and overrides in setup
 * (setup->c.out_dir must be an existing directory). The fresh HOMEs are removed
 * before it returns. Returns 0 with res filled (release with
 * session_result_release()), also when cells failed or a signal cut the session
 * short between cells; -1 after an error line when the store or the system failed,
 * or a signal came while the files were being hashed. */
int session_run(struct store *s, struct plan *p, const struct prompt_set *ps,
		const struct collect_setup *setup, struct session_result *res);
/* Frees what res owns; accepts one zero-initialised. */
void session_result_release(struct session_result *res);

#endif
