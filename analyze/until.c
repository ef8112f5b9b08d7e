/* until.c: collect --until-decided's state across rounds (until.h): which cells
 * are watched, what the last comparison said of each, when each was decided, and
 * from that whether a model needs another round or a cell another start. */
#include "analyze/until.h"

#include "analyze/estimate.h"
#include "analyze/plan.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static size_t find_ours_cell(const struct until *u, const struct until_cell *c)
{
	size_t i;

	for (i = 0; i < u->n_cells; i++) {
		const struct until_cell *o = &u->cells[i];

		if (o->engine == u->ours && o->model == c->model && o->n_max == c->n_max &&
		    !strcmp(o->spec_type, c->spec_type))
			return i;
	}
	return SIZE_MAX;
}

void until_init(struct until *u, const struct until_cell *cells, size_t n_cells,
		size_t n_models, size_t ours, enum decided_question q, int watched)
{
	size_t k;

	memset(u, 0, sizeof(*u));
	u->cells = cells;
	u->n_cells = n_cells;
	u->n_models = n_models;
	u->ours = ours;
	u->q = q;
	u->watched = decided_watched(watched);
	u->w = tps_xcalloc(n_cells + 1, sizeof(*u->w));
	u->evaluated = tps_xcalloc(n_models + 1, sizeof(*u->evaluated));
	u->last_round = tps_xcalloc(n_models + 1, sizeof(*u->last_round));
	u->rounds_run = tps_xcalloc(n_models + 1, sizeof(*u->rounds_run));
	u->done = tps_xcalloc(n_models + 1, 1);
	u->short_of_budget = tps_xcalloc(n_models + 1, 1);
	u->rounds = ESTIMATE_MAX_LOOK;
	for (k = 0; k < n_cells; k++) {
		u->w[k].ours_cell = cells[k].engine == ours ? SIZE_MAX :
				    find_ours_cell(u, &cells[k]);
		u->w[k].chance[0] = u->w[k].chance[1] = NAN;
	}
}

void until_set_futility(struct until *u, int64_t max_rounds)
{
	u->max_rounds = max_rounds > 0 ? max_rounds : 0;
}

int until_watches(const struct until *u, int m)
{
	return (u->watched & (1 << m)) != 0;
}

void until_release(struct until *u)
{
	free(u->w);
	free(u->evaluated);
	free(u->last_round);
	free(u->runs);
	free(u->rounds_run);
	free(u->done);
	free(u->short_of_budget);
	memset(u, 0, sizeof(*u));
}

void until_run_ended(struct until *u, size_t k, int64_t round, double wall_s)
{
	size_t mi;

	if (k >= u->n_cells)
		return;
	if (u->n_runs == u->cap_runs) {
		u->cap_runs = u->cap_runs ? 2 * u->cap_runs : 16;
		u->runs = tps_xrealloc(u->runs, u->cap_runs * sizeof(*u->runs));
	}
	u->runs[u->n_runs].cell = k;
	u->runs[u->n_runs].round = round;
	u->runs[u->n_runs++].wall_s = wall_s;
	mi = u->cells[k].model;
	if (round > u->last_round[mi])
		u->last_round[mi] = round;
}

int until_look(struct until *u, size_t mi, int64_t round)
{
	if (round < ESTIMATE_FIRST_LOOK)
		return 0;
	u->evaluated[mi] = round;
	return 1;
}

int64_t until_final_look(struct until *u, size_t mi)
{
	int64_t last = u->last_round[mi];

	if (last < ESTIMATE_FIRST_LOOK || u->evaluated[mi] >= last)
		return 0;
	u->evaluated[mi] = last;
	return last;
}

/* Futility of an open cell at a look of round round: each watched metric whose
 * row does not answer the question gets its chance of answering by max_rounds
 * and the rounds it would need; 1 when one of those chances is under
 * PLAN_FUTILE_CHANCE. A metric whose look is no rounds interval (or is spoiled)
 * has no chance to judge and stops nothing. */
static int futile(const struct until *u, const struct decided_cell *dc,
		  struct until_watch *w, int64_t round)
{
	int m, stop = 0;

