/* table_findings.c: the report's data-quality section as lines: the findings of
 * the runs it shows (and of the load failures that explain a hole, as the study
 * picked them) in the words of 'tpsdb check' (reports/findings.c), then the
 * model-identity alarms and the forced comparisons. The markdown, text, CSV and
 * HTML writers take the section's lines from here. */
#include "reports/tables_int.h"
#include "reports/alarms.h"
#include "reports/findings.h"
#include "tpsdb.h"

#include <stdlib.h>

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
