/* speedup.c: llama-bench speedups as compare-llama-bench.py computes them
 * (speedup.h): a ratio of mean avg_ts per test and a geometric mean per kind,
 * from the runs each side pools, every format alike (the csv and sql averages
 * too, which no interval can use). */
#include "analyze/speedup.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tpsdb.h"

char *speedup_kind(const char *test)
{
	size_t len = strcspn(test, " @"), k = 0;
	char *out = tps_xmalloc(len + 1);

	for (size_t i = 0; i < len; i++)
		if (!isdigit((unsigned char)test[i]))
			out[k++] = test[i];
	out[k] = '\0';
	return out;
}

/* The mean avg_ts of a pool's runs that have one; *n gets how many. */
static double pool_bench_ts(const struct pool *p, size_t *n)
{
	double sum = 0;

	*n = 0;
	for (size_t k = 0; k < p->n; k++) {
		double v = p->runs[k]->bench_ts;
		if (isfinite(v) && v > 0) {
			sum += v;
			(*n)++;
		}
	}
	return *n ? sum / (double)*n : NAN;
}

int speedup_add(struct speedup_set *s, const struct pool *ours, const struct pool *vs)
{
	const struct run *a = pool_face(ours), *b = pool_face(vs);
	struct speedup_row *r;
	size_t na, nb;
	double ta, tb;

	if (!a || !b || !run_str_eq(a->endpoint, "llama-bench") ||
	    !run_str_eq(b->endpoint, "llama-bench") || !a->config || !*a->config)
		return 0;
	ta = pool_bench_ts(ours, &na);
	tb = pool_bench_ts(vs, &nb);
	if (!na || !nb)
		return 0;
	s->rows = tps_xrealloc(s->rows, (s->n_rows + 1) * sizeof(*s->rows));
	r = &s->rows[s->n_rows++];
	r->test = tps_xstrndup(a->config, strcspn(a->config, " "));
	r->kind = speedup_kind(r->test);
	r->config = tps_xstrdup(a->config);
	r->model = tps_xstrdup(a->model ? a->model : "");
	r->ours_ts = ta;
	r->vs_ts = tb;
	r->n_ours = na;
	r->n_vs = nb;
	r->speedup = ta / tb;
	return 1;
}

void speedup_finish(struct speedup_set *s)
{
	double *sum_log = tps_xcalloc(s->n_rows + 1, sizeof(*sum_log));
	size_t i, k;

	for (i = 0; i < s->n_rows; i++) {
		for (k = 0; k < s->n_kinds && strcmp(s->kinds[k].kind, s->rows[i].kind); k++)
			;
		if (k == s->n_kinds) {
			s->kinds = tps_xrealloc(s->kinds, (s->n_kinds + 1) * sizeof(*s->kinds));
			s->kinds[k].kind = tps_xstrdup(s->rows[i].kind);
			s->kinds[k].n = 0;
			s->n_kinds++;
		}
		s->kinds[k].n++;
		sum_log[k] += log(s->rows[i].speedup);
	}
	for (k = 0; k < s->n_kinds; k++)
		s->kinds[k].geomean = exp(sum_log[k] / (double)s->kinds[k].n);
	free(sum_log);
}

void speedup_release(struct speedup_set *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n_rows; i++) {
		free(s->rows[i].test);
		free(s->rows[i].kind);
		free(s->rows[i].config);
		free(s->rows[i].model);
	}
	free(s->rows);
	for (i = 0; i < s->n_kinds; i++)
		free(s->kinds[i].kind);
	free(s->kinds);
	memset(s, 0, sizeof(*s));
}
