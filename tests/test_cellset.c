/* test_cellset.c: the one pooling rule and what hangs on it (analyze/cellset.c),
 * over plain runs built by hand: which runs cellset_pools() takes, the design
 * pools_looks() charges, the outliers pool_outliers() marks (the cases of the old
 * outlier_pool test), pool_estimate()'s floor and its identity with estimate_cell(),
 * a spoiled verdict, and estimate_rounds()' pairing. Each case names in a comment
 * the other rule it rules out. */
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
#include "analyze/estimate.h"
#include "analyze/verdict.h"
#include "schema/record.h"
#include "tests/run_fixture.h"
#include "tpsdb.h"

#define CAP 64

/* A set of up to CAP runs, filled in order (the store's: a series' runs oldest
 * first). Pointers into it stay valid: it never grows. */
static void set_init(struct cellset *s)
{
	s->runs = tps_xcalloc(CAP, sizeof(*s->runs));
	s->n = 0;
}

/* Appends a run of engine on model with a batch and a tag ("" none), at the
 * ctx, n_predict, sha and prompt set the mismatch cases vary. */
static struct run *add(struct cellset *s, const char *uuid, const char *engine,
		       const char *model, const char *batch, const char *tag)
{
	struct run *r;

	assert_true(s->n < CAP);
	r = &s->runs[s->n++];
	fx_run(r, uuid, engine, model);
	fx_set(&r->batch, batch);
	fx_set(&r->tag, tag);
	fx_set(&r->model_sha256, "s");
	fx_set(&r->prompt_set, "p1");
	r->ctx = 8192;
	r->n_predict = 256;
	return r;
}

/* The uuids of a pool's runs, oldest first, space-separated (static buffer). */
static const char *names(const struct pool *p)
{
	static char buf[512];
	size_t at = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < p->n; k++)
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s%s", k ? " " : "",
				       p->runs[k]->uuid);
	return buf;
}

/* The pools of s under rule are want, in order, each its runs' uuids (names()). */
static void expect_pools(const struct cellset *s, enum pool_rule rule, const char *const *want,
			 size_t nwant)
{
	struct pool *p = NULL;
	size_t n = 0, i;

	cellset_pools(s, rule, &p, &n);
	assert_int_equal(n, nwant);
	for (i = 0; i < n; i++)
		assert_string_equal(names(&p[i]), want[i]);
	pools_free(p, n);
}

/* (1) POOL_NEWEST_BATCH: the batch of each series' newest run. */
static void test_cellset_pools_newest_batch(void **state)
{
	struct cellset s;
	struct pool *p = NULL;
	size_t n = 0, i;

	(void)state;
	set_init(&s);
	/* Series A: batches b2, b1, b2 in start order. The pool is both b2 runs.
	 * Rules out the newest run alone ("a2"), every run ("a0 a1 a2") and the
	 * contiguous tail of runs since the batch changed ("a2"). */
	add(&s, "a0", "e", "ma", "b2", "");
	add(&s, "a1", "e", "ma", "b1", "");
	add(&s, "a2", "e", "ma", "b2", "");
	/* Series B: an import (no batch) tagged t1 is newest. It takes the other
	 * runs without a batch tagged t1: not i1, a collect run carrying the same tag
	 * (rules out "every run of the tag"), nor i2 of tag t2. */
	add(&s, "i0", "e", "mb", "", "t1");
	add(&s, "i1", "e", "mb", "bx", "t1");
	add(&s, "i2", "e", "mb", "", "t2");
	add(&s, "i3", "e", "mb", "", "t1");
	/* Series C: an untagged import is alone, although u0 too has neither tag
	 * nor batch (rules out "the runs whose tag equals the newest's", "" == ""). */
	add(&s, "u0", "e", "mc", "", "");
	add(&s, "u1", "e", "mc", "", "");
	/* Series D: the runs of batch bm that are not the same measurement as the
	 * newest (d6) are left out and counted: another ctx, n_predict, GGUF or
	 * prompt set. d5 knows none of ctx, sha or prompt set: an unknown proves
	 * nothing and it is taken (rules out "any field that differs"). d0 is of
	 * another batch and at another ctx: the rule never took it, so it is not
	 * counted (rules out counting mismatches over the whole series). */
	add(&s, "d0", "e", "md", "old", "")->ctx = 4096;
	add(&s, "d1", "e", "md", "bm", "")->ctx = 4096;
	add(&s, "d2", "e", "md", "bm", "")->n_predict = 128;
	fx_set(&add(&s, "d3", "e", "md", "bm", "")->model_sha256, "other");
	fx_set(&add(&s, "d4", "e", "md", "bm", "")->prompt_set, "p2");
	{
		struct run *r = add(&s, "d5", "e", "md", "bm", "");
		r->ctx = RUN_NULL;
		fx_set(&r->model_sha256, "");
		fx_set(&r->prompt_set, "");
	}
	add(&s, "d6", "e", "md", "bm", "");

	cellset_pools(&s, POOL_NEWEST_BATCH, &p, &n);
	assert_int_equal(n, 4);
	/* One pool per series, in the set's order, the newest last (its face). */
	assert_string_equal(names(&p[0]), "a0 a2");
	assert_string_equal(pool_face(&p[0])->uuid, "a2");
	assert_string_equal(names(&p[1]), "i0 i3");
	assert_string_equal(names(&p[2]), "u1");
	assert_string_equal(names(&p[3]), "d5 d6");
	assert_int_equal(p[3].n_mismatch, 4);
	for (i = 0; i < 3; i++)
		assert_int_equal(p[i].n_mismatch, 0);
	/* What 'runs --pooled' keeps: a pooled run, not one the rule left out. */
	assert_true(pools_hold(p, n, "a0"));
	assert_true(pools_hold(p, n, "d6"));
	assert_false(pools_hold(p, n, "a1"));
	assert_false(pools_hold(p, n, "d1"));
	assert_false(pools_hold(p, n, "nosuch"));
	assert_false(pools_hold(p, 0, "a0"));
	/* What 'baseline set' freezes: every pooled run's id, pool by pool. */
	{
		int64_t *ids;
		size_t n_ids;

		for (i = 0; i < s.n; i++)
			s.runs[i].id = 100 + (int64_t)i;
		ids = pools_run_ids(p, n, &n_ids);
		assert_int_equal(n_ids, 7);
		/* a0 a2, i0 i3, u1, d5 d6: the set's runs 0 2, 3 6, 8, 14 15 */
		assert_int_equal(ids[0], 100);
		assert_int_equal(ids[1], 102);
		assert_int_equal(ids[3], 106);
		assert_int_equal(ids[4], 108);
		assert_int_equal(ids[6], 115);
		free(ids);
		ids = pools_run_ids(p, 0, &n_ids);
		assert_int_equal(n_ids, 0);
		free(ids);
	}
	pools_free(p, n);

	/* POOL_ALL: every run of each series, whatever its batch or tag (rules out
	 * applying the newest-batch rule to a filter's choice); a run that is not
	 * the newest's measurement is still left out and counted, now d0 too. */
	cellset_pools(&s, POOL_ALL, &p, &n);
	assert_int_equal(n, 4);
	assert_string_equal(names(&p[0]), "a0 a1 a2");
	assert_string_equal(names(&p[1]), "i0 i1 i2 i3");
	assert_string_equal(names(&p[2]), "u0 u1");
	assert_string_equal(names(&p[3]), "d5 d6");
	assert_int_equal(p[3].n_mismatch, 5);
	pools_free(p, n);
	cellset_release(&s);
}

/* (1) Untagged llama-bench imports: each file is one process of its build, and
 * the processes of the newest's build (engine version) pool as its instances. */
static void test_cellset_pools_llama_bench(void **state)
{
	static const struct {
		const char *uuid, *version, *batch, *tag;
	} runs[] = {
		{ "l0", "b1-aaa", "", "" },
		{ "l1", "b2-bbb", "", "" },   /* another build: rules out "every untagged run" */
		{ "l2", "b1-aaa", "", "t" },  /* a tagged import is its tag's */
		{ "l3", "b1-aaa", "bx", "" }, /* a collect batch is no llama-bench file */
		{ "l4", "b1-aaa", "", "" },
	};
	struct cellset s;
	struct pool *p = NULL;
	size_t n = 0, i;

	(void)state;
	set_init(&s);
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		struct run *r = add(&s, runs[i].uuid, "e", "m", runs[i].batch, runs[i].tag);
		fx_set(&r->endpoint, "llama-bench");
		fx_set(&r->engine_version, runs[i].version);
		fx_set(&r->config, "pp512 fa=1");
	}
	/* The same runs on a server endpoint: an untagged import stays alone
	 * (rules out pooling every untagged import by its version). */
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		struct run *r = add(&s, runs[i].uuid, "e", "m2", runs[i].batch, runs[i].tag);
		fx_set(&r->engine_version, runs[i].version);
	}
	cellset_pools(&s, POOL_NEWEST_BATCH, &p, &n);
	assert_int_equal(n, 2);
	assert_string_equal(names(&p[0]), "l0 l4");
	assert_string_equal(names(&p[1]), "l4");
	/* One design: pooling them charges no look. */
	assert_int_equal(pools_looks(&p[0], &p[0]), 0);
	pools_free(p, n);
	cellset_release(&s);
}

