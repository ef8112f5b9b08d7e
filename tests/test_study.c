/* test_study.c: analyze/study*.c over plain structs, without a store: the engine
 * columns and the reference, the base cells' medians, the errors a study step
 * returns, the speculative and per-prompt tables, which quality rows are worded,
 * and the figures' data (segment bands, the longest history, the trend's series,
 * its baseline band, the report's figures). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analyze/parity.h"
#include "analyze/study.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* --- a small study: model m by ours, zz (other) and up (upstream) --- */

static double pp_ours[] = { 300, 100, 200 }, tg_ours[] = { 10, 30, 20 };
static double pp_up[] = { 400, 500 }, tg_up[] = { 40, 60 };
static double pp_zz[] = { 250 }, tg_zz[] = { 25 };
/* A rung of one run decodes at the geometric mean of its values: 200 and 160. */
static double tg_n4[] = { 100, 400 }, tg_n8[] = { 80, 320 };

static const struct study_values v_ours = { pp_ours, tg_ours, 3, 3 };
static const struct study_values v_up = { pp_up, tg_up, 2, 2 };
static const struct study_values v_zz = { pp_zz, tg_zz, 1, 1 };
static const struct study_values v_none = { NULL, NULL, 0, 0 };

#define UUID(n) "00000000-0000-4000-8000-00000000000" #n

static const struct study_cell_run runs[] = {
	/* id, uuid, engine, role, model, spec_type, endpoint, tag, started_at, host */
	{ 1, UUID(1), "up", "upstream", "m", "", "completion", "t", "2025-01-01T00:00:00Z",
	  "h", STUDY_NULL, &v_up },
	{ 2, UUID(2), "zz", "other", "m", "", "completion", "", "2025-01-01T00:00:00Z", "h",
	  STUDY_NULL, &v_zz },
	{ 3, UUID(3), "ours", "ours", "m", "", "completion", NULL, "2025-01-01T00:00:00Z",
	  "h", STUDY_NULL, &v_ours },
	/* a speculative run: no base cell */
	{ 4, UUID(4), "ours", "ours", "m", "ngram", "completion", NULL,
	  "2025-01-01T00:00:00Z", "h", 4, &v_none },
};

/* An empty pair set: parity_decide() judges no cell, so no verdict. */
static struct parity_input no_cells;
static struct parity_opts po;
static struct study_pair pairs[2];

static void input_init(struct study_input *in)
{
	memset(in, 0, sizeof(*in));
	parity_opts_init(&po);
	pairs[0] = (struct study_pair){ "ours", "up", NULL, &no_cells, &po };
	pairs[1] = (struct study_pair){ "zz", "up", NULL, &no_cells, &po };
	in->runs = runs;
	in->n_runs = 4;
	in->pairs = pairs;
	in->n_pairs = 2;
}

/* The columns by role (ours, other, upstream), the reference the upstream one,
 * and each base cell the median of its run's values; no pairs judged, no verdict. */
