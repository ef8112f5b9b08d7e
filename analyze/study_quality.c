/* study_quality.c: which data-quality rows the report words: those of the runs it
 * shows a number of, and the load failures of an engine and model it has no
 * number for (the finding explains the hole). reports/tables.c words them in the
 * words of 'tpsdb check'. */
#include "analyze/study_int.h"
#include "tpsdb.h"

#include <stdlib.h>

/* Has the report a number from this engine on this model? */
static int engine_model_shown(const struct study *t, const char *engine, const char *model)
{
	size_t i;

	for (i = 0; i < t->n_runs; i++) {
		if (study_same(t->runs[i].engine, engine) && study_same(t->runs[i].model, model))
			return 1;
	}
	return 0;
}

static int shown(const struct study_opts *o, const struct study *t,
		 const struct study_quality *q)
{
	if (!study_wanted(o, q->engine, q->model))
		return 0;
	if (study_same(q->status, "failed") && !engine_model_shown(t, q->engine, q->model))
		return 1;
	return study_referenced(t, q->uuid);
}

void study_build_quality(const struct study_opts *o, struct study *t,
			 const struct study_input *in)
{
	size_t i;

	t->quality = tps_xcalloc(in->n_quality ? in->n_quality : 1, sizeof(*t->quality));
	for (i = 0; i < in->n_quality; i++) {
		if (shown(o, t, &in->quality[i]))
			t->quality[t->n_quality++] = i;
	}
}
