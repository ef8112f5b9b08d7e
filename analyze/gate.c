/* gate.c: the gate decision over plain cells: match each candidate cell with its
 * baseline run, gate every metric on the means, and add the findings, sweep
 * violations (and sweep steps across machines, open) and change points the
 * options ask for. Words are reports/gate_write.c's;
 * the numbers come from analyze/verdict.c, analyze/trend.c and the series. */
#include "analyze/gate.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/config.h"
#include "analyze/stats.h"
#include "analyze/sweep.h"
#include "analyze/trend.h"
#include "tpsdb.h"

static const char *const metric_names[GATE_N_METRICS] = { "pp", "tg", "accept" };

const char *gate_metric_name(int metric)
{
	return metric >= 0 && metric < GATE_N_METRICS ? metric_names[metric] : "?";
}

int gate_metric_index(const char *name)
{
	int i;

	for (i = 0; i < GATE_N_METRICS; i++)
		if (!strcmp(name, metric_names[i]))
			return i;
	return -1;
}

static const char *const fail_on_names[] = { "regression", "inconclusive", "environment",
					     "output" };

const char *gate_fail_on_name(unsigned bit)
{
	for (size_t i = 0; i < 4; i++)
		if (bit == 1u << i)
			return fail_on_names[i];
	return "?";
}

int gate_fail_on_parse(const char *list, unsigned *out, char *bad, size_t bad_len)
{
	const char *p = list;

	*out = 0;
	do {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p), i;

		for (i = 0; i < 4; i++)
			if (n == strlen(fail_on_names[i]) && !strncmp(p, fail_on_names[i], n))
				break;
		if (i == 4) {
			tps_copy(bad, bad_len, p, n);
			return -1;
		}
		*out |= 1u << i;
		p = comma ? comma + 1 : NULL;
	} while (p);
	return 0;
}

const char *gate_status_name(enum gate_status s)
{
	return s == GATE_STATUS_FAIL ? "FAIL" : s == GATE_STATUS_OPEN ? "INCONCLUSIVE" : "PASS";
}

void gate_params_init(struct gate_params *p)
{
	int m;

	memset(p, 0, sizeof(*p));
	p->fail_on = GATE_FAIL_REGRESSION;
	for (m = 0; m < GATE_N_METRICS; m++) {
		p->threshold[m] = VERDICT_MAX_REGRESS_PCT;
		p->gated[m] = 1;
	}
}

static int same_cell(const struct gate_cell *a, const struct gate_cell *b)
{
	return run_same_cell(a->side, b->side);
}

static struct gate_note *add_note(struct gate_result *r, enum gate_note_kind kind,
				  const struct gate_cell *cell)
{
	struct gate_note *n;

	r->notes = tps_xrealloc(r->notes, (r->n_notes + 1) * sizeof(*r->notes));
	n = &r->notes[r->n_notes++];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->cell = cell;
	return n;
}

/* The baseline pool of the candidate's cell: the same engine if the baseline has
 * one, else the first engine in it; *n_choices counts the engines it holds. */
static const struct gate_cell *baseline_for(const struct gate_cell *base, size_t n_base,
					    const struct gate_cell *c, size_t *n_choices)
{
	const struct gate_cell *first = NULL;
	size_t i;

	*n_choices = 0;
	for (i = 0; i < n_base; i++) {
		const struct gate_cell *b = &base[i];
		if (!same_cell(b, c))
			continue;
		(*n_choices)++;
		if (!strcmp(b->side->engine, c->side->engine))
			return b;
		if (!first)
			first = b;
	}
	return first;
}

static struct gate_finding *add_finding(struct gate_result *r, const struct gate_cell *c)
{
	struct gate_finding *f;

	r->find = tps_xrealloc(r->find, (r->n_find + 1) * sizeof(*r->find));
	f = &r->find[r->n_find++];
	memset(f, 0, sizeof(*f));
	f->cell = c;
	f->base = c->base;
	return f;
}