/* (1) Untagged files pool only as one build's instances on one machine: files
 * of a build that reported no commit ("b0-unknown", "b3-unknown", "unknown")
 * never pool, as two such builds may be any two (the pool that took them as
 * one build); files of one commit on two machines (cpu_info or gpu_info
 * differ) do not pool either. A speed-bench file (source "speed-bench") pools
 * as a llama-bench process does, by the build --engine-version named, and a
 * responses import of the same version stays alone. */
static void test_cellset_pools_file_identity(void **state)
{
	static const struct {
		const char *uuid, *model, *version, *endpoint, *source, *cpu, *gpu;
	} runs[] = {
		/* b0-unknown twice: two builds, or one; nothing tells */
		{ "u0", "m1", "b0-unknown", "llama-bench", "llama-bench", "cpu", "" },
		{ "u1", "m1", "b0-unknown", "llama-bench", "llama-bench", "cpu", "" },
		{ "n0", "m2", "b3-unknown", "llama-bench", "llama-bench", "cpu", "" },
		{ "n1", "m2", "b3-unknown", "llama-bench", "llama-bench", "cpu", "" },
		{ "k0", "m3", "unknown", "llama-bench", "llama-bench", "cpu", "" },
		{ "k1", "m3", "unknown", "llama-bench", "llama-bench", "cpu", "" },
		/* one commit, two machines: the newest pools with its own machine's */
		{ "c0", "m4", "b1-aaa", "llama-bench", "llama-bench", "cpu A", "" },
		{ "c1", "m4", "b1-aaa", "llama-bench", "llama-bench", "cpu B", "" },
		{ "c2", "m4", "b1-aaa", "llama-bench", "llama-bench", "cpu A", "" },
		{ "g0", "m5", "b1-aaa", "llama-bench", "llama-bench", "cpu", "H100" },
		{ "g1", "m5", "b1-aaa", "llama-bench", "llama-bench", "cpu", "H200" },
		/* speed-bench: by the named build */
		{ "s0", "m6", "v1", "/v1/chat/completions", "speed-bench", "", "" },
		{ "s1", "m6", "v1", "/v1/chat/completions", "speed-bench", "", "" },
		{ "s2", "m7", "", "/v1/chat/completions", "speed-bench", "", "" },
		{ "s3", "m7", "", "/v1/chat/completions", "speed-bench", "", "" },
		{ "r0", "m8", "v1", "/v1/chat/completions", "import", "", "" },
		{ "r1", "m8", "v1", "/v1/chat/completions", "import", "", "" },
	};
	static const char *const want[] = { "u1", "n1", "k1", "c0 c2", "g1", "s0 s1", "s3", "r1" };
	struct cellset s;
	size_t i;

	(void)state;
	set_init(&s);
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		struct run *r = add(&s, runs[i].uuid, "e", runs[i].model, "", "");
		fx_set(&r->endpoint, runs[i].endpoint);
		fx_set(&r->source, runs[i].source);
		fx_set(&r->engine_version, runs[i].version);
		fx_set(&r->cpu, runs[i].cpu);
		fx_set(&r->gpu, runs[i].gpu);
		fx_set(&r->host, "unknown");
	}
	expect_pools(&s, POOL_NEWEST_BATCH, want, sizeof(want) / sizeof(want[0]));
	cellset_release(&s);
}

/* (1) A series is one engine and one cell: model, spec type, n_max, endpoint and
 * config. Each run below differs from x0 in one of them and is a pool of its own
 * (had the field not split series, it would pool with x0, as x1 does: host and
 * tag are no part of a cell). A config that differs is therefore a series, never
 * a mismatch. The chat run comes between x0 and x1 in start order, as the store
 * lists two endpoints of a cell: a series need not be contiguous (rules out
 * "runs next to each other form a series"). */
static void test_cellset_pools_split(void **state)
{
	struct cellset s;
	struct pool *p = NULL;
	size_t n = 0, i;

	(void)state;
	set_init(&s);
	add(&s, "x0", "e", "m", "b", "");
	fx_set(&add(&s, "chat", "e", "m", "b", "")->endpoint, "chat");
	{
		struct run *r = add(&s, "x1", "e", "m", "b", "t");
		fx_set(&r->host, "other-host");
	}
	add(&s, "engine", "f", "m", "b", "");
	add(&s, "model", "e", "m2", "b", "");
	fx_set(&add(&s, "spec", "e", "m", "b", "")->spec_type, "draft");
	add(&s, "nmax", "e", "m", "b", "")->n_max = 2;
	fx_set(&add(&s, "config", "e", "m", "b", "")->config, "pp512 fa=1");

	cellset_pools(&s, POOL_NEWEST_BATCH, &p, &n);
	assert_int_equal(n, 7);
	assert_string_equal(names(&p[0]), "x0 x1");
	assert_string_equal(names(&p[1]), "chat");
	assert_string_equal(names(&p[2]), "engine");
	assert_string_equal(names(&p[3]), "model");
	assert_string_equal(names(&p[4]), "spec");
	assert_string_equal(names(&p[5]), "nmax");
	assert_string_equal(names(&p[6]), "config");
	for (i = 0; i < n; i++)
		assert_int_equal(p[i].n_mismatch, 0);
	pools_free(p, n);
	cellset_release(&s);
}

/* A pool of the runs r[0..n) with their batch, tag and looks_to set. */
static void design(struct run *r, size_t n, const char *const *batch, const char *const *tag,
		   const int64_t *looks_to)
{
	for (size_t k = 0; k < n; k++) {
		fx_run(&r[k], "u", "e", "m");
		fx_set(&r[k].batch, batch[k]);
		fx_set(&r[k].tag, tag ? tag[k] : "");
		r[k].looks_to = looks_to ? looks_to[k] : 0;
	}
}

/* (2) The design a look pays for. */
static void test_cellset_pools_looks(void **state)
{
	static const char *const b1[2] = { "b1", "b1" }, *const b12[2] = { "b1", "b2" },
			  *const none[2] = { "", "" }, *const cand[2] = { "c", "c" },
			  *const base[2] = { "base", "base" }, *const t11[2] = { "t1", "t1" },
			  *const t12[2] = { "t1", "t2" }, *const mixed_b[2] = { "x", "" },
			  *const mixed_t[2] = { "", "x" };
	static const int64_t zero[2] = { 0, 0 }, twelve[2] = { 12, 12 }, twenty[2] = { 20, 20 },
			     huge[2] = { 500, 500 };
	static const struct {
		const char *const *ba, *const *ta;
		const int64_t *la;
		const char *const *bb, *const *tb;
		const int64_t *lb;
		int64_t want;
		const char *rules_out;
	} cases[] = {
		/* One fixed batch: a fixed design. */
		{ b1, NULL, zero, b1, NULL, zero, 0, "charging every pool the strictest level" },
		/* One until-decided batch: its own --max-rounds. */
		{ b1, NULL, twelve, b1, NULL, twelve, 12, "ignoring looks_to" },
		/* Ours spans two batches: the strictest level whatever looks_to says. */
		{ b12, NULL, zero, b1, NULL, zero, ESTIMATE_MAX_LOOK, "the largest looks_to (0)" },
		/* The other side pooling two: the same. */
		{ b1, NULL, twelve, b12, NULL, twelve, ESTIMATE_MAX_LOOK, "looking at ours alone" },
		/* Two imports of one tag: one design. */
		{ none, t11, zero, b1, NULL, zero, 0, "counting each batchless run apart" },
		/* Two import tags: two designs. */
		{ none, t12, zero, b1, NULL, zero, ESTIMATE_MAX_LOOK, "ignoring imports' tags" },
		/* A batch x and an import tagged x are two designs. */
		{ mixed_b, mixed_t, zero, b1, NULL, zero, ESTIMATE_MAX_LOOK,
		  "comparing batch-or-tag as one string" },
		/* A baseline frozen from another batch than the candidate's: each side
		 * one design, not "two batches". */
		{ cand, NULL, zero, base, NULL, zero, 0, "counting designs across both sides" },
		{ cand, NULL, twenty, base, NULL, zero, 20, "counting designs across both sides" },
		/* looks_to beyond the most a design may plan is capped. */
		{ b1, NULL, huge, b1, NULL, zero, ESTIMATE_MAX_LOOK, "passing 500 through" },
	};
	size_t c;

	(void)state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct run ra[2], rb[2];
		struct pool a, b;

		design(ra, 2, cases[c].ba, cases[c].ta, cases[c].la);
		design(rb, 2, cases[c].bb, cases[c].tb, cases[c].lb);
		fx_pool(&a, ra, 2);
		fx_pool(&b, rb, 2);
		if (pools_looks(&a, &b) != cases[c].want)
			fail_msg("case %zu: %lld, want %lld (rules out %s)", c,
				 (long long)pools_looks(&a, &b), (long long)cases[c].want,
				 cases[c].rules_out);
		/* Symmetric: which side is ours does not matter. */
		assert_int_equal(pools_looks(&b, &a), cases[c].want);
		free(a.runs);
		free(b.runs);
		for (int k = 0; k < 2; k++) {
			run_release(&ra[k]);
			run_release(&rb[k]);
		}
	}
}

