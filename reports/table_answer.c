/* table_answer.c: the report's one-line answer per comparison in words, "ours vs
 * llama.cpp: pp ...; tg ...", from the answers the study decided
 * (analyze/study_answer.c), in the words of reports/answer_text.c: each engine
 * against the reference, or without one ours against each other engine; and the
 * answers table the report leads with, one row per comparison x metric x model
 * (analyze/study_answer.c picked the rows), worded here. */
#include "reports/tables_int.h"
#include "reports/answer_text.h"
#include "reports/parity.h"
#include "reports/table.h"
#include "tpsdb.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *tables_answer_text(const struct tables *t, size_t e)
{
	const char *judged = t->ref ? t->ref : t->ours;
	char buf[2048];
	size_t at;
	int m, any = 0;

	if (!judged || !t->answers || !strcmp(t->engines[e].label, judged))
		return NULL;
	if (t->ref)
		snprintf(buf, sizeof(buf), "%s vs %s:", t->engines[e].label, t->ref);
	else
		snprintf(buf, sizeof(buf), "%s vs %s:", t->ours, t->engines[e].label);
	for (m = 0; m < 2; m++) {
		const struct study_answer *sa = &t->answers[2 * e + (size_t)m];

		if (!sa->n)
			continue;
		at = strlen(buf);
		if (at + 1 < sizeof(buf))
			snprintf(buf + at, sizeof(buf) - at, "%s ", any ? ";" : "");
		answer_text_metric(buf, sizeof(buf), m ? "tg" : "pp", &sa->a, sa->names, sa->v);
		any = 1;
	}
	/* Without a reference the user asked how ours fares against every other
	 * engine: an engine with nothing to compare still gets its line. */
	if (!any && !t->ref) {
		at = strlen(buf);
		if (at + 1 < sizeof(buf))
			snprintf(buf + at, sizeof(buf) - at, " no comparable base cell");
		any = 1;
	}
	if (!any)
		return NULL;
	/* Several machines: the comparison names its own. */
	if (t->n_machines > 1 && t->answers[2 * e].n_machines) {
		char *j = tables_machines_join(t->answers[2 * e].machines,
					       t->answers[2 * e].n_machines);
		char *s = tps_xasprintf("%s; measured on %s", buf, j);

		free(j);
		return s;
	}
	return tps_xstrdup(buf);
}

/* --- the answers table the report leads with ---------------------------------- */

enum { A_CMP, A_METRIC, A_MODEL, A_ANSWER, A_READS, A_DELTA, A_CI, A_CLEAN, A_N };

static int row_spoiled(const struct study_answer_row *r)
{
	return r->tv && r->tv->has && r->tv->v.kind == VERDICT_SPOILED;
}

static const char *reg_class(const struct verdict *v)
{
	const char *s = verdict_regression_name(v->regression);

	return s ? s : "na";
}

const char *tables_answer_class(const struct tables *t, size_t r, int clean)
{
	const struct study_answer_row *w = &t->rows[r];

	if (clean) {
		if (!row_spoiled(w))
			return "";
		return w->tv->clean.found ? reg_class(&w->tv->clean.v) : "na";
	}
	if (w->forced)
		return "nc";
	if (!w->tv || !w->tv->has)
		return "na";
	return reg_class(&w->tv->v);
}

/* "ours vs llama.cpp": the comparison of column e as its answer line names it. */
static char *comparison(const struct tables *t, size_t e)
{
	if (t->ref)
		return tps_xasprintf("%s vs %s", t->engines[e].label, t->ref);
	return tps_xasprintf("%s vs %s", t->ours ? t->ours : "", t->engines[e].label);
}

static void answer_cells(struct table *tab, size_t r, const struct study_answer_row *w)
{
	const struct verdict *v = w->tv ? &w->tv->v : NULL;
	const char *reg;
	char ci[80], env[160];

	if (w->forced || !v || !w->tv->has || v->kind == VERDICT_UNKNOWN) {
		table_set(tab, r, A_ANSWER, w->forced ? "not comparable" : "n/a");
		table_set(tab, r, A_READS, "-");
		table_set(tab, r, A_DELTA, "-");
		table_set(tab, r, A_CI, "-");
		return;
	}
	if (v->kind == VERDICT_SPOILED) {
		/* No delta: the interval is the environment's as much as the
		 * engine's (the base table's rule); the clean answer is beside it. */
		parity_env_names(v->spoiled, env, sizeof(env));
		table_setf(tab, r, A_ANSWER, "spoiled (%s)", env);
		table_set(tab, r, A_READS, "-");
		table_set(tab, r, A_DELTA, "-");
		table_set(tab, r, A_CI, "-");
		return;
	}
	reg = verdict_regression_name(v->regression);
	table_set(tab, r, A_ANSWER, reg ? reg : "n/a");
	table_set(tab, r, A_READS, v->kind == VERDICT_INTERMITTENT ? "-" : verdict_kind_name(v->kind));
	if (isfinite(v->delta_pct))
		table_setf(tab, r, A_DELTA, "%+.2f%%", v->delta_pct);
	else
		table_set(tab, r, A_DELTA, "-");
	verdict_interval_text(v, ci, sizeof(ci));
	table_set(tab, r, A_CI, ci);
}

