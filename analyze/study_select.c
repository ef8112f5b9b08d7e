/* study_select.c: the vocabulary of what a study includes: equal labels, which
 * engines and models the options let in, the columns' order by role, and where the
 * loaded pairs and prompts of a cell are found. Shared by every step of the study
 * and by its renderers, so a column or a filter reads the same everywhere. */
#include "analyze/study_int.h"
#include "analyze/series.h"
#include "tpsdb.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int study_same(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

int study_in_list(const char *const *v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (study_same(v[i], s))
			return 1;
	}
	return 0;
}

/* ours first, then other engines, upstream engines last (the study's order). */
int study_role_rank(const char *role)
{
	if (study_same(role, "ours"))
		return 0;
	if (study_same(role, "upstream"))
		return 2;
	return 1;
}

long study_engine_index(const struct study *t, const char *label)
{
	size_t i;

	for (i = 0; i < t->n_engines; i++) {
		if (study_same(t->engines[i].label, label))
			return (long)i;
	}
	return -1;
}

int study_wanted(const struct study_opts *o, const char *engine, const char *model)
{
	if (o->n_models && !study_in_list(o->models, o->n_models, model))
		return 0;
	if (o->n_engines && !study_in_list(o->engines, o->n_engines, engine) &&
	    !study_same(engine, o->ref))
		return 0;
	return 1;
}

int study_series_shown(const struct study_opts *o, const struct study *t,
			const struct series *se)
{
	return study_wanted(o, se->engine, se->model) && study_engine_index(t, se->engine) >= 0;
}

int study_fail(struct study_error *err, enum study_fail kind, const char *a, const char *b)
{
	memset(err, 0, sizeof(*err));
	err->kind = kind;
	if (a)
		tps_copy(err->a, sizeof(err->a), a, SIZE_MAX);
	if (b)
		tps_copy(err->b, sizeof(err->b), b, SIZE_MAX);
	return -1;
}

long study_col_index(const struct tables_spec_col *cols, size_t n, size_t engine,
		      int64_t n_max)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (cols[i].engine == engine && cols[i].n_max == n_max)
			return (long)i;
	}
	return -1;
}
