/* cellset.c: the one pooling rule, the instances of a pool and the design a look
 * at pools paid for (cellset.h). Every command that pools a cell's runs calls
 * cellset_pools() and pool_estimate(), so none can pool or level a cell its own
 * way. */
#include "analyze/cellset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/config.h"
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
	free(r->gpu); free(r->driver); free(r->cuda); free(r->cpu); free(r->machine);
	free(r->batch); free(r->started_at); free(r->ended_at); free(r->status);
	free(r->spec_type); free(r->endpoint); free(r->prompt_set); free(r->config);
	free(r->spec_settings);
	free(r->source);
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

/* A part of a machine that one run records and the other records otherwise. */
static int part_differs(const char *a, const char *b)
{
	return a && b && *a && *b && strcmp(a, b);
}

static int host_known(const char *h)
{
	return h && *h && strcmp(h, "unknown");
}

int run_same_machine(const struct run *a, const struct run *b)
{
	if (host_known(a->host) && host_known(b->host) && strcmp(a->host, b->host))
		return 0;
	return !part_differs(a->gpu, b->gpu) && !part_differs(a->driver, b->driver) &&
	       !part_differs(a->cuda, b->cuda) && !part_differs(a->cpu, b->cpu);
}

char *run_machine_text(const struct run *r)
{
	return machine_text(r->host, r->gpu, r->driver, r->cuda, r->cpu);
}

char *machine_text(const char *host, const char *gpu, const char *driver, const char *cuda,
		   const char *cpu)
{
	const char *part[4] = { gpu, driver, cuda, cpu };
	static const char *const pre[4] = { "", "driver ", "CUDA ", "" };
	char *s = tps_xstrdup(host && *host ? host : "unknown"), *t;
	int n = 0;

	for (int i = 0; i < 4; i++) {
		if (!part[i] || !*part[i])
			continue;
		t = tps_xasprintf("%s%s%s%s", s, n++ ? ", " : " (", pre[i], part[i]);
		free(s);
		s = t;
	}
	if (n) {
		t = tps_xasprintf("%s)", s);
		free(s);
		s = t;
	}
	return s;
}

int run_clean(const struct run *r)
{
	return run_str_eq(r->status, "complete") && !r->env_flags;
}

int run_same_design(const struct run *a, const struct run *b)
{
	return a->reps == b->reps;
}

static int known(const char *s)
{
	return s && *s;
}

/* The value of key in a settings text ("n_min=0 p_min=0.75"): where it starts and
 * its length in *n; NULL when the text does not name key. */
static const char *setting(const char *s, const char *key, size_t klen, size_t *n)
{
	while (s && *s) {
		size_t w = strcspn(s, " ");

		if (w > klen && s[klen] == '=' && !strncmp(s, key, klen)) {
			*n = w - klen - 1;
			return s + klen + 1;
		}
		s += w;
		s += strspn(s, " ");
	}
	return NULL;
}

int run_settings_differ(const char *a, const char *b)
{
	while (a && *a) {
		size_t w = strcspn(a, " "), k = strcspn(a, "="), n;
		const char *v;

		if (k < w && (v = setting(b, a, k, &n)) &&
		    (n != w - k - 1 || strncmp(v, a + k + 1, n)))
			return 1;
		a += w;
		a += strspn(a, " ");
	}
	return 0;
}

int run_mismatch(const struct run *a, const struct run *b, struct run_diff *out)
{
	enum run_diff_kind k = RUN_DIFF_NONE;

	/* An unknown hash (import without --model-sha256) proves nothing either way;
	 * only two known, different hashes are a different GGUF. */
	if (known(a->model_sha256) && known(b->model_sha256) &&
	    strcmp(a->model_sha256, b->model_sha256))
		k = RUN_DIFF_SHA256;
	else if (a->ctx != INT64_MIN && b->ctx != INT64_MIN && a->ctx != b->ctx)
		k = RUN_DIFF_CTX;
	else if (a->n_predict != INT64_MIN && b->n_predict != INT64_MIN &&
		 a->n_predict != b->n_predict)
		k = RUN_DIFF_N_PREDICT;
	else if (!run_str_eq(a->endpoint, b->endpoint))
		k = RUN_DIFF_ENDPOINT;
	else if (known(a->prompt_set) && known(b->prompt_set) &&
		 strcmp(a->prompt_set, b->prompt_set))
		k = RUN_DIFF_PROMPT_SET;
	else if (run_settings_differ(a->spec_settings, b->spec_settings))
		k = RUN_DIFF_SPEC_SETTINGS;
	else if (!run_str_eq(a->config, b->config))
		k = RUN_DIFF_CONFIG;
	out->kind = k;
	out->a = a;
	out->b = b;
	return k != RUN_DIFF_NONE;
}

