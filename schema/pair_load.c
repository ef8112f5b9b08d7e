/* pair_load.c: the store side of compare, report verdicts and calibrate: picks the
 * runs (store_cell_runs), matches them into cells, reads each cell's usable values
 * (store_cell_values) and noise floors (store_noise_get), and hands them over as
 * plain analyze/parity.h structs. No decision is taken here. */
#include "schema/pair_load.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/config.h"
#include "schema/noise.h"
#include "schema/record.h"
#include "tpsdb.h"

void pair_side_of(const struct cell_run *r, struct parity_side *out)
{
	memset(out, 0, sizeof(*out));
	out->uuid = r->uuid;
	out->engine = r->engine;
	out->model = r->model;
	out->model_sha256 = r->model_sha256;
	out->spec_type = r->spec_type;
	out->endpoint = r->endpoint;
	out->prompt_set = r->prompt_set;
	out->config = r->config;
	out->n_max = r->n_max;
	out->ctx = r->ctx;
	out->n_predict = r->n_predict;
	out->started_at = r->started_at;
	out->looks_to = r->looks_to == TPS_NULL ? 0 : r->looks_to;
	out->round = INT64_MIN;
	out->env_flags = r->env_flags;
	out->n_degenerate = r->n_degenerate;
	out->temperature = r->temperature;
	out->outputs = r->outputs;
	out->n_outputs = r->n_outputs;
}

void store_runs_canon_config(struct cell_run *r, size_t n, const char *ignore, char **ignored)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char *c;

		if (ignored && ignore)
			config_collect(ignored, r[i].config, ignore);
		c = config_canon(r[i].config, ignore);
		free(r[i].config);
		r[i].config = c;
	}
}

static int same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* One cell: the key two engines' runs are matched on. */
static int same_cell(const struct cell_run *a, const struct cell_run *b)
{
	return same_str(a->model, b->model) && same_str(a->spec_type, b->spec_type) &&
	       a->n_max == b->n_max && same_str(a->endpoint, b->endpoint) &&
	       same_str(a->config, b->config);
}

/* One series: the same cell measured by the same engine. */
static int same_series(const struct cell_run *a, const struct cell_run *b)
{
	return same_str(a->engine, b->engine) && same_cell(a, b);
}

static void sides_of(struct pair_set *p, int k)
{
	size_t i;

	p->sides[k] = tps_xcalloc(p->n_runs[k] ? p->n_runs[k] : 1, sizeof(*p->sides[k]));
	for (i = 0; i < p->n_runs[k]; i++)
		pair_side_of(&p->runs[k][i], &p->sides[k][i]);
}

/* Reads one run's usable values of metric m into *out, the set owning them. */
static int load_series(struct store *s, struct pair_set *p, const struct cell_run *r,
		       enum parity_metric m, struct parity_series *out)
{
	struct cell_value *cv = NULL;
	struct parity_value *v = NULL;
	size_t n = 0, excluded = 0, i;

	if (store_cell_values(s, r->id, m == PARITY_METRIC_PP ? CELL_PP : CELL_TG, &cv, &n,
			      &excluded) < 0)
		return -1;
	if (n) {
		v = tps_xmalloc(n * sizeof(*v));
		for (i = 0; i < n; i++) {
			v[i].prompt_id = cv[i].prompt_id;
			v[i].rep = cv[i].rep;
			v[i].value = cv[i].value;
		}
		p->values = tps_xrealloc(p->values, (p->n_values + 1) * sizeof(*p->values));
		p->values[p->n_values++] = v;
	}
	free(cv);
	out->v = v;
	out->n = n;
	out->excluded = excluded;
	return 0;
}

/* Loads metric m of cell c (ours run a, vs run b); with_noise looks up the floor
 * of a's config. */
static int load_metric(struct store *s, struct pair_set *p, const struct cell_run *a,
		       const struct cell_run *b, enum parity_metric m, int with_noise,
		       struct parity_cell *c)
{
	double noise = NAN;
	int got = 0;