/* (2b) The one-metric question of the pools: the looks_metric every run of a
 * batch that looked names alike; a fixed run asks nothing. */
static void test_cellset_pools_question(void **state)
{
	static const char *const b1[2] = { "b1", "b1" };
	static const int64_t ten[2] = { 10, 10 }, zero[2] = { 0, 0 };
	enum { PP = 1u << RUN_PP, TG = 1u << RUN_TG };
	static const struct {
		const int64_t *la, *lb;
		unsigned ma[2], mb[2];
		unsigned want;
	} cases[] = {
		{ ten, ten, { TG, TG }, { TG, TG }, TG },     /* one batch, --metric tg */
		{ ten, ten, { PP, PP }, { PP, PP }, PP },
		{ ten, ten, { 0, 0 }, { 0, 0 }, 0 },          /* --metric both */
		{ ten, ten, { TG, TG }, { TG, 0 }, 0 },       /* a run that watched both */
		{ ten, ten, { TG, TG }, { PP, PP }, 0 },      /* two questions */
		{ ten, zero, { TG, TG }, { 0, 0 }, TG },      /* a fixed baseline asks nothing */
		{ zero, zero, { 0, 0 }, { 0, 0 }, 0 },        /* nothing looked */
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct run ra[2], rb[2];
		struct pool a, b;

		design(ra, 2, b1, NULL, cases[c].la);
		design(rb, 2, b1, NULL, cases[c].lb);
		for (int k = 0; k < 2; k++) {
			ra[k].looks_metric = cases[c].ma[k];
			rb[k].looks_metric = cases[c].mb[k];
		}
		fx_pool(&a, ra, 2);
		fx_pool(&b, rb, 2);
		if (pools_question(&a, &b) != cases[c].want || pools_question(&b, &a) != cases[c].want)
			fail_msg("case %zu: %u, want %u", c, pools_question(&a, &b), cases[c].want);
		free(a.runs);
		free(b.runs);
		for (int k = 0; k < 2; k++) {
			run_release(&ra[k]);
			run_release(&rb[k]);
		}
	}
}

/* Decode tok/s of four repetitions of each run (the old outlier_pool test's). */
static const double v1[] = { 101.0, 99.5, 100.2, 100.8 };
static const double v2[] = { 98.9, 99.7, 101.4, 100.1 };
static const double v3[] = { 100.5, 100.0, 99.1, 101.2 };
static const double slow[] = { 52.1, 50.3, 49.8, 51.0 }; /* half the others */

/* (3) The far run of a pool is marked, per metric; a lone run is never judged. */
static void test_cellset_outliers_far_run(void **state)
{
	const double *tg[4] = { v1, v2, slow, v3 }, *pp[4] = { v1, v2, v3, v3 };
	struct run r[5];
	struct pool p, lone;
	struct estimate_unit *u;
	char bad[4];
	double med, value;
	size_t k;

	(void)state;
	for (k = 0; k < 4; k++) {
		fx_run(&r[k], "r", "ours", "q35");
		fx_set(&r[k].tag, "b9859");
		fx_set(&r[k].batch, "b1");
		fx_values(&r[k], RUN_TG, tg[k], 4, NULL);
		/* The same runs' other metric, all alike: judged on its own, nothing
		 * marked (rules out marking a run in every metric once it is far in
		 * one). */
		fx_values(&r[k], RUN_PP, pp[k], 4, NULL);
	}
	/* Another tag pools apart: one run alone is never judged. */
	fx_run(&r[4], "r", "ours", "q35");
	fx_set(&r[4].tag, "b9860");
	fx_values(&r[4], RUN_TG, slow, 4, NULL);
	fx_pool(&p, r, 4);
	fx_pool(&lone, &r[4], 1);

	assert_int_equal(pool_outliers(&p, RUN_TG, bad, &med), 1);
	assert_int_equal(bad[2], 1);
	for (k = 0; k < 4; k++)
		if (k != 2)
			assert_int_equal(bad[k], 0);
	/* Its geometric mean, against the median of the pool's four instance values. */
	u = pool_units(&p, RUN_TG);
	value = exp(estimate_unit_log(&u[2]));
	assert_true(fabs(value - exp((log(52.1) + log(50.3) + log(49.8) + log(51.0)) / 4)) <
		    1e-9);
	assert_true(med > 99.5 && med < 101.0);
	free(u);

	memset(bad, 7, sizeof(bad));
	assert_int_equal(pool_outliers(&p, RUN_PP, bad, &med), 0);
	for (k = 0; k < 4; k++)
		assert_int_equal(bad[k], 0);

	assert_int_equal(pool_outliers(&lone, RUN_TG, bad, &med), 0);
	assert_int_equal(bad[0], 0);
	assert_true(isnan(med));
	u = pool_units(&lone, RUN_TG);
	assert_true(fabs(exp(estimate_unit_log(&u[0])) - value) < 1e-9);
	free(u);

	/* Over both pools and both metrics: that one run's decode, with its value and
	 * the pool's median (check words it as a finding). */
	{
		struct pool both[2] = { p, lone };
		struct pool_outlier *o = pools_outliers(both, 2, &k);

		assert_int_equal(k, 1);
		assert_ptr_equal(o[0].run, &r[2]);
		assert_int_equal(o[0].metric, RUN_TG);
		assert_true(fabs(o[0].value - value) < 1e-9);
		assert_true(o[0].median > 99.5 && o[0].median < 101.0);
		free(o);
	}

	free(p.runs);
	free(lone.runs);
	for (k = 0; k < 5; k++)
		run_release(&r[k]);
}

/* (3) A run without usable values has no instance value and is never an outlier;
 * the two left are too few to judge (rules out judging a pool by its run count
 * rather than its values). An empty pool judges nothing. */
static void test_cellset_outliers_no_values(void **state)
{
	struct run r[3];
	struct pool p, empty = { 0 };
	struct estimate_unit *u;
	char bad[3];
	double med = 0;
	size_t k;

	(void)state;
	for (k = 0; k < 3; k++)
		fx_run(&r[k], "r", "ours", "q35");
	fx_values(&r[0], RUN_TG, v1, 4, NULL);
	fx_values(&r[1], RUN_TG, slow, 4, NULL);
	fx_values(&r[2], RUN_TG, v2, 0, NULL);
	fx_pool(&p, r, 3);
	assert_int_equal(pool_outliers(&p, RUN_TG, bad, &med), 0);
	assert_int_equal(bad[1], 0);
	assert_true(isnan(med));
	u = pool_units(&p, RUN_TG);
	assert_true(isnan(estimate_unit_log(&u[2])));
	free(u);
	assert_int_equal(pool_outliers(&empty, RUN_TG, bad, &med), 0);
	free(p.runs);
	for (k = 0; k < 3; k++)
		run_release(&r[k]);
}

/* Four requests around v (a spread of +-0.5%), keyed (i + 1, 1). */
static void around(struct run *r, enum run_metric m, double v)
{
	const double x[4] = { v * 0.995, v, v, v * 1.005 };

	fx_values(r, m, x, 4, NULL);
}