	for (m = 0; m < PARITY_N_METRICS; m++) {
		const struct verdict *v;
		struct plan_look l;

		w->chance[m] = NAN;
		w->needs[m] = 0;
		if (!u->max_rounds || round >= u->max_rounds || !until_watches(u, m) ||
		    !dc->row[m] || decided_row(dc->row[m], u->q))
			continue;
		v = &dc->row[m]->v;
		if (v->method != VERDICT_METHOD_ROUNDS || v->spoiled ||
		    v->regression == VERDICT_REG_INTERMITTENT)
			continue;
		memset(&l, 0, sizeof(l));
		l.m = v->log_m;
		l.se = v->log_se;
		l.df = v->df;
		l.rounds = v->rounds;
		l.band_pct = v->band_pct;
		l.two_sided = u->q == DECIDED_PARITY;
		w->chance[m] = plan_seq_chance_from(&l, (size_t)u->max_rounds, PLAN_SIMS);
		if (!(w->chance[m] < PLAN_FUTILE_CHANCE))
			continue;
		stop = 1;
		w->needs[m] = plan_rounds_from(&l, 0.8);
	}
	return stop;
}

size_t until_take(struct until *u, const struct parity_result *pr, size_t mi, size_t e,
		  int64_t round, size_t *newly)
{
	struct decided_cell *dc = NULL;
	size_t n, k, j, n_new = 0;
	int m;

	n = decided_cells(pr, u->q, u->watched, &dc);
	for (k = 0; k < u->n_cells; k++) {
		const struct until_cell *c = &u->cells[k];
		struct until_watch *w = &u->w[k];

		if (w->ours_cell == SIZE_MAX || c->engine != e || c->model != mi ||
		    !until_open(u, k))
			continue;
		j = decided_find(dc, n, c->spec_type, c->n_max);
		if (j == SIZE_MAX)
			continue;
		for (m = 0; m < PARITY_N_METRICS; m++) {
			if (!dc[j].row[m])
				continue;
			w->have[m] = 1;
			w->last[m] = dc[j].row[m]->v;
			w->answers[m] = decided_row(dc[j].row[m], u->q);
		}
		w->last_round = round;
		if (dc[j].decided) {
			w->decided_at = round;
			newly[n_new++] = k;
		} else if (futile(u, &dc[j], w, round)) {
			w->futile_at = round;
			newly[n_new++] = k;
		}
	}
	free(dc);
	return n_new;
}

int until_open(const struct until *u, size_t k)
{
	return u->w[k].ours_cell != SIZE_MAX && !u->w[k].decided_at && !u->w[k].futile_at;
}

int until_model_open(const struct until *u, size_t mi)
{
	size_t k;

	for (k = 0; k < u->n_cells; k++)
		if (u->cells[k].model == mi && until_open(u, k))
			return 1;
	return 0;
}

int until_skip(const struct until *u, size_t k)
{
	size_t i;
	int any = 0;

	if (u->w[k].ours_cell != SIZE_MAX)
		return !until_open(u, k);
	if (u->cells[k].engine != u->ours)
		return 0;
	for (i = 0; i < u->n_cells; i++) {
		if (u->w[i].ours_cell != k)
			continue;
		any = 1;
		if (until_open(u, i))
			return 0;
	}
	return any;
}

size_t until_next(const struct until *u, size_t mi, int64_t round, unsigned char *run)
{
	size_t k, n = 0;

	if (round >= ESTIMATE_FIRST_LOOK && !until_model_open(u, mi))
		return 0;
	for (k = 0; k < u->n_cells; k++) {
		run[k] = !until_skip(u, k);
		n += run[k] && u->cells[k].model == mi;
	}
	return n;
}

void until_count(const struct until *u, size_t *open, size_t *all)
{
	size_t k;

	*open = *all = 0;
	for (k = 0; k < u->n_cells; k++) {
		if (u->w[k].ours_cell == SIZE_MAX)
			continue;
		(*all)++;
		*open += until_open(u, k);
	}
}

size_t until_count_futile(const struct until *u)
{
	size_t k, n = 0;

	for (k = 0; k < u->n_cells; k++)
		n += u->w[k].ours_cell != SIZE_MAX && u->w[k].futile_at != 0;
	return n;
}

double until_server_time(const struct until *u, size_t k, int64_t round)
{
	double t = 0;
	size_t i;

	for (i = 0; i < u->n_runs; i++) {
		const struct until_run *r = &u->runs[i];

		if (r->round <= round && (r->cell == k || r->cell == u->w[k].ours_cell))
			t += r->wall_s;
	}
	return t;
}

void until_set_schedule(struct until *u, int64_t rounds, double budget_s)
{
	u->rounds = rounds;
	u->budget_s = budget_s > 0 ? budget_s : 0;
}

int64_t until_rounds_seen(const struct until *u, size_t k)
{
	int64_t r = 0;
	size_t i;

	for (i = 0; i < u->n_runs; i++)
		if (u->runs[i].cell == k && u->runs[i].round > r)
			r = u->runs[i].round;
	return r;
}

