/* cmd_sweep.c: `tpsdb sweep`, the speculative series of each engine and model: decode
 * speed, speedup and acceptance per draft depth, the rungs where speed falls, the
 * shape against other engines and why two engines differ at one rung. A fall beyond
 * the tolerance is a failed check (exit 1). */
#include "reports/json.h"
#include "reports/md.h"
#include "reports/parity.h"
#include "reports/series.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"tpsdb sweep [--engine <e>] [--model <m>] [--tolerance <pct>] [--ref <engine>]\n"
	"            [--tag <t>] [--host <name>] [--json]";

static const char help[] =
	"The speculative series (engine, model, spec_type): the base run (n_max unset),\n"
	"then n_max 1, 2, 3 ..., each the latest run of its cell (or the latest with --tag).\n"
	"Per rung: decode tok/s (median of unflagged samples), speedup over the base,\n"
	"acceptance (accepted / drafted) and the decomposition tg = tokens per verify\n"
	"cycle / time per cycle.\n"
	"\n"
	"  --engine <e>         only the series of this engine\n"
	"  --model <m>          only this model\n"
	"  --tolerance <pct>    a fall of more than this from one rung to the next is a\n"
	"                       violation (default 5); so is a rise of acceptance\n"
	"                       beyond it an anomaly\n"
	"  --ref <engine>       compare the shape and the per-rung gap with this engine\n"
	"                       (default: every other engine with the same series)\n"
	"  --tag <t>, --host <name>   pick runs\n"
	"  --json               {\"series\":[...],\"gaps\":[...]}\n"
	"\n"
	"Exit codes: 0 every series monotone, 1 a violation, 2 usage, 3 no series or a\n"
	"store error.\n";

enum { OPT_ENGINE = 256, OPT_MODEL, OPT_TOL, OPT_REF, OPT_TAG, OPT_HOST, OPT_JSON };

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "tolerance", required_argument, NULL, OPT_TOL },
	{ "ref", required_argument, NULL, OPT_REF },
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "json", no_argument, NULL, OPT_JSON },
	{ NULL, 0, NULL, 0 },
};

struct sweep_opts {
	const char *engine, *ref;
	double tolerance;
};

static const char *rung_name(int64_t n_max, char *buf, size_t len)
{
	if (n_max == TPS_NULL || n_max <= 0)
		snprintf(buf, len, "base");
	else
		snprintf(buf, len, "%lld", (long long)n_max);
	return buf;
}

static int same_series(const struct series *a, const struct series *b)
{
	return !strcmp(a->model, b->model) && !strcmp(a->spec_type, b->spec_type) &&
	       !strcmp(a->endpoint, b->endpoint) && strcmp(a->engine, b->engine);
}

static int shown(const struct sweep_opts *o, const struct series *se)
{
	return !o->engine || !strcmp(o->engine, se->engine);
}

/* The engines a series is held against: --ref, else every other engine. */
static int is_ref_for(const struct sweep_opts *o, const struct series *se,
		      const struct series *other)
{
	if (!same_series(se, other))
		return 0;
	return !o->ref || !strcmp(o->ref, other->engine);
}

static int role_rank(const char *role)
{
	if (!strcmp(role, "ours"))
		return 0;
	if (!strcmp(role, "upstream"))
		return 2;
	return 1;
}

/* Which ordered pairs get a gap line: each pair once, ours-role first, then other
 * engines, upstream last, so the sentence reads "ours ... slower than llama.cpp". */
static int gap_pair(const struct sweep_opts *o, const struct series *a, const struct series *b)
{
	int ra, rb;

	if (!same_series(a, b))
		return 0;
	if (o->ref)
		return !strcmp(o->ref, b->engine) && shown(o, a);
	if (!shown(o, a) && !shown(o, b))
		return 0;
	ra = role_rank(a->role);
	rb = role_rank(b->role);
	return ra < rb || (ra == rb && strcmp(a->engine, b->engine) < 0);
}

static void shape_sentence(const struct series *se, const struct series *ref,
			   const struct sweep_step *st, char *buf, size_t len)
{
	const char *move = st->ref_change_pct > SWEEP_EQUAL_PCT ? "rises" :
			   st->ref_change_pct < -SWEEP_EQUAL_PCT ? "dips" : "holds";
	char to[32];

	snprintf(buf, len, "%s falls at n_max=%s (%+.1f%%) while %s %s (%+.1f%%): the "
		 "signature of an %s-side regression", se->engine,
		 rung_name(st->to_n_max, to, sizeof(to)), st->change_pct, ref->engine, move,
		 st->ref_change_pct, se->engine);
}

