/* sweep_write.c: renders the speculative series for 'tpsdb sweep'. The numbers, the
 * shape steps and the gaps come decided from analyze/series.c (series_decide());
 * the sentences from reports/sweep_text.c. Text, markdown and CSV show one table
 * per series; text and JSON list the same things in the same order. */
#include "reports/sweep_write.h"
#include "escape.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/json.h"
#include "reports/parity.h"
#include "reports/md.h"
#include "reports/table.h"
#include "reports/sweep_text.h"
#include "tpsdb.h"

/* The machine of a run as compare's JSON names it. */
static const char *machine(const struct run *r)
{
	return r->machine ? r->machine : r->host ? r->host : "";
}

/* The two "machines" of runs a and b. */
static void machines_json(cJSON *v, const struct run *a, const struct run *b)
{
	cJSON *m = cJSON_AddArrayToObject(v, "machines");

	cJSON_AddItemToArray(m, cJSON_CreateString(machine(a)));
	cJSON_AddItemToArray(m, cJSON_CreateString(machine(b)));
}

/* "across_machines" of a shape step or gap, and with true its two "machines". */
static void across_json(cJSON *v, const struct run *a, const struct run *b)
{
	cJSON_AddBoolToObject(v, "across_machines", a != NULL);
	if (a)
		machines_json(v, a, b);
}

/* The sentence of shape step st of se against ref. */
static void shape_text(const struct series *se, const struct series *ref,
		       const struct sweep_step *st, char *buf, size_t len)
{
	if (st->machine_a)
		sweep_text_across(se->engine, ref->engine, st->from_n_max, st->to_n_max,
				  st->machine_a, st->machine_b, buf, len);
	else
		sweep_text_shape(st, se->engine, ref->engine, buf, len);
}

static void shape_json(cJSON *arr, const struct series *se, const struct series *ref,
		       const struct sweep_step *st)
{
	cJSON *v = cJSON_CreateObject();
	char msg[1536];

	shape_text(se, ref, st, msg, sizeof(msg));
	cJSON_AddItemToArray(arr, v);
	cJSON_AddStringToObject(v, "ref", ref->engine);
	json_put_rung(v, "from", st->from_n_max);
	json_put_rung(v, "to", st->to_n_max);
	json_put_num(v, "change_pct", st->change_pct);
	json_put_num(v, "ref_change_pct", st->ref_change_pct);
	across_json(v, st->machine_a, st->machine_b);
	cJSON_AddStringToObject(v, "message", msg);
}

static cJSON *series_json(const struct series_set *set, const struct series_verdict *vd,
			  size_t k)
{
	const struct series *se = &set->v[k];
	cJSON *js = cJSON_CreateObject(), *pts, *arr;
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
		json_put_num(p, "screen_median", exp(r->screen_median));
		{
			cJSON *lo = cJSON_AddArrayToObject(p, "outliers");
			size_t j;

			for (j = 0; j < r->n_screened; j++) {
				cJSON *o = cJSON_CreateObject();

				cJSON_AddItemToArray(lo, o);
				cJSON_AddStringToObject(o, "run", r->screened_out[j].run_uuid);
				json_put_num(o, "tg", r->screened_out[j].tg);
			}
		}
	}
	if (se->report.shape == SWEEP_SHAPE_UNDECIDED)
		cJSON_AddNullToObject(js, "monotone");
	else
		cJSON_AddBoolToObject(js, "monotone", se->report.shape == SWEEP_MONOTONE);
	cJSON_AddStringToObject(js, "monotonicity", sweep_shape_name(se->report.shape));
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
	arr = cJSON_AddArrayToObject(js, "across_machines");
	for (i = 0; i < se->report.n_across; i++) {
		const struct sweep_step *st = &se->report.across[i];
		cJSON *v = cJSON_CreateObject();
		char msg[1536];

		cJSON_AddItemToArray(arr, v);
		json_put_rung(v, "from", st->from_n_max);
		json_put_rung(v, "to", st->to_n_max);
		machines_json(v, st->machine_a, st->machine_b);
		sweep_text_across(se->engine, NULL, st->from_n_max, st->to_n_max, st->machine_a,
				  st->machine_b, msg, sizeof(msg));
		cJSON_AddStringToObject(v, "message", msg);
	}
	arr = cJSON_AddArrayToObject(js, "shape");
	for (i = 0; i < vd->n_shape[k]; i++)
		shape_json(arr, se, &set->v[vd->shape[k][i].ref], &vd->shape[k][i].step);
	return js;
}