void pool_keep_clean(struct pool *p)
{
	const struct run *newest = NULL;
	size_t k, n = 0;

	for (k = p->n; k-- > 0 && !newest;)
		if (run_clean(p->runs[k]))
			newest = p->runs[k];
	for (k = 0; k < p->n; k++)
		if (newest && run_clean(p->runs[k]) && run_same_machine(p->runs[k], newest))
			p->runs[n++] = p->runs[k];
	p->n = n;
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
		free(r->machine);
		r->machine = run_machine_text(r);
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

/* An imported file that is one instance of its build: a llama-bench process
 * (collect/import_bench.c) or a speed-bench file (collect/import_speed.c). */
static int file_instance(const struct run *r)
{
	return is_bench(r) || run_str_eq(r->source, "speed-bench");
}

/* Whether an engine version names one build: not empty and not a build that
 * reported no commit (llama-bench's build_commit "unknown", written "unknown" or
 * "b<number>-unknown" by import; b0-unknown is what a llama.cpp built without git
 * says). Two builds that report no commit may be any two builds. */
static int version_names_build(const char *v)
{
	size_t n = v ? strlen(v) : 0;

	return n && strcmp(v, "unknown") && !(n > 8 && !strcmp(v + n - 8, "-unknown"));
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
	 * as compare-llama-bench.py averages every row of a commit. So is a
	 * speed-bench file, of the build --engine-version names. Only where the
	 * version names the build (two builds that report no commit may be any
	 * two) and on one machine (run_same_machine(): cpu_info and gpu_info). */
	return file_instance(last) && file_instance(r) && is_bench(r) == is_bench(last) &&
	       !(r->batch && *r->batch) && !(r->tag && *r->tag) &&
	       version_names_build(last->engine_version) &&
	       run_str_eq(r->engine_version, last->engine_version) && run_same_machine(r, last);
}

/* Drops from v[0..*n) (runs of one series in start order) each try that was
 * measured again in its round: a run another job spoiled (RUN_ENV_BUSY, the
 * findings collect waits out) followed, within its batch, by a later run of the
 * same round. collect --wait-quiet keeps the try another job spoiled and
 * measures the cell again in the same round; the last try is the round's
 * instance, the earlier ones stay stored and shown (runs, check, trend's points)
 * but are not instances of the round. A batch's runs of a series are contiguous
 * in start order, so the search ends where the batch does. */
static void drop_retried(const struct run **v, size_t *n)
{
	size_t i, j, k = 0;

	for (i = 0; i < *n; i++) {
		const struct run *r = v[i];
		int again = 0;

		if ((r->env_flags & RUN_ENV_BUSY) && r->batch && *r->batch && r->round != RUN_NULL)
			for (j = i + 1; j < *n && run_str_eq(v[j]->batch, r->batch) && !again; j++)
				again = v[j]->round == r->round;
		if (!again)
			v[k++] = r;
	}
	*n = k;
}

/* Whether run r of the series whose newest is last is an earlier batch's of the
 * same measurement and design on the same machine, clean (run_clean()): history
 * for the pool p (pool_history_runs()). */
static int history_run(const struct pool *p, const struct run *last, const struct run *r)
{
	struct run_diff d;

	if (!(r->batch && *r->batch) || run_str_eq(r->batch, last->batch) ||
	    !run_same_series(r, last) || !run_same_machine(r, last) ||
	    !run_clean(r) || !run_same_design(r, last) || run_mismatch(last, r, &d))
		return 0;
	for (size_t k = 0; k < p->n; k++)
		if (p->runs[k] == r || !r->started_at || !p->runs[k]->started_at ||
		    strcmp(r->started_at, p->runs[k]->started_at) >= 0)
			return 0;
	return 1;
}

/* The history of pool p: the runs of the newest ESTIMATE_HIST_BATCHES earlier
 * batches of its series r[0..n) (start order) on its machine, oldest first. */
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
	drop_retried(p->hist, &k);
	p->n_hist = k;
}

