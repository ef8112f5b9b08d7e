/* test_trend.c: analyze/trend.c's decision on plain arrays (no store), then
 * schema/history.c (every run of a series in time order with its usable values)
 * and the change points 'tpsdb trend' finds in it, over a migrated
 * ":memory:" store restored from the export-format fixtures in tests/data/report:
 * history.jsonl (a steady series, one with an outlier, one with two steps) and
 * study.jsonl (flagged samples, speculative cells, a run without samples). */
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
#include "analyze/trend.h"
#include "collect/import.h"
#include "reports/tables.h"
#include "reports/trend_write.h"
#include "schema/history.h"
#include "schema/record.h"
#include "schema/report_load.h"
#include "schema/store.h"
#include "tpsdb.h"

/* The fixture is tpsdb's own export format: import restores it as it is. */
static void load_fixture(struct store *s, const char *name)
{
	const char *dir = getenv("TPSDB_TEST_DATA");
	struct import_opts o;
	struct import_result res;
	char *path;

	assert_non_null(dir);
	path = tps_xasprintf("%s/report/%s", dir, name);
	import_opts_init(&o);
	assert_int_equal(import_files(s, &o, &path, 1, &res), 0);
	assert_true(res.runs_new > 0);
	free(path);
}

static int setup(void **state)
{
	struct store *s = store_open(":memory:", 0);

	if (!s)
		return -1;
	load_fixture(s, "history.jsonl");
	load_fixture(s, "study.jsonl");
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	store_close(*state);
	return 0;
}

static const struct history_series *find(const struct history_series *h, size_t n,
					 const char *engine, const char *model,
					 const char *spec_type, int64_t n_max)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strcmp(h[i].engine, engine) && !strcmp(h[i].model, model) &&
		    !strcmp(h[i].spec_type, spec_type) && h[i].n_max == n_max)
			return &h[i];
	}
	fail_msg("no series %s/%s", engine, model);
	return NULL;
}