static void gap_json(cJSON *arr, const struct series *x, const struct series *y,
		     int64_t n_max, const struct sweep_gap *g, const char *msg)
{
	cJSON *v = cJSON_CreateObject();

	cJSON_AddItemToArray(arr, v);
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
	/* The parts and shares split sums_pct, the sums over the rungs' kept
	 * instances; outliers: instances left out of the figure (tg_pct). */
	cJSON_AddNumberToObject(v, "outliers", (double)g->outliers);
	json_put_num(v, "sums_pct", g->sums_pct);
	cJSON_AddStringToObject(v, "reason", estimate_reason_name(g->reason));
	/* The side(s) that drafted no token at this rung: no speculation ran. */
	cJSON_AddItemToObject(v, "undrafted", !g->undrafted ? cJSON_CreateNull() :
			      cJSON_CreateString(g->undrafted == 3 ? "both" :
						 g->undrafted == 1 ? "ours" : "ref"));
	across_json(v, g->machine_a, g->machine_b);
	cJSON_AddStringToObject(v, "explain", msg);
}

/* Calls fn for every gap line of vd whose sentence could be written. */
static void each_gap(const struct series_set *set, const struct series_verdict *vd,
		     void (*fn)(const struct series *x, const struct series *y, int64_t n_max,
				const struct sweep_gap *g, const char *msg, void *arg),
		     void *arg)
{
	size_t i;

	for (i = 0; i < vd->n_gaps; i++) {
		const struct series_gap_line *l = &vd->gaps[i];
		const struct series *x = &set->v[l->ours], *y = &set->v[l->ref];
		char msg[1536];

		if (l->gap.machine_a)
			sweep_text_across(x->engine, y->engine, l->n_max, l->n_max, l->gap.machine_a,
					  l->gap.machine_b, msg, sizeof(msg));
		else if (sweep_text_gap(&l->gap, x->engine, y->engine, msg, sizeof(msg)) < 0)
			continue;
		fn(x, y, l->n_max, &l->gap, msg, arg);
	}
}

static void gap_json_cb(const struct series *x, const struct series *y, int64_t n_max,
			const struct sweep_gap *g, const char *msg, void *arg)
{
	gap_json(arg, x, y, n_max, g, msg);
}

int sweep_write_json(FILE *out, const struct series_set *set, const struct series_verdict *vd)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	size_t k;

	arr = cJSON_AddArrayToObject(root, "series");
	for (k = 0; k < set->n; k++)
		if (vd->shown[k])
			cJSON_AddItemToArray(arr, series_json(set, vd, k));
	each_gap(set, vd, gap_json_cb, cJSON_AddArrayToObject(root, "gaps"));
	/* Steps, shape steps and gaps measured on different machines, not checked. */
	cJSON_AddNumberToObject(root, "across_machines", (double)vd->n_across);
	return json_write(out, root);
}

/* The violation that ends at rung i, or NULL. */
static const struct sweep_step *fall_to(const struct series *se, size_t i)
{
	size_t k;

	for (k = 0; k < se->report.n_violations; k++) {
		if (se->report.violations[k].to == i)
			return &se->report.violations[k];
	}
	return NULL;
}

/* The step across machines that ends at rung i, or NULL. */
static const struct sweep_step *across_to(const struct series *se, size_t i)
{
	for (size_t k = 0; k < se->report.n_across; k++)
		if (se->report.across[k].to == i)
			return &se->report.across[k];
	return NULL;
}

