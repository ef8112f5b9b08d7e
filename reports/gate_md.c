/* gate_md.c: renders a gate result (analyze/gate.h) as markdown, from the same
 * result the text, JSON and JUnit writers take. Decides nothing: statuses and
 * counts are the result's. */
#include "reports/gate_md.h"
#include "reports/answer_text.h"
#include "reports/md.h"
#include "reports/parity.h"
#include "reports/sweep_text.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>

static const char *status_name(const struct gate_report *h, const struct gate_row *w)
{
	if (w->g.outcome == VERDICT_GATE_FAIL)
		return "FAIL";
	if (w->g.outcome == VERDICT_GATE_INCONCLUSIVE)
		return h->strict ? "INCONCLUSIVE (fails: --strict)" : "INCONCLUSIVE";
	return "pass";
}

static void head(struct md_table *t, const char *const *names, size_t n)
{
	size_t j;

	md_table_init(t, n);
	for (j = 0; j < n; j++)
		md_table_set(t, 0, j, names[j]);
}

enum { G_CELL, G_METRIC, G_BASE, G_CAND, G_DELTA, G_CI, G_THRESH, G_ROUNDS, G_MDE, G_REG,
       G_STATUS, G_N };

static void rows_table(FILE *f, const struct gate_report *h, const struct gate_result *r)
{
	static const char *const names[G_N] = { "cell", "metric", "baseline", "candidate",
		"delta", "90% interval", "threshold", "rounds", "mde", "regression", "status" };
	struct md_table t;
	char cell[256], buf[64], lo[32], hi[32], *same = NULL;
	const char **cfg = tps_xcalloc(r->n_rows ? r->n_rows : 1, sizeof(*cfg));
	unsigned vary;
	size_t i, j;

	for (i = 0; i < r->n_rows; i++)
		cfg[i] = r->rows[i].cand->side.config;
	vary = parity_configs_varying(cfg, r->n_rows, &same);
	free(cfg);
	if (same) {
		char *e = md_escape(same);
		fprintf(f, "Config of every row: %s\n\n", e);
		free(e);
		free(same);
	}
	head(&t, names, G_N);
	for (j = G_BASE; j <= G_MDE; j++)
		t.right[j] = 1;
	for (i = 0; i < r->n_rows; i++) {
		const struct gate_row *w = &r->rows[i];
		/* Acceptance is a ratio: three decimals; tok/s: two. */
		const char *fmt = w->metric == GATE_ACCEPT ? "%.3f" : "%.2f";
		size_t row = md_table_add_row(&t);

		parity_side_label(&w->cand->side, vary, cell, sizeof(cell));
		md_table_set(&t, row, G_CELL, cell);
		md_table_set(&t, row, G_METRIC, gate_metric_name(w->metric));
		md_num(buf, sizeof(buf), fmt, w->g.baseline_mean);
		md_table_set(&t, row, G_BASE, buf);
		md_num(buf, sizeof(buf), fmt, w->g.candidate_mean);
		md_table_set(&t, row, G_CAND, buf);
		md_num(buf, sizeof(buf), "%+.2f%%", w->g.delta_pct);
		md_table_set(&t, row, G_DELTA, buf);
		md_num(lo, sizeof(lo), "%+.2f%%", w->g.ci_lo_pct);
		md_num(hi, sizeof(hi), "%+.2f%%", w->g.ci_hi_pct);
		if (isfinite(w->g.ci_lo_pct) || isfinite(w->g.ci_hi_pct))
			md_table_setf(&t, row, G_CI, "%s .. %s", lo, hi);
		else
			md_table_set(&t, row, G_CI, "-");
		md_table_setf(&t, row, G_THRESH, "-%.1f%%", w->g.threshold_pct);
		md_table_setf(&t, row, G_ROUNDS, "%zu", w->g.rounds);
		md_num(buf, sizeof(buf), "%.2f%%", w->g.mde_pct);
		md_table_set(&t, row, G_MDE, buf);
		{
			const char *reg = verdict_regression_name(w->g.v.regression);
			md_table_set(&t, row, G_REG, reg ? reg : "unknown");
		}
		md_table_set(&t, row, G_STATUS, status_name(h, w));
		if (w->g.outcome != VERDICT_GATE_PASS)
			md_table_mark(&t, row, G_STATUS);
	}
	md_table_write_gfm(f, &t);
	md_table_release(&t);
}

