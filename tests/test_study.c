/* test_study.c: analyze/study*.c over pools of runs built by hand
 * (tests/run_fixture.h), without a store: the engine columns and the reference,
 * the base cells' verdicts and medians, the errors a study step returns, the
 * speculative and per-prompt tables, which quality rows are worded, and the
 * figures' data (segment bands, the longest history, the trend's series, its
 * baseline band and floor, the report's figures). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analyze/estimate.h"
#include "analyze/parity.h"
#include "analyze/study.h"
#include "run_fixture.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* --- a small study: model m by ours, zz (other) and up (upstream) --- */

static const double pp_ours[] = { 300, 100, 200 }, tg_ours[] = { 10, 30, 20 };
static const double pp_up[] = { 400, 500 }, tg_up[] = { 40, 60 };
static const double pp_zz[] = { 250 }, tg_zz[] = { 25 };
/* A rung of one run decodes at the geometric mean of its values: 200 and 160. */
static const double tg_n4[] = { 100, 400 }, tg_n8[] = { 80, 320 };

#define UUID(n) "00000000-0000-4000-8000-00000000000" #n

/* The runs of the study's pools, one pool each (what cellset_pools() gives a
 * store holding one run per cell): 0 up, 1 zz, 2 ours, the base runs of m; 3 and
 * 4 ours' ngram rungs n_max 4 and 8 (spec_input() only). */
static struct run runs[5];
static struct pool pools[5];
static size_t n_runs;

/* A base run (values keyed prompt i + 1, rep 1), its samples and prompts read as
 * the report's loader reads them (RUN_LOAD_VALUES | RUN_LOAD_PROMPTS). */
static void base_run(struct run *r, int64_t id, const char *uuid, const char *engine,
		     const char *role, const char *model, const char *tag, const double *pp,
		     size_t n_pp, const double *tg, size_t n_tg)
{
	fx_run(r, uuid, engine, model);
	r->id = id;
	fx_set(&r->role, role);
	fx_set(&r->tag, tag);
	fx_set(&r->started_at, "2025-01-01T00:00:00Z");
	fx_values(r, RUN_PP, pp, n_pp, NULL);
	fx_values(r, RUN_TG, tg, n_tg, NULL);
	r->loaded |= RUN_LOAD_PROMPTS;
}

static void runs_release(void)
{
	for (size_t i = 0; i < n_runs; i++) {
		run_release(&runs[i]);
		free(pools[i].runs);
	}
	n_runs = 0;
}

static void input_init(struct study_input *in)
{
	runs_release();
	memset(in, 0, sizeof(*in));
	base_run(&runs[0], 1, UUID(1), "up", "upstream", "m", "t", pp_up, 2, tg_up, 2);
	base_run(&runs[1], 2, UUID(2), "zz", "other", "m", "", pp_zz, 1, tg_zz, 1);
	base_run(&runs[2], 3, UUID(3), "ours", "ours", "m", NULL, pp_ours, 3, tg_ours, 3);
	n_runs = 3;
	for (size_t i = 0; i < n_runs; i++)
		fx_pool(&pools[i], &runs[i], 1);
	in->pools = pools;
	in->n_pools = n_runs;
}

/* The columns by role (ours, other, upstream), the reference named (--ref up),
 * and each base cell with a verdict against it. Was: the upstream engine was the
 * reference without --ref; now only --ref names one (the default is ours against
 * every other engine: test_study_ours_cells), so this test names it, and every
 * assertion below is the --ref behaviour it always described. The study judges the pools it is
 * handed (parity_decide() of each engine's pools against the reference's): the
 * old input carried separately loaded pair sets, which this test left empty so
 * that no cell had a verdict and every cell showed its run's median. There is no
 * such input now, so every cell the reference shares is judged, and a cell with
 * a verdict shows the estimate's centre, as compare prints it (the medians of a
 * cell without a verdict: test_study_base_medians).
 *
 * Derived by hand from estimate_cell(): one run a side and no stored floor is
 * its one-instance case, the ratio of the geometric means over the keys both
 * runs hold. These runs kept no environment facts and the cell no earlier
 * batch, so the default instance scatter is no evidence (analyze/estimate.h):
 * every cell is shown, undecided (ours' tg -64.6% and zz's -37.5% were decided
 * slower against the default taken as known).
 * ours holds prompts 1..3, up 1..2: ours pp sqrt(300 * 100), tg sqrt(10 * 30),
 * up pp sqrt(400 * 500), tg sqrt(40 * 60), which the reference's cell takes from
 * the first comparison (ours'); zz holds prompt 1 only: 250 and 25 against up's
 * 400 and 40, its values as they were. */
