/* series_load.c: the runs of the speculative series and their decode figures: one
 * store_cell_runs() listing, the pool of each cell picked from it, then per run its
 * usable decode values and the SQL sums of its draft counts, so a long sweep hands
 * over a few numbers per run. */
#include "schema/series_load.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/parity.h"
#include "schema/pair_load.h"
#include "schema/store_int.h"
#include "tpsdb.h"

/* The round and batch of run id. The integration point until struct cell_run
 * carries them (migration 0003 stores them in run.round and run.batch). */
static int run_round_batch(struct store *s, int64_t id, int64_t *round, char **batch)
{
	static const char sql[] = "SELECT round, batch FROM run WHERE id=:id";
	sqlite3_stmt *st = store_stmt(s, sql);

	*round = TPS_NULL;
	*batch = NULL;
	if (!st)
		return -1;
	store_bind_i64(st, ":id", id);
	if (sqlite3_step(st) != SQLITE_ROW)
		return store_fail(s, "cannot read a run's round");
	*round = store_col_i64(st, 0);
	*batch = store_col_text(st, 1);
	return 0;
}

static int same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

static int same_cell(const struct cell_run *a, const struct cell_run *b)
{
	return same_str(a->engine, b->engine) && same_str(a->model, b->model) &&
	       same_str(a->spec_type, b->spec_type) && a->n_max == b->n_max &&
	       same_str(a->endpoint, b->endpoint);
}

/* Whether run r joins the pool whose newest run is last. */
static int pooled(const struct cell_filter *f, const struct cell_run *last,
		  const struct cell_run *r)
{
	struct parity_side a, b;
	struct parity_diff d;

	if (!f->tag && r != last && !(last->tag && *last->tag && same_str(r->tag, last->tag)))
		return 0;
	pair_side_of(last, &a);
	pair_side_of(r, &b);
	return !parity_mismatch(&a, &b, &d);
}

/* Marks in pick[] the runs of runs[0..n) (oldest first in each cell) that their
 * cell pools; in_batch[i] says whether run i may be pooled at all. */
static void pick_pools(const struct cell_filter *f, const struct cell_run *runs, size_t n,
		       const char *in_batch, char *pick)
{
	char *seen = tps_xcalloc(n ? n : 1, 1);
	size_t i, j;

	for (i = n; i-- > 0;) {
		const struct cell_run *last = NULL;

		if (seen[i])
			continue;
		for (j = i + 1; j-- > 0;) {
			if (seen[j] || !same_cell(&runs[i], &runs[j]))
				continue;
			seen[j] = 1;
			if (!in_batch[j])
				continue;
			if (!last)
				last = &runs[j];
			pick[j] = (char)pooled(f, last, &runs[j]);
		}
	}
	free(seen);
}

/* Per run of a listing: its round and batch. */
struct batch_info {
	int64_t *round;
	char **batch;
};

/* Moves runs[i] for every picked i into a store_decode array with its values and
 * sums (and, with rounds, its round and batch). */
static int load_runs(struct store *s, struct cell_run *runs, size_t nr, const char *pick,
		     const struct batch_info *bi, struct store_decode **out, size_t *n);

int store_load_decode(struct store *s, const struct cell_filter *f, struct store_decode **out,
		      size_t *n)
{
	struct cell_run *runs = NULL;
	size_t nr = 0;
	int ret = -1;

	*out = NULL;
	*n = 0;
	if (store_cell_runs(s, f, &runs, &nr) < 0)
		goto out;
	ret = load_runs(s, runs, nr, NULL, NULL, out, n);
out:
	cell_runs_free(runs, nr);
	return ret;
}

int store_load_series(struct store *s, const struct cell_filter *f, const char *batch,
		      struct store_decode **out, size_t *n)
{
	struct cell_filter fa = *f;
	struct cell_run *runs = NULL;
	struct batch_info bi = { NULL, NULL };
	char *pick = NULL, *in_batch = NULL;
	size_t nr = 0, i;
	int ret = -1;

	*out = NULL;
	*n = 0;
	fa.all = 1;
	if (store_cell_runs(s, &fa, &runs, &nr) < 0)
		goto out;
	bi.round = tps_xcalloc(nr ? nr : 1, sizeof(*bi.round));
	bi.batch = tps_xcalloc(nr ? nr : 1, sizeof(*bi.batch));
	pick = tps_xcalloc(nr ? nr : 1, 1);
	in_batch = tps_xcalloc(nr ? nr : 1, 1);
	for (i = 0; i < nr; i++) {
		if (run_round_batch(s, runs[i].id, &bi.round[i], &bi.batch[i]) < 0)
			goto out;
		in_batch[i] = !batch || (bi.batch[i] && !strcmp(bi.batch[i], batch));
	}
	pick_pools(f, runs, nr, in_batch, pick);
	ret = load_runs(s, runs, nr, pick, &bi, out, n);
out:
	for (i = 0; bi.batch && i < nr; i++)
		free(bi.batch[i]);
	free(bi.batch);
	free(bi.round);
	free(pick);
	free(in_batch);
	cell_runs_free(runs, nr);
	return ret;
}

static int load_runs(struct store *s, struct cell_run *runs, size_t nr, const char *pick,
		     const struct batch_info *bi, struct store_decode **out, size_t *n)
{
	struct store_decode *v = NULL;
	struct cell_value *cv = NULL;
	size_t done = 0, i, k;
	int ret = -1;

	if (nr)
		v = tps_xcalloc(nr, sizeof(*v));
	for (i = 0; i < nr; i++) {
		struct store_decode *d;
		size_t nv = 0, bad = 0;

		if (pick && !pick[i])
			continue;
		d = &v[done++];
		/* The strings move into v; runs keeps only its array. */
		d->run = runs[i];
		memset(&runs[i], 0, sizeof(runs[i]));
		d->round = bi ? bi->round[i] : TPS_NULL;
		if (bi) {
			d->batch = bi->batch[i];
			bi->batch[i] = NULL;
		}
		if (store_cell_values(s, d->run.id, CELL_TG, &cv, &nv, &bad) < 0 ||
		    store_cell_agg(s, d->run.id, &d->agg) < 0)
			goto out;
		d->values = tps_xmalloc((nv ? nv : 1) * sizeof(*d->values));
		d->keys = tps_xmalloc(2 * (nv ? nv : 1) * sizeof(*d->keys));
		for (k = 0; k < nv; k++) {
			d->values[k] = cv[k].value;
			d->keys[2 * k] = cv[k].prompt_id;
			d->keys[2 * k + 1] = cv[k].rep;
		}
		d->n_values = nv;
		d->n_excluded = bad;
		free(cv);
		cv = NULL;
	}
	*out = done ? v : NULL;
	*n = done;
	if (done)
		v = NULL;
	done = 0;
	ret = 0;
out:
	free(cv);
	store_decode_free(v, done);
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
		free(v[i].keys);
		free(v[i].batch);
	}
	free(v);
}
