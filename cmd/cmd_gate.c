/* cmd_gate.c: `tpsdb gate`, pass or fail a candidate build against a frozen baseline.
 * Each cell both hold is gated per metric on the means (analyze/verdict.c), with the
 * threshold widened to k times the stored noise floor; --sweep, --strict and --trend
 * add the series, data-quality and history checks. Renders text, JSON, JUnit XML and
 * GitHub Actions annotations from one result. */
#include "analyze/changepoint.h"
#include "analyze/trend.h"
#include "analyze/verdict.h"
#include "reports/json.h"
#include "reports/parity.h"
#include "reports/series.h"
#include "reports/strv.h"
#include "schema/baseline.h"
#include "schema/cells.h"
#include "schema/history.h"
#include "schema/noise.h"
#include "schema/pair_load.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"tpsdb gate --baseline <name> --engine <candidate> [--tag <t>] [--model <m>]\n"
	"           [--max-regress <pct> | --max-regress <metric>=<pct> ...] [--thresholds <file>]\n"
	"           [--metric tg|pp|accept ...] [--noise-k <k>] [--sweep] [--strict] [--trend]\n"
	"           [--junit <file>] [--json]";

static const char help[] =
	"Compares every cell (model, spec_type, n_max, endpoint and config) that the\n"
	"candidate engine's latest runs (or those tagged --tag) share with the baseline,\n"
	"and fails a cell when the candidate's mean is worse than the baseline's by more\n"
	"than the threshold on a gated metric: tg, pp, and acceptance for spec cells.\n"
	"\n"
	"  --baseline <name>       the frozen set to compare with (tpsdb baseline set)\n"
	"  --engine <candidate>    the engine under test\n"
	"  --tag <t>               the candidate's runs carrying this tag\n"
	"  --model <m>             only this model\n"
	"  --max-regress <pct>     allowed regression, every metric (default 3)\n"
	"  --max-regress <m>=<pct> for one metric (tg, pp or accept); repeatable\n"
	"  --thresholds <file>     'metric = pct' lines ('*' for every metric), # comments;\n"
	"                          --max-regress flags override it\n"
	"  --metric <m>            gate only these metrics (repeatable; default all)\n"
	"  --noise-k <k>           a threshold is never below k x the stored A/A noise of\n"
	"                          the cell (default 2); the output says which bound won\n"
	"  --sweep                 also fail on a monotonicity violation of a candidate series\n"
	"  --strict                also fail on flagged samples in the candidate's runs\n"
	"  --trend                 also fail when the newest segment of the candidate's\n"
	"                          history (every run of the cell, per-run median) is a\n"
	"                          regression found by change-point detection\n"
	"  --junit <file>          also write JUnit XML, one testcase per cell and metric\n"
	"  --json                  {\"pass\":..,\"cells\":[..],\"warnings\":[..],\n"
	"                           \"sweep_violations\":[..],\"findings\":[..],\"trend\":[..]}\n"
	"\n"
	"Cells only one side holds are warnings. With GITHUB_ACTIONS=true, failures are\n"
	"also printed as ::error annotations and warnings as ::warning.\n"
	"\n"
	"Exit codes: 0 every check passed, 1 a check failed, 2 usage, 3 no such baseline,\n"
	"nothing to gate, or a store or file error.\n";

enum {
	OPT_BASELINE = 256, OPT_ENGINE, OPT_TAG, OPT_MODEL, OPT_MAX, OPT_THRESH, OPT_METRIC,
	OPT_NOISE_K, OPT_SWEEP, OPT_STRICT, OPT_TREND, OPT_JUNIT, OPT_JSON,
};

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "max-regress", required_argument, NULL, OPT_MAX },
	{ "thresholds", required_argument, NULL, OPT_THRESH },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "noise-k", required_argument, NULL, OPT_NOISE_K },
	{ "sweep", no_argument, NULL, OPT_SWEEP },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "trend", no_argument, NULL, OPT_TREND },
	{ "junit", required_argument, NULL, OPT_JUNIT },
	{ "json", no_argument, NULL, OPT_JSON },
	{ NULL, 0, NULL, 0 },
};

enum { M_PP, M_TG, M_ACCEPT, N_METRICS };
static const char *const metric_names[N_METRICS] = { "pp", "tg", "accept" };

#define N_FLAGS 5 /* SAMPLE_TRUNCATED .. SAMPLE_COLD */

struct gate_opts {
	const char *baseline, *engine, *tag, *model, *junit;
	double threshold[N_METRICS];
	int gated[N_METRICS];
	double noise_k;
	int sweep, strict, trend, json;
};

struct gate_row {
	char *model, *spec_type, *endpoint, *cell;
	int64_t n_max;
	int metric;
	struct verdict_gate_result g;
	double noise_pct; /* NaN when none is stored */
	char base_run[40], cand_run[40];
};

struct gate_violation {
	char *engine, *model, *spec_type;
	int64_t from, to;
	double drop_pct;
};

