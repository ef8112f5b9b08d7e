/* progress.h: the collector's live status line on stderr: which run of how many,
 * the round when there is more than one, engine, model and n_max, the request count
 * and an ETA. It is drawn only when
 * stderr is a terminal and --quiet is off; colour only when NO_COLOR is unset.
 * When stderr is not a terminal (a CI log), each run prints one plain line as it
 * ends instead, so that a long job says what it did. */
#ifndef COLLECT_PROGRESS_H
#define COLLECT_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

struct progress;

enum progress_mode {
	PROGRESS_OFF,   /* every call a no-op (--quiet) */
	PROGRESS_LIVE,  /* a terminal: the redrawn status line */
	PROGRESS_PLAIN, /* a log: one line per run as it ends, no escapes, no colour */
};

/* n_runs is the number of runs planned (every cell in every round), rounds the
 * number of rounds planned; color applies to PROGRESS_LIVE only. Caller frees
 * with progress_free(). */
struct progress *progress_new(enum progress_mode mode, int color, size_t n_runs,
			      int64_t rounds);
/* Erases the line and frees; accepts NULL. */
void progress_free(struct progress *p);

/* Run k (0-based) begins, in round `round` (1-based); phase is e.g. "loading".
 * Redraws. */
void progress_cell(struct progress *p, size_t k, int64_t round, const char *model,
		   const char *engine, int64_t n_max, const char *phase);
/* Redraws the line as it is (a load's seconds go on counting). Takes a struct
 * progress as void *, to serve as server_wait_ready()'s tick. */
void progress_tick(void *p);
/* done of total requests of the current cell are finished. Redraws. */
void progress_requests(struct progress *p, size_t done, size_t total);
/* The current cell ended: prints one line that stays, with the status coloured
 * (live), or plain: "[2/8] round 1/2 tiny / ours / base: complete, 5 ok, 0 failed,
 * pp 1234.5 tok/s, tg 56.7 tok/s (12 s)"; pp and tg are the run's medians, NaN
 * when it has none. why, when not NULL, ends the line after ": " (a failed load's
 * error line, collect/loaderr.h). */
void progress_cell_done(struct progress *p, const char *status, size_t n_ok,
			size_t n_failed, double pp, double tg, const char *why);
/* Shows note (borrowed, read at every redraw; NULL or "" shows nothing) after the
 * run on the line, e.g. "2 of 4 cells open". */
void progress_note(struct progress *p, const char *note);
/* The text of the line's run part into buf: "round 2/10 tiny / ours / base" (no
 * round with one round planned, n_max=<n> for a spec run), then ", <note>" when
 * note is set. */
void progress_label(char *buf, size_t len, int64_t round, int64_t rounds, const char *model,
		    const char *engine, int64_t n_max, const char *note);
/* Erases the status line so that a message can be printed; the next update
 * redraws it. */
void progress_clear(struct progress *p);

#endif
