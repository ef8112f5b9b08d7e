/* sweep_write.c: renders the speculative series for 'tpsdb sweep'. The numbers, the
 * shape steps and the gaps come from analyze/series.c; the sentences from
 * reports/sweep_text.c. Text and JSON list the same things in the same order. */
#include "reports/sweep_write.h"
#include "escape.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/json.h"
#include "reports/md.h"
#include "reports/sweep_text.h"
#include "tpsdb.h"

/* Calls fn for every shape step of se against each of its references, in set order. */
static void each_shape(const struct series_view *v, double tol, const struct series_set *set,
		       const struct series *se,
		       void (*fn)(const struct series *ref, const struct sweep_step *st, void *arg),
		       void *arg)
{
	size_t i, j;

	for (j = 0; j < set->n; j++) {
		struct sweep_step *steps = NULL;
		size_t n = 0;

		if (!series_is_ref(v, se, &set->v[j]) ||
		    series_shape(se, &set->v[j], tol, &steps, &n) < 0)
			continue;
		for (i = 0; i < n; i++)
			fn(&set->v[j], &steps[i], arg);
		free(steps);
	}
}

/* Calls fn for every gap line: ordered pairs by series_gap_pair(), rungs of the
 * first in order, those with a gap and a sentence. */
static void each_gap(const struct series_view *v, const struct series_set *set,
		     void (*fn)(const struct series *x, const struct series *y, int64_t n_max,
				const struct sweep_gap *g, const char *msg, void *arg),
		     void *arg)
{
	size_t a, b, i;

	for (a = 0; a < set->n; a++) {
		for (b = 0; b < set->n; b++) {
			const struct series *x = &set->v[a], *y = &set->v[b];

			if (a == b || !series_gap_pair(v, x, y))
				continue;
			for (i = 0; i < x->n_rungs; i++) {
				struct sweep_gap g;
				char msg[512];

				if (series_gap(x, y, x->rungs[i].n_max, &g) < 0 ||
				    sweep_text_gap(&g, x->engine, y->engine, msg, sizeof(msg)) < 0)
					continue;
				fn(x, y, x->rungs[i].n_max, &g, msg, arg);
			}
		}
	}
}

struct json_shape {
	const struct series *se;
	cJSON *arr;
};

static void shape_json(const struct series *ref, const struct sweep_step *st, void *arg)
{
	struct json_shape *js = arg;
	cJSON *v = cJSON_CreateObject();
	char msg[384];

	sweep_text_shape(st, js->se->engine, ref->engine, msg, sizeof(msg));
	cJSON_AddItemToArray(js->arr, v);
	cJSON_AddStringToObject(v, "ref", ref->engine);
	json_put_rung(v, "from", st->from_n_max);
	json_put_rung(v, "to", st->to_n_max);
	json_put_num(v, "change_pct", st->change_pct);
	json_put_num(v, "ref_change_pct", st->ref_change_pct);
	cJSON_AddStringToObject(v, "message", msg);
}

static cJSON *series_json(const struct series_view *view, double tol,
			  const struct series_set *set, const struct series *se)
{
	cJSON *js = cJSON_CreateObject(), *pts, *arr;
	struct json_shape sh;
	size_t i;

	cJSON_AddStringToObject(js, "engine", se->engine);
	cJSON_AddStringToObject(js, "model", se->model);
	cJSON_AddStringToObject(js, "spec_type", se->spec_type);
	cJSON_AddStringToObject(js, "endpoint", se->endpoint);
	pts = cJSON_AddArrayToObject(js, "points");
	for (i = 0; i < se->n_rungs; i++) {
		const struct series_rung *r = &se->rungs[i];
		cJSON *p = cJSON_CreateObject();

		cJSON_AddItemToArray(pts, p);
		json_put_rung(p, "n_max", r->n_max);
		json_put_num(p, "tg", r->rung.tg);
		json_put_num(p, "accept", r->point.acceptance);
		json_put_num(p, "speedup", r->point.speedup);
		json_put_num(p, "cycles", r->point.cycles);
		json_put_num(p, "tokens_per_cycle", r->point.tokens_per_cycle);
		json_put_num(p, "ms_per_cycle", r->point.ms_per_cycle);
		cJSON_AddNumberToObject(p, "n_samples", (double)r->n_values);
		cJSON_AddNumberToObject(p, "excluded", (double)r->n_excluded);
		cJSON_AddStringToObject(p, "run", r->run_uuid);
		cJSON_AddNumberToObject(p, "instances", (double)r->point.instances);
		json_put_num(p, "tg_ci_lo", r->point.tg_ci_lo);
		json_put_num(p, "tg_ci_hi", r->point.tg_ci_hi);
		json_put_num(p, "accept_ci_lo", r->point.accept_ci_lo);
		json_put_num(p, "accept_ci_hi", r->point.accept_ci_hi);
		json_put_num(p, "mde_pct", r->point.mde_pct);
	}
	cJSON_AddBoolToObject(js, "monotone", se->report.n_decided == 0);
	arr = cJSON_AddArrayToObject(js, "violations");
	for (i = 0; i < se->report.n_violations; i++) {
		const struct sweep_step *st = &se->report.violations[i];
		cJSON *v = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, v);
		json_put_rung(v, "from", st->from_n_max);
		json_put_rung(v, "to", st->to_n_max);
		json_put_num(v, "drop_pct", -st->change_pct);
		cJSON_AddBoolToObject(v, "decided", st->decided);
		json_put_num(v, "ci_lo_pct", st->ci_lo_pct);
		json_put_num(v, "ci_hi_pct", st->ci_hi_pct);
		json_put_num(v, "mde_pct", st->mde_pct);
		cJSON_AddNumberToObject(v, "rounds", (double)st->rounds);
	}
	arr = cJSON_AddArrayToObject(js, "anomalies");
	for (i = 0; i < se->report.n_anomalies; i++) {
		const struct sweep_step *st = &se->report.anomalies[i];
		cJSON *v = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, v);
		json_put_rung(v, "from", st->from_n_max);
		json_put_rung(v, "to", st->to_n_max);
		json_put_num(v, "accept_rise_pct", st->change_pct);
	}
	sh.se = se;
	sh.arr = cJSON_AddArrayToObject(js, "shape");
	each_shape(view, tol, set, se, shape_json, &sh);
	return js;
}