struct gate_finding {
	char *cell;
	char run[40];
	unsigned flag;
	int64_t count, n_samples;
};

struct gate_trend {
	char *cell, *model, *spec_type, *tag;
	int64_t n_max;
	int metric;
	char run[40];
	struct changepoint cp;
	double threshold;
	int fail;
};

struct gate_result {
	struct gate_row *rows;
	size_t n_rows;
	char **warnings;
	size_t n_warnings;
	struct gate_violation *viol;
	size_t n_viol;
	struct gate_finding *find;
	size_t n_find;
	struct gate_trend *trend;
	size_t n_trend;
	size_t n_fail;
};

static void result_release(struct gate_result *r)
{
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		free(r->rows[i].model); free(r->rows[i].spec_type);
		free(r->rows[i].endpoint); free(r->rows[i].cell);
	}
	free(r->rows);
	strv_free(r->warnings, r->n_warnings);
	for (i = 0; i < r->n_viol; i++) {
		free(r->viol[i].engine); free(r->viol[i].model); free(r->viol[i].spec_type);
	}
	free(r->viol);
	for (i = 0; i < r->n_find; i++)
		free(r->find[i].cell);
	free(r->find);
	for (i = 0; i < r->n_trend; i++) {
		free(r->trend[i].cell); free(r->trend[i].model);
		free(r->trend[i].spec_type); free(r->trend[i].tag);
	}
	free(r->trend);
	memset(r, 0, sizeof(*r));
}

static int metric_index(const char *name)
{
	int i;

	for (i = 0; i < N_METRICS; i++)
		if (!strcmp(name, metric_names[i]))
			return i;
	return -1;
}

/* "<pct>" for every metric or "<metric>=<pct>" for one; "*" names every metric.
 * set[] records what was given, so the flags can override the file. */
static int parse_threshold(const char *spec, double *th, int *set, const char *where)
{
	char name[32];
	const char *eq = strchr(spec, '=');
	double v;
	int m = -1, i;

	if (eq) {
		size_t n = (size_t)(eq - spec);
		while (n && (spec[n - 1] == ' ' || spec[n - 1] == '\t'))
			n--;
		while (n && (*spec == ' ' || *spec == '\t')) {
			spec++;
			n--;
		}
		if (n >= sizeof(name))
			n = sizeof(name) - 1;
		memcpy(name, spec, n);
		name[n] = '\0';
		if (strcmp(name, "*") && (m = metric_index(name)) < 0)
			return tps_usage_error(usage, "%s: unknown metric '%s' (tg, pp or accept)",
					       where, name);
		spec = eq + 1;
		while (*spec == ' ' || *spec == '\t')
			spec++;
	}
	if (tps_parse_double(spec, &v) < 0 || v < 0)
		return tps_usage_error(usage, "%s: a threshold is a percent >= 0, not '%s'", where,
				       spec);
	for (i = 0; i < N_METRICS; i++) {
		if (m < 0 || m == i) {
			th[i] = v;
			set[i] = 1;
		}
	}
	return 0;
}

