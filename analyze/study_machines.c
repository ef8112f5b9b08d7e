/* study_machines.c: which machine each number of the report comes from, decided
 * here once so that every format names the same ones: the machines of the runs
 * that match (a merged store holds several), of each base cell (the pool behind
 * its estimate), of each speculative cell (its run), of each row of the answers
 * table (both cells of its comparison) and of each comparison, and whether any number comes from a
 * machine at all (a report takes each cell's newest batch, which may be one
 * machine's while the store holds another's). */
#include "analyze/study_int.h"
#include "tpsdb.h"

#include <stdlib.h>
#include <string.h>

static const char *machine_of(const struct run *r)
{
	return r->machine && *r->machine ? r->machine : "unknown";
}

/* Adds m to the heap array *v of *n unless it holds it; returns its index. */
static size_t add(const char ***v, size_t *n, const char *m)
{
	size_t i;

	for (i = 0; i < *n; i++) {
		if (!strcmp((*v)[i], m))
			return i;
	}
	*v = tps_xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = m;
	return i;
}

void study_cell_machines(struct tables_base_cell *c, const struct pool *p)
{
	size_t i;

	if (!p || !p->n)
		return;
	free(c->machines);
	c->machines = NULL;
	c->n_machines = 0;
	for (i = 0; i < p->n; i++)
		add(&c->machines, &c->n_machines, machine_of(p->runs[i]));
}

static struct study_machine *machine_add(struct study *t, const char *m)
{
	size_t i;

	for (i = 0; i < t->n_machines; i++) {
		if (!strcmp(t->machines[i].machine, m))
			return &t->machines[i];
	}
	t->machines = tps_xrealloc(t->machines, (t->n_machines + 1) * sizeof(*t->machines));
	memset(&t->machines[t->n_machines], 0, sizeof(*t->machines));
	t->machines[t->n_machines].machine = m;
	return &t->machines[t->n_machines++];
}

static void add_pools(struct study *t, const struct pool *p, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < p[i].n; k++) {
			const struct run *r = p[i].runs[k];
			struct study_machine *sm = machine_add(t, machine_of(r));

			add(&sm->engines, &sm->n_engines, r->engine ? r->engine : "");
		}
	}
}

static void mark_used(struct study *t, const char *m)
{
	size_t i;

	for (i = 0; i < t->n_machines; i++) {
		if (!strcmp(t->machines[i].machine, m))
			t->machines[i].used = 1;
	}
}

void study_build_machines(struct study *t, const struct study_input *in)
{
	const char *judged = t->ref ? t->ref : t->ours;
	long other = judged ? study_engine_index(t, judged) : -1;
	size_t i, k, e;

	/* The runs that match: the pools the cells take, then every run of their
	 * series (the histories), which hold the other machines' batches. */
	add_pools(t, in->pools, in->n_pools);
	add_pools(t, in->hist, in->n_hist);
	for (i = 0; i < t->n_base; i++) {
		for (e = 0; e < t->n_engines; e++) {
			const struct tables_base_cell *c = &t->base[i].cells[e];

			for (k = 0; c->present && k < c->n_machines; k++)
				add(&t->base_machines, &t->n_base_machines, c->machines[k]);
		}
	}
	for (i = 0; i < t->n_spec; i++) {
		for (k = 0; k < t->n_spec_cols; k++) {
			struct tables_spec_cell *c = &t->spec[i].cells[k];

			for (e = 0; c->present && e < t->n_runs; e++) {
				if (!strcmp(t->runs[e].uuid, c->run)) {
					c->machine = t->runs[e].machine;
					add(&t->spec_machines, &t->n_spec_machines, c->machine);
					break;
				}
			}
		}
	}
	for (i = 0; i < t->n_rows; i++) {
		struct study_answer_row *w = &t->rows[i];
		const struct tables_base_row *b = &t->base[w->base];
		const struct tables_base_cell *c[2] = {
			&b->cells[w->engine], other >= 0 ? &b->cells[other] : NULL
		};

		for (e = 0; e < 2; e++) {
			for (k = 0; c[e] && c[e]->present && k < c[e]->n_machines; k++)
				add(&w->machines, &w->n_machines, c[e]->machines[k]);
		}
		/* The comparison's, over both metrics: each answer holds them. */
		for (e = 0; e < 2; e++) {
			struct study_answer *sa = &t->answers[2 * w->engine + e];

			for (k = 0; k < w->n_machines; k++)
				add(&sa->machines, &sa->n_machines, w->machines[k]);
		}
	}
	for (i = 0; i < t->n_base_machines; i++)
		mark_used(t, t->base_machines[i]);
	for (i = 0; i < t->n_spec_machines; i++)
		mark_used(t, t->spec_machines[i]);
	for (i = 0; i < t->n_runs; i++)
		mark_used(t, t->runs[i].machine);
}

void study_machines_release(struct study *t)
{
	size_t i, k;

	for (i = 0; i < t->n_base; i++) {
		for (k = 0; k < t->n_engines; k++)
			free(t->base[i].cells[k].machines);
	}
	for (i = 0; i < t->n_rows; i++)
		free(t->rows[i].machines);
	for (i = 0; t->answers && i < 2 * t->n_engines; i++)
		free(t->answers[i].machines);
	for (i = 0; i < t->n_machines; i++)
		free(t->machines[i].engines);
	free(t->machines);
	free(t->base_machines);
	free(t->spec_machines);
}