static void gap_json(const struct series *x, const struct series *y, int64_t n_max,
		     const struct sweep_gap *g, const char *msg, void *arg)
{
	cJSON *v = cJSON_CreateObject();

	cJSON_AddItemToArray((cJSON *)arg, v);
	cJSON_AddStringToObject(v, "ours", x->engine);
	cJSON_AddStringToObject(v, "ref", y->engine);
	cJSON_AddStringToObject(v, "model", x->model);
	cJSON_AddStringToObject(v, "spec_type", x->spec_type);
	json_put_rung(v, "n_max", n_max);
	json_put_num(v, "tg_pct", g->tg_pct);
	json_put_num(v, "tpc_pct", g->tpc_pct);
	json_put_num(v, "cost_pct", g->cost_pct);
	json_put_num(v, "share_acceptance", g->share_acceptance);
	json_put_num(v, "share_cost", g->share_cost);
	cJSON_AddBoolToObject(v, "decided", g->decided);
	json_put_num(v, "ci_lo_pct", g->ci_lo_pct);
	json_put_num(v, "ci_hi_pct", g->ci_hi_pct);
	json_put_num(v, "mde_pct", g->mde_pct);
	cJSON_AddNumberToObject(v, "instances_ours", (double)g->instances_ours);
	cJSON_AddNumberToObject(v, "instances_ref", (double)g->instances_ref);
	cJSON_AddStringToObject(v, "explain", msg);
}

int sweep_write_json(FILE *out, const struct series_view *v, double tolerance_pct,
		     const struct series_set *set)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	size_t k;

	arr = cJSON_AddArrayToObject(root, "series");
	for (k = 0; k < set->n; k++)
		if (series_shown(v, &set->v[k]))
			cJSON_AddItemToArray(arr, series_json(v, tolerance_pct, set, &set->v[k]));
	each_gap(v, set, gap_json, cJSON_AddArrayToObject(root, "gaps"));
	return json_write(out, root);
}

struct text_shape {
	FILE *out;
	const struct series *se;
};

static void shape_text(const struct series *ref, const struct sweep_step *st, void *arg)
{
	struct text_shape *ts = arg;
	char msg[384], *e;

	sweep_text_shape(st, ts->se->engine, ref->engine, msg, sizeof(msg));
	e = escape_text(msg);
	fprintf(ts->out, "  shape: %s\n", e);
	free(e);
}

