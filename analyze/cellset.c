/* cellset.c: the one pooling rule, the instances of a pool and the design a look
 * at pools paid for (cellset.h). Every command that pools a cell's runs calls
 * cellset_pools() and pool_estimate(), so none can pool or level a cell its own
 * way. */
#include "analyze/cellset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/config.h"
#include "analyze/parity.h"
#include "tpsdb.h"

void run_release_samples(struct run *r)
{
	size_t i;
	int m;

	for (m = 0; m < RUN_N_METRICS; m++)
		free(r->values[m].v);
	memset(r->values, 0, sizeof(r->values));
	for (i = 0; i < r->n_outputs; i++)
		free(r->outputs[i].hash);
	free(r->outputs);
	r->outputs = NULL;
	r->n_outputs = 0;
	free(r->wall_ms);
	r->wall_ms = NULL;
	r->n_wall = 0;
	for (i = 0; i < r->n_prompts; i++)
		free(r->prompts[i].name);
	free(r->prompts);
	r->prompts = NULL;
	r->n_prompts = 0;
	r->bench_ts = NAN;
	memset(r->flag_counts, 0, sizeof(r->flag_counts));
	memset(&r->agg, 0, sizeof(r->agg));
	r->n_samples = r->n_degenerate = r->n_prompts_asked = 0;
	r->loaded = 0;
}

void run_release(struct run *r)
{
	if (!r)
		return;
	run_release_samples(r);
	free(r->engine); free(r->role); free(r->engine_version);
	free(r->engine_sha256); free(r->model);
	free(r->model_sha256); free(r->model_quant); free(r->host); free(r->tag);
	free(r->batch); free(r->started_at); free(r->ended_at); free(r->status);
	free(r->spec_type); free(r->endpoint); free(r->prompt_set); free(r->config);
	memset(r, 0, sizeof(*r));
}

void cellset_release(struct cellset *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->n; i++)
		run_release(&set->runs[i]);
	free(set->runs);
	memset(set, 0, sizeof(*set));
}

