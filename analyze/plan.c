/* plan.c: the variance parts, the costs and the cheapest design of a cell: the
 * round variance of a pair from its matched rounds, the rounds the sequential rule
 * needs for a chance of deciding (simulated through estimate_cell()), and the reps
 * of every prompt that cost the least (Kalibera and Jones, ISMM 2013, for m*). */
#include "analyze/plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/estimate.h"
#include "analyze/stats.h"
#include "analyze/verdict.h"
#include "tpsdb.h"

void plan_opts_init(struct plan_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->band_pct = VERDICT_BAND_PCT;
	o->power = 0.8;
	o->max_rounds = PLAN_MAX_ROUNDS;
	o->default_prompts = 9;
	o->default_reps = 3;
}

static int usable(double v)
{
	return isfinite(v) && v > 0;
}

int plan_status_designs(enum plan_status s)
{
	return s == PLAN_OK || s == PLAN_FEW_ROUNDS;
}

/* The mean log value of each (prompt, rep) slot over the instances of one side. */
struct slot {
	int64_t prompt_id, rep;
	double sum;
	size_t n;
};

static struct slot *slot_find(struct slot *s, size_t n, int64_t prompt_id, int64_t rep)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i].prompt_id == prompt_id && s[i].rep == rep)
			return &s[i];
	return NULL;
}

/* Adds one side's within-instance sum of squares and df to ssw and dfw, its
 * between-instance ones to ssb and dfb, and 1/requests of each instance to inv. */
static void side_parts(const struct plan_cell *c, enum plan_metric m, int side, double *ssw,
		       double *dfw, double *ssb, double *dfb, double *inv, size_t *n_inst,
		       size_t *n_req)
{
	struct slot *slots = NULL;
	double *means = NULL, grand = 0;
	size_t n_slots = 0, k = 0, i, j, req = 0;

	const struct pool *p = c->pool[side];
	size_t n_runs = p ? p->n : 0;

	for (i = 0; i < n_runs; i++) {
		const struct run_values *in = &p->runs[i]->values[m];

		for (j = 0; j < in->n; j++) {
			const struct run_value *v = &in->v[j];
			struct slot *s;

			if (!usable(v->value))
				continue;
			if (!(s = slot_find(slots, n_slots, v->prompt_id, v->rep))) {
				slots = tps_xrealloc(slots, (n_slots + 1) * sizeof(*slots));
				s = &slots[n_slots++];
				s->prompt_id = v->prompt_id;
				s->rep = v->rep;
				s->sum = 0;
				s->n = 0;
			}
			s->sum += log(v->value);
			s->n++;
		}
	}
	means = tps_xcalloc(n_runs + 1, sizeof(*means));
	for (i = 0; i < n_runs; i++) {
		const struct run_values *in = &p->runs[i]->values[m];
		double sum = 0, ss = 0, mean;
		size_t n = 0;

		for (j = 0; j < in->n; j++) {
			const struct run_value *v = &in->v[j];
			const struct slot *s;

			if (!usable(v->value))
				continue;
			s = slot_find(slots, n_slots, v->prompt_id, v->rep);
			sum += log(v->value) - s->sum / (double)s->n;
			n++;
		}
		if (!n)
			continue;
		mean = sum / (double)n;
		for (j = 0; j < in->n; j++) {
			const struct run_value *v = &in->v[j];
			const struct slot *s;
			double d;

			if (!usable(v->value))
				continue;
			s = slot_find(slots, n_slots, v->prompt_id, v->rep);
			d = log(v->value) - s->sum / (double)s->n - mean;
			ss += d * d;
		}
		*ssw += ss;
		*dfw += (double)(n - 1);
		*inv += 1.0 / (double)n;
		means[k++] = mean;
		req += n;
	}
	if (k) {
		/* The slot means took one degree of freedom each but the first. */
		*dfw -= (double)(n_slots - 1);
		for (i = 0; i < k; i++)
			grand += means[i];
		grand /= (double)k;
		for (i = 0; i < k; i++)
			*ssb += (means[i] - grand) * (means[i] - grand);
		*dfb += (double)(k - 1);
	}
	*n_inst = k;
	*n_req = req;
	free(slots);
	free(means);
}

