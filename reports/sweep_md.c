/* sweep_md.c: renders 'tpsdb sweep' as markdown from the series set the text and
 * JSON writers take (reports/sweep_write.h). Kept to the rungs and violations: the
 * gap sentences stay in the text form. A rung that pools several runs shows their
 * count and the 90% interval of its decode speed; only a decided fall is bold. */
#include "reports/sweep_md.h"
#include "reports/md.h"
#include "reports/sweep_text.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>

enum { W_NMAX, W_RUN, W_TG, W_SPEEDUP, W_ACCEPT, W_TPC, W_MSPC, W_SAMPLES, W_STATUS, W_N };

/* The violation that ends at rung i, or NULL. */
static const struct sweep_step *fall_to(const struct series *se, size_t i)
{
	size_t k;

	for (k = 0; k < se->report.n_violations; k++) {
		if (se->report.violations[k].to == i)
			return &se->report.violations[k];
	}
	return NULL;
}

static void series_table(FILE *f, const struct series *se)
{
	static const char *const names[W_N] = { "n_max", "run", "tg t/s", "speedup",
		"acceptance", "tokens/cycle", "ms/cycle", "samples", "status" };
	struct md_table t;
	char buf[48];
	size_t i, j;

	md_table_init(&t, W_N);
	for (j = 0; j < W_N; j++)
		md_table_set(&t, 0, j, names[j]);
	t.right[W_NMAX] = 1;
	for (j = W_TG; j <= W_SAMPLES; j++)
		t.right[j] = 1;
	for (i = 0; i < se->n_rungs; i++) {
		const struct series_rung *r = &se->rungs[i];
		const struct sweep_point *p = &r->point;
		const struct sweep_step *fall = fall_to(se, i);
		size_t row = md_table_add_row(&t);

		md_table_set(&t, row, W_NMAX, sweep_text_rung(r->n_max, buf, sizeof(buf)));
		if (r->n_runs > 1)
			md_table_setf(&t, row, W_RUN, "%s (newest of %zu)", r->run_uuid, r->n_runs);
		else
			md_table_set(&t, row, W_RUN, r->run_uuid);
		md_num(buf, sizeof(buf), "%.2f", r->rung.tg);
		if (p->instances > 1 && !isnan(p->tg_ci_lo) && !isnan(p->tg_ci_hi))
			md_table_setf(&t, row, W_TG, "%s (90%% interval %.2f-%.2f)", buf, p->tg_ci_lo,
				      p->tg_ci_hi);
		else
			md_table_set(&t, row, W_TG, buf);
		md_num(buf, sizeof(buf), "%.2fx", p->speedup);
		md_table_set(&t, row, W_SPEEDUP, buf);
		md_num(buf, sizeof(buf), "%.3f", p->acceptance);
		md_table_set(&t, row, W_ACCEPT, buf);
		md_num(buf, sizeof(buf), "%.2f", p->tokens_per_cycle);
		md_table_set(&t, row, W_TPC, buf);
		md_num(buf, sizeof(buf), "%.2f", p->ms_per_cycle);
		md_table_set(&t, row, W_MSPC, buf);
		md_table_setf(&t, row, W_SAMPLES, "%zu", r->n_values);
		if (fall && fall->decided) {
			md_table_setf(&t, row, W_STATUS, "falls %+.1f%%", fall->change_pct);
			md_table_mark(&t, row, W_STATUS);
		} else if (fall && isnan(fall->ci_lo_pct)) {
			md_table_setf(&t, row, W_STATUS, "undecided %+.1f%% (no interval)",
				      fall->change_pct);
		} else if (fall) {
			md_table_setf(&t, row, W_STATUS, "undecided %+.1f%% (90%% interval %+.1f%% to %+.1f%%)",
				      fall->change_pct, fall->ci_lo_pct, fall->ci_hi_pct);
		} else {
			md_table_set(&t, row, W_STATUS, "ok");
		}
	}
	md_table_write_gfm(f, &t);
	md_table_release(&t);
}

void sweep_md_write(FILE *f, const struct series_view *v, double tolerance_pct,
		    const struct series_set *set)
{
	size_t i, n_viol = 0, n_undecided = 0, n_shown = 0;

	for (i = 0; i < set->n; i++) {
		const struct series *se = &set->v[i];
		char *e, *m, *s;

		if (!series_shown(v, se))
			continue;
		e = md_escape(se->engine);
		m = md_escape(se->model);
		s = md_escape(*se->spec_type ? se->spec_type : "spec");
		fprintf(f, "%s### tpsdb sweep: %s, %s, %s\n\n", n_shown ? "\n" : "", e, m, s);
		free(e);
		free(m);
		free(s);
		series_table(f, se);
		n_viol += se->report.n_decided; /* an undecided dip fails nothing */
		n_undecided += se->report.n_violations - se->report.n_decided;
		n_shown++;
	}
	fprintf(f, "\n%s: %zu violation%s (decode falling by more than %.1f%% from one rung to "
		   "the next). Speedup against the base rung; acceptance: accepted / drafted.\n",
		n_viol ? "**FAIL**" : "PASS", n_viol, n_viol == 1 ? "" : "s", tolerance_pct);
	if (n_undecided)
		fprintf(f, "\n%zu undecided dip%s: a fall whose 90%% interval holds the "
			   "tolerance, not a violation until more runs decide it.\n", n_undecided,
			n_undecided == 1 ? "" : "s");
}
