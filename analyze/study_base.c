/* study_base.c: the base table, one row per model and endpoint and one cell per
 * engine: the estimate's centres and the verdicts of each metric, of every engine
 * against the reference engine, or without one of ours against every other
 * engine, the very numbers 'tpsdb compare' prints (the latest base run's medians
 * only where no comparison was made). */
#include "analyze/study_int.h"
#include "analyze/stats.h"
#include "analyze/trend.h"
#include "tpsdb.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static struct tables_base_row *base_row(struct study *t, const char *model, const char *endpoint)
{
	struct tables_base_row *row;
	size_t i;

	for (i = 0; i < t->n_base; i++) {
		if (study_same(t->base[i].model, model) && study_same(t->base[i].endpoint, endpoint))
			return &t->base[i];
	}
	t->base = tps_xrealloc(t->base, (t->n_base + 1) * sizeof(*t->base));
	row = &t->base[t->n_base++];
	row->model = tps_xstrdup(model ? model : "");
	row->endpoint = tps_xstrdup(endpoint ? endpoint : "");
	row->cells = tps_xcalloc(t->n_engines, sizeof(*row->cells));
	return row;
}

/* completion first: it is the study's endpoint; the others follow by name. */
static int endpoint_cmp(const char *a, const char *b)
{
	int ca = study_same(a, "completion"), cb = study_same(b, "completion");

	if (ca != cb)
		return ca ? -1 : 1;
	return strcmp(a, b);
}

static int base_cmp(const void *pa, const void *pb)
{
	const struct tables_base_row *a = pa, *b = pb;
	int c = strcmp(a->model, b->model);

	return c ? c : endpoint_cmp(a->endpoint, b->endpoint);
}

int study_build_cells(const struct study_opts *o, struct study *t,
		      const struct study_input *in)
{
	size_t i;

	for (i = 0; i < in->n_pools; i++) {
		const struct run *r = pool_face(&in->pools[i]);
		struct tables_base_cell *c;
		long e;
		if (!r || r->n_max != STUDY_NULL || !study_same(r->spec_type, "") ||
		    !study_wanted(o, r->engine, r->model) || (e = study_engine_index(t, r->engine)) < 0)
			continue;
		c = &base_row(t, r->model, r->endpoint)->cells[e];
		if (c->present)
			continue; /* one pool per cell and engine: the first config */
		c->present = 1;
		tps_copy(c->run, sizeof(c->run), r->uuid, SIZE_MAX);
		c->tag = tps_xstrdup(r->tag ? r->tag : "");
		c->pp = run_median(r, RUN_PP);
		c->tg = run_median(r, RUN_TG);
		study_cell_machines(c, &in->pools[i]);
	}
	if (t->n_base > 1)
		qsort(t->base, t->n_base, sizeof(*t->base), base_cmp);
	return 0;
}

/* The rows of pr into the base cells of column e, the engine judged against (or
 * for) in this comparison: e is pr's ours side with a reference, its vs side
 * without one (ours against e). other is the column of the comparison's other
 * engine (-1: not a column), whose cell takes its centre from the first
 * comparison that has one. */
/* Cell c shows the estimate of pool p: its run is p's newest, and its tag; its
 * machines are p's. */
static void take_run(struct tables_base_cell *c, const struct pool *p)
{
	const struct run *f = p ? pool_face(p) : NULL;

	study_cell_machines(c, p);
	if (!f || study_same(c->run, f->uuid))
		return;
	tps_copy(c->run, sizeof(c->run), f->uuid, SIZE_MAX);
	free(c->tag);
	c->tag = tps_xstrdup(f->tag ? f->tag : "");
}

static void take_verdicts(struct study *t, size_t e, long other, int e_is_ours,
			  const struct parity_result *pr)
{
	size_t i, k;

	for (i = 0; i < pr->n_rows; i++) {
		const struct parity_row *pw = &pr->rows[i];
		for (k = 0; k < t->n_base; k++) {
			struct tables_base_cell *c = &t->base[k].cells[e];
			struct tables_verdict *v;
			if (pw->n_max != STUDY_NULL || !study_same(pw->spec_type, "") ||
			    !study_same(pw->model, t->base[k].model) ||
			    !study_same(pw->endpoint, t->base[k].endpoint) || !c->present)
				continue;
			v = !strcmp(pw->metric, "pp") ? &c->vpp : &c->vtg;
			v->has = pw->v.kind != VERDICT_UNKNOWN;
			v->v = pw->v;
			v->clean = pw->newest_clean;
			c->forced |= pw->forced || pw->across;
			/* The value beside a verdict is the estimate's own centre, as
			 * compare prints it; the other engine's cell (the reference, or
			 * ours) takes its centre from the first comparison that has one. */
			if (v->has) {
				int pp = !strcmp(pw->metric, "pp");
				struct tables_base_cell *rc = other >= 0 ?
					&t->base[k].cells[other] : NULL;

				*(pp ? &c->pp : &c->tg) = e_is_ours ? pw->ours_median : pw->vs_median;
				*(pp ? &c->est_pp : &c->est_tg) = 1;
				/* The run behind the value: the comparison's (pools_pair() may
				 * take an older batch both measured than the engine's own
				 * newest). */
				take_run(c, e_is_ours ? pw->pool_ours : pw->pool_vs);
				if (rc && rc->present && !(pp ? rc->est_pp : rc->est_tg)) {
					*(pp ? &rc->pp : &rc->tg) = e_is_ours ? pw->vs_median :
									      pw->ours_median;
					*(pp ? &rc->est_pp : &rc->est_tg) = 1;
					take_run(rc, e_is_ours ? pw->pool_vs : pw->pool_ours);
				}
			}
		}
	}
	for (i = 0; i < pr->n_notes; i++) {
		const struct run *cs = pr->notes[i].cell;
		struct study_note *sn;
		if (pr->notes[i].kind != PARITY_NOTE_FORCED)
			continue;
		for (k = 0; k < t->n_base; k++) {
			struct tables_base_cell *c = &t->base[k].cells[e];
			if (c->present && c->forced && cs->n_max == STUDY_NULL &&
			    study_same(cs->spec_type, "") && study_same(cs->model, t->base[k].model) &&
			    study_same(cs->endpoint, t->base[k].endpoint))
				c->diff = pr->notes[i].diff;
		}
		/* The note borrows the input's sides, not the result's rows: it
		 * outlives pr. Its labels are the study's own. */
		t->notes = tps_xrealloc(t->notes, (t->n_notes + 1) * sizeof(*t->notes));
		sn = &t->notes[t->n_notes++];
		sn->note = pr->notes[i];
		sn->ours = e_is_ours ? t->engines[e].label : t->ours;
		sn->vs = e_is_ours ? t->ref : t->engines[e].label;
	}
}