static void checks_tables(FILE *f, const struct gate_report *h, const struct gate_result *r)
{
	static const char *const vnames[] = { "engine", "model", "spec", "from n_max",
		"to n_max", "decode falls", "status" };
	static const char *const fnames[] = { "cell", "run", "flag", "samples", "status" };
	static const char *const tnames[] = { "cell", "metric", "new level from run", "tag",
		"before", "after", "change", "p", "status" };
	struct md_table t;
	char cell[256], a[32], b[32];
	size_t i, row;

	if (r->n_viol) {
		fprintf(f, "\nSweep violations:\n\n");
		head(&t, vnames, 7);
		t.right[5] = 1;
		for (i = 0; i < r->n_viol; i++) {
			const struct gate_violation *v = &r->viol[i];
			row = md_table_add_row(&t);
			md_table_set(&t, row, 0, v->series->engine);
			md_table_set(&t, row, 1, v->series->model);
			md_table_set(&t, row, 2, v->series->spec_type);
			md_table_set(&t, row, 3, sweep_text_rung(v->from, a, sizeof(a)));
			md_table_set(&t, row, 4, sweep_text_rung(v->to, b, sizeof(b)));
			md_table_setf(&t, row, 5, "%.1f%%", v->drop_pct);
			md_table_set(&t, row, 6, v->step && v->step->decided ? "FAIL" : "undecided");
			if (v->step && v->step->decided)
				md_table_mark(&t, row, 6);
		}
		md_table_write_gfm(f, &t);
		md_table_release(&t);
	}
	if (r->n_find) {
		fprintf(f, "\nFindings:\n\n");
		head(&t, fnames, 5);
		t.right[3] = 1;
		for (i = 0; i < r->n_find; i++) {
			const struct gate_finding *g = &r->find[i];
			row = md_table_add_row(&t);
			parity_side_name(&g->cell->side, cell, sizeof(cell));
			md_table_set(&t, row, 0, cell);
			md_table_set(&t, row, 1, g->cell->side.uuid);
			if (g->env_flags) {
				char names[160];
				parity_env_names(g->env_flags, names, sizeof(names));
				md_table_set(&t, row, 2, names);
			} else {
				md_table_set(&t, row, 2, record_flag_name(g->flag));
			}
			md_table_setf(&t, row, 3, "%lld of %lld", (long long)g->count,
				      (long long)g->n_samples);
			md_table_set(&t, row, 4, h->strict ? "FAIL" : "noted");
			if (h->strict)
				md_table_mark(&t, row, 4);
		}
		md_table_write_gfm(f, &t);
		md_table_release(&t);
	}
	if (r->n_trend) {
		fprintf(f, "\nTrend change points:\n\n");
		head(&t, tnames, 9);
		t.right[4] = t.right[5] = t.right[6] = t.right[7] = 1;
		for (i = 0; i < r->n_trend; i++) {
			const struct gate_trend *g = &r->trend[i];
			row = md_table_add_row(&t);
			parity_side_name(&g->cell->side, cell, sizeof(cell));
			md_table_set(&t, row, 0, cell);
			md_table_set(&t, row, 1, gate_metric_name(g->metric));
			md_table_set(&t, row, 2, g->run->uuid);
			md_table_set(&t, row, 3, *g->run->tag ? g->run->tag : "-");
			md_num(a, sizeof(a), "%.4g", g->cp.mean_before);
			md_table_set(&t, row, 4, a);
			md_num(a, sizeof(a), "%.4g", g->cp.mean_after);
			md_table_set(&t, row, 5, a);
			md_num(a, sizeof(a), "%+.2f%%", g->cp.change_pct);
			md_table_set(&t, row, 6, a);
			md_num(a, sizeof(a), "%.2g", g->cp.pvalue);
			md_table_set(&t, row, 7, a);
			md_table_set(&t, row, 8, g->fail ? "FAIL" : "pass");
			if (g->fail)
				md_table_mark(&t, row, 8);
		}
		md_table_write_gfm(f, &t);
		md_table_release(&t);
	}
}

void gate_md_write(FILE *f, const struct gate_report *h, const struct gate_result *r)
{
	char *e = md_escape(h->engine), *b = md_escape(h->baseline), *t = md_escape(h->tag);
	char msg[512];
	size_t i;

	fprintf(f, "### tpsdb gate: %s: '%s'%s%s%s against baseline '%s' (%zu failure%s)\n\n",
		r->n_fail ? "**FAIL**" : "PASS", e, h->tag ? " tag '" : "", h->tag ? t : "",
		h->tag ? "'" : "", b, r->n_fail, r->n_fail == 1 ? "" : "s");
	free(e);
	free(b);
	free(t);
	if (r->n_rows) {
		char *line = answer_text_gate(r), *m = md_escape(line);
		fprintf(f, "%s\n\n", m);
		free(m);
		free(line);
	}
	rows_table(f, h, r);
	checks_tables(f, h, r);
	if (r->n_notes) {
		fprintf(f, "\nWarnings:\n\n");
		for (i = 0; i < r->n_notes; i++) {
			char *m;
			gate_write_note(h, &r->notes[i], msg, sizeof(msg));
			m = md_escape(msg);
			fprintf(f, "- %s\n", m);
			free(m);
		}
	}
	fprintf(f, "\ntok/s: geometric means of the instances' requests (accept: accepted/drafted). "
		   "regression: yes (fail) when the whole 90%% interval lies below -threshold, no "
		   "(pass) when it lies above, else undecided (inconclusive). mde: the interval's "
		   "half-width.\n");
}