static cJSON *series_json(const struct sweep_opts *o, const struct series_set *set, size_t k)
{
	const struct series *se = &set->v[k];
	cJSON *js = cJSON_CreateObject(), *pts, *arr;
	size_t i, j;

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
	}
	cJSON_AddBoolToObject(js, "monotone", se->report.n_violations == 0);
	arr = cJSON_AddArrayToObject(js, "violations");
	for (i = 0; i < se->report.n_violations; i++) {
		const struct sweep_step *st = &se->report.violations[i];
		cJSON *v = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, v);
		json_put_rung(v, "from", st->from_n_max);
		json_put_rung(v, "to", st->to_n_max);
		json_put_num(v, "drop_pct", -st->change_pct);
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
	arr = cJSON_AddArrayToObject(js, "shape");
	for (j = 0; j < set->n; j++) {
		struct sweep_step *steps = NULL;
		size_t n = 0;

		if (!is_ref_for(o, se, &set->v[j]) ||
		    series_shape(se, &set->v[j], o->tolerance, &steps, &n) < 0)
			continue;
		for (i = 0; i < n; i++) {
			cJSON *v = cJSON_CreateObject();
			char msg[384];

			shape_sentence(se, &set->v[j], &steps[i], msg, sizeof(msg));
			cJSON_AddItemToArray(arr, v);
			cJSON_AddStringToObject(v, "ref", set->v[j].engine);
			json_put_rung(v, "from", steps[i].from_n_max);
			json_put_rung(v, "to", steps[i].to_n_max);
			json_put_num(v, "change_pct", steps[i].change_pct);
			json_put_num(v, "ref_change_pct", steps[i].ref_change_pct);
			cJSON_AddStringToObject(v, "message", msg);
		}
		free(steps);
	}
	return js;
}

static void gaps_json(const struct sweep_opts *o, const struct series_set *set, cJSON *arr)
{
	size_t a, b, i;

	for (a = 0; a < set->n; a++) {
		for (b = 0; b < set->n; b++) {
			const struct series *x = &set->v[a], *y = &set->v[b];

			if (a == b || !gap_pair(o, x, y))
				continue;
			for (i = 0; i < x->n_rungs; i++) {
				struct sweep_gap g;
				char msg[512];
				cJSON *v;

				if (series_gap(x, y, x->rungs[i].n_max, &g, msg, sizeof(msg)) < 0)
					continue;
				v = cJSON_CreateObject();
				cJSON_AddItemToArray(arr, v);
				cJSON_AddStringToObject(v, "ours", x->engine);
				cJSON_AddStringToObject(v, "ref", y->engine);
				cJSON_AddStringToObject(v, "model", x->model);
				cJSON_AddStringToObject(v, "spec_type", x->spec_type);
				json_put_rung(v, "n_max", x->rungs[i].n_max);
				json_put_num(v, "tg_pct", g.tg_pct);
				json_put_num(v, "tpc_pct", g.tpc_pct);
				json_put_num(v, "cost_pct", g.cost_pct);
				json_put_num(v, "share_acceptance", g.share_acceptance);
				json_put_num(v, "share_cost", g.share_cost);
				cJSON_AddStringToObject(v, "explain", msg);
			}
		}
	}
}

static int print_json(const struct sweep_opts *o, const struct series_set *set)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	char *text;
	size_t k;

	arr = cJSON_AddArrayToObject(root, "series");
	for (k = 0; k < set->n; k++)
		if (shown(o, &set->v[k]))
			cJSON_AddItemToArray(arr, series_json(o, set, k));
	gaps_json(o, set, cJSON_AddArrayToObject(root, "gaps"));
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return tps_error("out of memory writing JSON");
	printf("%s\n", text);
	cJSON_free(text);
	return 0;
}

static void print_series(const struct sweep_opts *o, const struct series_set *set, size_t k)
{
	const struct series *se = &set->v[k];
	size_t i, j;

	printf("%s  %s  %s%s%s  %s\n", se->engine, se->model,
	       *se->spec_type ? se->spec_type : "(no spec type)",
	       strcmp(se->endpoint, "completion") ? "  " : "",
	       strcmp(se->endpoint, "completion") ? se->endpoint : "",
	       se->report.n_violations ? "NOT MONOTONE" : "monotone");
	printf("  %-6s %9s %8s %7s %10s %9s %9s %4s\n", "n_max", "tg", "speedup", "accept",
	       "tok/cycle", "ms/cycle", "cycles", "n");
	for (i = 0; i < se->n_rungs; i++) {
		const struct series_rung *r = &se->rungs[i];
		char n[24], tg[32], sp[32], ac[32], tpc[32], ms[32], cy[32];

		rung_name(r->n_max, n, sizeof(n));
		md_num(tg, sizeof(tg), "%.1f", r->rung.tg);
		md_num(sp, sizeof(sp), "%.2fx", r->point.speedup);
		md_num(ac, sizeof(ac), "%.1f%%", r->point.acceptance * 100);
		md_num(tpc, sizeof(tpc), "%.2f", r->point.tokens_per_cycle);
		md_num(ms, sizeof(ms), "%.2f", r->point.ms_per_cycle);
		md_num(cy, sizeof(cy), "%.0f", r->point.cycles);
		printf("  %-6s %9s %8s %7s %10s %9s %9s %4zu\n", n, tg, sp, ac, tpc, ms, cy,
		       r->n_values);
	}
	for (i = 0; i < se->report.n_violations; i++) {
		const struct sweep_step *st = &se->report.violations[i];
		char a[24], b[24];
		printf("  VIOLATION: tg falls %.1f%% from n_max=%s to n_max=%s (tolerance %g%%)\n",
		       -st->change_pct, rung_name(st->from_n_max, a, sizeof(a)),
		       rung_name(st->to_n_max, b, sizeof(b)), o->tolerance);
	}
	for (i = 0; i < se->report.n_anomalies; i++) {
		const struct sweep_step *st = &se->report.anomalies[i];
		char a[24], b[24];
		printf("  anomaly: acceptance rises %+.1f%% from n_max=%s to n_max=%s, though a "
		       "deeper draft should be accepted less often\n", st->change_pct,
		       rung_name(st->from_n_max, a, sizeof(a)), rung_name(st->to_n_max, b, sizeof(b)));
	}
	for (j = 0; j < set->n; j++) {
		struct sweep_step *steps = NULL;
		size_t n = 0;

		if (!is_ref_for(o, se, &set->v[j]) ||
		    series_shape(se, &set->v[j], o->tolerance, &steps, &n) < 0)
			continue;
		for (i = 0; i < n; i++) {
			char msg[384];
			shape_sentence(se, &set->v[j], &steps[i], msg, sizeof(msg));
			printf("  shape: %s\n", msg);
		}
		free(steps);
	}
}

