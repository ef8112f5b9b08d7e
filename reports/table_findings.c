/* table_findings.c: the report's data-quality section: the findings of the runs it
 * shows and of the load failures that explain a hole, in the words of 'tpsdb check'
 * (reports/findings.c), then the model-identity alarms and the forced comparisons.
 * The markdown, text and CSV writers take the section's lines from here. */
#include "reports/tables_int.h"
#include "reports/alarms.h"
#include "reports/findings.h"
#include "schema/catalog.h"
#include "tpsdb.h"

#include <stdlib.h>
#include <string.h>

/* Has the report a number from this engine on this model? */
static int engine_model_shown(const struct tables *t, const char *engine, const char *model)
{
	size_t i;

	for (i = 0; i < t->n_runs; i++) {
		if (tables_same(t->runs[i].engine, engine) && tables_same(t->runs[i].model, model))
			return 1;
	}
	return 0;
}

/* A run the report has a number of, or a failed load of an engine and model it has
 * no number for: the finding explains the hole. */
static int shown(const struct tables_opts *o, const struct tables *t,
		 const struct catalog_quality *q)
{
	if (!tables_wanted(o, q->engine, q->model))
		return 0;
	if (tables_same(q->status, "failed") && !engine_model_shown(t, q->engine, q->model))
		return 1;
	return tables_referenced(t, q->uuid);
}

int tables_build_findings(const struct tables_opts *o, struct tables *t,
			  const struct report_input *in)
{
	size_t i;

	for (i = 0; i < in->n_quality; i++) {
		if (shown(o, t, &in->quality[i]))
			findings_add(&t->findings, &in->quality[i]);
	}
	t->alarms = in->alarms;
	t->n_alarms = in->n_alarms;
	return 0;
}

char **tables_quality_lines(const struct tables *t, size_t *n)
{
	size_t cap = t->findings.n + t->n_alarms + t->n_warnings, i, k = 0;
	char **v = tps_xcalloc(cap ? cap : 1, sizeof(*v));

	for (i = 0; i < t->findings.n; i++)
		v[k++] = findings_line(&t->findings.v[i]);
	for (i = 0; i < t->n_alarms; i++) {
		char *a = alarms_text(&t->alarms[i]);
		v[k++] = tps_xasprintf("ALARM: %s", a);
		free(a);
	}
	for (i = 0; i < t->n_warnings; i++)
		v[k++] = tps_xstrdup(t->warnings[i]);
	*n = k;
	return v;
}
