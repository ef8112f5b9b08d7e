/* test_parity.c: analyze/parity.c's decision alone over plain structs (pairing,
 * refusals, forcing, notes, verdicts), the same over a store through
 * schema/pair_load.c (the stored noise floor, flagged samples, tags), the words of
 * reports/parity.c, and the series (analyze/series.c: assembly, shape, gaps) over a
 * migrated ":memory:" store filled through store_run_insert/store_sample_insert,
 * plus the acceptance and flag-count queries added to schema/cells.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/parity.h"
#include "analyze/series.h"
#include "reports/parity.h"
#include "reports/sweep_text.h"
#include "schema/cells.h"
#include "schema/noise.h"
#include "schema/pair_load.h"
#include "schema/record.h"
#include "schema/report_load.h"
#include "schema/series_load.h"
#include "schema/store.h"
#include "tpsdb.h"

#define N_PROMPTS 6
#define N_REPS 2
#define N_SAMPLES (N_PROMPTS * N_REPS)

/* One run to insert: config plus centre values; samples spread by a fixed pattern
 * of +-0.2% so that verdicts have a variance. */
struct spec {
	const char *engine, *role, *model, *sha, *spec_type, *tag, *started;
	int64_t n_max, n_predict;
	double pp, tg;
	double tpc;        /* tokens per verify cycle; 0: no drafting */
	int no_floor;      /* 1: store no A/A floor for the run's cell */
	unsigned flags[N_SAMPLES];
};

static int setup(void **state)
{
	struct store *s = store_open(":memory:", 0);

	if (!s)
		return -1;
	*state = s;
	return 0;
}

/* The set the last compare() loaded: the result's notes borrow from it. */
static struct pair_set loaded;

static int teardown(void **state)
{
	pair_set_release(&loaded);
	store_close(*state);
	return 0;
}

/* Load (schema) then decide (analyze), as 'tpsdb compare' does. */
static int compare(struct store *s, const struct parity_opts *po, struct parity_result *res)
{
	pair_set_release(&loaded);
	memset(res, 0, sizeof(*res));
	if (store_pair_load(s, po, &loaded) < 0)
		return -1;
	return parity_decide(&loaded.in, po, res);
}

/* The text of note i, in a static buffer. */
static const char *note_text(const struct parity_result *res, size_t i)
{
	static char buf[512];
	char *t = parity_note_text(&res->notes[i]);

	snprintf(buf, sizeof(buf), "%s", t);
	free(t);
	return buf;
}

static const double wiggle[N_SAMPLES] = { 0.2, -0.1, 0.0, 0.15, -0.2, 0.05,
					  -0.05, 0.1, -0.15, 0.2, 0.0, -0.1 };

static int64_t add_run(struct store *s, const struct spec *sp, char *uuid_out)
{
	struct run_rec r;
	int64_t id;
	int i;

	run_rec_init(&r);
	assert_int_equal(tps_uuid4(r.uuid, sizeof(r.uuid)), 0);
	r.started_at = tps_xstrdup(sp->started);
	r.status = tps_xstrdup("complete");
	r.source = tps_xstrdup("import");
	r.host.name = tps_xstrdup("h200");
	r.engine.label = tps_xstrdup(sp->engine);
	r.engine.role = tps_xstrdup(sp->role ? sp->role : "other");
	r.model.label = tps_xstrdup(sp->model);
	r.model.sha256 = tps_xstrdup(sp->sha ? sp->sha : "");
	r.ctx = 8192;
	r.n_predict = sp->n_predict ? sp->n_predict : 256;
	r.n_max = sp->n_max ? sp->n_max : TPS_NULL;
	r.endpoint = tps_xstrdup("completion");
	r.spec_type = tps_xstrdup(sp->spec_type ? sp->spec_type : "");
	r.tag = tps_xstrdup(sp->tag ? sp->tag : "");
	assert_int_equal(store_begin(s), 0);
	id = store_run_insert(s, &r);
	assert_true(id > 0);
	for (i = 0; i < N_SAMPLES; i++) {
		struct sample_rec m;
		char name[32];
		double f = 1 + wiggle[i] / 100;

		sample_rec_init(&m);
		snprintf(name, sizeof(name), "p%d", i / N_REPS);
		m.prompt_name = tps_xstrdup(name);
		sha256_hex(name, strlen(name), m.prompt_hash);
		m.rep = i % N_REPS + 1;
		m.seq = i + 1;
		m.cache_n = 0;
		m.prompt_n = 2048;
		m.prompt_per_second = sp->pp * f;
		m.prompt_ms = 2048 / m.prompt_per_second * 1000;
		m.predicted_n = 256;
		m.predicted_per_second = sp->tg * f;
		m.predicted_ms = 256 / m.predicted_per_second * 1000;
		if (sp->tpc > 0) {
			int64_t cycles = (int64_t)llround(256 / sp->tpc);
			m.draft_n = cycles * sp->n_max;
			m.draft_n_accepted = 256 - cycles;
		}
		m.http_status = 200;
		m.flags = sp->flags[i];
		assert_int_equal(store_sample_insert(s, id, &m), 0);
		sample_rec_release(&m);
	}
	assert_int_equal(store_run_finish(s, id, "complete", NULL, NULL), 0);
	/* One run a side decides only with a stored A/A floor: a small one, so that
	 * the rules under test are the band's (tests that store their own floor
	 * store it later, and the newest floor of a cell is the one used). */
	if (!sp->no_floor) {
		static const char *const metrics[2] = { "pp", "tg" };
		for (i = 0; i < 2; i++) {
			struct noise_rec nr = { 0 };
			nr.run_a = nr.run_b = r.uuid;
			nr.metric = metrics[i];
			nr.noise_pct = 0.01;
			nr.n_pairs = N_SAMPLES;
			assert_int_equal(store_noise_put(s, &nr), 0);
		}
	}
	assert_int_equal(store_commit(s), 0);
	if (uuid_out)
		memcpy(uuid_out, r.uuid, sizeof(r.uuid));
	run_rec_release(&r);
	return id;
}