/* Fills pool p of the series whose newest run (under rule) is last from the runs
 * r[0..n) of the set, those of another series skipped. */
static void pool_fill(struct pool *p, const struct cellset *set, enum pool_rule rule,
		      const struct run *r, size_t n, const struct run *last)
{
	size_t j, k = 0;

	p->runs = tps_xcalloc(n ? n : 1, sizeof(*p->runs));
	for (j = 0; j < n; j++) {
		struct run_diff d;

		if (!run_same_series(last, &r[j]) || !taken(rule, last, &r[j]))
			continue;
		/* A run at another ctx, n_predict, GGUF, endpoint or prompt set
		 * than the newest is not the same measurement. */
		if (run_mismatch(last, &r[j], &d)) {
			p->n_mismatch++;
			continue;
		}
		p->runs[k++] = &r[j];
	}
	/* A round's instance is its last try (collect --wait-quiet). */
	drop_retried(p->runs, &k);
	p->n = k;
	p->set = set;
	p->rule = rule;
	if (rule == POOL_NEWEST_BATCH)
		pool_history_runs(p, r, n, last);
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

		if (seen[i])
			continue;
		for (j = i; j < nr; j++)
			if (!seen[j] && run_same_series(&r[i], &r[j])) {
				last = &r[j];
				seen[j] = 1;
			}
		pool_fill(&v[np++], set, rule, r + i, nr - i, last);
	}
	free(seen);
	*out = v;
	*n = np;
}

void pool_release(struct pool *p)
{
	if (!p)
		return;
	free(p->runs);
	free(p->hist);
	memset(p, 0, sizeof(*p));
}

/* A copy of pool p that owns its arrays. */
static void pool_copy(const struct pool *p, struct pool *out)
{
	*out = *p;
	out->runs = tps_xcalloc(p->n ? p->n : 1, sizeof(*out->runs));
	if (p->n)
		memcpy(out->runs, p->runs, p->n * sizeof(*p->runs));
	out->hist = NULL;
	if (p->hist) {
		out->hist = tps_xcalloc(p->n_hist ? p->n_hist : 1, sizeof(*out->hist));
		if (p->n_hist)
			memcpy(out->hist, p->hist, p->n_hist * sizeof(*p->hist));
	}
}

static int has_batch(const struct run *r)
{
	return r->batch && *r->batch;
}

/* The newest run of the series of face in set whose batch is batch; NULL none. */
static const struct run *series_newest_in(const struct cellset *set, const struct run *face,
					  const char *batch)
{
	const struct run *last = NULL;

	for (size_t i = 0; i < set->n; i++)
		if (run_same_series(face, &set->runs[i]) && run_str_eq(set->runs[i].batch, batch))
			last = &set->runs[i];
	return last;
}

