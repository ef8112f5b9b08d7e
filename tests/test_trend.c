/* test_trend.c: analyze/trend.c's decision on pools of runs built by hand (no
 * store): the medians and change points of a history, the build number an engine
 * version names, a history's order and limit, and the runs of a metric. Then a
 * history as 'tpsdb trend' reads it (cmd/side.h: the store's one loader, every
 * run of a series pooled and put in order) and the change points found in it,
 * over a migrated ":memory:" store restored from the export-format fixtures in
 * tests/data/report: history.jsonl (a steady series, one with an outlier, one
 * with two steps) and study.jsonl (flagged samples, speculative cells, a run
 * without samples). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/changepoint.h"
#include "analyze/stats.h"
#include "analyze/study.h"
#include "analyze/trend.h"
#include "cmd/side.h"
#include "collect/import.h"
#include "tests/import_fixture.h"
#include "reports/tables.h"
#include "reports/trend_write.h"
#include "schema/record.h"
#include "schema/store.h"
#include "tests/run_fixture.h"
#include "tpsdb.h"

static int setup(void **state)
{
	struct store *s = store_open(":memory:", 0);

	if (!s || import_data_file(s, "report/history.jsonl") <= 0 ||
	    import_data_file(s, "report/study.jsonl") <= 0)
		return -1;
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	store_close(*state);
	return 0;
}

/* The histories of one model as 'tpsdb trend' loads them: every run of each
 * series pooled (POOL_ALL), in build or start order, with its values. */
static void load_history(struct store *s, const char *model, const char *baseline,
			 struct side *sd)
{
	const char *models[1] = { model };
	struct run_filter f = { 0 };

	f.model.v = models;
	f.model.n = model ? 1 : 0;
	f.baseline = baseline;
	assert_int_equal(side_load_history(s, &f, NULL, RUN_LOAD_VALUES, sd), 0);
}

/* The history of metric m of the series engine/model/spec_type/n_max in sd: its
 * runs holding a value of m (trend_history()); out->runs is the caller's. */
static void find(const struct side *sd, const char *engine, const char *model,
		 const char *spec_type, int64_t n_max, enum run_metric m, struct pool *out)
{
	size_t i;

	for (i = 0; i < sd->n_pools; i++) {
		const struct run *f = pool_face(&sd->pools[i]);

		if (f && !strcmp(f->engine, engine) && !strcmp(f->model, model) &&
		    !strcmp(f->spec_type, spec_type) && f->n_max == n_max) {
			trend_history(&sd->pools[i], m, 0, out);
			return;
		}
	}
	fail_msg("no series %s/%s", engine, model);
}

static void test_trend_history_order(void **state)
{
	struct side sd;
	struct pool h[3];
	size_t n, i, k;

	load_history(*state, "m1", NULL, &sd);
	n = sd.n_pools;
	assert_int_equal(n, 3);
	for (i = 0; i < n; i++)
		trend_history(&sd.pools[i], RUN_TG, 0, &h[i]);
	assert_string_equal(pool_face(&h[0])->engine, "outlier");
	assert_string_equal(pool_face(&h[1])->engine, "steady");
	assert_string_equal(pool_face(&h[2])->engine, "steps");
	assert_int_equal(h[0].n, 12);
	assert_int_equal(h[2].n, 15);
	assert_int_equal(pool_face(&h[2])->n_max, TPS_NULL);
	assert_string_equal(pool_face(&h[2])->endpoint, "completion");
	assert_string_equal(h[2].runs[0]->uuid, "11111111-0000-4000-8000-000000000025");
	assert_string_equal(h[2].runs[0]->tag, "b100");
	for (i = 0; i < n; i++) {
		for (k = 0; k < h[i].n; k++) {
			assert_int_equal(h[i].runs[k]->values[RUN_TG].n, 3);
			if (k)
				assert_true(strcmp(h[i].runs[k - 1]->started_at,
						   h[i].runs[k]->started_at) < 0);
		}
		free(h[i].runs);
	}
	side_release(&sd);
	side_release(&sd);
	side_release(NULL);
}