static void clean_cell(struct table *tab, size_t r, const struct clean_answer *c)
{
	const char *reg;
	char ci[80];

	if (!c->found) {
		table_set(tab, r, A_CLEAN, "none (no clean batch on this host measured it)");
		return;
	}
	reg = verdict_regression_name(c->v.regression);
	verdict_interval_text(&c->v, ci, sizeof(ci));
	table_setf(tab, r, A_CLEAN, "%s (reads %s), %+.2f%% %s (batch %s, %.10s)", reg ? reg : "n/a",
		   verdict_kind_name(c->v.kind), c->v.delta_pct, ci, c->batch ? c->batch : "?",
		   c->started_at ? c->started_at : "?");
}

void tables_build_answers(const struct tables *t, struct table *tab)
{
	static const char *const head[A_N] = { "comparison", "metric", "model", "answer",
					       "reads", "delta", "interval",
					       "newest clean answer" };
	const struct verdict **v = tps_xcalloc(t->n_rows + 1, sizeof(*v));
	size_t i, r, nv = 0, nc = A_CLEAN, mc;
	char level[64];

	for (i = 0; i < t->n_rows; i++) {
		const struct study_answer_row *w = &t->rows[i];

		if (row_spoiled(w))
			nc = A_N;
		else if (w->tv && w->tv->has && w->tv->v.kind != VERDICT_UNKNOWN)
			v[nv++] = &w->tv->v;
	}
	/* Where the runs that match come from several machines, a last column names
	 * the machines of each row's comparison. */
	mc = t->n_machines > 1 ? nc : 0;
	tables_table_init(tab, nc + !!mc);
	for (i = 0; i < nc; i++)
		table_col(tab, i, i == A_CMP || i == A_MODEL ? TABLE_LABEL : TABLE_TEXT, head[i], 0);
	if (mc)
		table_col(tab, mc, TABLE_LABEL, "machine", 0);
	verdict_level_title(v, nv, level, sizeof(level));
	table_col_headf(tab, A_CI, "%s", level);
	free(v);
	for (i = 0; i < t->n_rows; i++) {
		const struct study_answer_row *w = &t->rows[i];
		char *c = comparison(t, w->engine);
		char *m = cell_label_endpoint(t->base[w->base].model, t->base[w->base].endpoint);

		r = table_add_row(tab);
		table_set(tab, r, A_CMP, c);
		table_set(tab, r, A_METRIC, w->metric == STUDY_TG ? "tg" : "pp");
		table_set(tab, r, A_MODEL, m);
		answer_cells(tab, r, w);
		if (nc == A_N) {
			if (row_spoiled(w))
				clean_cell(tab, r, &w->tv->clean);
			else
				table_set(tab, r, A_CLEAN, "-");
		}
		if (mc) {
			char *j = tables_machines_join(w->machines, w->n_machines);

			table_set(tab, r, mc, *j ? j : "-");
			free(j);
		}
		free(c);
		free(m);
	}
}

char *tables_answers_legend(const struct tables *t)
{
	double band = NAN;
	char bw[48] = "";
	size_t i;

	for (i = 0; i < t->n_rows; i++) {
		const struct study_answer_row *w = &t->rows[i];

		if (!w->tv || !w->tv->has || !isfinite(w->tv->v.band_pct))
			continue;
		if (isnan(band))
			band = w->tv->v.band_pct;
		else if (band != w->tv->v.band_pct)
			break;
	}
	if (isfinite(band) && i == t->n_rows)
		snprintf(bw, sizeof(bw), " (%.1f%%)", band);
	return tps_xasprintf(
		"answer: is the comparison's first engine slower than the second by more "
		"than the band%s? \"no\" or \"yes\" when the whole interval lies above or "
		"below -band, else \"undecided\"; \"intermittent\": some of the first "
		"engine's instances ran far slower, none of the second's (the gate fails it); "
		"\"spoiled\": an instance it used was measured on a busy, throttled or "
		"misplaced machine, so no answer (its newest clean answer beside it); \"not "
		"comparable\": the runs differ in a way compare refuses (Data quality). "
		"reads: the same interval against +-band. delta: the first engine over the "
		"second.", bw);
}
