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
#include "schema/labels.h"
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

static int same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

static int same_series(const struct cell_run *a, const struct cell_run *b)
{
	return same_str(a->engine, b->engine) && same_str(a->model, b->model) &&
	       same_str(a->spec_type, b->spec_type) && a->n_max == b->n_max &&
	       same_str(a->endpoint, b->endpoint) && same_str(a->config, b->config);
}

/* The pools of runs[] (oldest first within a series): rep[] marks the newest run
 * of each series, pick[] every run pooled with it: all of them with all_runs,
 * else those carrying the newest run's tag (the newest alone when untagged);
 * either way only runs parity_mismatch() finds comparable with the newest.
 * Returns how many series. */
static size_t pools(const struct cell_run *r, size_t n, int all_runs, char *pick, char *rep)
{
	size_t i, j, series = 0;
	char *seen = tps_xcalloc(n ? n : 1, 1);

	for (i = n; i-- > 0;) {
		if (seen[i])
			continue;
		rep[i] = pick[i] = 1;
		series++;
		for (j = 0; j < i; j++) {
			struct parity_side a, b;
			struct parity_diff d;

			if (seen[j] || !same_series(&r[i], &r[j]))
				continue;
			seen[j] = 1;
			/* As compare: a run at another ctx, n_predict, GGUF or prompt
			 * set than the newest is not pooled with it. */
			pair_side_of(&r[i], &a);
			pair_side_of(&r[j], &b);
			pick[j] = (char)((all_runs || (r[i].tag && *r[i].tag &&
						       same_str(r[i].tag, r[j].tag))) &&
					 !parity_mismatch(&a, &b, &d));
		}
		seen[i] = 1;
	}
	free(seen);
	return series;
}

/* Points cell c at the instances of its pool: the picked runs of the series of
 * runs[last], oldest first, with their values. */
static int load_pool(struct store *s, const struct gate_load_opts *o, struct gate_set *set,
		     const struct cell_run *runs, const struct parity_side *sides, size_t last,
		     const char *pick, size_t *n_inst, struct gate_cell *c)
{
	size_t j, first = *n_inst;
	int m;

	for (j = 0; j <= last; j++) {
		struct gate_instance *in;

		if (!pick[j] || !same_series(&runs[j], &runs[last]))
			continue;
		in = &set->inst[(*n_inst)++];
		memset(in, 0, sizeof(*in));
		in->side = &sides[j];
		for (m = 0; m < GATE_N_METRICS; m++) {
			if (!o->metrics[m] || (m == GATE_ACCEPT && sweep_rung_is_base(runs[j].n_max)))
				continue;
			if (load_values(s, set, &runs[j], m, &in->values[m]) < 0)
				return -1;
		}
	}
	c->inst = &set->inst[first];
	c->n_inst = *n_inst - first;
	return 0;
}

/* Fills one cell per pool of runs[] (rep[] marks them); cand adds the floors,
 * flags and history. */
static int load_cells(struct store *s, const struct gate_load_opts *o, struct gate_set *set,
		      const struct cell_run *runs, size_t n_runs, const struct parity_side *sides,
		      const char *rep, const char *pick, struct gate_cell *cells, size_t *n_inst,
		      int cand)
{
	size_t i, k = 0;
	int m;

	for (i = 0; i < n_runs; i++) {
		const struct cell_run *r = &runs[i];
		struct gate_cell *c;

		if (!rep[i])
			continue;
		c = &cells[k++];
		if (load_pool(s, o, set, runs, sides, i, pick, n_inst, c) < 0)
			return -1;

		pair_side_of(r, &c->side);
		c->n_samples = r->n_samples;
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
	char *pick = NULL, *rep = NULL;
	size_t i, nc, nb, n_inst = 0;
	int ex, m, ret = -1;

	memset(out, 0, sizeof(*out));
	if ((ex = store_baseline_exists(s, o->baseline)) < 0)
		return -1;
	if (!ex) {
		/* Not there: the check's error line lists the baselines there are. */
		store_label_check(s, STORE_LABEL_BASELINE, o->baseline, "--baseline");
		return -1;
	}
	if (store_label_check(s, STORE_LABEL_ENGINE, o->engine, "--engine") != 1 ||
	    (o->model && store_label_check(s, STORE_LABEL_MODEL, o->model, "--model") != 1) ||
	    (o->tag && store_label_check(s, STORE_LABEL_TAG, o->tag, "--tag") != 1))
		return -1;
	fc.engine = o->engine;
	fc.tag = o->tag;
	fc.batch = o->batch;
	fc.model = o->model;
	fc.all = 1;
	fb.baseline = o->baseline;
	fb.model = o->model;
	fb.all = 1;
	fh.engine = o->engine;
	fh.model = o->model;
	if (store_cell_runs(s, &fc, &out->cand_runs, &out->n_cand_runs) < 0 ||
	    store_cell_runs(s, &fb, &out->base_runs, &out->n_base_runs) < 0)
		return -1;
	store_runs_canon_config(out->cand_runs, out->n_cand_runs, o->ignore_config,
				&out->ignored[0]);
	store_runs_canon_config(out->base_runs, out->n_base_runs, o->ignore_config,
				&out->ignored[1]);
	nc = out->n_cand_runs;
	nb = out->n_base_runs;
	for (i = 0; i < nc + nb; i++) {
		if (store_cell_outputs(s, i < nc ? &out->cand_runs[i] : &out->base_runs[i - nc]) < 0)
			return -1;
	}
	out->sides = tps_xcalloc(nc + nb + 1, sizeof(*out->sides));
	out->inst = tps_xcalloc(nc + nb + 1, sizeof(*out->inst));
	for (i = 0; i < nc + nb; i++) {
		const struct cell_run *r = i < nc ? &out->cand_runs[i] : &out->base_runs[i - nc];
		pair_side_of(r, &out->sides[i]);
		store_run_round_batch(r, &out->sides[i].round, &out->sides[i].batch);
	}
	pick = tps_xcalloc(nc + nb + 1, 1);
	rep = tps_xcalloc(nc + nb + 1, 1);
	out->n_cand = pools(out->cand_runs, nc, o->tag || o->batch, pick, rep);
	out->n_base = pools(out->base_runs, nb, 1, pick + nc, rep + nc);
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
			goto out;
	}
	out->cand = tps_xcalloc(out->n_cand ? out->n_cand : 1, sizeof(*out->cand));
	out->base = tps_xcalloc(out->n_base ? out->n_base : 1, sizeof(*out->base));
	if (load_cells(s, o, out, out->cand_runs, nc, out->sides, rep, pick, out->cand, &n_inst,
		       1) < 0 ||
	    load_cells(s, o, out, out->base_runs, nb, out->sides + nc, rep + nc, pick + nc,
		       out->base, &n_inst, 0) < 0)
		goto out;
	/* --sweep pools the candidate's rungs as 'tpsdb sweep' does, so both say the
	 * same of one series. */
	if (o->decode && store_load_series(s, &fc, o->batch, &out->decode, &out->n_decode) < 0)
		goto out;
	out->in.cand = out->cand;
	out->in.n_cand = out->n_cand;
	out->in.base = out->base;
	out->in.n_base = out->n_base;
	ret = 0;
out:
	free(pick);
	free(rep);
	return ret;
}

void gate_set_release(struct gate_set *set)
{
	size_t i;
	int m;

	if (!set)
		return;
	free(set->ignored[0]);
	free(set->ignored[1]);
	cell_runs_free(set->cand_runs, set->n_cand_runs);
	cell_runs_free(set->base_runs, set->n_base_runs);
	free(set->sides);
	free(set->inst);
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