static void series_text(FILE *out, const struct series_view *v, double tol,
			const struct series_set *set, const struct series *se)
{
	struct text_shape ts = { out, se };
	size_t i;
	int pooled = 0;
	char *e = escape_text(se->engine), *m = escape_text(se->model);
	char *sp = escape_text(*se->spec_type ? se->spec_type : "(no spec type)");
	char *ep = escape_text(strcmp(se->endpoint, "completion") ? se->endpoint : "");

	fprintf(out, "%s  %s  %s%s%s  %s\n", e, m, sp,
		strcmp(se->endpoint, "completion") ? "  " : "", ep,
		se->report.n_decided ? "NOT MONOTONE" : "monotone");
	free(e);
	free(m);
	free(sp);
	free(ep);
	for (i = 0; i < se->n_rungs; i++)
		pooled |= se->rungs[i].n_runs > 1;
	/* The interval columns appear only where a rung pools runs: a sweep of one
	 * run per rung reads as it always did. */
	fprintf(out, "  %-6s %9s %8s %7s %10s %9s %9s %4s", "n_max", "tg", "speedup", "accept",
		"tok/cycle", "ms/cycle", "cycles", "n");
	if (pooled)
		fprintf(out, " %4s %17s %6s", "runs", "tg 90% interval", "mde");
	fprintf(out, "\n");
	for (i = 0; i < se->n_rungs; i++) {
		const struct series_rung *r = &se->rungs[i];
		char n[24], tg[32], sp[32], ac[32], tpc[32], ms[32], cy[32];

		sweep_text_rung(r->n_max, n, sizeof(n));
		md_num(tg, sizeof(tg), "%.1f", r->rung.tg);
		md_num(sp, sizeof(sp), "%.2fx", r->point.speedup);
		md_num(ac, sizeof(ac), "%.1f%%", r->point.acceptance * 100);
		md_num(tpc, sizeof(tpc), "%.2f", r->point.tokens_per_cycle);
		md_num(ms, sizeof(ms), "%.2f", r->point.ms_per_cycle);
		md_num(cy, sizeof(cy), "%.0f", r->point.cycles);
		fprintf(out, "  %-6s %9s %8s %7s %10s %9s %9s %4zu", n, tg, sp, ac, tpc, ms, cy,
			r->n_values);
		if (pooled) {
			char lo[32], hi[32], ci[72], mde[32];
			md_num(lo, sizeof(lo), "%.1f", r->point.tg_ci_lo);
			md_num(hi, sizeof(hi), "%.1f", r->point.tg_ci_hi);
			snprintf(ci, sizeof(ci), "%s-%s", lo, hi);
			md_num(mde, sizeof(mde), "%.1f%%", r->point.mde_pct);
			fprintf(out, " %4zu %17s %6s", r->point.instances, ci, mde);
		}
		fprintf(out, "\n");
	}
	for (i = 0; i < se->report.n_violations; i++) {
		const struct sweep_step *st = &se->report.violations[i];
		char a[24], b[24];
		sweep_text_rung(st->from_n_max, a, sizeof(a));
		sweep_text_rung(st->to_n_max, b, sizeof(b));
		if (isnan(st->ci_lo_pct))
			fprintf(out, "  undecided: tg falls %.1f%% from n_max=%s to n_max=%s "
				"(tolerance %g%%) in one run a rung, which has no interval: not a "
				"violation until --rounds 2 or more decide it\n", -st->change_pct, a,
				b, tol);
		else if (st->decided)
			fprintf(out, "  VIOLATION: tg falls %.1f%% from n_max=%s to n_max=%s "
				"(tolerance %g%%; 90%% interval %+.1f%% to %+.1f%%)\n",
				-st->change_pct, a, b, tol, st->ci_lo_pct, st->ci_hi_pct);
		else
			fprintf(out, "  undecided: tg falls %.1f%% from n_max=%s to n_max=%s, but its "
				"90%% interval %+.1f%% to %+.1f%% holds -%g%%: not a violation until "
				"more runs decide it\n", -st->change_pct, a, b, st->ci_lo_pct,
				st->ci_hi_pct, tol);
	}
	for (i = 0; i < se->report.n_anomalies; i++) {
		const struct sweep_step *st = &se->report.anomalies[i];
		char a[24], b[24];
		fprintf(out, "  anomaly: acceptance rises %+.1f%% from n_max=%s to n_max=%s, though a "
			"deeper draft should be accepted less often\n", st->change_pct,
			sweep_text_rung(st->from_n_max, a, sizeof(a)),
			sweep_text_rung(st->to_n_max, b, sizeof(b)));
	}
	each_shape(v, tol, set, se, shape_text, &ts);
}

struct text_gaps {
	FILE *out;
	int header;
};

static void gap_text(const struct series *x, const struct series *y, int64_t n_max,
		     const struct sweep_gap *g, const char *msg, void *arg)
{
	struct text_gaps *tg = arg;

	(void)y;
	(void)n_max;
	(void)g;
	if (!tg->header++)
		fprintf(tg->out, "\ngaps:\n");
	{
		char *m = escape_text(x->model), *sp = escape_text(x->spec_type);
		char *e = escape_text(msg);
		fprintf(tg->out, "  %s %s: %s\n", m, sp, e);
		free(m);
		free(sp);
		free(e);
	}
}

void sweep_write_text(FILE *out, const struct series_view *v, double tolerance_pct,
		      const struct series_set *set)
{
	struct text_gaps tg = { out, 0 };
	size_t a;
	int first = 1;

	for (a = 0; a < set->n; a++) {
		if (!series_shown(v, &set->v[a]))
			continue;
		if (!first)
			fprintf(out, "\n");
		first = 0;
		series_text(out, v, tolerance_pct, set, &set->v[a]);
	}
	each_gap(v, set, gap_text, &tg);
}
