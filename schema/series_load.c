/* series_load.c: the runs of the speculative series and their decode figures: one
 * store_cell_runs() listing, then per run its usable decode values and the SQL sums
 * of its draft counts, so a long sweep hands over a few numbers per rung. */
#include "schema/series_load.h"

#include <stdlib.h>
#include <string.h>

#include "tpsdb.h"

int store_load_decode(struct store *s, const struct cell_filter *f, struct store_decode **out,
		      size_t *n)
{
	struct store_decode *v = NULL;
	struct cell_run *runs = NULL;
	struct cell_value *cv = NULL;
	size_t nr = 0, done = 0, i, k;
	int ret = -1;

	*out = NULL;
	*n = 0;
	if (store_cell_runs(s, f, &runs, &nr) < 0)
		goto out;
	if (nr)
		v = tps_xcalloc(nr, sizeof(*v));
	for (i = 0; i < nr; i++) {
		struct store_decode *d = &v[i];
		size_t nv = 0, bad = 0;

		/* The strings move into v; runs keeps only its array. */
		d->run = runs[i];
		memset(&runs[i], 0, sizeof(runs[i]));
		done = i + 1;
		if (store_cell_values(s, d->run.id, CELL_TG, &cv, &nv, &bad) < 0 ||
		    store_cell_agg(s, d->run.id, &d->agg) < 0)
			goto out;
		d->values = tps_xmalloc((nv ? nv : 1) * sizeof(*d->values));
		for (k = 0; k < nv; k++)
			d->values[k] = cv[k].value;
		d->n_values = nv;
		d->n_excluded = bad;
		free(cv);
		cv = NULL;
	}
	*out = v;
	*n = nr;
	v = NULL;
	done = 0;
	ret = 0;
out:
	free(cv);
	store_decode_free(v, done);
	cell_runs_free(runs, nr);
	return ret;
}

void store_decode_free(struct store_decode *v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++) {
		cell_run_release(&v[i].run);
		free(v[i].values);
	}
	free(v);
}