	if (load_series(s, p, a, m, &c->ours_values[m]) < 0 ||
	    load_series(s, p, b, m, &c->vs_values[m]) < 0)
		return -1;
	if (with_noise) {
		got = store_noise_get(s, a->model, a->spec_type, a->n_max, a->ctx, a->n_predict,
				      a->endpoint, m == PARITY_METRIC_PP ? "pp" : "tg", &noise,
				      NULL);
		if (got < 0)
			return -1;
	}
	c->noise_pct[m] = got ? noise : NAN;
	return 0;
}

static struct parity_cell *add_cell(struct pair_set *p, size_t *n, size_t ours, size_t vs)
{
	struct parity_cell *c;

	p->cells = tps_xrealloc(p->cells, (*n + 1) * sizeof(*p->cells));
	c = &p->cells[(*n)++];
	memset(c, 0, sizeof(*c));
	c->ours = ours;
	c->vs = vs;
	c->noise_pct[PARITY_METRIC_PP] = c->noise_pct[PARITY_METRIC_TG] = NAN;
	return c;
}

void store_run_round_batch(const struct cell_run *r, int64_t *round, const char **batch)
{
	*round = r->round;
	*batch = r->batch && *r->batch ? r->batch : NULL;
}

/* Whether a run of a series enters the pool whose newest run is last. */
static int picked(const struct parity_opts *o, const char *tag, const struct cell_run *last,
		  const struct cell_run *r, const struct parity_side *side)
{
	struct parity_side a, b;
	struct parity_diff d;

	if (o->batch && !(side->batch && !strcmp(side->batch, o->batch)))
		return 0;
	/* A batch names its runs: every run of it pools, whatever its tag. */
	if (!tag && !o->batch && r != last &&
	    !(last->tag && *last->tag && same_str(r->tag, last->tag)))
		return 0;
	pair_side_of(last, &a);
	pair_side_of(r, &b);
	return !parity_mismatch(&a, &b, &d);
}

/* Picks the pools of side k: for every series of runs[k], marks in pick[] the
 * runs pooled and in rep[] the newest of them. Returns the number of series. */
static size_t pick_pools(struct pair_set *p, int k, const struct parity_opts *o,
			 const char *tag, char *pick, char *rep)
{
	const struct cell_run *r = p->runs[k];
	size_t n = p->n_runs[k], i, j, series = 0;
	char *seen = tps_xcalloc(n ? n : 1, 1);

	for (i = n; i-- > 0;) {
		const struct cell_run *last = NULL;
		size_t last_i = 0;

		if (seen[i])
			continue;
		/* i is the newest run of its series: runs come oldest first. */
		for (j = i + 1; j-- > 0;) {
			if (seen[j] || !same_series(&r[i], &r[j]))
				continue;
			seen[j] = 1;
			if (o->batch && !picked(o, tag, &r[j], &r[j], &p->inst_sides[k][j]))
				continue;
			if (!last) {
				last = &r[j];
				last_i = j;
			}
			pick[j] = (char)picked(o, tag, last, &r[j], &p->inst_sides[k][j]);
		}
		if (last) {
			rep[last_i] = 1;
			series++;
		}
	}
	free(seen);
	return series;
}

/* Builds side k's representative sides (the pools' newest runs, in runs[k]'s
 * order) and the map from run index to rep index. */
static void reps_of(struct pair_set *p, int k, const char *rep, size_t *map, size_t *n_rep)
{
	size_t i, n = 0;

	p->sides[k] = tps_xcalloc(p->n_runs[k] ? p->n_runs[k] : 1, sizeof(*p->sides[k]));
	for (i = 0; i < p->n_runs[k]; i++) {
		map[i] = SIZE_MAX;
		if (rep[i]) {
			p->sides[k][n] = p->inst_sides[k][i];
			map[i] = n++;
		}
	}
	*n_rep = n;
}

/* Fills the instances of one side of cell c: the picked runs of the series of
 * run `last`, oldest first. */
