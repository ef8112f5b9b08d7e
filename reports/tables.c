/* tables.c: the study's tables as the writers take them: its numbers borrowed, and
 * the words put beside them here once (the findings of the quality rows it picked,
 * the forced comparisons, and the error line of a step that failed), so that every
 * format says the same words; and the layout of the report's own tables
 * (tables_table_init()), which every writer of them takes from here. */
#include "reports/tables_int.h"
#include "reports/parity.h"
#include "reports/strv.h"
#include "reports/table.h"
#include "tpsdb.h"

#include <stdlib.h>
#include <string.h>

void tables_table_init(struct table *tab, size_t ncols)
{
	table_init(tab, ncols);
	tab->rule = 1;
	tab->left_header = 1;
	tab->text_marks = 1;
	tab->md_unpadded = 1;
}

void tables_init(struct tables *t, const struct study *s, const struct catalog_quality *q,
		 const struct catalog_alarm *a, size_t na)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	t->ref = s->ref;
	t->ours = s->ours;
	t->engines = s->engines;
	t->n_engines = s->n_engines;
	t->base = s->base;
	t->n_base = s->n_base;
	t->spec_cols = s->spec_cols;
	t->n_spec_cols = s->n_spec_cols;
	t->spec = s->spec;
	t->n_spec = s->n_spec;
	t->prompts = s->prompts;
	t->n_prompts = s->n_prompts;
	t->runs = s->runs;
	t->n_runs = s->n_runs;
	t->answers = s->answers;
	t->rows = s->rows;
	t->n_rows = s->n_rows;
	t->machines = s->machines;
	t->n_machines = s->n_machines;
	t->base_machines = s->base_machines;
	t->n_base_machines = s->n_base_machines;
	t->spec_machines = s->spec_machines;
	t->n_spec_machines = s->n_spec_machines;
	for (i = 0; i < s->n_quality; i++)
		findings_add(&t->findings, &q[s->quality[i]]);
	t->alarms = a;
	t->n_alarms = na;
	for (i = 0; i < s->n_notes; i++) {
		const struct parity_note *pn = &s->notes[i].note;
		char *text;

		/* A report compares nothing across machines: such a cell is not
		 * comparable, and the two machines are why. */
		if (pn->kind == PARITY_NOTE_FORCED && pn->diff.kind == RUN_DIFF_MACHINE) {
			char name[256], why[1024];

			run_cell_name(pn->cell, name, sizeof(name));
			parity_diff_text(&pn->diff, why, sizeof(why));
			text = tps_xasprintf("cell '%s' not comparable: %s", name, why);
		} else {
			text = parity_note_text(pn);
		}
		/* Without a reference each engine has its own comparison with ours:
		 * the warning names which. */
		if (!s->ref) {
			char *x = tps_xasprintf("%s vs %s: %s", s->notes[i].ours, s->notes[i].vs,
						text);
			free(text);
			text = x;
		}
		strv_add(&t->warnings, &t->n_warnings, text);
		free(text);
	}
}

void tables_release(struct tables *t)
{
	if (!t)
		return;
	findings_release(&t->findings);
	strv_free(t->warnings, t->n_warnings);
	memset(t, 0, sizeof(*t));
}

void tables_reason(const struct tables_base_cell *c, char *buf, size_t len)
{
	parity_diff_text(&c->diff, buf, len);
}

int tables_error(const struct study_error *e)
{
	switch (e->kind) {
	case STUDY_OK:
		break;
	case STUDY_NO_ENGINE:
		return tps_error("no runs of engine '%s' match", e->a);
	case STUDY_NO_REF_RUNS:
		return tps_error("no runs of the reference engine '%s' match", e->a);
	case STUDY_PARITY:
		return parity_stop_error(&e->stop);
	case STUDY_NO_PROMPTS:
		return tps_error("the prompts of run '%s' were not loaded", e->a);
	case STUDY_TOLERANCE:
		return tps_error("cannot analyse the sweep: the tolerance must be a number >= 0");
	case STUDY_CHANGEPOINTS:
		return tps_error("cannot search the history for change points");
	case STUDY_NO_PAIR:
		if (!*e->a)
			return tps_error("nothing to compare: no run matches");
		return tps_error("nothing to compare: the runs that match hold one engine, '%s' "
				 "(name a reference with --ref, or select another engine's runs)",
				 e->a);
	}
	return -1;
}