static const struct parity_row *row_of(const struct parity_result *res, const char *metric)
{
	size_t i;

	for (i = 0; i < res->n_rows; i++)
		if (!strcmp(res->rows[i].metric, metric))
			return &res->rows[i];
	return NULL;
}

static void test_parity_pair_merge_join(void **state)
{
	/* Keys (prompt, rep): a lacks (2,1), b lacks (1,2) and (3,1). */
	static const struct parity_value a[] = { { 1, 1, 10 }, { 1, 2, 11 }, { 2, 2, 12 }, { 3, 1, 13 } };
	static const struct parity_value b[] = { { 1, 1, 20 }, { 2, 1, 21 }, { 2, 2, 22 } };
	static const struct {
		size_t na, nb, n, unpaired;
	} cases[] = {
		{ 4, 3, 2, 3 },
		{ 0, 3, 0, 3 },
		{ 4, 0, 0, 4 },
		{ 1, 1, 1, 0 },
	};
	size_t c;

	(void)state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		double *x = NULL, *y = NULL;
		size_t n = 99, lost = 99;

		parity_pair(a, cases[c].na, b, cases[c].nb, &x, &y, &n, &lost);
		assert_int_equal(n, cases[c].n);
		assert_int_equal(lost, cases[c].unpaired);
		if (c == 0) {
			assert_true(x[0] == 10 && y[0] == 20);
			assert_true(x[1] == 12 && y[1] == 22);
		}
		if (!n)
			assert_null(x);
		free(x);
		free(y);
	}
}

static void test_parity_mismatch_table(void **state)
{
	static const struct {
		const char *sha_a, *sha_b, *set_a, *set_b;
		int64_t ctx_b, np_b;
		const char *ep_b, *want; /* NULL: comparable */
	} cases[] = {
		{ "aa", "aa", "s", "s", 8192, 256, "completion", NULL },
		{ "aa", "", "s", "s", 8192, 256, "completion", NULL },       /* one unknown */
		{ "aa", "bb", "s", "s", 8192, 256, "completion", "model sha256 differs (aa vs bb)" },
		{ "", "", "s", "s", 4096, 256, "completion", "ctx differs (8192 vs 4096)" },
		{ "", "", "s", "s", TPS_NULL, 256, "completion", NULL },
		{ "", "", "s", "s", 8192, 128, "completion", "n_predict differs (256 vs 128)" },
		{ "", "", "s", "s", 8192, 256, "chat", "endpoint differs (completion vs chat)" },
		{ "", "", "s1", "s2", 8192, 256, "completion", "prompt set differs (s1 vs s2)" },
		{ "", "", "s1", "", 8192, 256, "completion", NULL },
	};
	size_t c;

	(void)state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct parity_side a = { 0 }, b = { 0 };
		struct parity_diff d;
		char why[160];

		a.model_sha256 = cases[c].sha_a;
		b.model_sha256 = cases[c].sha_b;
		a.prompt_set = cases[c].set_a;
		b.prompt_set = cases[c].set_b;
		a.ctx = 8192;
		b.ctx = cases[c].ctx_b;
		a.n_predict = 256;
		b.n_predict = cases[c].np_b;
		a.endpoint = "completion";
		b.endpoint = cases[c].ep_b;
		assert_int_equal(parity_mismatch(&a, &b, &d), cases[c].want != NULL);
		parity_diff_text(&d, why, sizeof(why));
		assert_string_equal(why, cases[c].want ? cases[c].want : "");
	}
}

/* Plain-struct input for parity_decide(): no store. Ours measured cells 0 (m
 * base), 1 (m n_max=2) and 2 (m n_max=3); vs measured cell 0 and 1 and a cell of m
 * on chat that ours lacks. */
static const struct parity_value pure_ours[] = { { 1, 1, 97 }, { 1, 2, 97.2 }, { 2, 1, 96.8 },
						  { 2, 2, 97.1 }, { 3, 1, 96.9 }, { 3, 2, 97 } };
static const struct parity_value pure_vs[] = { { 1, 1, 100 }, { 1, 2, 100.2 }, { 2, 1, 99.8 },
						{ 2, 2, 100.1 }, { 3, 1, 99.9 }, { 3, 2, 100 } };

static void pure_input(struct parity_side *ours, struct parity_side *vs, struct parity_cell *cells,
		       struct parity_input *in, const char *vs_sha)
{
	static const struct parity_side base = { .uuid = "u", .model = "m", .spec_type = "",
						 .endpoint = "completion", .n_max = TPS_NULL,
						 .ctx = 8192, .n_predict = 256 };
	size_t i;
	int m;