int run_str_eq(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

int run_same_cell(const struct run *a, const struct run *b)
{
	return run_str_eq(a->model, b->model) && run_str_eq(a->spec_type, b->spec_type) &&
	       a->n_max == b->n_max && run_str_eq(a->endpoint, b->endpoint) &&
	       run_str_eq(a->config, b->config);
}

int run_same_series(const struct run *a, const struct run *b)
{
	return run_str_eq(a->engine, b->engine) && run_same_cell(a, b);
}

void cellset_canon(struct cellset *set, const char *ignore, char **ignored)
{
	for (size_t i = 0; i < set->n; i++) {
		struct run *r = &set->runs[i];
		char *c;

		if (ignored && ignore)
			config_collect(ignored, r->config, ignore);
		c = config_canon(r->config, ignore);
		free(r->config);
		r->config = c;
		r->env_flags = env_findings(&r->env, r->env_flags);
	}
}

const struct run *pool_face(const struct pool *p)
{
	return p->n ? p->runs[p->n - 1] : NULL;
}

/* An imported llama-bench run (collect/import_bench.c). */
static int is_bench(const struct run *r)
{
	return run_str_eq(r->endpoint, "llama-bench");
}

/* Whether run r of a series joins the pool whose newest run is last, before the
 * comparability check. */
static int taken(enum pool_rule rule, const struct run *last, const struct run *r)
{
	if (rule == POOL_ALL || r == last)
		return 1;
	/* A collect invocation is one design: all of its runs of the cell. */
	if (last->batch && *last->batch)
		return run_str_eq(r->batch, last->batch);
	/* An import has no batch: the runs of its tag that have none either. */
	if (last->tag && *last->tag)
		return !(r->batch && *r->batch) && run_str_eq(r->tag, last->tag);
	/* Untagged, a llama-bench file is one process of one build, and the
	 * processes of that build are its instances: each file imported is one,
	 * as compare-llama-bench.py averages every row of a commit. */
	return is_bench(last) && is_bench(r) && !(r->batch && *r->batch) &&
	       !(r->tag && *r->tag) && run_str_eq(r->engine_version, last->engine_version);
}

/* Whether run r of the series whose newest is last is an earlier batch's of the
 * same measurement on the same host: history for the pool p (pool_history_runs()). */
static int history_run(const struct pool *p, const struct run *last, const struct run *r)
{
	struct parity_diff d;

	if (!(r->batch && *r->batch) || run_str_eq(r->batch, last->batch) ||
	    !run_same_series(r, last) || !run_str_eq(r->host, last->host) ||
	    parity_mismatch(last, r, &d))
		return 0;
	for (size_t k = 0; k < p->n; k++)
		if (p->runs[k] == r || !r->started_at || !p->runs[k]->started_at ||
		    strcmp(r->started_at, p->runs[k]->started_at) >= 0)
			return 0;
	return 1;
}

/* The history of pool p: the runs of the newest ESTIMATE_HIST_BATCHES earlier
 * batches of its series r[0..n) (start order) on its host, oldest first. */
static void pool_history_runs(struct pool *p, const struct run *r, size_t n,
			      const struct run *last)
{
	const char *seen[ESTIMATE_HIST_BATCHES];
	size_t nb = 0, i, j, k = 0;

	if (!p->n || !(last->batch && *last->batch))
		return;
	p->hist = tps_xcalloc(n, sizeof(*p->hist));
	for (i = n; i-- > 0;) {
		if (!history_run(p, last, &r[i]))
			continue;
		for (j = 0; j < nb && !run_str_eq(seen[j], r[i].batch); j++)
			;
		if (j == nb) {
			if (nb == ESTIMATE_HIST_BATCHES)
				continue;
			seen[nb++] = r[i].batch;
		}
		p->hist[k++] = &r[i];
	}
	/* Collected newest first. */
	for (i = 0; i < k / 2; i++) {
		const struct run *t = p->hist[i];
		p->hist[i] = p->hist[k - 1 - i];
		p->hist[k - 1 - i] = t;
	}
	p->n_hist = k;
}

void cellset_pools(const struct cellset *set, enum pool_rule rule, struct pool **out,
		   size_t *n)
{
	const struct run *r = set->runs;
	size_t nr = set->n, i, j, np = 0;
	char *seen = tps_xcalloc(nr ? nr : 1, 1);
	struct pool *v = tps_xcalloc(nr ? nr : 1, sizeof(*v));

	/* Runs of a series come in start order: the last one seen is its newest. */
	for (i = 0; i < nr; i++) {
		const struct run *last = NULL;
		struct pool *p;
		size_t k = 0;

		if (seen[i])
			continue;
		for (j = i; j < nr; j++)
			if (!seen[j] && run_same_series(&r[i], &r[j]))
				last = &r[j];
		p = &v[np++];
		p->runs = tps_xcalloc(nr - i, sizeof(*p->runs));
		for (j = i; j < nr; j++) {
			struct parity_diff d;

			if (seen[j] || !run_same_series(&r[i], &r[j]))
				continue;
			seen[j] = 1;
			if (!taken(rule, last, &r[j]))
				continue;
			/* A run at another ctx, n_predict, GGUF, endpoint or prompt set
			 * than the newest is not the same measurement. */
			if (parity_mismatch(last, &r[j], &d)) {
				p->n_mismatch++;
				continue;
			}
			p->runs[k++] = &r[j];
		}
		p->n = k;
		if (rule == POOL_NEWEST_BATCH)
			pool_history_runs(p, r + i, nr - i, last);
	}
	free(seen);
	*out = v;
	*n = np;
}

void pools_free(struct pool *p, size_t n)
{
	for (size_t i = 0; p && i < n; i++) {
		free(p[i].runs);
		free(p[i].hist);
	}
	free(p);
}

void pools_want(struct pool *p, size_t n, unsigned what)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < p[i].n; k++)
			((struct run *)p[i].runs[k])->want |= what;
		for (size_t k = 0; k < p[i].n_hist; k++)
			((struct run *)p[i].hist[k])->want |= what;
	}
}

void cellset_want(struct cellset *set, unsigned what)
{
	for (size_t i = 0; i < set->n; i++)
		set->runs[i].want |= what;
}

struct estimate_unit *pool_units(const struct pool *p, enum run_metric m)
{
	struct estimate_unit *u = tps_xcalloc(p->n ? p->n : 1, sizeof(*u));

