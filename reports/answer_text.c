/* answer_text.c: the one-line answer in words (answer_text.h). Every figure is
 * one the rows below it print, or their geometric mean decided as an estimate. */
#include "reports/answer_text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/parity.h"
#include "tpsdb.h"

static void cat(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void cat(char *buf, size_t len, const char *fmt, ...)
{
	size_t at = strlen(buf);
	va_list ap;

	if (at + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
}

void answer_text_metric(char *buf, size_t len, const char *metric, const struct answer *a,
			const char *const *names, const struct verdict *const *v)
{
	const char *sep = "";
	char ci[80];
	size_t i;

	cat(buf, len, "%s", metric);
	if (a->no) {
		cat(buf, len, " no regression in %zu of %zu cell%s", a->no, a->n, a->n == 1 ? "" : "s");
		sep = ",";
	}
	if (a->yes) {
		cat(buf, len, "%s %zu regression%s (", sep, a->yes, a->yes == 1 ? "" : "s");
		for (i = 0; i < a->n_named; i++) {
			const struct verdict *x = v[a->named[i]];
			verdict_interval_text(x, ci, sizeof(ci));
			cat(buf, len, "%s%s %+.1f%% %s", i ? ", " : "", names[a->named[i]],
			    x->delta_pct, ci);
		}
		cat(buf, len, "%s)", a->yes > a->n_named ? ", ..." : "");
		sep = ",";
	}
	if (a->undecided)
		cat(buf, len, "%s %zu undecided", sep, a->undecided);
	if (a->faster || a->slower || a->parity)
		cat(buf, len, " (decided: %zu faster, %zu slower, %zu parity)", a->faster, a->slower,
		    a->parity);
	verdict_interval_text(&a->geomean, ci, sizeof(ci));
	if (isfinite(a->geomean.delta_pct))
		cat(buf, len, ", geomean %+.1f%% %s", a->geomean.delta_pct,
		    isfinite(a->geomean.ci_lo_pct) ? ci : "(no interval: a cell has none)");
}

/* One row an answer counts: the metric it is of, its name (owned), its verdict and
 * the band its metric is decided against. */
struct answer_row {
	int metric;
	char *name;
	const struct verdict *v;
	double band;
};

/* The one loop of every answer: for each metric in order, the rows of that metric
 * through answer_build() (against the band of its first row) and
 * answer_text_metric(), after buf, "; " between metrics. Frees the rows' names.
 * Returns whether a metric had rows. */
static int answer_rows(char *buf, size_t len, const char *const *metrics, int n_metrics,
		       struct answer_row *rows, size_t n)
{
	const struct verdict **v = tps_xcalloc(n + 1, sizeof(*v));
	const char **names = tps_xcalloc(n + 1, sizeof(*names));
	size_t i, k;
	int m, any = 0;

	for (m = 0; m < n_metrics; m++) {
		struct answer a;
		double band = NAN;

		for (k = 0, i = 0; i < n; i++) {
			if (rows[i].metric != m)
				continue;
			if (!k)
				band = rows[i].band;
			names[k] = rows[i].name;
			v[k++] = rows[i].v;
		}
		if (!k)
			continue;
		answer_build(v, k, band, &a);
		cat(buf, len, "%s ", any ? ";" : "");
		answer_text_metric(buf, len, metrics[m], &a, names, v);
		any = 1;
	}
	for (i = 0; i < n; i++)
		free(rows[i].name);
	free(names);
	free(v);
	return any;
}

char *answer_text_compare(const struct parity_result *r, const char *ours, const char *vs,
			  double band_pct)
{
	static const char *const metrics[2] = { "pp", "tg" };
	struct answer_row *rows = tps_xcalloc(r->n_rows + 1, sizeof(*rows));
	char buf[2048], name[256];
	size_t i;

	snprintf(buf, sizeof(buf), "%s vs %s:", ours, vs);
	for (i = 0; i < r->n_rows; i++) {
		parity_row_name(&r->rows[i], name, sizeof(name));
		rows[i].metric = strcmp(r->rows[i].metric, "pp") ? strcmp(r->rows[i].metric, "tg") ?
				 -1 : 1 : 0;
		rows[i].name = tps_xstrdup(name);
		rows[i].v = &r->rows[i].v;
		rows[i].band = band_pct;
	}
	answer_rows(buf, sizeof(buf), metrics, 2, rows, r->n_rows);
	free(rows);
	return tps_xstrdup(buf);
}

char *answer_text_gate(const struct gate_result *r)
{
	const char *metrics[GATE_N_METRICS];
	double band[GATE_N_METRICS] = { 0 };
	struct answer_row *rows = tps_xcalloc(r->n_rows + 1, sizeof(*rows));
	char buf[2048] = "answer:", name[256];
	size_t i;
	int m;

	for (m = 0; m < GATE_N_METRICS; m++)
		metrics[m] = gate_metric_name(m);
	/* A metric's answer is held against its last row's threshold. */
	for (i = 0; i < r->n_rows; i++)
		band[r->rows[i].metric] = r->rows[i].g.threshold_pct;
	for (i = 0; i < r->n_rows; i++) {
		parity_side_name(&r->rows[i].cand->side, name, sizeof(name));
		rows[i].metric = (int)r->rows[i].metric;
		rows[i].name = tps_xstrdup(name);
		rows[i].v = &r->rows[i].g.v;
		rows[i].band = band[r->rows[i].metric];
	}
	answer_rows(buf, sizeof(buf), metrics, GATE_N_METRICS, rows, r->n_rows);
	free(rows);
	return tps_xstrdup(buf);
}
