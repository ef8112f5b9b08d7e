/* speedup.h: llama-bench tests read as compare-llama-bench.py reads them: each
 * paired test's speedup, the mean avg_ts of ours over the mean avg_ts of vs (the
 * script's AVG(tc.avg_ts) / AVG(tb.avg_ts), compare over baseline), whether or
 * not the cell's interval decides, and the geometric mean of the speedups of
 * each kind of test (pp, tg, pp+tg). Pure: reports/ prints it. */
#ifndef ANALYZE_SPEEDUP_H
#define ANALYZE_SPEEDUP_H

#include <stddef.h>

#include "analyze/cellset.h"

/* One paired llama-bench test. */
struct speedup_row {
	char *test;          /* the test as llama-bench names it: "pp64", "tg16@d512" */
	char *kind;          /* speedup_kind() of the test: "pp", "tg", "pp+tg" */
	char *config;        /* the cell's whole run.config */
	char *model;
	double ours_ts, vs_ts; /* mean avg_ts of each side's pooled runs */
	size_t n_ours, n_vs;   /* the runs (llama-bench processes) each mean took */
	double speedup;        /* ours_ts / vs_ts */
};

/* The geometric mean of the speedups of one kind of test. */
struct speedup_kind {
	char *kind;
	size_t n;            /* tests of this kind */
	double geomean;
};

struct speedup_set {
	struct speedup_row *rows;   /* in the order added */
	size_t n_rows;
	struct speedup_kind *kinds; /* in the order first met, after speedup_finish() */
	size_t n_kinds;
};

/* The kind of a llama-bench test name: its counts and depth left out, "pp64" ->
 * "pp", "pp512+tg128@d4096" -> "pp+tg". Caller frees. */
char *speedup_kind(const char *test);

/* Adds the pair of pools ours and vs of one cell when both are llama-bench
 * runs with an avg_ts (run.bench_ts) on each side; anything else adds nothing.
 * Returns 1 when it added a row, else 0. */
int speedup_add(struct speedup_set *s, const struct pool *ours, const struct pool *vs);

/* Fills s->kinds from s->rows. */
void speedup_finish(struct speedup_set *s);

/* Frees what s holds and zeroes it; accepts NULL. */
void speedup_release(struct speedup_set *s);

#endif
