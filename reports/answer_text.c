/* answer_text.c: the one-line answer in words (answer_text.h). Every figure is
 * one the rows below it print, or their geometric mean decided as an estimate;
 * the deciding is analyze/'s (answer_set_build()), this only words it. */
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
	if (a->intermittent) {
		cat(buf, len, "%s %zu intermittent (slow on some starts)", sep, a->intermittent);
		sep = ",";
	}
	if (a->undecided) {
		cat(buf, len, "%s %zu undecided", sep, a->undecided);
		sep = ",";
	}
	if (a->spoiled) {
		char env[160];

		parity_env_names(a->spoiled_env, env, sizeof(env));
		cat(buf, len, "%s %zu spoiled (%s)", sep, a->spoiled, env);
	}
	if (a->faster || a->slower || a->parity)
		cat(buf, len, " (decided: %zu faster, %zu slower, %zu parity)", a->faster, a->slower,
		    a->parity);
	verdict_interval_text(&a->geomean, ci, sizeof(ci));
	if (isfinite(a->geomean.delta_pct))
		cat(buf, len, ", geomean %+.1f%% %s", a->geomean.delta_pct,
		    isfinite(a->geomean.ci_lo_pct) ? ci : "(no interval: a cell has none)");
}

/* The one loop of every answer: each metric's part of set (answer_text_metric(),
 * the metric called metric_name(), the rows named by name_of(r, row index)) after
 * buf, "; " between metrics. Only the named regressions are printed, so only they
 * get a name. */
static void answer_words(char *buf, size_t len, const struct answer_set *set,
			 const char *(*metric_name)(int metric),
			 void (*name_of)(const void *r, size_t row, char *name, size_t len),
			 const void *r)
{
	size_t i, k;

	for (i = 0; i < set->n; i++) {
		const struct answer_metric *am = &set->m[i];
		const char **names = tps_xcalloc(am->a.n + 1, sizeof(*names));
		char name[256];

		for (k = 0; k < am->a.n_named; k++) {
			name_of(r, am->rows[am->a.named[k]], name, sizeof(name));
			names[am->a.named[k]] = tps_xstrdup(name);
		}
		cat(buf, len, "%s ", i ? ";" : "");
		answer_text_metric(buf, len, metric_name(am->metric), &am->a, names, am->v);
		for (k = 0; k < am->a.n_named; k++)
			free((char *)names[am->a.named[k]]);
		free(names);
	}
}

static const char *compare_metric_name(int metric)
{
	return metric == PARITY_METRIC_TG ? "tg" : "pp";
}

static void compare_name(const void *r, size_t row, char *name, size_t len)
{
	parity_row_name(&((const struct parity_result *)r)->rows[row], name, len);
}

char *answer_text_compare(const struct parity_result *r, const char *ours, const char *vs)
{
	char buf[2048];

	snprintf(buf, sizeof(buf), "%s vs %s:", ours, vs);
	answer_words(buf, sizeof(buf), &r->answers, compare_metric_name, compare_name, r);
	return tps_xstrdup(buf);
}

static void gate_name(const void *r, size_t row, char *name, size_t len)
{
	run_cell_name(((const struct gate_result *)r)->rows[row].cand->side, name, len);
}

char *answer_text_gate(const struct gate_result *r)
{
	char buf[2048] = "answer:";

	answer_words(buf, sizeof(buf), &r->answers, gate_metric_name, gate_name, r);
	return tps_xstrdup(buf);
}