static void test_study_base_cells(void **state)
{
	struct study_opts o = { 0 };
	struct study_input in;
	struct study s;

	(void)state;
	input_init(&in);
	assert_int_equal(study_build(&o, &in, &s), 0);
	assert_int_equal(s.n_engines, 3);
	assert_string_equal(s.engines[0].label, "ours");
	assert_string_equal(s.engines[1].label, "zz");
	assert_string_equal(s.engines[2].label, "up");
	assert_string_equal(s.ref, "up");
	assert_int_equal(s.n_base, 1);
	assert_string_equal(s.base[0].model, "m");
	assert_true(s.base[0].cells[0].present);
	NEAR(s.base[0].cells[0].pp, 200);
	NEAR(s.base[0].cells[0].tg, 20);
	NEAR(s.base[0].cells[1].pp, 250);
	NEAR(s.base[0].cells[2].pp, 450);
	NEAR(s.base[0].cells[2].tg, 50);
	assert_string_equal(s.base[0].cells[0].run, UUID(3));
	assert_string_equal(s.base[0].cells[2].tag, "t");
	assert_false(s.base[0].cells[0].vpp.has || s.base[0].cells[0].vtg.has);
	assert_false(s.base[0].cells[0].est_pp || s.base[0].cells[0].forced);
	assert_int_equal(s.n_notes, 0);
	/* No verdict, no answer line. */
	assert_int_equal(s.answers[0].n + s.answers[1].n + s.answers[2].n, 0);
	/* The runs behind the numbers: the three base runs, not the unshown rung. */
	assert_int_equal(s.n_runs, 3);
	assert_string_equal(s.runs[0].uuid, UUID(1));
	assert_string_equal(s.runs[2].engine, "ours");
	assert_string_equal(s.runs[2].tag, "");
	/* No figures unless asked for. */
	assert_null(s.fig.cols);
	assert_null(s.arena);
	study_release(&s);
	study_release(&s);

	/* The engines asked for, in that order; the reference stays one. */
	{
		static const char *const eng[] = { "up", "ours" };
		o.engines = eng;
		o.n_engines = 2;
		assert_int_equal(study_build(&o, &in, &s), 0);
		assert_int_equal(s.n_engines, 2);
		assert_string_equal(s.engines[0].label, "up");
		assert_string_equal(s.engines[1].label, "ours");
		NEAR(s.base[0].cells[1].tg, 20);
		study_release(&s);
	}
}

/* A step that cannot go on says why, with the names, and prints nothing. */
static void test_study_errors(void **state)
{
	static const char *const nope[] = { "nope" };
	static const char *const only_m2[] = { "m2" };
	struct study_opts o = { 0 };
	struct study_input in;
	struct study s;
	struct study_arena *a = study_arena_new();
	struct plot_parity pa;
	struct study_error err;

	(void)state;
	input_init(&in);
	o.engines = nope;
	o.n_engines = 1;
	assert_int_equal(study_build(&o, &in, &s), -1);
	assert_int_equal(s.err.kind, STUDY_NO_ENGINE);
	assert_string_equal(s.err.a, "nope");
	study_release(&s);

	memset(&o, 0, sizeof(o));
	o.ref = "nope";
	assert_int_equal(study_build(&o, &in, &s), -1);
	assert_int_equal(s.err.kind, STUDY_NO_REF_RUNS);
	assert_string_equal(s.err.a, "nope");
	study_release(&s);

	/* The pairs of zz and up were not loaded. */
	o.ref = NULL;
	in.n_pairs = 1;
	assert_int_equal(study_build(&o, &in, &s), -1);
	assert_int_equal(s.err.kind, STUDY_NO_PAIRS);
	assert_string_equal(s.err.a, "zz");
	assert_string_equal(s.err.b, "up");
	study_release(&s);

	/* A parity figure of a model no upstream engine ran has no reference. */
	in.n_pairs = 2;
	o.models = only_m2;
	o.n_models = 1;
	assert_int_equal(study_parity(&o, &in, STUDY_TG, a, &pa, &err), -1);
	assert_int_equal(err.kind, STUDY_NO_REFERENCE);
	study_arena_free(a);
}

/* --- the speculative table and the per-prompt acceptance --- */

static struct study_prompt pr4[] = { { "b", 0, 10, 5 }, { "a", 0, 20, 18 } };
static struct study_prompt pr8[] = { { "a", 0, 40, 20 }, { "c", 0, 0, 0 } };
static const struct study_prompts prompts[] = { { 14, pr4, 2 }, { 18, pr8, 2 } };

static void spec_input(struct study_input *in, struct series_run *dec)
{
	input_init(in);
	memset(dec, 0, 2 * sizeof(*dec));
	dec[0] = (struct series_run){ .engine = "ours", .role = "ours", .model = "m",
				      .spec_type = "ngram", .endpoint = "completion",
				      .n_max = 4, .run_id = 14, .run_uuid = UUID(4),
				      .values = tg_n4, .n_values = 2, .n_summed = 2,
				      .predicted_n = 300, .draft_n = 30,
				      .draft_n_accepted = 23, .has_draft = 1,
				      .predicted_ms = 1500, .round = STUDY_NULL };
	dec[1] = dec[0];
	dec[1].n_max = 8;
	dec[1].run_id = 18;
	dec[1].run_uuid = UUID(8);
	dec[1].values = tg_n8;
	dec[1].draft_n = 40;
	dec[1].draft_n_accepted = 20;
	in->decode = dec;
	in->n_decode = 2;
	in->prompts = prompts;
	in->n_prompts = 2;
}

