/* answer.c: the one-line answer (answer.h): counts of the cells' answers and the
 * geometric mean of their deltas, decided as one more estimate. */
#include "analyze/answer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tpsdb.h"

void answer_build(const struct verdict *const *v, size_t n, double band_pct,
		  struct answer *out)
{
	double sm = 0, sv = 0, df = INFINITY, level = 1;
	int interval = n > 0;
	size_t i, n_mean = 0;

	memset(out, 0, sizeof(*out));
	out->n = n;
	for (i = 0; i < n; i++) {
		const struct verdict *x = v[i];

		switch (x->regression) {
		case VERDICT_REG_YES:
			out->yes++;
			if (out->n_named < ANSWER_NAMED)
				out->named[out->n_named++] = i;
			break;
		case VERDICT_REG_NO:
			out->no++;
			break;
		case VERDICT_REG_INTERMITTENT:
			/* An answer, but its delta leaves the slow starts out:
			 * counted, and no part of the mean. */
			out->intermittent++;
			continue;
		case VERDICT_REG_SPOILED:
			/* Not an answer: counted, and no part of the mean. */
			out->spoiled++;
			out->spoiled_env |= x->spoiled;
			continue;
		default:
			out->undecided++;
			break;
		}
		if (x->decided) {
			out->faster += x->kind == VERDICT_FASTER;
			out->slower += x->kind == VERDICT_SLOWER;
			out->parity += x->kind == VERDICT_PARITY;
		}
		/* A cell with no delta (no usable value: llama-bench's csv and sql
		 * averages) is no part of the mean: its log ratio is no 0. */
		if (!isfinite(x->delta_pct)) {
			interval = 0;
			continue;
		}
		n_mean++;
		sm += x->log_m;
		/* One instance a side without a stored floor has a requests' interval
		 * that decides nothing: it cannot lend the mean one either. */
		if (isfinite(x->log_se) && isfinite(x->df) && x->df > 0 &&
		    x->regression != VERDICT_REG_UNKNOWN &&
		    !(x->method == VERDICT_METHOD_REQUESTS && x->bound == VERDICT_BOUND_BAND)) {
			sv += x->log_se * x->log_se;
			if (x->df < df)
				df = x->df;
			if (x->ci_level < level)
				level = x->ci_level;
		} else {
			interval = 0;
		}
	}
	out->geomean.band_pct = band_pct;
	out->geomean.ci_level = level;
	/* The mean is over the cells that are evidence: a spoiled one is not, nor
	 * one without a delta. */
	if (!n_mean) {
		out->geomean.kind = VERDICT_UNKNOWN;
		out->geomean.delta_pct = out->geomean.ci_lo_pct = out->geomean.ci_hi_pct = NAN;
		return;
	}
	n = n_mean;
	verdict_decide_interval(sm / (double)n, interval ? sqrt(sv) / (double)n : NAN,
				interval ? df : NAN, (1 - level) / 2, band_pct, &out->geomean);
}

void answer_set_build(const int *metric, const struct verdict *const *v, size_t n,
		      const double *band_pct, int n_metrics, struct answer_set *out)
{
	size_t i;
	int m;

	memset(out, 0, sizeof(*out));
	out->m = tps_xcalloc(n_metrics > 0 ? (size_t)n_metrics : 1, sizeof(*out->m));
	for (m = 0; m < n_metrics; m++) {
		struct answer_metric *am = &out->m[out->n];
		size_t k = 0;

		for (i = 0; i < n; i++)
			k += metric[i] == m;
		if (!k)
			continue;
		am->metric = m;
		am->rows = tps_xcalloc(k, sizeof(*am->rows));
		am->v = tps_xcalloc(k, sizeof(*am->v));
		for (k = 0, i = 0; i < n; i++) {
			if (metric[i] != m)
				continue;
			am->rows[k] = i;
			am->v[k++] = v[i];
		}
		answer_build(am->v, k, band_pct[m], &am->a);
		out->n++;
	}
}

void answer_set_release(struct answer_set *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		free(s->m[i].rows);
		free(s->m[i].v);
	}
	free(s->m);
	memset(s, 0, sizeof(*s));
}