static void print_text(const struct sweep_opts *o, const struct series_set *set)
{
	size_t a, b, i;
	int first = 1, header = 0;

	for (a = 0; a < set->n; a++) {
		if (!shown(o, &set->v[a]))
			continue;
		if (!first)
			printf("\n");
		first = 0;
		print_series(o, set, a);
	}
	for (a = 0; a < set->n; a++) {
		for (b = 0; b < set->n; b++) {
			const struct series *x = &set->v[a], *y = &set->v[b];

			if (a == b || !gap_pair(o, x, y))
				continue;
			for (i = 0; i < x->n_rungs; i++) {
				struct sweep_gap g;
				char msg[512];

				if (series_gap(x, y, x->rungs[i].n_max, &g, msg, sizeof(msg)) < 0)
					continue;
				if (!header++)
					printf("\ngaps:\n");
				printf("  %s %s: %s\n", x->model, x->spec_type, msg);
			}
		}
	}
}

int cmd_sweep(int argc, char **argv, struct tps_ctx *ctx)
{
	struct series_set set = { 0 };
	struct series_filter f;
	struct sweep_opts o = { 0 };
	struct store *s;
	size_t i, n_shown = 0, n_viol = 0;
	int c, json = 0, ret = TPS_EXIT_ERROR;

	series_filter_init(&f);
	o.tolerance = SWEEP_TOLERANCE_PCT;
	struct tps_getopt go = { 0 };

	while ((c = tps_getopt(&go, argc, argv, opts)) != -1) {
		switch (c) {
		case 'h':
			printf("usage: %s\n\n%s", usage, help);
			return TPS_EXIT_OK;
		case OPT_ENGINE: o.engine = optarg; break;
		case OPT_MODEL: f.model = optarg; break;
		case OPT_REF: o.ref = optarg; break;
		case OPT_TAG: f.tag = optarg; break;
		case OPT_HOST: f.host = optarg; break;
		case OPT_JSON: json = 1; break;
		case OPT_TOL:
			if (tps_parse_double(optarg, &o.tolerance) < 0 || o.tolerance < 0)
				return tps_usage_error(usage, "--tolerance needs a number >= 0, not '%s'",
						       optarg);
			break;
		default:
			fprintf(stderr, "usage: %s\n", usage);
			return TPS_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return tps_usage_error(usage, "unexpected argument '%s'", argv[optind]);
	f.tolerance_pct = o.tolerance;
	ctx->readonly = 1;
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	/* Every engine is loaded, --engine or not: the shape and the gaps need the others. */
	if (series_load(s, &f, &set) < 0)
		goto out;
	for (i = 0; i < set.n; i++) {
		if (!shown(&o, &set.v[i]))
			continue;
		n_shown++;
		n_viol += set.v[i].report.n_violations;
	}
	if (!n_shown) {
		tps_error("no speculative series (runs with an n_max)%s%s%s%s%s%s",
			  o.engine ? " of '" : "", o.engine ? o.engine : "", o.engine ? "'" : "",
			  f.model ? " for model '" : "", f.model ? f.model : "", f.model ? "'" : "");
		goto out;
	}
	if (o.ref) {
		for (i = 0; i < set.n && strcmp(set.v[i].engine, o.ref); i++)
			;
		if (i == set.n)
			tps_warning("no series of the reference '%s'", o.ref);
	}
	if (json) {
		if (print_json(&o, &set) < 0)
			goto out;
	} else {
		print_text(&o, &set);
	}
	ret = n_viol ? TPS_EXIT_FAIL : TPS_EXIT_OK;
out:
	series_set_release(&set);
	return ret;
}
