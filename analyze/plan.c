/* plan.c: the variance parts, the costs and the cheapest design of a cell
 * (Kalibera and Jones, "Rigorous Benchmarking in Reasonable Time", ISMM 2013, the
 * two-level case: instances, and requests within an instance). Pure. */
#include "analyze/plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "tpsdb.h"

void plan_opts_init(struct plan_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->mde_pct = 2.0;
	o->default_prompts = 9;
	o->default_reps = 3;
}

static int usable(double v)
{
	return isfinite(v) && v > 0;
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

size_t plan_rounds_needed(double var, double mde_pct)
{
	double h, sd;
	size_t n;

	if (!(var >= 0) || !isfinite(var) || !(mde_pct > 0) || !isfinite(mde_pct))
		return 0;
	h = asinh(mde_pct / 100);
	sd = sqrt(var);
	for (n = 2; n <= PLAN_MAX_ROUNDS; n++)
		if (stats_t_quantile(0.975, (double)(n - 1)) * sd / sqrt((double)n) <= h)
			return n;
	return 0;
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

/* The design of m requests split prompts first, held to PLAN_MAX_REQUESTS. A
 * speculative cell keeps every prompt it asked: its acceptance, and so what is
 * measured, depends on the prompt, so fewer prompts would measure another thing. */
static void split(size_t m, const struct plan_cell *c, struct plan_design *d)
{
	size_t p = c->n_prompts ? c->n_prompts : 1, r;

	if (c->spec_type && *c->spec_type && m < p)
		m = p;
	if (p > m)
		p = m;
	r = (m + p - 1) / p;
	if (p * r > PLAN_MAX_REQUESTS)
		r = PLAN_MAX_REQUESTS / p;
	d->prompts = p;
	d->reps = r ? r : 1;
}

/* Fills d's predictions for the variance parts and costs of row. */
static void predict(const struct plan_row *row, double mde_pct, struct plan_design *d)
{
	double sw = row->sw_pct / 100, sb = row->sb_pct / 100;
	double m = (double)(d->prompts * d->reps);
	double var = 2 * (sb * sb + sw * sw / m);

	d->round_sd_pct = 100 * sqrt(var);
	d->rounds = plan_rounds_needed(var, mde_pct);
	d->server_s = d->rounds ? (double)d->rounds * 2 * (row->c_inst_ms + m * row->c_req_ms) / 1000
				: NAN;
}

/* Cost times variance per round: the smaller, the less server time any precision
 * takes (rounds scale with the variance, time with the cost). */
static double effort(const struct plan_row *row, const struct plan_design *d)
{
	double sw = row->sw_pct / 100, sb = row->sb_pct / 100;
	double m = (double)(d->prompts * d->reps);

	return (row->c_inst_ms + m * row->c_req_ms) * (sb * sb + sw * sw / m);
}

static void plan_row_fill(const struct plan_cell *c, enum plan_metric m, int two,
			  const struct plan_opts *o, struct plan_row *row)
{
	int mask = two ? 3 : 1;
	struct plan_design lo, hi;
	double ms, cin, sw, sb;
	size_t fl;

	memset(row, 0, sizeof(*row));
	row->cell = c;
	row->metric = m;
	row->m_star = row->cost_ratio = NAN;
	row->best.round_sd_pct = row->best.server_s = NAN;
	row->deflt.round_sd_pct = row->deflt.server_s = NAN;
	plan_components(c, m, mask, row);
	costs(c, mask, row);
	row->status = PLAN_OK;
	if (row->inst[0] < 2 || (two && row->inst[1] < 2)) {
		row->status = PLAN_FEW_INSTANCES;
		row->short_side = row->inst[0] < 2 ? 0 : 1;
		return;
	}
	if (isnan(row->sw_pct) || isnan(row->sb_pct)) {
		row->status = PLAN_FEW_REQUESTS;
		return;
	}
	if (isnan(row->c_inst_ms) || isnan(row->c_req_ms) || !(row->c_req_ms > 0)) {
		row->status = PLAN_NO_COST;
		return;
	}
	sw = row->sw_pct / 100;
	sb = row->sb_pct / 100;
	cin = row->c_inst_ms;
	ms = sb > 0 ? sqrt(cin * sw * sw / (row->c_req_ms * sb * sb)) : INFINITY;
	row->m_star = ms;
	if (!(ms < PLAN_MAX_REQUESTS)) {
		/* m* beyond the cap (SD_B 0: unbounded): more requests only help until the
		 * rounds, whole numbers of at least 2, stop falling; take the design of
		 * at most PLAN_MAX_REQUESTS with the least predicted server time. */
		row->capped = 1;
		split(1, c, &row->best);
		predict(row, o->mde_pct, &row->best);
		for (fl = 2; fl <= PLAN_MAX_REQUESTS; fl++) {
			split(fl, c, &hi);
			predict(row, o->mde_pct, &hi);
			if (hi.rounds && (!row->best.rounds || hi.server_s < row->best.server_s))
				row->best = hi;
		}
	} else {
		fl = ms < 1 ? 1 : (size_t)floor(ms);
		split(fl, c, &lo);
		split(fl + 1, c, &hi);
		row->best = effort(row, &hi) < effort(row, &lo) ? hi : lo;
		predict(row, o->mde_pct, &row->best);
	}
	row->deflt.prompts = o->default_prompts;
	row->deflt.reps = o->default_reps;
	predict(row, o->mde_pct, &row->deflt);
	row->cost_ratio = row->deflt.server_s / row->best.server_s;
}

/* The rounds and server time of design d for both metrics of a cell: the larger
 * rounds; 0 rounds when either is beyond reach. */
static void predict_both(const struct plan_row *w, double mde_pct, struct plan_design *d)
{
	struct plan_design a = *d, b = *d;

	predict(&w[PLAN_PP], mde_pct, &a);
	predict(&w[PLAN_TG], mde_pct, &b);
	d->round_sd_pct = NAN;
	d->rounds = a.rounds && b.rounds ? (a.rounds > b.rounds ? a.rounds : b.rounds) : 0;
	d->server_s = d->rounds ? (a.rounds > b.rounds ? a.server_s : b.server_s) : NAN;
}

static void plan_both_fill(const struct plan_row *w, const struct plan_opts *o,
			   struct plan_both *out)
{
	struct plan_design d;
	size_t p, r, all;
	int spec;

	memset(out, 0, sizeof(*out));
	out->cell = w[0].cell;
	out->cost_ratio = out->best.round_sd_pct = out->best.server_s = NAN;
	out->deflt.round_sd_pct = out->deflt.server_s = NAN;
	if (w[PLAN_PP].status != PLAN_OK || w[PLAN_TG].status != PLAN_OK)
		return;
	out->ok = 1;
	/* Every prompts x reps the cell allows, most prompts first, so that a tie goes
	 * to the design that covers more prompts. */
	all = out->cell->n_prompts ? out->cell->n_prompts : 1;
	if (all > PLAN_MAX_REQUESTS)
		all = PLAN_MAX_REQUESTS;
	spec = out->cell->spec_type && *out->cell->spec_type;
	for (p = all; p >= 1 && (!spec || p == all); p--) {
		for (r = 1; p * r <= PLAN_MAX_REQUESTS; r++) {
			d.prompts = p;
			d.reps = r;
			predict_both(w, o->mde_pct, &d);
			if (d.rounds && (!out->best.rounds || d.server_s < out->best.server_s))
				out->best = d;
		}
	}
	out->deflt.prompts = o->default_prompts;
	out->deflt.reps = o->default_reps;
	predict_both(w, o->mde_pct, &out->deflt);
	out->cost_ratio = out->deflt.server_s / out->best.server_s;
}

int plan_decide(const struct plan_input *in, const struct plan_opts *o, struct plan_result *out)
{
	size_t i;
	int m;

	memset(out, 0, sizeof(*out));
	if (!(o->mde_pct > 0) || !isfinite(o->mde_pct) || !o->default_prompts || !o->default_reps)
		return -1;
	out->mde_pct = o->mde_pct;
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
