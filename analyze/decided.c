/* decided.c: which cells of a comparison are decided, for collect's stopping rule
 * (decided.h). A cell needs every watched metric decided (both by default), so
 * that a model is only left when no verdict it was asked for could still change. */
#include "analyze/decided.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tpsdb.h"

static int same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

static int same_cell(const struct parity_row *a, const struct parity_row *b)
{
	return same_str(a->model, b->model) && same_str(a->spec_type, b->spec_type) &&
	       a->n_max == b->n_max && same_str(a->endpoint, b->endpoint) &&
	       same_str(a->config, b->config);
}

static int metric_of(const struct parity_row *r)
{
	return !strcmp(r->metric, "pp") ? PARITY_METRIC_PP : PARITY_METRIC_TG;
}

int decided_row(const struct parity_row *row, enum decided_question q)
{
	/* Intermittent is decided, and bad: more rounds of an engine slow on some
	 * starts only add slow starts (estimate.h), and the gate fails it. */
	if (row->v.regression == VERDICT_REG_INTERMITTENT)
		return 1;
	if (q == DECIDED_PARITY)
		return row->v.decided;
	return row->v.regression == VERDICT_REG_YES || row->v.regression == VERDICT_REG_NO;
}

int decided_watched(int watched)
{
	return watched == PARITY_PP || watched == PARITY_TG ? watched : PARITY_BOTH;
}

/* 1 when every metric of watched has a row in c that answers q. */
static int cell_decided(const struct decided_cell *c, enum decided_question q, int watched)
{
	int m;

	for (m = 0; m < PARITY_N_METRICS; m++)
		if ((watched & (1 << m)) && (!c->row[m] || !decided_row(c->row[m], q)))
			return 0;
	return 1;
}

size_t decided_cells(const struct parity_result *r, enum decided_question q, int watched,
		     struct decided_cell **out)
{
	struct decided_cell *c = NULL;
	const struct parity_row *first = NULL;
	size_t i, n = 0;

	*out = NULL;
	if (!r->n_rows)
		return 0;
	c = tps_xcalloc(r->n_rows, sizeof(*c));
	for (i = 0; i < r->n_rows; i++) {
		const struct parity_row *row = &r->rows[i];

		if (!first || !same_cell(first, row)) {
			first = row;
			n++;
		}
		c[n - 1].row[metric_of(row)] = row;
	}
	watched = decided_watched(watched);
	for (i = 0; i < n; i++)
		c[i].decided = cell_decided(&c[i], q, watched);
	*out = c;
	return n;
}

size_t decided_find(const struct decided_cell *cells, size_t n, const char *spec_type,
		    int64_t n_max)
{
	size_t i;
	int m;

	for (i = 0; i < n; i++) {
		for (m = 0; m < PARITY_N_METRICS; m++) {
			const struct parity_row *row = cells[i].row[m];

			if (row && same_str(row->spec_type, spec_type) && row->n_max == n_max)
				return i;
		}
	}
	return SIZE_MAX;
}
