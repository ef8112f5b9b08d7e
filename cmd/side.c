/* side.c: a side of a decision loaded and pooled (side.h): the one sequence of
 * filter, load, pool and samples that compare, gate, sweep, report, check, plan
 * and collect --until-decided share. */
#include "cmd/side.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/envrule.h"
#include "analyze/gate.h"
#include "analyze/plan.h"
#include "analyze/trend.h"
#include "collect/loaderr.h"
#include "schema/catalog.h"
#include "schema/cellset.h"
#include "schema/store.h"
#include "tpsdb.h"

int side_load(struct store *s, const struct run_filter *f, const char *ignore, unsigned want,
	      struct side *out)
{
	memset(out, 0, sizeof(*out));
	if (store_cellset_load(s, f, &out->set) < 0)
		return -1;
	cellset_canon(&out->set, ignore, ignore ? &out->ignored : NULL);
	cellset_pools(&out->set, run_filter_chooses(f) ? POOL_ALL : POOL_NEWEST_BATCH,
		      &out->pools, &out->n_pools);
	if (!want)
		return 0;
	pools_want(out->pools, out->n_pools, want);
	return store_cellset_samples(s, &out->set);
}

int side_load_history(struct store *s, const struct run_filter *f, const char *ignore,
		      unsigned want, struct side *out)
{
	memset(out, 0, sizeof(*out));
	if (store_cellset_load(s, f, &out->set) < 0)
		return -1;
	cellset_canon(&out->set, ignore, NULL);
	cellset_pools(&out->set, POOL_ALL, &out->pools, &out->n_pools);
	/* f->limit is the history of one metric's: trend_history() applies it. */
	for (size_t i = 0; i < out->n_pools; i++)
		trend_order(&out->pools[i], 0);
	pools_want(out->pools, out->n_pools, want);
	return store_cellset_samples(s, &out->set);
}

void side_split_machines(struct side *sd)
{
	pools_split_machines(&sd->pools, &sd->n_pools);
	for (size_t i = 0; i < sd->n_pools; i++)
		trend_order(&sd->pools[i], 0);
}

void side_release(struct side *sd)
{
	if (!sd)
		return;
	pools_free(sd->pools, sd->n_pools);
	cellset_release(&sd->set);
	free(sd->ignored);
	memset(sd, 0, sizeof(*sd));
}

int side_parity(struct store *s, const struct run_filter *f, const char *ignore,
		const struct parity_opts *o, struct side sd[2], struct parity_result *res)
{
	struct parity_input in;
	int k;

	memset(sd, 0, 2 * sizeof(*sd));
	for (k = 0; k < 2; k++) {
		struct run_filter fk = f[k];

		fk.engine.v = k ? &o->vs : &o->ours;
		fk.engine.n = 1;
		if (side_load(s, &fk, ignore, 0, &sd[k]) < 0)
			return -1;
	}
	/* What each side's pools take, and what the pairing may take instead (the
	 * newest batch that measured both: pools_pair()). */
	for (k = 0; k < 2; k++)
		pools_want(sd[k].pools, sd[k].n_pools, RUN_LOAD_VALUES);
	pools_want_pairs(sd[0].pools, sd[0].n_pools, sd[1].pools, sd[1].n_pools,
			 RUN_LOAD_VALUES);
	for (k = 0; k < 2; k++) {
		if (store_cellset_samples(s, &sd[k].set) < 0)
			return -1;
		/* The runs that drafted: their per-prompt figures too, for the cell's
		 * acceptance by prompt (accept_add()). */
		for (size_t i = 0; i < sd[k].set.n; i++) {
			struct run *r = &sd[k].set.runs[i];
			if ((r->loaded & RUN_LOAD_VALUES) && r->agg.has_draft && r->agg.draft_n > 0)
				r->want |= RUN_LOAD_PROMPTS;
		}
		if (store_cellset_samples(s, &sd[k].set) < 0)
			return -1;
	}
	in.ours = sd[0].pools;
	in.n_ours = sd[0].n_pools;
	in.vs = sd[1].pools;
	in.n_vs = sd[1].n_pools;
	return parity_decide(&in, o, res) < 0 ? 1 : 0;
}

