/* study.c: the study in order: the engine columns and who is judged, the base
 * cells and their verdicts, the speculative and per-prompt tables, the runs behind
 * them, the quality rows to word and the figures (one study_*.c each), and the
 * release of what they built; and 'tpsdb plot's parity figure of the base alone
 * (study_parity()). The steps' files call nothing of this one. */
#include "analyze/study_int.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int engine_cmp(const void *pa, const void *pb)
{
	const struct tables_engine *a = pa, *b = pb;
	int ra = study_role_rank(a->role), rb = study_role_rank(b->role);

	if (ra != rb)
		return ra < rb ? -1 : 1;
	return strcmp(a->label, b->label);
}

static void add_engine(struct study *t, const char *label, const char *role)
{
	struct tables_engine *e;

	t->engines = tps_xrealloc(t->engines, (t->n_engines + 1) * sizeof(*t->engines));
	e = &t->engines[t->n_engines++];
	e->label = tps_xstrdup(label ? label : "");
	e->role = tps_xstrdup(role ? role : "other");
}

/* The columns: the engines asked for in that order, else every engine with a run
 * by role; and who is judged: with a reference (--ref), every other engine against
 * it; without, ours (the column of role ours, else the first) against every other
 * column, the question 'compare --ours' answers. An upstream engine is a column
 * like any other: it was the reference once, which left a report without one
 * answering nothing. */
static int pick_engines(struct study *t, const struct study_opts *o, const struct pool *p,
			size_t n_pools)
{
	const struct run **r = tps_xcalloc(n_pools + 1, sizeof(*r));
	size_t i, k, n = 0;
	int ret = -1;

	for (i = 0; i < n_pools; i++)
		if (p[i].n)
			r[n++] = pool_face(&p[i]);
	if (o->n_engines) {
		for (k = 0; k < o->n_engines; k++) {
			const struct run *hit = NULL;
			for (i = 0; i < n && !hit; i++) {
				if (study_same(r[i]->engine, o->engines[k]) &&
				    study_wanted(o, r[i]->engine, r[i]->model))
					hit = r[i];
			}
			if (!hit) {
				study_fail(&t->err, STUDY_NO_ENGINE, o->engines[k], NULL);
				goto out;
			}
			if (study_engine_index(t, o->engines[k]) < 0)
				add_engine(t, hit->engine, hit->role);
		}
	} else {
		for (i = 0; i < n; i++) {
			if (study_wanted(o, r[i]->engine, r[i]->model) &&
			    study_engine_index(t, r[i]->engine) < 0)
				add_engine(t, r[i]->engine, r[i]->role);
		}
		if (t->n_engines > 1)
			qsort(t->engines, t->n_engines, sizeof(*t->engines), engine_cmp);
	}
	if (o->ref) {
		for (i = 0; i < n; i++) {
			if (study_same(r[i]->engine, o->ref) &&
			    study_wanted(o, r[i]->engine, r[i]->model))
				break;
		}
		if (i == n) {
			study_fail(&t->err, STUDY_NO_REF_RUNS, o->ref, NULL);
			goto out;
		}
		t->ref = tps_xstrdup(o->ref);
		ret = 0;
		goto out;
	}
	for (i = 0; i < t->n_engines && !t->ours; i++) {
		if (study_same(t->engines[i].role, "ours"))
			t->ours = tps_xstrdup(t->engines[i].label);
	}
	if (!t->ours && t->n_engines)
		t->ours = tps_xstrdup(t->engines[0].label);
	ret = 0;
out:
	free(r);
	return ret;
}

/* The whole report, or (full 0) only the engines and the base table with its
 * verdicts. */
static int build(const struct study_opts *o, const struct study_input *in, struct study *t,
		 int full)
{
	memset(t, 0, sizeof(*t));
	if (pick_engines(t, o, in->pools, in->n_pools) < 0 || study_build_cells(o, t, in) < 0 ||
	    study_build_verdicts(o, t, in) < 0)
		return -1;
	study_build_answers(t);
	if (full) {
		if (study_build_spec(o, t, in) < 0)
			return -1;
		study_build_runs(t, in->pools, in->n_pools);
		study_build_machines(t, in);
		study_build_quality(o, t, in);
		if (o->figures && study_build_figures(t, in) < 0)
			return -1;
	}
	return 0;
}

int study_build(const struct study_opts *o, const struct study_input *in, struct study *t)
{
	return build(o, in, t, 1);
}

int study_build_base(const struct study_opts *o, const struct study_input *in,
		     struct study *t)
{
	return build(o, in, t, 0);
}

void study_release(struct study *t)
{
	size_t i, k;

	if (!t)
		return;
	study_machines_release(t);
	for (i = 0; i < t->n_engines; i++) {
		free(t->engines[i].label);
		free(t->engines[i].role);
	}
	free(t->engines);
	for (i = 0; i < t->n_base; i++) {
		for (k = 0; k < t->n_engines; k++)
			free(t->base[i].cells[k].tag);
		free(t->base[i].cells);
		free(t->base[i].model);
		free(t->base[i].endpoint);
	}
	free(t->base);
	for (i = 0; i < t->n_spec; i++) {
		for (k = 0; k < t->n_spec_cols; k++)
			free(t->spec[i].cells[k].tag);
		free(t->spec[i].cells);
		free(t->spec[i].model);
		free(t->spec[i].spec_type);
		free(t->spec[i].endpoint);
	}
	free(t->spec);
	free(t->spec_cols);
	for (i = 0; i < t->n_prompts; i++) {
		struct tables_prompt_table *pt = &t->prompts[i];
		for (k = 0; k < pt->n_prompts; k++)
			free(pt->prompts[k]);
		free(pt->prompts);
		free(pt->accept);
		free(pt->all);
		free(pt->decode);
		free(pt->cols);
		free(pt->model);
		free(pt->spec_type);
		free(pt->endpoint);
	}
	free(t->prompts);
	for (i = 0; t->answers && i < 2 * t->n_engines; i++) {
		free(t->answers[i].names);
		free(t->answers[i].v);
	}
	free(t->answers);
	free(t->rows);
	free(t->quality);
	free(t->notes);
	for (i = 0; i < t->n_runs; i++) {
		struct tables_run *x = &t->runs[i];
		free(x->engine); free(x->role); free(x->model); free(x->spec_type);
		free(x->endpoint); free(x->tag); free(x->started_at); free(x->host);
		free(x->machine);
		free(x->build);
	}
	free(t->runs);
	free(t->ref);
	free(t->ours);
	free(t->fig.cols);
	free(t->fig.models);
	free(t->fig.model_trends);
	study_arena_free(t->arena);
	memset(t, 0, sizeof(*t));
}

int study_parity(const struct study_opts *o, const struct study_input *in, int metric,
		 struct study_arena *a, struct plot_parity *out, struct study_error *err)
{
	struct study t;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (study_build_base(o, in, &t) < 0) {
		*err = t.err;
		goto out;
	}
	if (!t.ref && t.n_engines < 2) {
		study_fail(err, STUDY_NO_PAIR, t.ours, NULL);
		goto out;
	}
	/* The labels must outlive t: the figure keeps copies in the arena. */
	study_parity_of(&t, metric, a, out);
	study_parity_own(out, a);
	ret = 0;
out:
	study_release(&t);
	return ret;
}
