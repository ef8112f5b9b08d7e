/* table_machines.c: the report's words about machines, where the runs that match
 * were measured on several (a merged store): under the title, which machines the
 * numbers come from; the Machines section's lines; a line per table. The study
 * decided which machine each number comes from (analyze/study_machines.c): here
 * it is only worded, once for markdown, text and HTML. */
#include "reports/tables_int.h"
#include "reports/strv.h"
#include "tpsdb.h"

#include <stdlib.h>
#include <string.h>

char *tables_machines_intro(size_t n)
{
	return tps_xasprintf("The runs behind this report were measured on %zu machines. A "
			     "comparison pairs the runs of one machine: a cell whose engines "
			     "were measured on different machines is not comparable (Data "
			     "quality names them; 'tpsdb compare --across-machines' compares "
			     "them unpaired).", n);
}

char *tables_machines_join(const char *const *m, size_t n)
{
	char *s = tps_xstrdup(""), *x;
	size_t i;

	for (i = 0; i < n; i++) {
		x = tps_xasprintf("%s%s%s", s, i ? "; " : "", m[i]);
		free(s);
		s = x;
	}
	return s;
}

/* The machines with used == u, joined. */
static char *machines_used(const struct tables *t, int u, size_t *n)
{
	const char **v = tps_xcalloc(t->n_machines + 1, sizeof(*v));
	char *s;
	size_t i;

	*n = 0;
	for (i = 0; i < t->n_machines; i++) {
		if (!t->machines[i].used == !u)
			v[(*n)++] = t->machines[i].machine;
	}
	s = tables_machines_join(v, *n);
	free(v);
	return s;
}

char *tables_machines_note(const struct tables *t)
{
	size_t nu, nx;
	char *u, *x, *s;

	if (t->n_machines < 2)
		return NULL;
	u = machines_used(t, 1, &nu);
	x = machines_used(t, 0, &nx);
	if (!nu)
		s = tps_xasprintf("The runs that match were measured on %zu machines (Machines "
				  "lists them).", t->n_machines);
	else if (nu == 1)
		s = tps_xasprintf("Every number in the tables below was measured on %s. The "
				  "runs that match were measured on %zu machines: no number in "
				  "these tables comes from the runs of %s (a report takes each "
				  "cell's newest batch, for a comparison the newest both sides "
				  "measured; a trend figure draws each machine's runs as a series "
				  "of its own; 'tpsdb report --host <name>' reports one machine's "
				  "runs).",
				  u, t->n_machines, x);
	else
		s = tps_xasprintf("The numbers below were measured on %zu machines: %s. Each "
				  "row of the answers table names the machines of its "
				  "comparison; a comparison pairs the runs of one machine, so a "
				  "cell measured on two is not comparable (Data quality names "
				  "them).%s%s%s",
				  nu, u, nx ? " No number in these tables comes from the runs of " : "",
				  nx ? x : "", nx ? "." : "");
	free(u);
	free(x);
	return s;
}

char **tables_machine_lines(const struct tables *t, size_t *n)
{
	char **v = NULL;
	size_t i, k;

	*n = 0;
	if (t->n_machines < 2)
		return NULL;
	for (i = 0; i < t->n_machines; i++) {
		const struct study_machine *m = &t->machines[i];
		char *s = tps_xasprintf("%s:", m->machine), *x;

		for (k = 0; k < m->n_engines; k++) {
			x = tps_xasprintf("%s%s %s", s, k ? "," : "", m->engines[k]);
			free(s);
			s = x;
		}
		if (!m->used) {
			x = tps_xasprintf("%s (no number of this report comes from its runs)", s);
			free(s);
			s = x;
		}
		strv_add(&v, n, s);
		free(s);
	}
	return v;
}

char *tables_section_machines(const struct tables *t, int spec)
{
	const char *const *m = spec ? t->spec_machines : t->base_machines;
	size_t n = spec ? t->n_spec_machines : t->n_base_machines;
	char *j, *s;

	if (t->n_machines < 2 || !n)
		return NULL;
	j = tables_machines_join(m, n);
	s = tps_xasprintf("Measured on %s.", j);
	free(j);
	return s;
}
