/* study_answer.c: the one-line answer of each comparison (an engine against the
 * reference, or without one ours against an engine), per metric over the base
 * cells that have a verdict (analyze/answer.c), decided here once so that the
 * report's markdown, text and HTML only word it. A forced comparison, which the
 * table calls not comparable, is left out; a spoiled one is counted apart. The
 * rows of the answers table the report leads with are picked here too
 * (study_answer_row): every cell of a comparison that has a verdict, and the
 * forced ones as not comparable. */
#include "analyze/study_int.h"
#include "analyze/answer.h"
#include "tpsdb.h"

#include <stdlib.h>
#include <string.h>

void study_build_answers(struct study *t)
{
	size_t e, k;
	int m;

	t->answers = tps_xcalloc(2 * t->n_engines + 1, sizeof(*t->answers));
	t->rows = tps_xcalloc(2 * t->n_engines * t->n_base + 1, sizeof(*t->rows));
	if (!t->ref && !t->ours)
		return;
	for (e = 0; e < t->n_engines; e++) {
		/* The engine judged against the others has no answer of its own: the
		 * others' cells hold its verdicts. */
		if (study_same(t->engines[e].label, t->ref ? t->ref : t->ours))
			continue;
		for (m = 0; m < 2; m++) {
			struct study_answer *sa = &t->answers[2 * e + (size_t)m];

			sa->names = tps_xcalloc(t->n_base + 1, sizeof(*sa->names));
			sa->v = tps_xcalloc(t->n_base + 1, sizeof(*sa->v));
			for (k = 0; k < t->n_base; k++) {
				const struct tables_base_cell *c = &t->base[k].cells[e];
				const struct tables_verdict *tv = m ? &c->vtg : &c->vpp;

				if (c->present && (c->forced || tv->has)) {
					struct study_answer_row *r = &t->rows[t->n_rows++];

					r->engine = e;
					r->metric = m;
					r->base = k;
					r->forced = c->forced;
					r->tv = c->forced ? NULL : tv;
				}
				if (!c->present || c->forced || !tv->has)
					continue;
				sa->names[sa->n] = t->base[k].model;
				sa->v[sa->n++] = &tv->v;
			}
			if (sa->n)
				answer_build(sa->v, sa->n, sa->v[0]->band_pct, &sa->a);
		}
	}
}