static void test_trend_history_flags(void **state)
{
	struct side sd;
	struct pool se;
	double *y;

	/* The truncated sample is out of tg, the cold one out of pp: 11 each. */
	load_history(*state, "q35", NULL, &sd);
	find(&sd, "ours", "q35", "", TPS_NULL, RUN_TG, &se);
	assert_int_equal(se.n, 1);
	assert_int_equal(se.runs[0]->values[RUN_TG].n, 11);
	/* The median sample reports 142.6 tok/s; decode is its 256 tokens over its
	 * 1795.231 ms (schema/record.h), which the fixture rounded to the microsecond. */
	y = trend_medians(&se, RUN_TG);
	assert_true(fabs(y[0] - 256e3 / 1795.231) < 1e-9);
	assert_true(fabs(run_median(se.runs[0], RUN_TG) - 256e3 / 1795.231) < 1e-9);
	free(y);
	free(se.runs);
	find(&sd, "ours", "q35", "draft", 2, RUN_TG, &se);
	assert_int_equal(se.runs[0]->values[RUN_TG].n, 12);
	free(se.runs);
	find(&sd, "ours", "q35", "", TPS_NULL, RUN_PP, &se);
	assert_int_equal(se.runs[0]->values[RUN_PP].n, 11);
	free(se.runs);
	side_release(&sd);
	/* A baseline that does not exist selects nothing; a model without samples
	 * (the LOADFAIL) lists no series. (The loader now always hands back a pool
	 * array, so "no series" is n 0 and no run loaded, not a NULL array.) */
	load_history(*state, "q35", "nope", &sd);
	assert_int_equal(sd.n_pools, 0);
	assert_int_equal(sd.set.n, 0);
	side_release(&sd);
	load_history(*state, "mx", NULL, &sd);
	assert_int_equal(sd.n_pools, 0);
	side_release(&sd);
}

/* trend_items() over m1's three histories: pp of every series before tg, the
 * steps' two change points in its tg item, only tg when pp is not wanted, the
 * last runs with a limit, and -1 for a parameter out of range. */
static void test_trend_items(void **state)
{
	const int both[2] = { 1, 1 }, tg[2] = { 0, 1 };
	struct changepoint_params bad;
	struct trend_item *it;
	struct side sd;
	size_t n, i;

	load_history(*state, "m1", NULL, &sd);
	assert_int_equal(trend_items(sd.pools, sd.n_pools, both, 0, NULL, &it, &n), 0);
	assert_int_equal(n, 6);
	for (i = 0; i < n; i++)
		assert_int_equal(it[i].metric, i < 3 ? RUN_PP : RUN_TG);
	assert_string_equal(pool_face(&it[5].hist)->engine, "steps");
	assert_int_equal(it[5].hist.n, 15);
	assert_int_equal(it[5].t.n_cps, 2);
	assert_int_equal(it[5].t.cps[0].index, 5);
	trend_items_free(it, n);

	assert_int_equal(trend_items(sd.pools, sd.n_pools, tg, 4, NULL, &it, &n), 0);
	assert_int_equal(n, 3);
	for (i = 0; i < n; i++) {
		assert_int_equal(it[i].metric, RUN_TG);
		assert_int_equal(it[i].hist.n, 4);
		assert_ptr_equal(it[i].hist.runs[3], sd.pools[i].runs[sd.pools[i].n - 1]);
	}
	trend_items_free(it, n);

	changepoint_params_init(&bad);
	bad.min_segment = 1;
	assert_int_equal(trend_items(sd.pools, sd.n_pools, both, 0, &bad, &it, &n), -1);
	trend_items_free(it, n);
	side_release(&sd);
}