double until_spent(const struct until *u)
{
	double t = 0;
	size_t i;

	for (i = 0; i < u->n_runs; i++)
		t += u->runs[i].wall_s;
	return t;
}

/* The mean wall time of the runs ended whose cell is k (engine SIZE_MAX) or,
 * with k SIZE_MAX, whose cell's engine is engine (SIZE_MAX: any); NaN none. */
static double mean_cost(const struct until *u, size_t k, size_t engine)
{
	double t = 0;
	size_t i, n = 0;

	for (i = 0; i < u->n_runs; i++) {
		size_t c = u->runs[i].cell;

		if (k != SIZE_MAX ? c != k :
		    engine != SIZE_MAX && u->cells[c].engine != engine)
			continue;
		t += u->runs[i].wall_s;
		n++;
	}
	return n ? t / (double)n : NAN;
}

double until_cost(const struct until *u, size_t k)
{
	double c = mean_cost(u, k, SIZE_MAX);

	if (isnan(c))
		c = mean_cost(u, SIZE_MAX, u->cells[k].engine);
	if (isnan(c))
		c = mean_cost(u, SIZE_MAX, SIZE_MAX);
	return isnan(c) ? 0 : c;
}

int until_fits(const struct until *u, size_t k)
{
	return !u->budget_s || until_spent(u) + until_cost(u, k) <= u->budget_s;
}

double until_round_cost(const struct until *u, size_t mi)
{
	double t = 0;
	size_t k;

	for (k = 0; k < u->n_cells; k++)
		if (u->cells[k].model == mi && !until_skip(u, k))
			t += until_cost(u, k);
	return t;
}

/* What a round of model mi buys: the sum of its open cells' chances. */
static double round_value(const struct until *u, size_t mi)
{
	double v = 0, p;
	size_t k;
	int m;

	for (k = 0; k < u->n_cells; k++) {
		if (u->cells[k].model != mi || !until_open(u, k))
			continue;
		p = NAN;
		for (m = 0; m < PARITY_N_METRICS; m++)
			if (!isnan(u->w[k].chance[m]) && !(p <= u->w[k].chance[m]))
				p = u->w[k].chance[m];
		v += isnan(p) ? 0.5 : p;
	}
	return v;
}

int until_pick(struct until *u, size_t *mi, int64_t *round)
{
	double best = -1, spent = until_spent(u), cost, score;
	size_t i, pick = SIZE_MAX;

	for (i = 0; i < u->n_models; i++) {
		if (u->done[i])
			continue;
		if (!u->budget_s) {
			pick = i;
			break;
		}
		cost = until_round_cost(u, i);
		if (spent + cost > u->budget_s) {
			until_model_end(u, i, 1);
			continue;
		}
		/* A round of unknown cost (nothing ended yet) is as dear as any. */
		score = round_value(u, i) / (cost > 0 ? cost : 1);
		if (score > best) {
			best = score;
			pick = i;
		}
	}
	if (pick == SIZE_MAX)
		return 0;
	*mi = pick;
	*round = u->rounds_run[pick] + 1;
	return 1;
}

void until_round_done(struct until *u, size_t mi)
{
	int64_t r = ++u->rounds_run[mi];

	if (r >= u->rounds || (r >= ESTIMATE_FIRST_LOOK && !until_model_open(u, mi)))
		u->done[mi] = 1;
}

void until_model_end(struct until *u, size_t mi, int short_of_budget)
{
	u->done[mi] = 1;
	u->short_of_budget[mi] = short_of_budget != 0;
}

double until_time_left(const struct until *u)
{
	double t = 0, left;
	size_t i;

	if (!u->n_runs)
		return NAN;
	for (i = 0; i < u->n_models; i++)
		if (!u->done[i])
			t += (double)(u->rounds - u->rounds_run[i]) * until_round_cost(u, i);
	if (u->budget_s) {
		left = u->budget_s - until_spent(u);
		if (t > left)
			t = left > 0 ? left : 0;
	}
	return t;
}

void until_tally(const struct until *u, size_t *decided, size_t *futile, size_t *open,
		 size_t *short_open)
{
	size_t k;

	*decided = *futile = *open = *short_open = 0;
	for (k = 0; k < u->n_cells; k++) {
		const struct until_watch *w = &u->w[k];

		if (w->ours_cell == SIZE_MAX)
			continue;
		if (w->decided_at)
			(*decided)++;
		else if (w->futile_at)
			(*futile)++;
		else {
			(*open)++;
			*short_open += u->short_of_budget[u->cells[k].model];
		}
	}
}