static void test_study_base_cells(void **state)
{
	struct study_opts o = { 0 };
	struct study_input in;
	struct study s;

	(void)state;
	input_init(&in);
	o.ref = "up";
	assert_int_equal(study_build(&o, &in, &s), 0);
	assert_int_equal(s.n_engines, 3);
	assert_string_equal(s.engines[0].label, "ours");
	assert_string_equal(s.engines[1].label, "zz");
	assert_string_equal(s.engines[2].label, "up");
	assert_string_equal(s.ref, "up");
	assert_null(s.ours); /* a reference judges every engine: ours is one of them */
	assert_int_equal(s.n_base, 1);
	assert_string_equal(s.base[0].model, "m");
	assert_true(s.base[0].cells[0].present);
	NEAR(s.base[0].cells[0].pp, sqrt(300.0 * 100));   /* was the median 200 */
	NEAR(s.base[0].cells[0].tg, sqrt(10.0 * 30));     /* was 20 */
	NEAR(s.base[0].cells[1].pp, 250);
	NEAR(s.base[0].cells[1].tg, 25);
	NEAR(s.base[0].cells[2].pp, sqrt(400.0 * 500));   /* was 450 */
	NEAR(s.base[0].cells[2].tg, sqrt(40.0 * 60));     /* was 50 */
	assert_string_equal(s.base[0].cells[0].run, UUID(3));
	assert_string_equal(s.base[0].cells[2].tag, "t");
	/* Was: no verdict, no estimate. */
	assert_true(s.base[0].cells[0].vpp.has && s.base[0].cells[0].vtg.has);
	assert_int_equal(s.base[0].cells[0].vpp.v.kind, VERDICT_UNDECIDED);
	assert_int_equal(s.base[0].cells[0].vtg.v.kind, VERDICT_UNDECIDED);
	assert_int_equal(s.base[0].cells[1].vpp.v.kind, VERDICT_UNDECIDED);
	assert_int_equal(s.base[0].cells[1].vtg.v.kind, VERDICT_UNDECIDED);
	assert_int_equal(s.base[0].cells[0].vpp.v.bound, VERDICT_BOUND_BAND);
	assert_int_equal(s.base[0].cells[0].vtg.v.bound, VERDICT_BOUND_BAND);
	assert_true(isnan(s.base[0].cells[0].vpp.v.scatter_pct));
	assert_true(isnan(s.base[0].cells[1].vtg.v.scatter_pct));
	NEAR(s.base[0].cells[0].vtg.v.delta_pct, (sqrt(300.0 / 2400) - 1) * 100);
	NEAR(s.base[0].cells[1].vpp.v.delta_pct, (250.0 / 400 - 1) * 100);
	assert_true(s.base[0].cells[0].est_pp && s.base[0].cells[0].est_tg);
	assert_true(s.base[0].cells[2].est_pp && s.base[0].cells[2].est_tg);
	assert_false(s.base[0].cells[0].forced);
	/* The reference has no verdict of its own. */
	assert_false(s.base[0].cells[2].vpp.has || s.base[0].cells[2].vtg.has);
	assert_int_equal(s.n_notes, 0);
	/* An answer line per engine and metric with a verdict (was none): ours and
	 * zz, one cell each; none for the reference. */
	assert_int_equal(s.answers[0].n, 1);
	assert_int_equal(s.answers[1].n, 1);
	assert_int_equal(s.answers[2].n, 1);
	assert_int_equal(s.answers[3].n, 1);
	assert_int_equal(s.answers[4].n + s.answers[5].n, 0);
	/* The answers table's rows: comparison (ours, then zz, each against up),
	 * then metric, then model; each borrows its cell's verdict. */
	assert_int_equal(s.n_rows, 4);
	assert_int_equal(s.rows[0].engine, 0);
	assert_int_equal(s.rows[0].metric, STUDY_PP);
	assert_int_equal(s.rows[1].engine, 0);
	assert_int_equal(s.rows[1].metric, STUDY_TG);
	assert_int_equal(s.rows[2].engine, 1);
	assert_int_equal(s.rows[2].metric, STUDY_PP);
	assert_int_equal(s.rows[3].engine, 1);
	assert_int_equal(s.rows[3].metric, STUDY_TG);
	assert_int_equal(s.rows[3].base, 0);
	assert_false(s.rows[3].forced);
	assert_ptr_equal(s.rows[0].tv, &s.base[0].cells[0].vpp);
	assert_ptr_equal(s.rows[3].tv, &s.base[0].cells[1].vtg);
	/* The runs behind the numbers: the three base runs (a speculative pool is a
	 * rung of the spec table now: test_study_spec_prompts). */
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
		NEAR(s.base[0].cells[1].tg, sqrt(10.0 * 30)); /* was the median 20 */
		study_release(&s);
	}
	runs_release();
}

/* Without --ref: ours (role ours) against every other engine, the upstream one
 * included, each the comparison 'compare --ours ours --vs <engine>' makes, its
 * verdicts in the other engine's cell and its centre that engine's side of it.
 *
 * Derived by hand as test_study_base_cells derives its numbers (one run a side,
 * no floor: the ratio of the geometric means over the keys both runs hold,
 * judged against the default instance scatter). ours vs zz: prompt 1 only, ours
 * 300 / 10 against zz 250 / 25: pp +20%, within the default pp scatter's reach
 * (undecided), tg -60%, far beyond the default tg scatter (slower). ours vs up: prompts 1 and 2, ours sqrt(300 * 100) /
 * sqrt(10 * 30) against up sqrt(400 * 500) / sqrt(40 * 60). ours' own cell takes
 * its centre from its first comparison with a verdict, zz's column: 300 and 10. */
