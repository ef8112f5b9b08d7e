/* plan_load.c: the store side of `tpsdb plan`: picks the runs (store_cell_runs),
 * groups them into cells, and reads each run's values (store_cell_values), wall
 * times, prompt count and duration. No decision is taken here. */
#include "schema/plan_load.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schema/store_int.h"
#include "tpsdb.h"

static int same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* One cell of a plan: runs alike in all that sets a request's cost and rate. */
static int same_cell(const struct cell_run *a, const struct cell_run *b)
{
	return same_str(a->model, b->model) && same_str(a->spec_type, b->spec_type) &&
	       a->n_max == b->n_max && same_str(a->endpoint, b->endpoint) &&
	       same_str(a->config, b->config) && a->ctx == b->ctx && a->n_predict == b->n_predict;
}

static void own(struct plan_set *p, void *v)
{
	p->owned = tps_xrealloc(p->owned, (p->n_owned + 1) * sizeof(*p->owned));
	p->owned[p->n_owned++] = v;
}

static int load_values(struct store *s, struct plan_set *p, int64_t run_id, enum plan_metric m,
		       struct plan_instance *in)
{
	struct cell_value *cv = NULL;
	struct plan_value *v;
	size_t n = 0, excluded = 0, i;

	if (store_cell_values(s, run_id, m == PLAN_PP ? CELL_PP : CELL_TG, &cv, &n, &excluded) < 0)
		return -1;
	v = tps_xcalloc(n + 1, sizeof(*v));
	for (i = 0; i < n; i++) {
		v[i].prompt_id = cv[i].prompt_id;
		v[i].rep = cv[i].rep;
		v[i].value = cv[i].value;
	}
	free(cv);
	own(p, v);
	in->v[m] = v;
	in->n[m] = n;
	return 0;
}

/* The wall times, request count, duration and distinct prompts of one run. */
static int load_cost(struct store *s, struct plan_set *p, int64_t run_id,
		     struct plan_instance *in, size_t *n_prompts)
{
	/* SQLite keeps a time as whole milliseconds; rounding each julianday back to
	 * them makes the difference exact, where subtracting two julian days of
	 * about 2.46e6 would lose some 0.04 ms. */
	static const char wall_sql[] = "SELECT wall_ms FROM sample WHERE run_id=:run ORDER BY id";
	static const char run_sql[] =
		"SELECT CASE WHEN status='complete' AND ended_at IS NOT NULL"
		" THEN round(julianday(ended_at) * 86400000.0) -"
		" round(julianday(started_at) * 86400000.0) END,"
		" (SELECT count(DISTINCT prompt_id) FROM sample WHERE run_id=:run)"
		" FROM run WHERE id=:run";
	sqlite3_stmt *st = store_stmt(s, wall_sql);
	double *w = NULL;
	size_t len = 0, cap = 0, all = 0;
	int rc;

	if (!st)
		return -1;
	store_bind_i64(st, ":run", run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		all++;
		if (sqlite3_column_type(st, 0) == SQLITE_NULL)
			continue;
		if (len == cap) {
			cap = cap ? 2 * cap : 32;
			w = tps_xrealloc(w, cap * sizeof(*w));
		}
		w[len++] = sqlite3_column_double(st, 0);
	}
	if (rc != SQLITE_DONE) {
		free(w);
		return store_fail(s, "cannot read wall times");
	}
	if (w)
		own(p, w);
	in->wall_ms = w;
	in->n_wall = len;
	in->n_samples = all;
	in->wall_sum_ms = 0;
	for (size_t i = 0; i < len; i++)
		in->wall_sum_ms += w[i];
	if (!(st = store_stmt(s, run_sql)))
		return -1;
	store_bind_i64(st, ":run", run_id);
	if (sqlite3_step(st) != SQLITE_ROW)
		return store_fail(s, "cannot read a run's duration");
	in->duration_ms = sqlite3_column_type(st, 0) == SQLITE_NULL ? NAN
								    : sqlite3_column_double(st, 0);
	if ((size_t)sqlite3_column_int64(st, 1) > *n_prompts)
		*n_prompts = (size_t)sqlite3_column_int64(st, 1);
	return 0;
}

