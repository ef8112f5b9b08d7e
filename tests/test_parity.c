/* test_parity.c: analyze/parity.c's decision alone over plain runs and pools
 * (pairing, refusals, forcing, notes, verdicts), the same over a store through the
 * cell set's one loader and pooling rule as compare reads a side (cmd/side.c: the
 * stored noise floor, flagged samples, tags), the words of reports/parity.c, and
 * the series (analyze/series.c: assembly, shape, gaps) over a migrated ":memory:"
 * store filled through store_run_insert/store_sample_insert, plus the acceptance
 * values and flag counts schema/cellset.c reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/cellset.h"
#include "analyze/parity.h"
#include "analyze/series.h"
#include "cmd/side.h"
#include "reports/parity.h"
#include "reports/sweep_text.h"
#include "schema/cellset.h"
#include "schema/noise.h"
#include "schema/record.h"
#include "schema/store.h"
#include "tests/floor_fixture.h"
#include "tests/run_fixture.h"
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

/* The sides the last compare() loaded: the result's rows and notes borrow from
 * them. */
static struct side loaded[2];

static int teardown(void **state)
{
	side_release(&loaded[0]);
	side_release(&loaded[1]);
	store_close(*state);
	return 0;
}

/* Load (schema), pool (analyze/cellset.c) then decide (analyze), as 'tpsdb
 * compare' does (cmd/cmd_compare.c): each side the runs of its engine, and of
 * its tag when one is given (NULL: none, each series pooled by its newest run's
 * batch). The tags were parity_opts' ours_tag and vs_tag before the cell set:
 * selection now happens before the decision. */