/* f without what chooses runs by name: a history of the cells it narrows to. */
static struct run_filter history_filter(const struct run_filter *f)
{
	struct run_filter h = *f;

	memset(&h.tag, 0, sizeof(h.tag));
	memset(&h.batch, 0, sizeof(h.batch));
	h.baseline = NULL;
	h.uuid = NULL;
	h.limit = 0;
	return h;
}

int side_newest_clean(struct store *s, const struct run_filter *f, const char *ignore,
		      const struct parity_opts *o, struct side hist[2],
		      struct parity_result *res)
{
	struct estimate_params ep;
	size_t i;
	int k, any = 0;

	memset(hist, 0, 2 * sizeof(*hist));
	for (i = 0; i < res->n_rows; i++)
		any = any || res->rows[i].v.regression == VERDICT_REG_SPOILED;
	/* One engine under two tags: its history cannot tell the sides apart. */
	if (!any || !strcmp(o->ours, o->vs))
		return 0;
	for (k = 0; k < 2; k++) {
		struct run_filter fk = history_filter(&f[k]);

		fk.engine.v = k ? &o->vs : &o->ours;
		fk.engine.n = 1;
		fk.bench_rates = 0;
		if (side_load_history(s, &fk, ignore, RUN_LOAD_VALUES, &hist[k]) < 0)
			return -1;
	}
	estimate_params_init(&ep);
	ep.band_pct = o->band_pct;
	for (i = 0; i < res->n_rows; i++) {
		struct parity_row *w = &res->rows[i];
		const struct run *face = pool_face(w->pool_ours);
		const struct pool *ha, *hb;

		if (w->v.regression != VERDICT_REG_SPOILED || !face ||
		    !(ha = pools_find_cell(hist[0].pools, hist[0].n_pools, NULL, face)) ||
		    !(hb = pools_find_cell(hist[1].pools, hist[1].n_pools, NULL, face)))
			continue;
		if (pool_newest_clean(ha, hb, 1, face, strcmp(w->metric, "pp") ? RUN_TG : RUN_PP,
				      &ep, &w->newest_clean) < 0)
			return tps_error("cannot estimate the newest clean batch");
	}
	return 0;
}

int side_gate_newest_clean(struct store *s, const struct run_filter *f, const char *ignore,
			   const double *threshold, struct side *hist, struct gate_result *res)
{
	struct run_filter fh = history_filter(f);
	size_t i;
	int any = 0;

	memset(hist, 0, sizeof(*hist));
	for (i = 0; i < res->n_rows; i++)
		any = any || res->rows[i].g.v.regression == VERDICT_REG_SPOILED;
	if (!any)
		return 0;
	if (side_load_history(s, &fh, ignore, RUN_LOAD_VALUES, hist) < 0)
		return -1;
	for (i = 0; i < res->n_rows; i++) {
		struct gate_row *w = &res->rows[i];
		const struct pool *ha;
		struct estimate_params ep;

		if (w->g.v.regression != VERDICT_REG_SPOILED ||
		    (w->metric != GATE_PP && w->metric != GATE_TG) ||
		    !(ha = pools_find_cell(hist->pools, hist->n_pools, NULL, w->cand->side)))
			continue;
		estimate_params_init(&ep);
		ep.band_pct = threshold[w->metric];
		if (pool_newest_clean(ha, w->base->pool, 0, w->cand->side,
				      w->metric == GATE_PP ? RUN_PP : RUN_TG, &ep,
				      &w->newest_clean) < 0)
			return tps_error("cannot estimate the newest clean batch");
	}
	return 0;
}

int side_plan(struct store *s, const struct run_filter *f, const char *const side[2],
	      const struct plan_opts *o, struct side sd[2], struct plan_input *in,
	      struct plan_result *res)
{
	int k;