static int read_thresholds(const char *path, double *th)
{
	char *text, *line, *next, where[600];
	int set[N_METRICS] = { 0 }, ret = 0;
	long no = 0;

	if (!(text = tps_read_file(path, NULL)))
		return TPS_EXIT_ERROR;
	for (line = text; line && !ret; line = next) {
		char *hash, *end;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		no++;
		if ((hash = strchr(line, '#')))
			*hash = '\0';
		end = line + strlen(line);
		while (end > line && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
			*--end = '\0';
		while (*line == ' ' || *line == '\t')
			line++;
		if (!*line)
			continue;
		if (!strchr(line, '=')) {
			ret = tps_usage_error(usage, "'%s' line %ld: expected 'metric = pct'", path, no);
			break;
		}
		snprintf(where, sizeof(where), "'%s' line %ld", path, no);
		ret = parse_threshold(line, th, set, where);
	}
	free(text);
	return ret;
}

/* The baseline run of the candidate's cell: the same engine if the baseline has
 * one, else the first engine in it (with a warning when there is a choice). */
static const struct cell_run *baseline_for(const struct cell_run *c, const struct cell_run *b,
					   size_t nb, size_t *n_choices)
{
	const struct cell_run *first = NULL;
	size_t i;

	*n_choices = 0;
	for (i = 0; i < nb; i++) {
		if (strcmp(b[i].model, c->model) || strcmp(b[i].spec_type, c->spec_type) ||
		    b[i].n_max != c->n_max || strcmp(b[i].endpoint, c->endpoint))
			continue;
		(*n_choices)++;
		if (!strcmp(b[i].engine, c->engine))
			return &b[i];
		if (!first)
			first = &b[i];
	}
	return first;
}

static int load_values(struct store *s, int64_t run_id, int metric, double **out, size_t *n)
{
	struct cell_value *v = NULL;
	size_t nv = 0, bad = 0, i;
	int rc;

	if (metric == M_ACCEPT)
		rc = store_cell_accept_values(s, run_id, &v, &nv, &bad);
	else
		rc = store_cell_values(s, run_id, metric == M_PP ? CELL_PP : CELL_TG, &v, &nv, &bad);
	*out = NULL;
	*n = 0;
	if (rc < 0)
		return -1;
	*out = tps_xmalloc((nv ? nv : 1) * sizeof(**out));
	for (i = 0; i < nv; i++)
		(*out)[i] = v[i].value;
	*n = nv;
	free(v);
	return 0;
}

static int gate_metric(struct store *s, const struct gate_opts *o, const struct cell_run *c,
		       const struct cell_run *b, int metric, const char *cell,
		       struct gate_result *r)
{
	struct verdict_gate_params p;
	struct verdict_gate_result g;
	struct gate_row *row;
	double *x = NULL, *y = NULL, noise = NAN;
	size_t nx = 0, ny = 0;
	int got = 0, ret = -1;

	if (load_values(s, c->id, metric, &x, &nx) < 0 || load_values(s, b->id, metric, &y, &ny) < 0)
		goto out;
	if (metric != M_ACCEPT) {
		got = store_noise_get(s, c->model, c->spec_type, c->n_max, c->ctx, c->n_predict,
				      c->endpoint, metric_names[metric], &noise, NULL);
		if (got < 0)
			goto out;
		if (!got)
			noise = NAN;
	}
	verdict_gate_params_init(&p);
	p.max_regress_pct = o->threshold[metric];
	p.noise_k = o->noise_k;
	p.noise_pct = got ? noise : 0;
	if (verdict_gate(x, nx, y, ny, &p, &g) < 0) {
		tps_error("cannot gate '%s': a threshold or noise multiplier is not a number >= 0",
			  cell);
		goto out;
	}
	if (g.outcome == VERDICT_GATE_NODATA) {
		/* A base cell has no acceptance; that is not worth a warning. */
		if (metric != M_ACCEPT || (nx && ny))
			strv_addf(&r->warnings, &r->n_warnings,
				  "cell '%s' %s: no usable values on %s side; not gated", cell,
				  metric_names[metric], nx ? "the baseline's" : "the candidate's");
		ret = 0;
		goto out;
	}
	r->rows = tps_xrealloc(r->rows, (r->n_rows + 1) * sizeof(*r->rows));
	row = &r->rows[r->n_rows++];
	memset(row, 0, sizeof(*row));
	row->model = tps_xstrdup(c->model);
	row->spec_type = tps_xstrdup(c->spec_type);
	row->endpoint = tps_xstrdup(c->endpoint);
	row->cell = tps_xstrdup(cell);
	row->n_max = c->n_max;
	row->metric = metric;
	row->g = g;
	row->noise_pct = noise;
	snprintf(row->cand_run, sizeof(row->cand_run), "%s", c->uuid);
	snprintf(row->base_run, sizeof(row->base_run), "%s", b->uuid);
	if (g.outcome == VERDICT_GATE_FAIL)
		r->n_fail++;
	ret = 0;
out:
	free(x);
	free(y);
	return ret;
}

static int check_findings(struct store *s, const struct cell_run *c, const char *cell,
			  struct gate_result *r)
{
	int64_t counts[N_FLAGS], total = 0;
	size_t i;

	if (store_cell_flag_counts(s, c->id, counts, N_FLAGS, &total) < 0)
		return -1;
	for (i = 0; i < N_FLAGS; i++) {
		struct gate_finding *f;
		if (!counts[i])
			continue;
		r->find = tps_xrealloc(r->find, (r->n_find + 1) * sizeof(*r->find));
		f = &r->find[r->n_find++];
		f->cell = tps_xstrdup(cell);
		snprintf(f->run, sizeof(f->run), "%s", c->uuid);
		f->flag = 1u << i;
		f->count = counts[i];
		f->n_samples = total;
	}
	return 0;
}

/* The candidate's history of one metric: every run of each of its cells. */
struct gate_history {
	struct history_series *v;
	size_t n;
};

static int load_history(struct store *s, const struct gate_opts *o, int metric,
			struct gate_history *h)
{
	struct cell_filter f = { 0 };

	f.engine = o->engine;
	f.model = o->model;
	if (metric == M_ACCEPT)
		return store_history_accept(s, &f, &h->v, &h->n);
	return store_history(s, &f, metric == M_PP ? CELL_PP : CELL_TG, &h->v, &h->n);
}

/* The newest change point of the candidate's history of one cell and metric. */
static int check_trend(const struct gate_opts *o, const struct cell_run *c,
		       const struct gate_history *h, int metric, const char *cell,
		       struct gate_result *r)
{
	const struct history_series *se = NULL;
	const struct changepoint *cp;
	struct changepoint_params p;
	struct trend t;
	struct gate_trend *g;
	size_t i;

	for (i = 0; i < h->n && !se; i++) {
		const struct history_series *x = &h->v[i];
		if (!strcmp(x->engine, c->engine) && !strcmp(x->model, c->model) &&
		    !strcmp(x->spec_type, c->spec_type) && x->n_max == c->n_max &&
		    !strcmp(x->endpoint, c->endpoint))
			se = x;
	}
	if (!se)
		return 0;
	changepoint_params_init(&p);
	/* A shift the gate itself would let through is not a regression here either. */
	p.min_magnitude_pct = o->threshold[metric];
	if (trend_detect(se, se->n, history_run_values, &p, &t) < 0)
		return tps_error("cannot search '%s' for change points: bad parameters", cell);
	if ((cp = trend_latest(&t))) {
		r->trend = tps_xrealloc(r->trend, (r->n_trend + 1) * sizeof(*r->trend));
		g = &r->trend[r->n_trend++];
		memset(g, 0, sizeof(*g));
		g->cell = tps_xstrdup(cell);
		g->model = tps_xstrdup(c->model);
		g->spec_type = tps_xstrdup(c->spec_type);
		g->n_max = c->n_max;
		g->metric = metric;
		g->cp = *cp;
		g->threshold = o->threshold[metric];
		snprintf(g->run, sizeof(g->run), "%s", se->runs[cp->index].uuid);
		g->tag = tps_xstrdup(se->runs[cp->index].tag);
		g->fail = trend_latest_regression(&t);
		if (g->fail)
			r->n_fail++;
	}
	trend_release(&t);
	return 0;
}

static int check_sweep(struct store *s, const struct gate_opts *o, struct gate_result *r)
{
	struct cell_filter f = { 0 };
	struct series_set set = { 0 };
	struct store_decode *runs = NULL;
	size_t i, j, n_runs = 0;
	int ret = -1;

	f.engine = o->engine;
	f.tag = o->tag;
	f.model = o->model;
	if (store_load_decode(s, &f, &runs, &n_runs) < 0 ||
	    series_from_decode(runs, n_runs, SWEEP_TOLERANCE_PCT, &set) < 0)
		goto out;
	for (i = 0; i < set.n; i++) {
		const struct series *se = &set.v[i];
		for (j = 0; j < se->report.n_violations; j++) {
			const struct sweep_step *st = &se->report.violations[j];
			struct gate_violation *v;

			r->viol = tps_xrealloc(r->viol, (r->n_viol + 1) * sizeof(*r->viol));
			v = &r->viol[r->n_viol++];
			v->engine = tps_xstrdup(se->engine);
			v->model = tps_xstrdup(se->model);
			v->spec_type = tps_xstrdup(se->spec_type);
			v->from = st->from_n_max;
			v->to = st->to_n_max;
			v->drop_pct = -st->change_pct;
			r->n_fail++;
		}
	}
	ret = 0;
out:
	series_set_release(&set);
	store_decode_free(runs, n_runs);
	return ret;
}

static int run_gate(struct store *s, const struct gate_opts *o, struct gate_result *r)
{
	struct cell_filter fc = { 0 }, fb = { 0 };
	struct cell_run *cand = NULL, *base = NULL;
	struct gate_history hist[N_METRICS] = { { NULL, 0 } };
	size_t nc = 0, nb = 0, i, shared = 0;
	char *used = NULL;
	char cell[256], why[160];
	int ex, m, ret = -1;

	if ((ex = store_baseline_exists(s, o->baseline)) < 0)
		goto out;
	if (!ex) {
		tps_error("no baseline named '%s' (see 'tpsdb baseline list')", o->baseline);
		goto out;
	}
	fc.engine = o->engine;
	fc.tag = o->tag;
	fc.model = o->model;
	fb.baseline = o->baseline;
	fb.model = o->model;
	if (store_cell_runs(s, &fc, &cand, &nc) < 0 || store_cell_runs(s, &fb, &base, &nb) < 0)
		goto out;
	for (m = 0; o->trend && m < N_METRICS; m++) {
		if (o->gated[m] && load_history(s, o, m, &hist[m]) < 0)
			goto out;
	}
	used = tps_xcalloc(nb ? nb : 1, 1);
	for (i = 0; i < nc; i++) {
		const struct cell_run *c = &cand[i], *b;
		struct parity_side side_c, side_b;
		struct parity_diff diff;
		size_t choices;

		parity_cell_name(c->model, c->spec_type, c->n_max, c->endpoint, cell, sizeof(cell));
		if (check_findings(s, c, cell, r) < 0)
			goto out;
		if (!(b = baseline_for(c, base, nb, &choices))) {
			strv_addf(&r->warnings, &r->n_warnings,
				  "cell '%s': the candidate has it, the baseline '%s' does not",
				  cell, o->baseline);
			continue;
		}
		used[b - base] = 1;
		if (choices > 1 && strcmp(b->engine, c->engine))
			strv_addf(&r->warnings, &r->n_warnings,
				  "cell '%s': the baseline holds %zu engines; gating against '%s'",
				  cell, choices, b->engine);
		pair_side_of(c, &side_c);
		pair_side_of(b, &side_b);
		if (parity_mismatch(&side_c, &side_b, &diff)) {
			parity_diff_text(&diff, why, sizeof(why));
			strv_addf(&r->warnings, &r->n_warnings,
				  "cell '%s': not gated, the runs are not comparable: %s", cell, why);
			continue;
		}
		shared++;
		for (m = 0; m < N_METRICS; m++) {
			if (!o->gated[m] || (m == M_ACCEPT && c->n_max == TPS_NULL))
				continue;
			if (gate_metric(s, o, c, b, m, cell, r) < 0)
				goto out;
			if (o->trend && check_trend(o, c, &hist[m], m, cell, r) < 0)
				goto out;
		}
	}
	for (i = 0; i < nb; i++) {
		size_t k;
		if (used[i])
			continue;
		/* Another engine's run of a cell already gated is not missing. */
		for (k = 0; k < nb; k++)
			if (used[k] && !strcmp(base[k].model, base[i].model) &&
			    !strcmp(base[k].spec_type, base[i].spec_type) &&
			    base[k].n_max == base[i].n_max && !strcmp(base[k].endpoint, base[i].endpoint))
				break;
		if (k < nb)
			continue;
		parity_cell_name(base[i].model, base[i].spec_type, base[i].n_max, base[i].endpoint,
				 cell, sizeof(cell));
		strv_addf(&r->warnings, &r->n_warnings,
			  "cell '%s': the baseline '%s' has it, the candidate does not", cell,
			  o->baseline);
	}
	if (o->strict)
		r->n_fail += r->n_find;
	if (o->sweep && check_sweep(s, o, r) < 0)
		goto out;
	if (!shared) {
		tps_error("nothing to gate: no cell of '%s'%s%s%s is in the baseline '%s'",
			  o->engine, o->tag ? " tagged '" : "", o->tag ? o->tag : "",
			  o->tag ? "'" : "", o->baseline);
		goto out;
	}
	ret = 0;
out:
	free(used);
	cell_runs_free(cand, nc);
	cell_runs_free(base, nb);
	for (m = 0; m < N_METRICS; m++)
		history_free(hist[m].v, hist[m].n);
	return ret;
}

/* --- rendering --- */

static int print_json(const struct gate_opts *o, const struct gate_result *r)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	char *text;
	size_t i;

	cJSON_AddBoolToObject(root, "pass", r->n_fail == 0);
	cJSON_AddStringToObject(root, "baseline", o->baseline);
	cJSON_AddStringToObject(root, "engine", o->engine);
	json_put_str(root, "tag", o->tag);
	cJSON_AddNumberToObject(root, "failures", (double)r->n_fail);
	arr = cJSON_AddArrayToObject(root, "cells");
	for (i = 0; i < r->n_rows; i++) {
		const struct gate_row *w = &r->rows[i];
		cJSON *c = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, c);
		cJSON_AddStringToObject(c, "model", w->model);
		cJSON_AddStringToObject(c, "spec_type", w->spec_type);
		json_put_rung(c, "n_max", w->n_max);
		cJSON_AddStringToObject(c, "endpoint", w->endpoint);
		cJSON_AddStringToObject(c, "metric", metric_names[w->metric]);
		json_put_num(c, "baseline", w->g.baseline_mean);
		json_put_num(c, "candidate", w->g.candidate_mean);
		json_put_num(c, "delta_pct", w->g.delta_pct);
		json_put_num(c, "threshold_pct", w->g.threshold_pct);
		cJSON_AddStringToObject(c, "bound", verdict_bound_name(w->g.bound));
		json_put_num(c, "noise_pct", w->noise_pct);
		cJSON_AddNumberToObject(c, "n_baseline", (double)w->g.n_baseline);
		cJSON_AddNumberToObject(c, "n_candidate", (double)w->g.n_candidate);
		cJSON_AddStringToObject(c, "baseline_run", w->base_run);
		cJSON_AddStringToObject(c, "candidate_run", w->cand_run);
		cJSON_AddStringToObject(c, "status", verdict_gate_outcome_name(w->g.outcome));
	}
	arr = cJSON_AddArrayToObject(root, "warnings");
	for (i = 0; i < r->n_warnings; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(r->warnings[i]));
	arr = cJSON_AddArrayToObject(root, "sweep_violations");
	for (i = 0; i < r->n_viol; i++) {
		cJSON *v = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, v);
		cJSON_AddStringToObject(v, "engine", r->viol[i].engine);
		cJSON_AddStringToObject(v, "model", r->viol[i].model);
		cJSON_AddStringToObject(v, "spec_type", r->viol[i].spec_type);
		json_put_rung(v, "from", r->viol[i].from);
		json_put_rung(v, "to", r->viol[i].to);
		json_put_num(v, "drop_pct", r->viol[i].drop_pct);
	}
	arr = cJSON_AddArrayToObject(root, "findings");
	for (i = 0; i < r->n_find; i++) {
		cJSON *v = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, v);
		cJSON_AddStringToObject(v, "cell", r->find[i].cell);
		cJSON_AddStringToObject(v, "run", r->find[i].run);
		cJSON_AddStringToObject(v, "flag", record_flag_name(r->find[i].flag));
		cJSON_AddNumberToObject(v, "count", (double)r->find[i].count);
		cJSON_AddNumberToObject(v, "samples", (double)r->find[i].n_samples);
		cJSON_AddBoolToObject(v, "fails", o->strict);
	}
	arr = cJSON_AddArrayToObject(root, "trend");
	for (i = 0; i < r->n_trend; i++) {
		const struct gate_trend *t = &r->trend[i];
		cJSON *v = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, v);
		cJSON_AddStringToObject(v, "model", t->model);
		cJSON_AddStringToObject(v, "spec_type", t->spec_type);
		json_put_rung(v, "n_max", t->n_max);
		cJSON_AddStringToObject(v, "metric", metric_names[t->metric]);
		cJSON_AddStringToObject(v, "run", t->run);
		cJSON_AddStringToObject(v, "tag", t->tag);
		json_put_num(v, "before", t->cp.mean_before);
		json_put_num(v, "after", t->cp.mean_after);
		json_put_num(v, "change_pct", t->cp.change_pct);
		json_put_num(v, "p_value", t->cp.pvalue);
		cJSON_AddNumberToObject(v, "n_before", (double)t->cp.n_before);
		cJSON_AddNumberToObject(v, "n_after", (double)t->cp.n_after);
		cJSON_AddStringToObject(v, "status", t->fail ? "fail" : "pass");
	}
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return tps_error("out of memory writing JSON");
	printf("%s\n", text);
	cJSON_free(text);
	return 0;
}

