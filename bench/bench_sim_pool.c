/* bench_sim_pool.c: how often a comparison that POOLS batches answers the
 * regression question wrongly, by simulation through the one estimate
 * (analyze/estimate.c), for candidate rules of the level a pooled look pays. A
 * user pools because a first batch was still undecided; the pooled interval is
 * then one more look at accumulating data. The data model is bench_sim_seq.c's
 * (requests 1.3%, an instance's own offset 1.5%, a drift both engines of a round
 * share 0.6%, 3 requests an instance), and every batch alternates the start
 * order from its own round 1, numbers its rounds from 1 and carries its own
 * batch id, so that estimate_cell() pairs within batches. Scenarios:
 *   fixed R+R:   batch 1 of R rounds looked at once (fixed 5%); if open, batch 2
 *                of R rounds and one look at the pool of both;
 *   seq H:       batch 1 --until-decided --max-rounds H (looks 3..H at the
 *                level of looks_to H, stops at the first answer); if open,
 *                batch 2 the same on its own data; then, whether batch 2
 *                answered or not, one look at the pool of both;
 *   fixed R+R+R: three batches, a look after each at the pool so far.
 * A candidate rule gives the looks_to of a pooled look from the pooled batches'
 * own looks_to (0: fixed), and gives today's level back for a single batch:
 * "max", "sum", "ceiling". The other rows are references, to show what the bar
 * would take: "none" never looks at a pool (the error of the batches' own
 * looks); "level x%" looks at every pool at the one-sided level x, which no
 * looks_to can say (the estimate's interval is re-decided at x); "planned" looks
 * at every step, the first batch's too, at the level of the whole plan's count
 * of looks; "..., continuing" lets a second --until-decided batch look at the
 * pool after each of its rounds instead of at itself alone. Not a timed test:
 *   build/bench_sim_pool [n_sims] [seed] */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/estimate.h"
#include "bench/sim_rng.h"

#define N_REQ 3
#define REQ_SD 0.013
#define INST_SD 0.015
#define DRIFT_SD 0.006
#define BAND 2.0
#define MAX_BATCHES 3
#define MAX_ROUNDS 20 /* all batches of one simulated comparison */

/* The rounds of all batches, batch after batch: batch b's rounds are a
 * contiguous run, so a pool of batches 1..b is a prefix and one batch alone a
 * slice. */
struct rounds {
	double v[2][MAX_ROUNDS][N_REQ];
	char t[2][MAX_ROUNDS][24];
	struct estimate_unit u[2][MAX_ROUNDS];
};

static const char *const batch_ids[MAX_BATCHES] = { "b1", "b2", "b3" };

/* Round r (0-based, of its batch) of batch b into slot i: ours at log(1 + delta)
 * over vs; the start order alternates from the batch's own first round, as
 * collect does. */
static void draw_round(struct rounds *d, int i, int b, int r, double delta)
{
	double drift = DRIFT_SD * gauss();
	int ours_first = r % 2 == 0;

	for (int s = 0; s < 2; s++) {
		double mu = (s == 0 ? log1p(delta) : 0) + drift + INST_SD * gauss();
		int first = s == 0 ? ours_first : !ours_first;

		for (int k = 0; k < N_REQ; k++)
			d->v[s][i][k] = 100 * exp(mu + REQ_SD * gauss());
		snprintf(d->t[s][i], sizeof(d->t[s][i]), "b%d-r%03d-%d", b + 1, r, first ? 0 : 1);
		memset(&d->u[s][i], 0, sizeof(d->u[s][i]));
		d->u[s][i].v = d->v[s][i];
		d->u[s][i].n = N_REQ;
		d->u[s][i].value = NAN;
		d->u[s][i].round = r + 1;
		d->u[s][i].batch = batch_ids[b];
		d->u[s][i].started_at = d->t[s][i];
	}
}

/* nb batches of per rounds each, batch after batch. */
static void draw(struct rounds *d, int nb, int per, double delta)
{
	for (int b = 0; b < nb; b++)
		for (int r = 0; r < per; r++)
			draw_round(d, b * per + r, b, r, delta);
}

/* The answer of the estimate of rounds [off, off + n) at the level of looks_to,
 * or, when alpha > 0, its interval re-decided at the one-sided level alpha. */
static enum verdict_regression look(const struct rounds *d, int off, int n, int64_t looks_to,
				    double alpha)
{
	struct estimate_params p;
	struct estimate e;
	enum verdict_regression a;

	estimate_params_init(&p);
	p.band_pct = BAND;
	p.looks_to = alpha > 0 ? 0 : looks_to;
	if (estimate_cell(d->u[0] + off, (size_t)n, d->u[1] + off, (size_t)n, &p, &e) < 0)
		abort();
	a = e.v.regression;
	if (alpha > 0 && e.reason == ESTIMATE_REASON_NONE) {
		struct verdict v = e.v;

		verdict_decide_interval(v.log_m, v.log_se, v.df, alpha, BAND, &v);
		a = v.regression;
	}
	estimate_release(&e);
	return a;
}

