/* compare_md.c: renders a parity decision (analyze/parity.h) as markdown for a pull
 * request or $GITHUB_STEP_SUMMARY, from the rows the text and JSON writers take.
 * Numbers right-aligned and padded, so the source reads as a table too. */
#include "reports/compare_md.h"
#include "reports/compare_write.h"
#include "reports/md.h"
#include "reports/parity.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>

enum { K_CELL, K_METRIC, K_OURS, K_VS, K_DELTA, K_CI, K_P, K_PAIRS, K_ROUNDS, K_MDE, K_BAND,
       K_VERDICT, K_DECIDED, K_N };

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
	md_table_set(&t, 0, K_CI, "95% CI");
	md_table_set(&t, 0, K_P, "p");
	md_table_set(&t, 0, K_PAIRS, "pairs");
	md_table_set(&t, 0, K_ROUNDS, "rounds");
	md_table_set(&t, 0, K_MDE, "mde");
	md_table_set(&t, 0, K_BAND, "band");
	md_table_set(&t, 0, K_VERDICT, "verdict");
	md_table_set(&t, 0, K_DECIDED, "decided");
	for (j = K_OURS; j <= K_BAND; j++)
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
		md_num(buf, sizeof(buf), "%.2g", w->v.p_wilcoxon);
		md_table_set(&t, row, K_P, buf);
		md_table_setf(&t, row, K_PAIRS, "%zu", w->v.n_pairs);
		md_table_setf(&t, row, K_ROUNDS, "%zu", w->v.rounds);
		md_num(buf, sizeof(buf), "%.2f%%", w->v.mde_pct);
		md_table_set(&t, row, K_MDE, buf);
		md_table_setf(&t, row, K_BAND, "%.1f%% %s", w->v.band_pct,
			      verdict_bound_name(w->v.bound));
		md_table_setf(&t, row, K_VERDICT, "%s%s", verdict_kind_name(w->v.kind),
			      w->forced ? " (forced)" : "");
		/* Bold only what the data settles: an undecided lean stays plain. */
		if ((w->v.kind == VERDICT_FASTER || w->v.kind == VERDICT_SLOWER) && w->v.decided)
			md_table_mark(&t, row, K_VERDICT);
		md_table_set(&t, row, K_DECIDED, w->v.decided ? "decided" :
			     "undecided");
		n_undecided += w->v.kind == VERDICT_UNDECIDED;
	}
	md_table_write_gfm(f, &t);
	md_table_release(&t);
	{
		size_t pairs, n = compare_one_instance_cells(r, &pairs);

		if (n)
			fprintf(f, "\n%zu row%s compare one llama-bench process a side with %zu "
				"repetition%s, too few for a significant verdict: a decision needs "
				"`-r %d` or more, or two rounds or more (each build's llama-bench "
				"files imported under one `--tag`).\n",
				n, n == 1 ? "" : "s", pairs, pairs == 1 ? "" : "s", VERDICT_MIN_PAIRS);
	}
	if (n_undecided) {
		fprintf(f, "\nUndecided:\n\n");
		for (i = 0; i < r->n_rows; i++) {
			const struct parity_row *w = &r->rows[i];
			char *e;

			if (w->v.kind != VERDICT_UNDECIDED)
				continue;
			parity_row_label(w, vary, name, sizeof(name));
			e = md_escape(name);
			if (isfinite(w->v.rounds_more))
				snprintf(buf, sizeof(buf), "about %.0f more round%s", w->v.rounds_more,
					 w->v.rounds_more == 1 ? "" : "s");
			else
				snprintf(buf, sizeof(buf), "more rounds");
			fprintf(f, "- %s %s leans %s; %s would decide it\n", e, w->metric,
				verdict_kind_name(w->v.lean), buf);
			free(e);
		}
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
		fprintf(f, "\nMedians in tok/s. delta: %s / %s - 1; 95%% CI of the delta; p: "
			   "Wilcoxon signed-rank (one round); mde: the CI's half-width, the least "
			   "difference these rounds could see (--band %.1f%%); band: the effective "
			   "parity band and its bound; decided: the interval settles the verdict (only a decided faster or slower is bold).\n",
			o, v, band_pct);
		free(o);
		free(v);
	}
}