static int series_pooled(const struct series *se)
{
	size_t i;

	for (i = 0; i < se->n_rungs; i++) {
		if (se->rungs[i].n_runs > 1)
			return 1;
	}
	return 0;
}

enum { W_ENGINE, W_MODEL, W_SPEC, W_ENDPOINT, W_NMAX, W_TG, W_SPEEDUP, W_ACCEPT, W_TPC,
       W_MSPC, W_CYCLES, W_N_SAMPLES, W_RUNS, W_CI, W_MDE, W_RUN, W_STATUS, W_N };

void sweep_table(struct table *t, const struct series_set *set, const struct series_verdict *vd,
		 size_t which)
{
	size_t k, i, c, col;
	int pooled = 0;

	for (k = 0; k < set->n; k++) {
		if (vd->shown[k] && (which == SWEEP_TABLE_ALL || which == k))
			pooled |= series_pooled(&set->v[k]);
	}
	/* The interval columns appear only where a rung pools runs: a sweep of one
	 * run per rung reads as it always did. */
	table_init(t, pooled ? W_N : W_N - 3);
	t->key_cols = 4;
	for (c = 0, col = 0; c < W_N; c++) {
		static const struct { enum table_kind kind; const char *name; } cols[W_N] = {
			{ TABLE_LABEL, "engine" }, { TABLE_LABEL, "model" },
			{ TABLE_LABEL, "spec_type" }, { TABLE_LABEL, "endpoint" },
			{ TABLE_NUMBER, "n_max" }, { TABLE_RATE, "tg" },
			{ TABLE_NUMBER, "speedup" }, { TABLE_NUMBER, "accept" },
			{ TABLE_NUMBER, "tok/cycle" }, { TABLE_NUMBER, "ms/cycle" },
			{ TABLE_NUMBER, "cycles" }, { TABLE_COUNT, "n" },
			{ TABLE_COUNT, "runs" }, { TABLE_INTERVAL, "tg 90% interval" },
			{ TABLE_NUMBER, "mde" }, { TABLE_LABEL, "run" },
			{ TABLE_VERDICT, "status" },
		};
		if (!pooled && (c == W_RUNS || c == W_CI || c == W_MDE))
			continue;
		table_col(t, col++, cols[c].kind, cols[c].name, 0);
	}
	for (k = 0; k < set->n; k++) {
		const struct series *se = &set->v[k];

		if (!vd->shown[k] || (which != SWEEP_TABLE_ALL && which != k))
			continue;
		for (i = 0; i < se->n_rungs; i++) {
			const struct series_rung *r = &se->rungs[i];
			const struct sweep_point *p = &r->point;
			const struct sweep_step *fall = fall_to(se, i);
			size_t row = table_add_row(t);
			char buf[48], lo[32], hi[32];

			col = 0;
			table_set(t, row, col++, se->engine);
			table_set(t, row, col++, se->model);
			table_set(t, row, col++, se->spec_type);
			table_set(t, row, col++, se->endpoint);
			table_set(t, row, col++, sweep_text_rung(r->n_max, buf, sizeof(buf)));
			table_num(t, row, col++, r->rung.tg);
			md_num(buf, sizeof(buf), "%.2fx", p->speedup);
			table_set(t, row, col++, buf);
			md_num(buf, sizeof(buf), "%.1f%%", p->acceptance * 100);
			table_set(t, row, col++, buf);
			md_num(buf, sizeof(buf), "%.2f", p->tokens_per_cycle);
			table_set(t, row, col++, buf);
			md_num(buf, sizeof(buf), "%.2f", p->ms_per_cycle);
			table_set(t, row, col++, buf);
			md_num(buf, sizeof(buf), "%.0f", p->cycles);
			table_set(t, row, col++, buf);
			table_setf(t, row, col++, "%zu", r->n_values);
			if (pooled) {
				table_setf(t, row, col++, "%zu", p->instances);
				md_num(lo, sizeof(lo), "%.1f", p->tg_ci_lo);
				md_num(hi, sizeof(hi), "%.1f", p->tg_ci_hi);
				table_setf(t, row, col++, "%s-%s", lo, hi);
				md_num(buf, sizeof(buf), "%.1f%%", p->mde_pct);
				table_set(t, row, col++, buf);
			}
			table_set(t, row, col++, r->run_uuid);
			if (fall && fall->decided) {
				table_setf(t, row, col, "falls %+.1f%%", fall->change_pct);
				table_mark(t, row, col);
			} else if (fall && isnan(fall->ci_lo_pct)) {
				table_setf(t, row, col, "undecided %+.1f%% (no interval)",
					   fall->change_pct);
			} else if (fall) {
				table_setf(t, row, col, "undecided %+.1f%% (90%% interval %+.1f%% "
					   "to %+.1f%%)", fall->change_pct, fall->ci_lo_pct,
					   fall->ci_hi_pct);
			} else if (across_to(se, i)) {
				table_set(t, row, col, "across machines");
			} else {
				table_set(t, row, col, "ok");
			}
		}
	}
}