/* The change points of each synthetic series, as 'tpsdb trend' computes them. */
static void test_trend_changepoints(void **state)
{
	static const struct {
		const char *engine;
		size_t n_cp;
		size_t at[2];
	} cases[] = {
		{ "steady", 0, { 0, 0 } },  /* noise only */
		{ "outlier", 0, { 0, 0 } }, /* one run 40% off */
		{ "steps", 2, { 5, 10 } },  /* 100 -> 90 -> 110 */
	};
	struct side sd;
	size_t c, k;

	load_history(*state, "m1", NULL, &sd);
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct pool se;
		double *y, *med;
		struct changepoint *cps = NULL;
		size_t ncp = 0;
		struct trend t;

		find(&sd, cases[c].engine, "m1", "", TPS_NULL, RUN_TG, &se);
		y = tps_xcalloc(se.n, sizeof(*y));
		for (k = 0; k < se.n; k++) {
			const struct run_values *vs = &se.runs[k]->values[RUN_TG];
			double *v = tps_xcalloc(vs->n, sizeof(*v));

			for (size_t j = 0; j < vs->n; j++)
				v[j] = vs->v[j].value;
			y[k] = stats_median(v, vs->n);
			free(v);
		}
		/* The trend's own medians are the runs' medians. */
		med = trend_medians(&se, RUN_TG);
		for (k = 0; k < se.n; k++)
			assert_true(med[k] == y[k]);
		free(med);
		assert_int_equal(changepoint_detect(y, se.n, NULL, &cps, &ncp), 0);
		assert_int_equal(ncp, cases[c].n_cp);
		for (k = 0; k < ncp; k++)
			assert_int_equal(cps[k].index, cases[c].at[k]);
		if (ncp == 2) {
			assert_true(fabs(cps[0].change_pct + 10) < 0.5);
			assert_true(cps[1].change_pct > 20);
			assert_string_equal(se.runs[cps[0].index]->uuid,
					    "11111111-0000-4000-8000-000000000030");
		}
		/* trend_detect() finds the same on the history. */
		assert_int_equal(trend_detect(&se, RUN_TG, NULL, &t), 0);
		assert_int_equal(t.n_cps, ncp);
		for (k = 0; k < ncp; k++)
			assert_int_equal(t.cps[k].index, cps[k].index);
		trend_release(&t);
		changepoint_free(cps);
		free(y);
		free(se.runs);
	}
	side_release(&sd);
}

/* The trend figure's data: series in engine order, the change points and the
 * band of the first series' first segment. */
static void test_trend_figure(void **state)
{
	static const char *const engines[] = { "steps", "steady" };
	const char *const m1[1] = { "m1" }, *const nope[1] = { "nope" };
	const char *engines_outlier[1];
	struct study_trend_opts o = { 0 };
	struct study_arena *a = study_arena_new();
	struct study_error err;
	struct study_load l;
	struct run_filter f = { 0 };
	struct plot_trend tr;

	o.engines = engines;
	o.n_engines = 2;
	o.model = "m1";
	o.n_max = TPS_NULL;
	o.metric = STUDY_TG;
	f.model.v = m1;
	f.model.n = 1;
	assert_int_equal(study_load(*state, &f, NULL, STUDY_LOAD_HISTORY, &l), 0);
	assert_int_equal(study_trend(&o, &l.in, a, &tr, NULL, &err), 0);
	assert_int_equal(tr.n_series, 2);
	assert_string_equal(tr.series[0].label, "steps");
	assert_int_equal(tr.series[0].n_cp, 2);
	assert_int_equal(tr.series[0].cp[1], 10);
	/* A level band per segment (100, 90, 110), each over its own runs only. */
	assert_true(isnan(tr.band_lo));
	assert_int_equal(tr.n_bands, 3);
	assert_true(fabs(tr.bands[0].lo - 98) < 0.5 && fabs(tr.bands[0].hi - 102) < 0.5);
	assert_true(tr.bands[1].hi < 95 && tr.bands[2].lo > 105);
	assert_true(tr.bands[0].x0 == tr.series[0].x[0] && tr.bands[0].x1 == tr.series[0].x[4]);
	assert_true(tr.bands[1].x0 == tr.series[0].x[5] && tr.bands[1].x1 == tr.series[0].x[9]);
	assert_true(tr.series[0].x[1] - tr.series[0].x[0] == 3600);
	/* One run 40% off moves neither the centre nor the width of its band. */
	o.n_engines = 1;
	engines_outlier[0] = "outlier";
	o.engines = engines_outlier;
	assert_int_equal(study_trend(&o, &l.in, a, &tr, NULL, &err), 0);
	assert_int_equal(tr.n_series, 1);
	assert_int_equal(tr.series[0].n_cp, 0);
	assert_int_equal(tr.n_bands, 1);
	assert_true(fabs(tr.bands[0].lo - 98) < 0.5 && fabs(tr.bands[0].hi - 102) < 0.5);
	o.engines = engines;
	o.n_engines = 2;
	study_load_release(&l);
	o.model = "nope";
	f.model.v = nope;
	assert_int_equal(study_load(*state, &f, NULL, STUDY_LOAD_HISTORY, &l), 0);
	assert_int_equal(study_trend(&o, &l.in, a, &tr, NULL, &err), 0);
	assert_int_equal(tr.n_series, 0);
	study_load_release(&l);
	study_arena_free(a);
	study_arena_free(NULL);
}

