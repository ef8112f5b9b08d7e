/* compare_md.c: renders a parity decision (analyze/parity.h) as markdown for a pull
 * request or $GITHUB_STEP_SUMMARY, from the rows the text and JSON writers take.
 * Numbers right-aligned and padded, so the source reads as a table too. */
#include "reports/compare_md.h"
#include "reports/compare_write.h"
#include "reports/answer_text.h"
#include "reports/md.h"
#include "reports/parity.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>

enum { K_CELL, K_METRIC, K_OURS, K_VS, K_DELTA, K_CI, K_ROUNDS, K_MDE, K_REG,
       K_VERDICT, K_N };

/* The heading and the first two cells of the header, escaped: ours and vs. */
static void heading(FILE *f, const char *ours, const char *vs)
{
	char *o = md_escape(ours), *v = md_escape(vs);

	fprintf(f, "### tpsdb compare: %s vs %s\n\n", o, v);
	free(o);
	free(v);
}

void compare_md_write(FILE *f, const struct parity_result *r, const char *ours,
		      const char *vs, double band_pct)
{
	struct md_table t;
	char name[256], buf[96], lo[32], hi[32];
	size_t i, j, n_undecided = 0;
	unsigned vary = parity_rows_varying(r);
	char *same = parity_rows_constant(r, vary);

	heading(f, ours, vs);
	{
		char *line = answer_text_compare(r, ours, vs, band_pct), *e = md_escape(line);
		fprintf(f, "**%s**\n\n", e);
		free(e);
		free(line);
	}
	if (same) {
		char *e = md_escape(same);
		fprintf(f, "Config of every row: %s\n\n", e);
		free(e);
		free(same);
	}
	md_table_init(&t, K_N);
	md_table_set(&t, 0, K_CELL, "cell");
	md_table_set(&t, 0, K_METRIC, "metric");
	md_table_setf(&t, 0, K_OURS, "%s t/s", ours);
	md_table_setf(&t, 0, K_VS, "%s t/s", vs);
	md_table_set(&t, 0, K_DELTA, "delta");
	md_table_set(&t, 0, K_CI, "90% interval");
	md_table_set(&t, 0, K_ROUNDS, "rounds");
	md_table_set(&t, 0, K_MDE, "mde");
	md_table_set(&t, 0, K_REG, "regression");
	md_table_set(&t, 0, K_VERDICT, "verdict");
	for (j = K_OURS; j <= K_MDE; j++)
		t.right[j] = 1;
	for (i = 0; i < r->n_rows; i++) {
		const struct parity_row *w = &r->rows[i];
		size_t row = md_table_add_row(&t);

		parity_row_label(w, vary, name, sizeof(name));
		md_table_set(&t, row, K_CELL, name);
		md_table_set(&t, row, K_METRIC, w->metric);
		md_num(buf, sizeof(buf), "%.2f", w->ours_median);
		md_table_set(&t, row, K_OURS, buf);
		md_num(buf, sizeof(buf), "%.2f", w->vs_median);
		md_table_set(&t, row, K_VS, buf);
		md_num(buf, sizeof(buf), "%+.2f%%", w->v.delta_pct);
		md_table_set(&t, row, K_DELTA, buf);
		md_num(lo, sizeof(lo), "%+.2f%%", w->v.ci_lo_pct);
		md_num(hi, sizeof(hi), "%+.2f%%", w->v.ci_hi_pct);
		if (isfinite(w->v.ci_lo_pct) || isfinite(w->v.ci_hi_pct))
			md_table_setf(&t, row, K_CI, "%s .. %s", lo, hi);
		else
			md_table_set(&t, row, K_CI, "-");
		md_table_setf(&t, row, K_ROUNDS, "%zu", w->v.rounds);
		md_num(buf, sizeof(buf), "%.2f%%", w->v.mde_pct);
		md_table_set(&t, row, K_MDE, buf);
		{
			const char *reg = verdict_regression_name(w->v.regression);
			md_table_set(&t, row, K_REG, reg ? reg : "unknown");
			/* Bold only what the data settles: a decided regression. */
			if (w->v.regression == VERDICT_REG_YES)
				md_table_mark(&t, row, K_REG);
		}
		md_table_setf(&t, row, K_VERDICT, "%s%s", verdict_kind_name(w->v.kind),
			      w->forced ? " (forced)" : "");
		n_undecided += w->v.regression != VERDICT_REG_NO &&
			       w->v.regression != VERDICT_REG_YES;
	}
	md_table_write_gfm(f, &t);
	md_table_release(&t);
	{
		size_t n = compare_one_instance_cells(r);

		if (n)
			fprintf(f, "\n%zu row%s compare one llama-bench process a side: one process "
				"is one instance, which decides nothing; a decision needs two "
				"processes or more a side (each build's llama-bench files imported "
				"under one `--tag`), or a stored A/A floor (`tpsdb calibrate`).\n",
				n, n == 1 ? "" : "s");
	}
	if (n_undecided) {
		fprintf(f, "\nNot yet answered:\n\n");
		for (i = 0; i < r->n_rows; i++) {
			const struct parity_row *w = &r->rows[i];
			char ans[400], *e, *a;

			if (w->v.regression == VERDICT_REG_NO || w->v.regression == VERDICT_REG_YES)
				continue;
			parity_row_label(w, vary, name, sizeof(name));
			e = md_escape(name);
			verdict_answer_text(&w->v, w->reason, ans, sizeof(ans));
			a = md_escape(ans);
			fprintf(f, "- %s %s: regression %s\n", e, w->metric, a);
			free(a);
			free(e);
		}
	}
	for (i = 0; i < r->n_rows; i++) {
		char outl[400], *e;

		parity_row_outliers_text(&r->rows[i], outl, sizeof(outl));
		if (!*outl)
			continue;
		parity_row_name(&r->rows[i], name, sizeof(name));
		e = md_escape(name);
		fprintf(f, "- %s %s: %s\n", e, r->rows[i].metric, outl);
		free(e);
	}
	if (r->n_notes) {
		fprintf(f, "\nWarnings:\n\n");
		for (i = 0; i < r->n_notes; i++) {
			char *text = parity_note_text(&r->notes[i]), *e = md_escape(text);
			fprintf(f, "- %s\n", e);
			free(text);
			free(e);
		}
	}
	{
		char *o = md_escape(ours), *v = md_escape(vs);
		fprintf(f, "\nregression: is %s slower than %s by more than %.1f%%? yes/no when the "
			   "whole 90%% interval lies below/above -%.1f%% (only a decided yes is bold). "
			   "tok/s: geometric means of the instances' requests, delta %s / %s - 1; "
			   "verdict: the same interval against +-%.1f%%; mde: its half-width.\n",
			o, v, band_pct, band_pct, o, v, band_pct);
		free(o);
		free(v);
	}
}