int pools_pair(const struct pool *a, const struct pool *b, struct pool *ra, struct pool *rb)
{
	const struct run *fa = pool_face(a), *fb = pool_face(b), *best = NULL, *la, *lb;
	const char **bb = NULL;
	size_t i, j, nbb = 0;

	if (!fa || !fb || !a->set || !b->set || a->rule != POOL_NEWEST_BATCH ||
	    b->rule != POOL_NEWEST_BATCH || !has_batch(fa) || !has_batch(fb) ||
	    run_str_eq(fa->batch, fb->batch))
		goto copy;
	/* The batches of b's series, then the newest run of a's series in one of
	 * them: its batch is the newest that measured both. */
	bb = tps_xcalloc(b->set->n + 1, sizeof(*bb));
	for (i = 0; i < b->set->n; i++) {
		const struct run *r = &b->set->runs[i];

		if (!run_same_series(fb, r) || !has_batch(r))
			continue;
		for (j = 0; j < nbb && strcmp(bb[j], r->batch); j++)
			;
		if (j == nbb)
			bb[nbb++] = r->batch;
	}
	for (i = 0; i < a->set->n; i++) {
		const struct run *r = &a->set->runs[i];

		if (!run_same_series(fa, r) || !has_batch(r) ||
		    (best && strcmp(r->started_at ? r->started_at : "",
				    best->started_at ? best->started_at : "") < 0))
			continue;
		for (j = 0; j < nbb && strcmp(bb[j], r->batch); j++)
			;
		if (j < nbb)
			best = r;
	}
	free(bb);
	if (!best || !(la = series_newest_in(a->set, fa, best->batch)) ||
	    !(lb = series_newest_in(b->set, fb, best->batch)))
		goto copy;
	memset(ra, 0, sizeof(*ra));
	memset(rb, 0, sizeof(*rb));
	pool_fill(ra, a->set, a->rule, a->set->runs, a->set->n, la);
	pool_fill(rb, b->set, b->rule, b->set->runs, b->set->n, lb);
	return 1;
copy:
	pool_copy(a, ra);
	pool_copy(b, rb);
	return 0;
}

void pools_want_pairs(struct pool *a, size_t na, struct pool *b, size_t nb, unsigned what)
{
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++) {
			struct pool ra, rb;

			if (&a[i] == &b[j] || !a[i].n || !b[j].n ||
			    !run_same_cell(pool_face(&a[i]), pool_face(&b[j])))
				continue;
			if (pools_pair(&a[i], &b[j], &ra, &rb)) {
				pools_want(&ra, 1, what);
				pools_want(&rb, 1, what);
			}
			pool_release(&ra);
			pool_release(&rb);
		}
}

/* The first run of p not on the machine of face; NULL none. */
static const struct run *off_machine(const struct pool *p, const struct run *face)
{
	for (size_t k = 0; p && k < p->n; k++)
		if (!run_same_machine(face, p->runs[k]))
			return p->runs[k];
	return NULL;
}

int pools_same_machine(const struct pool *a, const struct pool *b, const struct run **x,
		       const struct run **y)
{
	const struct run *fa = pool_face(a), *fb = pool_face(b), *o;
	const struct run *dx = NULL, *dy = NULL;

	if (!fa || !fb)
		return 1;
	if (!run_same_machine(fa, fb)) {
		dx = fa;
		dy = fb;
	} else if ((o = off_machine(a, fa)) || (o = off_machine(b, fa))) {
		dx = fa;
		dy = o;
	}
	if (x)
		*x = dx;
	if (y)
		*y = dy;
	return !dx;
}