static void rung_str(int64_t n_max, char *buf, size_t len)
{
	if (n_max == TPS_NULL || n_max <= 0)
		snprintf(buf, len, "base");
	else
		snprintf(buf, len, "%lld", (long long)n_max);
}

/* One sentence per failure, shared by the text, JUnit and GitHub outputs. */
static void row_message(const struct gate_opts *o, const struct gate_row *w, char *buf,
			size_t len)
{
	snprintf(buf, len, "%s %s: candidate %.6g vs baseline %.6g (%+.2f%%), %s the allowed "
		 "-%.2f%% (%s bound) against baseline '%s'", w->cell, metric_names[w->metric],
		 w->g.candidate_mean, w->g.baseline_mean, w->g.delta_pct,
		 w->g.outcome == VERDICT_GATE_FAIL ? "beyond" : "within", w->g.threshold_pct,
		 verdict_bound_name(w->g.bound), o->baseline);
}

static void viol_message(const struct gate_violation *v, char *buf, size_t len)
{
	char a[24], b[24];

	rung_str(v->from, a, sizeof(a));
	rung_str(v->to, b, sizeof(b));
	snprintf(buf, len, "%s %s %s: decode falls %.1f%% from n_max=%s to n_max=%s", v->engine,
		 v->model, v->spec_type, v->drop_pct, a, b);
}

