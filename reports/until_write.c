/* until_write.c: collect --until-decided's lines (until_write.h): the state of a
 * watched cell in words, as each is decided and for each still open at the end. */
#include "reports/until_write.h"

#include <math.h>
#include <string.h>

#include "analyze/estimate.h"
#include "analyze/plan.h"
#include "reports/table.h"
#include "schema/record.h"

static void pct(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%+.2f%%", v);
}

void until_write_state(const struct verdict *v, char *buf, size_t len)
{
	const char *reg = verdict_regression_name(v->regression);
	char d[32], lo[32], hi[32];

	pct(v->delta_pct, d, sizeof(d));
	pct(v->ci_lo_pct, lo, sizeof(lo));
	pct(v->ci_hi_pct, hi, sizeof(hi));
	snprintf(buf, len, "regression %s, %s (%s [%s, %s])", reg ? reg : "unknown",
		 verdict_kind_name(v->kind), d, lo, hi);
}

void clean_answer_text(const struct clean_answer *c, char *buf, size_t len)
{
	char state[200];

	if (!c->found) {
		snprintf(buf, len, "newest clean answer: none (no clean batch on this host "
			 "measured the cell)");
		return;
	}
	until_write_state(&c->v, state, sizeof(state));
	snprintf(buf, len, "newest clean answer: %s (batch %s, %.10s)", state,
		 c->batch ? c->batch : "?", c->started_at ? c->started_at : "?");
}

/* The cell's name in lines: "tiny", or "tiny draft n_max=2". */
static void cell_name(const struct until_cell *c, const char *model, char *buf, size_t len)
{
	if (c->n_max == TPS_NULL)
		snprintf(buf, len, "%s", model);
	else
		snprintf(buf, len, "%s %s n_max=%lld", model,
			 *c->spec_type ? c->spec_type : "spec", (long long)c->n_max);
}

/* One metric's line: "<what>: <name> <metric> <ours> vs <vs>: <lead><state> after
 * <round> rounds, <s> s of server time<tail>". */
static void metric_line(FILE *f, const char *what, const char *name, const char *metric,
			const char *ours, const char *vs, const char *lead, const char *state,
			int64_t round, double server_s, const char *tail)
{
	fprintf(f, "%s: %s %s %s vs %s: %s%s after %lld rounds, %.1f s of server time%s\n", what,
		name, metric, ours, vs, lead, state, (long long)round, server_s, tail);
}

void until_write_cell(FILE *f, const char *what, const struct until *u, size_t k,
		      const char *model, const char *ours, const char *vs)
{
	static const char *const names[PARITY_N_METRICS] = { "pp", "tg" };
	const struct until_watch *w = &u->w[k];
	const struct until_cell *c = &u->cells[k];
	int64_t round = w->decided_at ? w->decided_at : w->last_round;
	char name[160], state[160], note[80];
	int m;

	cell_name(c, model, name, sizeof(name));
	for (m = 0; m < PARITY_N_METRICS; m++) {
		if (!w->last_round) {
			fprintf(f, "%s: %s %s %s vs %s: not compared (fewer than 3 rounds with "
				"both engines)%s\n", what, name, names[m], ours, vs,
				u->short_of_budget[c->model] ? " (the budget ran out)" : "");
			continue;
		}
		if (w->have[m])
			until_write_state(&w->last[m], state, sizeof(state));
		else
			snprintf(state, sizeof(state), "no data");
		/* Two metrics: the one not watched names the other's --metric. */
		note[0] = 0;
		if (!until_watches(u, m))
			snprintf(note, sizeof(note), " (not watched: --metric %s)", names[1 - m]);
		if (!w->decided_at && u->short_of_budget[c->model])
			snprintf(note + strlen(note), sizeof(note) - strlen(note),
				 " (the budget ran out)");
		metric_line(f, what, name, names[m], ours, vs, "", state, round,
			    until_server_time(u, k, round), note);
	}
	fflush(f);
}