/* The flags carried by the samples of a candidate cell's runs. */
static void add_findings(const struct gate_cell *c, struct gate_result *r)
{
	int64_t count[GATE_N_FLAGS] = { 0 }, n_samples = 0;
	size_t i, k;

	for (k = 0; k < c->pool->n; k++) {
		n_samples += c->pool->runs[k]->n_samples;
		for (i = 0; i < GATE_N_FLAGS; i++)
			count[i] += c->pool->runs[k]->flag_counts[i];
	}
	for (i = 0; i < GATE_N_FLAGS; i++) {
		struct gate_finding *f;

		if (!count[i])
			continue;
		f = add_finding(r, c);
		f->flag = 1u << i;
		f->count = count[i];
		f->n_samples = n_samples;
		f->fails = GATE_FAIL_ENVIRONMENT;
	}
}

/* The environment of a cell of either side: the RUN_ENV_* findings of its runs
 * and their degenerate-output samples, each one finding. */
static void add_env_findings(const struct gate_cell *c, struct gate_result *r)
{
	int64_t degenerate = 0, n_samples = 0;
	unsigned env = pool_env(c->pool);
	struct gate_finding *f;

	for (size_t k = 0; k < c->pool->n; k++) {
		degenerate += c->pool->runs[k]->n_degenerate;
		n_samples += c->pool->runs[k]->n_samples;
	}
	if (env) {
		f = add_finding(r, c);
		f->env_flags = env;
		f->count = f->n_samples = 1;
		f->fails = GATE_FAIL_ENVIRONMENT;
	}
	if (degenerate > 0) {
		f = add_finding(r, c);
		f->flag = GATE_FLAG_DEGENERATE;
		f->count = degenerate;
		f->n_samples = n_samples;
		f->fails = GATE_FAIL_OUTPUT;
	}
}

/* The gate's reading of metric m: the one estimate of the cell (the one compare
 * prints), the candidate as ours, with the threshold as the band. -1 for bad
 * parameters. */
static int gate_estimate(const struct gate_params *p, const struct gate_cell *c,
			 const struct gate_cell *b, int m, int across,
			 struct verdict_gate_result *g)
{
	struct estimate_params ep;
	struct estimate e;
	struct estimate_unit *uc = NULL, *ub = NULL;
	size_t vc = 0, vb = 0, i;
	int ret;

	for (i = 0; i < c->pool->n; i++)
		vc += c->pool->runs[i]->values[m].n;
	for (i = 0; i < b->pool->n; i++)
		vb += b->pool->runs[i]->values[m].n;
	memset(g, 0, sizeof(*g));
	estimate_params_init(&ep);
	ep.band_pct = p->threshold[m];
	ep.unpaired = across;
	ret = pool_estimate(c->pool, b->pool, (enum run_metric)m, &ep, &e, &uc, &ub);
	if (ret == 0) {
		g->v = e.v;
		g->outcome = vc && vb ? verdict_gate_outcome_of(&e.v) : VERDICT_GATE_NODATA;
		g->bound = e.v.bound;
		g->threshold_pct = p->threshold[m];
		g->delta_pct = e.v.delta_pct;
		g->candidate_mean = e.ours_center;
		g->baseline_mean = e.vs_center;
		g->n_candidate = vc;
		g->n_baseline = vb;
		g->method = e.v.method;
		g->rounds = e.v.rounds;
		g->instances_cand = c->pool->n;
		g->instances_base = b->pool->n;
		g->ci_lo_pct = e.v.ci_lo_pct;
		g->ci_hi_pct = e.v.ci_hi_pct;
		g->mde_pct = e.v.mde_pct;
		g->decided = g->outcome == VERDICT_GATE_PASS || g->outcome == VERDICT_GATE_FAIL;
		g->reason = e.reason;
		g->n_out_cand = e.n_out_ours;
		g->n_out_base = e.n_out_vs;
		for (i = 0; i < e.n_out_ours && i < 4; i++)
			g->out_cand[i] = uc[e.out_ours[i]].uuid;
		for (i = 0; i < e.n_out_vs && i < 4; i++)
			g->out_base[i] = ub[e.out_vs[i]].uuid;
	}
	estimate_release(&e);
	free(uc);
	free(ub);
	return ret;
}