static int compare(struct store *s, const struct parity_opts *po, const char *ours_tag,
		   const char *vs_tag, struct parity_result *res)
{
	const char *engine[2] = { po->ours, po->vs }, *tag[2] = { ours_tag, vs_tag };
	struct parity_input in;
	int k;

	side_release(&loaded[0]);
	side_release(&loaded[1]);
	memset(res, 0, sizeof(*res));
	for (k = 0; k < 2; k++) {
		struct run_filter f = { 0 };

		f.engine.v = &engine[k];
		f.engine.n = 1;
		if (tag[k]) {
			f.tag.v = &tag[k];
			f.tag.n = 1;
		}
		if (side_load(s, &f, NULL, RUN_LOAD_VALUES, &loaded[k]) < 0)
			return -1;
	}
	in.ours = loaded[0].pools;
	in.n_ours = loaded[0].n_pools;
	in.vs = loaded[1].pools;
	in.n_vs = loaded[1].n_pools;
	return parity_decide(&in, po, res);
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
	if (!sp->no_floor)
		assert_int_equal(fx_small_floor(s, r.uuid, N_SAMPLES), 0);
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
	static const struct run_value a[] = { { 1, 1, 10 }, { 1, 2, 11 }, { 2, 2, 12 }, { 3, 1, 13 } };
	static const struct run_value b[] = { { 1, 1, 20 }, { 2, 1, 21 }, { 2, 2, 22 } };
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
		const char *spec_a, *spec_b; /* run.spec_settings; NULL "" */
	} cases[] = {
		/* Issue 37: settled speculative knobs that differ are refused; a knob
		 * one side does not name, or unknown settings, prove nothing. */
		{ "", "", "s", "s", 8192, 256, "completion",
		  "spec settings differ (n_min=0 p_min=0.75 vs n_min=0 p_min=0)",
		  "n_min=0 p_min=0.75", "n_min=0 p_min=0" },
		{ "", "", "s", "s", 8192, 256, "completion",
		  "spec settings differ (p_min=0.5 vs n_min=1 p_min=0.75)", "p_min=0.5",
		  "n_min=1 p_min=0.75" },
		{ "", "", "s", "s", 8192, 256, "completion", NULL, "n_min=0 p_min=0.75",
		  "n_min=0 p_min=0.75" },
		{ "", "", "s", "s", 8192, 256, "completion", NULL, "n_min=0", "p_min=0.75" },
		{ "", "", "s", "s", 8192, 256, "completion", NULL, "p_min=0.75", "" },
		{ "", "", "s", "s", 8192, 256, "completion",
		  "spec settings differ (p_min=0.7 vs n_min=0 p_min=0.75)", "p_min=0.7",
		  "n_min=0 p_min=0.75" },
		{ "aa", "aa", "s", "s", 8192, 256, "completion", NULL, NULL, NULL },
		{ "aa", "", "s", "s", 8192, 256, "completion", NULL, NULL, NULL }, /* one unknown */
		{ "aa", "bb", "s", "s", 8192, 256, "completion",
		  "model sha256 differs (aa vs bb)", NULL, NULL },
		{ "", "", "s", "s", 4096, 256, "completion", "ctx differs (8192 vs 4096)", NULL,
		  NULL },
		{ "", "", "s", "s", TPS_NULL, 256, "completion", NULL, NULL, NULL },
		{ "", "", "s", "s", 8192, 128, "completion", "n_predict differs (256 vs 128)", NULL,
		  NULL },
		{ "", "", "s", "s", 8192, 256, "chat", "endpoint differs (completion vs chat)", NULL,
		  NULL },
		{ "", "", "s1", "s2", 8192, 256, "completion", "prompt set differs (s1 vs s2)", NULL,
		  NULL },
		{ "", "", "s1", "", 8192, 256, "completion", NULL, NULL, NULL },
	};
	size_t c;

	(void)state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct run a, b;
		struct run_diff d;
		char why[160];

		fx_run(&a, "a", "e", "m");
		fx_run(&b, "b", "e", "m");
		fx_set(&a.model_sha256, cases[c].sha_a);
		fx_set(&b.model_sha256, cases[c].sha_b);
		fx_set(&a.prompt_set, cases[c].set_a);
		fx_set(&b.prompt_set, cases[c].set_b);
		a.ctx = 8192;
		b.ctx = cases[c].ctx_b;
		a.n_predict = 256;
		b.n_predict = cases[c].np_b;
		fx_set(&a.endpoint, "completion");
		fx_set(&b.endpoint, cases[c].ep_b);
		fx_set(&a.spec_settings, cases[c].spec_a ? cases[c].spec_a : "");
		fx_set(&b.spec_settings, cases[c].spec_b ? cases[c].spec_b : "");
		assert_int_equal(run_mismatch(&a, &b, &d), cases[c].want != NULL);
		parity_diff_text(&d, why, sizeof(why));
		assert_string_equal(why, cases[c].want ? cases[c].want : "");
		run_release(&a);
		run_release(&b);
	}
}

/* Plain-run input for parity_decide(): no store. Ours measured cells 0 (m
 * base), 1 (m n_max=2) and 2 (m n_max=3); vs measured cell 0 and 1 and a cell of m
 * on chat that ours lacks. Each run is a pool of its own; the decision now finds
 * the shared cells itself (the loader listed them before). */
static const struct run_value pure_ours[] = { { 1, 1, 97 }, { 1, 2, 97.2 }, { 2, 1, 96.8 },
					       { 2, 2, 97.1 }, { 3, 1, 96.9 }, { 3, 2, 97 } };
static const struct run_value pure_vs[] = { { 1, 1, 100 }, { 1, 2, 100.2 }, { 2, 1, 99.8 },
					     { 2, 2, 100.1 }, { 3, 1, 99.9 }, { 3, 2, 100 } };

struct pure {
	struct run ours[3], vs[3];
	struct pool po[3], pv[3];
	struct parity_input in;
};

