/* study_runs.c: the list of runs behind the report, one entry per run a table
 * shows a number of, so that every number can be traced to its run (uuid, host,
 * tag, start time) and fetched again with 'tpsdb export'. */
#include "analyze/study_int.h"
#include "analyze/trend.h"
#include "tpsdb.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int study_referenced(const struct study *t, const char *uuid)
{
	size_t i, k;

	for (i = 0; i < t->n_base; i++) {
		for (k = 0; k < t->n_engines; k++) {
			if (t->base[i].cells[k].present && study_same(t->base[i].cells[k].run, uuid))
				return 1;
		}
	}
	for (i = 0; i < t->n_spec; i++) {
		for (k = 0; k < t->n_spec_cols; k++) {
			if (t->spec[i].cells[k].present && study_same(t->spec[i].cells[k].run, uuid))
				return 1;
		}
	}
	return 0;
}

void study_build_runs(struct study *t, const struct pool *p, size_t n)
{
	/* Every run of the set the pools come from, in its order: a comparison
	 * may show a run that is not its pool's newest (pools_pair()). */
	const struct cellset *set = n ? p[0].set : NULL;
	size_t i, m = set ? set->n : n;

	for (i = 0; i < m; i++) {
		const struct run *r = set ? &set->runs[i] : pool_face(&p[i]);
		struct tables_run *x;

		if (!r || !study_referenced(t, r->uuid))
			continue;
		t->runs = tps_xrealloc(t->runs, (t->n_runs + 1) * sizeof(*t->runs));
		x = &t->runs[t->n_runs++];
		tps_copy(x->uuid, sizeof(x->uuid), r->uuid, SIZE_MAX);
		x->engine = tps_xstrdup(r->engine ? r->engine : "");
		x->role = tps_xstrdup(r->role ? r->role : "");
		x->model = tps_xstrdup(r->model ? r->model : "");
		x->spec_type = tps_xstrdup(r->spec_type ? r->spec_type : "");
		x->endpoint = tps_xstrdup(r->endpoint ? r->endpoint : "");
		x->tag = tps_xstrdup(r->tag ? r->tag : "");
		x->started_at = tps_xstrdup(r->started_at ? r->started_at : "");
		x->host = tps_xstrdup(r->host ? r->host : "");
		x->machine = r->machine ? tps_xstrdup(r->machine) : run_machine_text(r);
		x->build = trend_version_label(r);
		x->n_max = r->n_max;
	}
}
