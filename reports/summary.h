/* summary.h: the one-screen table 'tpsdb collect' prints when it ends, one row per
 * run (a cell of the matrix in one round), so that a failed load or a slow engine is
 * seen at once. With more than one round a column says which ("2/5"). The lines
 * under it and the out dir's summary.txt are written here too. */
#ifndef REPORTS_SUMMARY_H
#define REPORTS_SUMMARY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct summary_row {
	const char *model, *engine;
	int64_t n_max;       /* TPS_NULL for a base run */
	const char *status;  /* complete, partial, failed, interrupted, LOADFAIL */
	size_t n_ok, n_failed;
	double pp, tg;       /* median tok/s over the samples each metric trusts; NAN none */
	double accept;       /* drafted tokens accepted, 0..1; NAN when nothing drafted */
	int64_t round;       /* 1-based */
	int64_t rounds;      /* the rounds planned; 1 (or 0) in every row: no round column */
	const char *why;     /* a failed load's error line; NULL none (no row with one:
				no why column) */
};

/* Writes the table (a header, then rows aligned in columns) to f. Pure apart from
 * the writes; the strings are borrowed. */
void summary_render(FILE *f, const struct summary_row *rows, size_t n);

/* What the lines under the table tell of the session. Borrowed. */
struct summary_end {
	size_t n_run, n_planned, n_bad; /* runs made, runs planned, runs not complete */
	int signal;                     /* the signal that stopped it; 0 none */
	const char *store, *out_dir;    /* where the samples and the logs went */
	int attach;                     /* attached to a running server (--url) */
	int64_t warmup;                 /* unrecorded requests after each start */
	int64_t rounds;                 /* the most rounds a model may run */
	const char *batch;              /* the batch id of every run */
	size_t n_spoiled;               /* runs with an environment finding */
	double spoiled_s;               /* their server time, seconds */
	size_t n_retried;               /* of them, measured again in their round */
};

/* The lines under the table: the counts, the store and the logs, how the first
 * request was handled (never a throughput figure: the first request after a
 * start reads a quarter to half of warm), "rounds: R of N" (R the most any of the
 * n rows ran) and the batch; when some run was spoiled, "spoiled: N instances,
 * S s of server time" (and how many were measured again). Heap; the caller frees
 * it. */
char *summary_footer(const struct summary_end *e, const struct summary_row *rows, size_t n);

/* Writes the table of the n rows and footer into dir/summary.txt through
 * outfile_open() (replaced whole). 0 ok, -1 after an error line. */
int summary_write_file(const char *dir, const struct summary_row *rows, size_t n,
		       const char *footer);

#endif
