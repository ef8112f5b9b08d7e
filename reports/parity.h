/* parity.h: two engines on the same cells, paired prompt by prompt. Finds every
 * (model, spec_type, n_max, endpoint) cell both engines measured, refuses a pair of
 * runs that are not comparable (another GGUF, another config), and gives each metric
 * a parity verdict widened to the stored A/A noise. Used by 'tpsdb compare', the
 * report and the parity plot. */
#ifndef REPORTS_PARITY_H
#define REPORTS_PARITY_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/verdict.h"
#include "schema/cells.h"

struct store;

enum parity_metric_bits {
	PARITY_PP = 1 << 0,
	PARITY_TG = 1 << 1,
	PARITY_BOTH = PARITY_PP | PARITY_TG,
};

struct parity_opts {
	const char *ours, *vs;         /* engine labels; both required */
	const char *model;             /* NULL: every model */
	const char *host;              /* NULL: any host */
	const char *ours_tag, *vs_tag; /* NULL: the latest run of each cell; else the
					  latest run carrying this tag */
	int metrics;                   /* PARITY_PP, PARITY_TG or both */
	double band_pct;               /* parity band, default VERDICT_BAND_PCT */
	double noise_k;                /* multiplier of the stored floor, default 2 */
	int force;                     /* compare cells that would be refused */
};

/* Sets the defaults: both metrics, band 2%, k 2, no filters, no force. */
void parity_opts_init(struct parity_opts *o);

/* One metric of one cell. */
struct parity_row {
	char *model, *spec_type, *endpoint; /* spec_type "" for a base cell */
	int64_t n_max, ctx, n_predict;      /* TPS_NULL when absent */
	const char *metric;                 /* "pp" or "tg", static */
	const char *ours, *vs;              /* engine labels, borrowed from the opts */
	char ours_run[40], vs_run[40];      /* uuids of the runs compared */
	struct verdict v;                   /* delta, CI, p, verdict, effective band */
	double noise_pct;                   /* the stored floor; NaN when none */
	double ours_median, vs_median;      /* of the usable values of each run */
	size_t excluded_ours, excluded_vs;  /* samples flagged for this metric, left out */
	size_t unpaired;                    /* usable values with no partner on the other side */
	int forced;                         /* 1 when the cell would have been refused */
};

struct parity_result {
	struct parity_row *rows; /* cell order of store_cell_runs(), pp before tg */
	size_t n_rows;
	char **warnings;         /* heap strings: forced cells, and cells one side lacks
				    of a model it measured elsewhere */
	size_t n_warnings;
};

/* Pairs and judges every cell that o->ours and o->vs share. A cell whose two runs
 * have different model sha256 (both known) or a different ctx, n_predict, endpoint
 * or prompt set (both known) is refused: one error line naming the cell and the
 * difference, and -1, unless o->force, which compares it anyway, marks its rows
 * forced and adds a warning starting with "FORCED". No shared cell is not an error
 * here: n_rows is 0 and the caller decides. Prints nothing else. Fills *out, which
 * the caller releases with parity_result_release() (also after -1). 0 ok, -1 after
 * an error line. */
int parity_compare(struct store *s, const struct parity_opts *o, struct parity_result *out);

/* Frees what *r holds and zeroes it; accepts NULL and a zeroed result. */
void parity_result_release(struct parity_result *r);

/* Merge-joins two value lists ordered by (prompt_id, rep), as store_cell_values()
 * returns them: *ours and *vs receive the values of the keys both hold, in key
 * order, as heap arrays of *n doubles the caller frees (NULL when *n is 0). Values
 * without a partner are counted in *unpaired when it is non-NULL. */
void parity_pair(const struct cell_value *a, size_t na, const struct cell_value *b, size_t nb,
		 double **ours, double **vs, size_t *n, size_t *unpaired);

/* Why two runs of one cell may not be compared: writes e.g. "model sha256 differs
 * (1a2b3c4d5e6f vs 9f8e7d6c5b4a)" or "n_predict differs (256 vs 128)" into buf and
 * returns 1; returns 0 (buf "") when they are comparable. */
int parity_mismatch(const struct cell_run *a, const struct cell_run *b, char *buf, size_t len);

/* Names a cell for messages and tables: "<model>" for a base cell on the completion
 * endpoint, else "<model> [<spec_type> n_max=<n>] (<endpoint>)" with the parts that
 * apply. Always NUL-terminates buf when len > 0. */
void parity_cell_name(const char *model, const char *spec_type, int64_t n_max,
		      const char *endpoint, char *buf, size_t len);

#endif