/* Two estimates are the same numbers (NaN equal to NaN). */
static int same_num(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

static void assert_same_estimate(const struct estimate *x, const struct estimate *y)
{
	assert_int_equal(x->v.kind, y->v.kind);
	assert_int_equal(x->v.regression, y->v.regression);
	assert_int_equal(x->v.decided, y->v.decided);
	assert_int_equal(x->v.bound, y->v.bound);
	assert_int_equal(x->v.method, y->v.method);
	assert_int_equal(x->reason, y->reason);
	assert_int_equal(x->n_rounds, y->n_rounds);
	assert_int_equal(x->v.spoiled, y->v.spoiled);
	assert_true(same_num(x->v.delta_pct, y->v.delta_pct));
	assert_true(same_num(x->v.ci_lo_pct, y->v.ci_lo_pct));
	assert_true(same_num(x->v.ci_hi_pct, y->v.ci_hi_pct));
	assert_true(same_num(x->v.ci_level, y->v.ci_level));
	assert_true(same_num(x->ours_center, y->ours_center));
	assert_true(same_num(x->vs_center, y->vs_center));
}

/* (4) Two instances of ours against one of vs (the spread method: ours' own
 * spread, here none, is the scatter, the floor of ours' face the least it may
 * be, for pp and tg, none for acceptance); and the answer is estimate_cell()'s
 * on the same instances. */
static void test_cellset_estimate_floor(void **state)
{
	static const double acc_a[4] = { 0.6, 0.61, 0.6, 0.59 }, acc_b[4] = { 0.7, 0.71, 0.7, 0.69 };
	struct run ra[2], rb;
	struct pool a, b;
	struct estimate_unit *ua = NULL, *ub = NULL;
	struct estimate_params ep, want_p;
	struct estimate e, want;
	size_t k;

	(void)state;
	for (k = 0; k < 2; k++) {
		fx_run(&ra[k], k ? "face" : "old", "ours", "m");
		around(&ra[k], RUN_PP, 900);
		around(&ra[k], RUN_TG, 90);
		fx_values(&ra[k], RUN_ACCEPT, acc_a, 4, NULL);
	}
	/* The older run's floors are wide and the face's tg floor narrow; the face
	 * has no pp floor. vs' face has a wide tg floor of its own. */
	ra[0].floor_pct[RUN_PP] = ra[0].floor_pct[RUN_TG] = 50;
	ra[1].floor_pct[RUN_TG] = 1;
	fx_run(&rb, "vs", "ref", "m");
	around(&rb, RUN_PP, 1000);
	around(&rb, RUN_TG, 100);
	fx_values(&rb, RUN_ACCEPT, acc_b, 4, NULL);
	rb.floor_pct[RUN_TG] = 50;
	fx_pool(&a, ra, 2);
	fx_pool(&b, &rb, 1);
	estimate_params_init(&ep);

	/* tg: the newest of ours against vs (no round numbers: the first pairs by
	 * start order, then one instance a side), with the face's 1% floor: -10%
	 * decided. Were it the older run's or vs' 50%, it would be undecided; with
	 * none, one-instance. */
	assert_int_equal(pool_estimate(&a, &b, RUN_TG, &ep, &e, &ua, &ub), 0);
	assert_int_equal(e.reason, ESTIMATE_REASON_NONE);
	assert_int_equal(e.v.method, VERDICT_METHOD_SPREAD);
	assert_int_equal(e.v.bound, VERDICT_BOUND_NOISE);
	assert_int_equal(e.v.regression, VERDICT_REG_YES);
	assert_true(fabs(e.v.delta_pct + 10) < 1e-9);
	/* The instances it hands back are the pools' runs, in place. */
	assert_ptr_equal(ua[1].vals, ra[1].values[RUN_TG].v);
	assert_ptr_equal(ub[0].vals, rb.values[RUN_TG].v);
	assert_null(ua[1].batch); /* "" reads as unknown */
	want_p = ep;
	want_p.noise_pct = 1;
	assert_int_equal(estimate_cell(ua, 2, ub, 1, &want_p, &want), 0);
	assert_same_estimate(&e, &want);
	estimate_release(&want);
	want_p.noise_pct = 50;
	assert_int_equal(estimate_cell(ua, 2, ub, 1, &want_p, &want), 0);
	assert_int_equal(want.v.regression, VERDICT_REG_UNDECIDED);
	estimate_release(&want);
	estimate_release(&e);
	free(ua);
	free(ub);

	/* pp: the face has no pp floor, so none (rules out taking tg's floor for
	 * pp, or the older run's 50% pp floor, which would leave it open): ours'
	 * two instances agree, and the requests' error alone bounds the scatter.
	 * A caller's noise_pct is overwritten. */
	ep.noise_pct = 1;
	assert_int_equal(pool_estimate(&a, &b, RUN_PP, &ep, &e, NULL, NULL), 0);
	assert_int_equal(e.reason, ESTIMATE_REASON_NONE);
	assert_int_equal(e.v.method, VERDICT_METHOD_SPREAD);
	assert_int_equal(e.v.bound, VERDICT_BOUND_BAND);
	assert_true(e.v.scatter_pct < 1);
	assert_int_equal(e.v.regression, VERDICT_REG_YES);
	estimate_release(&e);

	/* With a pp floor on the face, pp decides like tg (rules out pp never
	 * taking a floor). */
	ra[1].floor_pct[RUN_PP] = 1;
	assert_int_equal(pool_estimate(&a, &b, RUN_PP, &ep, &e, NULL, NULL), 0);
	assert_int_equal(e.reason, ESTIMATE_REASON_NONE);
	assert_int_equal(e.v.bound, VERDICT_BOUND_NOISE);
	assert_int_equal(e.v.regression, VERDICT_REG_YES);
	estimate_release(&e);

	/* Acceptance has no floor even when the face has both (rules out the
	 * face's tg floor serving acceptance, and reading floor_pct[2]). */
	ep.noise_pct = 0;
	assert_int_equal(pool_estimate(&a, &b, RUN_ACCEPT, &ep, &e, &ua, &ub), 0);
	assert_int_equal(e.v.method, VERDICT_METHOD_SPREAD);
	assert_int_equal(e.v.bound, VERDICT_BOUND_BAND);
	want_p = ep;
	assert_int_equal(estimate_cell(ua, 2, ub, 1, &want_p, &want), 0);
	assert_same_estimate(&e, &want);
	estimate_release(&want);
	estimate_release(&e);
	free(ua);
	free(ub);

	free(a.runs);
	free(b.runs);
	run_release(&ra[0]);
	run_release(&ra[1]);
	run_release(&rb);
}

/* Three rounds a side in one batch b, alternating who starts: ours first in
 * rounds 1 and 3. ours[k] and vs[k] are round k + 1's tg centres. */
static void rounds(struct run *a, struct run *b, size_t n, const double *ours, const double *vs,
		   const char *batch, int64_t looks_to)
{
	static const char *const t[16] = { "t01", "t02", "t03", "t04", "t05", "t06", "t07", "t08",
					   "t09", "t10", "t11", "t12", "t13", "t14", "t15", "t16" };
	char uuid[32];

	for (size_t k = 0; k < n; k++) {
		snprintf(uuid, sizeof(uuid), "a%zu", k);
		fx_run(&a[k], uuid, "ours", "m");
		snprintf(uuid, sizeof(uuid), "b%zu", k);
		fx_run(&b[k], uuid, "ref", "m");
		fx_set(&a[k].batch, batch);
		fx_set(&b[k].batch, batch);
		a[k].round = b[k].round = (int64_t)k + 1;
		a[k].looks_to = b[k].looks_to = looks_to;
		fx_set(&a[k].started_at, t[2 * k + (k % 2)]);
		fx_set(&b[k].started_at, t[2 * k + 1 - (k % 2)]);
		around(&a[k], RUN_TG, ours[k]);
		around(&b[k], RUN_TG, vs[k]);
	}
}

/* (4) The level of the pools' design is the estimate's: a caller's looks_to and
 * noise are replaced, and the answer is estimate_cell()'s at pools_looks(). */
static void test_cellset_estimate_looks(void **state)
{
	static const double ours[3] = { 90, 91, 89.5 }, vs[3] = { 100, 100.5, 99.5 };
	struct run a[3], b[3];
	struct pool pa, pb;
	struct estimate_unit *ua, *ub;
	struct estimate_params ep;
	struct estimate e, want, fixed;
	size_t k;

	(void)state;
	rounds(a, b, 3, ours, vs, "u", 10);
	fx_pool(&pa, a, 3);
	fx_pool(&pb, b, 3);
	estimate_params_init(&ep);
	ep.looks_to = 0;
	ep.noise_pct = 50;
	assert_int_equal(pool_estimate(&pa, &pb, RUN_TG, &ep, &e, NULL, NULL), 0);
	assert_int_equal(e.n_rounds, 3);
	assert_true(fabs(e.v.ci_level - (1 - 2 * estimate_look_alpha(10, VERDICT_ALPHA *
								      ESTIMATE_SEQ_ALPHA_SHARE))) <
		    1e-12);
	ua = pool_units(&pa, RUN_TG);
	ub = pool_units(&pb, RUN_TG);
	ep.looks_to = 10;
	ep.noise_pct = 0;
	assert_int_equal(estimate_cell(ua, 3, ub, 3, &ep, &want), 0);
	assert_same_estimate(&e, &want);
	/* A fixed design's interval is narrower: the level was not the caller's 0. */
	ep.looks_to = 0;
	assert_int_equal(estimate_cell(ua, 3, ub, 3, &ep, &fixed), 0);
	assert_true(fixed.v.ci_hi_pct - fixed.v.ci_lo_pct < e.v.ci_hi_pct - e.v.ci_lo_pct);
	estimate_release(&fixed);
	estimate_release(&want);
	estimate_release(&e);
	free(ua);
	free(ub);
	free(pa.runs);
	free(pb.runs);
	for (k = 0; k < 3; k++) {
		run_release(&a[k]);
		run_release(&b[k]);
	}
}

/* (5) An environment finding on a run the estimate uses spoils the verdict; on a
 * run it leaves out (an outlier, a run without a partner) it does not. */
static void test_cellset_estimate_spoiled(void **state)
{
	/* Round 4 of ours is a busy host's 40 tok/s: an outlier. */
	static const double ours[4] = { 90, 91, 89.5, 40 }, vs[4] = { 100, 100.5, 99.5, 100.2 };
	struct run a[4], b[4];
	struct pool pa, pb;
	struct estimate_params ep;
	struct estimate e;
	size_t k;

	(void)state;
	rounds(a, b, 4, ours, vs, "b", 0);
	fx_pool(&pa, a, 4);
	fx_pool(&pb, b, 4);
	estimate_params_init(&ep);

	/* Clean: three rounds (ours' round 4 left out, vs' round 4 unpaired), -10%
	 * decided. */
	assert_int_equal(pool_estimate(&pa, &pb, RUN_TG, &ep, &e, NULL, NULL), 0);
	assert_int_equal(e.n_rounds, 3);
	assert_int_equal(e.n_out_ours, 1);
	assert_int_equal(e.v.kind, VERDICT_SLOWER);
	assert_int_equal(e.v.regression, VERDICT_REG_YES);
	assert_int_equal(e.v.decided, 1);
	assert_int_equal(e.v.spoiled, 0);
	estimate_release(&e);

	/* A finding on the outlier, and on vs' unpaired round 4: neither is an
	 * instance the estimate uses, so it stands (rules out spoiling on any run
	 * of the pools, pool_env()). */
	a[3].env_flags = RUN_ENV_HOST_BUSY;
	b[3].env_flags = RUN_ENV_GPU_CONTENDED;
	assert_true(pool_env(&pa) && pool_env(&pb));
	assert_int_equal(pool_estimate(&pa, &pb, RUN_TG, &ep, &e, NULL, NULL), 0);
	assert_int_equal(e.v.regression, VERDICT_REG_YES);
	assert_int_equal(e.v.decided, 1);
	assert_int_equal(e.v.spoiled, 0);
	estimate_release(&e);

	/* A finding on a run it uses, on each side: spoiled, with both sides' bits
	 * (rules out ours' alone, or deciding anyway), the interval still shown. */
	a[1].env_flags = RUN_ENV_GPU_THROTTLED;
	b[0].env_flags = RUN_ENV_KV_ON_HOST;
	assert_int_equal(pool_estimate(&pa, &pb, RUN_TG, &ep, &e, NULL, NULL), 0);
	assert_int_equal(e.v.kind, VERDICT_SPOILED);
	assert_int_equal(e.v.regression, VERDICT_REG_SPOILED);
	assert_int_equal(e.v.spoiled, RUN_ENV_GPU_THROTTLED | RUN_ENV_KV_ON_HOST);
	assert_int_equal(e.v.decided, 0);
	assert_int_equal(e.v.significant, 0);
	assert_int_equal(verdict_gate_outcome_of(&e.v), VERDICT_GATE_SPOILED);
	assert_true(fabs(e.v.delta_pct + 10) < 1);
	estimate_release(&e);

	free(pa.runs);
	free(pb.runs);
	for (k = 0; k < 4; k++) {
		run_release(&a[k]);
		run_release(&b[k]);
	}
}

/* (5) One instance a side uses the newest of each: a finding on an older run of
 * the pool does not spoil it, one on the face does. Two of ours against one of
 * vs use both of ours (their spread is the scatter): a finding on either spoils. */
static void test_cellset_estimate_spoiled_one_instance(void **state)
{
	struct run ra[2], rb;
	struct pool a, b;
	struct estimate_params ep;
	struct estimate e;
	size_t k;

	(void)state;
	for (k = 0; k < 2; k++) {
		fx_run(&ra[k], k ? "face" : "old", "ours", "m");
		around(&ra[k], RUN_TG, 90);
		ra[k].floor_pct[RUN_TG] = 1;
	}
	fx_run(&rb, "vs", "ref", "m");
	around(&rb, RUN_TG, 100);
	fx_pool(&a, ra, 2);
	fx_pool(&b, &rb, 1);
	estimate_params_init(&ep);
	ra[0].env_flags = RUN_ENV_HOST_BUSY;
	assert_int_equal(pool_estimate(&a, &b, RUN_TG, &ep, &e, NULL, NULL), 0);
	assert_int_equal(e.v.method, VERDICT_METHOD_SPREAD);
	assert_int_equal(e.v.regression, VERDICT_REG_SPOILED);
	assert_int_equal(e.v.spoiled, RUN_ENV_HOST_BUSY);
	estimate_release(&e);
	/* The face alone against vs: the older run's finding is no part of it. */
	a.n = 1;
	a.runs[0] = &ra[1];
	assert_int_equal(pool_estimate(&a, &b, RUN_TG, &ep, &e, NULL, NULL), 0);
	assert_int_equal(e.v.method, VERDICT_METHOD_REQUESTS);
	assert_int_equal(e.v.regression, VERDICT_REG_YES);
	assert_int_equal(e.v.spoiled, 0);
	estimate_release(&e);
	ra[1].env_flags = RUN_ENV_CLOCKS_CHANGED;
	assert_int_equal(pool_estimate(&a, &b, RUN_TG, &ep, &e, NULL, NULL), 0);
	assert_int_equal(e.v.regression, VERDICT_REG_SPOILED);
	assert_int_equal(e.v.kind, VERDICT_SPOILED);
	assert_int_equal(e.v.spoiled, RUN_ENV_CLOCKS_CHANGED);
	assert_int_equal(e.v.decided, 0);
	estimate_release(&e);
	free(a.runs);
	free(b.runs);
	run_release(&ra[0]);
	run_release(&ra[1]);
	run_release(&rb);
}

/* A round's instance is its last try: collect --wait-quiet measured ours' round 2
 * again after another job spoiled it (r2a, gpu-contended), so the pool holds r1,
 * r2b, r3 and the estimate decides from the clean retry (rules out pairing the
 * first try of a round, which spoils the cell). A run of the same round in another
 * batch (o2), or with no round (n0, n1), is no try of it (rules out matching by
 * round alone); the history drops a batch's retried try too. */
static void test_cellset_pools_retried(void **state)
{
	static const double ours[4] = { 90, 50, 91, 89.5 }, vs[3] = { 100, 100.5, 99.5 };
	static const char *const ids[4] = { "r1", "r2a", "r2b", "r3" };
	static const int64_t rnd[4] = { 1, 2, 2, 3 };
	struct cellset s;
	struct pool *p = NULL;
	struct estimate_params ep;
	struct estimate e;
	char at[24];
	size_t n = 0, i, t = 0;

	(void)state;
	set_init(&s);
	/* Series ours: batch h (round 1 tried twice), o2 of another batch, then
	 * batch b; started in this order. */
	for (i = 0; i < 2; i++) {
		struct run *r = add(&s, i ? "h1b" : "h1a", "ours", "m", "h", "");

		r->round = 1;
		r->env_flags = i ? 0 : RUN_ENV_HOST_BUSY;
	}
	add(&s, "o2", "ours", "m", "old", "")->round = 2;
	for (i = 0; i < 4; i++) {
		struct run *r = add(&s, ids[i], "ours", "m", "b", "");
		r->round = rnd[i];
		around(r, RUN_TG, ours[i]);
		if (i == 1)
			r->env_flags = RUN_ENV_GPU_CONTENDED;
	}
	for (i = 0; i < 3; i++) {
		struct run *r = add(&s, i == 0 ? "v1" : i == 1 ? "v2" : "v3", "vs", "m", "b", "");
		r->round = (int64_t)i + 1;
		around(r, RUN_TG, vs[i]);
	}
	add(&s, "n0", "x", "m", "nb", "");
	add(&s, "n1", "x", "m", "nb", "");
	for (i = 0; i < s.n; i++) {
		snprintf(at, sizeof(at), "t%02zu", t++);
		fx_set(&s.runs[i].started_at, at);
	}
	cellset_pools(&s, POOL_NEWEST_BATCH, &p, &n);
	assert_int_equal(n, 3);
	assert_string_equal(names(&p[0]), "r1 r2b r3");
	assert_int_equal(p[0].n_hist, 2);
	assert_string_equal(p[0].hist[0]->uuid, "h1b");
	assert_string_equal(p[0].hist[1]->uuid, "o2");
	assert_string_equal(names(&p[1]), "v1 v2 v3");
	assert_string_equal(names(&p[2]), "n0 n1");
	estimate_params_init(&ep);
	assert_int_equal(pool_estimate(&p[0], &p[1], RUN_TG, &ep, &e, NULL, NULL), 0);
	assert_int_equal(e.n_rounds, 3);
	assert_int_equal(e.v.spoiled, 0);
	assert_int_equal(e.n_out_ours, 0);
	assert_true(fabs(e.v.delta_pct + 9.8) < 0.5); /* the retry's 91, not the try's 50 */
	estimate_release(&e);
	pools_free(p, n);
	cellset_release(&s);

	/* Only a try another job spoiled was measured again: two clean runs of one
	 * round (one label given to two engines' runs) are both instances. */
	set_init(&s);
	for (i = 0; i < 2; i++) {
		struct run *r = add(&s, i ? "c2" : "c1", "ours", "m", "b", "");

		r->round = 1;
		snprintf(at, sizeof(at), "t%02zu", t++);
		fx_set(&r->started_at, at);
	}
	cellset_pools(&s, POOL_NEWEST_BATCH, &p, &n);
	assert_int_equal(n, 1);
	assert_string_equal(names(&p[0]), "c1 c2");
	pools_free(p, n);
	cellset_release(&s);
}

/* (6) estimate_rounds(): rounds of a batch both sides hold pair first; then by
 * number the runs whose batch the other side lacks or that have none; never
 * across a batch both sides hold; by start order when any round is unknown. */
static void test_cellset_rounds(void **state)
{
#define U(b, r) { .round = (r), .batch = (b), .value = NAN }
#define NO_ROUND INT64_MIN
	static const struct {
		struct estimate_unit a[3], b[3];
		size_t na, nb, n;
		size_t pairs[6];
		const char *rules_out;
	} cases[] = {
		/* Within one batch first: ours' (b1,1) with vs' (b1,1) though vs lists
		 * b2 first. */
		{ { U("b1", 1), U("b2", 1) }, { U("b2", 1), U("b1", 1) }, 2, 2, 2,
		  { 0, 1, 1, 0 }, "pairing by number in list order" },
		/* A baseline frozen from another batch: by number alone, 3-3, 1-1, 2-2. */
		{ { U("cand", 1), U("cand", 2), U("cand", 3) },
		  { U("base", 3), U("base", 1), U("base", 2) }, 3, 3, 3,
		  { 0, 1, 1, 2, 2, 0 }, "start order across batches" },
		/* Both sides hold b1 and b2, and no round number meets within one:
		 * nothing pairs. */
		{ { U("b1", 1), U("b2", 2) }, { U("b1", 2), U("b2", 1) }, 2, 2, 0,
		  { 0 }, "pairing by number across a batch both hold" },
		/* An import (no batch) pairs by number with a batch ours lacks, after
		 * the within-batch round that took (b1,1) of vs... */
		{ { U("b1", 1), U("b1", 2), U(NULL, 1) }, { U("b1", 1), U("b2", 1) }, 3, 2, 2,
		  { 0, 0, 2, 1 }, "leaving batchless runs unpaired" },
		/* A run without a batch pairs by number even with a batch the other
		 * side holds: nothing says which batch it came from. */
		{ { U(NULL, 2), U("b1", 1) }, { U("b1", 1), U("b1", 2) }, 2, 2, 2,
		  { 1, 0, 0, 1 }, "requiring both batches known in the second pass" },
		/* One round unknown: start order for all, the k-th with the k-th. */
		{ { U("b", 2), U("b", 1) }, { U("b", 1), U("b", NO_ROUND) }, 2, 2, 2,
		  { 0, 0, 1, 1 }, "pairing the numbered runs by number" },
		/* Start order stops at the shorter side. */
		{ { U(NULL, NO_ROUND), U(NULL, NO_ROUND), U(NULL, NO_ROUND) },
		  { U(NULL, NO_ROUND), U(NULL, NO_ROUND) }, 3, 2, 2,
		  { 0, 0, 1, 1 }, "more rounds than the shorter side has runs" },
	};
#undef U
	size_t c, r, ia[3] = { 0, 1, 2 }, ib[3] = { 0, 1, 2 };

	(void)state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		size_t pairs[6] = { 99, 99, 99, 99, 99, 99 };
		size_t n = estimate_rounds(cases[c].a, ia, cases[c].na, cases[c].b, ib, cases[c].nb,
					   pairs);

		if (n != cases[c].n)
			fail_msg("case %zu: %zu rounds, want %zu (rules out %s)", c, n, cases[c].n,
				 cases[c].rules_out);
		for (r = 0; r < 2 * n; r++)
			if (pairs[r] != cases[c].pairs[r])
				fail_msg("case %zu: pairs[%zu] %zu, want %zu (rules out %s)", c, r,
					 pairs[r], cases[c].pairs[r], cases[c].rules_out);
	}

	/* Positions, not indexes: of a's units only 0 and 2 are offered, and
	 * unit 2 (round 1) pairs as position 1 (rules out returning the unit's
	 * index, which estimate_cell() would read past its kept list). */
	{
		const struct estimate_unit a[3] = { { .round = 2, .batch = "b", .value = NAN },
						    { .round = 1, .batch = "b", .value = NAN },
						    { .round = 1, .batch = "b", .value = NAN } };
		const struct estimate_unit b[1] = { { .round = 1, .batch = "b", .value = NAN } };
		size_t only[2] = { 0, 2 }, pairs[2] = { 99, 99 };

		assert_int_equal(estimate_rounds(a, only, 2, b, ib, 1, pairs), 1);
		assert_int_equal(pairs[0], 1);
		assert_int_equal(pairs[1], 0);
	}
#undef NO_ROUND
}