/* One metric of one shared cell: a row, or a NO_DATA note. */
static int gate_metric(const struct gate_params *p, const struct gate_cell *c,
		       const struct gate_cell *b, int m, int across, struct gate_result *r)
{
	struct verdict_gate_result g;
	double noise = m == GATE_ACCEPT ? NAN : c->side->floor_pct[m];
	struct gate_row *row;

	/* A llama-bench test measures one metric: the other is not a missing value. */
	if ((m == GATE_PP && !config_measures(c->side->config, PARITY_METRIC_PP)) ||
	    (m == GATE_TG && !config_measures(c->side->config, PARITY_METRIC_TG)))
		return 0;
	if (gate_estimate(p, c, b, m, across, &g) < 0) {
		r->stop = GATE_STOP_BAD_PARAMS;
		r->stop_cell = c;
		return -1;
	}
	if (g.outcome == VERDICT_GATE_NODATA) {
		/* A base cell has no acceptance; that is not worth a warning. */
		if (m != GATE_ACCEPT || (g.n_candidate && g.n_baseline)) {
			struct gate_note *n = add_note(r, GATE_NOTE_NO_DATA, c);
			n->metric = m;
			n->baseline_empty = g.n_candidate != 0;
		}
		return 0;
	}
	r->rows = tps_xrealloc(r->rows, (r->n_rows + 1) * sizeof(*r->rows));
	row = &r->rows[r->n_rows++];
	memset(row, 0, sizeof(*row));
	row->cand = c;
	row->base = b;
	row->metric = m;
	row->g = g;
	row->noise_pct = noise;
	row->question = pools_question(c->pool, b->pool);
	row->across = across;
	parity_outputs(c->side, b->side, &row->outputs_compared, &row->outputs_identical);
	row->fails = g.outcome == VERDICT_GATE_FAIL ? GATE_FAIL_REGRESSION :
		     g.outcome == VERDICT_GATE_INTERMITTENT ? GATE_FAIL_REGRESSION :
		     g.outcome == VERDICT_GATE_INCONCLUSIVE ? GATE_FAIL_INCONCLUSIVE :
		     g.outcome == VERDICT_GATE_SPOILED ? GATE_FAIL_ENVIRONMENT : 0;
	row->fails &= p->fail_on;
	r->n_fail += row->fails != 0;
	if (g.outcome == VERDICT_GATE_INCONCLUSIVE)
		r->n_inconclusive++;
	if (g.outcome == VERDICT_GATE_SPOILED)
		r->n_spoiled++;
	return 0;
}

/* The newest change point of the candidate's history of one cell and metric. */
static int check_trend(const struct gate_params *p, const struct gate_cell *c, int m,
		       struct gate_result *r)
{
	const struct changepoint *cp;
	struct changepoint_params cpp;
	struct trend t;
	struct gate_trend *g;

	if (!c->hist || !c->hist->n)
		return 0;
	changepoint_params_init(&cpp);
	/* A shift the gate itself would let through is not a regression here either. */
	cpp.min_magnitude_pct = p->threshold[m];
	if (trend_detect(c->hist, (enum run_metric)m, &cpp, &t) < 0) {
		r->stop = GATE_STOP_BAD_TREND;
		r->stop_cell = c;
		return -1;
	}
	if ((cp = trend_latest(&t))) {
		r->trend = tps_xrealloc(r->trend, (r->n_trend + 1) * sizeof(*r->trend));
		g = &r->trend[r->n_trend++];
		memset(g, 0, sizeof(*g));
		g->cell = c;
		g->metric = m;
		g->cp = *cp;
		g->threshold = p->threshold[m];
		g->run = c->hist->runs[cp->index];
		g->fail = trend_latest_regression(&t);
		if (g->fail)
			r->n_fail++;
	}
	trend_release(&t);
	return 0;
}