static void test_study_ours_cells(void **state)
{
	static const char *const eng[] = { "up", "ours" };
	struct study_opts o = { 0 };
	struct study_input in;
	struct study s;
	const struct tables_base_cell *c;

	(void)state;
	input_init(&in);
	assert_int_equal(study_build(&o, &in, &s), 0);
	assert_null(s.ref);
	assert_string_equal(s.ours, "ours");
	assert_int_equal(s.n_engines, 3);
	assert_string_equal(s.engines[1].label, "zz");
	assert_string_equal(s.engines[2].label, "up");
	c = s.base[0].cells;
	/* ours: no verdict of its own, its centre from ours vs zz. */
	assert_false(c[0].vpp.has || c[0].vtg.has);
	NEAR(c[0].pp, 300);
	NEAR(c[0].tg, 10);
	assert_true(c[0].est_pp && c[0].est_tg);
	/* zz: ours' verdicts against it, and its own side of that estimate. */
	assert_true(c[1].vpp.has && c[1].vtg.has);
	NEAR(c[1].vpp.v.delta_pct, (300.0 / 250 - 1) * 100);
	NEAR(c[1].vtg.v.delta_pct, (10.0 / 25 - 1) * 100);
	assert_int_equal(c[1].vpp.v.kind, VERDICT_UNDECIDED);
	assert_int_equal(c[1].vtg.v.kind, VERDICT_UNDECIDED);
	assert_int_equal(c[1].vpp.v.bound, VERDICT_BOUND_BAND);
	NEAR(c[1].pp, 250);
	NEAR(c[1].tg, 25);
	/* up, an engine like any other: ours' verdicts against it. */
	assert_true(c[2].vpp.has && c[2].vtg.has);
	NEAR(c[2].vpp.v.delta_pct, (sqrt(300.0 * 100 / (400.0 * 500)) - 1) * 100);
	NEAR(c[2].vtg.v.delta_pct, (sqrt(300.0 / 2400) - 1) * 100);
	assert_int_equal(c[2].vpp.v.kind, VERDICT_UNDECIDED);
	assert_int_equal(c[2].vtg.v.kind, VERDICT_UNDECIDED);
	NEAR(c[2].pp, sqrt(400.0 * 500));
	NEAR(c[2].tg, sqrt(40.0 * 60));
	assert_false(c[1].forced || c[2].forced);
	/* One answer per other engine and metric, none of ours' own. */
	assert_int_equal(s.answers[0].n + s.answers[1].n, 0);
	assert_int_equal(s.answers[2].n, 1);
	assert_int_equal(s.answers[3].n, 1);
	assert_int_equal(s.answers[4].n, 1);
	assert_int_equal(s.answers[5].n, 1);
	assert_int_equal(s.answers[2].a.undecided, 1);
	assert_int_equal(s.answers[3].a.undecided, 1); /* was decided slower */
	assert_int_equal(s.answers[3].a.slower, 0);
	/* The answers table: ours vs zz, then ours vs up; none of ours' own. */
	assert_int_equal(s.n_rows, 4);
	assert_int_equal(s.rows[0].engine, 1);
	assert_int_equal(s.rows[1].engine, 1);
	assert_int_equal(s.rows[2].engine, 2);
	assert_int_equal(s.rows[2].metric, STUDY_PP);
	assert_ptr_equal(s.rows[2].tv, &c[2].vpp);
	assert_ptr_equal(s.rows[1].tv, &c[1].vtg);
	study_release(&s);

	/* The engines asked for, up first: ours is still the engine of role ours. */
	o.engines = eng;
	o.n_engines = 2;
	assert_int_equal(study_build(&o, &in, &s), 0);
	assert_string_equal(s.ours, "ours");
	assert_string_equal(s.engines[0].label, "up");
	NEAR(s.base[0].cells[0].vtg.v.delta_pct, (sqrt(300.0 / 2400) - 1) * 100);
	assert_false(s.base[0].cells[1].vtg.has);
	NEAR(s.base[0].cells[1].tg, sqrt(10.0 * 30)); /* its comparison with up now */
	study_release(&s);

	/* No engine of role ours: the first column is judged, zz against up, the
	 * numbers test_study_base_cells gives zz against the reference up. */
	memset(&o, 0, sizeof(o));
	in.n_pools = 2;
	assert_int_equal(study_build(&o, &in, &s), 0);
	assert_string_equal(s.ours, "zz");
	NEAR(s.base[0].cells[1].vpp.v.delta_pct, (250.0 / 400 - 1) * 100);
	NEAR(s.base[0].cells[1].vtg.v.delta_pct, (25.0 / 40 - 1) * 100);
	study_release(&s);
	runs_release();
}

/* An environment finding on an instance a comparison uses spoils its verdicts:
 * "spoiled" with the finding, never faster, slower or parity; the answer counts
 * them apart, and the parity figure draws no bar for them and counts them. zz's
 * run measured on a busy host (RUN_ENV_HOST_BUSY, bit 0: schema/record.h): ours
 * vs zz is spoiled, ours vs up is not. */
static void test_study_spoiled(void **state)
{
	struct study_opts o = { 0 };
	struct study_input in;
	struct study s;
	const struct tables_base_cell *c;

	(void)state;
	input_init(&in);
	runs[1].env_flags = 1;
	o.figures = 1;
	assert_int_equal(study_build(&o, &in, &s), 0);
	c = s.base[0].cells;
	assert_int_equal(c[1].vpp.v.kind, VERDICT_SPOILED);
	assert_int_equal(c[1].vtg.v.kind, VERDICT_SPOILED);
	assert_int_equal(c[1].vtg.v.regression, VERDICT_REG_SPOILED);
	assert_int_equal(c[1].vtg.v.spoiled, 1);
	assert_int_equal(c[2].vtg.v.kind, VERDICT_UNDECIDED); /* -64.6%, as unspoiled */
	assert_int_equal(c[2].vpp.v.kind, VERDICT_UNDECIDED);
	assert_int_equal(s.answers[3].n, 1);
	assert_int_equal(s.answers[3].a.spoiled, 1);
	assert_int_equal(s.answers[3].a.spoiled_env, 1);
	assert_int_equal(s.answers[3].a.undecided, 0);
	/* The figures: up's bar only, zz's counted as spoiled. */
	assert_true(s.fig.has_parity);
	assert_int_equal(s.fig.parity.n_engines, 2);
	assert_true(isnan(s.fig.parity.delta[0]));
	NEAR(s.fig.parity.delta[1], (sqrt(300.0 / 2400) - 1) * 100);
	assert_int_equal(s.fig.parity.n_spoiled, 1);
	assert_int_equal(s.fig.parity.spoiled_env, 1);
	assert_int_equal(s.fig.parity_pp.n_spoiled, 1);
	study_release(&s);
	/* Every bar spoiled: nothing to draw, so no figure (the table says why). */
	runs[0].env_flags = 1;
	assert_int_equal(study_build(&o, &in, &s), 0);
	assert_int_equal(s.fig.parity.n_spoiled, 2);
	assert_false(s.fig.has_parity || s.fig.has_parity_pp);
	study_release(&s);
	runs_release();
}

/* A cell without a verdict shows the median of its pool's newest run (not of
 * the runs pooled): ours' m2, which the reference never ran, pools an older run
 * at 1000 and the newest at 300, 100, 200 / 10, 30, 20; zz's m2 run has every
 * sample flagged for pp (no value: NaN). No verdict, no estimate, no answer; and
 * the reference's own cell of m, compared with nothing, its run's median. */