/* One column per (n_max, engine), each cell the rung's decode speed and its
 * acceptance; one run per rung decides no fastest one. The per-prompt table
 * has the rows sorted by name, each prompt's accepted / drafted. */
static void test_study_spec_prompts(void **state)
{
	struct study_opts o = { 0 };
	struct study_input in;
	struct series_run dec[2];
	struct study s;

	(void)state;
	spec_input(&in, dec);
	assert_int_equal(study_build(&o, &in, &s), 0);
	assert_int_equal(s.n_spec_cols, 2);
	assert_int_equal(s.spec_cols[0].n_max, 4);
	assert_int_equal(s.spec_cols[1].n_max, 8);
	assert_int_equal(s.spec_cols[0].engine, 0);
	assert_int_equal(s.n_spec, 1);
	assert_string_equal(s.spec[0].spec_type, "ngram");
	assert_true(s.spec[0].cells[0].present);
	NEAR(s.spec[0].cells[0].tg, 200);
	NEAR(s.spec[0].cells[1].tg, 160);
	NEAR(s.spec[0].cells[0].accept, 23.0 / 30);
	NEAR(s.spec[0].cells[1].accept, 0.5);
	assert_true(isnan(s.spec[0].cells[0].tg_lo));
	assert_false(s.spec[0].cells[0].best || s.spec[0].cells[1].best);
	assert_string_equal(s.spec[0].cells[1].run, UUID(8));
	/* The rungs' runs are behind numbers now: four runs. */
	assert_int_equal(s.n_runs, 4);

	assert_int_equal(s.n_prompts, 1);
	assert_int_equal(s.prompts[0].n_cols, 2);
	assert_int_equal(s.prompts[0].n_prompts, 3);
	assert_string_equal(s.prompts[0].prompts[0], "a");
	assert_string_equal(s.prompts[0].prompts[1], "b");
	assert_string_equal(s.prompts[0].prompts[2], "c");
	NEAR(s.prompts[0].accept[0 * 2 + 0], 0.9);  /* a at n4: 18 / 20 */
	NEAR(s.prompts[0].accept[0 * 2 + 1], 0.5);  /* a at n8: 20 / 40 */
	NEAR(s.prompts[0].accept[1 * 2 + 0], 0.5);  /* b at n4 */
	assert_true(isnan(s.prompts[0].accept[1 * 2 + 1])); /* b not run at n8 */
	assert_true(isnan(s.prompts[0].accept[2 * 2 + 1])); /* c: nothing drafted */
	NEAR(s.prompts[0].all[0], 23.0 / 30);
	NEAR(s.prompts[0].decode[1], 160);
	study_release(&s);

	/* A rung whose prompts were not loaded stops the study, naming the run. */
	in.n_prompts = 1;
	assert_int_equal(study_build(&o, &in, &s), -1);
	assert_int_equal(s.err.kind, STUDY_NO_PROMPTS);
	assert_string_equal(s.err.a, UUID(8));
	study_release(&s);
}

/* The report words the quality rows of the runs it shows and the failed loads
 * that explain a hole (an engine and model without a number), no others. */