	for (size_t k = 0; k < p->n; k++) {
		const struct run *r = p->runs[k];
		const struct run_values *vs = &r->values[m];

		/* struct run_value is (prompt_id, rep, value): the values and keys are
		 * read in place, with a stride, by the estimate's unit view. */
		u[k].vals = vs->v;
		u[k].n = vs->n;
		u[k].value = NAN;
		u[k].round = r->round;
		u[k].batch = r->batch && *r->batch ? r->batch : NULL;
		u[k].started_at = r->started_at;
		u[k].uuid = r->uuid;
		u[k].env = r->env_flags;
		u[k].facts = r->env.known;
	}
	return u;
}

size_t pool_outliers(const struct pool *p, enum run_metric m, char *bad, double *median)
{
	struct estimate_unit *u = pool_units(p, m);
	double *lg = tps_xmalloc((p->n ? p->n : 1) * sizeof(*lg)), med;
	size_t k, marked;

	for (k = 0; k < p->n; k++) {
		lg[k] = estimate_unit_log(&u[k]);
		bad[k] = 0;
	}
	marked = estimate_outliers(lg, p->n, bad, &med, NULL);
	*median = exp(med);
	free(lg);
	free(u);
	return marked;
}

int pools_hold(const struct pool *p, size_t n, const char *uuid)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < p[i].n; k++)
			if (!strcmp(p[i].runs[k]->uuid, uuid))
				return 1;
	return 0;
}

int64_t *pools_run_ids(const struct pool *p, size_t n, size_t *n_ids)
{
	int64_t *ids;
	size_t i, k, m = 0;

	for (i = 0; i < n; i++)
		m += p[i].n;
	ids = tps_xmalloc((m ? m : 1) * sizeof(*ids));
	for (i = 0, *n_ids = 0; i < n; i++)
		for (k = 0; k < p[i].n; k++)
			ids[(*n_ids)++] = p[i].runs[k]->id;
	return ids;
}

struct pool_outlier *pools_outliers(const struct pool *pools, size_t n_pools, size_t *n)
{
	struct pool_outlier *v = NULL;
	char *bad = NULL;
	double med;
	size_t i, k;
	int m;

	*n = 0;
	for (i = 0; i < n_pools; i++) {
		const struct pool *p = &pools[i];

		bad = tps_xrealloc(bad, p->n + 1);
		for (m = RUN_PP; m <= RUN_TG; m++) {
			struct estimate_unit *u;

			if (!pool_outliers(p, (enum run_metric)m, bad, &med))
				continue;
			u = pool_units(p, (enum run_metric)m);
			for (k = 0; k < p->n; k++) {
				if (!bad[k])
					continue;
				v = tps_xrealloc(v, (*n + 1) * sizeof(*v));
				v[(*n)++] = (struct pool_outlier){ p->runs[k], (enum run_metric)m,
								   exp(estimate_unit_log(&u[k])),
								   med };
			}
			free(u);
		}
	}
	free(bad);
	return v;
}

/* How many designs a pool's runs come from: their distinct batches, a run
 * without one (an import) counted by its tag. Stops counting at two. */
static size_t designs(const struct pool *p)
{
	const struct run *first = NULL;

	for (size_t k = 0; p && k < p->n; k++) {
		const struct run *r = p->runs[k];
		int imported = !(r->batch && *r->batch);

		if (!first) {
			first = r;
			continue;
		}
		if (imported != !(first->batch && *first->batch) ||
		    !run_str_eq(imported ? r->tag : r->batch, imported ? first->tag : first->batch))
			return 2;
	}
	return first ? 1 : 0;
}

int64_t pools_looks(const struct pool *a, const struct pool *b)
{
	int64_t looks = 0;
	size_t k;

	/* A side that pools two designs was looked at before the second came:
	 * the strictest level there is (bench_sim_pool). */
	if (designs(a) > 1 || designs(b) > 1)
		return ESTIMATE_MAX_LOOK;
	for (k = 0; a && k < a->n; k++)
		looks = a->runs[k]->looks_to > looks ? a->runs[k]->looks_to : looks;
	for (k = 0; b && k < b->n; k++)
		looks = b->runs[k]->looks_to > looks ? b->runs[k]->looks_to : looks;
	return looks > ESTIMATE_MAX_LOOK ? ESTIMATE_MAX_LOOK : looks;
}