/* The sweep's violations of the candidate's series, and its steps measured on
 * different machines: those the sweep never checked, so the gate answers them
 * neither way (open, failing only under --fail-on inconclusive). */
static void add_violations(const struct series_set *set, unsigned fail_on,
			   struct gate_result *r)
{
	size_t i, j;

	for (i = 0; i < set->n; i++) {
		const struct series *se = &set->v[i];
		for (j = 0; j < se->report.n_violations; j++) {
			const struct sweep_step *st = &se->report.violations[j];
			struct gate_violation *v;

			r->viol = tps_xrealloc(r->viol, (r->n_viol + 1) * sizeof(*r->viol));
			v = &r->viol[r->n_viol++];
			v->series = se;
			v->from = st->from_n_max;
			v->to = st->to_n_max;
			v->drop_pct = -st->change_pct;
			v->step = st;
			/* An undecided dip is listed, never a failure: its interval
			 * still holds a fall within the tolerance. */
			if (st->decided)
				r->n_fail++;
		}
		for (j = 0; j < se->report.n_across; j++) {
			struct gate_sweep_across *a;

			r->sweep_across = tps_xrealloc(r->sweep_across, (r->n_sweep_across + 1) *
						       sizeof(*r->sweep_across));
			a = &r->sweep_across[r->n_sweep_across++];
			a->series = se;
			a->step = &se->report.across[j];
			a->fails = fail_on & GATE_FAIL_INCONCLUSIVE;
			r->n_fail += a->fails != 0;
		}
	}
}

/* Baseline cells no candidate cell took. Another engine's run of a cell already
 * gated is not missing. */
static void add_base_only(const struct gate_cell *base, size_t n_base, const char *used,
			  struct gate_result *r)
{
	size_t i, k;

	for (i = 0; i < n_base; i++) {
		if (used[i])
			continue;
		for (k = 0; k < n_base; k++)
			if (used[k] && same_cell(&base[k], &base[i]))
				break;
		if (k < n_base)
			continue;
		add_note(r, GATE_NOTE_BASE_ONLY, &base[i]);
	}
}

/* The cells of the pools: the candidate's (each with its history), then the
 * baseline's; returns how many are the candidate's. Empty pools make no cell. */
static size_t make_cells(const struct gate_input *in, struct gate_result *out)
{
	size_t i, k, n_cand = 0;

	out->cells = tps_xcalloc(in->n_cand + in->n_base + 1, sizeof(*out->cells));
	for (i = 0; i < in->n_cand + in->n_base; i++) {
		const struct pool *p = i < in->n_cand ? &in->cand[i] : &in->base[i - in->n_cand];
		struct gate_cell *c;

		if (!p->n)
			continue;
		c = &out->cells[out->n_cells++];
		c->pool = p;
		c->side = pool_face(p);
		c->base = i >= in->n_cand;
		n_cand += !c->base;
		for (k = 0; !c->base && k < in->n_hist; k++)
			if (in->hist[k].n && run_same_series(c->side, pool_face(&in->hist[k])) &&
			    run_same_machine(c->side, pool_face(&in->hist[k])))
				c->hist = &in->hist[k];
	}
	return n_cand;
}

int gate_decide(const struct gate_input *in, const struct gate_params *p,
		struct gate_result *out)
{
	const struct gate_cell *cand, *base;
	size_t i, n_cand, n_base;
	char *used;
	int m, ret = -1;