/* The instances screened out of se's rungs as outliers: one line each in text
 * ("  left out: ..."), one paragraph in md. */
static void series_left_out(FILE *out, const struct series *se, enum table_format fmt)
{
	size_t i, j, n = 0;

	for (i = 0; i < se->n_rungs; i++) {
		const struct series_rung *r = &se->rungs[i];
		char rung[24];

		sweep_text_rung(r->n_max, rung, sizeof(rung));
		for (j = 0; j < r->n_screened; j++, n++) {
			const struct series_outlier *o = &r->screened_out[j];

			if (fmt == TABLE_FMT_TEXT)
				fprintf(out, "  left out: n_max=%s instance %.8s, an outlier (%.1f "
					"tok/s against the median instance's %.1f); the rung's "
					"figures are the other %zu\n", rung, o->run_uuid, o->tg,
					exp(r->screen_median), r->n_runs);
			else
				fprintf(out, "%s n_max=%s `%.8s` (%.1f tok/s against the median "
					"instance's %.1f)", n ? ";" : "\nLeft out as outlier "
					"instances, of every figure of their rung:", rung,
					o->run_uuid, o->tg, exp(r->screen_median));
		}
	}
	if (n && fmt == TABLE_FMT_MD)
		fprintf(out, ".\n");
}

/* The lines under a series' text table: instances left out, violations,
 * anomalies, shape steps. */
static void series_lines(FILE *out, double tol, const struct series_set *set,
			 const struct series_verdict *vd, size_t k)
{
	const struct series *se = &set->v[k];
	size_t i;

	series_left_out(out, se, TABLE_FMT_TEXT);

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
	for (i = 0; i < se->report.n_across; i++) {
		const struct sweep_step *st = &se->report.across[i];
		char msg[1536], *e;

		sweep_text_across(se->engine, NULL, st->from_n_max, st->to_n_max, st->machine_a,
				  st->machine_b, msg, sizeof(msg));
		e = escape_text(msg);
		fprintf(out, "  %s\n", e);
		free(e);
	}
	for (i = 0; i < vd->n_shape[k]; i++) {
		char msg[1536], *e;

		shape_text(se, &set->v[vd->shape[k][i].ref], &vd->shape[k][i].step, msg,
			   sizeof(msg));
		e = escape_text(msg);
		fprintf(out, "  shape: %s\n", e);
		free(e);
	}
}