/* A history of n runs built by hand: run i of engine "ours" on model "m". */
struct hist {
	struct run r[16];
	struct pool p;
	size_t n;
};

static void hist_init(struct hist *h, size_t n)
{
	char uuid[32];

	memset(h, 0, sizeof(*h));
	for (size_t i = 0; i < n; i++) {
		snprintf(uuid, sizeof(uuid), "r%zu", i);
		fx_run(&h->r[i], uuid, "ours", "m");
		h->r[i].id = (int64_t)i + 1;
	}
	h->n = n;
	fx_pool(&h->p, h->r, n);
}

static void hist_release(struct hist *h)
{
	for (size_t i = 0; i < h->n; i++)
		run_release(&h->r[i]);
	free(h->p.runs);
	memset(h, 0, sizeof(*h));
}

/* Each run's median, a run without values skipped, and the newest change point's
 * direction decides latest_regression; no store involved. */
static void test_trend_decide(void **state)
{
	static const struct {
		const char *what;
		double level[2]; /* runs 0..5 at level[0], 6..11 at level[1] */
		size_t n_cps;
		int regression;
	} cases[] = {
		{ "steady", { 100, 100 }, 0, 0 },
		{ "drop", { 100, 90 }, 1, 1 },
		{ "rise", { 100, 110 }, 1, 0 },
	};
	size_t c, i;

	(void)state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct hist h;
		struct trend t;

		hist_init(&h, 13);
		for (i = 0; i < 12; i++) {
			double v = cases[c].level[i >= 6] + (double)(i % 3) * 0.3;
			/* A slow outlier sample in each run: the median ignores it. */
			double vals[3] = { v, v * 0.5, v + 0.1 };

			fx_values(&h.r[i], RUN_TG, vals, 3, NULL);
		}
		/* run 12 has no usable value: NaN, skipped */
		assert_int_equal(trend_detect(&h.p, RUN_TG, NULL, &t), 0);
		print_message("case %s\n", cases[c].what);
		assert_int_equal(t.n_runs, 13);
		assert_true(fabs(t.medians[0] - cases[c].level[0]) < 1e-9);
		assert_true(isnan(t.medians[12]));
		assert_int_equal(t.n_cps, cases[c].n_cps);
		assert_int_equal(trend_latest_regression(&t), cases[c].regression);
		if (t.n_cps) {
			assert_ptr_equal(trend_latest(&t), &t.cps[t.n_cps - 1]);
			assert_int_equal(trend_latest(&t)->index, 6);
		} else {
			assert_null(trend_latest(&t));
		}
		trend_release(&t);
		assert_null(t.cps);
		hist_release(&h);
	}
	/* A parameter out of range fails and leaves nothing to free. */
	{
		static const double two[2] = { 5, 7 };
		struct hist h;
		struct changepoint_params p;
		struct trend t;
		double *m;

		hist_init(&h, 1);
		fx_values(&h.r[0], RUN_TG, two, 2, NULL);
		changepoint_params_init(&p);
		p.min_segment = 1;
		assert_int_equal(trend_detect(&h.p, RUN_TG, &p, &t), -1);
		assert_null(t.medians);
		m = trend_medians(&h.p, RUN_TG);
		assert_true(m[0] == 6);
		free(m);
		assert_true(run_median(&h.r[0], RUN_TG) == 6);
		assert_true(isnan(run_median(&h.r[0], RUN_PP)));
		hist_release(&h);
	}
}

