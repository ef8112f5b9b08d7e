/* summary.c: renders the end-of-collect table on the one table model (table.h):
 * column widths follow the widest cell, numbers are right-aligned, and an absent
 * figure is "-"; then the lines under it, and both into summary.txt. */
#include "reports/summary.h"
#include "reports/table.h"
#include "schema/record.h"
#include "outfile.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>

enum { S_MODEL, S_ENGINE, S_NMAX, S_ROUND, S_STATUS, S_OK, S_FAILED, S_PP, S_TG, S_ACCEPT,
       S_WHY, S_N };

void summary_render(FILE *f, const struct summary_row *rows, size_t n)
{
	static const struct table_colspec cols[S_N] = {
		{ TABLE_LABEL, "model", 0 }, { TABLE_LABEL, "engine", 0 },
		{ TABLE_NUMBER, "n_max", 0 }, { TABLE_NUMBER, "round", 0 },
		{ TABLE_LABEL, "status", 0 }, { TABLE_COUNT, "ok", 0 },
		{ TABLE_COUNT, "failed", 0 }, { TABLE_RATE, "pp tok/s", 0 },
		{ TABLE_RATE, "tg tok/s", 0 }, { TABLE_NUMBER, "accept", 0 },
		{ TABLE_LABEL, "why", 0 },
	};
	struct table t;
	size_t i, col;
	int rounds = 0, why = 0;

	for (i = 0; i < n; i++) {
		if (rows[i].rounds > 1)
			rounds = 1;
		if (rows[i].why)
			why = 1;
	}
	/* The round column only when some row has more than one round, the why
	 * column (last, as it is long) only when a load failed with an error line. */
	table_init(&t, S_N - !rounds - !why);
	for (i = col = 0; i < S_N; i++) {
		if ((i != S_ROUND || rounds) && (i != S_WHY || why))
			table_col(&t, col++, cols[i].kind, cols[i].header, cols[i].min_width);
	}
	for (i = 0; i < n; i++) {
		const struct summary_row *r = &rows[i];
		size_t row = table_add_row(&t);

		col = 0;
		/* A label is cut at 63 bytes, as when cells lived in 64-byte buffers. */
		table_setf(&t, row, col++, "%.63s", r->model);
		table_setf(&t, row, col++, "%.63s", r->engine);
		if (r->n_max == TPS_NULL)
			table_set(&t, row, col++, "-");
		else
			table_setf(&t, row, col++, "%lld", (long long)r->n_max);
		if (rounds)
			table_setf(&t, row, col++, "%lld/%lld", (long long)r->round,
				   (long long)r->rounds);
		table_setf(&t, row, col++, "%.63s", r->status);
		table_setf(&t, row, col++, "%zu", r->n_ok);
		table_setf(&t, row, col++, "%zu", r->n_failed);
		table_num(&t, row, col++, r->pp);
		table_num(&t, row, col++, r->tg);
		if (isnan(r->accept))
			table_set(&t, row, col++, "-");
		else
			table_setf(&t, row, col++, "%.1f%%", 100 * r->accept);
		if (why)
			table_set(&t, row, col, r->why ? r->why : "-");
	}
	table_write(f, &t, TABLE_FMT_TEXT);
	table_release(&t);
}

/* How the first request of a run was handled. */
static char *warmup_line(int attach, int64_t warmup)
{
	if (warmup > 0)
		return tps_xasprintf("warm-up: %lld unrecorded request(s) after %s",
				     (long long)warmup, attach ? "attaching" : "each server start");
	if (attach)
		return tps_xasprintf("warm-up: none (--warmup 0)");
	return tps_xasprintf("warm-up: none (--warmup 0): each run's first sample is flagged "
			     "cold-start and left out of prefill");
}

char *summary_footer(const struct summary_end *e, const struct summary_row *rows, size_t n)
{
	char *warm = warmup_line(e->attach, e->warmup), *s;
	int64_t most = 0;
	char again[48] = "", *spoiled;

	if (e->n_retried)
		snprintf(again, sizeof(again), " (%zu measured again)", e->n_retried);
	spoiled = e->n_spoiled ? tps_xasprintf("spoiled: %zu instance%s, %.1f s of server time%s\n",
					       e->n_spoiled, e->n_spoiled == 1 ? "" : "s",
					       e->spoiled_s, again) : tps_xstrdup("");

	for (size_t k = 0; k < n; k++)
		if (rows[k].round > most)
			most = rows[k].round;
	s = tps_xasprintf("\n%zu of %zu cells run, %zu not complete%s; store '%s'; logs in "
			  "'%s'\n%s\n%srounds: %lld of %lld: batch %s\n", e->n_run, e->n_planned,
			  e->n_bad, e->signal ? " (interrupted)" : "", e->store, e->out_dir, warm,
			  spoiled, (long long)most, (long long)e->rounds, e->batch);
	free(warm);
	free(spoiled);
	return s;
}

int summary_write_file(const char *dir, const struct summary_row *rows, size_t n,
		       const char *footer)
{
	char *path = tps_xasprintf("%s/summary.txt", dir);
	struct outfile *of = outfile_open(path);
	int ret = -1;

	if (of) {
		summary_render(outfile_stream(of), rows, n);
		fputs(footer, outfile_stream(of));
		ret = outfile_commit(of);
	}
	free(path);
	return ret;
}