static void find_message(const struct gate_finding *f, char *buf, size_t len)
{
	snprintf(buf, len, "%s: %lld of %lld samples of run %s are %s", f->cell,
		 (long long)f->count, (long long)f->n_samples, f->run, record_flag_name(f->flag));
}

static void trend_message(const struct gate_trend *t, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s: change point at run %s%s%s%s: %.4g -> %.4g (%+.2f%%, p=%.2g)",
		 t->cell, metric_names[t->metric], t->run, *t->tag ? " (tag '" : "", t->tag,
		 *t->tag ? "')" : "", t->cp.mean_before, t->cp.mean_after, t->cp.change_pct,
		 t->cp.pvalue);
}

static void print_text(const struct gate_opts *o, const struct gate_result *r)
{
	size_t i;
	int wc = 4;
	char msg[768];

	for (i = 0; i < r->n_rows; i++)
		if ((int)strlen(r->rows[i].cell) > wc)
			wc = (int)strlen(r->rows[i].cell);
	printf("gate: '%s'%s%s%s against baseline '%s': %s (%zu failure(s))\n", o->engine,
	       o->tag ? " tag '" : "", o->tag ? o->tag : "", o->tag ? "'" : "", o->baseline,
	       r->n_fail ? "FAIL" : "PASS", r->n_fail);
	printf("  %-*s  %-6s  %10s  %10s  %8s  %-13s  %s\n", wc, "cell", "metric", "baseline",
	       "candidate", "delta", "threshold", "status");
	for (i = 0; i < r->n_rows; i++) {
		const struct gate_row *w = &r->rows[i];
		char th[40];
		snprintf(th, sizeof(th), "-%.1f%% %s", w->g.threshold_pct,
			 verdict_bound_name(w->g.bound));
		/* Acceptance is a ratio: three decimals; tok/s: one. */
		int prec = w->metric == M_ACCEPT ? 3 : 1;
		printf("  %-*s  %-6s  %10.*f  %10.*f  %+7.2f%%  %-13s  %s\n", wc, w->cell,
		       metric_names[w->metric], prec, w->g.baseline_mean, prec,
		       w->g.candidate_mean, w->g.delta_pct, th,
		       w->g.outcome == VERDICT_GATE_FAIL ? "FAIL" : "pass");
	}
	for (i = 0; i < r->n_viol; i++) {
		viol_message(&r->viol[i], msg, sizeof(msg));
		printf("  sweep FAIL: %s\n", msg);
	}
	for (i = 0; i < r->n_find; i++) {
		find_message(&r->find[i], msg, sizeof(msg));
		printf("  finding%s: %s\n", o->strict ? " FAIL" : "", msg);
	}
	for (i = 0; i < r->n_trend; i++) {
		trend_message(&r->trend[i], msg, sizeof(msg));
		printf("  trend %s: %s\n", r->trend[i].fail ? "FAIL" : "pass", msg);
	}
	printf("mean tok/s (accept: accepted/drafted); fails when delta < -threshold; "
	       "threshold = max(--max-regress, k x A/A noise)\n");
}