/* The pools of engine (and of model, when not NULL) among p[0..n), copied into a
 * heap array of *k the caller frees. */
static struct pool *pools_of(const struct pool *p, size_t n, const char *engine,
			     const char *model, size_t *k)
{
	struct pool *v = tps_xcalloc(n + 1, sizeof(*v));

	*k = 0;
	for (size_t i = 0; i < n; i++) {
		const struct run *r = pool_face(&p[i]);

		if (r && study_same(r->engine, engine) && (!model || study_same(r->model, model)))
			v[(*k)++] = p[i];
	}
	return v;
}

/* Every spoiled row of pr gets the newest clean batch's answer of its cell from
 * the input's histories (none loaded: none). -1 for bad parameters. */
static int newest_clean(const struct study_input *in, const struct parity_opts *po,
			struct parity_result *pr)
{
	struct estimate_params ep;

	estimate_params_init(&ep);
	ep.band_pct = po->band_pct;
	for (size_t i = 0; i < pr->n_rows; i++) {
		struct parity_row *w = &pr->rows[i];
		const struct run *face = pool_face(w->pool_ours);
		const struct pool *ha, *hb;

		if (w->v.regression != VERDICT_REG_SPOILED || !face ||
		    study_same(po->ours, po->vs) ||
		    !(ha = pools_find_cell(in->hist, in->n_hist, po->ours, face)) ||
		    !(hb = pools_find_cell(in->hist, in->n_hist, po->vs, face)))
			continue;
		if (pool_newest_clean(ha, hb, 1, face, strcmp(w->metric, "pp") ? RUN_TG : RUN_PP,
				      &ep, &w->newest_clean) < 0)
			return -1;
	}
	return 0;
}

/* One comparison, ours_label's pools against vs_label's, per model asked for, into
 * the cells of column e (take_verdicts()). 0 ok, -1 with t->err set. */
static int judge(const struct study_opts *o, struct study *t, const struct study_input *in,
		 const char *ours_label, const char *vs_label, size_t e, long other, int e_is_ours)
{
	struct parity_result pr = { 0 };
	struct parity_opts po;
	struct parity_input pi;
	size_t m, nm = o->n_models ? o->n_models : 1;
	int ret = 0;

	for (m = 0; m < nm && !ret; m++) {
		const char *model = o->n_models ? o->models[m] : NULL;
		struct pool *a = pools_of(in->pools, in->n_pools, ours_label, model, &pi.n_ours);
		struct pool *b = pools_of(in->pools, in->n_pools, vs_label, model, &pi.n_vs);

		pi.ours = a;
		pi.vs = b;
		parity_opts_init(&po);
		po.ours = ours_label;
		po.vs = vs_label;
		/* A report must not stop at one odd cell: it says "not comparable" in
		 * its cell and lists the reason. */
		po.force = 1;
		/* Nor at a cell measured on two machines: "not comparable", naming them. */
		po.across_machines = 1;
		if (parity_decide(&pi, &po, &pr) < 0 || newest_clean(in, &po, &pr) < 0) {
			study_fail(&t->err, STUDY_PARITY, NULL, NULL);
			t->err.stop.stop = pr.stop;
			t->err.stop.stop_cell = pr.stop_cell;
			t->err.stop.stop_diff = pr.stop_diff;
			ret = -1;
		} else {
			take_verdicts(t, e, other, e_is_ours, &pr);
		}
		parity_result_release(&pr);
		free(a);
		free(b);
	}
	return ret;
}

int study_build_verdicts(const struct study_opts *o, struct study *t,
			 const struct study_input *in)
{
	const char *judged = t->ref ? t->ref : t->ours;
	long other = judged ? study_engine_index(t, judged) : -1;
	size_t e;

	if (!judged)
		return 0;
	for (e = 0; e < t->n_engines; e++) {
		const char *x = t->engines[e].label;

		if (study_same(x, judged))
			continue;
		if (t->ref ? judge(o, t, in, x, t->ref, e, other, 1) < 0 :
		    judge(o, t, in, t->ours, x, e, other, 0) < 0)
			return -1;
	}
	return 0;
}