static void test_study_quality(void **state)
{
	static const struct study_quality q[] = {
		{ UUID(3), "ours", "m", "ok" },         /* shown: a base number */
		{ UUID(9), "zz", "m2", "failed" },      /* a hole: zz has no m2 */
		{ UUID(7), "ours", "m", "ok" },         /* an older run, no number */
		{ UUID(6), "ours", "m", "failed" },     /* ours has a number of m */
		{ UUID(5), "gone", "m2", "failed" },    /* an engine not let in */
	};
	static const char *const eng[] = { "ours", "zz" };
	struct study_opts o = { 0 };
	struct study_input in;
	struct study s;

	(void)state;
	input_init(&in);
	in.quality = q;
	in.n_quality = 5;
	o.engines = eng;
	o.n_engines = 2;
	assert_int_equal(study_build(&o, &in, &s), 0);
	assert_int_equal(s.n_quality, 2);
	assert_int_equal(s.quality[0], 0);
	assert_int_equal(s.quality[1], 1);
	study_release(&s);
}

/* --- the figures --- */

/* Two segments at 100 and 90: each band is its median +/- 2% (no spread), over
 * its own runs only; a spike moves neither; a floor of 3% widens to 2 x 3%. */
static void test_study_segment_bands(void **state)
{
	static const double x[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	static const double y[] = { 100, 100, 100, 100, 90, 90, 90, 90 };
	static const double spike[] = { 100, 100, 160, 100, 100 };
	static const size_t cp[] = { 4 };
	struct plot_band b[2];

	(void)state;
	assert_int_equal(study_segment_bands(x, y, 8, cp, 1, NAN, b), 2);
	NEAR(b[0].lo, 98);
	NEAR(b[0].hi, 102);
	NEAR(b[0].x0, 0);
	NEAR(b[0].x1, 3);
	NEAR(b[1].lo, 88.2);
	NEAR(b[1].hi, 91.8);
	NEAR(b[1].x0, 4);
	NEAR(b[1].x1, 7);
	assert_int_equal(study_segment_bands(x, spike, 5, NULL, 0, NAN, b), 1);
	NEAR(b[0].lo, 98);
	NEAR(b[0].hi, 102);
	assert_int_equal(study_segment_bands(x, y, 4, NULL, 0, 3.0, b), 1);
	NEAR(b[0].lo, 94);
	NEAR(b[0].hi, 106);
}

static const double h100[] = { 100, 101, 99 }, h90[] = { 90, 89, 91 };
static const struct study_history_run r_ours[] = {
	{ "2025-01-01T00:00:00Z", h100, 3 }, { "2025-01-01T01:00:00Z", h100, 3 },
	{ "2025-01-01T02:00:00Z", h100, 3 }, { "2025-01-01T03:00:00Z", h100, 3 },
	{ "2025-01-01T04:00:00Z", h90, 3 },  { "2025-01-01T05:00:00Z", h90, 3 },
};
static const double b100[] = { 100 }, b104[] = { 104 };
static const struct study_history_run r_base[] = {
	{ "2024-12-01T00:00:00Z", b100, 1 }, { "2024-12-02T00:00:00Z", b104, 1 },
};

static void trend_input(struct study_input *in, struct study_history *h)
{
	input_init(in);
	h[0] = (struct study_history){ "up", "upstream", "m", "", "completion", STUDY_NULL,
				       r_ours, 3, NAN };
	h[1] = (struct study_history){ "ours", "ours", "m", "", "completion", STUDY_NULL,
				       r_ours, 6, NAN };
	h[2] = (struct study_history){ "ours", "ours", "m2", "", "completion", STUDY_NULL,
				       r_ours, 5, NAN };
	h[3] = (struct study_history){ "ours", "ours", "m", "", "completion", STUDY_NULL,
				       r_base, 2, NAN };
	in->hist = h;
	in->n_hist = 3;
}

/* The longest history: m's ours series (6 runs), unless the models or engines
 * asked for leave it out. */
static void test_study_trend_longest(void **state)
{
	static const char *const up[] = { "up" };
	static const char *const m2[] = { "m2" };
	struct study_input in;
	struct study_history h[4];

	(void)state;
	trend_input(&in, h);
	assert_string_equal(study_trend_longest(&in, NULL, 0, NULL, 0, NULL, STUDY_NULL), "m");
	assert_string_equal(study_trend_longest(&in, NULL, 0, m2, 1, NULL, STUDY_NULL), "m2");
	assert_string_equal(study_trend_longest(&in, up, 1, NULL, 0, NULL, STUDY_NULL), "m");
	assert_null(study_trend_longest(&in, up, 1, m2, 1, NULL, STUDY_NULL));
	assert_null(study_trend_longest(&in, NULL, 0, NULL, 0, "ngram", STUDY_NULL));
}

/* The trend of m: ours before up (the columns' order), x the runs' start in
 * seconds, y their medians; without a baseline a band per segment of the first
 * series; with one, its runs' min..max widened to the parity band. */
static void test_study_trend(void **state)
{
	struct study_trend_opts o = { 0 };
	struct study_input in;
	struct study_history h[4];
	struct study_arena *a = study_arena_new();
	struct study_error err;
	struct plot_trend tr;
	const char *no_band = NULL;
	size_t k;

	(void)state;
	trend_input(&in, h);
	o.n_max = STUDY_NULL;
	o.metric = STUDY_TG;
	o.model = "m";
	assert_int_equal(study_trend(&o, &in, a, &tr, &no_band, &err), 0);
	assert_null(no_band);
	assert_int_equal(tr.n_series, 2);
	assert_string_equal(tr.series[0].label, "ours");
	assert_string_equal(tr.series[1].label, "up");
	assert_int_equal(tr.series[0].n, 6);
	NEAR(tr.series[0].x[1] - tr.series[0].x[0], 3600);
	NEAR(tr.series[0].x[0], 1735689600); /* 2025-01-01T00:00:00Z */
	for (k = 0; k < 6; k++)
		NEAR(tr.series[0].y[k], k < 4 ? 100 : 90);
	assert_string_equal(tr.title, "decode tok/s (tg) of m, base: median per run");
	assert_true(isnan(tr.band_lo));
	assert_int_equal(tr.n_bands, tr.series[0].n_cp + 1);
	NEAR(tr.bands[0].lo, 98);
	NEAR(tr.bands[0].hi, 102);
	assert_string_equal(tr.band_label, "ours level per segment");

	/* A baseline of 100 and 104: min..max, at least mean 102 +/- 2%. */
	in.base = &h[3];
	in.n_base = 1;
	o.baseline = "b1";
	assert_int_equal(study_trend(&o, &in, a, &tr, &no_band, &err), 0);
	NEAR(tr.band_lo, 102 - 2.04);
	NEAR(tr.band_hi, 104.04);
	assert_string_equal(tr.band_label, "baseline b1 (2 runs)");
	assert_int_equal(tr.n_bands, 0);
	/* ... which holds no run of m2: no band, and the model to warn about. */
	o.model = "m2";
	assert_int_equal(study_trend(&o, &in, a, &tr, &no_band, &err), 0);
	assert_string_equal(no_band, "m2");
	assert_true(isnan(tr.band_lo));
	assert_int_equal(tr.n_series, 1);

	/* No model named: the first with a series; none at all: no series. */
	o.baseline = NULL;
	o.model = NULL;
	assert_int_equal(study_trend(&o, &in, a, &tr, NULL, &err), 0);
	assert_string_equal(tr.series[0].label, "ours");
	assert_int_equal(tr.n_series, 2);
	o.spec_type = "ngram";
	assert_int_equal(study_trend(&o, &in, a, &tr, NULL, &err), 0);
	assert_int_equal(tr.n_series, 0);
	study_arena_free(a);
}

/* With figures: the trend of the longest history among the tables' models, one
 * per model, and no parity bars without verdicts. */
static void test_study_figures(void **state)
{
	struct study_opts o = { 0 };
	struct study_input in;
	struct study_history h[4];
	struct study s;

	(void)state;
	trend_input(&in, h);
	o.figures = 1;
	assert_int_equal(study_build(&o, &in, &s), 0);
	assert_non_null(s.arena);
	assert_string_equal(s.fig.cols[0], "ours");
	assert_string_equal(s.fig.trend_model, "m");
	assert_int_equal(s.fig.trend.n_series, 2);
	assert_int_equal(s.fig.n_models, 1);
	assert_string_equal(s.fig.models[0], "m");
	assert_int_equal(s.fig.model_trends[0].n_series, 2);
	assert_false(s.fig.has_sweep);
	assert_false(s.fig.has_parity);
	study_release(&s);
}

/* The sweep of a spec row: each engine's base from the base table, then its
 * rungs; the figure of the speculative runs alone starts at the first rung. */
static void test_study_sweep(void **state)
{
	struct study_opts o = { 0 };
	struct study_input in;
	struct series_run dec[2];
	struct study s;
	struct study_arena *a = study_arena_new();
	struct study_error err;
	struct plot_sweep sw;

	(void)state;
	spec_input(&in, dec);
	o.figures = 1;
	assert_int_equal(study_build(&o, &in, &s), 0);
	assert_true(s.fig.has_sweep);
	assert_int_equal(s.fig.sweep.n_series, 1);
	assert_string_equal(s.fig.sweep.series[0].label, "ours");
	assert_int_equal(s.fig.sweep.series[0].n, 3);
	assert_int_equal(s.fig.sweep.series[0].n_max[0], 0);
	NEAR(s.fig.sweep.series[0].tg[0], 20);
	assert_int_equal(s.fig.sweep.series[0].n_max[2], 8);
	NEAR(s.fig.sweep.series[0].tg[2], 160);
	NEAR(s.fig.sweep.series[0].accept[1], 23.0 / 30);
	assert_string_equal(s.fig.sweep.title, "speculative sweep of m, ngram: decode tok/s and "
				 "acceptance by n_max");
	study_release(&s);

	assert_int_equal(study_sweep(&in, NULL, 0, NULL, NULL, a, &sw, &err), 0);
	assert_int_equal(sw.n_series, 1);
	assert_int_equal(sw.series[0].n, 2);
	assert_int_equal(sw.series[0].n_max[0], 4);
	NEAR(sw.series[0].tg[0], 200);
	assert_string_equal(sw.series[0].label, "ours");
	/* The legend names an endpoint as cell_label_endpoint() does: an empty one is
	 * left unsaid, another follows in parentheses. */
	dec[0].endpoint = dec[1].endpoint = "";
	assert_int_equal(study_sweep(&in, NULL, 0, NULL, NULL, a, &sw, &err), 0);
	assert_int_equal(sw.n_series, 1);
	assert_string_equal(sw.series[0].label, "ours");
	dec[0].endpoint = dec[1].endpoint = "chat";
	assert_int_equal(study_sweep(&in, NULL, 0, NULL, NULL, a, &sw, &err), 0);
	assert_int_equal(sw.n_series, 1);
	assert_string_equal(sw.series[0].label, "ours (chat)");
	study_arena_free(a);
}

static void test_study_labels(void **state)
{
	char *s;

	(void)state;
	s = cell_label_endpoint("q35", "chat");
	assert_string_equal(s, "q35 (chat)");
	free(s);
	s = cell_label_endpoint("q35", "completion");
	assert_string_equal(s, "q35");
	free(s);
	s = cell_label("ngram", 4, "chat");
	assert_string_equal(s, "ngram n_max=4 (chat)");
	free(s);
	s = cell_label("", STUDY_NULL, "");
	assert_string_equal(s, "base");
	free(s);
	s = cell_label("eagle", STUDY_NULL, "completion");
	assert_string_equal(s, "eagle base");
	free(s);
	assert_string_equal(study_spec_name(""), "spec");
	assert_int_equal(study_role_rank("ours"), 0);
	assert_int_equal(study_role_rank("whatever"), 1);
	assert_int_equal(study_role_rank("upstream"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_study_base_cells),
		cmocka_unit_test(test_study_errors),
		cmocka_unit_test(test_study_spec_prompts),
		cmocka_unit_test(test_study_quality),
		cmocka_unit_test(test_study_segment_bands),
		cmocka_unit_test(test_study_trend_longest),
		cmocka_unit_test(test_study_trend),
		cmocka_unit_test(test_study_figures),
		cmocka_unit_test(test_study_sweep),
		cmocka_unit_test(test_study_labels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