/* GitHub's workflow commands end a message at a newline and decode %XX. The runner
 * reads them from stdout and stderr alike; with --json they go to stderr so that
 * stdout stays one JSON document. */
static void gh_print(FILE *f, const char *kind, const char *msg)
{
	const char *p;

	fprintf(f, "::%s%s::", kind, !strcmp(kind, "error") ? " title=tpsdb gate" : "");
	for (p = msg; *p; p++) {
		if (*p == '%')
			fputs("%25", f);
		else if (*p == '\r')
			fputs("%0D", f);
		else if (*p == '\n')
			fputs("%0A", f);
		else
			fputc(*p, f);
	}
	fputc('\n', f);
}

static void print_github(const struct gate_opts *o, const struct gate_result *r)
{
	FILE *f = o->json ? stderr : stdout;
	char msg[768];
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		if (r->rows[i].g.outcome != VERDICT_GATE_FAIL)
			continue;
		row_message(o, &r->rows[i], msg, sizeof(msg));
		gh_print(f, "error", msg);
	}
	for (i = 0; i < r->n_viol; i++) {
		viol_message(&r->viol[i], msg, sizeof(msg));
		gh_print(f, "error", msg);
	}
	for (i = 0; o->strict && i < r->n_find; i++) {
		find_message(&r->find[i], msg, sizeof(msg));
		gh_print(f, "error", msg);
	}
	for (i = 0; i < r->n_trend; i++) {
		if (!r->trend[i].fail)
			continue;
		trend_message(&r->trend[i], msg, sizeof(msg));
		gh_print(f, "error", msg);
	}
	for (i = 0; i < r->n_warnings; i++)
		gh_print(f, "warning", r->warnings[i]);
}