static void series_heading(FILE *out, const struct series *se, enum table_format fmt,
			   int first)
{
	if (fmt == TABLE_FMT_MD) {
		char *e = escape_md(se->engine), *m = escape_md(se->model);
		char *s = escape_md(*se->spec_type ? se->spec_type : "spec");
		fprintf(out, "%s### tpsdb sweep: %s, %s, %s\n\n", first ? "" : "\n", e, m, s);
		free(e);
		free(m);
		free(s);
	} else {
		char *e = escape_text(se->engine), *m = escape_text(se->model);
		char *sp = escape_text(*se->spec_type ? se->spec_type : "(no spec type)");
		char *ep = escape_text(strcmp(se->endpoint, "completion") ? se->endpoint : "");
		fprintf(out, "%s%s  %s  %s%s%s  %s\n", first ? "" : "\n", e, m, sp,
			strcmp(se->endpoint, "completion") ? "  " : "", ep,
			se->report.shape == SWEEP_NOT_MONOTONE ? "NOT MONOTONE" :
			se->report.shape == SWEEP_SHAPE_UNDECIDED ? "shape undecided" : "monotone");
		free(e);
		free(m);
		free(sp);
		free(ep);
	}
}

struct text_gaps {
	FILE *out;
	int header;
};

static void gap_text(const struct series *x, const struct series *y, int64_t n_max,
		     const struct sweep_gap *g, const char *msg, void *arg)
{
	struct text_gaps *tg = arg;
	char *m = escape_text(x->model), *sp = escape_text(x->spec_type), *e = escape_text(msg);

	(void)y;
	(void)n_max;
	(void)g;
	if (!tg->header++)
		fprintf(tg->out, "\ngaps:\n");
	fprintf(tg->out, "  %s %s: %s\n", m, sp, e);
	free(m);
	free(sp);
	free(e);
}

void sweep_write(FILE *out, const struct series_set *set, const struct series_verdict *vd,
		 double tolerance_pct, enum table_format fmt)
{
	struct text_gaps tg = { out, 0 };
	struct table t;
	size_t k;
	int first = 1;

	if (fmt == TABLE_FMT_CSV) {
		sweep_table(&t, set, vd, SWEEP_TABLE_ALL);
		table_write(out, &t, fmt);
		table_release(&t);
		return;
	}
	for (k = 0; k < set->n; k++) {
		if (!vd->shown[k])
			continue;
		series_heading(out, &set->v[k], fmt, first);
		first = 0;
		sweep_table(&t, set, vd, k);
		t.indent = "  ";
		table_write(out, &t, fmt);
		table_release(&t);
		if (fmt == TABLE_FMT_TEXT)
			series_lines(out, tolerance_pct, set, vd, k);
		else
			series_left_out(out, &set->v[k], fmt);
	}
	if (fmt == TABLE_FMT_TEXT) {
		each_gap(set, vd, gap_text, &tg);
		return;
	}
	fprintf(out, "\n%s: %zu violation%s (decode falling by more than %.1f%% from one rung to "
		     "the next). Speedup against the base rung; acceptance: accepted / drafted.\n",
		vd->n_violations ? "**FAIL**" : vd->n_across ? "**NOT ALL CHECKED**" : "PASS",
		vd->n_violations,
		vd->n_violations == 1 ? "" : "s", tolerance_pct);
	if (vd->n_undecided)
		fprintf(out, "\n%zu undecided dip%s: a fall whose 90%% interval holds the "
			     "tolerance, not a violation until more runs decide it.\n",
			vd->n_undecided, vd->n_undecided == 1 ? "" : "s");
	if (vd->n_across)
		fprintf(out, "\n**ACROSS MACHINES**: %zu step%s or gap%s measured on different "
			     "machines, not checked (--across-machines): neither a violation nor a "
			     "pass.\n", vd->n_across, vd->n_across == 1 ? "" : "s",
			vd->n_across == 1 ? "" : "s");
}

static const char machines_hint[] =
	" (--across-machines marks the steps and gaps measured on different machines "
	"and checks the rest; --host or --batch chooses one machine's runs)";

/* The refusal of the first step, shape step or gap measured on two machines
 * (vd->across), naming the cell and both machines as compare's does. */
