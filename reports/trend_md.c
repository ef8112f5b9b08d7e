/* trend_md.c: renders 'tpsdb trend' as markdown from the same items the text and
 * JSON writers take (reports/trend_write.h): one table of series, one of change
 * points. A regression is bold, so it stands out in a pull request. */
#include "reports/trend_md.h"
#include "reports/md.h"
#include "tpsdb.h"

/* Where a series starts or ends: its run's engine version, else its start date. */
static const char *run_point(const struct history_run *r)
{
	if (r->engine_version && *r->engine_version)
		return r->engine_version;
	return r->started_at ? r->started_at : "-";
}

enum { S_ENGINE, S_MODEL, S_CONFIG, S_METRIC, S_RUNS, S_FIRST, S_LAST, S_CPS, S_LATEST, S_N };
enum { C_ENGINE, C_MODEL, C_CONFIG, C_METRIC, C_RUN, C_TAG, C_VERSION, C_AT, C_BEFORE,
       C_AFTER, C_CHANGE, C_P, C_N };

void trend_md_write(FILE *f, const struct trend_write_item *items, size_t n)
{
	static const char *const shead[S_N] = { "engine", "model", "config", "metric", "runs",
		"first", "last", "change points", "latest" };
	static const char *const chead[C_N] = { "engine", "model", "config", "metric",
		"new level from run", "tag", "version", "at run", "before", "after", "change",
		"p" };
	struct md_table st, ct;
	char cfg[160], num[48];
	size_t i, k, j, ncp = 0;

	if (!n) {
		fprintf(f, "_No runs with usable samples._\n");
		return;
	}
	md_table_init(&st, S_N);
	md_table_init(&ct, C_N);
	for (j = 0; j < S_N; j++)
		md_table_set(&st, 0, j, shead[j]);
	for (j = 0; j < C_N; j++)
		md_table_set(&ct, 0, j, chead[j]);
	st.right[S_RUNS] = st.right[S_CPS] = 1;
	for (j = C_AT; j < C_N; j++)
		ct.right[j] = 1;
	for (i = 0; i < n; i++) {
		const struct history_series *se = items[i].se;
		const struct trend *t = items[i].t;
		size_t row = md_table_add_row(&st);
		int reg = trend_latest_regression(t);

		trend_write_config(se, cfg, sizeof(cfg));
		md_table_set(&st, row, S_ENGINE, se->engine);
		md_table_set(&st, row, S_MODEL, se->model);
		md_table_set(&st, row, S_CONFIG, cfg);
		md_table_set(&st, row, S_METRIC, items[i].metric);
		md_table_setf(&st, row, S_RUNS, "%zu", se->n);
		md_table_set(&st, row, S_FIRST, se->n ? run_point(&se->runs[0]) : "-");
		md_table_set(&st, row, S_LAST, se->n ? run_point(&se->runs[se->n - 1]) : "-");
		md_table_setf(&st, row, S_CPS, "%zu", t->n_cps);
		md_table_set(&st, row, S_LATEST, reg ? "regression" : "-");
		if (reg)
			md_table_mark(&st, row, S_LATEST);
		for (k = 0; k < t->n_cps; k++) {
			const struct changepoint *cp = &t->cps[k];
			const struct history_run *r = &se->runs[cp->index];
			size_t cr = md_table_add_row(&ct);

			ncp++;
			md_table_set(&ct, cr, C_ENGINE, se->engine);
			md_table_set(&ct, cr, C_MODEL, se->model);
			md_table_set(&ct, cr, C_CONFIG, cfg);
			md_table_set(&ct, cr, C_METRIC, items[i].metric);
			md_table_set(&ct, cr, C_RUN, r->uuid);
			md_table_set(&ct, cr, C_TAG, *r->tag ? r->tag : "-");
			md_table_set(&ct, cr, C_VERSION, *r->engine_version ? r->engine_version : "-");
			md_table_setf(&ct, cr, C_AT, "%zu", cp->index + 1);
			md_num(num, sizeof(num), "%.1f", cp->mean_before);
			md_table_set(&ct, cr, C_BEFORE, num);
			md_num(num, sizeof(num), "%.1f", cp->mean_after);
			md_table_set(&ct, cr, C_AFTER, num);
			md_num(num, sizeof(num), "%+.1f%%", cp->change_pct);
			md_table_set(&ct, cr, C_CHANGE, num);
			if (cp->change_pct < 0)
				md_table_mark(&ct, cr, C_CHANGE);
			md_num(num, sizeof(num), "%.2g", cp->pvalue);
			md_table_set(&ct, cr, C_P, num);
		}
	}
	md_table_write_gfm(f, &st);
	if (ncp) {
		fprintf(f, "\nChange points (a fall in bold; before and after are segment means, "
			   "tok/s or acceptance):\n\n");
		md_table_write_gfm(f, &ct);
	}
	md_table_release(&st);
	md_table_release(&ct);
}