/* XML 1.0 text and attribute values: the five entities, and '?' for the control
 * characters XML cannot carry at all. */
static void xml_put(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		case '\t': case '\n': case '\r': fputc(c, f); break;
		default: fputc(c < 0x20 || c == 0x7f ? '?' : c, f); break;
		}
	}
}

static void junit_case(FILE *f, const char *classname, const char *name, const char *failure)
{
	fputs("    <testcase classname=\"", f);
	xml_put(f, classname);
	fputs("\" name=\"", f);
	xml_put(f, name);
	if (!failure) {
		fputs("\" time=\"0\"/>\n", f);
		return;
	}
	fputs("\" time=\"0\">\n      <failure message=\"", f);
	xml_put(f, failure);
	fputs("\" type=\"regression\">", f);
	xml_put(f, failure);
	fputs("</failure>\n    </testcase>\n", f);
}

static int write_junit(const struct gate_opts *o, const struct gate_result *r)
{
	FILE *f = fopen(o->junit, "w");
	size_t i, tests = r->n_rows + r->n_viol + r->n_trend + (o->strict ? r->n_find : 0);
	char msg[768], name[400], cls[400];
	int ret = 0;

	if (!f)
		return tps_error("cannot write '%s': %s", o->junit, strerror(errno));
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites name=\"tpsdb gate\" tests=\"%zu\" failures=\"%zu\">\n", tests,
		r->n_fail);
	fputs("  <testsuite name=\"", f);
	snprintf(name, sizeof(name), "tpsdb gate: %s against %s", o->engine, o->baseline);
	xml_put(f, name);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n", tests,
		r->n_fail);
	for (i = 0; i < r->n_rows; i++) {
		const struct gate_row *w = &r->rows[i];
		int fail = w->g.outcome == VERDICT_GATE_FAIL;
		snprintf(cls, sizeof(cls), "tpsdb.gate.%s", w->model);
		snprintf(name, sizeof(name), "%s %s", w->cell, metric_names[w->metric]);
		row_message(o, w, msg, sizeof(msg));
		junit_case(f, cls, name, fail ? msg : NULL);
	}
	for (i = 0; i < r->n_viol; i++) {
		snprintf(cls, sizeof(cls), "tpsdb.sweep.%s", r->viol[i].model);
		viol_message(&r->viol[i], msg, sizeof(msg));
		junit_case(f, cls, msg, msg);
	}
	for (i = 0; o->strict && i < r->n_find; i++) {
		find_message(&r->find[i], msg, sizeof(msg));
		junit_case(f, "tpsdb.quality", msg, msg);
	}
	for (i = 0; i < r->n_trend; i++) {
		const struct gate_trend *t = &r->trend[i];
		snprintf(cls, sizeof(cls), "tpsdb.trend.%s", t->model);
		snprintf(name, sizeof(name), "%s %s trend", t->cell, metric_names[t->metric]);
		trend_message(t, msg, sizeof(msg));
		junit_case(f, cls, name, t->fail ? msg : NULL);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	if (ferror(f))
		ret = -1;
	if (fclose(f) != 0)
		ret = -1;
	if (ret < 0)
		tps_error("cannot write '%s': %s", o->junit, strerror(errno));
	return ret;
}