/* A spoiled or incomplete run is drawn (its median kept) but never searched:
 * six clean runs at 100, four contended ones at 50, six clean at 100 again have
 * no change point, and neither does a contended (or incomplete) tail of four at
 * 50, which all clean is a change point and a regression (gate --trend fails
 * on it). */
static void test_trend_spoiled(void **state)
{
	size_t i, pass;

	(void)state;
	for (pass = 0; pass < 3; pass++) {
		struct hist h;
		struct trend t;
		size_t n = pass ? 10 : 16;

		hist_init(&h, n);
		for (i = 0; i < n; i++) {
			int slow = i >= 6 && i < 10;
			double v = (slow ? 50 : 100) + (double)(i % 3) * 0.3;
			double vals[3] = { v, v + 0.1, v - 0.1 };

			fx_values(&h.r[i], RUN_TG, vals, 3, NULL);
			if (slow && pass != 1)
				h.r[i].env_flags = RUN_ENV_GPU_CONTENDED;
		}
		if (pass == 2) {
			/* one of the tail incomplete, the rest contended */
			free(h.r[9].status);
			h.r[9].status = tps_xstrdup("partial");
			h.r[9].env_flags = 0;
		}
		assert_int_equal(trend_detect(&h.p, RUN_TG, NULL, &t), 0);
		assert_int_equal(t.n_runs, n);
		assert_true(fabs(t.medians[7] - 50.3) < 1e-9);
		assert_int_equal(t.n_cps, pass == 1 ? 1 : 0);
		assert_int_equal(trend_latest_regression(&t), pass == 1);
		trend_release(&t);
		hist_release(&h);
	}
}

/* The build number of an engine version: "b" and digits, alone or before '-' or
 * '+'; anything else is none (-1). */
static void test_trend_build_number(void **state)
{
	static const struct {
		const char *version;
		int64_t want;
	} cases[] = {
		{ "b7123", 7123 },
		{ "b7123-4e1b2c3", 7123 },
		{ "b7123+cuda", 7123 },
		{ "b0", -1 },          /* llama.cpp's build without git describe */
		{ "b0-unknown", -1 },
		{ "b01", 1 },
		{ "b123456789012", 123456789012 },
		{ "b200-abc", 200 },
		{ "", -1 },
		{ "b", -1 },
		{ "7123", -1 },
		{ "B7123", -1 },
		{ "bx7123", -1 },
		{ "b-7123", -1 },
		{ "b7123x", -1 },
		{ "b7123.1", -1 },
		{ " b7123", -1 },
		{ "dev", -1 },
		{ "v1.2.3", -1 },
		{ "b99999999999999999999", -1 }, /* past int64 */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t got = trend_build_number(cases[i].version);

		if (got != cases[i].want)
			fail_msg("'%s': got %lld, want %lld", cases[i].version, (long long)got,
				 (long long)cases[i].want);
	}
	assert_int_equal(trend_build_number(NULL), -1);
}

/* Build order when every run names a build (ties by start time, then id), else
 * the start order the history came in; then the last limit runs. */
