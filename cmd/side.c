/* side.c: a side of a decision loaded and pooled (side.h): the one sequence of
 * filter, load, pool and samples that compare, gate, sweep, report, check, plan
 * and collect --until-decided share. */
#include "cmd/side.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/envrule.h"
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
		if (side_load(s, &fk, ignore, RUN_LOAD_VALUES, &sd[k]) < 0)
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