	memset(sd, 0, 2 * sizeof(*sd));
	memset(in, 0, sizeof(*in));
	memset(res, 0, sizeof(*res));
	for (k = 0; k < 2 && side[k]; k++) {
		struct run_filter fk = *f;

		fk.engine.v = &side[k];
		fk.engine.n = 1;
		if (side_load_history(s, &fk, NULL, RUN_LOAD_VALUES | RUN_LOAD_WALL, &sd[k]) < 0)
			return -1;
		/* Only clean runs of one host inform a design: a contended night's
		 * scatter is the night's, not the engines'. */
		for (size_t i = 0; i < sd[k].n_pools; i++)
			pool_keep_clean(&sd[k].pools[i]);
	}
	plan_cells(side[0], sd[0].pools, sd[0].n_pools, side[1], sd[1].pools, sd[1].n_pools,
		   in);
	if (!in->n_cells)
		return 0;
	return plan_decide(in, o, res) < 0 ? 1 : 0;
}

int side_quality(struct store *s, const struct run_filter *f, struct catalog_quality **q,
		 size_t *n)
{
	if (catalog_quality(s, f, q, n) < 0)
		return -1;
	for (size_t i = 0; i < *n; i++) {
		(*q)[i].env_flags = env_findings(&(*q)[i].facts, (*q)[i].env_flags);
		(*q)[i].load_line = loaderr_line((*q)[i].load_error);
	}
	return 0;
}

int study_load(struct store *s, const struct run_filter *f, const char *baseline, unsigned what,
	       struct study_load *out)
{
	struct study_input *in = &out->in;
	struct run_filter rf = f ? *f : (struct run_filter){ 0 };

	memset(out, 0, sizeof(*out));
	if (what & STUDY_LOAD_POOLS) {
		rf.limit = 0;
		if (side_load(s, &rf, NULL, RUN_LOAD_VALUES | RUN_LOAD_PROMPTS, &out->pools) < 0)
			return -1;
		/* What the comparisons of its engines pool (pools_pair()). */
		pools_want_pairs(out->pools.pools, out->pools.n_pools, out->pools.pools,
				 out->pools.n_pools, RUN_LOAD_VALUES | RUN_LOAD_PROMPTS);
		if (store_cellset_samples(s, &out->pools.set) < 0)
			return -1;
		in->pools = out->pools.pools;
		in->n_pools = out->pools.n_pools;
	}
	if (what & STUDY_LOAD_QUALITY) {
		rf.limit = 0;
		if (side_quality(s, &rf, &out->quality, &out->n_quality) < 0 ||
		    catalog_alarms(s, &out->alarms, &out->n_alarms) < 0)
			return -1;
		out->v_quality = tps_xcalloc(out->n_quality + 1, sizeof(*out->v_quality));
		for (size_t i = 0; i < out->n_quality; i++) {
			out->v_quality[i].uuid = out->quality[i].uuid;
			out->v_quality[i].engine = out->quality[i].engine;
			out->v_quality[i].model = out->quality[i].model;
			out->v_quality[i].status = out->quality[i].status;
		}
		in->quality = out->v_quality;
		in->n_quality = out->n_quality;
	}
	if (what & STUDY_LOAD_HISTORY) {
		if (side_load_history(s, f, NULL, RUN_LOAD_VALUES, &out->hist) < 0)
			return -1;
		side_split_machines(&out->hist);
		in->hist = out->hist.pools;
		in->n_hist = out->hist.n_pools;
		in->hist_limit = f ? f->limit : 0;
		if (baseline) {
			/* A frozen set: the filters do not thin it. */
			struct run_filter bf = { 0 };

			bf.baseline = baseline;
			if (side_load_history(s, &bf, NULL, RUN_LOAD_VALUES, &out->base) < 0)
				return -1;
			in->base = out->base.pools;
			in->n_base = out->base.n_pools;
		}
	}
	return 0;
}

void study_load_release(struct study_load *l)
{
	if (!l)
		return;
	side_release(&l->pools);
	side_release(&l->hist);
	side_release(&l->base);
	catalog_quality_free(l->quality, l->n_quality);
	catalog_alarms_free(l->alarms, l->n_alarms);
	free(l->v_quality);
	memset(l, 0, sizeof(*l));
}