static int by_engine_then_start(const void *x, const void *y)
{
	const struct run *a = x, *b = y;
	int c = strcmp(a->engine, b->engine);

	return c ? c : strcmp(a->started_at, b->started_at);
}

/* History: under the newest-batch rule, each pool holds its series' earlier
 * batches on the face's host (another host's never), and pool_history() reads
 * the round scatter of each batch both sides hold: b1 (host h, 4 rounds) is
 * history, b2 (another host) is not, b3 is the pool. A filter that chose the
 * runs (POOL_ALL) has none. */
static void test_cellset_history(void **state)
{
	static const char *const batch[3] = { "b1", "b2", "b3" };
	static const int rounds[3] = { 4, 4, 3 };
	static const double d[4] = { 1.01, 0.99, 1.015, 0.985 };
	struct cellset set = { tps_xcalloc(22, sizeof(struct run)), 0 };
	struct estimate_history h;
	struct pool *p;
	size_t np;
	char t[32];
	int b, r, side;

	(void)state;
	for (b = 0; b < 3; b++)
		for (r = 0; r < rounds[b]; r++)
			for (side = 0; side < 2; side++) {
				struct run *x = &set.runs[set.n++];

				snprintf(t, sizeof(t), "%s-%d-%d", batch[b], r, side);
				fx_run(x, t, side ? "vs" : "ours", "m");
				snprintf(t, sizeof(t), "2026-01-0%dT00:%02d:%02d", b + 1, r, side ^ (r % 2));
				fx_set(&x->started_at, t);
				fx_set(&x->batch, batch[b]);
				fx_set(&x->host, b == 1 ? "other" : "h");
				x->round = r + 1;
				around(x, RUN_TG, side ? 100 : 100 * d[r]);
				around(x, RUN_PP, 1000);
			}
	/* The set's order: series by series, oldest first. */
	qsort(set.runs, set.n, sizeof(*set.runs), by_engine_then_start);
	cellset_pools(&set, POOL_NEWEST_BATCH, &p, &np);
	assert_int_equal(np, 2);
	assert_int_equal(p[0].n, 3);
	assert_int_equal(p[0].n_hist, 4);
	for (size_t k = 0; k < p[0].n_hist; k++) {
		assert_string_equal(p[0].hist[k]->batch, "b1");
		assert_string_equal(p[0].hist[k]->host, "h");
	}
	pool_history(&p[0], &p[1], RUN_TG, &h);
	assert_int_equal(h.batches, 1);
	assert_true(fabs(h.df - 3) < 1e-12);
	assert_true(h.ss > 0);
	pools_free(p, np);
	cellset_pools(&set, POOL_ALL, &p, &np);
	assert_int_equal(p[0].n_hist, 0);
	pool_history(&p[0], &p[1], RUN_TG, &h);
	assert_int_equal(h.batches, 0);
	pools_free(p, np);
	cellset_release(&set);
}