static void pure_input(struct pure *x, const char *vs_sha)
{
	size_t i;
	int m;

	for (i = 0; i < 3; i++) {
		struct run *r = &x->ours[i];

		fx_run(r, "ours-run", "ours", "m");
		fx_set(&r->model_sha256, "aaaa");
		r->ctx = 8192;
		r->n_predict = 256;
		if (i) {
			fx_set(&r->spec_type, "draft");
			r->n_max = (int64_t)i + 1;
		}
	}
	for (i = 0; i < 2; i++) {
		struct run *r = &x->vs[i];

		fx_run(r, "vs-run", "ref", "m");
		fx_set(&r->model_sha256, i ? vs_sha : "aaaa");
		fx_set(&r->spec_type, x->ours[i].spec_type);
		r->n_max = x->ours[i].n_max;
		r->ctx = 8192;
		r->n_predict = 256;
		for (m = 0; m < 2; m++) {
			fx_keyed(&x->ours[i], (enum run_metric)m, pure_ours, 6, 1);
			fx_keyed(r, (enum run_metric)m, pure_vs, 5, 0); /* (3,2) has no partner */
		}
	}
	fx_run(&x->vs[2], "u", "ref", "m");
	fx_set(&x->vs[2].endpoint, "chat");
	x->vs[2].ctx = 8192;
	x->vs[2].n_predict = 256;
	/* 2 x 2% covers the 3% gap. The store loads a cell's floor onto every run of
	 * it: the estimate takes ours' face's. */
	x->ours[0].floor_pct[RUN_TG] = x->vs[0].floor_pct[RUN_TG] = 2.0;
	for (i = 0; i < 3; i++) {
		fx_pool(&x->po[i], &x->ours[i], 1);
		fx_pool(&x->pv[i], &x->vs[i], 1);
	}
	x->in.ours = x->po;
	x->in.n_ours = 3;
	x->in.vs = x->pv;
	x->in.n_vs = 3;
}

static void pure_release(struct pure *x)
{
	for (size_t i = 0; i < 3; i++) {
		free(x->po[i].runs);
		free(x->pv[i].runs);
		run_release(&x->ours[i]);
		run_release(&x->vs[i]);
	}
}

/* compare --metric's names, and nothing else. */
static void test_parity_metrics_of(void **state)
{
	(void)state;
	assert_int_equal(parity_metrics_of("pp"), PARITY_PP);
	assert_int_equal(parity_metrics_of("tg"), PARITY_TG);
	assert_int_equal(parity_metrics_of("both"), PARITY_BOTH);
	assert_int_equal(parity_metrics_of("accept"), -1);
	assert_int_equal(parity_metrics_of(""), -1);
}

static void test_parity_decide_pure(void **state)
{
	struct pure x;
	struct parity_opts po;
	struct parity_result res;
	char why[160];

	(void)state;
	parity_opts_init(&po);
	po.ours = "ours";
	po.vs = "ref";

	/* Comparable: 4 rows, pp before tg, cell order; the floor widens cell 0's tg. */
	pure_input(&x, "aaaa");
	assert_int_equal(parity_decide(&x.in, &po, &res), 0);
	assert_int_equal(res.stop, PARITY_STOP_NONE);
	assert_int_equal(res.n_rows, 4);
	assert_string_equal(res.rows[0].metric, "pp");
	assert_string_equal(res.rows[1].metric, "tg");
	/* One instance a side, no floor, no facts of a quiet machine: -3% shown,
	 * not decided, and not even against the default prefill scatter. */
	assert_int_equal(res.rows[0].v.kind, VERDICT_UNDECIDED);
	assert_int_equal(res.rows[0].v.regression, VERDICT_REG_UNDECIDED);
	assert_int_equal(res.rows[0].v.bound, VERDICT_BOUND_BAND);
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
	assert_ptr_equal(res.notes[0].cell, &x.ours[2]);
	assert_string_equal(res.notes[0].missing, "ref");
	assert_string_equal(note_text(&res, 0), "cell 'm [draft n_max=3]': no run of 'ref' to "
						"compare with");
	assert_ptr_equal(res.notes[1].cell, &x.vs[2]);
	assert_string_equal(res.notes[1].missing, "ours");
	assert_string_equal(note_text(&res, 1), "cell 'm (chat)': no run of 'ours' to compare with");
	parity_result_release(&res);
	pure_release(&x);

	/* Another GGUF in cell 1: refused, with the cell and the reason in the result. */
	pure_input(&x, "bbbb");
	assert_int_equal(parity_decide(&x.in, &po, &res), -1);
	assert_int_equal(res.stop, PARITY_STOP_REFUSED);
	assert_ptr_equal(res.stop_cell, &x.ours[1]);
	assert_int_equal(res.stop_diff.kind, RUN_DIFF_SHA256);
	parity_diff_text(&res.stop_diff, why, sizeof(why));
	assert_string_equal(why, "model sha256 differs (aaaa vs bbbb)");
	parity_result_release(&res);

	/* Forced: judged anyway, its rows marked, a FORCED note in order. */
	po.force = 1;
	po.metrics = PARITY_TG;
	assert_int_equal(parity_decide(&x.in, &po, &res), 0);
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
	assert_int_equal(parity_decide(&x.in, &po, &res), -1);
	assert_int_equal(res.stop, PARITY_STOP_BAD_PARAMS);
	parity_result_release(&res);
	pure_release(&x);
}