static void test_trend_history_order(void **state)
{
	struct cell_filter f = { 0 };
	struct history_series *h = NULL;
	size_t n = 0, i, k;

	f.model = "m1";
	assert_int_equal(store_history(*state, &f, CELL_TG, &h, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(h[0].engine, "outlier");
	assert_string_equal(h[1].engine, "steady");
	assert_string_equal(h[2].engine, "steps");
	assert_int_equal(h[0].n, 12);
	assert_int_equal(h[2].n, 15);
	assert_int_equal(h[2].n_max, TPS_NULL);
	assert_string_equal(h[2].endpoint, "completion");
	assert_string_equal(h[2].runs[0].uuid, "11111111-0000-4000-8000-000000000025");
	assert_string_equal(h[2].runs[0].tag, "b100");
	for (i = 0; i < n; i++) {
		for (k = 0; k < h[i].n; k++) {
			assert_int_equal(h[i].runs[k].n, 3);
			if (k)
				assert_true(strcmp(h[i].runs[k - 1].started_at,
						   h[i].runs[k].started_at) < 0);
		}
	}
	history_free(h, n);
	history_free(NULL, 0);
}

static void test_trend_history_flags(void **state)
{
	struct cell_filter f = { 0 };
	struct history_series *h = NULL;
	const struct history_series *se;
	size_t n = 0;

	f.model = "q35";
	/* The truncated sample is out of tg, the cold one out of pp: 11 each. */
	assert_int_equal(store_history(*state, &f, CELL_TG, &h, &n), 0);
	se = find(h, n, "ours", "q35", "", TPS_NULL);
	assert_int_equal(se->n, 1);
	assert_int_equal(se->runs[0].n, 11);
	assert_true(fabs(stats_median(se->runs[0].values, se->runs[0].n) - 142.6) < 1e-9);
	se = find(h, n, "ours", "q35", "draft", 2);
	assert_int_equal(se->runs[0].n, 12);
	history_free(h, n);
	assert_int_equal(store_history(*state, &f, CELL_PP, &h, &n), 0);
	se = find(h, n, "ours", "q35", "", TPS_NULL);
	assert_int_equal(se->runs[0].n, 11);
	history_free(h, n);
	/* A baseline that does not exist selects nothing; a model without samples
	 * (the LOADFAIL) lists no series. */
	f.baseline = "nope";
	assert_int_equal(store_history(*state, &f, CELL_TG, &h, &n), 0);
	assert_int_equal(n, 0);
	assert_null(h);
	f.baseline = NULL;
	f.model = "mx";
	assert_int_equal(store_history(*state, &f, CELL_TG, &h, &n), 0);
	assert_int_equal(n, 0);
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
	struct cell_filter f = { 0 };
	struct history_series *h = NULL;
	size_t n = 0, c, k;

	f.model = "m1";
	assert_int_equal(store_history(*state, &f, CELL_TG, &h, &n), 0);
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct history_series *se = find(h, n, cases[c].engine, "m1", "", TPS_NULL);
		double *y = tps_xcalloc(se->n, sizeof(*y));
		struct changepoint *cps = NULL;
		size_t ncp = 0;
		for (k = 0; k < se->n; k++)
			y[k] = stats_median(se->runs[k].values, se->runs[k].n);
		assert_int_equal(changepoint_detect(y, se->n, NULL, &cps, &ncp), 0);
		assert_int_equal(ncp, cases[c].n_cp);
		for (k = 0; k < ncp; k++)
			assert_int_equal(cps[k].index, cases[c].at[k]);
		if (ncp == 2) {
			assert_true(fabs(cps[0].change_pct + 10) < 0.5);
			assert_true(cps[1].change_pct > 20);
			assert_string_equal(se->runs[cps[0].index].uuid,
					    "11111111-0000-4000-8000-000000000030");
		}
		changepoint_free(cps);
		free(y);
	}
	history_free(h, n);
}

/* The trend figure's data: series in engine order, the change points and the
 * band of the first series' first segment. */
static void test_trend_figure(void **state)
{
	static const char *const engines[] = { "steps", "steady" };
	const char *engines_outlier[1];
	struct study_trend_opts o = { 0 };
	struct study_arena *a = study_arena_new();
	struct study_error err;
	struct report_input in = { 0 };
	struct plot_trend tr;

	o.engines = engines;
	o.n_engines = 2;
	o.model = "m1";
	o.n_max = TPS_NULL;
	o.metric = CELL_TG;
	assert_int_equal(report_load_trend(*state, o.model, NULL, NULL, CELL_TG, &in.trend), 0);
	report_input_view(&in);
	assert_int_equal(study_trend(&o, &in.study, a, &tr, NULL, &err), 0);
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
	assert_int_equal(study_trend(&o, &in.study, a, &tr, NULL, &err), 0);
	assert_int_equal(tr.n_series, 1);
	assert_int_equal(tr.series[0].n_cp, 0);
	assert_int_equal(tr.n_bands, 1);
	assert_true(fabs(tr.bands[0].lo - 98) < 0.5 && fabs(tr.bands[0].hi - 102) < 0.5);
	o.engines = engines;
	o.n_engines = 2;
	report_input_release(&in);
	o.model = "nope";
	assert_int_equal(report_load_trend(*state, o.model, NULL, NULL, CELL_TG, &in.trend), 0);
	report_input_view(&in);
	assert_int_equal(study_trend(&o, &in.study, a, &tr, NULL, &err), 0);
	assert_int_equal(tr.n_series, 0);
	report_input_release(&in);
	study_arena_free(a);
	study_arena_free(NULL);
}

/* A series of runs as plain arrays: run i holds vals[i][0..nv[i]). */
struct runs {
	double vals[16][3];
	size_t nv[16];
};

static const double *runs_values(const void *series, size_t i, size_t *n)
{
	const struct runs *r = series;

	*n = r->nv[i];
	return r->vals[i];
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
		struct runs r;
		struct trend t;

		memset(&r, 0, sizeof(r));
		for (i = 0; i < 12; i++) {
			double v = cases[c].level[i >= 6] + (double)(i % 3) * 0.3;
			/* A slow outlier sample in each run: the median ignores it. */
			r.vals[i][0] = v;
			r.vals[i][1] = v * 0.5;
			r.vals[i][2] = v + 0.1;
			r.nv[i] = 3;
		}
		r.nv[12] = 0; /* a run with no usable value: NaN, skipped */
		assert_int_equal(trend_detect(&r, 13, runs_values, NULL, &t), 0);
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
	}
	/* A parameter out of range fails and leaves nothing to free. */
	{
		struct runs r;
		struct changepoint_params p;
		struct trend t;
		double *m;

		memset(&r, 0, sizeof(r));
		r.vals[0][0] = 5;
		r.vals[0][1] = 7;
		r.nv[0] = 2;
		changepoint_params_init(&p);
		p.min_segment = 1;
		assert_int_equal(trend_detect(&r, 1, runs_values, &p, &t), -1);
		assert_null(t.medians);
		m = trend_medians(&r, 1, runs_values);
		assert_true(m[0] == 6);
		free(m);
	}
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
	struct history_series se[N];
	struct trend_write_item items[N];
	struct trend t = { 0 };
	struct table st, ct;
	size_t i;

	(void)state;
	memset(se, 0, sizeof(se));
	for (i = 0; i < N; i++) {
		se[i].engine = "ours";
		se[i].model = "m";
		se[i].spec_type = (char *)cases[i].spec_type;
		se[i].endpoint = (char *)cases[i].endpoint;
		se[i].n_max = cases[i].n_max;
		items[i] = (struct trend_write_item){ .se = &se[i], .metric = "tg", .t = &t };
	}
	trend_tables(&st, &ct, items, N);
	assert_int_equal(st.t.nrows, N + 1);
	for (i = 0; i < N; i++)
		/* Column 2 is the config. */
		assert_string_equal(st.t.cells[(i + 1) * st.t.ncols + 2].text, cases[i].want);
	table_release(&st);
	table_release(&ct);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trend_decide),
		cmocka_unit_test(test_trend_config_label),
		cmocka_unit_test_setup_teardown(test_trend_history_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trend_history_flags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trend_changepoints, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trend_figure, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
