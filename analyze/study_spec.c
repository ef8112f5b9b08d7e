/* study_spec.c: the speculative table, one row per model, spec type and endpoint
 * and one column per (n_max, engine) any row has: decode tok/s and acceptance of
 * each rung as analyze/series.c assembles them (the numbers 'tpsdb sweep' shows), with
 * each engine's fastest rung of a row marked. */
#include "analyze/study_int.h"
#include "analyze/series.h"
#include "analyze/sweep.h"
#include "tpsdb.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int col_cmp(const void *pa, const void *pb)
{
	const struct tables_spec_col *a = pa, *b = pb;

	if (a->n_max != b->n_max)
		return a->n_max < b->n_max ? -1 : 1;
	return a->engine < b->engine ? -1 : a->engine > b->engine;
}

/* The columns: every (n_max, engine) any row has, depth first. */
static void spec_columns(const struct study_opts *o, struct study *t,
			 const struct series_set *set)
{
	size_t i, k;

	for (i = 0; i < set->n; i++) {
		const struct series *se = &set->v[i];
		size_t e;
		if (!study_series_shown(o, t, se))
			continue;
		e = (size_t)study_engine_index(t, se->engine);
		for (k = 0; k < se->n_rungs; k++) {
			int64_t nm = se->rungs[k].n_max;
			if (sweep_rung_is_base(nm) ||
			    study_col_index(t->spec_cols, t->n_spec_cols, e, nm) >= 0)
				continue;
			t->spec_cols = tps_xrealloc(t->spec_cols,
						    (t->n_spec_cols + 1) * sizeof(*t->spec_cols));
			t->spec_cols[t->n_spec_cols].engine = e;
			t->spec_cols[t->n_spec_cols++].n_max = nm;
		}
	}
	if (t->n_spec_cols > 1)
		qsort(t->spec_cols, t->n_spec_cols, sizeof(*t->spec_cols), col_cmp);
}

static struct tables_spec_row *spec_row(struct study *t, const struct series *se)
{
	struct tables_spec_row *row = NULL;
	size_t r;

	for (r = 0; r < t->n_spec; r++) {
		if (study_same(t->spec[r].model, se->model) &&
		    study_same(t->spec[r].spec_type, se->spec_type) &&
		    study_same(t->spec[r].endpoint, se->endpoint))
			row = &t->spec[r];
	}
	if (row)
		return row;
	t->spec = tps_xrealloc(t->spec, (t->n_spec + 1) * sizeof(*t->spec));
	row = &t->spec[t->n_spec++];
	row->model = tps_xstrdup(se->model);
	row->spec_type = tps_xstrdup(se->spec_type);
	row->endpoint = tps_xstrdup(se->endpoint);
	row->cells = tps_xcalloc(t->n_spec_cols ? t->n_spec_cols : 1, sizeof(*row->cells));
	return row;
}

/* The rows: one per model, spec type and endpoint (series come in that order). */
static void spec_rows(const struct study_opts *o, struct study *t, const struct series_set *set)
{
	size_t i, k;

	for (i = 0; i < set->n; i++) {
		const struct series *se = &set->v[i];
		struct tables_spec_row *row;
		size_t e;
		if (!study_series_shown(o, t, se))
			continue;
		e = (size_t)study_engine_index(t, se->engine);
		row = spec_row(t, se);
		for (k = 0; k < se->n_rungs; k++) {
			const struct series_rung *rg = &se->rungs[k];
			struct tables_spec_cell *c;
			long ci = study_col_index(t->spec_cols, t->n_spec_cols, e, rg->n_max);
			if (sweep_rung_is_base(rg->n_max) || ci < 0)
				continue;
			c = &row->cells[ci];
			c->present = 1;
			c->tg = rg->rung.tg;
			c->tg_lo = rg->point.tg_ci_lo;
			c->tg_hi = rg->point.tg_ci_hi;
			c->accept = rg->point.acceptance;
			tps_copy(c->run, sizeof(c->run), rg->run_uuid, SIZE_MAX);
			c->tag = tps_xstrdup(rg->tag ? rg->tag : "");
		}
	}
}

/* The best rung of each engine in each row: its highest decode speed, marked
 * only when decided (its interval lies wholly above every other rung's), so that
 * an A/A pair's noise is never shown as a fastest rung. */
static void mark_best(struct study *t)
{
	size_t r, e, k;

	for (r = 0; r < t->n_spec; r++) {
		for (e = 0; e < t->n_engines; e++) {
			long best = -1;
			for (k = 0; k < t->n_spec_cols; k++) {
				const struct tables_spec_cell *c = &t->spec[r].cells[k];
				if (t->spec_cols[k].engine != e || !c->present || !isfinite(c->tg))
					continue;
				if (best < 0 || c->tg > t->spec[r].cells[best].tg)
					best = (long)k;
			}
			if (best < 0)
				continue;
			{
				const struct tables_spec_cell *b = &t->spec[r].cells[best];
				int decided = isfinite(b->tg_lo);

				for (k = 0; k < t->n_spec_cols && decided; k++) {
					const struct tables_spec_cell *c = &t->spec[r].cells[k];
					if (t->spec_cols[k].engine != e || !c->present || (long)k == best)
						continue;
					decided = isfinite(c->tg_hi) && b->tg_lo > c->tg_hi;
				}
				t->spec[r].cells[best].best = decided;
			}
		}
	}
}

int study_build_spec(const struct study_opts *o, struct study *t,
		      const struct study_input *in)
{
	struct series_set set = { 0 };
	int ret = -1;

	if (series_assemble(in->pools, in->n_pools, SWEEP_TOLERANCE_PCT, &set) < 0) {
		study_fail(&t->err, STUDY_TOLERANCE, NULL, NULL);
		goto out;
	}
	spec_columns(o, t, &set);
	spec_rows(o, t, &set);
	mark_best(t);
	if (study_build_prompts(o, t, &set) < 0)
		goto out;
	ret = 0;
out:
	series_set_release(&set);
	return ret;
}