/* pools_question() of one pool, starting from *q (0: nothing met yet; ~0u: no
 * one-metric question). */
static void pool_question(const struct pool *p, unsigned *q)
{
	for (size_t k = 0; p && k < p->n && *q != ~0u; k++) {
		const struct run *r = p->runs[k];

		if (r->looks_to <= 0)
			continue;
		if (!r->looks_metric || (*q && *q != r->looks_metric))
			*q = ~0u;
		else
			*q = r->looks_metric;
	}
}

unsigned pools_question(const struct pool *a, const struct pool *b)
{
	unsigned q = 0;

	pool_question(a, &q);
	pool_question(b, &q);
	return q == ~0u ? 0 : q;
}

unsigned pool_env(const struct pool *p)
{
	unsigned env = 0;

	for (size_t k = 0; k < p->n; k++)
		env |= p->runs[k]->env_flags;
	return env;
}

/* The runs of batch of the history of pool p, as a pool (runs heap, caller frees). */
static struct pool history_batch(const struct pool *p, const char *batch)
{
	struct pool h = { tps_xcalloc(p->n_hist + 1, sizeof(*h.runs)), 0, 0, NULL, 0 };

	for (size_t k = 0; k < p->n_hist; k++)
		if (run_str_eq(p->hist[k]->batch, batch))
			h.runs[h.n++] = p->hist[k];
	return h;
}

/* Adds the round scatter of one earlier batch of a cell (pools a and b of it,
 * estimated alone as a fixed design) to *h: estimate_history_add(). */
static void history_add(const struct pool *a, const struct pool *b, enum run_metric m,
			struct estimate_history *h)
{
	struct estimate_unit *ua = pool_units(a, m), *ub = pool_units(b, m);
	struct estimate_params ep;
	struct estimate e;

	estimate_params_init(&ep);
	if (estimate_cell(ua, a->n, ub, b->n, &ep, &e) == 0)
		estimate_history_add(&e, h);
	estimate_release(&e);
	free(ua);
	free(ub);
}

void pool_history(const struct pool *a, const struct pool *b, enum run_metric m,
		  struct estimate_history *h)
{
	memset(h, 0, sizeof(*h));
	/* Each batch of a's history that b's holds too, newest first. */
	for (size_t k = a->n_hist; k-- > 0;) {
		const char *batch = a->hist[k]->batch;
		struct pool ha, hb;
		size_t j;

		for (j = k + 1; j < a->n_hist && !run_str_eq(a->hist[j]->batch, batch); j++)
			;
		if (j < a->n_hist)
			continue; /* seen */
		ha = history_batch(a, batch);
		hb = history_batch(b, batch);
		if (hb.n)
			history_add(&ha, &hb, m, h);
		free(ha.runs);
		free(hb.runs);
	}
}

int pool_estimate(const struct pool *a, const struct pool *b, enum run_metric m,
		  const struct estimate_params *p, struct estimate *e,
		  struct estimate_unit **units_a, struct estimate_unit **units_b)
{
	struct estimate_unit *ua = pool_units(a, m), *ub = pool_units(b, m);
	struct estimate_params ep = *p;
	const struct run *face = pool_face(a);
	int ret;

	struct estimate_history h = { 0, 0, 0, 0 };

	ep.looks_to = pools_looks(a, b);
	ep.noise_pct = 0;
	ep.scatter_pct = 0;
	ep.hist = NULL;
	if (m != RUN_ACCEPT) {
		if (face && face->floor_pct[m] > 0)
			ep.noise_pct = face->floor_pct[m];
		ep.scatter_pct = m == RUN_PP ? ESTIMATE_SCATTER_PP_PCT : ESTIMATE_SCATTER_TG_PCT;
		pool_history(a, b, m, &h);
		ep.hist = &h;
	}
	ret = estimate_cell(ua, a->n, ub, b->n, &ep, e);
	if (units_a)
		*units_a = ua;
	else
		free(ua);
	if (units_b)
		*units_b = ub;
	else
		free(ub);
	return ret;
}