	for (i = 0; i < 3; i++) {
		ours[i] = base;
		ours[i].uuid = "ours-run";
		ours[i].model_sha256 = "aaaa";
		if (i) {
			ours[i].spec_type = "draft";
			ours[i].n_max = (int64_t)i + 1;
		}
	}
	vs[0] = ours[0];
	vs[1] = ours[1];
	vs[0].uuid = vs[1].uuid = "vs-run";
	vs[1].model_sha256 = vs_sha;
	vs[2] = base;
	vs[2].endpoint = "chat";
	memset(cells, 0, 2 * sizeof(*cells));
	for (i = 0; i < 2; i++) {
		cells[i].ours = i;
		cells[i].vs = i;
		for (m = 0; m < PARITY_N_METRICS; m++) {
			cells[i].ours_values[m].v = pure_ours;
			cells[i].ours_values[m].n = 6;
			cells[i].ours_values[m].excluded = 1;
			cells[i].vs_values[m].v = pure_vs;
			cells[i].vs_values[m].n = 5; /* (3,2) has no partner */
			cells[i].noise_pct[m] = NAN;
		}
	}
	cells[0].noise_pct[PARITY_METRIC_TG] = 2.0; /* 2 x 2% covers the 3% gap */
	in->ours = ours;
	in->n_ours = 3;
	in->vs = vs;
	in->n_vs = 3;
	in->cells = cells;
	in->n_cells = 2;
}

static void test_parity_decide_pure(void **state)
{
	struct parity_side ours[3], vs[3];
	struct parity_cell cells[2];
	struct parity_input in;
	struct parity_opts po;
	struct parity_result res;
	char why[160];

	(void)state;
	parity_opts_init(&po);
	po.ours = "ours";
	po.vs = "ref";

	/* Comparable: 4 rows, pp before tg, cell order; the floor widens cell 0's tg. */
	pure_input(ours, vs, cells, &in, "aaaa");
	assert_int_equal(parity_decide(&in, &po, &res), 0);
	assert_int_equal(res.stop, PARITY_STOP_NONE);
	assert_int_equal(res.n_rows, 4);
	assert_string_equal(res.rows[0].metric, "pp");
	assert_string_equal(res.rows[1].metric, "tg");
	/* One instance a side and no floor: -3%, shown, not decided. */
	assert_int_equal(res.rows[0].v.kind, VERDICT_UNDECIDED);
	assert_int_equal(res.rows[0].v.regression, VERDICT_REG_UNDECIDED);
	assert_int_equal(res.rows[0].reason, ESTIMATE_REASON_ONE_INSTANCE);
	/* The 2% floor widens the interval in quadrature: still open. */
	assert_int_equal(res.rows[1].v.kind, VERDICT_UNDECIDED);
	assert_int_equal(res.rows[1].v.bound, VERDICT_BOUND_NOISE);
	assert_int_equal(res.rows[1].reason, ESTIMATE_REASON_NONE);
	assert_true(res.rows[1].v.mde_pct > 2 * 1.6);
	assert_true(isnan(res.rows[0].noise_pct));
	/* The centres: geometric means over the five keys both hold. */
	assert_true(fabs(res.rows[0].ours_median - exp((log(97) + log(97.2) + log(96.8) +
							log(97.1) + log(96.9)) / 5)) < 1e-9);
	assert_true(fabs(res.rows[0].vs_median - exp((log(100) + log(100.2) + log(99.8) +
						      log(100.1) + log(99.9)) / 5)) < 1e-9);
	assert_int_equal(res.rows[0].v.n_pairs, 1);
	assert_int_equal(res.rows[0].unpaired, 1);
	assert_int_equal(res.rows[0].excluded_ours, 1);
	assert_int_equal(res.rows[2].n_max, 2);
	assert_string_equal(res.rows[0].ours_run, "ours-run");
	assert_string_equal(res.rows[0].vs_run, "vs-run");
	assert_int_equal(res.rows[0].forced, 0);
	/* Ours' n_max=3 and vs' chat cell are lone: both sides measured model m. */
	assert_int_equal(res.n_notes, 2);
	assert_int_equal(res.notes[0].kind, PARITY_NOTE_LONE);
	assert_ptr_equal(res.notes[0].cell, &ours[2]);
	assert_string_equal(res.notes[0].missing, "ref");
	assert_string_equal(note_text(&res, 0), "cell 'm [draft n_max=3]': no run of 'ref' to "
						"compare with");
	assert_ptr_equal(res.notes[1].cell, &vs[2]);
	assert_string_equal(res.notes[1].missing, "ours");
	assert_string_equal(note_text(&res, 1), "cell 'm (chat)': no run of 'ours' to compare with");
	parity_result_release(&res);

	/* Another GGUF in cell 1: refused, with the cell and the reason in the result. */
	pure_input(ours, vs, cells, &in, "bbbb");
	assert_int_equal(parity_decide(&in, &po, &res), -1);
	assert_int_equal(res.stop, PARITY_STOP_REFUSED);
	assert_ptr_equal(res.stop_cell, &ours[1]);
	assert_int_equal(res.stop_diff.kind, PARITY_DIFF_SHA256);
	parity_diff_text(&res.stop_diff, why, sizeof(why));
	assert_string_equal(why, "model sha256 differs (aaaa vs bbbb)");
	parity_result_release(&res);

	/* Forced: judged anyway, its rows marked, a FORCED note in order. */
	po.force = 1;
	po.metrics = PARITY_TG;
	assert_int_equal(parity_decide(&in, &po, &res), 0);
	assert_int_equal(res.n_rows, 2);
	assert_int_equal(res.rows[0].forced, 0);
	assert_int_equal(res.rows[1].forced, 1);
	assert_int_equal(res.n_notes, 3);
	assert_int_equal(res.notes[0].kind, PARITY_NOTE_FORCED);
	assert_string_equal(note_text(&res, 0), "FORCED comparison of cell 'm [draft n_max=2]' "
						"although model sha256 differs (aaaa vs bbbb)");
	parity_result_release(&res);

	/* A band that is not a number >= 0 stops it too. */
	po.band_pct = -1;
	assert_int_equal(parity_decide(&in, &po, &res), -1);
	assert_int_equal(res.stop, PARITY_STOP_BAD_PARAMS);
	parity_result_release(&res);
}