static void test_trend_order(void **state)
{
	/* In start order: builds 214, 200, 207, 200 (a rebuild of 200 started
	 * later), 210. */
	static const char *const versions[5] = { "b214-abc", "b200", "b207+x", "b200-def",
						 "b210" };
	static const char *const at[5] = { "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z",
					   "2026-01-03T00:00:00Z", "2026-01-04T00:00:00Z",
					   "2026-01-05T00:00:00Z" };
	static const size_t by_build[5] = { 1, 3, 2, 4, 0 };
	struct hist h;
	size_t i;

	(void)state;
	hist_init(&h, 5);
	for (i = 0; i < 5; i++) {
		fx_set(&h.r[i].engine_version, versions[i]);
		fx_set(&h.r[i].started_at, at[i]);
	}
	trend_order(&h.p, 0);
	assert_int_equal(h.p.n, 5);
	for (i = 0; i < 5; i++)
		assert_ptr_equal(h.p.runs[i], &h.r[by_build[i]]);
	/* The limit keeps the last runs of that order: builds 207, 210, 214. */
	free(h.p.runs);
	fx_pool(&h.p, h.r, 5);
	trend_order(&h.p, 3);
	assert_int_equal(h.p.n, 3);
	assert_ptr_equal(h.p.runs[0], &h.r[2]);
	assert_ptr_equal(h.p.runs[1], &h.r[4]);
	assert_ptr_equal(h.p.runs[2], &h.r[0]);
	/* Equal builds and equal start times: the id decides. */
	free(h.p.runs);
	fx_pool(&h.p, h.r, 5);
	fx_set(&h.r[3].started_at, at[1]);
	h.r[1].id = 9;
	trend_order(&h.p, 0);
	assert_ptr_equal(h.p.runs[0], &h.r[3]);
	assert_ptr_equal(h.p.runs[1], &h.r[1]);
	h.r[1].id = 2;
	fx_set(&h.r[3].started_at, at[3]);
	/* One run without a build number: the whole history keeps its start order,
	 * and the limit the newest runs of it. */
	free(h.p.runs);
	fx_pool(&h.p, h.r, 5);
	fx_set(&h.r[2].engine_version, "dev");
	trend_order(&h.p, 0);
	for (i = 0; i < 5; i++)
		assert_ptr_equal(h.p.runs[i], &h.r[i]);
	trend_order(&h.p, 2);
	assert_int_equal(h.p.n, 2);
	assert_ptr_equal(h.p.runs[0], &h.r[3]);
	assert_ptr_equal(h.p.runs[1], &h.r[4]);
	/* A limit of the history's length or more, and 0, keep every run. */
	free(h.p.runs);
	fx_pool(&h.p, h.r, 5);
	trend_order(&h.p, 5);
	assert_int_equal(h.p.n, 5);
	trend_order(&h.p, 99);
	assert_int_equal(h.p.n, 5);
	hist_release(&h);
	/* An empty history stays empty. */
	hist_init(&h, 0);
	trend_order(&h.p, 3);
	assert_int_equal(h.p.n, 0);
	hist_release(&h);
}

/* Builds that name no number ("b0-unknown") are told apart by the binary's
 * sha256 and go in the order each was first seen, each one's runs by start time;
 * one binary keeps start order; the label names the binary. */
static void test_trend_order_first_seen(void **state)
{
	/* Start order: A, B, A, C, B; C is "dev" with no sha256. */
	static const char *const sha[5] = { "aaaaaaaa11", "bbbbbbbb22", "aaaaaaaa11", "",
					    "bbbbbbbb22" };
	static const char *const ver[5] = { "b0-unknown", "b0-unknown", "b0-unknown", "dev",
					    "b0-unknown" };
	static const size_t want[5] = { 0, 2, 1, 4, 3 };
	struct hist h;
	size_t i;
	char *l;

	(void)state;
	hist_init(&h, 5);
	for (i = 0; i < 5; i++) {
		fx_set(&h.r[i].engine_version, ver[i]);
		fx_set(&h.r[i].engine_sha256, sha[i]);
		free(h.r[i].started_at);
		h.r[i].started_at = tps_xasprintf("2026-01-0%zuT00:00:00Z", i + 1);
	}
	assert_int_equal(trend_order_by(&h.p), TREND_BY_FIRST_SEEN);
	trend_order(&h.p, 0);
	for (i = 0; i < 5; i++)
		assert_ptr_equal(h.p.runs[i], &h.r[want[i]]);
	l = trend_version_label(&h.r[1]);
	assert_string_equal(l, "b0-unknown sha bbbbbbbb");
	free(l);
	l = trend_version_label(&h.r[3]);
	assert_string_equal(l, "dev");
	free(l);
	/* A build number names the build itself, sha256 or not. */
	fx_set(&h.r[0].engine_version, "b7123");
	l = trend_version_label(&h.r[0]);
	assert_string_equal(l, "b7123");
	free(l);
	hist_release(&h);
	/* One binary, no number: start order. */
	hist_init(&h, 3);
	for (i = 0; i < 3; i++) {
		fx_set(&h.r[i].engine_version, "b0-unknown");
		fx_set(&h.r[i].engine_sha256, "cccccccc33");
		free(h.r[i].started_at);
		h.r[i].started_at = tps_xasprintf("2026-01-0%zuT00:00:00Z", 3 - i);
	}
	assert_int_equal(trend_order_by(&h.p), TREND_BY_START);
	trend_order(&h.p, 0);
	for (i = 0; i < 3; i++)
		assert_ptr_equal(h.p.runs[i], &h.r[i]);
	hist_release(&h);
}