void pools_split_machines(struct pool **p, size_t *n)
{
	struct pool *in = *p, *out;
	size_t i, k, no = 0, cap = *n + 1;

	out = tps_xcalloc(cap, sizeof(*out));
	for (i = 0; i < *n; i++) {
		const struct pool *src = &in[i];
		char *done = tps_xcalloc(src->n + 1, 1);
		size_t left = src->n;

		if (!src->n) {
			/* An empty series stays one (empty) pool. */
			if (no == cap)
				out = tps_xrealloc(out, (cap *= 2) * sizeof(*out));
			memset(&out[no], 0, sizeof(out[no]));
			out[no].runs = tps_xcalloc(1, sizeof(*out[no].runs));
			out[no].set = src->set;
			out[no].rule = src->rule;
			out[no++].n_mismatch = src->n_mismatch;
		}
		while (left) {
			const struct run *lead = NULL;
			struct pool *q;

			/* The newest run not yet grouped leads the next group. */
			for (k = src->n; k-- > 0;)
				if (!done[k]) {
					lead = src->runs[k];
					break;
				}
			if (no == cap)
				out = tps_xrealloc(out, (cap *= 2) * sizeof(*out));
			q = &out[no++];
			memset(q, 0, sizeof(*q));
			q->runs = tps_xcalloc(src->n, sizeof(*q->runs));
			q->set = src->set;
			q->rule = src->rule;
			for (k = 0; k < src->n; k++)
				if (!done[k] && run_same_machine(lead, src->runs[k])) {
					done[k] = 1;
					q->runs[q->n++] = src->runs[k];
					left--;
				}
			/* The runs left out were unlike the face: the face's group's. */
			if (lead == src->runs[src->n - 1])
				q->n_mismatch = src->n_mismatch;
		}
		free(done);
	}
	pools_free(in, *n);
	*p = out;
	*n = no;
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

const struct pool *pools_find_cell(const struct pool *h, size_t n, const char *engine,
				   const struct run *face)
{
	for (size_t i = 0; i < n; i++) {
		const struct run *f = pool_face(&h[i]);

		if (f && (!engine || run_str_eq(f->engine, engine)) && run_same_cell(f, face))
			return &h[i];
	}
	return NULL;
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
	struct pool h = { .runs = tps_xcalloc(p->n_hist + 1, sizeof(*h.runs)) };

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

	struct estimate_history h = { 0, 0, 0, 0, 0 };

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

/* Whether pool p holds run r (by its uuid: the two may be loaded apart). */
static int pool_holds(const struct pool *p, const struct run *r)
{
	for (size_t k = 0; k < p->n; k++)
		if (!strcmp(p->runs[k]->uuid, r->uuid))
			return 1;
	return 0;
}

/* The runs of pool h of batch (h whole when batch is NULL), all clean; n 0 when
 * one is not. runs heap, the caller frees. */
static struct pool clean_batch(const struct pool *h, const char *batch)
{
	struct pool b = { .runs = tps_xcalloc(h->n + 1, sizeof(*b.runs)) };

	for (size_t k = 0; k < h->n; k++) {
		if (batch && !run_str_eq(h->runs[k]->batch, batch))
			continue;
		if (!run_clean(h->runs[k])) {
			b.n = 0;
			break;
		}
		b.runs[b.n++] = h->runs[k];
	}
	return b;
}

int pool_newest_clean(const struct pool *ha, const struct pool *hb, int same_batch,
		      const struct run *face, enum run_metric m,
		      const struct estimate_params *p, struct clean_answer *out)
{
	const char **tried = tps_xcalloc(ha->n + 1, sizeof(*tried));
	size_t n_tried = 0, k, j;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	for (;;) {
		const struct run *newest = NULL;
		struct pool a, b;
		struct estimate e = { 0 };

		/* The newest run of a batch not tried yet: its batch is next. A run
		 * frozen into a gate's baseline is no candidate: the baseline against
		 * itself answers nothing. */
		for (k = 0; k < ha->n; k++) {
			const struct run *r = ha->runs[k];

			if (!(r->batch && *r->batch) || run_str_eq(r->batch, face->batch) ||
			    !run_str_eq(r->host, face->host) || !r->started_at ||
			    (newest && strcmp(r->started_at, newest->started_at) <= 0) ||
			    (!same_batch && pool_holds(hb, r)))
				continue;
			for (j = 0; j < n_tried && !run_str_eq(tried[j], r->batch); j++)
				;
			if (j == n_tried)
				newest = r;
		}
		if (!newest)
			break;
		tried[n_tried++] = newest->batch;
		a = clean_batch(ha, newest->batch);
		b = clean_batch(hb, same_batch ? newest->batch : NULL);
		if (a.n && b.n) {
			struct run_diff d;

			/* The batch's own runs, comparable with its newest. */
			for (k = j = 0; k < a.n; k++)
				if (!run_mismatch(newest, a.runs[k], &d))
					a.runs[j++] = a.runs[k];
			a.n = j;
			/* Oldest first, newest (the face) last. */
			for (k = 0; k < a.n; k++)
				if (a.runs[k] == newest && k + 1 < a.n) {
					a.runs[k] = a.runs[a.n - 1];
					a.runs[a.n - 1] = newest;
				}
			if ((ret = pool_estimate(&a, &b, m, p, &e, NULL, NULL)) == 0 &&
			    e.v.regression != VERDICT_REG_SPOILED) {
				out->found = 1;
				out->v = e.v;
				out->ours_center = e.ours_center;
				out->vs_center = e.vs_center;
				out->batch = newest->batch;
				out->started_at = newest->started_at;
			}
			estimate_release(&e);
		}
		free(a.runs);
		free(b.runs);
		if (out->found || ret < 0)
			break;
	}
	free(tried);
	return ret;
}