static void test_parity_dense_at_parity(void **state)
{
	struct store *s = *state;
	struct spec o = { .engine = "ours", .role = "ours", .model = "dense", .pp = 13150,
			  .tg = 142.6, .started = "2026-01-01T00:00:00Z" };
	struct spec v = { .engine = "llama.cpp", .role = "upstream", .model = "dense", .pp = 13280,
			  .tg = 143.9, .started = "2026-01-01T01:00:00Z" };
	struct parity_opts po;
	struct parity_result res;
	const struct parity_row *pp, *tg;
	char uo[40], uv[40];

	add_run(s, &o, uo);
	add_run(s, &v, uv);
	parity_opts_init(&po);
	po.ours = "ours";
	po.vs = "llama.cpp";
	assert_int_equal(compare(s, &po, &res), 0);
	assert_int_equal(res.n_rows, 2);
	assert_int_equal(res.n_notes, 0);
	pp = row_of(&res, "pp");
	tg = row_of(&res, "tg");
	assert_non_null(pp);
	assert_non_null(tg);
	assert_int_equal(pp->v.kind, VERDICT_PARITY);
	assert_int_equal(tg->v.kind, VERDICT_PARITY);
	assert_true(pp->v.significant && tg->v.significant);
	assert_true(fabs(pp->v.delta_pct - (13150.0 / 13280 - 1) * 100) < 1e-6);
	assert_int_equal(pp->v.regression, VERDICT_REG_NO);
	assert_int_equal(pp->v.n_pairs, 1);
	assert_int_equal(pp->unpaired, 0);
	assert_int_equal(pp->v.bound, VERDICT_BOUND_NOISE); /* add_run's small floor */
	assert_string_equal(pp->ours_run, uo);
	assert_string_equal(pp->vs_run, uv);
	assert_int_equal(pp->forced, 0);
	parity_result_release(&res);
	parity_result_release(&res); /* released twice is harmless */
}

/* (g): a 3% slowdown is "slower" and a regression against the 2% band with a
 * small floor; a 2.5% A/A floor widens the one instance pair's interval until
 * it decides neither. The band stays the band. */
static void test_parity_noise_floor_widens_band(void **state)
{
	struct store *s = *state;
	struct spec o = { .engine = "ours", .role = "ours", .model = "moe", .pp = 9700,
			  .tg = 97, .started = "2026-01-01T00:00:00Z" };
	struct spec v = { .engine = "llama.cpp", .role = "upstream", .model = "moe", .pp = 10000,
			  .tg = 100, .started = "2026-01-01T01:00:00Z" };
	struct spec aa = v;
	struct noise_rec nr = { 0 };
	struct parity_opts po;
	struct parity_result res;
	char uv[40], ua[40];

	add_run(s, &o, NULL);
	add_run(s, &v, uv);
	parity_opts_init(&po);
	po.ours = "ours";
	po.vs = "llama.cpp";
	po.metrics = PARITY_TG;
	assert_int_equal(compare(s, &po, &res), 0);
	assert_int_equal(res.n_rows, 1);
	assert_int_equal(res.rows[0].v.kind, VERDICT_SLOWER);
	assert_int_equal(res.rows[0].v.regression, VERDICT_REG_YES);
	parity_result_release(&res);

	/* An A/A pair of another engine: the floor belongs to the cell, and an older
	 * run is not picked as the latest. */
	aa.engine = "aa";
	aa.started = "2025-12-31T00:00:00Z";
	add_run(s, &aa, ua);
	nr.run_a = ua;
	nr.run_b = ua;
	nr.metric = "tg";
	nr.noise_pct = 2.5;
	nr.n_pairs = 12;
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_noise_put(s, &nr), 0);
	assert_int_equal(store_commit(s), 0);
	assert_int_equal(compare(s, &po, &res), 0);
	assert_int_equal(res.rows[0].v.kind, VERDICT_UNDECIDED);
	assert_int_equal(res.rows[0].v.regression, VERDICT_REG_UNDECIDED);
	assert_int_equal(res.rows[0].v.bound, VERDICT_BOUND_NOISE);
	assert_true(fabs(res.rows[0].v.band_pct - 2.0) < 1e-9);
	assert_true(res.rows[0].v.ci_lo_pct < -5 && res.rows[0].v.ci_hi_pct > 0);
	assert_true(fabs(res.rows[0].noise_pct - 2.5) < 1e-9);
	parity_result_release(&res);
}

/* (e): another GGUF or another n_predict is refused; force compares and warns. */
static void test_parity_refuse_and_force(void **state)
{
	struct store *s = *state;
	struct spec o = { .engine = "ours", .model = "m", .sha = "aaaa", .pp = 100, .tg = 10,
			  .started = "2026-01-01T00:00:00Z" };
	struct spec v = { .engine = "ref", .model = "m", .sha = "bbbb", .pp = 100, .tg = 10,
			  .started = "2026-01-01T01:00:00Z" };
	struct spec w = { .engine = "ref2", .model = "m", .n_predict = 128, .pp = 100, .tg = 10,
			  .started = "2026-01-01T02:00:00Z" };
	struct parity_opts po;
	struct parity_result res;

	add_run(s, &o, NULL);
	add_run(s, &v, NULL);
	add_run(s, &w, NULL);
	parity_opts_init(&po);
	po.ours = "ours";
	po.vs = "ref";
	assert_int_equal(compare(s, &po, &res), -1);
	parity_result_release(&res);
	po.force = 1;
	assert_int_equal(compare(s, &po, &res), 0);
	assert_int_equal(res.n_rows, 2);
	assert_int_equal(res.rows[0].forced, 1);
	assert_int_equal(res.n_notes, 1);
	assert_non_null(strstr(note_text(&res, 0), "FORCED"));
	assert_non_null(strstr(note_text(&res, 0), "model sha256 differs"));
	parity_result_release(&res);
	po.force = 0;
	po.vs = "ref2";
	assert_int_equal(compare(s, &po, &res), -1);
	parity_result_release(&res);
}