static int decided(enum verdict_regression a)
{
	return a == VERDICT_REG_YES || a == VERDICT_REG_NO;
}

/* A candidate rule: the looks_to a look at the pool of batches whose own
 * looks_to are lt[0..nb) pays (0: a fixed batch). */
typedef int64_t (*pool_rule)(const int64_t *lt, int nb);

/* Candidate rule "max": the largest looks_to of the pooled batches, as the
 * design is read today (design_looks()): a pool of fixed batches is fixed. */
static int64_t rule_max(const int64_t *lt, int nb)
{
	int64_t m = 0;

	for (int b = 0; b < nb; b++)
		if (lt[b] > m)
			m = lt[b];
	return m;
}

/* Candidate rule "sum": every look any pooled batch took counts, a sequential
 * batch's looks_to - 2 of them and a fixed batch's one, and the pool pays
 * Pocock's level for that many looks: looks_to = 2 + the sum. One fixed batch
 * is one look, a fixed design (0: 5%; 3 would be estimate_look_alpha()'s
 * alpha itself, the sequential share of 4%); one sequential batch gives its own
 * looks_to back. */
static int64_t rule_sum(const int64_t *lt, int nb)
{
	int64_t looks = 0;

	for (int b = 0; b < nb; b++)
		looks += lt[b] ? lt[b] - (ESTIMATE_FIRST_LOOK - 1) : 1;
	if (looks <= 1)
		return 0;
	looks += ESTIMATE_FIRST_LOOK - 1;
	return looks < ESTIMATE_MAX_LOOK ? looks : ESTIMATE_MAX_LOOK;
}

/* Candidate rule "ceiling": a pool of two batches or more pays the longest
 * design there is (ESTIMATE_MAX_LOOK, 0.40%), whatever its batches did; one
 * batch keeps its own level. The strictest level a looks_to can say. */
static int64_t rule_ceiling(const int64_t *lt, int nb)
{
	return nb > 1 ? ESTIMATE_MAX_LOOK : lt[0];
}

/* The looks of a whole plan, for the "planned" reference: as "sum", and the
 * look at the pool counts itself as one more when the batches were each looked
 * at alone before it (a sequential batch always was; a fixed batch's one look
 * is the look at the pool that ends with it, so it adds nothing). */
static int64_t rule_sum_self(const int64_t *lt, int nb)
{
	int64_t s = rule_sum(lt, nb);
	int seq = 0;

	for (int b = 0; b < nb; b++)
		seq |= lt[b] > 0;
	if (nb > 1 && seq)
		s++;
	return s < ESTIMATE_MAX_LOOK ? s : ESTIMATE_MAX_LOOK;
}

/* How a row's comparisons look. The pool rules change only the looks at pools
 * of two batches or more; the references change the batches' own looks too. */
enum mode {
	MODE_POOL,        /* a candidate rule for the pooled looks */
	MODE_PLANNED,     /* every look, the first batch's too, at fn of the whole
			     plan, as if the later batches had been declared before
			     the first look */
	MODE_PLANNED_CONT, /* as planned, and a second --until-decided batch
			      continues the first: after each of its rounds from
			      the third it looks at the pool of both, not at
			      itself alone (sequential scenarios only) */
	MODE_CONT,        /* the first batch at today's level, the second
			     continuing it at fn (sequential scenarios only) */
};

struct rule {
	const char *name;
	pool_rule fn;    /* NULL: alpha */
	double alpha;    /* the level of every pooled look (pools of 2 batches or
			    more); 0 with no fn: the pool is not looked at, the
			    error of the batches' own looks */
	enum mode mode;
};

static const struct rule rules[] = {
	{ "none", NULL, 0, MODE_POOL },
	{ "max", rule_max, 0, MODE_POOL },
	{ "sum", rule_sum, 0, MODE_POOL },
	{ "level 1%", NULL, 0.01, MODE_POOL },
	{ "ceiling", rule_ceiling, 0, MODE_POOL },
	{ "level 0.2%", NULL, 0.002, MODE_POOL },
	{ "planned", rule_sum_self, 0, MODE_PLANNED },
	{ "planned, continuing", rule_sum, 0, MODE_PLANNED_CONT },
	{ "sum, continuing", rule_sum, 0, MODE_CONT },
	{ "ceiling, continuing", rule_ceiling, 0, MODE_CONT },
};
#define N_RULES (sizeof(rules) / sizeof(rules[0]))

