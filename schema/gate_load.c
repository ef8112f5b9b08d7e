/* gate_load.c: the store side of `tpsdb gate`: picks the candidate's and the
 * baseline's runs (store_cell_runs), reads their values, noise floors, flag counts,
 * history and decode runs, and points analyze/gate.h's cells at them. No decision
 * is taken here. */
#include "schema/gate_load.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/sweep.h"
#include "schema/baseline.h"
#include "schema/noise.h"
#include "schema/pair_load.h"
#include "tpsdb.h"

/* Reads one run's usable values of metric m into *out, the set owning them. */
static int load_values(struct store *s, struct gate_set *set, const struct cell_run *r, int m,
		       struct gate_values *out)
{
	struct cell_value *cv = NULL;
	size_t n = 0, bad = 0, i;
	double *v;
	int rc;

	if (m == GATE_ACCEPT)
		rc = store_cell_accept_values(s, r->id, &cv, &n, &bad);
	else
		rc = store_cell_values(s, r->id, m == GATE_PP ? CELL_PP : CELL_TG, &cv, &n, &bad);
	if (rc < 0)
		return -1;
	v = tps_xmalloc((n ? n : 1) * sizeof(*v));
	for (i = 0; i < n; i++)
		v[i] = cv[i].value;
	free(cv);
	set->values = tps_xrealloc(set->values, (set->n_values + 1) * sizeof(*set->values));
	set->values[set->n_values++] = v;
	out->v = v;
	out->n = n;
	return 0;
}

/* The history view of the candidate's cell c among the series of metric m. */
static void point_history(struct gate_set *set, int m, struct gate_cell *c)
{
	const struct history_series *se = NULL;
	struct gate_hist_run *v;
	size_t i;

	for (i = 0; i < set->n_hist[m] && !se; i++) {
		const struct history_series *x = &set->hist[m][i];
		if (!strcmp(x->engine, c->side.engine) && !strcmp(x->model, c->side.model) &&
		    !strcmp(x->spec_type, c->side.spec_type) && x->n_max == c->side.n_max &&
		    !strcmp(x->endpoint, c->side.endpoint))
			se = x;
	}
	if (!se || !se->n)
		return;
	v = tps_xcalloc(se->n, sizeof(*v));
	for (i = 0; i < se->n; i++) {
		v[i].uuid = se->runs[i].uuid;
		v[i].tag = se->runs[i].tag;
		v[i].values = se->runs[i].values;
		v[i].n = se->runs[i].n;
	}
	set->hist_runs = tps_xrealloc(set->hist_runs,
				      (set->n_hist_runs + 1) * sizeof(*set->hist_runs));
	set->hist_runs[set->n_hist_runs++] = v;
	c->hist[m] = v;
	c->n_hist[m] = se->n;
}

/* Fills cells[i] from runs[i]; cand adds the floors, flags and history. */
static int load_cells(struct store *s, const struct gate_load_opts *o, struct gate_set *set,
		      const struct cell_run *runs, struct gate_cell *cells, size_t n, int cand)
{
	size_t i;
	int m;

	for (i = 0; i < n; i++) {
		const struct cell_run *r = &runs[i];
		struct gate_cell *c = &cells[i];

		pair_side_of(r, &c->side);
		for (m = 0; m < GATE_N_METRICS; m++) {
			c->noise_pct[m] = NAN;
			if (!o->metrics[m] || (m == GATE_ACCEPT && sweep_rung_is_base(r->n_max)))
				continue;
			if (load_values(s, set, r, m, &c->values[m]) < 0)
				return -1;
			if (!cand)
				continue;
			if (m != GATE_ACCEPT) {
				int got = store_noise_get(s, r->model, r->spec_type, r->n_max, r->ctx,
							  r->n_predict, r->endpoint,
							  gate_metric_name(m), &c->noise_pct[m], NULL);
				if (got < 0)
					return -1;
				if (!got)
					c->noise_pct[m] = NAN;
			}
			if (o->history)
				point_history(set, m, c);
		}
		if (cand && store_cell_flag_counts(s, r->id, c->flag_counts, GATE_N_FLAGS,
						   &c->n_samples) < 0)
			return -1;
	}
	return 0;
}

int store_gate_load(struct store *s, const struct gate_load_opts *o, struct gate_set *out)
{
	struct cell_filter fc = { 0 }, fb = { 0 }, fh = { 0 };
	int ex, m;

	memset(out, 0, sizeof(*out));
	if ((ex = store_baseline_exists(s, o->baseline)) < 0)
		return -1;
	if (!ex)
		return tps_error("no baseline named '%s' (see 'tpsdb baseline list')", o->baseline);
	fc.engine = o->engine;
	fc.tag = o->tag;
	fc.model = o->model;
	fb.baseline = o->baseline;
	fb.model = o->model;
	fh.engine = o->engine;
	fh.model = o->model;
	if (store_cell_runs(s, &fc, &out->cand_runs, &out->n_cand) < 0 ||
	    store_cell_runs(s, &fb, &out->base_runs, &out->n_base) < 0)
		return -1;
	for (m = 0; o->history && m < GATE_N_METRICS; m++) {
		int rc;
		if (!o->metrics[m])
			continue;
		if (m == GATE_ACCEPT)
			rc = store_history_accept(s, &fh, &out->hist[m], &out->n_hist[m]);
		else
			rc = store_history(s, &fh, m == GATE_PP ? CELL_PP : CELL_TG, &out->hist[m],
					   &out->n_hist[m]);
		if (rc < 0)
			return -1;
	}
	out->cand = tps_xcalloc(out->n_cand ? out->n_cand : 1, sizeof(*out->cand));
	out->base = tps_xcalloc(out->n_base ? out->n_base : 1, sizeof(*out->base));
	if (load_cells(s, o, out, out->cand_runs, out->cand, out->n_cand, 1) < 0 ||
	    load_cells(s, o, out, out->base_runs, out->base, out->n_base, 0) < 0)
		return -1;
	if (o->decode && store_load_decode(s, &fc, &out->decode, &out->n_decode) < 0)
		return -1;
	out->in.cand = out->cand;
	out->in.n_cand = out->n_cand;
	out->in.base = out->base;
	out->in.n_base = out->n_base;
	return 0;
}

void gate_set_release(struct gate_set *set)
{
	size_t i;
	int m;

	if (!set)
		return;
	cell_runs_free(set->cand_runs, set->n_cand);
	cell_runs_free(set->base_runs, set->n_base);
	free(set->cand);
	free(set->base);
	for (i = 0; i < set->n_values; i++)
		free(set->values[i]);
	free(set->values);
	for (m = 0; m < GATE_N_METRICS; m++)
		history_free(set->hist[m], set->n_hist[m]);
	for (i = 0; i < set->n_hist_runs; i++)
		free(set->hist_runs[i]);
	free(set->hist_runs);
	store_decode_free(set->decode, set->n_decode);
	memset(set, 0, sizeof(*set));
}