void plan_components(const struct plan_cell *c, enum plan_metric m, int side_mask,
		     struct plan_row *row)
{
	double ssw = 0, dfw = 0, ssb = 0, dfb = 0, inv = 0, sw2, sm2;
	int side;

	row->sw_pct = row->sb_pct = row->sm_pct = NAN;
	row->n_inst = row->n_req = 0;
	row->inst[0] = row->inst[1] = 0;
	for (side = 0; side < 2; side++) {
		size_t k = 0, r = 0;

		if (!(side_mask & (1 << side)))
			continue;
		side_parts(c, m, side, &ssw, &dfw, &ssb, &dfb, &inv, &k, &r);
		row->inst[side] = k;
		row->n_inst += k;
		row->n_req += r;
	}
	row->df_w = dfw;
	row->df_b = dfb;
	if (dfw < 1)
		return;
	sw2 = ssw / dfw;
	row->sw_pct = 100 * sqrt(sw2);
	if (dfb < 1)
		return;
	sm2 = ssb / dfb;
	row->sm_pct = 100 * sqrt(sm2);
	/* var(instance mean) = s_b^2 + s_w^2 / n: n the harmonic mean of the requests
	 * per instance, since each instance adds s_w^2 / n_i. */
	row->sb_pct = 100 * sqrt(fmax(0.0, sm2 - sw2 * inv / (double)row->n_inst));
}

size_t plan_pair_components(const struct plan_cell *c, enum plan_metric m,
			    struct plan_row *row)
{
	struct estimate_unit *ua = NULL, *ub = NULL;
	size_t *ia = NULL, *ib = NULL, *pairs = NULL, na = 0, nb = 0, r = 0, i;
	double *d = NULL, inv = 0, sw, var;
	size_t n_inv = 0;

	plan_components(c, m, 3, row);
	row->n_rounds = 0;
	row->sd_d_pct = row->sbd_pct = row->fit_sd_pct = row->inv_m = NAN;
	if (!c->pool[0] || !c->pool[1])
		return 0;
	ua = pool_units(c->pool[0], (enum run_metric)m);
	ub = pool_units(c->pool[1], (enum run_metric)m);
	ia = tps_xcalloc(c->pool[0]->n + 1, sizeof(*ia));
	ib = tps_xcalloc(c->pool[1]->n + 1, sizeof(*ib));
	for (i = 0; i < c->pool[0]->n; i++)
		if (isfinite(estimate_unit_log(&ua[i])))
			ia[na++] = i;
	for (i = 0; i < c->pool[1]->n; i++)
		if (isfinite(estimate_unit_log(&ub[i])))
			ib[nb++] = i;
	pairs = tps_xcalloc(2 * (na < nb ? na : nb) + 2, sizeof(*pairs));
	r = estimate_rounds(ua, ia, na, ub, ib, nb, pairs);
	d = tps_xcalloc(r + 1, sizeof(*d));
	for (i = 0; i < r; i++) {
		const struct estimate_unit *x = &ua[ia[pairs[2 * i]]];
		const struct estimate_unit *y = &ub[ib[pairs[2 * i + 1]]];
		const struct estimate_unit *xy[2] = { x, y };

		d[i] = estimate_unit_log(x) - estimate_unit_log(y);
		for (int k = 0; k < 2; k++) {
			size_t n = 0;

			for (size_t j = 0; j < xy[k]->n; j++)
				n += usable(xy[k]->vals[j].value);
			if (n) {
				inv += 1.0 / (double)n;
				n_inv++;
			}
		}
	}
	row->n_rounds = r;
	if (r >= 2 && n_inv) {
		var = stats_stddev(d, r);
		var *= var;
		row->sd_d_pct = 100 * sqrt(var);
		row->inv_m = inv / (double)n_inv;
		if (!isnan(row->sw_pct)) {
			sw = row->sw_pct / 100;
			row->sbd_pct = 100 * sqrt(fmax(0.0, var - 2 * sw * sw * row->inv_m));
			row->fit_sd_pct = 100 * sqrt(row->sbd_pct * row->sbd_pct / 1e4 +
						     2 * sw * sw * row->inv_m);
		}
	}
	free(d);
	free(pairs);
	free(ia);
	free(ib);
	free(ua);
	free(ub);
	return r;
}