/* A look at the pool of the batches that lt[0..nb) describe, rounds [0, n). */
static enum verdict_regression pool_look(const struct rounds *d, int n, const struct rule *ru,
					 const int64_t *lt, int nb)
{
	if (ru->fn || nb < 2)
		return look(d, 0, n, ru->fn ? ru->fn(lt, nb) : lt[0], 0);
	if (!(ru->alpha > 0))
		return VERDICT_REG_UNDECIDED;
	return look(d, 0, n, 0, ru->alpha);
}

struct tally {
	long yes, no, open;     /* the whole procedure: any look that said yes / no; none */
	long pool_yes, pool_no; /* the pooled looks alone (pools of 2 batches or more) */
	long pooled;            /* comparisons that reached a pooled look */
	double rounds;          /* summed rounds run */
	int64_t lt;             /* the looks_to of the last pooled look (-1: re-decided) */
};

static void count(struct tally *t, enum verdict_regression a, int pooled)
{
	if (pooled) {
		t->pool_yes += a == VERDICT_REG_YES;
		t->pool_no += a == VERDICT_REG_NO;
	}
}

/* Fixed batches of per rounds, a look after each at the pool so far (the first
 * one alone), stopping at the first answer; nb batches at most. */
static void sim_fixed(const struct rounds *d, int nb, int per, struct tally *t)
{
	int64_t lt[MAX_BATCHES] = { 0 };

	for (size_t k = 0; k < N_RULES; k++) {
		const struct rule *ru = &rules[k];
		enum verdict_regression a = VERDICT_REG_UNDECIDED;
		int b;

		if (ru->mode == MODE_PLANNED_CONT || ru->mode == MODE_CONT)
			continue;
		t[k].lt = ru->fn ? ru->fn(lt, nb) : -1;
		for (b = 1; b <= nb; b++) {
			if (ru->mode == MODE_PLANNED)
				a = look(d, 0, b * per, t[k].lt, 0);
			else
				a = pool_look(d, b * per, ru, lt, b);
			count(&t[k], a, b > 1);
			if (b == 2)
				t[k].pooled++;
			if (decided(a))
				break;
		}
		t[k].rounds += (b > nb ? nb : b) * per;
		if (a == VERDICT_REG_YES)
			t[k].yes++;
		else if (a == VERDICT_REG_NO)
			t[k].no++;
		else
			t[k].open++;
	}
}

/* The first answer of an --until-decided batch on rounds [off, off + h) that
 * looks at the level of looks_to: its rounds in *used. */
static enum verdict_regression seq_batch(const struct rounds *d, int off, int h,
					 int64_t looks_to, int *used)
{
	for (int r = ESTIMATE_FIRST_LOOK; r <= h; r++) {
		enum verdict_regression a = look(d, off, r, looks_to, 0);

		if (decided(a)) {
			*used = r;
			return a;
		}
	}
	*used = h;
	return VERDICT_REG_UNDECIDED;
}

/* A second --until-decided batch of --max-rounds h that continues an open first
 * one of h rounds: after each of its rounds from the third it looks at the pool
 * of both at the level of looks_to; its rounds in *used. */
static enum verdict_regression continue_batch(const struct rounds *d, int h, int64_t looks_to,
					      int *used)
{
	for (int r = ESTIMATE_FIRST_LOOK; r <= h; r++) {
		enum verdict_regression a = look(d, 0, h + r, looks_to, 0);

		if (decided(a)) {
			*used = r;
			return a;
		}
	}
	*used = h;
	return VERDICT_REG_UNDECIDED;
}

static void tally_answer(struct tally *t, int yes, int no)
{
	t->yes += yes;
	t->no += no;
	t->open += !yes && !no;
}

/* Two --until-decided batches of --max-rounds h, then one look at their pool
 * (the rounds batch 2 ran). The batches' own looks at today's level are the
 * same for every pool rule, so they are taken once. */