static void test_study_base_medians(void **state)
{
	static const double old_v[] = { 1000, 1000, 1000 };
	struct study_opts o = { 0 };
	struct study_input in;
	struct run r[4];
	struct pool p[3];
	struct study s;
	size_t i;

	(void)state;
	memset(&in, 0, sizeof(in));
	base_run(&r[0], 1, UUID(1), "up", "upstream", "m", "", pp_up, 2, tg_up, 2);
	base_run(&r[1], 5, UUID(5), "ours", "ours", "m2", "", old_v, 3, old_v, 3);
	base_run(&r[2], 6, UUID(6), "ours", "ours", "m2", "", pp_ours, 3, tg_ours, 3);
	base_run(&r[3], 7, UUID(7), "zz", "other", "m2", "", NULL, 0, tg_zz, 1);
	r[3].values[RUN_PP].excluded = 1;
	fx_pool(&p[0], &r[0], 1);
	fx_pool(&p[1], &r[1], 2);
	fx_pool(&p[2], &r[3], 1);
	in.pools = p;
	in.n_pools = 3;
	o.ref = "up"; /* was the default (test_study_base_cells) */
	assert_int_equal(study_build(&o, &in, &s), 0);
	assert_string_equal(s.ref, "up");
	assert_int_equal(s.n_engines, 3);
	assert_int_equal(s.n_base, 2);
	assert_string_equal(s.base[1].model, "m2");
	assert_false(s.base[1].cells[2].present);
	assert_string_equal(s.base[1].cells[0].run, UUID(6));
	NEAR(s.base[1].cells[0].pp, 200);
	NEAR(s.base[1].cells[0].tg, 20);
	assert_true(isnan(s.base[1].cells[1].pp));
	NEAR(s.base[1].cells[1].tg, 25);
	for (i = 0; i < 2; i++) {
		assert_false(s.base[1].cells[i].vpp.has || s.base[1].cells[i].vtg.has);
		assert_false(s.base[1].cells[i].est_pp || s.base[1].cells[i].est_tg);
	}
	/* The reference's own m: its median, no comparison took its centre. */
	NEAR(s.base[0].cells[2].pp, 450);
	NEAR(s.base[0].cells[2].tg, 50);
	/* No verdict, no answer line. */
	assert_int_equal(s.answers[0].n + s.answers[1].n + s.answers[2].n + s.answers[3].n, 0);
	study_release(&s);
	/* Without --ref: up's m meets no cell of ours (ours ran m2 only): no
	 * comparison, its run's median; zz's m2 has no prefill value to judge. */
	o.ref = NULL;
	assert_int_equal(study_build(&o, &in, &s), 0);
	assert_string_equal(s.ours, "ours");
	NEAR(s.base[0].cells[2].pp, 450);
	NEAR(s.base[0].cells[2].tg, 50);
	assert_false(s.base[0].cells[2].vpp.has || s.base[0].cells[2].vtg.has);
	assert_true(isnan(s.base[1].cells[1].pp));
	assert_false(s.base[1].cells[1].vpp.has);
	study_release(&s);
	for (i = 0; i < 4; i++)
		run_release(&r[i]);
	for (i = 0; i < 3; i++)
		free(p[i].runs);
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

	/* Was: the pairs of zz and up were not loaded (STUDY_NO_PAIRS, naming them).
	 * The study pairs the pools it is handed itself, so there is no pair set
	 * to lack: with the pools of zz and up alone it judges zz against up. Was:
	 * up as the reference, zz's cell holding the verdicts; now zz, the first
	 * column (no engine has role ours), is judged against up, whose cell holds
	 * them (the numbers: test_study_ours_cells). */
	o.ref = NULL;
	in.n_pools = 2;
	assert_int_equal(study_build(&o, &in, &s), 0);
	assert_int_equal(s.n_engines, 2);
	assert_string_equal(s.engines[0].label, "zz");
	assert_true(s.base[0].cells[1].vpp.has && s.base[0].cells[1].vtg.has);
	study_release(&s);

	/* A parity figure of a model no engine ran has nothing to compare (was:
	 * no upstream engine ran it, STUDY_NO_REFERENCE); nor has one of a single
	 * engine without --ref, which names it. */
	in.n_pools = 3;
	o.models = only_m2;
	o.n_models = 1;
	assert_int_equal(study_parity(&o, &in, STUDY_TG, a, &pa, &err), -1);
	assert_int_equal(err.kind, STUDY_NO_PAIR);
	assert_string_equal(err.a, "");
	{
		static const char *const only_ours[] = { "ours" };
		memset(&o, 0, sizeof(o));
		o.engines = only_ours;
		o.n_engines = 1;
		assert_int_equal(study_parity(&o, &in, STUDY_TG, a, &pa, &err), -1);
		assert_int_equal(err.kind, STUDY_NO_PAIR);
		assert_string_equal(err.a, "ours");
		/* Ours and one other: its bar, named as the comparison it is. */
		static const char *const two[] = { "ours", "zz" };
		o.engines = two;
		o.n_engines = 2;
		assert_int_equal(study_parity(&o, &in, STUDY_PP, a, &pa, &err), 0);
		assert_int_equal(pa.n_engines, 1);
		assert_string_equal(pa.engines[0], "zz");
		assert_null(pa.ref);
		assert_string_equal(pa.ours, "ours"); /* the legend: "ours vs zz" */
		NEAR(pa.delta[0], (300.0 / 250 - 1) * 100);
		assert_int_equal(pa.metric, STUDY_PP);
		NEAR(pa.level, 0.9); /* every bar's interval is a 90% one */
		/* With --ref the bars are each engine's against it, as before. */
		o.n_engines = 0;
		o.ref = "up";
		assert_int_equal(study_parity(&o, &in, STUDY_TG, a, &pa, &err), 0);
		assert_int_equal(pa.n_engines, 2);
		assert_string_equal(pa.engines[1], "zz");
		assert_string_equal(pa.ref, "up");
		assert_null(pa.ours);
		NEAR(pa.delta[1], (25.0 / 40 - 1) * 100);
		assert_int_equal(pa.metric, STUDY_TG);
		NEAR(pa.level, 0.9);
	}
	study_arena_free(a);
	runs_release();
}