void until_write_futile(FILE *f, const struct until *u, size_t k, const char *model,
			const char *ours, const char *vs)
{
	static const char *const names[PARITY_N_METRICS] = { "pp", "tg" };
	const struct until_watch *w = &u->w[k];
	char name[160], state[160], needs[64], mde[32], lead[160];
	int m;

	cell_name(&u->cells[k], model, name, sizeof(name));
	for (m = 0; m < PARITY_N_METRICS; m++) {
		if (!until_watches(u, m) || !w->have[m])
			continue;
		until_write_state(&w->last[m], state, sizeof(state));
		if (w->answers[m] || !(w->chance[m] < PLAN_FUTILE_CHANCE)) {
			lead[0] = 0;
			if (!w->answers[m])
				snprintf(lead, sizeof(lead), "stopped with %s; ", names[1 - m]);
			metric_line(f, w->answers[m] ? "decided" : "unanswerable", name, names[m],
				    ours, vs, lead, state, w->futile_at,
				    until_server_time(u, k, w->futile_at), "");
			continue;
		}
		if (w->needs[m])
			snprintf(needs, sizeof(needs), "needs about %zu rounds", w->needs[m]);
		else
			snprintf(needs, sizeof(needs), "needs more than %d rounds",
				 ESTIMATE_MAX_LOOK);
		if (isfinite(w->last[m].mde_pct))
			snprintf(mde, sizeof(mde), "%.2f%%", w->last[m].mde_pct);
		else
			snprintf(mde, sizeof(mde), "?");
		snprintf(lead, sizeof(lead), "mde %s, %s (of --max-rounds %lld); ", mde, needs,
			 (long long)u->max_rounds);
		metric_line(f, "unanswerable", name, names[m], ours, vs, lead, state, w->futile_at,
			    until_server_time(u, k, w->futile_at), "");
	}
	fflush(f);
}

void until_write_note(char *buf, size_t len, const struct until *u)
{
	size_t open, all, futile = until_count_futile(u), dec, fut, op, sh;

	if (u->budget_s) {
		until_tally(u, &dec, &fut, &op, &sh);
		double left = until_time_left(u);
		char est[48];

		if (isnan(left))
			snprintf(est, sizeof(est), "server time left not known yet");
		else
			snprintf(est, sizeof(est), "about %.0f s of server time left", left);
		snprintf(buf, len, "%zu decided, %zu unanswerable, %zu open of %zu cells, %s "
			 "(budget %.0f s, %.0f s spent)", dec, fut, op, dec + fut + op, est,
			 u->budget_s, until_spent(u));
		return;
	}
	until_count(u, &open, &all);
	if (futile)
		snprintf(buf, len, "%zu of %zu cells open, %zu unanswerable", open, all, futile);
	else
		snprintf(buf, len, "%zu of %zu cells open", open, all);
}

void until_write_total(FILE *f, const struct until *u)
{
	char note[192];
	size_t dec, fut, op, sh;

	if (u->budget_s) {
		until_tally(u, &dec, &fut, &op, &sh);
		fprintf(f, "until-decided: %zu decided, %zu unanswerable, %zu open of %zu cells "
			"(%zu for lack of budget); %.1f s of server time of a %g s budget\n", dec,
			fut, op, dec + fut + op, sh, until_spent(u), u->budget_s);
		fflush(f);
		return;
	}
	until_write_note(note, sizeof(note), u);
	fprintf(f, "until-decided: %s\n", note);
	fflush(f);
}

void until_write_design(FILE *f, const struct until_design *d, size_t n, const char *host)
{
	size_t i, cells = 0;

	for (i = 0; i < n; i++)
		cells += d[i].n_cells;
	if (n == 1 && !cells)
		fprintf(f, "design: %zu rep%s of every prompt, the default (no stored cell of "
			"host %s to plan from; tpsdb plan says why)\n", d->reps,
			d->reps == 1 ? "" : "s", host);
	else if (n == 1 && d->rounds)
		fprintf(f, "design: %zu rep%s of every prompt, planned from %zu stored cell%s "
			"of host %s (for %zu rounds; --reps sets it)\n", d->reps,
			d->reps == 1 ? "" : "s", cells, cells == 1 ? "" : "s", host, d->rounds);
	else if (n == 1)
		fprintf(f, "design: %zu rep%s of every prompt, planned from %zu stored cell%s "
			"of host %s (none in reach of --max-rounds; --reps sets it)\n", d->reps,
			d->reps == 1 ? "" : "s", cells, cells == 1 ? "" : "s", host);
	else {
		fprintf(f, "design:");
		for (i = 0; i < n; i++) {
			fprintf(f, "%s %s %zu rep%s", i ? "," : "", d[i].model, d[i].reps,
				d[i].reps == 1 ? "" : "s");
			if (!d[i].n_cells)
				fprintf(f, " (the default)");
			else if (d[i].rounds)
				fprintf(f, " (for %zu rounds)", d[i].rounds);
			else
				fprintf(f, " (none in reach of --max-rounds)");
		}
		if (cells)
			fprintf(f, ", of every prompt, planned from %zu stored cell%s of host %s "
				"(--reps sets it)\n", cells, cells == 1 ? "" : "s", host);
		else
			fprintf(f, ", of every prompt (no stored cell of host %s to plan from; "
				"tpsdb plan says why)\n", host);
	}
	fflush(f);
}