	memset(out, 0, sizeof(*out));
	n_cand = make_cells(in, out);
	cand = out->cells;
	base = out->cells + n_cand;
	n_base = out->n_cells - n_cand;
	used = tps_xcalloc(n_base ? n_base : 1, 1);
	for (i = 0; i < n_cand; i++) {
		const struct gate_cell *c = &cand[i], *b;
		const struct run *x, *y;
		struct run_diff diff;
		size_t choices;
		int across = 0;

		add_findings(c, out);
		add_env_findings(c, out);
		if (!(b = baseline_for(base, n_base, c, &choices))) {
			add_note(out, GATE_NOTE_CAND_ONLY, c);
			continue;
		}
		if (!used[b - base])
			add_env_findings(b, out);
		used[b - base] = 1;
		if (choices > 1 && strcmp(b->side->engine, c->side->engine)) {
			struct gate_note *n = add_note(out, GATE_NOTE_ENGINES, c);
			n->base = b;
			n->n_engines = choices;
		}
		if (run_mismatch(c->side, b->side, &diff)) {
			struct gate_note *n = add_note(out, GATE_NOTE_NOT_COMPARABLE, c);
			n->base = b;
			n->diff = diff;
			continue;
		}
		if (!pools_same_machine(c->pool, b->pool, &x, &y)) {
			struct run_diff md = { RUN_DIFF_MACHINE, x, y };
			struct gate_note *n;

			if (!p->across_machines) {
				out->stop = GATE_STOP_MACHINES;
				out->stop_cell = c;
				out->stop_diff = md;
				goto out;
			}
			n = add_note(out, GATE_NOTE_MACHINES, c);
			n->base = b;
			n->diff = md;
			across = 1;
			out->n_across++;
		}
		out->n_shared++;
		if (p->fail_on & GATE_FAIL_OUTPUT) {
			struct gate_output *g;
			out->outputs = tps_xrealloc(out->outputs,
						    (out->n_outputs + 1) * sizeof(*out->outputs));
			g = &out->outputs[out->n_outputs++];
			g->cand = c;
			g->base = b;
			parity_outputs(c->side, b->side, &g->compared, &g->identical);
			g->fail = g->compared <= 0 || g->identical < g->compared;
			out->n_fail += (size_t)g->fail;
		}
		for (m = 0; m < GATE_N_METRICS; m++) {
			if (!p->gated[m] || (m == GATE_ACCEPT && sweep_rung_is_base(c->side->n_max)))
				continue;
			if (gate_metric(p, c, b, m, across, out) < 0)
				goto out;
			if (p->trend && check_trend(p, c, m, out) < 0)
				goto out;
		}
	}
	add_base_only(base, n_base, used, out);
	for (i = 0; i < out->n_find; i++) {
		out->find[i].fails &= p->fail_on;
		out->n_fail += out->find[i].fails != 0;
	}
	if (p->sweep && in->sweep)
		add_violations(in->sweep, p->fail_on, out);
	out->status = out->n_fail ? GATE_STATUS_FAIL :
		      out->n_inconclusive || out->n_spoiled || out->n_sweep_across ?
		      GATE_STATUS_OPEN : GATE_STATUS_PASS;
	gate_answer(out, &out->answers);
	if (!out->n_shared) {
		out->stop = GATE_STOP_NOTHING_SHARED;
		goto out;
	}
	ret = 0;
out:
	free(used);
	return ret;
}

void gate_result_release(struct gate_result *r)
{
	if (!r)
		return;
	free(r->cells);
	free(r->rows);
	free(r->notes);
	free(r->find);
	free(r->outputs);
	free(r->viol);
	free(r->sweep_across);
	free(r->trend);
	answer_set_release(&r->answers);
	memset(r, 0, sizeof(*r));
}

void gate_answer(const struct gate_result *r, struct answer_set *out)
{
	double band[GATE_N_METRICS] = { 0 };
	int *metric = tps_xcalloc(r->n_rows + 1, sizeof(*metric));
	const struct verdict **v = tps_xcalloc(r->n_rows + 1, sizeof(*v));
	size_t i;

	/* A metric's answer is held against its last row's threshold. */
	for (i = 0; i < r->n_rows; i++) {
		band[r->rows[i].metric] = r->rows[i].g.threshold_pct;
		metric[i] = r->rows[i].metric;
		v[i] = &r->rows[i].g.v;
	}
	answer_set_build(metric, v, r->n_rows, band, GATE_N_METRICS, out);
	free(v);
	free(metric);
}