/* Compare's options for tg alone, ours "ours" against vs. */
static void tg_opts(struct parity_opts *po, const char *vs)
{
	parity_opts_init(po);
	po->ours = "ours";
	po->vs = vs;
	po->metrics = PARITY_TG;
}

/* Two machines: the same host name with another GPU refuses the cell (stop
 * REFUSED, diff MACHINE naming both runs) unless across_machines, which compares
 * it unpaired, marks its rows across and adds a FORCED note with that diff;
 * --force alone does not. */
static void test_parity_machines(void **state)
{
	struct pure x;
	struct parity_opts po;
	struct parity_result res;
	char why[512];

	(void)state;
	tg_opts(&po, "ref");
	pure_input(&x, "aaaa");
	for (size_t i = 0; i < 3; i++) {
		fx_set(&x.ours[i].host, "vm");
		fx_set(&x.ours[i].gpu, "NVIDIA H100");
		fx_set(&x.vs[i].host, "vm");
		fx_set(&x.vs[i].gpu, i == 1 ? "NVIDIA H200" : "NVIDIA H100");
		fx_set(&x.ours[i].machine, "vm (NVIDIA H100)");
		fx_set(&x.vs[i].machine, i == 1 ? "vm (NVIDIA H200)" : "vm (NVIDIA H100)");
	}
	assert_int_equal(parity_decide(&x.in, &po, &res), -1);
	assert_int_equal(res.stop, PARITY_STOP_REFUSED);
	assert_ptr_equal(res.stop_cell, &x.ours[1]);
	assert_int_equal(res.stop_diff.kind, RUN_DIFF_MACHINE);
	parity_diff_text(&res.stop_diff, why, sizeof(why));
	assert_string_equal(why, "measured on different machines: ours on 'vm (NVIDIA H100)', "
				 "ref on 'vm (NVIDIA H200)'");
	parity_result_release(&res);

	po.force = 1;
	assert_int_equal(parity_decide(&x.in, &po, &res), -1);
	assert_int_equal(res.stop_diff.kind, RUN_DIFF_MACHINE);
	parity_result_release(&res);

	po.force = 0;
	po.across_machines = 1;
	assert_int_equal(parity_decide(&x.in, &po, &res), 0);
	assert_int_equal(res.n_rows, 2);
	assert_int_equal(res.rows[0].across, 0);
	assert_int_equal(res.rows[1].across, 1);
	assert_int_equal(res.rows[1].forced, 0);
	assert_int_equal(res.n_across, 1);
	assert_int_equal(res.notes[0].kind, PARITY_NOTE_FORCED);
	assert_int_equal(res.notes[0].diff.kind, RUN_DIFF_MACHINE);
	assert_string_equal(note_text(&res, 0), "ACROSS MACHINES: cell 'm [draft n_max=2]' "
						"compared unpaired (--across-machines), measured on "
						"different machines: ours on 'vm (NVIDIA H100)', ref on "
						"'vm (NVIDIA H200)'");
	parity_result_release(&res);
	pure_release(&x);
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
	assert_int_equal(compare(s, &po, NULL, NULL, &res), 0);
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
	tg_opts(&po, "llama.cpp");
	assert_int_equal(compare(s, &po, NULL, NULL, &res), 0);
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
	assert_int_equal(compare(s, &po, NULL, NULL, &res), 0);
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
	assert_int_equal(compare(s, &po, NULL, NULL, &res), -1);
	parity_result_release(&res);
	po.force = 1;
	assert_int_equal(compare(s, &po, NULL, NULL, &res), 0);
	assert_int_equal(res.n_rows, 2);
	assert_int_equal(res.rows[0].forced, 1);
	assert_int_equal(res.n_notes, 1);
	assert_non_null(strstr(note_text(&res, 0), "FORCED"));
	assert_non_null(strstr(note_text(&res, 0), "model sha256 differs"));
	parity_result_release(&res);
	po.force = 0;
	po.vs = "ref2";
	assert_int_equal(compare(s, &po, NULL, NULL, &res), -1);
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
	assert_int_equal(compare(s, &po, NULL, NULL, &res), 0);
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
	tg_opts(&po, "ref");
	assert_int_equal(compare(s, &po, NULL, NULL, &res), 0);
	assert_int_equal(res.n_rows, 1);
	assert_string_equal(res.rows[0].ours_run, u2);
	assert_int_equal(res.rows[0].v.kind, VERDICT_PARITY);
	assert_int_equal(res.n_notes, 0); /* 'other' was never measured by ours */
	parity_result_release(&res);
	assert_int_equal(compare(s, &po, "old", NULL, &res), 0);
	assert_string_equal(res.rows[0].ours_run, u1);
	assert_int_equal(res.rows[0].v.kind, VERDICT_SLOWER);
	parity_result_release(&res);
	assert_int_equal(compare(s, &po, "old", "nope", &res), 0);
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
 * tokens per cycle; no_floor: no A/A floor stored for the cells. */
static void add_sweep(struct store *s, const char *engine, const double *tg, const char *base_spec,
		      int no_floor)
{
	static const double tpc[4] = { 0, 1.8, 2.4, 2.8 };
	int n;

	for (n = 0; n < 4; n++) {
		struct spec sp = { .engine = engine, .role = !strcmp(engine, "ours") ? "ours" : "upstream",
				   .model = "q8", .spec_type = n ? "draft" : base_spec, .n_max = n,
				   .pp = 12000, .tg = tg[n], .tpc = tpc[n],
				   .started = "2026-01-01T00:00:00Z", .no_floor = no_floor };
		add_run(s, &sp, NULL);
	}
}

/* The side the last series_load() pooled: the series' rungs borrow its pools. */
static struct side series_side;

/* Loads, pools and assembles the series as 'tpsdb sweep' does (cmd/cmd_sweep.c):
 * the runs of engine (NULL: every engine), one pool per rung. */
static int series_load(struct store *s, const char *engine, double tolerance_pct,
		       struct series_set *set)
{
	struct run_filter f = { 0 };

	memset(set, 0, sizeof(*set));
	side_release(&series_side);
	if (engine) {
		f.engine.v = &engine;
		f.engine.n = 1;
	}
	if (side_load(s, &f, NULL, RUN_LOAD_VALUES, &series_side) < 0)
		return -1;
	return series_assemble(series_side.pools, series_side.n_pools, tolerance_pct, set);
}

static int series_teardown(void **state)
{
	side_release(&series_side);
	return teardown(state);
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
	double tol = SWEEP_TOLERANCE_PCT;
	struct series_set set;
	const struct series *so, *su;
	struct sweep_step *steps = NULL;
	struct sweep_gap gap;
	size_t n = 0;
	char msg[512];

	add_sweep(s, "ours", ours, "", 0);
	add_sweep(s, "upstream", up, "", 0);
	assert_int_equal(series_load(s, NULL, tol, &set), 0);
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
	/* One run a rung, but the cells hold add_run()'s 0.01% A/A floor: a gap of
	 * two pooled rungs is now pool_estimate(), compare's estimate of the cell,
	 * which widens the one pair's interval by the floor and decides (before,
	 * the gap's estimate took no floor and decided nothing: that case is
	 * test_series_gap_no_floor). By hand: the samples share one wiggle, so
	 * every request's ratio is 156.7 / 212 and the requests' error is 0; the
	 * interval is -26.09% +- t(11) x 0.01%, wholly slower, and a regression
	 * at 2%. Equal tokens per cycle (both 91 cycles) and 212 / 156.7 - 1 =
	 * +35.3% ms per cycle: the cause is the host's per-cycle cost. */
	assert_int_equal(gap.decided, 1);
	assert_int_equal(gap.reason, ESTIMATE_REASON_NONE);
	assert_int_equal(gap.regression, VERDICT_REG_YES);
	assert_true(fabs(gap.tg_pct - (156.7 / 212 - 1) * 100) < 1e-6);
	assert_true(gap.ci_hi_pct < -26 && gap.ci_lo_pct > -26.2);
	assert_null(strstr(msg, "decides nothing"));
	assert_non_null(strstr(msg, "ours decodes 26.1% slower than upstream at n_max=3"));
	assert_non_null(strstr(msg, "per-cycle host overhead, not the drafter"));
	assert_int_equal(gap_text(so, su, 9, &gap, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "");
	series_set_release(&set);
	series_set_release(&set);

	/* --engine narrows; a filter that matches nothing gives no series. */
	assert_int_equal(series_load(s, "upstream", tol, &set), 0);
	assert_int_equal(set.n, 1);
	series_set_release(&set);
	assert_int_equal(series_load(s, "nobody", tol, &set), 0);
	assert_int_equal(set.n, 0);
	series_set_release(&set);
	tol = -1;
	assert_int_equal(series_load(s, NULL, tol, &set), -1);
	series_set_release(&set);
}

/* The same sweep without a stored floor: one run a rung, stored without
 * environment facts and with no earlier batch, so the default decode scatter is
 * no evidence (analyze/estimate.h): the -26% gap is shown, not decided (it was,
 * against the default taken as known). */
static void test_series_gap_no_floor(void **state)
{
	static const double ours[4] = { 150, 190, 230.7, 156.7 };
	static const double up[4] = { 150, 185, 205, 212 };
	struct store *s = *state;
	struct series_set set;
	struct sweep_gap gap;
	char msg[512];

	add_sweep(s, "ours", ours, "", 1);
	add_sweep(s, "upstream", up, "", 1);
	assert_int_equal(series_load(s, NULL, SWEEP_TOLERANCE_PCT, &set), 0);
	assert_int_equal(set.n, 2);
	assert_int_equal(gap_text(&set.v[0], &set.v[1], 3, &gap, msg, sizeof(msg)), 0);
	assert_true(fabs(gap.tpc_pct) < SWEEP_EQUAL_PCT);
	assert_true(gap.cost_pct > 30);
	assert_int_equal(gap.decided, 0);
	assert_int_equal(gap.reason, ESTIMATE_REASON_ONE_INSTANCE);
	assert_int_not_equal(gap.regression, VERDICT_REG_YES);
	assert_non_null(strstr(msg, "-26.1% from one run a side, which has no interval and "
				    "decides nothing"));
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
	struct series_set set;

	add_run(s, &plain, NULL);
	add_run(s, &own, NULL);
	add_run(s, &r1, NULL);
	add_run(s, &r2, NULL);
	assert_int_equal(series_load(s, NULL, SWEEP_TOLERANCE_PCT, &set), 0);
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
	struct cellset set = { 0 };
	const struct run_values *v;
	const int64_t *counts;
	int64_t id = add_run(s, &sp, NULL);

	/* The cell set's loader reads what schema/cells.c's two queries did: the
	 * acceptance values (one pass with pp and tg) and the flag counts. */
	assert_int_equal(store_cellset_load(s, NULL, &set), 0);
	assert_int_equal(set.n, 1);
	assert_int_equal(set.runs[0].id, id);
	cellset_want(&set, RUN_LOAD_ACCEPT);
	assert_int_equal(store_cellset_samples(s, &set), 0);
	v = &set.runs[0].values[RUN_ACCEPT];
	assert_int_equal(v->n, N_SAMPLES - 1); /* the truncated one spoils decode */
	assert_int_equal(v->excluded, 1);
	assert_true(fabs(v->v[0].value - (256.0 - 107) / (107 * 2)) < 1e-9);
	counts = set.runs[0].flag_counts;
	assert_int_equal(set.runs[0].n_samples, N_SAMPLES);
	assert_int_equal(counts[0], 1);
	assert_int_equal(counts[1], 1);
	assert_int_equal(counts[2], 0);
	assert_int_equal(counts[4], 1);
	cellset_release(&set);
}


/* Builds a series of 3 prompts (one rep) at scale x of a shape. */
static void scaled(struct run *r, double x, size_t excluded)
{
	static const double shape[3] = { 100.0, 101.0, 99.0 };
	double v[3];

	for (int i = 0; i < 3; i++)
		v[i] = shape[i] * x;
	fx_values(r, RUN_TG, v, 3, NULL);
	r->values[RUN_TG].excluded = excluded;
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
	struct run os[3], vsd[3];
	struct estimate_unit *ou, *vu;
	struct pool pa, pb;
	struct parity_input in;
	struct parity_opts po;
	struct parity_result res;
	size_t pairs[6], idx[3] = { 0, 1, 2 };
	int k;

	(void)state;
	for (k = 0; k < 3; k++) {
		int r = (int)ours_round[k] - 1;

		fx_run(&os[k], "o", "ours", "m");
		fx_run(&vsd[k], "v", "ref", "m");
		os[k].round = ours_round[k];
		vsd[k].round = k + 1;
		scaled(&os[k], drift[r] * ratio[r], 1);
		scaled(&vsd[k], drift[k], 0);
	}
	fx_pool(&pa, os, 3);
	fx_pool(&pb, vsd, 3);
	/* parity_rounds() is gone: the one pairing rule is estimate_rounds() over
	 * the pools' instances. No batch on either side: by number alone. */
	ou = pool_units(&pa, RUN_TG);
	vu = pool_units(&pb, RUN_TG);
	assert_int_equal(estimate_rounds(ou, idx, 3, vu, idx, 3, pairs), 3);
	/* In ours' start order: its first run (round 3) with vs' third, ... */
	assert_int_equal(pairs[0], 0);
	assert_int_equal(pairs[1], 2);
	assert_int_equal(pairs[2], 1);
	assert_int_equal(pairs[3], 0);
	assert_int_equal(pairs[4], 2);
	assert_int_equal(pairs[5], 1);
	free(ou);
	free(vu);

	in = (struct parity_input){ &pa, &pb, 1, 1 };
	tg_opts(&po, "ref");
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
	free(pa.runs);
	free(pb.runs);
	for (k = 0; k < 3; k++) {
		run_release(&os[k]);
		run_release(&vsd[k]);
	}
}

/* One pair of runs: vs has two samples ours lacks, far off. The centres are over
 * the samples that formed the pairs, so both sides read the same and the delta 0;
 * the two are counted unpaired. */
static void test_parity_medians_over_pairs(void **state)
{
	static const struct run_value o[] = { { 1, 1, 90 }, { 2, 1, 100 }, { 3, 1, 110 } };
	static const struct run_value v[] = { { 1, 1, 90 }, { 2, 1, 100 }, { 3, 1, 110 },
					       { 4, 1, 1000 }, { 5, 1, 1000 } };
	struct run a, b;
	struct pool pa, pb;
	struct parity_input in;
	struct parity_opts po;
	struct parity_result res;

	(void)state;
	fx_run(&a, "a", "ours", "m");
	fx_run(&b, "a", "ref", "m");
	fx_keyed(&a, RUN_TG, o, 3, 0);
	fx_keyed(&b, RUN_TG, v, 5, 0);
	fx_pool(&pa, &a, 1);
	fx_pool(&pb, &b, 1);
	in = (struct parity_input){ &pa, &pb, 1, 1 };
	tg_opts(&po, "ref");
	assert_int_equal(parity_decide(&in, &po, &res), 0);
	assert_true(fabs(res.rows[0].ours_median - cbrt(90.0 * 100 * 110)) < 1e-9);
	assert_true(fabs(res.rows[0].vs_median - cbrt(90.0 * 100 * 110)) < 1e-9);
	assert_true(fabs(res.rows[0].v.delta_pct) < 1e-12);
	assert_int_equal(res.rows[0].unpaired, 2);
	assert_int_equal(res.rows[0].v.rounds, 1);
	assert_int_equal(res.rows[0].v.method, VERDICT_METHOD_REQUESTS);
	parity_result_release(&res);
	free(pa.runs);
	free(pb.runs);
	run_release(&a);
	run_release(&b);
}

/* Rounds restart at 1 in every collect batch: with two batches of rounds 1..3 on
 * each side, round r of batch 2 pairs with round r of batch 2, each run once.
 * parity_rounds(..., by_batch = 1) became estimate_rounds(), whose first pass is
 * this within-batch pairing. */
static void test_parity_rounds_per_batch(void **state)
{
	static const char *const batch[6] = { "b1", "b1", "b1", "b2", "b2", "b2" };
	struct estimate_unit ou[6], vu[6];
	size_t pairs[12], idx[6] = { 0, 1, 2, 3, 4, 5 }, k;

	(void)state;
	memset(ou, 0, sizeof(ou));
	memset(vu, 0, sizeof(vu));
	for (k = 0; k < 6; k++) {
		ou[k].value = vu[k].value = NAN;
		ou[k].round = (int64_t)(k % 3) + 1;
		ou[k].batch = batch[k];
		/* vs lists batch 2 first: pairing must follow the batch, not order. */
		vu[k].round = (int64_t)(k % 3) + 1;
		vu[k].batch = batch[(k + 3) % 6];
	}
	assert_int_equal(estimate_rounds(ou, idx, 6, vu, idx, 6, pairs), 6);
	for (k = 0; k < 6; k++) {
		assert_int_equal(pairs[2 * k], k);
		assert_int_equal(pairs[2 * k + 1], (k + 3) % 6);
	}
	/* Without batches, each run still pairs once: rounds 1..3 twice on each side
	 * give six pairs, none reused. */
	for (k = 0; k < 6; k++)
		ou[k].batch = vu[k].batch = NULL;
	assert_int_equal(estimate_rounds(ou, idx, 6, vu, idx, 6, pairs), 6);
	for (k = 0; k < 6; k++)
		assert_int_equal(pairs[2 * k + 1], k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parity_pair_merge_join),
		cmocka_unit_test(test_parity_mismatch_table),
		cmocka_unit_test(test_parity_cell_name),
		cmocka_unit_test(test_parity_metrics_of),
		cmocka_unit_test(test_parity_decide_pure),
		cmocka_unit_test(test_parity_machines),
		cmocka_unit_test(test_parity_pooled_rounds),
		cmocka_unit_test(test_parity_rounds_per_batch),
		cmocka_unit_test(test_parity_medians_over_pairs),
		cmocka_unit_test_setup_teardown(test_parity_dense_at_parity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parity_noise_floor_widens_band, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parity_refuse_and_force, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parity_flagged_excluded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parity_tags_pick_runs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_series_load_shape_gap, setup, series_teardown),
		cmocka_unit_test_setup_teardown(test_series_gap_no_floor, setup, series_teardown),
		cmocka_unit_test_setup_teardown(test_series_base_prefers_spec_type, setup,
						series_teardown),
		cmocka_unit_test_setup_teardown(test_cells_accept_and_flags, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
