/* answer_text.c: the one-line answer in words (answer_text.h). Every figure is
 * one the rows below it print, or their geometric mean decided as an estimate. */
#include "reports/answer_text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/parity.h"
#include "reports/tables.h"
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

char *answer_text_compare(const struct parity_result *r, const char *ours, const char *vs,
			  double band_pct)
{
	static const char *const metrics[2] = { "pp", "tg" };
	const struct verdict **v = tps_xcalloc(r->n_rows + 1, sizeof(*v));
	const char **names = tps_xcalloc(r->n_rows + 1, sizeof(*names));
	char **owned = tps_xcalloc(r->n_rows + 1, sizeof(*owned));
	char buf[2048];
	size_t i, k, n;
	int m, first = 1;

	snprintf(buf, sizeof(buf), "%s vs %s:", ours, vs);
	for (m = 0; m < 2; m++) {
		struct answer a;

		for (n = 0, i = 0; i < r->n_rows; i++) {
			char name[256];

			if (strcmp(r->rows[i].metric, metrics[m]))
				continue;
			parity_row_name(&r->rows[i], name, sizeof(name));
			owned[n] = tps_xstrdup(name);
			names[n] = owned[n];
			v[n++] = &r->rows[i].v;
		}
		if (!n)
			continue;
		answer_build(v, n, band_pct, &a);
		cat(buf, sizeof(buf), "%s ", first ? "" : ";");
		answer_text_metric(buf, sizeof(buf), metrics[m], &a, names, v);
		first = 0;
		for (k = 0; k < n; k++)
			free(owned[k]);
	}
	free(owned);
	free(names);
	free(v);
	return tps_xstrdup(buf);
}

char *answer_text_gate(const struct gate_result *r)
{
	const struct verdict **v = tps_xcalloc(r->n_rows + 1, sizeof(*v));
	const char **names = tps_xcalloc(r->n_rows + 1, sizeof(*names));
	char **owned = tps_xcalloc(r->n_rows + 1, sizeof(*owned));
	char buf[2048] = "answer:";
	size_t i, k, n;
	int m, first = 1;

	for (m = 0; m < GATE_N_METRICS; m++) {
		struct answer a;
		double band = 0;

		for (n = 0, i = 0; i < r->n_rows; i++) {
			char name[256];

			if (r->rows[i].metric != m)
				continue;
			parity_side_name(&r->rows[i].cand->side, name, sizeof(name));
			owned[n] = tps_xstrdup(name);
			names[n] = owned[n];
			band = r->rows[i].g.threshold_pct;
			v[n++] = &r->rows[i].g.v;
		}
		if (!n)
			continue;
		answer_build(v, n, band, &a);
		cat(buf, sizeof(buf), "%s ", first ? "" : ";");
		answer_text_metric(buf, sizeof(buf), gate_metric_name(m), &a, names, v);
		first = 0;
		for (k = 0; k < n; k++)
			free(owned[k]);
	}
	free(owned);
	free(names);
	free(v);
	return tps_xstrdup(buf);
}

char *answer_text_report(const struct tables *t, size_t e)
{
	const struct verdict **v = tps_xcalloc(t->n_base + 1, sizeof(*v));
	const char **names = tps_xcalloc(t->n_base + 1, sizeof(*names));
	char buf[2048], *ret = NULL;
	size_t k, n;
	int m, any = 0;

	if (!t->ref || !strcmp(t->engines[e].label, t->ref))
		goto out;
	snprintf(buf, sizeof(buf), "%s vs %s:", t->engines[e].label, t->ref);
	for (m = 0; m < 2; m++) {
		struct answer a;

		for (n = 0, k = 0; k < t->n_base; k++) {
			const struct tables_base_cell *c = &t->base[k].cells[e];
			const struct tables_verdict *tv = m ? &c->vtg : &c->vpp;

			if (!c->present || c->forced || !tv->has)
				continue;
			names[n] = t->base[k].model;
			v[n++] = &tv->v;
		}
		if (!n)
			continue;
		answer_build(v, n, v[0]->band_pct, &a);
		cat(buf, sizeof(buf), "%s ", any ? ";" : "");
		answer_text_metric(buf, sizeof(buf), m ? "tg" : "pp", &a, names, v);
		any = 1;
	}
	if (any)
		ret = tps_xstrdup(buf);
out:
	free(names);
	free(v);
	return ret;
}