/* --- the speculative table and the per-prompt acceptance --- */

/* The per-prompt figures of the two rungs' runs (struct run_prompt: name, mean
 * decode tok/s, draft counts); n4's out of name order, which the table sorts. */
static const struct run_prompt pr4[] = { { "b", 0, 10, 5 }, { "a", 0, 20, 18 } };
static const struct run_prompt pr8[] = { { "a", 0, 40, 20 }, { "c", 0, 0, 0 } };

/* A rung of ours' ngram series on m: one run, its decode values and draft sums
 * over both samples, and its prompts read (RUN_LOAD_PROMPTS). */
static void rung_run(struct run *r, int64_t id, const char *uuid, int64_t n_max,
		     const double *tg, int64_t draft_n, int64_t accepted,
		     const struct run_prompt *pr)
{
	base_run(r, id, uuid, "ours", "ours", "m", "", NULL, 0, tg, 2);
	fx_set(&r->spec_type, "ngram");
	r->n_max = n_max;
	r->agg.n = 2;
	r->agg.predicted_n = 300;
	r->agg.predicted_ms = 1500;
	r->agg.draft_n = draft_n;
	r->agg.draft_n_accepted = accepted;
	r->agg.has_draft = 1;
	r->prompts = tps_xcalloc(2, sizeof(*r->prompts));
	for (size_t i = 0; i < 2; i++) {
		r->prompts[i] = pr[i];
		r->prompts[i].name = tps_xstrdup(pr[i].name);
	}
	r->n_prompts = 2;
}

/* The base study and the rungs n_max 4 and 8 of ours' ngram series of m, each a
 * pool (was: the speculative runs in in->decode and their prompts in
 * in->prompts, beside the base runs). */
static void spec_input(struct study_input *in)
{
	input_init(in);
	rung_run(&runs[3], 14, UUID(4), 4, tg_n4, 30, 23, pr4);
	rung_run(&runs[4], 18, UUID(8), 8, tg_n8, 40, 20, pr8);
	fx_pool(&pools[3], &runs[3], 1);
	fx_pool(&pools[4], &runs[4], 1);
	n_runs = 5;
	in->n_pools = 5;
}

/* One column per (n_max, engine), each cell the rung's decode speed and its
 * acceptance; one run per rung decides no fastest one. The per-prompt table
 * has the rows sorted by name, each prompt's accepted / drafted. */