static void sim_seq(const struct rounds *d, int h, struct tally *t)
{
	int64_t lt[2] = { h, h };
	int u1, u2 = 0;
	enum verdict_regression a1 = seq_batch(d, 0, h, h, &u1), a2 = VERDICT_REG_UNDECIDED;

	if (!decided(a1))
		a2 = seq_batch(d, h, h, h, &u2);
	for (size_t k = 0; k < N_RULES; k++) {
		const struct rule *ru = &rules[k];
		int planned = ru->mode == MODE_PLANNED || ru->mode == MODE_PLANNED_CONT;
		enum verdict_regression b1 = a1, b2 = a2, ap;
		int v1 = u1, v2 = u2;

		t[k].lt = ru->fn ? ru->fn(lt, 2) : -1;
		if (planned)
			b1 = seq_batch(d, 0, h, t[k].lt, &v1);
		if (decided(b1)) {
			t[k].rounds += v1;
			tally_answer(&t[k], b1 == VERDICT_REG_YES, b1 == VERDICT_REG_NO);
			continue;
		}
		t[k].pooled++;
		if (ru->mode == MODE_PLANNED_CONT || ru->mode == MODE_CONT) {
			/* Its looks are at the pool: its last is the pooled look. */
			b2 = continue_batch(d, h, t[k].lt, &v2);
			t[k].rounds += h + v2;
			count(&t[k], b2, 1);
			tally_answer(&t[k], b2 == VERDICT_REG_YES, b2 == VERDICT_REG_NO);
			continue;
		}
		if (planned)
			b2 = seq_batch(d, h, h, t[k].lt, &v2);
		t[k].rounds += h + v2;
		if (planned)
			ap = look(d, 0, h + v2, t[k].lt, 0);
		else
			ap = pool_look(d, h + v2, ru, lt, 2);
		count(&t[k], ap, 1);
		tally_answer(&t[k], b2 == VERDICT_REG_YES || ap == VERDICT_REG_YES,
			     b2 == VERDICT_REG_NO || ap == VERDICT_REG_NO);
	}
}

static void level_name(const struct rule *ru, int64_t lt, char *buf, size_t n)
{
	if (!ru->fn && !(ru->alpha > 0))
		snprintf(buf, n, "not looked at");
	else if (!ru->fn)
		snprintf(buf, n, "%.2f%%", ru->alpha * 100);
	else if (lt)
		snprintf(buf, n, "%lld: %.2f%%", (long long)lt,
			 estimate_look_alpha(lt, VERDICT_ALPHA * ESTIMATE_SEQ_ALPHA_SHARE) * 100);
	else
		snprintf(buf, n, "0: 5.00%%");
}

int main(int argc, char **argv)
{
	static const struct { const char *name; int kind, nb, per; } scen[] = {
		{ "fixed 3+3", 0, 2, 3 }, { "fixed 5+5", 0, 2, 5 },
		{ "seq H=5, 2 batches", 1, 2, 5 }, { "seq H=10, 2 batches", 1, 2, 10 },
		{ "fixed 3+3+3", 0, 3, 3 }, { "fixed 5+5+5", 0, 3, 5 },
	};
	static const struct { const char *name; double delta; } truths[] = {
		{ "margin -2%", -0.02 }, { "a/a 0%", 0 }, { "-3%", -0.03 }, { "+3%", 0.03 },
	};
	static struct rounds d;
	long n = argc > 1 ? atol(argv[1]) : 2000;

	if (argc > 2)
		rng_state = strtoull(argv[2], NULL, 10) | 1;
	printf("%ld comparisons a row; requests %.1f%%, instances %.1f%%, drift %.1f%%, %d "
	       "requests an instance, band %.1f%%\n", n, REQ_SD * 100, INST_SD * 100,
	       DRIFT_SD * 100, N_REQ, BAND);
	printf("yes/no: some look answered it (seq: batch 1, batch 2 alone or the pool); open: "
	       "none did. pool yes/no: the pooled looks alone, of all comparisons.\n\n");
	printf("| scenario | truth | rule | last pool's looks_to: level | yes | no | open | "
	       "mean rounds | pooled | pool yes | pool no |\n");
	printf("| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	for (size_t s = 0; s < sizeof(scen) / sizeof(scen[0]); s++) {
		for (size_t i = 0; i < sizeof(truths) / sizeof(truths[0]); i++) {
			struct tally t[N_RULES];

			memset(t, 0, sizeof(t));
			for (long k = 0; k < n; k++) {
				draw(&d, scen[s].nb, scen[s].per, truths[i].delta);
				if (scen[s].kind)
					sim_seq(&d, scen[s].per, t);
				else
					sim_fixed(&d, scen[s].nb, scen[s].per, t);
			}
			for (size_t k = 0; k < N_RULES; k++) {
				char lv[32];

				if ((rules[k].mode == MODE_PLANNED_CONT ||
				     rules[k].mode == MODE_CONT) && !scen[s].kind)
					continue;
				level_name(&rules[k], t[k].lt, lv, sizeof(lv));
				printf("| %s | %s | %s | %s | %.2f%% | %.2f%% | %.1f%% | %.1f | %.1f%% | "
				       "%.2f%% | %.2f%% |\n", scen[s].name, truths[i].name,
				       rules[k].name, lv, 100.0 * t[k].yes / n, 100.0 * t[k].no / n,
				       100.0 * t[k].open / n, t[k].rounds / n,
				       100.0 * t[k].pooled / n, 100.0 * t[k].pool_yes / n,
				       100.0 * t[k].pool_no / n);
			}
			fflush(stdout);
		}
	}
	return 0;
}