static int load_pool(struct store *s, struct pair_set *p, const struct parity_opts *o, int k,
		     size_t last, const char *pick, size_t *n_inst, size_t *count)
{
	const struct cell_run *r = p->runs[k];
	size_t j;

	*count = 0;
	for (j = 0; j <= last; j++) {
		struct parity_instance *in;

		if (!pick[j] || !same_series(&r[j], &r[last]))
			continue;
		in = &p->inst[(*n_inst)++];
		memset(in, 0, sizeof(*in));
		in->side = &p->inst_sides[k][j];
		(*count)++;
		if ((o->metrics & PARITY_PP) &&
		    load_series(s, p, &r[j], PARITY_METRIC_PP, &in->values[PARITY_METRIC_PP]) < 0)
			return -1;
		if ((o->metrics & PARITY_TG) &&
		    load_series(s, p, &r[j], PARITY_METRIC_TG, &in->values[PARITY_METRIC_TG]) < 0)
			return -1;
	}
	return 0;
}

int store_pair_load(struct store *s, const struct parity_opts *o, struct pair_set *out)
{
	struct cell_filter fa = { 0 }, fb;
	char *used = NULL, *pick[2] = { NULL, NULL }, *rep[2] = { NULL, NULL };
	size_t *map[2] = { NULL, NULL }, *run_of[2] = { NULL, NULL }, n_rep[2] = { 0, 0 };
	size_t i, j, k, n = 0, n_inst = 0;
	size_t *inst_at = NULL;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	fa.engine = o->ours;
	fa.model = o->model;
	fa.host = o->host;
	fa.tag = o->ours_tag;
	fa.all = 1;
	fb = fa;
	fb.engine = o->vs;
	fb.tag = o->vs_tag;
	if (store_cell_runs(s, &fa, &out->runs[0], &out->n_runs[0]) < 0 ||
	    store_cell_runs(s, &fb, &out->runs[1], &out->n_runs[1]) < 0)
		goto out;
	for (k = 0; k < 2; k++) {
		store_runs_canon_config(out->runs[k], out->n_runs[k], o->ignore_config,
					&out->ignored[k]);
		for (i = 0; i < out->n_runs[k]; i++) {
			if (store_cell_outputs(s, &out->runs[k][i]) < 0)
				goto out;
		}
	}
	out->inst = tps_xcalloc(out->n_runs[0] + out->n_runs[1] + 1, sizeof(*out->inst));
	for (k = 0; k < 2; k++) {
		size_t nr = out->n_runs[k] ? out->n_runs[k] : 1;

		out->inst_sides[k] = tps_xcalloc(nr, sizeof(*out->inst_sides[k]));
		for (i = 0; i < out->n_runs[k]; i++) {
			pair_side_of(&out->runs[k][i], &out->inst_sides[k][i]);
			store_run_round_batch(&out->runs[k][i], &out->inst_sides[k][i].round,
					      &out->inst_sides[k][i].batch);
		}
		pick[k] = tps_xcalloc(nr, 1);
		rep[k] = tps_xcalloc(nr, 1);
		map[k] = tps_xcalloc(nr, sizeof(*map[k]));
		run_of[k] = tps_xcalloc(nr, sizeof(*run_of[k]));
		pick_pools(out, k, o, k ? o->vs_tag : o->ours_tag, pick[k], rep[k]);
		reps_of(out, k, rep[k], map[k], &n_rep[k]);
		for (i = 0; i < out->n_runs[k]; i++)
			if (map[k][i] != SIZE_MAX)
				run_of[k][map[k][i]] = i;
	}
	used = tps_xcalloc(n_rep[1] ? n_rep[1] : 1, 1);
	for (i = 0; i < n_rep[0]; i++) {
		const struct cell_run *a = &out->runs[0][run_of[0][i]], *b;
		struct parity_cell *c;
		size_t cnt;

		for (j = 0; j < n_rep[1]; j++)
			if (!used[j] && same_cell(a, &out->runs[1][run_of[1][j]]))
				break;
		if (j == n_rep[1])
			continue;
		used[j] = 1;
		b = &out->runs[1][run_of[1][j]];
		c = add_cell(out, &n, i, j);
		if ((o->metrics & PARITY_PP) &&
		    load_metric(s, out, a, b, PARITY_METRIC_PP, 1, c) < 0)
			goto out;
		if ((o->metrics & PARITY_TG) &&
		    load_metric(s, out, a, b, PARITY_METRIC_TG, 1, c) < 0)
			goto out;
		/* Indexes, not pointers, until the cells stop moving. */
		inst_at = tps_xrealloc(inst_at, 2 * n * sizeof(*inst_at));
		inst_at[2 * (n - 1)] = n_inst;
		if (load_pool(s, out, o, 0, run_of[0][i], pick[0], &n_inst, &cnt) < 0)
			goto out;
		c = &out->cells[n - 1];
		c->n_ours_inst = cnt;
		inst_at[2 * (n - 1) + 1] = n_inst;
		if (load_pool(s, out, o, 1, run_of[1][j], pick[1], &n_inst, &cnt) < 0)
			goto out;
		c = &out->cells[n - 1];
		c->n_vs_inst = cnt;
	}
	for (i = 0; i < n; i++) {
		out->cells[i].ours_inst = &out->inst[inst_at[2 * i]];
		out->cells[i].vs_inst = &out->inst[inst_at[2 * i + 1]];
	}
	ret = 0;
out:
	for (k = 0; k < 2; k++) {
		free(pick[k]);
		free(rep[k]);
		free(map[k]);
		free(run_of[k]);
	}
	free(inst_at);
	free(used);
	if (ret < 0)
		for (i = 0; i < n; i++)
			out->cells[i].n_ours_inst = out->cells[i].n_vs_inst = 0;
	out->in.ours = out->sides[0];
	out->in.vs = out->sides[1];
	out->in.n_ours = out->sides[0] ? n_rep[0] : 0;
	out->in.n_vs = out->sides[1] ? n_rep[1] : 0;
	out->in.cells = out->cells;
	out->in.n_cells = n;
	return ret;
}