/* A run of engine in batch on a machine (host, gpu), started at minute t. */
static struct run *on(struct cellset *s, const char *uuid, const char *engine,
		      const char *batch, const char *host, const char *gpu, int t, int round)
{
	struct run *r = add(s, uuid, engine, "m", batch, "");
	char at[32];

	snprintf(at, sizeof(at), "2026-01-01T00:%02d:00", t);
	fx_set(&r->started_at, at);
	fx_set(&r->host, host);
	fx_set(&r->gpu, gpu);
	r->round = round;
	return r;
}

/* run_same_machine(): host, GPU, driver, CUDA, CPU; an unknown part tells nothing.
 * Rules out the host name alone (the same name with another GPU) and strict
 * equality (an import without --host or a GPU against a collected run). */
static void test_cellset_same_machine(void **state)
{
	struct run a, b;
	char *t;

	(void)state;
	fx_run(&a, "a", "e", "m");
	fx_run(&b, "b", "e", "m");
	fx_set(&a.host, "vm");
	fx_set(&a.gpu, "NVIDIA H200");
	fx_set(&a.driver, "570.86.15");
	fx_set(&a.cuda, "12.8");
	fx_set(&b.host, "vm");
	fx_set(&b.gpu, "NVIDIA H200");
	fx_set(&b.driver, "570.86.15");
	fx_set(&b.cuda, "12.8");
	assert_true(run_same_machine(&a, &b));
	fx_set(&b.gpu, "NVIDIA H100 80GB HBM3");
	assert_false(run_same_machine(&a, &b));
	fx_set(&b.gpu, "");
	assert_true(run_same_machine(&a, &b));
	fx_set(&b.host, "beta");
	assert_false(run_same_machine(&a, &b));
	fx_set(&b.host, "unknown");
	assert_true(run_same_machine(&a, &b));
	fx_set(&b.gpu, "NVIDIA H100 80GB HBM3");
	assert_false(run_same_machine(&a, &b));
	fx_set(&b.gpu, "NVIDIA H200");
	fx_set(&b.driver, "580.1");
	assert_false(run_same_machine(&a, &b));
	fx_set(&b.driver, "570.86.15");
	fx_set(&b.cuda, "13.0");
	assert_false(run_same_machine(&a, &b));
	fx_set(&b.cuda, "12.8");
	fx_set(&a.cpu, "AMD EPYC 9654");
	fx_set(&b.cpu, "Intel Xeon 8480");
	assert_false(run_same_machine(&a, &b));
	fx_set(&b.cpu, "");
	assert_true(run_same_machine(&a, &b));
	/* Absent (NULL) parts, as a run built without them: unknown. */
	free(b.gpu);
	b.gpu = NULL;
	assert_true(run_same_machine(&a, &b));

	t = run_machine_text(&a);
	assert_string_equal(t, "vm (NVIDIA H200, driver 570.86.15, CUDA 12.8, AMD EPYC 9654)");
	free(t);
	t = run_machine_text(&b);
	assert_string_equal(t, "unknown (driver 570.86.15, CUDA 12.8)");
	free(t);
	fx_set(&b.host, "beta");
	fx_set(&b.driver, "");
	fx_set(&b.cuda, "");
	t = run_machine_text(&b);
	assert_string_equal(t, "beta");
	free(t);
	run_release(&a);
	run_release(&b);
}