static void machines_refusal(const struct series_set *set, const struct series_verdict *vd,
			     char *buf, size_t len)
{
	const struct series_across *x = &vd->across;
	const struct run_diff d = { RUN_DIFF_MACHINE, x->a, x->b };
	char why[1024], name[256] = "", from[24], to[24];

	parity_diff_text(&d, why, sizeof(why));
	if (x->cell)
		run_cell_name(x->cell, name, sizeof(name));
	sweep_text_rung(x->from_n_max, from, sizeof(from));
	sweep_text_rung(x->to_n_max, to, sizeof(to));
	if (x->ours == x->ref)
		snprintf(buf, len, "refusing to sweep '%s' from n_max=%s to n_max=%s at cell '%s': "
			 "%s%s", set->v[x->ours].engine, from, to, name, why, machines_hint);
	else if (x->from_n_max != x->to_n_max)
		snprintf(buf, len, "refusing to hold '%s' against '%s' from n_max=%s to n_max=%s "
			 "at cell '%s': %s%s", set->v[x->ours].engine, set->v[x->ref].engine,
			 from, to, name, why, machines_hint);
	else
		snprintf(buf, len, "refusing to hold '%s' against '%s' at cell '%s': %s%s",
			 set->v[x->ours].engine, set->v[x->ref].engine, name, why, machines_hint);
}

int sweep_write_refused_json(FILE *out, const struct series_set *set,
			     const struct series_verdict *vd)
{
	cJSON *root = cJSON_CreateObject(), *x;
	char msg[2048], name[256] = "";

	cJSON_AddArrayToObject(root, "series");
	cJSON_AddArrayToObject(root, "gaps");
	cJSON_AddNumberToObject(root, "across_machines", (double)vd->n_across);
	x = cJSON_AddObjectToObject(root, "refused");
	cJSON_AddStringToObject(x, "reason", "machines-differ");
	if (vd->across.cell)
		run_cell_name(vd->across.cell, name, sizeof(name));
	cJSON_AddStringToObject(x, "cell", name);
	cJSON_AddStringToObject(x, "ours", set->v[vd->across.ours].engine);
	cJSON_AddStringToObject(x, "ref", set->v[vd->across.ref].engine);
	json_put_rung(x, "from", vd->across.from_n_max);
	json_put_rung(x, "to", vd->across.to_n_max);
	machines_json(x, vd->across.a, vd->across.b);
	machines_refusal(set, vd, msg, sizeof(msg));
	cJSON_AddStringToObject(x, "message", msg);
	return json_write(out, root);
}

int sweep_write_notes(const struct series_view *v, const struct series_set *set,
		      const struct series_verdict *vd, const char *model)
{
	if (!vd->n_shown)
		return tps_error("no speculative series (runs with an n_max)%s%s%s%s%s%s",
				 v->engine ? " of '" : "", v->engine ? v->engine : "",
				 v->engine ? "'" : "", model ? " for model '" : "",
				 model ? model : "", model ? "'" : "");
	if (vd->clashed) {
		const struct series *a = &set->v[vd->clash.ours], *b = &set->v[vd->clash.ref];
		struct run_diff d = { RUN_DIFF_SPEC_SETTINGS, vd->clash.a, vd->clash.b };
		char why[512], rung[32];

		parity_diff_text(&d, why, sizeof(why));
		if (sweep_rung_is_base(vd->clash.n_max))
			snprintf(rung, sizeof(rung), "the base");
		else
			snprintf(rung, sizeof(rung), "n_max %lld", (long long)vd->clash.n_max);
		return tps_error("refusing to hold '%s' against '%s' (model '%s', %s): %s, a "
				 "difference of settings, not of engines (--batch or --tag chooses "
				 "runs collected alike)", a->engine, b->engine, a->model, rung, why);
	}
	if (vd->machines_refused) {
		char msg[2048];

		machines_refusal(set, vd, msg, sizeof(msg));
		return tps_error("%s", msg);
	}
	if (vd->ref_missing)
		tps_warning("no series of the reference '%s'", v->ref);
	if (vd->n_across)
		tps_warning("ACROSS MACHINES: %zu step%s or gap%s measured on different machines, "
			    "not checked (--across-machines)", vd->n_across,
			    vd->n_across == 1 ? "" : "s", vd->n_across == 1 ? "" : "s");
	return 0;
}
