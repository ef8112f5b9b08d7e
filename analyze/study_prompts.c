/* study_prompts.c: the per-prompt acceptance tables, one per speculative row over
 * the columns that row has: the share of drafted tokens accepted for each prompt
 * over the rung's pooled runs (accept_add(), compare's rule),
 * then over every prompt and the decode speed of the rung, so a rung's acceptance
 * can be traced to the prompts that drive it. */
#include "analyze/accept.h"
#include "analyze/study_int.h"
#include "analyze/series.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct prompt_acc {
	struct tables_prompt_table *pt;
	size_t col;
};

/* One prompt row of the rung in column acc->col. */
static void on_prompt(struct prompt_acc *acc, const char *prompt, int64_t draft_n,
		      int64_t accepted)
{
	struct tables_prompt_table *pt = acc->pt;
	size_t i, c;

	for (i = 0; i < pt->n_prompts; i++) {
		if (study_same(pt->prompts[i], prompt))
			break;
	}
	if (i == pt->n_prompts) {
		pt->prompts = tps_xrealloc(pt->prompts, (i + 1) * sizeof(*pt->prompts));
		pt->prompts[i] = tps_xstrdup(prompt);
		pt->accept = tps_xrealloc(pt->accept, (i + 1) * pt->n_cols * sizeof(*pt->accept));
		for (c = 0; c < pt->n_cols; c++)
			pt->accept[i * pt->n_cols + c] = NAN;
		pt->n_prompts++;
	}
	pt->accept[i * pt->n_cols + acc->col] =
		draft_n > 0 ? (double)accepted / (double)draft_n : NAN;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts the prompt rows by name, carrying their acceptance rows along. */
static void sort_prompts(struct tables_prompt_table *pt)
{
	char **names = tps_xcalloc(pt->n_prompts ? pt->n_prompts : 1, sizeof(*names));
	double *acc = tps_xcalloc(pt->n_prompts * pt->n_cols + 1, sizeof(*acc));
	size_t i, j;

	memcpy(names, pt->prompts, pt->n_prompts * sizeof(*names));
	qsort(names, pt->n_prompts, sizeof(*names), str_cmp);
	for (i = 0; i < pt->n_prompts; i++) {
		for (j = 0; j < pt->n_prompts; j++) {
			if (names[i] == pt->prompts[j])
				break;
		}
		memcpy(&acc[i * pt->n_cols], &pt->accept[j * pt->n_cols],
		       pt->n_cols * sizeof(*acc));
	}
	if (pt->n_prompts)
		memcpy(pt->accept, acc, pt->n_prompts * pt->n_cols * sizeof(*acc));
	memcpy(pt->prompts, names, pt->n_prompts * sizeof(*names));
	free(names);
	free(acc);
}

/* An empty table for spec row `row`, its columns the rung cells the row has. */
static void new_table(struct study *t, const struct tables_spec_row *row)
{
	struct tables_prompt_table *pt;
	size_t k;

	t->prompts = tps_xrealloc(t->prompts, (t->n_prompts + 1) * sizeof(*t->prompts));
	pt = &t->prompts[t->n_prompts++];
	memset(pt, 0, sizeof(*pt));
	pt->model = tps_xstrdup(row->model);
	pt->spec_type = tps_xstrdup(row->spec_type);
	pt->endpoint = tps_xstrdup(row->endpoint);
	for (k = 0; k < t->n_spec_cols; k++)
		pt->n_cols += row->cells[k].present;
	pt->cols = tps_xcalloc(pt->n_cols ? pt->n_cols : 1, sizeof(*pt->cols));
	pt->all = tps_xcalloc(pt->n_cols ? pt->n_cols : 1, sizeof(*pt->all));
	pt->decode = tps_xcalloc(pt->n_cols ? pt->n_cols : 1, sizeof(*pt->decode));
	pt->n_cols = 0;
	for (k = 0; k < t->n_spec_cols; k++) {
		if (!row->cells[k].present)
			continue;
		pt->cols[pt->n_cols] = t->spec_cols[k];
		pt->all[pt->n_cols] = row->cells[k].accept;
		pt->decode[pt->n_cols] = row->cells[k].tg;
		pt->n_cols++;
	}
}

int study_build_prompts(const struct study_opts *o, struct study *t,
			 const struct series_set *set)
{
	struct accept_set sum = { 0 };
	const struct pool none = { 0 };
	size_t i, k, r, q;

	for (r = 0; r < t->n_spec; r++)
		new_table(t, &t->spec[r]);
	for (i = 0; i < set->n; i++) {
		const struct series *se = &set->v[i];
		if (!study_series_shown(o, t, se))
			continue;
		for (r = 0; r < t->n_prompts; r++) {
			struct tables_prompt_table *pt = &t->prompts[r];
			if (!study_same(pt->model, se->model) ||
			    !study_same(pt->spec_type, se->spec_type) ||
			    !study_same(pt->endpoint, se->endpoint))
				continue;
			for (k = 0; k < se->n_rungs; k++) {
				const struct run *rp = pool_face(se->rungs[k].pool);
				struct prompt_acc acc;
				long ci = study_col_index(pt->cols, pt->n_cols,
							   (size_t)study_engine_index(t, se->engine),
							   se->rungs[k].n_max);
				if (ci < 0)
					continue;
				acc.pt = pt;
				acc.col = (size_t)ci;
				if (!(rp->loaded & RUN_LOAD_PROMPTS))
					return study_fail(&t->err, STUDY_NO_PROMPTS,
							  se->rungs[k].run_uuid, NULL);
				/* The rung's pooled runs, as its acceptance (the sweep's, the
				 * total row) and compare's acceptance by prompt sum them. */
				if (accept_add(&sum, se->rungs[k].pool, &none, 0)) {
					for (q = 0; q < sum.n_rows; q++)
						if (sum.rows[q].prompt)
							on_prompt(&acc, sum.rows[q].prompt,
								  sum.rows[q].drafted[0],
								  sum.rows[q].accepted[0]);
					accept_release(&sum);
				} else {
					for (q = 0; q < rp->n_prompts; q++)
						on_prompt(&acc, rp->prompts[q].name, 0, 0);
				}
			}
		}
	}
	for (r = 0; r < t->n_prompts; r++)
		sort_prompts(&t->prompts[r]);
	return 0;
}