/* pools_pair(): the newest batch that measured both sides, not each side's own
 * newest. Ours ran b1 on vm with vs, then b2 alone on beta (another GPU, the
 * same host name would do as well); the pools the sides take alone are b2
 * against b1, on two machines; the pair takes b1 of both, on one. Rules out
 * pairing each side's newest (b2 against b1) and the newest batch of either
 * side (b2, which vs never ran). */
static void test_cellset_pools_pair(void **state)
{
	struct cellset s;
	struct pool *p = NULL, ra, rb;
	const struct run *x, *y;
	size_t n = 0;

	(void)state;
	set_init(&s);
	on(&s, "o1a", "ours", "b1", "vm", "H200", 1, 1);
	on(&s, "o1b", "ours", "b1", "vm", "H200", 3, 2);
	on(&s, "o2a", "ours", "b2", "beta", "H100", 10, 1);
	on(&s, "o2b", "ours", "b2", "beta", "H100", 12, 2);
	on(&s, "v1a", "vs", "b1", "vm", "H200", 2, 1);
	on(&s, "v1b", "vs", "b1", "vm", "H200", 4, 2);
	cellset_pools(&s, POOL_NEWEST_BATCH, &p, &n);
	assert_int_equal(n, 2);
	assert_string_equal(names(&p[0]), "o2a o2b");
	assert_string_equal(names(&p[1]), "v1a v1b");
	assert_false(pools_same_machine(&p[0], &p[1], &x, &y));
	assert_string_equal(x->uuid, "o2b");
	assert_string_equal(y->uuid, "v1b");

	assert_int_equal(pools_pair(&p[0], &p[1], &ra, &rb), 1);
	assert_string_equal(names(&ra), "o1a o1b");
	assert_string_equal(names(&rb), "v1a v1b");
	assert_true(pools_same_machine(&ra, &rb, &x, &y));
	assert_null(x);
	assert_null(y);
	pool_release(&ra);
	pool_release(&rb);

	/* The samples loader is asked for what the pair takes. */
	pools_want_pairs(&p[0], 1, &p[1], 1, RUN_LOAD_VALUES);
	assert_int_equal(s.runs[0].want, RUN_LOAD_VALUES);
	assert_int_equal(s.runs[2].want, 0);

	/* Each side the other's pair: b2 of ours has nothing of vs. */
	assert_int_equal(pools_pair(&p[1], &p[0], &ra, &rb), 1);
	assert_string_equal(names(&ra), "v1a v1b");
	assert_string_equal(names(&rb), "o1a o1b");
	pool_release(&ra);
	pool_release(&rb);
	pools_free(p, n);

	/* Chosen runs (POOL_ALL) are never pooled again: copies. */
	cellset_pools(&s, POOL_ALL, &p, &n);
	assert_int_equal(pools_pair(&p[0], &p[1], &ra, &rb), 0);
	assert_string_equal(names(&ra), "o1a o1b o2a o2b");
	assert_false(pools_same_machine(&ra, &rb, &x, &y));
	assert_string_equal(x->uuid, "o2b");
	assert_string_equal(y->uuid, "v1b");
	pool_release(&ra);
	pool_release(&rb);
	pools_free(p, n);
	cellset_release(&s);

	/* No batch holds both: each side's newest, left as it was. */
	set_init(&s);
	on(&s, "o2a", "ours", "b2", "beta", "H100", 10, 1);
	on(&s, "v1a", "vs", "b1", "vm", "H200", 2, 1);
	cellset_pools(&s, POOL_NEWEST_BATCH, &p, &n);
	assert_int_equal(pools_pair(&p[0], &p[1], &ra, &rb), 0);
	assert_string_equal(names(&ra), "o2a");
	assert_string_equal(names(&rb), "v1a");
	assert_false(pools_same_machine(&ra, &rb, NULL, NULL));
	pool_release(&ra);
	pool_release(&rb);
	pools_free(p, n);
	cellset_release(&s);

	/* One batch both measured, and an older one too: the newest of them. */
	set_init(&s);
	on(&s, "o0", "ours", "b0", "vm", "H200", 0, 1);
	on(&s, "o1", "ours", "b1", "vm", "H200", 5, 1);
	on(&s, "o2", "ours", "b2", "vm", "H100", 9, 1);
	on(&s, "v0", "vs", "b0", "vm", "H200", 1, 1);
	on(&s, "v1", "vs", "b1", "vm", "H200", 6, 1);
	cellset_pools(&s, POOL_NEWEST_BATCH, &p, &n);
	assert_int_equal(pools_pair(&p[0], &p[1], &ra, &rb), 1);
	assert_string_equal(names(&ra), "o1");
	assert_string_equal(names(&rb), "v1");
	/* Its history: b0, on the same machine. */
	assert_int_equal(ra.n_hist, 1);
	assert_string_equal(ra.hist[0]->uuid, "o0");
	pool_release(&ra);
	pool_release(&rb);
	/* ours' own pool (b2, on the H100) takes no history of the H200's. */
	assert_int_equal(p[0].n_hist, 0);
	pools_free(p, n);
	cellset_release(&s);
}

/* pools_split_machines(): a series measured on two machines is two series, each
 * keeping its runs' order; one machine's series is left whole. Rules out one
 * series across machines (a move to other hardware read as a change point). */
static void test_cellset_split_machines(void **state)
{
	struct cellset s;
	struct pool *p = NULL;
	size_t n = 0;

	(void)state;
	set_init(&s);
	on(&s, "a1", "ours", "b1", "vm", "H200", 1, 1);
	on(&s, "a2", "ours", "b2", "beta", "H100", 2, 1);
	on(&s, "a3", "ours", "b3", "vm", "H200", 3, 1);
	on(&s, "a4", "ours", "b4", "beta", "H100", 4, 1);
	on(&s, "v1", "vs", "b1", "vm", "H200", 1, 1);
	on(&s, "v2", "vs", "b3", "vm", "", 3, 1);
	cellset_pools(&s, POOL_ALL, &p, &n);
	assert_int_equal(n, 2);
	pools_split_machines(&p, &n);
	assert_int_equal(n, 3);
	/* The newest run's machine first. */
	assert_string_equal(names(&p[0]), "a2 a4");
	assert_string_equal(names(&p[1]), "a1 a3");
	/* An unknown GPU tells nothing: one series. */
	assert_string_equal(names(&p[2]), "v1 v2");
	pools_free(p, n);
	cellset_release(&s);
}

/* Batches b1..b4 of ours and vs on host h, 3 rounds each, b4 the newest: b2 ran
 * on a contended GPU (every run of ours gpu-contended), b3 asked 2 reps of every
 * prompt where the others asked 1. */