static void test_study_spec_prompts(void **state)
{
	struct study_opts o = { 0 };
	struct study_input in;
	struct study s;

	(void)state;
	spec_input(&in);
	assert_int_equal(study_build(&o, &in, &s), 0);
	/* A speculative pool makes no base cell. */
	assert_int_equal(s.n_base, 1);
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
	/* The rungs' runs are behind numbers now: five runs (was four: the old
	 * input listed the runs behind numbers apart from the rungs, and this
	 * fixture's list lacked n8's run; the list is now the pools' newest runs,
	 * so both rungs' runs are in it). */
	assert_int_equal(s.n_runs, 5);
	assert_string_equal(s.runs[3].uuid, UUID(4));
	assert_string_equal(s.runs[4].uuid, UUID(8));

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

	/* A rung whose prompts were not loaded stops the study, naming the run
	 * (was: n8's run missing from in->prompts; now its loaded flag lacks
	 * RUN_LOAD_PROMPTS). */
	runs[4].loaded &= ~(unsigned)RUN_LOAD_PROMPTS;
	assert_int_equal(study_build(&o, &in, &s), -1);
	assert_int_equal(s.err.kind, STUDY_NO_PROMPTS);
	assert_string_equal(s.err.a, UUID(8));
	study_release(&s);
	runs_release();
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
	runs_release();
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
static const double b100[] = { 100 }, b104[] = { 104 };
static const char *const t_hour[] = {
	"2025-01-01T00:00:00Z", "2025-01-01T01:00:00Z", "2025-01-01T02:00:00Z",
	"2025-01-01T03:00:00Z", "2025-01-01T04:00:00Z", "2025-01-01T05:00:00Z",
	"2025-01-01T06:00:00Z", "2025-01-01T07:00:00Z",
};

/* The histories, each a pool of every run of one series, oldest first (was:
 * struct study_history, each run's decode values): hist[0] up's m, three runs at
 * 100; hist[1] ours' m, four at 100 then two at 90; hist[2] ours' m2, four at 100
 * and one at 90, then two newer runs with prefill values only; hist[3] the
 * baseline b1, ours' m at 100 and 104. No run has a stored floor. */
static struct run hruns[18];
static struct pool hist[4];
static size_t n_hruns;

static void hist_release(void)
{
	for (size_t i = 0; i < n_hruns; i++)
		run_release(&hruns[i]);
	for (size_t i = 0; i < 4; i++)
		free(hist[i].runs);
	memset(hist, 0, sizeof(hist));
	n_hruns = 0;
}

/* Appends a base run of engine on model started at t with decode values tg and
 * prefill values pp (NULL: none); returns its index. */
static size_t hist_run(const char *engine, const char *role, const char *model, const char *t,
		       const double *tg, size_t n_tg, const double *pp, size_t n_pp)
{
	struct run *r = &hruns[n_hruns];

	fx_run(r, NULL, engine, model);
	r->id = 100 + (int64_t)n_hruns;
	snprintf(r->uuid, sizeof(r->uuid), "h%zu", n_hruns);
	fx_set(&r->role, role);
	fx_set(&r->started_at, t);
	if (tg)
		fx_values(r, RUN_TG, tg, n_tg, NULL);
	if (pp)
		fx_values(r, RUN_PP, pp, n_pp, NULL);
	return n_hruns++;
}

static void trend_input(struct study_input *in)
{
	size_t k, at;

	input_init(in);
	hist_release();
	for (k = 0; k < 3; k++)
		hist_run("up", "upstream", "m", t_hour[k], h100, 3, NULL, 0);
	fx_pool(&hist[0], &hruns[0], 3);
	at = n_hruns;
	for (k = 0; k < 6; k++)
		hist_run("ours", "ours", "m", t_hour[k], k < 4 ? h100 : h90, 3, NULL, 0);
	fx_pool(&hist[1], &hruns[at], 6);
	at = n_hruns;
	for (k = 0; k < 5; k++)
		hist_run("ours", "ours", "m2", t_hour[k], k < 4 ? h100 : h90, 3, NULL, 0);
	for (k = 6; k < 8; k++)
		hist_run("ours", "ours", "m2", t_hour[k], NULL, 0, h100, 3);
	fx_pool(&hist[2], &hruns[at], 7);
	at = n_hruns;
	hist_run("ours", "ours", "m", "2024-12-01T00:00:00Z", b100, 1, NULL, 0);
	hist_run("ours", "ours", "m", "2024-12-02T00:00:00Z", b104, 1, NULL, 0);
	fx_pool(&hist[3], &hruns[at], 2);
	in->hist = hist;
	in->n_hist = 3;
}

/* The longest history: m's ours series (6 runs), unless the models or engines
 * asked for leave it out. Only the runs with a value of the metric count: m2's
 * series holds seven runs, but five decode values; of prefill, only m2 has any. */
static void test_study_trend_longest(void **state)
{
	static const char *const up[] = { "up" };
	static const char *const m2[] = { "m2" };
	struct study_input in;

	(void)state;
	trend_input(&in);
	assert_string_equal(study_trend_longest(&in, NULL, 0, NULL, 0, NULL, STUDY_NULL, STUDY_TG),
			    "m");
	assert_string_equal(study_trend_longest(&in, NULL, 0, m2, 1, NULL, STUDY_NULL, STUDY_TG),
			    "m2");
	assert_string_equal(study_trend_longest(&in, up, 1, NULL, 0, NULL, STUDY_NULL, STUDY_TG),
			    "m");
	assert_null(study_trend_longest(&in, up, 1, m2, 1, NULL, STUDY_NULL, STUDY_TG));
	assert_null(study_trend_longest(&in, NULL, 0, NULL, 0, "ngram", STUDY_NULL, STUDY_TG));
	assert_string_equal(study_trend_longest(&in, NULL, 0, NULL, 0, NULL, STUDY_NULL, STUDY_PP),
			    "m2");
	assert_null(study_trend_longest(&in, up, 1, NULL, 0, NULL, STUDY_NULL, STUDY_PP));
	hist_release();
	runs_release();
}

/* The trend of m: ours before up (the columns' order), x the runs' start in
 * seconds, y their medians; without a baseline a band per segment of the first
 * series; with one, its runs' min..max widened to the parity band. A series'
 * floor is its newest run's stored floor of the metric. */
static void test_study_trend(void **state)
{
	struct study_trend_opts o = { 0 };
	struct study_input in;
	struct study_arena *a = study_arena_new();
	struct study_error err;
	struct plot_trend tr;
	const char *no_band = NULL;
	size_t k;

	(void)state;
	trend_input(&in);
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
	assert_int_equal(tr.metric, STUDY_TG);
	assert_string_equal(tr.model, "m");
	assert_string_equal(tr.spec_type, "");
	assert_true(tr.n_max == STUDY_NULL);
	assert_true(isnan(tr.band_lo));
	assert_int_equal(tr.n_bands, tr.series[0].n_cp + 1);
	NEAR(tr.bands[0].lo, 98);
	NEAR(tr.bands[0].hi, 102);
	assert_string_equal(tr.band_engine, "ours");
	assert_null(tr.baseline);

	/* A decode floor of 3% on ours' newest run widens each segment band to
	 * 2 x 3% (study_segment_bands()); an older run's, or the prefill floor,
	 * plays no part. */
	hruns[3 + 5].floor_pct[RUN_TG] = 3;
	hruns[3 + 5].floor_pct[RUN_PP] = 10;
	hruns[3 + 0].floor_pct[RUN_TG] = 5;
	assert_int_equal(study_trend(&o, &in, a, &tr, &no_band, &err), 0);
	assert_int_equal(tr.n_bands, tr.series[0].n_cp + 1);
	NEAR(tr.bands[0].lo, 94);
	NEAR(tr.bands[0].hi, 106);
	hruns[3 + 5].floor_pct[RUN_TG] = hruns[3 + 5].floor_pct[RUN_PP] = NAN;
	hruns[3 + 0].floor_pct[RUN_TG] = NAN;

	/* A baseline of 100 and 104: min..max, at least mean 102 +/- 2%. */
	in.base = &hist[3];
	in.n_base = 1;
	o.baseline = "b1";
	assert_int_equal(study_trend(&o, &in, a, &tr, &no_band, &err), 0);
	NEAR(tr.band_lo, 102 - 2.04);
	NEAR(tr.band_hi, 104.04);
	assert_string_equal(tr.baseline, "b1");
	assert_int_equal(tr.baseline_runs, 2);
	assert_null(tr.band_engine);
	assert_int_equal(tr.n_bands, 0);
	/* With a 3% floor on the baseline's newest run: mean 102 +/- 6%. */
	hruns[17].floor_pct[RUN_TG] = 3;
	assert_int_equal(study_trend(&o, &in, a, &tr, &no_band, &err), 0);
	NEAR(tr.band_lo, 102 - 6.12);
	NEAR(tr.band_hi, 102 + 6.12);
	hruns[17].floor_pct[RUN_TG] = NAN;
	/* ... which holds no run of m2: no band, and the model to warn about. */
	o.model = "m2";
	assert_int_equal(study_trend(&o, &in, a, &tr, &no_band, &err), 0);
	assert_string_equal(no_band, "m2");
	assert_true(isnan(tr.band_lo));
	assert_int_equal(tr.n_series, 1);
	/* m2's decode trend: its five runs with a decode value, not the two newer
	 * runs without one. */
	assert_int_equal(tr.series[0].n, 5);
	NEAR(tr.series[0].y[4], 90);

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
	hist_release();
	runs_release();
}

/* With figures: the trend of the longest history among the tables' models, one
 * per model, and the parity bars of the verdicts. Was: no parity bars, the old
 * input having no verdicts; the study judges its pools now
 * (test_study_base_cells), so m has one group with a bar for ours and for zz,
 * their decode deltas against up (--ref up, the reference the default was:
 * without it, below, the bars are ours' against zz and up). */
static void test_study_figures(void **state)
{
	struct study_opts o = { 0 };
	struct study_input in;
	struct study s;

	(void)state;
	trend_input(&in);
	o.figures = 1;
	o.ref = "up";
	assert_int_equal(study_build(&o, &in, &s), 0);
	assert_non_null(s.arena);
	assert_string_equal(s.fig.cols[0], "ours");
	assert_string_equal(s.fig.trend_model, "m");
	assert_int_equal(s.fig.trend.n_series, 2);
	assert_int_equal(s.fig.n_models, 1);
	assert_string_equal(s.fig.models[0], "m");
	assert_int_equal(s.fig.model_trends[0].n_series, 2);
	assert_false(s.fig.has_sweep);
	assert_true(s.fig.has_parity);
	assert_int_equal(s.fig.parity.n_groups, 1);
	assert_int_equal(s.fig.parity.n_engines, 2);
	NEAR(s.fig.parity.delta[0], (sqrt(300.0 / 2400) - 1) * 100);
	NEAR(s.fig.parity.delta[1], (25.0 / 40 - 1) * 100);
	assert_int_equal(s.fig.parity.n_spoiled, 0);
	/* No history of prefill for the tables' model m: no prefill trend. */
	assert_null(s.fig.trend_pp_model);
	assert_int_equal(s.fig.trend_pp.n_series, 0);
	study_release(&s);

	/* Without --ref: ours against zz and against up, tg (test_study_ours_cells)
	 * and pp, each bar named by its comparison. up's three runs of m given
	 * prefill values: a prefill trend of m, up's series alone. */
	for (size_t k = 0; k < 3; k++)
		fx_values(&hruns[k], RUN_PP, h100, 3, NULL);
	o.ref = NULL;
	assert_int_equal(study_build(&o, &in, &s), 0);
	assert_true(s.fig.has_parity && s.fig.has_parity_pp);
	assert_int_equal(s.fig.parity.n_engines, 2);
	assert_string_equal(s.fig.parity.engines[0], "zz");
	assert_string_equal(s.fig.parity.engines[1], "up");
	assert_null(s.fig.parity.ref);
	assert_string_equal(s.fig.parity.ours, "ours");
	NEAR(s.fig.parity.delta[0], (10.0 / 25 - 1) * 100);
	NEAR(s.fig.parity.delta[1], (sqrt(300.0 / 2400) - 1) * 100);
	NEAR(s.fig.parity_pp.delta[0], (300.0 / 250 - 1) * 100);
	NEAR(s.fig.parity_pp.delta[1], (sqrt(300.0 * 100 / (400.0 * 500)) - 1) * 100);
	assert_int_equal(s.fig.parity_pp.metric, STUDY_PP);
	assert_null(s.fig.parity_pp.ref);
	assert_string_equal(s.fig.parity_pp.ours, "ours");
	assert_string_equal(s.fig.trend_pp_model, "m");
	assert_int_equal(s.fig.trend_pp.n_series, 1);
	assert_string_equal(s.fig.trend_pp.series[0].label, "up");
	assert_int_equal(s.fig.trend_pp.metric, STUDY_PP);
	assert_string_equal(s.fig.trend_pp.model, "m");
	assert_string_equal(s.fig.trend_pp.spec_type, "");
	assert_true(s.fig.trend_pp.n_max == STUDY_NULL);
	NEAR(s.fig.trend_pp.series[0].y[0], 100);
	/* The decode trend is as it was. */
	assert_string_equal(s.fig.trend_model, "m");
	assert_int_equal(s.fig.trend.n_series, 2);
	study_release(&s);
	hist_release();
	runs_release();
}

/* The sweep of a spec row: each engine's base from the base table, then its
 * rungs; the figure of the speculative runs alone starts at the first rung. */
static void test_study_sweep(void **state)
{
	struct study_opts o = { 0 };
	struct study_input in, rungs;
	struct study s;
	struct study_arena *a = study_arena_new();
	struct study_error err;
	struct plot_sweep sw;

	(void)state;
	spec_input(&in);
	o.figures = 1;
	o.ref = "up"; /* the reference the default was */
	assert_int_equal(study_build(&o, &in, &s), 0);
	assert_true(s.fig.has_sweep);
	assert_int_equal(s.fig.sweep.n_series, 1);
	assert_string_equal(s.fig.sweep.series[0].label, "ours");
	assert_int_equal(s.fig.sweep.series[0].n, 3);
	assert_int_equal(s.fig.sweep.series[0].n_max[0], 0);
	/* The base table's cell, now the estimate's centre against up (was its
	 * median 20: test_study_base_cells). */
	NEAR(s.fig.sweep.series[0].tg[0], sqrt(10.0 * 30));
	assert_int_equal(s.fig.sweep.series[0].n_max[2], 8);
	NEAR(s.fig.sweep.series[0].tg[2], 160);
	NEAR(s.fig.sweep.series[0].accept[1], 23.0 / 30);
	assert_string_equal(s.fig.sweep.model, "m");
	assert_string_equal(s.fig.sweep.spec_type, "ngram");
	study_release(&s);
	/* Without --ref ours' base cell is its centre against zz, the first other
	 * column: prompt 1 alone, 10 (test_study_ours_cells). */
	o.ref = NULL;
	assert_int_equal(study_build(&o, &in, &s), 0);
	NEAR(s.fig.sweep.series[0].tg[0], 10);
	NEAR(s.fig.sweep.series[0].tg[2], 160);
	study_release(&s);

	/* The speculative pools alone (was in->decode without a base run). */
	memset(&rungs, 0, sizeof(rungs));
	rungs.pools = &pools[3];
	rungs.n_pools = 2;
	assert_int_equal(study_sweep(&rungs, NULL, 0, NULL, NULL, a, &sw, &err), 0);
	assert_int_equal(sw.n_series, 1);
	assert_int_equal(sw.series[0].n, 2);
	assert_int_equal(sw.series[0].n_max[0], 4);
	NEAR(sw.series[0].tg[0], 200);
	assert_string_equal(sw.series[0].label, "ours");
	/* With the base pools beside them, the series starts at ours' base rung:
	 * its one run's geometric mean, (10 * 30 * 20)^(1/3). */
	assert_int_equal(study_sweep(&in, NULL, 0, NULL, NULL, a, &sw, &err), 0);
	assert_int_equal(sw.n_series, 1);
	assert_int_equal(sw.series[0].n, 3);
	assert_int_equal(sw.series[0].n_max[0], 0);
	NEAR(sw.series[0].tg[0], cbrt(6000.0));
	NEAR(sw.series[0].tg[1], 200);
	/* The legend names an endpoint as cell_label_endpoint() does: an empty one is
	 * left unsaid, another follows in parentheses. */
	fx_set(&runs[3].endpoint, "");
	fx_set(&runs[4].endpoint, "");
	assert_int_equal(study_sweep(&rungs, NULL, 0, NULL, NULL, a, &sw, &err), 0);
	assert_int_equal(sw.n_series, 1);
	assert_string_equal(sw.series[0].label, "ours");
	fx_set(&runs[3].endpoint, "chat");
	fx_set(&runs[4].endpoint, "chat");
	assert_int_equal(study_sweep(&rungs, NULL, 0, NULL, NULL, a, &sw, &err), 0);
	assert_int_equal(sw.n_series, 1);
	assert_string_equal(sw.series[0].label, "ours (chat)");
	study_arena_free(a);
	runs_release();
}

/* The machines (study_machines.c): up was measured on a, zz and ours on b, and
 * a history holds an ours run on c. The study lists every machine of the runs
 * that match, pools first, with its engines; a and b are used (a cell is
 * theirs), c is not; each base cell names its pool's machine, and each answers
 * row both cells' of its comparison (zz's and the reference up's). */
static void test_study_machines(void **state)
{
	struct study_opts o = { 0 };
	struct study_input in;
	struct study s;
	struct run h;
	struct pool hp;
	const char *m[3] = { "a", "b", "b" };

	(void)state;
	input_init(&in);
	for (size_t i = 0; i < 3; i++) {
		fx_set(&runs[i].host, m[i]);
		fx_set(&runs[i].machine, m[i]);
	}
	memset(&h, 0, sizeof(h));
	base_run(&h, 9, UUID(9), "ours", "ours", "m", NULL, pp_ours, 3, tg_ours, 3);
	fx_set(&h.host, "c");
	fx_set(&h.machine, "c");
	fx_pool(&hp, &h, 1);
	in.hist = &hp;
	in.n_hist = 1;
	o.ref = "up";
	assert_int_equal(study_build(&o, &in, &s), 0);
	assert_int_equal(s.n_machines, 3);
	assert_string_equal(s.machines[0].machine, "a");
	assert_true(s.machines[0].used);
	assert_int_equal(s.machines[0].n_engines, 1);
	assert_string_equal(s.machines[0].engines[0], "up");
	assert_string_equal(s.machines[1].machine, "b");
	assert_true(s.machines[1].used);
	assert_int_equal(s.machines[1].n_engines, 2);
	assert_string_equal(s.machines[1].engines[0], "zz");
	assert_string_equal(s.machines[1].engines[1], "ours");
	assert_string_equal(s.machines[2].machine, "c");
	assert_false(s.machines[2].used);
	/* Columns ours, zz, up: each cell its own pool's machine. */
	assert_int_equal(s.base[0].cells[1].n_machines, 1);
	assert_string_equal(s.base[0].cells[1].machines[0], "b");
	assert_string_equal(s.base[0].cells[2].machines[0], "a");
	assert_int_equal(s.n_base_machines, 2);
	assert_true(s.n_rows > 0);
	for (size_t i = 0; i < s.n_rows; i++) {
		assert_int_equal(s.rows[i].n_machines, 2);
		assert_string_equal(s.rows[i].machines[0], "b");
		assert_string_equal(s.rows[i].machines[1], "a");
	}
	/* zz's comparison with the reference, both metrics. */
	assert_int_equal(s.answers[2 * 1].n_machines, 2);
	assert_string_equal(s.answers[2 * 1 + 1].machines[1], "a");
	study_release(&s);
	free(hp.runs);
	run_release(&h);
	runs_release();
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
		cmocka_unit_test(test_study_ours_cells),
		cmocka_unit_test(test_study_spoiled),
		cmocka_unit_test(test_study_base_medians),
		cmocka_unit_test(test_study_errors),
		cmocka_unit_test(test_study_spec_prompts),
		cmocka_unit_test(test_study_quality),
		cmocka_unit_test(test_study_segment_bands),
		cmocka_unit_test(test_study_trend_longest),
		cmocka_unit_test(test_study_trend),
		cmocka_unit_test(test_study_figures),
		cmocka_unit_test(test_study_sweep),
		cmocka_unit_test(test_study_labels),
		cmocka_unit_test(test_study_machines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