int store_aa_load(struct store *s, const struct cell_filter *f, struct pair_set *out)
{
	struct cell_filter fa = *f;
	const struct cell_run *r;
	size_t i, n = 0, nr;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	fa.all = 1;
	if (store_cell_runs(s, &fa, &out->runs[0], &out->n_runs[0]) < 0)
		goto out;
	sides_of(out, 0);
	r = out->runs[0];
	nr = out->n_runs[0];
	/* Runs come grouped by series, oldest first: the last two of a group are the
	 * A/A pair. */
	for (i = 1; i < nr; i++) {
		struct parity_cell *c;

		if (!same_series(&r[i - 1], &r[i]) || (i + 1 < nr && same_series(&r[i], &r[i + 1])))
			continue;
		c = add_cell(out, &n, i - 1, i);
		if (load_metric(s, out, &r[i - 1], &r[i], PARITY_METRIC_PP, 0, c) < 0 ||
		    load_metric(s, out, &r[i - 1], &r[i], PARITY_METRIC_TG, 0, c) < 0)
			goto out;
	}
	ret = 0;
out:
	out->in.ours = out->in.vs = out->sides[0];
	out->in.n_ours = out->in.n_vs = out->sides[0] ? out->n_runs[0] : 0;
	out->in.cells = out->cells;
	out->in.n_cells = n;
	return ret;
}

void pair_set_release(struct pair_set *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n_values; i++)
		free(p->values[i]);
	free(p->values);
	free(p->cells);
	free(p->inst);
	for (i = 0; i < 2; i++) {
		free(p->ignored[i]);
		free(p->sides[i]);
		free(p->inst_sides[i]);
		cell_runs_free(p->runs[i], p->n_runs[i]);
	}
	memset(p, 0, sizeof(*p));
}