static void clean_set(struct cellset *set, double b1_ratio)
{
	static const char *const batch[4] = { "b1", "b2", "b3", "b4" };
	static const double d[3] = { 1.01, 0.99, 1.015 };
	char t[32];
	int b, r, side;

	set->runs = tps_xcalloc(24, sizeof(struct run));
	set->n = 0;
	for (b = 0; b < 4; b++)
		for (r = 0; r < 3; r++)
			for (side = 0; side < 2; side++) {
				struct run *x = &set->runs[set->n++];

				snprintf(t, sizeof(t), "%s-%d-%d", batch[b], r, side);
				fx_run(x, t, side ? "vs" : "ours", "m");
				snprintf(t, sizeof(t), "2026-01-0%dT00:%02d:%02d", b + 1, r,
					 side ^ (r % 2));
				fx_set(&x->started_at, t);
				fx_set(&x->batch, batch[b]);
				fx_set(&x->host, "h");
				x->round = r + 1;
				x->reps = b == 2 ? 2 : 1;
				if (b == 1 && !side)
					x->env_flags = RUN_ENV_GPU_CONTENDED;
				around(x, RUN_TG, side ? 100 : 100 * d[r] * (b == 0 ? b1_ratio : 1));
				around(x, RUN_PP, 1000);
			}
	qsort(set->runs, set->n, sizeof(*set->runs), by_engine_then_start);
}

/* Only clean evidence of the same design is history: of b1..b3, b1 alone (b2
 * contended, b3 another design; an incomplete run of b1 is left out too). */
static void test_cellset_history_clean(void **state)
{
	struct cellset set;
	struct estimate_history h;
	struct pool *p;
	size_t np, k;

	(void)state;
	clean_set(&set, 1);
	free(set.runs[0].status); /* ours' b1 round 1 */
	set.runs[0].status = tps_xstrdup("partial");
	assert_false(run_clean(&set.runs[0]));
	assert_true(run_clean(&set.runs[1]));
	cellset_pools(&set, POOL_NEWEST_BATCH, &p, &np);
	assert_int_equal(np, 2);
	assert_int_equal(p[0].n, 3);
	assert_string_equal(pool_face(&p[0])->batch, "b4");
	assert_int_equal(p[0].n_hist, 2);
	for (k = 0; k < p[0].n_hist; k++)
		assert_string_equal(p[0].hist[k]->batch, "b1");
	/* vs' b2 is clean: its history, though ours' is not (pool_history() reads
	 * the batches both hold). */
	assert_int_equal(p[1].n_hist, 6);
	for (k = 0; k < p[1].n_hist; k++)
		assert_string_not_equal(p[1].hist[k]->batch, "b3");
	pool_history(&p[0], &p[1], RUN_TG, &h);
	assert_int_equal(h.batches, 1);
	pools_free(p, np);
	cellset_release(&set);
}

/* The newest clean answer: with b4 the selection, b3 (another design, but clean)
 * is the newest clean batch; with b3 spoiled too, b1 (b2 is contended); nothing
 * on another host; against a fixed other side (a gate's baseline) likewise. Its
 * verdict is the batch's own estimate as a fixed design. */
static void test_cellset_newest_clean(void **state)
{
	struct cellset set;
	struct pool *p, a, b, fb = { 0 };
	struct estimate_params ep;
	struct clean_answer c;
	struct estimate e;
	size_t np, k;

	(void)state;
	clean_set(&set, 0.9);
	cellset_pools(&set, POOL_ALL, &p, &np);
	assert_int_equal(np, 2);
	assert_ptr_equal(pools_find_cell(p, np, "vs", pool_face(&p[0])), &p[1]);
	assert_ptr_equal(pools_find_cell(p, np, NULL, pool_face(&p[1])), &p[0]);
	assert_null(pools_find_cell(p, np, "nope", pool_face(&p[0])));
	estimate_params_init(&ep);
	assert_int_equal(pool_newest_clean(&p[0], &p[1], 1, pool_face(&p[0]), RUN_TG, &ep, &c), 0);
	assert_true(c.found);
	assert_string_equal(c.batch, "b3");
	assert_string_equal(c.started_at, "2026-01-03T00:02:00");
	/* b3 spoiled as well: b1, whose ours is 10% slower: yes. */
	for (k = 0; k < set.n; k++)
		if (!strcmp(set.runs[k].batch, "b3") && !strcmp(set.runs[k].engine, "vs"))
			set.runs[k].env_flags = RUN_ENV_HOST_BUSY;
	assert_int_equal(pool_newest_clean(&p[0], &p[1], 1, pool_face(&p[0]), RUN_TG, &ep, &c), 0);
	assert_true(c.found);
	assert_string_equal(c.batch, "b1");
	assert_int_equal(c.v.regression, VERDICT_REG_YES);
	assert_int_equal(c.v.rounds, 3);
	fx_pool(&a, set.runs, 3);     /* ours' b1 */
	fx_pool(&b, set.runs + 12, 3); /* vs' b1 */
	assert_string_equal(a.runs[2]->batch, "b1");
	assert_string_equal(b.runs[0]->engine, "vs");
	assert_int_equal(pool_estimate(&a, &b, RUN_TG, &ep, &e, NULL, NULL), 0);
	assert_true(e.v.delta_pct == c.v.delta_pct && e.v.ci_lo_pct == c.v.ci_lo_pct);
	estimate_release(&e);
	/* A gate's fixed baseline: vs' b1 whole, ours' newest clean batch b3. */
	assert_int_equal(pool_newest_clean(&p[0], &b, 0, pool_face(&p[0]), RUN_TG, &ep, &c), 0);
	assert_true(c.found);
	assert_string_equal(c.batch, "b3");
	/* A baseline frozen from ours' own b3: b3 is the baseline, no candidate
	 * batch (against itself it would read +0.00%), so b1 answers. */
	fb.runs = tps_xcalloc(p[0].n, sizeof(*fb.runs));
	for (k = fb.n = 0; k < p[0].n; k++)
		if (!strcmp(p[0].runs[k]->batch, "b3"))
			fb.runs[fb.n++] = p[0].runs[k];
	assert_true(fb.n > 0);
	assert_int_equal(pool_newest_clean(&p[0], &fb, 0, pool_face(&p[0]), RUN_TG, &ep, &c), 0);
	assert_true(c.found);
	assert_string_equal(c.batch, "b1");
	free(fb.runs);
	/* Another host's selection: none of h's batches. */
	fx_set(&set.runs[11].host, "other");
	assert_int_equal(pool_newest_clean(&p[0], &p[1], 1, &set.runs[11], RUN_TG, &ep, &c), 0);
	assert_false(c.found);
	free(a.runs);
	free(b.runs);
	pools_free(p, np);
	cellset_release(&set);
}

/* A plan reads the clean runs of the host of the newest clean run only. */
static void test_cellset_keep_clean(void **state)
{
	struct cellset set;
	struct pool *p;
	size_t np, k;

	(void)state;
	clean_set(&set, 1);
	fx_set(&set.runs[11].host, "other"); /* ours' newest, b4 round 3 */
	cellset_pools(&set, POOL_ALL, &p, &np);
	assert_int_equal(p[0].n, 12);
	pool_keep_clean(&p[0]);
	assert_int_equal(p[0].n, 1);
	assert_string_equal(p[0].runs[0]->uuid, "b4-2-0");
	fx_set(&set.runs[11].host, "h");
	pools_free(p, np);
	cellset_pools(&set, POOL_ALL, &p, &np);
	pool_keep_clean(&p[0]);
	assert_int_equal(p[0].n, 9);
	for (k = 0; k < p[0].n; k++)
		assert_string_not_equal(p[0].runs[k]->batch, "b2");
	pools_free(p, np);
	cellset_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cellset_pools_newest_batch),
		cmocka_unit_test(test_cellset_pools_llama_bench),
		cmocka_unit_test(test_cellset_pools_file_identity),
		cmocka_unit_test(test_cellset_pools_split),
		cmocka_unit_test(test_cellset_pools_looks),
		cmocka_unit_test(test_cellset_pools_question),
		cmocka_unit_test(test_cellset_outliers_far_run),
		cmocka_unit_test(test_cellset_outliers_no_values),
		cmocka_unit_test(test_cellset_estimate_floor),
		cmocka_unit_test(test_cellset_history),
		cmocka_unit_test(test_cellset_history_clean),
		cmocka_unit_test(test_cellset_newest_clean),
		cmocka_unit_test(test_cellset_keep_clean),
		cmocka_unit_test(test_cellset_estimate_looks),
		cmocka_unit_test(test_cellset_estimate_spoiled),
		cmocka_unit_test(test_cellset_estimate_spoiled_one_instance),
		cmocka_unit_test(test_cellset_rounds),
		cmocka_unit_test(test_cellset_same_machine),
		cmocka_unit_test(test_cellset_pools_pair),
		cmocka_unit_test(test_cellset_split_machines),
		cmocka_unit_test(test_cellset_pools_retried),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