int store_plan_load(struct store *s, const struct plan_filter *f, struct plan_set *out)
{
	const struct cell_run **key = NULL;
	size_t *cell_of[2] = { NULL, NULL }, *count = NULL, *at = NULL;
	size_t n_keys = 0, i, j, k, n_cells = 0, total = 0;
	int two = f->side[1] != NULL, ret = -1;
	size_t *new_index = NULL;

	memset(out, 0, sizeof(*out));
	out->in.side[0] = f->side[0];
	out->in.side[1] = f->side[1];
	for (k = 0; k < (size_t)(two ? 2 : 1); k++) {
		struct cell_filter cf = { 0 };

		cf.engine = f->side[k];
		cf.model = f->model;
		cf.tag = f->tag;
		cf.host = f->host;
		cf.batch = f->batch;
		cf.all = 1;
		if (store_cell_runs(s, &cf, &out->runs[k], &out->n_runs[k]) < 0)
			goto out;
	}
	/* The cells, in the store's order of side 0's runs. */
	for (k = 0; k < 2; k++) {
		cell_of[k] = tps_xcalloc(out->n_runs[k] + 1, sizeof(*cell_of[k]));
		for (i = 0; i < out->n_runs[k]; i++) {
			for (j = 0; j < n_keys; j++)
				if (same_cell(key[j], &out->runs[k][i]))
					break;
			if (j == n_keys) {
				key = tps_xrealloc(key, (n_keys + 1) * sizeof(*key));
				key[n_keys++] = &out->runs[k][i];
			}
			cell_of[k][i] = j;
		}
	}
	count = tps_xcalloc(2 * n_keys + 1, sizeof(*count));
	for (k = 0; k < 2; k++)
		for (i = 0; i < out->n_runs[k]; i++)
			count[2 * cell_of[k][i] + k]++;
	new_index = tps_xcalloc(n_keys + 1, sizeof(*new_index));
	at = tps_xcalloc(n_keys + 1, sizeof(*at));
	for (j = 0; j < n_keys; j++) {
		new_index[j] = SIZE_MAX;
		if (!count[2 * j] || (two && !count[2 * j + 1]))
			continue;
		new_index[j] = n_cells++;
		at[j] = total;
		total += count[2 * j] + count[2 * j + 1];
	}
	out->cells = tps_xcalloc(n_cells + 1, sizeof(*out->cells));
	out->inst = tps_xcalloc(total + 1, sizeof(*out->inst));
	for (j = 0; j < n_keys; j++) {
		struct plan_cell *c;

		if (new_index[j] == SIZE_MAX)
			continue;
		c = &out->cells[new_index[j]];
		c->model = key[j]->model;
		c->spec_type = key[j]->spec_type;
		c->endpoint = key[j]->endpoint;
		c->config = key[j]->config;
		c->n_max = key[j]->n_max;
		c->ctx = key[j]->ctx;
		c->n_predict = key[j]->n_predict;
		c->inst = &out->inst[at[j]];
	}
	for (k = 0; k < 2; k++) {
		for (i = 0; i < out->n_runs[k]; i++) {
			size_t ci = new_index[cell_of[k][i]];
			struct plan_cell *c;
			struct plan_instance *in;
			int64_t id = out->runs[k][i].id;

			if (ci == SIZE_MAX)
				continue;
			c = &out->cells[ci];
			in = &out->inst[at[cell_of[k][i]] + c->n_inst++];
			in->side = (int)k;
			if (load_values(s, out, id, PLAN_PP, in) < 0 ||
			    load_values(s, out, id, PLAN_TG, in) < 0 ||
			    load_cost(s, out, id, in, &c->n_prompts) < 0)
				goto out;
		}
	}
	out->in.cells = out->cells;
	out->in.n_cells = n_cells;
	ret = 0;
out:
	free(key);
	free(cell_of[0]);
	free(cell_of[1]);
	free(count);
	free(at);
	free(new_index);
	return ret;
}

void plan_set_release(struct plan_set *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n_owned; i++)
		free(p->owned[i]);
	free(p->owned);
	free(p->cells);
	free(p->inst);
	for (i = 0; i < 2; i++)
		cell_runs_free(p->runs[i], p->n_runs[i]);
	memset(p, 0, sizeof(*p));
}