/* xorshift64*: a small generator, so that a plan is the same on every host. */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/* A uniform in (0, 1). */
static double rng_unit(uint64_t *s)
{
	return ((double)(rng_next(s) >> 11) + 0.5) / 9007199254740992.0;
}

/* A standard normal (Box-Muller, one of the pair). */
static double rng_normal(uint64_t *s)
{
	double u = rng_unit(s), v = rng_unit(s);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

#define PLAN_SEED 0x9e3779b97f4a7c15ULL
/* The round sd the simulated batches are drawn at: the estimate is linear in the
 * round log ratios, so a batch drawn once serves every round sd by scaling, and
 * at 1% the outlier rule's floor (ESTIMATE_OUTLIER_MIN_LOG) keeps it as quiet as
 * it is on real rounds. */
#define PLAN_SIM_SD 0.01

/* Start times that alternate who goes first, as collect does round by round, so
 * the estimate stratifies by order as it does for a real batch. */
static const char *const starts[2] = { "2000-01-01T00:00:00Z", "2000-01-01T00:00:01Z" };

/* The simulated batches: for batch k and look n, the estimate's log ratio and
 * standard error over its first n rounds at PLAN_SIM_SD (NaN when that look
 * decides nothing whatever its numbers). Built once per process and grown on
 * demand; batch k's draws depend on k alone, so a batch's first rounds are the
 * same whatever the rounds asked. */
static struct {
	size_t n_sims, looks;
	double *m, *se;       /* [k * (looks + 1) + n] */
} sims;

static uint64_t splitmix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static void sims_build(size_t n_sims, size_t rounds)
{
	struct estimate_unit *a, *b;
	struct estimate_params p;
	size_t k, n, w = rounds + 1;

	if (sims.n_sims == n_sims && sims.looks >= rounds)
		return;
	/* Grown a look at a time, the batches would be drawn again for each. */
	if (sims.n_sims == n_sims && rounds < 2 * sims.looks)
		rounds = 2 * sims.looks < ESTIMATE_MAX_LOOK ? 2 * sims.looks : ESTIMATE_MAX_LOOK;
	w = rounds + 1;
	free(sims.m);
	free(sims.se);
	sims.n_sims = n_sims;
	sims.looks = rounds;
	sims.m = tps_xcalloc(n_sims * w, sizeof(*sims.m));
	sims.se = tps_xcalloc(n_sims * w, sizeof(*sims.se));
	estimate_params_init(&p);
	/* The band and the level do not move the log ratio or its error. */
	a = tps_xcalloc(rounds, sizeof(*a));
	b = tps_xcalloc(rounds, sizeof(*b));
	for (n = 0; n < rounds; n++) {
		a[n].round = b[n].round = (int64_t)n + 1;
		a[n].batch = b[n].batch = "plan";
		a[n].started_at = starts[n % 2];
		b[n].started_at = starts[1 - n % 2];
	}
	for (k = 0; k < n_sims; k++) {
		uint64_t seed = splitmix(PLAN_SEED + k) | 1;

		for (n = 0; n < rounds; n++) {
			/* Half the round's log ratio on each side: only d counts. */
			double h = PLAN_SIM_SD * rng_normal(&seed) / 2;

			a[n].value = exp(h);
			b[n].value = exp(-h);
		}
		for (n = 0; n < w; n++)
			sims.m[k * w + n] = sims.se[k * w + n] = NAN;
		for (n = ESTIMATE_FIRST_LOOK; n <= rounds; n++) {
			struct estimate e;

			if (estimate_cell(a, n, b, n, &p, &e) == 0 &&
			    e.reason == ESTIMATE_REASON_NONE &&
			    e.v.method == VERDICT_METHOD_ROUNDS) {
				sims.m[k * w + n] = e.v.log_m / PLAN_SIM_SD;
				sims.se[k * w + n] = e.v.log_se / PLAN_SIM_SD;
			}
			estimate_release(&e);
		}
	}
	free(a);
	free(b);
}

/* Whether the interval m -/+ q se (q the t quantile at 1 - alpha, df) answers the
 * regression question at band_pct: verdict_decide_interval() decides, except where
 * both ends lie clearly off the band's edge, where its answer is plain and the
 * quantile it would compute again is q (the simulation asks this millions of
 * times). */
static int answers(double m, double se, double q, double df, double alpha, double band_pct)
{
	double lo = (exp(m - q * se) - 1) * 100, hi = (exp(m + q * se) - 1) * 100;
	double edge = -band_pct, tol = 1e-6;
	struct verdict v;

	if (hi < edge - tol || lo > edge + tol)
		return 1;
	if (lo < edge - tol && hi > edge + tol)
		return 0;
	memset(&v, 0, sizeof(v));
	verdict_decide_interval(m, se, df, alpha, band_pct, &v);
	return v.regression == VERDICT_REG_YES || v.regression == VERDICT_REG_NO;
}

double plan_seq_chance(double round_sd, double band_pct, size_t rounds, size_t n_sims,
		       double *mean_rounds)
{
	size_t k, n, w, decided = 0;
	double ran = 0, alpha, *q = NULL;

	if (mean_rounds)
		*mean_rounds = NAN;
	if (!(round_sd >= 0) || !isfinite(round_sd) || !(band_pct > 0) || !isfinite(band_pct) ||
	    !n_sims || rounds > ESTIMATE_MAX_LOOK)
		return NAN;
	if (rounds < ESTIMATE_FIRST_LOOK) {
		if (mean_rounds)
			*mean_rounds = (double)rounds;
		return 0;
	}
	sims_build(n_sims, rounds);
	w = sims.looks + 1;
	/* The level estimate_cell() gives a batch that looks to rounds. */
	alpha = estimate_look_alpha((int64_t)rounds, VERDICT_ALPHA * ESTIMATE_SEQ_ALPHA_SHARE);
	q = tps_xcalloc(rounds + 1, sizeof(*q));
	for (n = ESTIMATE_FIRST_LOOK; n <= rounds; n++)
		q[n] = stats_t_quantile(1 - alpha, (double)(n - 1));
	for (k = 0; k < n_sims; k++) {
		for (n = ESTIMATE_FIRST_LOOK; n <= rounds; n++) {
			double m = round_sd * sims.m[k * w + n], se = round_sd * sims.se[k * w + n];

			if (isnan(se))
				continue;
			if (answers(m, se, q[n], (double)(n - 1), alpha, band_pct))
				break;
		}
		if (n <= rounds) {
			decided++;
			ran += (double)n;
		} else {
			ran += (double)rounds;
		}
	}
	free(q);
	if (mean_rounds)
		*mean_rounds = ran / (double)n_sims;
	return (double)decided / (double)n_sims;
}

size_t plan_rounds_needed(double round_sd, double band_pct, double power, size_t max_rounds,
			  double *chance, double *mean_rounds)
{
	size_t n;
	double ch = NAN, mr = NAN;

	*chance = *mean_rounds = NAN;
	if (!(power > 0 && power < 1) || max_rounds > ESTIMATE_MAX_LOOK)
		return 0;
	if (max_rounds >= ESTIMATE_FIRST_LOOK)
		sims_build(PLAN_SIMS, max_rounds);
	for (n = ESTIMATE_FIRST_LOOK; n <= max_rounds; n++) {
		ch = plan_seq_chance(round_sd, band_pct, n, PLAN_SIMS, &mr);
		if (isnan(ch))
			return 0;
		*chance = ch;
		*mean_rounds = mr;
		if (ch >= power)
			return n;
	}
	return 0;
}

/* Whether the interval m -/+ q se answers the parity question at band_pct: it
 * lies wholly above +band (faster), below -band (slower) or inside the band. */
static int answers_two_sided(double m, double se, double q, double band_pct)
{
	double lo = (exp(m - q * se) - 1) * 100, hi = (exp(m + q * se) - 1) * 100;

	return lo > band_pct || hi < -band_pct || (lo >= -band_pct && hi <= band_pct);
}

static int look_usable(const struct plan_look *l)
{
	return l && isfinite(l->m) && isfinite(l->se) && l->se > 0 && isfinite(l->df) &&
	       l->df >= 1 && l->rounds >= 2 && isfinite(l->band_pct) && l->band_pct > 0;
}

double plan_seq_chance_from(const struct plan_look *l, size_t max_rounds, size_t n_sims)
{
	size_t k, n, n0, decided = 0;
	double alpha, *q, s0, ss0, df0;

	if (!look_usable(l) || !n_sims || max_rounds > ESTIMATE_MAX_LOOK)
		return NAN;
	n0 = l->rounds;
	if (max_rounds <= n0)
		return 0;
	alpha = estimate_look_alpha((int64_t)max_rounds, VERDICT_ALPHA * ESTIMATE_SEQ_ALPHA_SHARE);
	q = tps_xcalloc(max_rounds + 1, sizeof(*q));
	s0 = l->se * sqrt((double)n0);
	df0 = l->df;
	ss0 = df0 * s0 * s0;
	for (n = n0 + 1; n <= max_rounds; n++)
		q[n] = stats_t_quantile(1 - alpha, df0 + (double)(n - n0));
	for (k = 0; k < n_sims; k++) {
		uint64_t seed = splitmix(PLAN_SEED + k) | 1;
		double sum = l->m * (double)n0, sx = 0, sxx = 0;

		for (n = n0 + 1; n <= max_rounds; n++) {
			double x = l->m + s0 * rng_normal(&seed), m, ss, df, se;
			size_t j = n - n0;

			sum += x;
			sx += x;
			sxx += x * x;
			m = sum / (double)n;
			/* The old rounds about the new mean, and the new ones. */
			ss = ss0 + (double)n0 * (l->m - m) * (l->m - m) +
			     (sxx - 2 * m * sx + (double)j * m * m);
			df = df0 + (double)j;
			se = sqrt(ss / df / (double)n);
			if (l->two_sided ? answers_two_sided(m, se, q[n], l->band_pct) :
			    answers(m, se, q[n], df, alpha, l->band_pct))
				break;
		}
		decided += n <= max_rounds;
	}
	free(q);
	return (double)decided / (double)n_sims;
}

size_t plan_rounds_from(const struct plan_look *l, double power)
{
	size_t lo, hi = ESTIMATE_MAX_LOOK, mid;
	double ch;

	if (!look_usable(l) || l->rounds >= ESTIMATE_MAX_LOOK)
		return 0;
	ch = plan_seq_chance_from(l, hi, PLAN_SIMS);
	if (!(ch >= power))
		return 0;
	/* chance(lo) < power <= chance(hi); the chance grows with the rounds. */
	lo = l->rounds;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (plan_seq_chance_from(l, mid, PLAN_SIMS) >= power)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* Medians of the cost parts: an instance's time outside its requests over the
 * complete instances whose every request has a wall time, and a request's wall
 * time over all of them. */
static void costs(const struct plan_cell *c, int side_mask, struct plan_row *row)
{
	double *over, *req;
	size_t i, j, n = 0, nreq = 0, r = 0, n_runs = 0;
	int side;

	for (side = 0; side < 2; side++) {
		const struct pool *p = c->pool[side];

		if (!p || !(side_mask & (1 << side)))
			continue;
		n_runs += p->n;
		for (i = 0; i < p->n; i++)
			nreq += p->runs[i]->n_wall;
	}
	over = tps_xcalloc(n_runs + 1, sizeof(*over));
	req = tps_xcalloc(nreq + 1, sizeof(*req));
	for (side = 0; side < 2; side++) {
		const struct pool *p = c->pool[side];

		if (!p || !(side_mask & (1 << side)))
			continue;
		for (i = 0; i < p->n; i++) {
			const struct run *in = p->runs[i];
			double wall_sum = 0;

			for (j = 0; j < in->n_wall; j++) {
				req[r++] = in->wall_ms[j];
				wall_sum += in->wall_ms[j];
			}
			if (isfinite(in->duration_ms) && in->n_wall == (size_t)in->n_samples &&
			    in->n_samples)
				over[n++] = fmax(0.0, in->duration_ms - wall_sum);
		}
	}
	row->n_cost = n;
	row->c_inst_ms = n ? stats_median(over, n) : NAN;
	row->c_req_ms = r ? stats_median(req, r) : NAN;
	free(over);
	free(req);
}

/* The predicted variance of one round's log ratio with m requests an instance. */
static double round_var(const struct plan_row *row, double m)
{
	double sw = row->sw_pct / 100;

	if (row->status == PLAN_OK && row->paired) {
		double sbd = row->sbd_pct / 100;

		return sbd * sbd + 2 * sw * sw / m;
	}
	return 2 * (row->sb_pct / 100 * row->sb_pct / 100 + sw * sw / m);
}

/* The server time of one round of design d: an instance of each side. */
static double round_cost(const struct plan_row *row, const struct plan_design *d)
{
	return 2 * (row->c_inst_ms + (double)(d->prompts * d->reps) * row->c_req_ms) / 1000;
}

/* Fills d's predictions for the variance parts and costs of row. */
static void predict(const struct plan_row *row, const struct plan_opts *o,
		    struct plan_design *d)
{
	double var = round_var(row, (double)(d->prompts * d->reps));

	d->round_sd_pct = 100 * sqrt(var);
	d->rounds = plan_rounds_needed(sqrt(var), o->band_pct, o->power, o->max_rounds,
				       &d->chance, &d->mean_rounds);
	d->server_s = d->rounds ? (double)d->rounds * round_cost(row, d) : NAN;
}

/* The most reps of every one of the cell's prompts within PLAN_MAX_REQUESTS (at
 * least 1). */
static size_t most_reps(const struct plan_cell *c)
{
	size_t p = c->n_prompts ? c->n_prompts : 1;

	return p >= PLAN_MAX_REQUESTS ? 1 : PLAN_MAX_REQUESTS / p;
}

/* Whether design d beats best: of those in reach the least server time; while
 * none is, the higher chance (the nearest miss, what more rounds would build on).
 * Ties keep best, the fewer reps. */
static int better(const struct plan_design *d, const struct plan_design *best)
{
	if (d->rounds && best->rounds)
		return d->server_s < best->server_s;
	if (d->rounds || best->rounds)
		return d->rounds != 0;
	return d->chance > best->chance;
}

/* The rounds and server time of design d for both metrics of a cell: the larger
 * rounds; 0 rounds when either is beyond reach. */
static void predict_both(const struct plan_row *w, const struct plan_opts *o,
			 struct plan_design *d)
{
	struct plan_design a = *d, b = *d;

	predict(&w[PLAN_PP], o, &a);
	predict(&w[PLAN_TG], o, &b);
	d->round_sd_pct = d->chance = d->mean_rounds = NAN;
	d->rounds = a.rounds && b.rounds ? (a.rounds > b.rounds ? a.rounds : b.rounds) : 0;
	if (!d->rounds) /* for better() alone: the worse metric's chance */
		d->chance = fmin(a.chance, b.chance);
	d->server_s = d->rounds ? (double)d->rounds * round_cost(&w[PLAN_PP], d) : NAN;
}

/* The simulation's noise in a chance p: two standard errors of PLAN_SIMS
 * batches. */
static double chance_noise(double p)
{
	return 2 * sqrt(p * (1 - p) / PLAN_SIMS);
}

/* While no design is in reach, the most reps tends to have the highest chance
 * by a hair at the most server time a round: take instead the fewest reps whose
 * chance is within the simulation's noise of the best's. */
static void cheapest_near_miss(const struct plan_row *row, const struct plan_row *both,
			       const struct plan_opts *o, struct plan_design *best)
{
	struct plan_design d = *best;
	size_t r;

	if (best->rounds || isnan(best->chance))
		return;
	for (r = 1; r < best->reps; r++) {
		d.reps = r;
		if (both)
			predict_both(both, o, &d);
		else
			predict(row, o, &d);
		if (d.chance >= best->chance - chance_noise(best->chance)) {
			*best = d;
			return;
		}
	}
}

static void no_design(struct plan_design *d)
{
	memset(d, 0, sizeof(*d));
	d->round_sd_pct = d->server_s = d->chance = d->mean_rounds = NAN;
}

static void plan_row_fill(const struct plan_cell *c, enum plan_metric m, int two,
			  const struct plan_opts *o, struct plan_row *row)
{
	struct plan_design d;
	size_t r;

	memset(row, 0, sizeof(*row));
	row->cell = c;
	row->metric = m;
	row->m_star = row->cost_ratio = NAN;
	no_design(&row->best);
	no_design(&row->deflt);
	if (two) {
		plan_pair_components(c, m, row);
	} else {
		plan_components(c, m, 1, row);
		row->sd_d_pct = row->sbd_pct = row->fit_sd_pct = row->inv_m = NAN;
	}
	costs(c, two ? 3 : 1, row);
	row->status = PLAN_OK;
	row->paired = two && row->n_rounds >= 2 && !isnan(row->sbd_pct);
	if (!row->paired && (row->inst[0] < 2 || (two && row->inst[1] < 2))) {
		row->status = PLAN_FEW_INSTANCES;
		row->short_side = row->inst[0] < 2 ? 0 : 1;
		return;
	}
	if (isnan(row->sw_pct) || (!row->paired && isnan(row->sb_pct))) {
		row->status = PLAN_FEW_REQUESTS;
		return;
	}
	if (isnan(row->c_inst_ms) || isnan(row->c_req_ms) || !(row->c_req_ms > 0)) {
		row->status = PLAN_NO_COST;
		return;
	}
	if (two && !row->paired)
		row->status = PLAN_FEW_ROUNDS;
	{
		/* Kalibera and Jones over a round: cost 2 (c_inst + m c_req), variance
		 * B + W / m, least product at m* = sqrt(c_inst W / (c_req B)). */
		double sw = row->sw_pct / 100, sb = row->sb_pct / 100, sbd = row->sbd_pct / 100;
		double bb = row->paired ? sbd * sbd : 2 * sb * sb;

		if (bb > 0)
			row->m_star = sqrt(row->c_inst_ms * 2 * sw * sw / (row->c_req_ms * bb));
	}
	for (r = 1; r <= most_reps(c); r++) {
		d.prompts = c->n_prompts ? c->n_prompts : 1;
		d.reps = r;
		predict(row, o, &d);
		if (r == 1 || better(&d, &row->best))
			row->best = d;
	}
	cheapest_near_miss(row, NULL, o, &row->best);
	row->deflt.prompts = o->default_prompts;
	row->deflt.reps = o->default_reps;
	predict(row, o, &row->deflt);
	row->cost_ratio = row->deflt.server_s / row->best.server_s;
}

static void plan_both_fill(const struct plan_row *w, const struct plan_opts *o,
			   struct plan_both *out)
{
	struct plan_design d;
	size_t r;

	memset(out, 0, sizeof(*out));
	out->cell = w[0].cell;
	out->cost_ratio = NAN;
	no_design(&out->best);
	no_design(&out->deflt);
	if (!plan_status_designs(w[PLAN_PP].status) || !plan_status_designs(w[PLAN_TG].status))
		return;
	out->ok = 1;
	for (r = 1; r <= most_reps(out->cell); r++) {
		d.prompts = out->cell->n_prompts ? out->cell->n_prompts : 1;
		d.reps = r;
		predict_both(w, o, &d);
		if (r == 1 || better(&d, &out->best))
			out->best = d;
	}
	cheapest_near_miss(NULL, w, o, &out->best);
	out->deflt.prompts = o->default_prompts;
	out->deflt.reps = o->default_reps;
	predict_both(w, o, &out->deflt);
	out->cost_ratio = out->deflt.server_s / out->best.server_s;
}

int plan_decide(const struct plan_input *in, const struct plan_opts *o, struct plan_result *out)
{
	size_t i;
	int m;

	memset(out, 0, sizeof(*out));
	if (!(o->band_pct > 0) || !isfinite(o->band_pct) || !(o->power > 0 && o->power < 1) ||
	    o->max_rounds < 2 || o->max_rounds > ESTIMATE_MAX_LOOK || !o->default_prompts ||
	    !o->default_reps)
		return -1;
	out->band_pct = o->band_pct;
	out->power = o->power;
	out->max_rounds = o->max_rounds;
	out->rows = tps_xcalloc(in->n_cells * PLAN_N_METRICS + 1, sizeof(*out->rows));
	out->cells = tps_xcalloc(in->n_cells + 1, sizeof(*out->cells));
	for (i = 0; i < in->n_cells; i++) {
		struct plan_row *w = &out->rows[out->n_rows];

		for (m = 0; m < PLAN_N_METRICS; m++)
			plan_row_fill(&in->cells[i], (enum plan_metric)m, in->side[1] != NULL, o,
				      &out->rows[out->n_rows++]);
		plan_both_fill(w, o, &out->cells[out->n_cells++]);
	}
	return 0;
}

size_t plan_default_reps(const struct plan_result *r, size_t i, int m, size_t *rounds)
{
	const struct plan_design *d;

	if (rounds)
		*rounds = 0;
	if (!r || i >= r->n_cells || m < 0 || m > PLAN_N_METRICS)
		return 0;
	if (m == PLAN_N_METRICS) {
		if (!r->cells[i].ok)
			return 0;
		d = &r->cells[i].best;
	} else {
		if (!plan_status_designs(r->rows[i * PLAN_N_METRICS + (size_t)m].status))
			return 0;
		d = &r->rows[i * PLAN_N_METRICS + (size_t)m].best;
	}
	if (rounds)
		*rounds = d->rounds;
	return d->reps;
}

/* One cell of a plan: runs alike in all that sets a request's cost and rate. */
static int plan_same_cell(const struct run *a, const struct run *b)
{
	return run_same_cell(a, b) && a->ctx == b->ctx && a->n_predict == b->n_predict;
}

static size_t most_prompts(const struct pool *p, size_t most)
{
	for (size_t i = 0; p && i < p->n; i++)
		if ((size_t)p->runs[i]->n_prompts_asked > most)
			most = (size_t)p->runs[i]->n_prompts_asked;
	return most;
}

void plan_cells(const char *ours, const struct pool *a, size_t na, const char *vs,
		const struct pool *b, size_t nb, struct plan_input *in)
{
	size_t i, j;

	memset(in, 0, sizeof(*in));
	in->side[0] = ours;
	in->side[1] = vs;
	in->cells = tps_xcalloc(na + 1, sizeof(*in->cells));
	for (i = 0; i < na; i++) {
		const struct run *f = pool_face(&a[i]);
		const struct pool *pb = NULL;
		struct plan_cell *c;

		if (!f)
			continue;
		for (j = 0; vs && j < nb && !pb; j++)
			if (b[j].n && plan_same_cell(f, pool_face(&b[j])))
				pb = &b[j];
		if (vs && !pb)
			continue;
		c = &in->cells[in->n_cells++];
		c->model = f->model;
		c->spec_type = f->spec_type;
		c->endpoint = f->endpoint;
		c->config = f->config;
		c->n_max = f->n_max;
		c->ctx = f->ctx;
		c->n_predict = f->n_predict;
		c->pool[0] = &a[i];
		c->pool[1] = pb;
		c->n_prompts = most_prompts(pb, most_prompts(&a[i], 0));
	}
}

void plan_input_release(struct plan_input *in)
{
	if (!in)
		return;
	free(in->cells);
	memset(in, 0, sizeof(*in));
}

void plan_result_release(struct plan_result *r)
{
	if (!r)
		return;
	free(r->rows);
	free(r->cells);
	memset(r, 0, sizeof(*r));
}