/* The history of a metric: the runs that hold a value of it, in order. */
static void test_trend_history_runs(void **state)
{
	static const double v[2] = { 10, 12 };
	struct hist h;
	struct pool out;

	(void)state;
	hist_init(&h, 4);
	fx_values(&h.r[0], RUN_TG, v, 2, NULL);
	fx_values(&h.r[2], RUN_TG, v, 1, NULL);
	fx_values(&h.r[3], RUN_PP, v, 2, NULL);
	trend_history(&h.p, RUN_TG, 0, &out);
	assert_int_equal(out.n, 2);
	assert_ptr_equal(out.runs[0], &h.r[0]);
	assert_ptr_equal(out.runs[1], &h.r[2]);
	free(out.runs);
	/* The limit counts the runs of the metric: the last one holding a tg
	 * value, not the last run (which holds pp only). */
	trend_history(&h.p, RUN_TG, 1, &out);
	assert_int_equal(out.n, 1);
	assert_ptr_equal(out.runs[0], &h.r[2]);
	free(out.runs);
	trend_history(&h.p, RUN_ACCEPT, 0, &out);
	assert_int_equal(out.n, 0);
	free(out.runs);
	hist_release(&h);
}

/* The config column of trend's tables is cell_label()'s: the default endpoint and
 * an empty one are left unsaid, any other follows in parentheses. */
static void test_trend_config_label(void **state)
{
	static const struct {
		const char *spec_type, *endpoint;
		int64_t n_max;
		const char *want;
	} cases[] = {
		{ "", "", TPS_NULL, "base" },
		{ "", "completion", TPS_NULL, "base" },
		{ "ngram", "chat", 4, "ngram n_max=4 (chat)" },
		{ "", "", 3, "spec n_max=3" },
		{ "eagle", "chat", TPS_NULL, "eagle base (chat)" },
	};
	enum { N = sizeof(cases) / sizeof(cases[0]) };
	struct run runs[N];
	struct pool se[N];
	struct trend_item items[N];
	struct table st, ct;
	size_t i;

	(void)state;
	for (i = 0; i < N; i++) {
		fx_run(&runs[i], "u", "ours", "m");
		fx_set(&runs[i].spec_type, cases[i].spec_type);
		fx_set(&runs[i].endpoint, cases[i].endpoint);
		runs[i].n_max = cases[i].n_max;
		fx_pool(&se[i], &runs[i], 1);
		items[i] = (struct trend_item){ .hist = se[i], .metric = RUN_TG };
	}
	trend_tables(&st, &ct, items, N);
	assert_int_equal(st.t.nrows, N + 1);
	for (i = 0; i < N; i++)
		/* Column 2 is the config. */
		assert_string_equal(st.t.cells[(i + 1) * st.t.ncols + 2].text, cases[i].want);
	table_release(&st);
	table_release(&ct);
	for (i = 0; i < N; i++) {
		run_release(&runs[i]);
		free(se[i].runs);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trend_decide),
		cmocka_unit_test(test_trend_spoiled),
		cmocka_unit_test(test_trend_build_number),
		cmocka_unit_test(test_trend_order_first_seen),
		cmocka_unit_test(test_trend_order),
		cmocka_unit_test(test_trend_history_runs),
		cmocka_unit_test(test_trend_config_label),
		cmocka_unit_test_setup_teardown(test_trend_items, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trend_history_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trend_history_flags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trend_changepoints, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trend_figure, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