/* (f): flags spoil one metric each; the spoiled samples are counted, not paired. */
static void test_parity_flagged_excluded(void **state)
{
	struct store *s = *state;
	struct spec o = { .engine = "ours", .model = "m", .pp = 100, .tg = 10,
			  .started = "2026-01-01T00:00:00Z",
			  .flags = { [1] = SAMPLE_CACHED, [4] = SAMPLE_CACHED, [7] = SAMPLE_TRUNCATED,
				     [9] = SAMPLE_FAILED } };
	struct spec v = { .engine = "ref", .model = "m", .pp = 100, .tg = 10,
			  .started = "2026-01-01T01:00:00Z", .flags = { [0] = SAMPLE_COLD } };
	struct parity_opts po;
	struct parity_result res;
	const struct parity_row *pp, *tg;

	add_run(s, &o, NULL);
	add_run(s, &v, NULL);
	parity_opts_init(&po);
	po.ours = "ours";
	po.vs = "ref";
	assert_int_equal(compare(s, &po, &res), 0);
	pp = row_of(&res, "pp");
	tg = row_of(&res, "tg");
	assert_int_equal(pp->excluded_ours, 3); /* 2 cached + 1 failed */
	assert_int_equal(pp->excluded_vs, 1);   /* cold start */
	assert_int_equal(pp->v.n_pairs, 1);
	assert_int_equal(pp->unpaired, 4);
	assert_int_equal(tg->excluded_ours, 2); /* truncated + failed */
	assert_int_equal(tg->excluded_vs, 0);
	assert_int_equal(tg->unpaired, 2);
	parity_result_release(&res);
}

/* Tags pick runs per side; the default is the latest run of each cell. */
static void test_parity_tags_pick_runs(void **state)
{
	struct store *s = *state;
	struct spec o1 = { .engine = "ours", .model = "m", .tag = "old", .pp = 50, .tg = 5,
			   .started = "2026-01-01T00:00:00Z" };
	struct spec o2 = { .engine = "ours", .model = "m", .tag = "new", .pp = 100, .tg = 10,
			   .started = "2026-01-02T00:00:00Z" };
	struct spec v = { .engine = "ref", .model = "m", .tag = "new", .pp = 100, .tg = 10,
			  .started = "2026-01-01T01:00:00Z" };
	struct spec x = { .engine = "ref", .model = "other", .pp = 1, .tg = 1,
			  .started = "2026-01-01T01:00:00Z" };
	struct parity_opts po;
	struct parity_result res;
	char u1[40], u2[40];

	add_run(s, &o1, u1);
	add_run(s, &o2, u2);
	add_run(s, &v, NULL);
	add_run(s, &x, NULL);
	parity_opts_init(&po);
	po.ours = "ours";
	po.vs = "ref";
	po.metrics = PARITY_TG;
	assert_int_equal(compare(s, &po, &res), 0);
	assert_int_equal(res.n_rows, 1);
	assert_string_equal(res.rows[0].ours_run, u2);
	assert_int_equal(res.rows[0].v.kind, VERDICT_PARITY);
	assert_int_equal(res.n_notes, 0); /* 'other' was never measured by ours */
	parity_result_release(&res);
	po.ours_tag = "old";
	assert_int_equal(compare(s, &po, &res), 0);
	assert_string_equal(res.rows[0].ours_run, u1);
	assert_int_equal(res.rows[0].v.kind, VERDICT_SLOWER);
	parity_result_release(&res);
	po.vs_tag = "nope";
	assert_int_equal(compare(s, &po, &res), 0);
	assert_int_equal(res.n_rows, 0);
	parity_result_release(&res);
}

static void test_parity_cell_name(void **state)
{
	char buf[128];

	(void)state;
	parity_cell_name("m", "", TPS_NULL, "completion", buf, sizeof(buf));
	assert_string_equal(buf, "m");
	parity_cell_name("m", "draft", 3, "chat", buf, sizeof(buf));
	assert_string_equal(buf, "m [draft n_max=3] (chat)");
	parity_cell_name("m", "draft", TPS_NULL, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "m [draft base]");
	parity_cell_name("model", "", TPS_NULL, "", buf, 3);
	assert_string_equal(buf, "mo");
}

/* (c), (h): ours 150, 190, 230.7, 156.7 against upstream 150, 185, 205, 212 at the same
 * tokens per cycle. */
static void add_sweep(struct store *s, const char *engine, const double *tg, const char *base_spec)
{
	static const double tpc[4] = { 0, 1.8, 2.4, 2.8 };
	int n;

	for (n = 0; n < 4; n++) {
		struct spec sp = { .engine = engine, .role = !strcmp(engine, "ours") ? "ours" : "upstream",
				   .model = "q8", .spec_type = n ? "draft" : base_spec, .n_max = n,
				   .pp = 12000, .tg = tg[n], .tpc = tpc[n],
				   .started = "2026-01-01T00:00:00Z" };
		add_run(s, &sp, NULL);
	}
}

/* Loads and assembles the series as the commands do. */
static int series_load(struct store *s, const struct cell_filter *f, double tolerance_pct,
		       struct series_set *set)
{
	struct store_decode *runs = NULL;
	struct series_run *view = NULL;
	size_t n = 0;
	int ret = -1;