/* A decided metric's answer to the question in one word. */
static const char *answer_word(const struct until *u, const struct verdict *v)
{
	const char *r;

	if (u->q == DECIDED_PARITY)
		return verdict_kind_name(v->kind);
	r = verdict_regression_name(v->regression);
	return r ? r : "unknown";
}

static const struct table_colspec matrix_cols[] = {
	{ TABLE_LABEL, "model", 0 },
	{ TABLE_LABEL, "comparison", 0 },
	{ TABLE_LABEL, "metric", 0 },
	{ TABLE_VERDICT, "answer", 0 },
	{ TABLE_DELTA, "delta", 0 },
	{ TABLE_INTERVAL, "interval", 0 },
	{ TABLE_COUNT, "rounds", 0 },
	{ TABLE_NUMBER, "server s", 0 },
};

void until_write_matrix(FILE *f, const struct until *u, const char *const *model,
			const char *const *engine)
{
	static const char *const names[PARITY_N_METRICS] = { "pp", "tg" };
	struct table t;
	size_t k, row;
	int m;

	table_init_cols(&t, matrix_cols, sizeof(matrix_cols) / sizeof(matrix_cols[0]));
	t.rule = 1;
	for (k = 0; k < u->n_cells; k++) {
		const struct until_watch *w = &u->w[k];
		const struct until_cell *c = &u->cells[k];
		/* A cell not compared yet shows the rounds it ran and their time. */
		int64_t round = w->decided_at ? w->decided_at :
				w->futile_at ? w->futile_at :
				w->last_round ? w->last_round : until_rounds_seen(u, k);

		if (w->ours_cell == SIZE_MAX)
			continue;
		for (m = 0; m < PARITY_N_METRICS; m++) {
			const struct verdict *v = &w->last[m];
			const char *ans;

			row = table_add_row(&t);
			table_set(&t, row, 0, model[c->model]);
			if (c->n_max == TPS_NULL)
				table_setf(&t, row, 1, "%s vs %s", engine[u->ours], engine[c->engine]);
			else
				table_setf(&t, row, 1, "%s vs %s %s n_max=%lld", engine[u->ours],
					   engine[c->engine], *c->spec_type ? c->spec_type : "spec",
					   (long long)c->n_max);
			table_set(&t, row, 2, names[m]);
			if (!w->last_round || !w->have[m])
				ans = u->short_of_budget[c->model] && !w->last_round ?
				      "open (budget)" : "not compared";
			else if (w->decided_at || w->answers[m])
				/* A metric answered in a cell the other keeps open
				 * or unanswerable: compare gives the same answer. */
				ans = answer_word(u, v);
			else if (w->futile_at)
				ans = "unanswerable";
			else if (u->short_of_budget[c->model])
				ans = "open (budget)";
			else
				ans = "open";
			table_set(&t, row, 3, ans);
			if (w->have[m]) {
				char lo[32], hi[32];

				table_num(&t, row, 4, v->delta_pct);
				pct(v->ci_lo_pct, lo, sizeof(lo));
				pct(v->ci_hi_pct, hi, sizeof(hi));
				table_setf(&t, row, 5, "[%s, %s]", lo, hi);
			} else {
				table_set(&t, row, 4, "-");
				table_set(&t, row, 5, "-");
			}
			/* The rounds the interval pooled, as compare prints them
			 * (the robust rule may leave an instance out); the
			 * server time is of every round run. */
			table_setf(&t, row, 6, "%lld", w->have[m] ? (long long)v->rounds :
				   (long long)round);
			table_setf(&t, row, 7, "%.1f", until_server_time(u, k, round));
		}
	}
	fprintf(f, "matrix:\n");
	table_write(f, &t, TABLE_FMT_TEXT);
	table_release(&t);
	fflush(f);
}
