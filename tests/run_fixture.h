/* run_fixture.h: building the cell set's plain runs and pools by hand for the
 * unit tests of analyze/ (analyze/cellset.h), header-only as tests/reference.h
 * is: a run with its identity, config and values, a pool of runs and a compare
 * row, so that a test states what a store would have loaded without a store. */
#ifndef TESTS_RUN_FIXTURE_H
#define TESTS_RUN_FIXTURE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/cellset.h"
#include "analyze/parity.h"
#include "tpsdb.h"

/* A base run of engine on model ("" strings, RUN_NULL integers, no floor):
 * fill the rest by hand; strings are heap copies freed by run_release(). */
static inline void fx_run(struct run *r, const char *uuid, const char *engine, const char *model)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->uuid, sizeof(r->uuid), "%s", uuid ? uuid : "");
	r->engine = tps_xstrdup(engine ? engine : "");
	r->role = tps_xstrdup("other");
	r->engine_version = tps_xstrdup("");
	r->engine_sha256 = tps_xstrdup("");
	r->model = tps_xstrdup(model ? model : "");
	r->model_sha256 = tps_xstrdup("");
	r->model_quant = tps_xstrdup("");
	r->host = tps_xstrdup("host");
	r->tag = tps_xstrdup("");
	r->batch = tps_xstrdup("");
	r->started_at = tps_xstrdup("");
	r->status = tps_xstrdup("complete");
	r->spec_type = tps_xstrdup("");
	r->endpoint = tps_xstrdup("completion");
	r->prompt_set = tps_xstrdup("");
	r->config = tps_xstrdup("");
	r->source = tps_xstrdup("collect");
	r->n_max = r->ctx = r->n_predict = r->warmup = r->round = RUN_NULL;
	r->temperature = NAN;
	r->floor_pct[0] = r->floor_pct[1] = NAN;
	r->duration_ms = NAN;
	r->bench_ts = NAN;
}

/* Replaces a string field of a run (a heap copy). */
static inline void fx_set(char **field, const char *v)
{
	free(*field);
	*field = tps_xstrdup(v ? v : "");
}

/* Gives run r the values v[0..n) of metric m, keyed (prompt i + 1, rep 1) when
 * keys is NULL, else by keys[2i], keys[2i + 1]; marks the run loaded. */
static inline void fx_values(struct run *r, enum run_metric m, const double *v, size_t n,
			     const int64_t *keys)
{
	struct run_values *vs = &r->values[m];

	free(vs->v);
	vs->v = (struct run_value *)tps_xcalloc(n ? n : 1, sizeof(*vs->v));
	for (size_t i = 0; i < n; i++) {
		vs->v[i].prompt_id = keys ? keys[2 * i] : (int64_t)i + 1;
		vs->v[i].rep = keys ? keys[2 * i + 1] : 1;
		vs->v[i].value = v[i];
	}
	vs->n = n;
	r->n_samples = (int64_t)n > r->n_samples ? (int64_t)n : r->n_samples;
	r->loaded |= RUN_LOAD_VALUES | RUN_LOAD_ACCEPT;
}

/* Gives run r the keyed values v[0..n) of metric m, excluded samples left out. */
static inline void fx_keyed(struct run *r, enum run_metric m, const struct run_value *v,
			    size_t n, size_t excluded)
{
	double *x = (double *)tps_xcalloc(n ? n : 1, sizeof(*x));
	int64_t *k = (int64_t *)tps_xcalloc(n ? 2 * n : 1, sizeof(*k));

	for (size_t i = 0; i < n; i++) {
		x[i] = v[i].value;
		k[2 * i] = v[i].prompt_id;
		k[2 * i + 1] = v[i].rep;
	}
	fx_values(r, m, x, n, k);
	r->values[m].excluded = excluded;
	free(x);
	free(k);
}

/* A compare row of model "tiny" on the completion endpoint: spec type spec (""
 * a base cell), n_max, metric and its verdict's kind; the rest zero. */
static inline void fx_row(struct parity_row *r, char *spec, int64_t n_max, const char *metric,
			  enum verdict_kind kind)
{
	memset(r, 0, sizeof(*r));
	r->model = "tiny";
	r->spec_type = spec;
	r->endpoint = "completion";
	r->n_max = n_max;
	r->metric = metric;
	r->v.kind = kind;
}

/* A pool of the runs r[0..n), oldest first (the last its face); free its runs
 * array with free(p->runs). */
static inline void fx_pool(struct pool *p, struct run *r, size_t n)
{
	memset(p, 0, sizeof(*p));
	p->runs = (const struct run **)tps_xcalloc(n ? n : 1, sizeof(*p->runs));
	for (size_t i = 0; i < n; i++)
		p->runs[i] = &r[i];
	p->n = n;
}

/* A pool of the runs at r[idx[0..n)]. */
static inline void fx_pool_of(struct pool *p, struct run *r, const size_t *idx, size_t n)
{
	memset(p, 0, sizeof(*p));
	p->runs = (const struct run **)tps_xcalloc(n ? n : 1, sizeof(*p->runs));
	for (size_t i = 0; i < n; i++)
		p->runs[i] = &r[idx[i]];
	p->n = n;
}

#endif