	memset(set, 0, sizeof(*set));
	if (store_load_decode(s, f, &runs, &n) == 0) {
		view = report_series_runs(runs, n);
		ret = series_assemble(view, n, tolerance_pct, set);
	}
	free(view);
	store_decode_free(runs, n);
	return ret;
}

/* The gap at n_max and its sentence; "" when there is none. */
static int gap_text(const struct series *ours, const struct series *ref, int64_t n_max,
		    struct sweep_gap *gap, char *buf, size_t len)
{
	buf[0] = '\0';
	if (series_gap(ours, ref, n_max, gap) < 0)
		return -1;
	return sweep_text_gap(gap, ours->engine, ref->engine, buf, len);
}

static void test_series_load_shape_gap(void **state)
{
	static const double ours[4] = { 150, 190, 230.7, 156.7 };
	static const double up[4] = { 150, 185, 205, 212 };
	struct store *s = *state;
	struct cell_filter f = { 0 };
	double tol = SWEEP_TOLERANCE_PCT;
	struct series_set set;
	const struct series *so, *su;
	struct sweep_step *steps = NULL;
	struct sweep_gap gap;
	size_t n = 0;
	char msg[512];

	add_sweep(s, "ours", ours, "");
	add_sweep(s, "upstream", up, "");
	assert_int_equal(series_load(s, &f, tol, &set), 0);
	assert_int_equal(set.n, 2);
	so = &set.v[0];
	su = &set.v[1];
	assert_string_equal(so->engine, "ours");
	assert_string_equal(su->engine, "upstream");
	assert_string_equal(so->spec_type, "draft");
	assert_int_equal(so->n_rungs, 4);
	assert_true(so->rungs[0].n_max == TPS_NULL);
	assert_int_equal(so->rungs[3].n_max, 3);
	assert_true(fabs(so->rungs[2].rung.tg - 230.7) < 0.5);
	assert_true(fabs(so->rungs[2].point.speedup - 230.7 / 150) < 0.01);
	assert_true(fabs(so->rungs[1].point.tokens_per_cycle - 1.8) < 0.01);
	assert_int_equal(so->report.n_violations, 1);
	assert_int_equal(so->report.violations[0].from_n_max, 2);
	assert_int_equal(so->report.violations[0].to_n_max, 3);
	assert_int_equal(su->report.n_violations, 0);
	assert_int_equal(series_find(so, TPS_NULL), 0);
	assert_int_equal(series_find(so, 2), 2);
	assert_int_equal(series_find(so, 7), -1);

	assert_int_equal(series_shape(so, su, SWEEP_TOLERANCE_PCT, &steps, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(steps[0].to_n_max, 3);
	assert_true(steps[0].ref_change_pct > 3 && steps[0].ref_change_pct < 4);
	free(steps);
	assert_int_equal(series_shape(su, so, SWEEP_TOLERANCE_PCT, &steps, &n), 0);
	assert_int_equal(n, 0);
	assert_null(steps);

	assert_int_equal(gap_text(so, su, 3, &gap, msg, sizeof(msg)), 0);
	assert_true(fabs(gap.tpc_pct) < SWEEP_EQUAL_PCT);
	assert_true(gap.cost_pct > 30);
	/* One run a rung: the decomposition is computed, but no sentence names a
	 * side or a cause. */
	assert_non_null(strstr(msg, "decides nothing"));
	assert_null(strstr(msg, "ours decodes"));
	assert_null(strstr(msg, "host overhead"));
	assert_int_equal(gap_text(so, su, 9, &gap, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "");
	series_set_release(&set);
	series_set_release(&set);

	/* --engine narrows; a filter that matches nothing gives no series. */
	f.engine = "upstream";
	assert_int_equal(series_load(s, &f, tol, &set), 0);
	assert_int_equal(set.n, 1);
	series_set_release(&set);
	f.engine = "nobody";
	assert_int_equal(series_load(s, &f, tol, &set), 0);
	assert_int_equal(set.n, 0);
	series_set_release(&set);
	f.engine = NULL;
	tol = -1;
	assert_int_equal(series_load(s, &f, tol, &set), -1);
	series_set_release(&set);
}

/* A base run tagged with the series' own spec type wins over a plain one. */
static void test_series_base_prefers_spec_type(void **state)
{
	struct store *s = *state;
	struct spec plain = { .engine = "e", .model = "m", .tg = 100, .pp = 1000,
			      .started = "2026-01-01T00:00:00Z" };
	struct spec own = { .engine = "e", .model = "m", .spec_type = "ngram", .tg = 120,
			    .pp = 1000, .started = "2026-01-01T00:00:00Z" };
	struct spec r1 = { .engine = "e", .model = "m", .spec_type = "ngram", .n_max = 1,
			   .tg = 150, .pp = 1000, .tpc = 1.5, .started = "2026-01-01T00:00:00Z" };
	struct spec r2 = { .engine = "e", .model = "m", .spec_type = "draft", .n_max = 1,
			   .tg = 150, .pp = 1000, .tpc = 1.5, .started = "2026-01-01T00:00:00Z" };
	struct cell_filter f = { 0 };
	struct series_set set;

	add_run(s, &plain, NULL);
	add_run(s, &own, NULL);
	add_run(s, &r1, NULL);
	add_run(s, &r2, NULL);
	assert_int_equal(series_load(s, &f, SWEEP_TOLERANCE_PCT, &set), 0);
	assert_int_equal(set.n, 2);
	assert_string_equal(set.v[0].spec_type, "draft");
	assert_true(fabs(set.v[0].rungs[0].rung.tg - 100) < 0.5);
	assert_string_equal(set.v[1].spec_type, "ngram");
	assert_true(fabs(set.v[1].rungs[0].rung.tg - 120) < 0.5);
	assert_true(fabs(set.v[1].rungs[1].point.speedup - 1.25) < 0.01);
	series_set_release(&set);
}

static void test_cells_accept_and_flags(void **state)
{
	struct store *s = *state;
	struct spec sp = { .engine = "e", .model = "m", .spec_type = "draft", .n_max = 2,
			   .tg = 100, .pp = 1000, .tpc = 2.4, .started = "2026-01-01T00:00:00Z",
			   .flags = { [0] = SAMPLE_TRUNCATED, [3] = SAMPLE_CACHED | SAMPLE_COLD } };
	struct cell_value *v = NULL;
	size_t n = 0, bad = 0;
	int64_t counts[5], total = 0;
	int64_t id = add_run(s, &sp, NULL);

	assert_int_equal(store_cell_accept_values(s, id, &v, &n, &bad), 0);
	assert_int_equal(n, N_SAMPLES - 1); /* the truncated one spoils decode */
	assert_int_equal(bad, 1);
	assert_true(fabs(v[0].value - (256.0 - 107) / (107 * 2)) < 1e-9);
	free(v);
	assert_int_equal(store_cell_flag_counts(s, id, counts, 5, &total), 0);
	assert_int_equal(total, N_SAMPLES);
	assert_int_equal(counts[0], 1);
	assert_int_equal(counts[1], 1);
	assert_int_equal(counts[2], 0);
	assert_int_equal(counts[4], 1);
}


/* Builds a series of 3 prompts (one rep) at scale x of a shape. */
static void scaled(struct parity_value *v, double x)
{
	static const double shape[3] = { 100.0, 101.0, 99.0 };

	for (int i = 0; i < 3; i++) {
		v[i].prompt_id = i + 1;
		v[i].rep = 1;
		v[i].value = shape[i] * x;
	}
}

/* Three rounds per side whose drift (1.0, 1.2, 0.8) both sides of a round share.
 * Ours' runs carry the rounds 3, 1, 2 in start order: paired by round number the
 * drift cancels (ratios +0.3 -0.2 +0.1%, parity decided); paired by start order,
 * which is what runs without numbers get, it does not (undecided). The medians are
 * over the paired samples, and every run's excluded count is summed. */
static void test_parity_pooled_rounds(void **state)
{
	static const double drift[3] = { 1.0, 1.2, 0.8 }, ratio[3] = { 1.003, 0.998, 1.001 };
	static const int64_t ours_round[3] = { 3, 1, 2 };
	struct parity_value ov[3][3], vv[3][3];
	struct parity_side os[3], vsd[3];
	struct parity_instance oi[3], vi[3];
	struct parity_cell cell;
	struct parity_input in;
	struct parity_opts po;
	struct parity_result res;
	size_t pairs[6];
	int k;

	(void)state;
	memset(os, 0, sizeof(os));
	memset(vsd, 0, sizeof(vsd));
	for (k = 0; k < 3; k++) {
		int r = (int)ours_round[k] - 1;

		os[k].uuid = "o";
		os[k].model = "m";
		os[k].endpoint = "completion";
		os[k].n_max = os[k].ctx = os[k].n_predict = TPS_NULL;
		vsd[k] = os[k];
		vsd[k].uuid = "v";
		os[k].round = ours_round[k];
		vsd[k].round = k + 1;
		scaled(ov[k], drift[r] * ratio[r]);
		scaled(vv[k], drift[k]);
		memset(&oi[k], 0, sizeof(oi[k]));
		memset(&vi[k], 0, sizeof(vi[k]));
		oi[k].side = &os[k];
		vi[k].side = &vsd[k];
		oi[k].values[PARITY_METRIC_TG] = (struct parity_series){ ov[k], 3, 1 };
		vi[k].values[PARITY_METRIC_TG] = (struct parity_series){ vv[k], 3, 0 };
	}
	assert_int_equal(parity_rounds(oi, 3, vi, 3, 1, pairs), 3);
	/* In ours' start order: its first run (round 3) with vs' third, ... */
	assert_int_equal(pairs[0], 0);
	assert_int_equal(pairs[1], 2);
	assert_int_equal(pairs[2], 1);
	assert_int_equal(pairs[3], 0);
	assert_int_equal(pairs[4], 2);
	assert_int_equal(pairs[5], 1);

	memset(&cell, 0, sizeof(cell));
	cell.ours = cell.vs = 0;
	cell.ours_values[PARITY_METRIC_TG] = oi[2].values[PARITY_METRIC_TG];
	cell.vs_values[PARITY_METRIC_TG] = vi[2].values[PARITY_METRIC_TG];
	cell.noise_pct[0] = cell.noise_pct[1] = NAN;
	cell.ours_inst = oi;
	cell.vs_inst = vi;
	cell.n_ours_inst = cell.n_vs_inst = 3;
	in = (struct parity_input){ &os[2], &vsd[2], 1, 1, &cell, 1 };
	parity_opts_init(&po);
	po.ours = "ours";
	po.vs = "ref";
	po.metrics = PARITY_TG;
	assert_int_equal(parity_decide(&in, &po, &res), 0);
	assert_int_equal(res.n_rows, 1);
	assert_int_equal(res.rows[0].v.rounds, 3);
	assert_int_equal(res.rows[0].v.instances_ours, 3);
	assert_int_equal(res.rows[0].v.method, VERDICT_METHOD_ROUNDS);
	assert_int_equal(res.rows[0].v.kind, VERDICT_PARITY);
	assert_int_equal(res.rows[0].v.decided, 1);
	assert_true(fabs(res.rows[0].v.delta_pct - 0.0666) < 0.01);
	assert_int_equal(res.rows[0].excluded_ours, 3);
	assert_int_equal(res.rows[0].unpaired, 0);
	/* The centres: the geometric mean of the rounds' medians, whose ratio is
	 * the delta. */
	assert_true(fabs(res.rows[0].vs_median - cbrt(100.0 * 101 * 99) * cbrt(1.0 * 1.2 * 0.8)) <
		    1e-9);
	assert_true(fabs((res.rows[0].ours_median / res.rows[0].vs_median - 1) * 100 -
			 res.rows[0].v.delta_pct) < 1e-9);
	parity_result_release(&res);

	/* Without round numbers: start order pairs 0.8 x ours with 1.0 x vs. */
	for (k = 0; k < 3; k++)
		os[k].round = vsd[k].round = INT64_MIN;
	assert_int_equal(parity_decide(&in, &po, &res), 0);
	assert_int_equal(res.rows[0].v.rounds, 3);
	assert_int_equal(res.rows[0].v.kind, VERDICT_UNDECIDED);
	assert_int_equal(res.rows[0].v.decided, 0);
	assert_true(res.rows[0].v.mde_pct > 10);
	parity_result_release(&res);
}

/* One pair of runs: vs has two samples ours lacks, far off. The centres are over
 * the samples that formed the pairs, so both sides read the same and the delta 0;
 * the two are counted unpaired. */
static void test_parity_medians_over_pairs(void **state)
{
	static const struct parity_value o[] = { { 1, 1, 90 }, { 2, 1, 100 }, { 3, 1, 110 } };
	static const struct parity_value v[] = { { 1, 1, 90 }, { 2, 1, 100 }, { 3, 1, 110 },
						 { 4, 1, 1000 }, { 5, 1, 1000 } };
	struct parity_side a = { .uuid = "a", .model = "m", .endpoint = "completion",
				 .n_max = TPS_NULL, .ctx = TPS_NULL, .n_predict = TPS_NULL,
				 .round = TPS_NULL };
	struct parity_side b = a;
	struct parity_cell cell;
	struct parity_input in;
	struct parity_opts po;
	struct parity_result res;

	(void)state;
	memset(&cell, 0, sizeof(cell));
	cell.ours_values[PARITY_METRIC_TG] = (struct parity_series){ o, 3, 0 };
	cell.vs_values[PARITY_METRIC_TG] = (struct parity_series){ v, 5, 0 };
	cell.noise_pct[0] = cell.noise_pct[1] = NAN;
	in = (struct parity_input){ &a, &b, 1, 1, &cell, 1 };
	parity_opts_init(&po);
	po.ours = "ours";
	po.vs = "ref";
	po.metrics = PARITY_TG;
	assert_int_equal(parity_decide(&in, &po, &res), 0);
	assert_true(fabs(res.rows[0].ours_median - cbrt(90.0 * 100 * 110)) < 1e-9);
	assert_true(fabs(res.rows[0].vs_median - cbrt(90.0 * 100 * 110)) < 1e-9);
	assert_true(fabs(res.rows[0].v.delta_pct) < 1e-12);
	assert_int_equal(res.rows[0].unpaired, 2);
	assert_int_equal(res.rows[0].v.rounds, 1);
	assert_int_equal(res.rows[0].v.method, VERDICT_METHOD_REQUESTS);
	parity_result_release(&res);
}

/* Rounds restart at 1 in every collect batch: with two batches of rounds 1..3 on
 * each side, round r of batch 2 pairs with round r of batch 2, each run once. */
static void test_parity_rounds_per_batch(void **state)
{
	static const char *const batch[6] = { "b1", "b1", "b1", "b2", "b2", "b2" };
	struct parity_side os[6], vsd[6];
	struct parity_instance oi[6], vi[6];
	size_t pairs[12], k;

	(void)state;
	memset(os, 0, sizeof(os));
	memset(vsd, 0, sizeof(vsd));
	memset(oi, 0, sizeof(oi));
	memset(vi, 0, sizeof(vi));
	for (k = 0; k < 6; k++) {
		os[k].round = (int64_t)(k % 3) + 1;
		os[k].batch = batch[k];
		/* vs lists batch 2 first: pairing must follow the batch, not order. */
		vsd[k].round = (int64_t)(k % 3) + 1;
		vsd[k].batch = batch[(k + 3) % 6];
		oi[k].side = &os[k];
		vi[k].side = &vsd[k];
	}
	assert_int_equal(parity_rounds(oi, 6, vi, 6, 1, pairs), 6);
	for (k = 0; k < 6; k++) {
		assert_int_equal(pairs[2 * k], k);
		assert_int_equal(pairs[2 * k + 1], (k + 3) % 6);
	}
	/* Without batches, each run still pairs once: rounds 1..3 twice on each side
	 * give six pairs, none reused. */
	for (k = 0; k < 6; k++)
		os[k].batch = vsd[k].batch = NULL;
	assert_int_equal(parity_rounds(oi, 6, vi, 6, 1, pairs), 6);
	for (k = 0; k < 6; k++)
		assert_int_equal(pairs[2 * k + 1], k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parity_pair_merge_join),
		cmocka_unit_test(test_parity_mismatch_table),
		cmocka_unit_test(test_parity_cell_name),
		cmocka_unit_test(test_parity_decide_pure),
		cmocka_unit_test(test_parity_pooled_rounds),
		cmocka_unit_test(test_parity_rounds_per_batch),
		cmocka_unit_test(test_parity_medians_over_pairs),
		cmocka_unit_test_setup_teardown(test_parity_dense_at_parity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parity_noise_floor_widens_band, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parity_refuse_and_force, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parity_flagged_excluded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parity_tags_pick_runs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_series_load_shape_gap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_series_base_prefers_spec_type, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cells_accept_and_flags, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