int cmd_gate(int argc, char **argv, struct tps_ctx *ctx)
{
	struct gate_result res = { 0 };
	struct gate_opts o;
	struct store *s;
	const char *thresh_file = NULL, *gh = getenv("GITHUB_ACTIONS");
	double flag_th[N_METRICS];
	int flag_set[N_METRICS] = { 0 }, metric_given = 0, c, m, ret = TPS_EXIT_ERROR;
	size_t i;

	memset(&o, 0, sizeof(o));
	o.noise_k = VERDICT_NOISE_K;
	for (m = 0; m < N_METRICS; m++) {
		o.threshold[m] = VERDICT_MAX_REGRESS_PCT;
		flag_th[m] = VERDICT_MAX_REGRESS_PCT;
	}
	struct tps_getopt go = { 0 };

	while ((c = tps_getopt(&go, argc, argv, opts)) != -1) {
		switch (c) {
		case 'h':
			printf("usage: %s\n\n%s", usage, help);
			return TPS_EXIT_OK;
		case OPT_BASELINE: o.baseline = optarg; break;
		case OPT_ENGINE: o.engine = optarg; break;
		case OPT_TAG: o.tag = optarg; break;
		case OPT_MODEL: o.model = optarg; break;
		case OPT_JUNIT: o.junit = optarg; break;
		case OPT_THRESH: thresh_file = optarg; break;
		case OPT_SWEEP: o.sweep = 1; break;
		case OPT_STRICT: o.strict = 1; break;
		case OPT_TREND: o.trend = 1; break;
		case OPT_JSON: o.json = 1; break;
		case OPT_MAX:
			if (parse_threshold(optarg, flag_th, flag_set, "--max-regress"))
				return TPS_EXIT_USAGE;
			break;
		case OPT_METRIC:
			if ((m = metric_index(optarg)) < 0)
				return tps_usage_error(usage, "--metric is tg, pp or accept, not '%s'",
						       optarg);
			o.gated[m] = 1;
			metric_given = 1;
			break;
		case OPT_NOISE_K:
			if (tps_parse_double(optarg, &o.noise_k) < 0 || o.noise_k < 0)
				return tps_usage_error(usage, "--noise-k needs a number >= 0, not '%s'",
						       optarg);
			break;
		default:
			fprintf(stderr, "usage: %s\n", usage);
			return TPS_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return tps_usage_error(usage, "unexpected argument '%s'", argv[optind]);
	if (!o.baseline || !o.engine)
		return tps_usage_error(usage, "--baseline and --engine are both required");
	if (!metric_given)
		for (m = 0; m < N_METRICS; m++)
			o.gated[m] = 1;
	if (thresh_file && (ret = read_thresholds(thresh_file, o.threshold)) != 0)
		return ret;
	ret = TPS_EXIT_ERROR;
	for (m = 0; m < N_METRICS; m++)
		if (flag_set[m])
			o.threshold[m] = flag_th[m];
	ctx->readonly = 1;
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	if (run_gate(s, &o, &res) < 0)
		goto out;
	for (i = 0; i < res.n_warnings; i++)
		tps_warning("%s", res.warnings[i]);
	if (o.junit && write_junit(&o, &res) < 0)
		goto out;
	if (o.json) {
		if (print_json(&o, &res) < 0)
			goto out;
	} else {
		print_text(&o, &res);
	}
	if (gh && !strcmp(gh, "true"))
		print_github(&o, &res);
	ret = res.n_fail ? TPS_EXIT_FAIL : TPS_EXIT_OK;
out:
	result_release(&res);
	return ret;
}
