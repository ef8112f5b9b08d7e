/* test_gate.c: the gate decision (analyze/gate.c) and its threshold syntax judged
 * from plain structs, without a store or stdout: one cell 6% down at 3% fails alone,
 * the threshold edge, the noise floor widening it, missing and incomparable cells,
 * --strict, --sweep (a step across machines open) and --trend. Then `tpsdb gate` and `tpsdb baseline` run
 * in-process on a migrated ":memory:" store filled through
 * store_run_insert/store_sample_insert: the same cases end to end (JSON and JUnit
 * agree), and XML escaping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/gate.h"
#include "analyze/gate_threshold.h"
#include "analyze/stats.h"
#include "cmd/cmd.h"
#include "schema/noise.h"
#include "schema/record.h"
#include "schema/store.h"
#include "tests/floor_fixture.h"
#include "tests/run_fixture.h"
#include "tpsdb.h"

int cmd_gate(int argc, char **argv, struct tps_ctx *ctx);
int cmd_baseline(int argc, char **argv, struct tps_ctx *ctx);

struct fixture {
	struct tps_ctx ctx;
	char junit[64];
	char *out; /* stdout of the last command */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	int fd;

	if (!f || !(f->ctx.store = store_open(":memory:", 0)))
		return -1;
	snprintf(f->junit, sizeof(f->junit), "/tmp/tpsdb-junit-XXXXXX");
	if ((fd = mkstemp(f->junit)) < 0)
		return -1;
	close(fd);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	store_close(f->ctx.store);
	unlink(f->junit);
	free(f->out);
	free(f);
	return 0;
}

/* Runs cmd with the NULL-terminated arguments, keeping its stdout in f->out. */
static int run(struct fixture *f, int (*cmd)(int, char **, struct tps_ctx *), ...)
{
	char *argv[32];
	char path[] = "/tmp/tpsdb-out-XXXXXX";
	va_list ap;
	int argc = 0, fd, saved, rc;

	va_start(ap, cmd);
	while ((argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	fflush(stdout);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	saved = dup(1);
	dup2(fd, 1);
	rc = cmd(argc, argv, &f->ctx);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd);
	free(f->out);
	f->out = tps_read_file(path, NULL);
	unlink(path);
	assert_non_null(f->out);
	return rc;
}

/* --- the decision, store-free --- */

#define NV 8

/* A candidate or baseline cell of engine e, model m on the completion endpoint:
 * one run (tests/run_fixture.h) and its pool, pp and tg constant at the given
 * means (NaN: no values) over the keys (prompt 1..NV, rep 1), no acceptance
 * unless given. The pool points at the run: a tcell is not copied. */
struct tcell {
	struct run r;
	struct pool p;
};

static void tcell_init(struct tcell *t, const char *uuid, const char *e, const char *m,
		       int64_t n_max, double pp, double tg, double accept)
{
	double mean[GATE_N_METRICS] = { pp, tg, accept };
	double v[NV];
	int k, i;

	memset(t, 0, sizeof(*t));
	fx_run(&t->r, uuid, e, m);
	fx_set(&t->r.spec_type, n_max == TPS_NULL ? "" : "draft");
	t->r.n_max = n_max;
	t->r.ctx = 8192;
	t->r.n_predict = 256;
	/* A floor far below any threshold, so that one instance a side decides as
	 * sharply as its constant values: the threshold rules are what these tests
	 * are about (test_decide_noise_floor drops it). Acceptance has none. */
	t->r.floor_pct[RUN_PP] = t->r.floor_pct[RUN_TG] = 1e-10;
	for (k = 0; k < GATE_N_METRICS; k++) {
		if (isnan(mean[k]))
			continue;
		for (i = 0; i < NV; i++)
			v[i] = mean[k];
		fx_values(&t->r, (enum run_metric)k, v, NV, NULL);
	}
	fx_pool(&t->p, &t->r, 1);
}

static void tcell_release(struct tcell *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		run_release(&t[i].r);
		free(t[i].p.runs);
	}
}

/* Judges the pools of cand[0..nc) against those of base[0..nb). The pools are
 * copied into static arrays the result may point into until the next call. */
static int decide(const struct tcell *cand, size_t nc, const struct tcell *base, size_t nb,
		  const struct gate_params *p, struct gate_result *r)
{
	static struct pool cp[8], bp[8];
	struct gate_input in = { 0 };
	size_t i;

	for (i = 0; i < nc; i++)
		cp[i] = cand[i].p;
	for (i = 0; i < nb; i++)
		bp[i] = base[i].p;
	in.cand = cp;
	in.n_cand = nc;
	in.base = bp;
	in.n_base = nb;
	return gate_decide(&in, p, r);
}

static void test_decide_one_cell_fails(void **state)
{
	struct tcell cand[2], base[2];
	struct gate_params p;
	struct gate_result r;
	size_t i, fails = 0;

	(void)state;
	tcell_init(&base[0], "b0", "ours", "dense", TPS_NULL, 13150, 142.6, NAN);
	tcell_init(&base[1], "b1", "ours", "moe", TPS_NULL, 13000, 200, NAN);
	tcell_init(&cand[0], "c0", "ours", "dense", TPS_NULL, 13160, 142.0, NAN);
	tcell_init(&cand[1], "c1", "ours", "moe", TPS_NULL, 13010, 188, NAN); /* -6% */
	gate_params_init(&p);
	assert_int_equal(decide(cand, 2, base, 2, &p, &r), 0);
	assert_int_equal(r.n_rows, 4); /* acceptance is not gated on the base rung */
	assert_int_equal(r.n_shared, 2);
	assert_int_equal(r.n_notes, 0);
	for (i = 0; i < r.n_rows; i++) {
		const struct gate_row *w = &r.rows[i];
		if (w->g.outcome != VERDICT_GATE_FAIL)
			continue;
		fails++;
		assert_string_equal(w->cand->side->model, "moe");
		assert_string_equal(w->base->side->uuid, "b1");
		assert_int_equal(w->metric, GATE_TG);
		assert_true(fabs(w->g.delta_pct + 6) < 1e-9);
		assert_true(w->g.threshold_pct == 3);
		assert_int_equal(w->g.bound, VERDICT_BOUND_NOISE);
		assert_true(w->g.ci_hi_pct < -3);
	}
	assert_int_equal(fails, 1);
	assert_int_equal(r.n_fail, 1);
	gate_result_release(&r);
	/* A wider threshold for decode alone lets it through. */
	p.threshold[GATE_TG] = 6.5;
	assert_int_equal(decide(cand, 2, base, 2, &p, &r), 0);
	assert_int_equal(r.n_fail, 0);
	gate_result_release(&r);
	tcell_release(cand, 2);
	tcell_release(base, 2);
}

/* A regression of exactly the threshold passes; a hair more fails. */
static void test_decide_threshold_edge(void **state)
{
	struct tcell base, at, beyond;
	struct gate_params p;
	struct gate_result r;

	(void)state;
	tcell_init(&base, "b", "ours", "m", TPS_NULL, 1000, 100, NAN);
	tcell_init(&at, "c", "ours", "m", TPS_NULL, 1000, 97, NAN);
	tcell_init(&beyond, "d", "ours", "m", TPS_NULL, 1000, 96.9, NAN);
	gate_params_init(&p);
	p.gated[GATE_PP] = p.gated[GATE_ACCEPT] = 0;
	assert_int_equal(decide(&at, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.n_rows, 1);
	assert_int_equal(r.rows[0].g.outcome, VERDICT_GATE_PASS);
	assert_int_equal(r.n_fail, 0);
	gate_result_release(&r);
	assert_int_equal(decide(&beyond, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.rows[0].g.outcome, VERDICT_GATE_FAIL);
	assert_int_equal(r.n_fail, 1);
	gate_result_release(&r);
	tcell_release(&base, 1);
	tcell_release(&at, 1);
	tcell_release(&beyond, 1);
}

/* One instance a side: the requests alone cannot show the scatter between
 * instances, so without a stored floor the gate cannot decide (inconclusive, a
 * failure only with --strict); a small floor widens the interval a little and
 * a 4% slowdown fails at 3%; a 2.5% floor widens it past the threshold and the
 * cell is inconclusive again. The baseline's floor is not the one used. */
static void test_decide_noise_floor(void **state)
{
	struct tcell base, cand;
	struct gate_params p;
	struct gate_result r;

	(void)state;
	tcell_init(&base, "b", "ours", "m", TPS_NULL, 1000, 100, NAN);
	tcell_init(&cand, "c", "ours", "m", TPS_NULL, 1000, 96, NAN);
	cand.r.floor_pct[RUN_TG] = NAN;
	gate_params_init(&p);
	p.gated[GATE_PP] = 0;
	assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.n_fail, 0);
	assert_int_equal(r.rows[0].g.outcome, VERDICT_GATE_INCONCLUSIVE);
	/* No facts of a quiet machine and no earlier batch: not even the default
	 * scatter is evidence (analyze/estimate.h). */
	assert_int_equal(r.rows[0].g.bound, VERDICT_BOUND_BAND);
	assert_int_equal(r.rows[0].g.reason, ESTIMATE_REASON_ONE_INSTANCE);
	gate_result_release(&r);
	p.fail_on = GATE_FAIL_ALL & ~GATE_FAIL_OUTPUT; /* --fail-on regression,inconclusive,environment */
	assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.n_fail, 1);
	gate_result_release(&r);
	p.fail_on = GATE_FAIL_REGRESSION;
	cand.r.floor_pct[RUN_TG] = 0.3;
	base.r.floor_pct[RUN_TG] = 50;
	assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.rows[0].g.outcome, VERDICT_GATE_FAIL);
	assert_int_equal(r.rows[0].g.bound, VERDICT_BOUND_NOISE);
	assert_true(r.rows[0].g.ci_hi_pct < -3);
	assert_true(fabs(r.rows[0].noise_pct - 0.3) < 1e-9);
	gate_result_release(&r);
	cand.r.floor_pct[RUN_TG] = 2.5;
	assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.rows[0].g.outcome, VERDICT_GATE_INCONCLUSIVE);
	assert_true(r.rows[0].g.ci_lo_pct < -3 && r.rows[0].g.ci_hi_pct > -3);
	assert_true(fabs(r.rows[0].g.threshold_pct - 3) < 1e-9);
	gate_result_release(&r);
	tcell_release(&base, 1);
	tcell_release(&cand, 1);
}

/* Cells of one side only are notes, in order: the candidate's as met, the
 * baseline's after; nothing shared stops the gate. */
static void test_decide_missing_cells(void **state)
{
	struct tcell base[2], cand[2];
	struct gate_params p;
	struct gate_result r;

	(void)state;
	tcell_init(&base[0], "b0", "ours", "dropped", TPS_NULL, 1000, 100, NAN);
	tcell_init(&base[1], "b1", "ours", "kept", TPS_NULL, 1000, 100, NAN);
	tcell_init(&cand[0], "c0", "ours", "kept", TPS_NULL, 1000, 100, NAN);
	tcell_init(&cand[1], "c1", "ours", "new", TPS_NULL, 1000, 100, NAN);
	gate_params_init(&p);
	assert_int_equal(decide(cand, 2, base, 2, &p, &r), 0);
	assert_int_equal(r.n_rows, 2);
	assert_int_equal(r.n_notes, 2);
	assert_int_equal(r.notes[0].kind, GATE_NOTE_CAND_ONLY);
	assert_string_equal(r.notes[0].cell->side->model, "new");
	assert_int_equal(r.notes[1].kind, GATE_NOTE_BASE_ONLY);
	assert_string_equal(r.notes[1].cell->side->model, "dropped");
	gate_result_release(&r);
	assert_int_equal(decide(&cand[1], 1, base, 2, &p, &r), -1);
	assert_int_equal(r.stop, GATE_STOP_NOTHING_SHARED);
	gate_result_release(&r);
	tcell_release(base, 2);
	tcell_release(cand, 2);
}

/* The baseline holds the cell for two other engines: the first is taken with a
 * note; another engine's run of a gated cell is not missing. A pair of runs with
 * another ctx is refused with a note and not gated. */
static void test_decide_engines_and_refusal(void **state)
{
	struct tcell base[3], cand[2];
	struct gate_params p;
	struct gate_result r;

	(void)state;
	tcell_init(&base[0], "b0", "llama.cpp", "m", TPS_NULL, 1000, 100, NAN);
	tcell_init(&base[1], "b1", "vllm", "m", TPS_NULL, 1000, 100, NAN);
	tcell_init(&base[2], "b2", "ours", "n", TPS_NULL, 1000, 100, NAN);
	tcell_init(&cand[0], "c0", "ours", "m", TPS_NULL, 1000, 100, NAN);
	tcell_init(&cand[1], "c1", "ours", "n", TPS_NULL, 1000, 100, NAN);
	cand[1].r.ctx = 4096;
	gate_params_init(&p);
	assert_int_equal(decide(cand, 2, base, 3, &p, &r), 0);
	assert_int_equal(r.n_shared, 1);
	assert_int_equal(r.n_rows, 2);
	assert_string_equal(r.rows[0].base->side->uuid, "b0");
	assert_int_equal(r.n_notes, 2);
	assert_int_equal(r.notes[0].kind, GATE_NOTE_ENGINES);
	assert_int_equal(r.notes[0].n_engines, 2);
	assert_string_equal(r.notes[0].base->side->engine, "llama.cpp");
	assert_int_equal(r.notes[1].kind, GATE_NOTE_NOT_COMPARABLE);
	assert_int_equal(r.notes[1].diff.kind, RUN_DIFF_CTX);
	gate_result_release(&r);
	tcell_release(base, 3);
	tcell_release(cand, 2);
}

/* A side without values is a NO_DATA note, not a row; acceptance is gated off the
 * base rung only, and its absence on both sides is no note. */
static void test_decide_no_data_and_accept(void **state)
{
	struct tcell base[2], cand[2];
	struct gate_params p;
	struct gate_result r;

	(void)state;
	tcell_init(&base[0], "b0", "ours", "m", TPS_NULL, 1000, 100, NAN);
	tcell_init(&base[1], "b1", "ours", "m", 2, 1000, 100, 0.8);
	tcell_init(&cand[0], "c0", "ours", "m", TPS_NULL, 1000, NAN, NAN);
	tcell_init(&cand[1], "c1", "ours", "m", 2, 1000, 100, 0.7); /* -12.5% */
	gate_params_init(&p);
	assert_int_equal(decide(cand, 2, base, 2, &p, &r), 0);
	assert_int_equal(r.n_rows, 4); /* pp of both, tg and accept of the spec cell */
	assert_int_equal(r.n_notes, 1);
	assert_int_equal(r.notes[0].kind, GATE_NOTE_NO_DATA);
	assert_int_equal(r.notes[0].metric, GATE_TG);
	assert_int_equal(r.notes[0].baseline_empty, 0);
	assert_int_equal(r.rows[3].metric, GATE_ACCEPT);
	/* Acceptance has no stored floor: one instance a side cannot decide it. */
	assert_int_equal(r.rows[3].g.outcome, VERDICT_GATE_INCONCLUSIVE);
	assert_true(r.rows[3].g.delta_pct < -12);
	assert_int_equal(r.n_fail, 0);
	gate_result_release(&r);
	cand[1].r.values[RUN_ACCEPT].n = 0;
	base[1].r.values[RUN_ACCEPT].n = 0;
	assert_int_equal(decide(cand, 2, base, 2, &p, &r), 0);
	assert_int_equal(r.n_rows, 3);
	assert_int_equal(r.n_notes, 1);
	gate_result_release(&r);
	tcell_release(base, 2);
	tcell_release(cand, 2);
}

/* Flagged samples are listed always and fail only with --strict. */
static void test_decide_strict(void **state)
{
	struct tcell base, cand;
	struct gate_params p;
	struct gate_result r;

	(void)state;
	tcell_init(&base, "b", "ours", "m", TPS_NULL, 1000, 100, NAN);
	tcell_init(&cand, "c", "ours", "m", TPS_NULL, 1000, 100, NAN);
	cand.r.flag_counts[0] = 1;
	cand.r.flag_counts[2] = 2;
	cand.r.n_samples = 24;
	base.r.flag_counts[1] = 5; /* the baseline's flags are not the candidate's */
	gate_params_init(&p);
	assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.n_find, 2);
	assert_int_equal(r.find[0].flag, 1u);
	assert_int_equal(r.find[1].flag, 4u);
	assert_int_equal(r.find[1].count, 2);
	assert_int_equal(r.find[1].n_samples, 24);
	assert_int_equal(r.n_fail, 0);
	gate_result_release(&r);
	p.fail_on = GATE_FAIL_ALL & ~GATE_FAIL_OUTPUT; /* --fail-on regression,inconclusive,environment */
	assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.n_fail, 2);
	gate_result_release(&r);
	tcell_release(&base, 1);
	tcell_release(&cand, 1);
}

/* --sweep: every violation of the candidate's series fails. */
static void test_decide_sweep(void **state)
{
	struct tcell base, cand;
	struct sweep_step steps[1] = { { 1, 2, 2, 3, -32.5, NAN, 1, NAN, NAN, NAN, 0, NULL, NULL } };
	struct series se = { 0 };
	struct series_set set = { &se, 1 };
	struct gate_input in = { 0 };
	struct gate_params p;
	struct gate_result r;

	(void)state;
	tcell_init(&base, "b", "ours", "m", TPS_NULL, 1000, 100, NAN);
	tcell_init(&cand, "c", "ours", "m", TPS_NULL, 1000, 100, NAN);
	se.engine = "ours";
	se.report.violations = steps;
	se.report.n_violations = 1;
	in.cand = &cand.p;
	in.n_cand = 1;
	in.base = &base.p;
	in.n_base = 1;
	in.sweep = &set;
	gate_params_init(&p);
	assert_int_equal(gate_decide(&in, &p, &r), 0);
	assert_int_equal(r.n_viol, 0);
	gate_result_release(&r);
	p.sweep = 1;
	assert_int_equal(gate_decide(&in, &p, &r), 0);
	assert_int_equal(r.n_viol, 1);
	assert_true(r.viol[0].series == &se);
	assert_int_equal(r.viol[0].from, 2);
	assert_int_equal(r.viol[0].to, 3);
	assert_true(fabs(r.viol[0].drop_pct - 32.5) < 1e-12);
	assert_int_equal(r.n_fail, 1);
	gate_result_release(&r);
	tcell_release(&base, 1);
	tcell_release(&cand, 1);
}

/* --sweep over a step whose rungs were measured on two machines (the sweep's
 * report.across): never a violation, never a pass: the status is open
 * (INCONCLUSIVE) with nothing failed, and only --fail-on inconclusive fails it;
 * a decided violation beside it still fails. */
static void test_decide_sweep_across(void **state)
{
	struct tcell base, cand;
	struct run a, b;
	struct sweep_step across[1] = { { 1, 2, 2, 3, NAN, NAN, 0, NAN, NAN, NAN, 0, NULL, NULL } };
	struct sweep_step viol[1] = { { 0, 1, 1, 2, -20, NAN, 1, NAN, NAN, NAN, 0, NULL, NULL } };
	struct series se = { 0 };
	struct series_set set = { &se, 1 };
	struct gate_input in = { 0 };
	struct gate_params p;
	struct gate_result r;

	(void)state;
	tcell_init(&base, "b", "ours", "m", TPS_NULL, 1000, 100, NAN);
	tcell_init(&cand, "c", "ours", "m", TPS_NULL, 1000, 100, NAN);
	fx_run(&a, "a", "ours", "m");
	fx_run(&b, "z", "ours", "m");
	fx_set(&a.host, "alpha");
	fx_set(&b.host, "beta");
	across[0].machine_a = &a;
	across[0].machine_b = &b;
	se.engine = "ours";
	se.report.across = across;
	se.report.n_across = 1;
	in.cand = &cand.p;
	in.n_cand = 1;
	in.base = &base.p;
	in.n_base = 1;
	in.sweep = &set;
	gate_params_init(&p);
	assert_int_equal(gate_decide(&in, &p, &r), 0);
	assert_int_equal(r.status, GATE_STATUS_PASS); /* without --sweep: not asked */
	assert_int_equal(r.n_sweep_across, 0);
	gate_result_release(&r);
	p.sweep = 1;
	assert_int_equal(gate_decide(&in, &p, &r), 0);
	assert_int_equal(r.n_viol, 0);
	assert_int_equal(r.n_sweep_across, 1);
	assert_true(r.sweep_across[0].series == &se);
	assert_true(r.sweep_across[0].step == &across[0]);
	assert_true(r.sweep_across[0].step->machine_a == &a);
	assert_int_equal(r.sweep_across[0].fails, 0);
	assert_int_equal(r.n_fail, 0);
	assert_int_equal(r.n_inconclusive, 0); /* the rows' count: the cell passed */
	assert_int_equal(r.status, GATE_STATUS_OPEN);
	gate_result_release(&r);
	p.fail_on |= GATE_FAIL_INCONCLUSIVE;
	assert_int_equal(gate_decide(&in, &p, &r), 0);
	assert_int_equal(r.sweep_across[0].fails, GATE_FAIL_INCONCLUSIVE);
	assert_int_equal(r.n_fail, 1);
	assert_int_equal(r.status, GATE_STATUS_FAIL);
	gate_result_release(&r);
	/* A decided violation of another step fails; the step across stays open. */
	p.fail_on = GATE_FAIL_REGRESSION;
	se.report.violations = viol;
	se.report.n_violations = 1;
	assert_int_equal(gate_decide(&in, &p, &r), 0);
	assert_int_equal(r.n_viol, 1);
	assert_int_equal(r.n_sweep_across, 1);
	assert_int_equal(r.sweep_across[0].fails, 0);
	assert_int_equal(r.n_fail, 1);
	assert_int_equal(r.status, GATE_STATUS_FAIL);
	gate_result_release(&r);
	run_release(&a);
	run_release(&b);
	tcell_release(&base, 1);
	tcell_release(&cand, 1);
}

/* --trend: eight runs, decode falling 7% from the fifth; the candidate matches its
 * baseline, yet the history's newest change point fails. Prefill holds. The
 * history is a pool of every run of the candidate's series (gate_input.hist). */
static void test_decide_trend(void **state)
{
	static const double wig[3] = { -0.2, 0, 0.2 };
	static const char *const tags[8] = { "h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8" };
	struct tcell base, cand;
	struct run runs[8];
	struct pool hist;
	struct gate_input in = { 0 };
	struct gate_params p;
	struct gate_result r;
	int m, i, k;

	(void)state;
	tcell_init(&base, "b", "ours", "m", TPS_NULL, 1000, 133, NAN);
	tcell_init(&cand, "c", "ours", "m", TPS_NULL, 1000, 133, NAN);
	for (i = 0; i < 8; i++) {
		fx_run(&runs[i], tags[i], "ours", "m");
		fx_set(&runs[i].tag, tags[i]);
		runs[i].ctx = 8192;
		runs[i].n_predict = 256;
		for (m = 0; m < 2; m++) {
			double mean = m == GATE_TG ? (i < 4 ? 143 : 133) : 1000, v[3];
			for (k = 0; k < 3; k++)
				v[k] = mean + wig[(i + k) % 3];
			fx_values(&runs[i], (enum run_metric)m, v, 3, NULL);
		}
	}
	fx_pool(&hist, runs, 8);
	in.cand = &cand.p;
	in.n_cand = 1;
	in.base = &base.p;
	in.n_base = 1;
	in.hist = &hist;
	in.n_hist = 1;
	gate_params_init(&p);
	assert_int_equal(gate_decide(&in, &p, &r), 0);
	assert_int_equal(r.n_trend, 0);
	assert_int_equal(r.n_fail, 0);
	gate_result_release(&r);
	p.trend = 1;
	assert_int_equal(gate_decide(&in, &p, &r), 0);
	assert_int_equal(r.n_trend, 1);
	assert_int_equal(r.trend[0].metric, GATE_TG);
	assert_string_equal(r.trend[0].run->tag, "h5");
	assert_true(r.trend[0].cp.change_pct < -6.5 && r.trend[0].cp.change_pct > -7.5);
	assert_true(r.trend[0].fail);
	assert_int_equal(r.n_fail, 1);
	gate_result_release(&r);
	/* A shift the threshold allows is no change point of the gate. */
	p.threshold[GATE_TG] = 8;
	assert_int_equal(gate_decide(&in, &p, &r), 0);
	assert_int_equal(r.n_trend, 0);
	gate_result_release(&r);
	free(hist.runs);
	for (i = 0; i < 8; i++)
		run_release(&runs[i]);
	tcell_release(&base, 1);
	tcell_release(&cand, 1);
}

/* A run of the gate-versus-compare case: one collect round's instance, its pp and
 * tg values keyed (prompt k + 1, rep 1) for k < n. */
static void round_run(struct run *r, const char *uuid, const char *batch, int64_t round,
		      int64_t looks_to, const double *pp, const double *tg, size_t n)
{
	fx_run(r, uuid, "ours", "m");
	fx_set(&r->batch, batch);
	r->round = round;
	r->looks_to = looks_to;
	r->ctx = 8192;
	r->n_predict = 256;
	fx_values(r, RUN_PP, pp, n, NULL);
	fx_values(r, RUN_TG, tg, n, NULL);
}

/* The mean log of x[0..n). */
static double mean_log(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += log(x[i]);
	return s / (double)n;
}

/* gin: one pool a side, cp against bp; gp the defaults, acceptance not gated. */
static void pool_a_side(struct gate_input *gin, const struct pool *cp, const struct pool *bp,
			struct gate_params *gp)
{
	gin->cand = cp;
	gin->n_cand = 1;
	gin->base = bp;
	gin->n_base = 1;
	gate_params_init(gp);
	gp->gated[GATE_ACCEPT] = 0;
}

/* The gate is compare's estimate: gate_decide() and parity_decide() on the same
 * pools, the threshold equal to the band, give each metric the same delta,
 * interval, level and regression answer. The candidate is an --until-decided
 * batch of three rounds (--max-rounds 6, looks_to 6); the baseline a fixed batch
 * frozen earlier. Rounds pair by number across the two batches (neither side
 * holds the other's), and within a round the requests pair by key: the
 * candidate's round 2 lost prompt 3, so its baseline partner is reduced over
 * prompts 1 and 2 too. The level is the candidate batch's sequential one, not a
 * fixed 90%. Every expected number is worked out here from the values (the
 * round log ratios, their mean and t interval), not read off the estimate. */
static void test_decide_is_compares(void **state)
{
	/* pp: about -6% a round; tg: about +0.5%. Prompt 3 of each round is 20%
	 * slower than the others on both sides, so leaving it out of one side alone
	 * would move that round's ratio by about log(0.8) / 3. (Not much more: the
	 * outlier rule reads an instance over all its values, and a run that lost
	 * a prompt half as fast would be screened out as 25% fast.) */
	static const double c_pp[3][3] = { { 940, 941, 752 }, { 939, 942, 0 }, { 941, 940, 753 } };
	static const double b_pp[3][3] = { { 1000, 1001, 800 }, { 999, 1001, 800 },
					   { 1001, 1000, 801 } };
	static const double c_tg[3][3] = { { 100.5, 100.6, 80.4 }, { 100.4, 100.5, 0 },
					   { 100.6, 100.4, 80.5 } };
	static const double b_tg[3][3] = { { 100, 100.1, 80 }, { 99.9, 100, 80 },
					   { 100.1, 100, 80.1 } };
	const size_t n_c[3] = { 3, 2, 3 };
	const double thr = 3;
	struct run cr[3], br[3];
	struct pool cp, bp;
	struct gate_input gin = { 0 };
	struct parity_input pin;
	struct gate_params gp;
	struct parity_opts po;
	struct gate_result g;
	struct parity_result pr;
	double alpha = estimate_look_alpha(6, VERDICT_ALPHA * ESTIMATE_SEQ_ALPHA_SHARE);
	size_t i, m;
	char uuid[8];

	(void)state;
	for (i = 0; i < 3; i++) {
		snprintf(uuid, sizeof(uuid), "c%zu", i);
		round_run(&cr[i], uuid, "cand-batch", (int64_t)i + 1, 6, c_pp[i], c_tg[i], n_c[i]);
		snprintf(uuid, sizeof(uuid), "b%zu", i);
		round_run(&br[i], uuid, "base-batch", (int64_t)i + 1, 0, b_pp[i], b_tg[i], 3);
	}
	fx_pool(&cp, cr, 3);
	fx_pool(&bp, br, 3);
	/* One design a side: the candidate batch's sequential level. */
	assert_int_equal(pools_looks(&cp, &bp), 6);
	assert_true(alpha < VERDICT_ALPHA);

	pool_a_side(&gin, &cp, &bp, &gp);
	gp.threshold[GATE_PP] = gp.threshold[GATE_TG] = thr;
	assert_int_equal(gate_decide(&gin, &gp, &g), 0);
	pin = (struct parity_input){ &cp, &bp, 1, 1 };
	parity_opts_init(&po);
	po.ours = "ours";
	po.vs = "base";
	po.band_pct = thr;
	assert_int_equal(parity_decide(&pin, &po, &pr), 0);
	assert_int_equal(g.n_rows, 2);
	assert_int_equal(pr.n_rows, 2);

	for (m = 0; m < 2; m++) {
		const double (*cv)[3] = m == RUN_PP ? c_pp : c_tg;
		const double (*bv)[3] = m == RUN_PP ? b_pp : b_tg;
		const struct verdict_gate_result *gr = &g.rows[m].g;
		const struct verdict *pv = &pr.rows[m].v;
		double d[3], mean = 0, ss = 0, se, q, lo, hi, nokey = 0;

		assert_int_equal(g.rows[m].metric, (int)m);
		assert_string_equal(pr.rows[m].metric, m == RUN_PP ? "pp" : "tg");
		/* Round r: the mean log over the keys both runs hold, ours less the
		 * baseline's. */
		for (i = 0; i < 3; i++) {
			d[i] = mean_log(cv[i], n_c[i]) - mean_log(bv[i], n_c[i]);
			mean += d[i] / 3;
			nokey += (mean_log(cv[i], n_c[i]) - mean_log(bv[i], 3)) / 3;
		}
		for (i = 0; i < 3; i++)
			ss += (d[i] - mean) * (d[i] - mean);
		se = sqrt(ss / 2) / sqrt(3);
		q = stats_t_quantile(1 - alpha, 2);
		lo = (exp(mean - q * se) - 1) * 100;
		hi = (exp(mean + q * se) - 1) * 100;
		/* Without the keys the round that lost a prompt would read otherwise. */
		assert_true(fabs(nokey - mean) > 0.02);

		assert_int_equal(gr->method, VERDICT_METHOD_ROUNDS);
		assert_int_equal(gr->rounds, 3);
		assert_true(fabs(gr->delta_pct - (exp(mean) - 1) * 100) < 1e-9);
		assert_true(fabs(gr->ci_lo_pct - lo) < 1e-9);
		assert_true(fabs(gr->ci_hi_pct - hi) < 1e-9);
		assert_true(fabs(gr->v.ci_level - (1 - 2 * alpha)) < 1e-12);
		assert_true(gr->v.ci_level > 0.90);
		assert_int_equal(gr->v.regression,
				 hi < -thr ? VERDICT_REG_YES : lo > -thr ? VERDICT_REG_NO :
				 VERDICT_REG_UNDECIDED);
		/* ... and compare's row of the same pools says the same. */
		assert_true(pv->delta_pct == gr->delta_pct);
		assert_true(pv->ci_lo_pct == gr->ci_lo_pct);
		assert_true(pv->ci_hi_pct == gr->ci_hi_pct);
		assert_true(pv->ci_level == gr->v.ci_level);
		assert_int_equal(pv->regression, gr->v.regression);
	}
	/* pp about -6%: a regression at 3%; tg about +0.5%: none. */
	assert_int_equal(g.rows[RUN_PP].g.outcome, VERDICT_GATE_FAIL);
	assert_int_equal(g.rows[RUN_TG].g.outcome, VERDICT_GATE_PASS);
	assert_int_equal(g.n_fail, 1);
	gate_result_release(&g);
	parity_result_release(&pr);
	free(cp.runs);
	free(bp.runs);
	for (i = 0; i < 3; i++) {
		run_release(&cr[i]);
		run_release(&br[i]);
	}
}

/* A candidate slow on some starts: ten rounds, two of the candidate's instances
 * 3x slower, the baseline's clean. The estimate's answer is intermittent, the
 * gate's outcome too (named, counted a failure), and --fail-on regression fails
 * it: it would pass were the slow starts left out as outliers (the rest sit
 * 0.5% apart). Without --fail-on regression it is noted, not failed. */
static void test_decide_intermittent(void **state)
{
	static const double jit[10] = { 0.004, -0.006, 0.002, 0.008, -0.003, 0.001, -0.007,
					0.005, -0.002, 0.000 };
	struct run cr[10], br[10];
	struct pool cp, bp;
	struct gate_input gin = { 0 };
	struct gate_params gp;
	struct gate_result g;
	size_t i;
	char uuid[8];

	(void)state;
	for (i = 0; i < 10; i++) {
		double f = i == 3 || i == 7 ? 1.0 / 3 : exp(jit[i]);
		double c_pp[3] = { 1000 * f, 1001 * f, 999 * f }, c_tg[3] = { 100 * f, 100.1 * f,
									    99.9 * f };
		double b_pp[3] = { 1000 * exp(-jit[9 - i]), 1001, 999 };
		double b_tg[3] = { 100 * exp(-jit[9 - i]), 100.1, 99.9 };

		snprintf(uuid, sizeof(uuid), "c%zu", i);
		round_run(&cr[i], uuid, "cand-batch", (int64_t)i + 1, 0, c_pp, c_tg, 3);
		snprintf(uuid, sizeof(uuid), "b%zu", i);
		round_run(&br[i], uuid, "base-batch", (int64_t)i + 1, 0, b_pp, b_tg, 3);
	}
	fx_pool(&cp, cr, 10);
	fx_pool(&bp, br, 10);
	pool_a_side(&gin, &cp, &bp, &gp);
	assert_int_equal(gate_decide(&gin, &gp, &g), 0);
	assert_int_equal(g.n_rows, 2);
	for (i = 0; i < 2; i++) {
		assert_int_equal(g.rows[i].g.outcome, VERDICT_GATE_INTERMITTENT);
		assert_int_equal(g.rows[i].g.v.regression, VERDICT_REG_INTERMITTENT);
		assert_int_equal(g.rows[i].g.v.slow_ours, 2);
		assert_int_equal(g.rows[i].fails, GATE_FAIL_REGRESSION);
	}
	assert_int_equal(g.n_fail, 2);
	gate_result_release(&g);
	/* --fail-on inconclusive alone: noted, not failed. */
	gp.fail_on = GATE_FAIL_INCONCLUSIVE;
	assert_int_equal(gate_decide(&gin, &gp, &g), 0);
	assert_int_equal(g.rows[0].g.outcome, VERDICT_GATE_INTERMITTENT);
	assert_int_equal(g.n_fail, 0);
	gate_result_release(&g);
	free(cp.runs);
	free(bp.runs);
	for (i = 0; i < 10; i++) {
		run_release(&cr[i]);
		run_release(&br[i]);
	}
}

/* An environment finding on a run the estimate uses spoils the row: outcome
 * spoiled, counted in n_spoiled, a failure only with --strict (where the finding
 * itself is one more, as every finding is). The same finding on an instance the
 * estimate leaves out as an outlier spoils nothing; the finding is listed all
 * the same. */
static void test_decide_spoiled(void **state)
{
	struct tcell base, cand;
	struct run runs[7];
	struct pool cp, bp;
	struct gate_input in = { 0 };
	struct gate_params p;
	struct gate_result r;
	size_t i, k;

	(void)state;
	tcell_init(&base, "b", "ours", "m", TPS_NULL, 1000, 100, NAN);
	tcell_init(&cand, "c", "ours", "m", TPS_NULL, 1000, 90, NAN); /* -10% */
	cand.r.env_flags = RUN_ENV_GPU_THROTTLED;
	gate_params_init(&p);
	p.gated[GATE_PP] = 0;
	assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.n_rows, 1);
	/* Without the finding this row fails, as test_decide_one_cell_fails' does. */
	assert_int_equal(r.rows[0].g.outcome, VERDICT_GATE_SPOILED);
	assert_int_equal(r.rows[0].g.v.regression, VERDICT_REG_SPOILED);
	assert_int_equal(r.rows[0].g.v.kind, VERDICT_SPOILED);
	assert_int_equal(r.rows[0].g.v.spoiled, RUN_ENV_GPU_THROTTLED);
	assert_false(r.rows[0].g.decided);
	assert_true(fabs(r.rows[0].g.delta_pct + 10) < 1e-9); /* still shown */
	assert_int_equal(r.n_spoiled, 1);
	assert_int_equal(r.n_inconclusive, 0);
	assert_int_equal(r.n_find, 1);
	assert_int_equal(r.find[0].env_flags, RUN_ENV_GPU_THROTTLED);
	assert_int_equal(r.n_fail, 0);
	gate_result_release(&r);
	p.fail_on = GATE_FAIL_ALL & ~GATE_FAIL_OUTPUT; /* --fail-on regression,inconclusive,environment */
	assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.n_spoiled, 1);
	assert_int_equal(r.n_fail, 2); /* the spoiled row, and the finding */
	gate_result_release(&r);
	p.fail_on = GATE_FAIL_REGRESSION;

	/* Four candidate instances against three baseline ones, without rounds:
	 * they pair by start order. The throttled fourth is 30% slow, an outlier
	 * the estimate leaves out (|log 0.7| > log 1.25), and the three it uses
	 * decide the -10%. */
	for (i = 0; i < 7; i++) {
		double pp[NV], tg[NV];
		char uuid[8];

		for (k = 0; k < NV; k++) {
			pp[k] = 1000;
			tg[k] = i == 3 ? 63 : (i < 3 ? 90 : 100) + 0.1 * (double)((i + k) % 3);
		}
		snprintf(uuid, sizeof(uuid), "%c%zu", i < 4 ? 'c' : 'b', i < 4 ? i : i - 4);
		fx_run(&runs[i], uuid, "ours", "m");
		runs[i].ctx = 8192;
		runs[i].n_predict = 256;
		fx_values(&runs[i], RUN_PP, pp, NV, NULL);
		fx_values(&runs[i], RUN_TG, tg, NV, NULL);
	}
	runs[3].env_flags = RUN_ENV_GPU_THROTTLED;
	fx_pool(&cp, runs, 4);
	fx_pool(&bp, runs + 4, 3);
	in.cand = &cp;
	in.n_cand = 1;
	in.base = &bp;
	in.n_base = 1;
	assert_int_equal(gate_decide(&in, &p, &r), 0);
	assert_int_equal(r.n_rows, 1);
	assert_int_equal(r.rows[0].g.n_out_cand, 1);
	assert_string_equal(r.rows[0].g.out_cand[0], "c3");
	assert_int_equal(r.rows[0].g.rounds, 3);
	assert_int_equal(r.rows[0].g.v.spoiled, 0);
	assert_int_equal(r.rows[0].g.outcome, VERDICT_GATE_FAIL);
	assert_int_equal(r.n_spoiled, 0);
	assert_int_equal(r.n_find, 1);
	assert_int_equal(r.n_fail, 1);
	gate_result_release(&r);
	free(cp.runs);
	free(bp.runs);
	for (i = 0; i < 7; i++)
		run_release(&runs[i]);
	tcell_release(&base, 1);
	tcell_release(&cand, 1);
}

/* --fail-on: each check fails under its own bit only, the gate's status says
 * PASS only when every row answered "no", and an open row never passes silently
 * (status INCONCLUSIVE). The names parse as a comma list. */
static void test_decide_fail_on(void **state)
{
	static const struct {
		unsigned fail_on;
		size_t open_fails, spoiled_fails, finding_fails, degenerate_fails;
		size_t outputs_fail; /* output: hand-made runs carry no output hash, so
					their outputs cannot be compared: a failure */
	} cases[] = {
		{ GATE_FAIL_REGRESSION, 0, 0, 0, 0, 0 },
		{ GATE_FAIL_INCONCLUSIVE, 1, 0, 0, 0, 0 },
		{ GATE_FAIL_ENVIRONMENT, 0, 1, 1, 0, 0 },
		{ GATE_FAIL_OUTPUT, 0, 0, 0, 1, 1 },
	};
	struct tcell base, cand;
	struct gate_params p;
	struct gate_result r;
	unsigned bits;
	char bad[16];

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		/* An open row: one instance a side, no floor. */
		tcell_init(&base, "b", "ours", "m", TPS_NULL, 1000, 100, NAN);
		tcell_init(&cand, "c", "ours", "m", TPS_NULL, 1000, 99, NAN);
		cand.r.floor_pct[RUN_TG] = NAN;
		gate_params_init(&p);
		p.gated[GATE_PP] = 0;
		p.fail_on = cases[c].fail_on;
		assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
		assert_int_equal(r.rows[0].g.outcome, VERDICT_GATE_INCONCLUSIVE);
		assert_int_equal(r.n_fail, cases[c].open_fails + cases[c].outputs_fail);
		assert_int_equal(r.n_outputs, cases[c].outputs_fail);
		assert_int_equal(r.status, r.n_fail ? GATE_STATUS_FAIL : GATE_STATUS_OPEN);
		gate_result_release(&r);
		/* A spoiled row (decided -1% otherwise: a pass) and its finding. */
		cand.r.floor_pct[RUN_TG] = 1e-10;
		cand.r.env_flags = RUN_ENV_HOST_BUSY;
		assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
		assert_int_equal(r.rows[0].g.outcome, VERDICT_GATE_SPOILED);
		assert_int_equal(r.n_find, 1);
		assert_int_equal(r.n_fail, cases[c].spoiled_fails + cases[c].finding_fails +
				 cases[c].outputs_fail);
		assert_int_equal(r.rows[0].fails ? 1 : 0, cases[c].spoiled_fails);
		assert_int_equal(r.find[0].fails ? 1 : 0, cases[c].finding_fails);
		assert_int_equal(r.status, r.n_fail ? GATE_STATUS_FAIL : GATE_STATUS_OPEN);
		gate_result_release(&r);
		/* Degenerate-output samples: an output finding, and a passing row. */
		cand.r.env_flags = 0;
		cand.r.n_degenerate = 3;
		assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
		assert_int_equal(r.rows[0].g.outcome, VERDICT_GATE_PASS);
		assert_int_equal(r.n_fail, cases[c].degenerate_fails + cases[c].outputs_fail);
		assert_int_equal(r.status, r.n_fail ? GATE_STATUS_FAIL : GATE_STATUS_PASS);
		gate_result_release(&r);
		tcell_release(&base, 1);
		tcell_release(&cand, 1);
	}
	assert_int_equal(gate_fail_on_parse("inconclusive,environment", &bits, bad, sizeof(bad)), 0);
	assert_int_equal(bits, GATE_FAIL_INCONCLUSIVE | GATE_FAIL_ENVIRONMENT);
	assert_int_equal(gate_fail_on_parse("regression,outputs", &bits, bad, sizeof(bad)), -1);
	assert_string_equal(bad, "outputs");
	assert_int_equal(gate_fail_on_parse("", &bits, bad, sizeof(bad)), -1);
	assert_string_equal(gate_fail_on_name(GATE_FAIL_OUTPUT), "output");
	assert_string_equal(gate_status_name(GATE_STATUS_OPEN), "INCONCLUSIVE");
}

static void test_threshold_parse(void **state)
{
	double th[GATE_N_METRICS] = { 3, 3, 3 };
	int set[GATE_N_METRICS] = { 0 };
	struct gate_threshold_err e;
	char text[] = "# gate thresholds\ntg = 8   # decode\n\n pp=1\r\n";
	char bad[] = "* = 2\ntg 3\n";

	(void)state;
	assert_int_equal(gate_threshold_parse("tg=7", th, set, &e), 0);
	assert_true(th[GATE_TG] == 7 && th[GATE_PP] == 3 && set[GATE_TG] && !set[GATE_PP]);
	assert_int_equal(gate_threshold_parse(" * =\t4", th, set, &e), 0);
	assert_true(th[GATE_PP] == 4 && th[GATE_TG] == 4 && th[GATE_ACCEPT] == 4);
	assert_int_equal(gate_threshold_parse("2.5", th, set, &e), 0);
	assert_true(th[GATE_ACCEPT] == 2.5);
	assert_int_equal(gate_threshold_parse(" tok = 3", th, set, &e), -1);
	assert_int_equal(e.kind, GATE_THRESHOLD_METRIC);
	assert_string_equal(e.name, "tok");
	assert_int_equal(gate_threshold_parse("tg= -1", th, set, &e), -1);
	assert_int_equal(e.kind, GATE_THRESHOLD_VALUE);
	assert_string_equal(e.value, "-1");
	assert_true(th[GATE_TG] == 2.5);
	assert_int_equal(gate_threshold_parse_text(text, th, &e), 0);
	assert_true(th[GATE_TG] == 8 && th[GATE_PP] == 1 && th[GATE_ACCEPT] == 2.5);
	assert_int_equal(gate_threshold_parse_text(bad, th, &e), -1);
	assert_int_equal(e.kind, GATE_THRESHOLD_SYNTAX);
	assert_int_equal(e.line, 2);
	assert_true(th[GATE_PP] == 2);
	assert_int_equal(gate_metric_index("accept"), GATE_ACCEPT);
	assert_int_equal(gate_metric_index("x"), -1);
	assert_string_equal(gate_metric_name(GATE_PP), "pp");
}

/* --- the command, on a store --- */

/* A run of 8 prompts x 2 reps around pp and tg with a fixed +-0.3% pattern. */
static void add_run_np(struct store *s, const char *engine, const char *model, const char *tag,
		       double pp, double tg, int64_t n_predict, char *uuid_out)
{
	static const double wig[4] = { 0.3, -0.3, 0.1, -0.1 };
	struct run_rec r;
	int64_t id;
	int i;

	run_rec_init(&r);
	assert_int_equal(tps_uuid4(r.uuid, sizeof(r.uuid)), 0);
	r.status = tps_xstrdup("complete");
	r.host.name = tps_xstrdup("h200");
	r.engine.label = tps_xstrdup(engine);
	r.engine.role = tps_xstrdup("ours");
	r.model.label = tps_xstrdup(model);
	r.ctx = 8192;
	r.n_predict = n_predict;
	r.endpoint = tps_xstrdup("completion");
	r.spec_type = tps_xstrdup("");
	r.tag = tps_xstrdup(tag);
	assert_int_equal(store_begin(s), 0);
	assert_true((id = store_run_insert(s, &r)) > 0);
	for (i = 0; i < 16; i++) {
		struct sample_rec m;
		char name[16];

		sample_rec_init(&m);
		snprintf(name, sizeof(name), "p%d", i / 2);
		m.prompt_name = tps_xstrdup(name);
		sha256_hex(name, strlen(name), m.prompt_hash);
		m.rep = i % 2 + 1;
		m.prompt_n = 2048;
		m.predicted_n = 256;
		m.prompt_per_second = pp * (1 + wig[i % 4] / 100);
		m.predicted_per_second = tg * (1 + wig[i % 4] / 100);
		m.flags = 0;
		assert_int_equal(store_sample_insert(s, id, &m), 0);
		sample_rec_release(&m);
	}
	assert_int_equal(store_run_finish(s, id, "complete", NULL, NULL), 0);
	/* One run a side decides only with a stored A/A floor: a small one here, so
	 * these tests exercise the thresholds (test_gate_noise_floor stores its own). */
	assert_int_equal(fx_small_floor(s, r.uuid, 16), 0);
	assert_int_equal(store_commit(s), 0);
	if (uuid_out)
		memcpy(uuid_out, r.uuid, sizeof(r.uuid));
	run_rec_release(&r);
}

static void add_run(struct store *s, const char *engine, const char *model, const char *tag,
		    double pp, double tg, char *uuid_out)
{
	add_run_np(s, engine, model, tag, pp, tg, 256, uuid_out);
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

static void test_gate_one_cell_fails(void **state)
{
	struct fixture *f = *state;
	cJSON *root, *cells, *c;
	char *xml;
	int fails = 0;

	add_run(f->ctx.store, "ours", "dense", "v1", 13150, 142.6, NULL);
	add_run(f->ctx.store, "ours", "moe", "v1", 13000, 200, NULL);
	add_run(f->ctx.store, "ours", "dense", "v2", 13160, 142.0, NULL);
	add_run(f->ctx.store, "ours", "moe", "v2", 13010, 188, NULL); /* -6% */
	assert_int_equal(run(f, cmd_baseline, "baseline", "set", "rel", "--tag", "v1", NULL), 0);
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "rel", "--engine", "ours", "--tag",
			     "v2", "--json", "--junit", f->junit, NULL), TPS_EXIT_FAIL);
	assert_non_null(root = cJSON_Parse(f->out));
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(root, "pass")));
	cells = cJSON_GetObjectItem(root, "cells");
	assert_int_equal(cJSON_GetArraySize(cells), 4);
	cJSON_ArrayForEach(c, cells) {
		if (strcmp(cJSON_GetObjectItem(c, "status")->valuestring, "fail"))
			continue;
		fails++;
		assert_string_equal(cJSON_GetObjectItem(c, "model")->valuestring, "moe");
		assert_string_equal(cJSON_GetObjectItem(c, "metric")->valuestring, "tg");
		assert_true(fabs(cJSON_GetObjectItem(c, "delta_pct")->valuedouble + 6) < 1e-6);
		assert_true(cJSON_GetObjectItem(c, "threshold_pct")->valuedouble == 3);
		assert_string_equal(cJSON_GetObjectItem(c, "regression")->valuestring, "yes");
		assert_true(cJSON_GetObjectItem(c, "ci_hi_pct")->valuedouble < -3);
	}
	assert_int_equal(fails, 1);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "warnings")), 0);
	cJSON_Delete(root);
	assert_non_null(xml = tps_read_file(f->junit, NULL));
	assert_int_equal(count(xml, "<testcase "), 4);
	assert_int_equal(count(xml, "<failure "), 1);
	assert_non_null(strstr(xml, "<testcase classname=\"tpsdb.gate.moe\" name=\"moe tg\" time=\"0\">\n"
				    "      <failure message=\"moe tg: candidate 188 vs baseline 199.999 "
				    "(-6.00%, interval [-6."));
	assert_non_null(strstr(xml, "): regression yes at -3.00% against baseline &apos;rel&apos;"));
	free(xml);
	/* A wider threshold for decode alone lets it through. */
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "rel", "--engine", "ours", "--tag",
			     "v2", "--max-regress", "tg=6.5", NULL), TPS_EXIT_OK);
	assert_non_null(strstr(f->out, "PASS (0 failure(s))"));
}

/* A regression at the threshold is inconclusive (its interval holds the edge,
 * exit 0); 3.5% fails. */
static void test_gate_threshold_edge(void **state)
{
	struct fixture *f = *state;

	add_run(f->ctx.store, "ours", "m", "a", 1000, 100, NULL);
	add_run(f->ctx.store, "ours", "m", "b", 1000, 97, NULL);
	add_run(f->ctx.store, "ours", "m", "c", 1000, 96.5, NULL);
	assert_int_equal(run(f, cmd_baseline, "baseline", "set", "base", "--tag", "a", NULL), 0);
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "base", "--engine", "ours", "--tag",
			     "b", "--metric", "tg", NULL), TPS_EXIT_OK);
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "base", "--engine", "ours", "--tag",
			     "c", "--metric", "tg", NULL), TPS_EXIT_FAIL);
}

/* The candidate's pool holds only runs comparable with its newest: a run of the
 * same tag at another n_predict (half the decode speed here) is left out, as
 * compare leaves it out, instead of being averaged into the candidate. */
static void test_gate_pool_comparable_only(void **state)
{
	struct fixture *f = *state;
	cJSON *root, *c;

	add_run(f->ctx.store, "ours", "m", "v1", 1000, 100, NULL);
	add_run_np(f->ctx.store, "ours", "m", "v2", 1000, 50, 128, NULL);
	add_run(f->ctx.store, "ours", "m", "v2", 1000, 100, NULL);
	assert_int_equal(run(f, cmd_baseline, "baseline", "set", "base", "--tag", "v1", NULL), 0);
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "base", "--engine", "ours", "--tag",
			     "v2", "--metric", "tg", "--json", NULL), TPS_EXIT_OK);
	assert_non_null(root = cJSON_Parse(f->out));
	c = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "cells"), 0);
	assert_non_null(c);
	assert_string_equal(cJSON_GetObjectItem(c, "status")->valuestring, "pass");
	assert_int_equal(cJSON_GetObjectItem(c, "instances_ours")->valueint, 1);
	assert_true(fabs(cJSON_GetObjectItem(c, "delta_pct")->valuedouble) < 1);
	cJSON_Delete(root);
}

/* (g) for the gate: a 4% slowdown fails at 3% with a small floor; a 2.5% floor
 * widens the one instance pair's interval past the threshold: inconclusive, and
 * the output names the noise bound. */
static void test_gate_noise_floor(void **state)
{
	struct fixture *f = *state;
	struct noise_rec nr = { 0 };
	char ua[40];
	cJSON *root, *c;

	add_run(f->ctx.store, "ours", "m", "a", 1000, 100, ua);
	add_run(f->ctx.store, "ours", "m", "b", 1000, 96, NULL);
	assert_int_equal(run(f, cmd_baseline, "baseline", "set", "base", "--tag", "a", NULL), 0);
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "base", "--engine", "ours", "--tag",
			     "b", "--metric", "tg", NULL), TPS_EXIT_FAIL);
	nr.run_a = nr.run_b = ua;
	nr.metric = "tg";
	nr.noise_pct = 2.5;
	nr.n_pairs = 16;
	assert_int_equal(store_begin(f->ctx.store), 0);
	assert_int_equal(store_noise_put(f->ctx.store, &nr), 0);
	assert_int_equal(store_commit(f->ctx.store), 0);
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "base", "--engine", "ours", "--tag",
			     "b", "--metric", "tg", "--json", NULL), TPS_EXIT_OK);
	assert_non_null(root = cJSON_Parse(f->out));
	c = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "cells"), 0);
	assert_string_equal(cJSON_GetObjectItem(c, "bound")->valuestring, "noise");
	assert_string_equal(cJSON_GetObjectItem(c, "status")->valuestring, "inconclusive");
	assert_string_equal(cJSON_GetObjectItem(c, "regression")->valuestring, "undecided");
	assert_true(cJSON_GetObjectItem(c, "ci_lo_pct")->valuedouble < -3);
	assert_true(cJSON_GetObjectItem(c, "ci_hi_pct")->valuedouble > -3);
	assert_true(fabs(cJSON_GetObjectItem(c, "threshold_pct")->valuedouble - 3) < 1e-9);
	assert_true(fabs(cJSON_GetObjectItem(c, "noise_pct")->valuedouble - 2.5) < 1e-9);
	cJSON_Delete(root);
	/* --strict fails what is inconclusive. */
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "base", "--engine", "ours", "--tag",
			     "b", "--metric", "tg", "--strict", NULL), TPS_EXIT_FAIL);
}

static void test_gate_junit_escapes(void **state)
{
	struct fixture *f = *state;
	char *xml;

	add_run(f->ctx.store, "ours", "a<b>&\"c'\x01", "a", 1000, 100, NULL);
	add_run(f->ctx.store, "ours", "a<b>&\"c'\x01", "b", 1000, 90, NULL);
	assert_int_equal(run(f, cmd_baseline, "baseline", "set", "x&y", "--tag", "a", NULL), 0);
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "x&y", "--engine", "ours", "--tag",
			     "b", "--junit", f->junit, NULL), TPS_EXIT_FAIL);
	assert_non_null(xml = tps_read_file(f->junit, NULL));
	assert_non_null(strstr(xml, "classname=\"tpsdb.gate.a&lt;b&gt;&amp;&quot;c&apos;?\""));
	assert_non_null(strstr(xml, "against baseline &apos;x&amp;y&apos;"));
	assert_null(strchr(xml, '\x01'));
	assert_int_equal(count(xml, "<failure "), 1);
	free(xml);
}

static void test_gate_missing_cells_warn(void **state)
{
	struct fixture *f = *state;
	cJSON *root, *w;

	add_run(f->ctx.store, "ours", "kept", "a", 1000, 100, NULL);
	add_run(f->ctx.store, "ours", "dropped", "a", 1000, 100, NULL);
	add_run(f->ctx.store, "ours", "kept", "b", 1000, 100, NULL);
	add_run(f->ctx.store, "ours", "new", "b", 1000, 100, NULL);
	assert_int_equal(run(f, cmd_baseline, "baseline", "set", "base", "--tag", "a", NULL), 0);
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "base", "--engine", "ours", "--tag",
			     "b", "--json", NULL), TPS_EXIT_OK);
	assert_non_null(root = cJSON_Parse(f->out));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(root, "pass")));
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "cells")), 2);
	w = cJSON_GetObjectItem(root, "warnings");
	assert_int_equal(cJSON_GetArraySize(w), 2);
	assert_non_null(strstr(cJSON_GetArrayItem(w, 0)->valuestring, "'new'"));
	assert_non_null(strstr(cJSON_GetArrayItem(w, 1)->valuestring, "'dropped'"));
	cJSON_Delete(root);
	/* Nothing shared at all is an error, not a pass. */
	assert_int_equal(run(f, cmd_gate, "gate", "--baseline", "base", "--engine", "other", NULL),
			 TPS_EXIT_ERROR);
}

/* Two llama-bench configurations of one engine and model are two cells: each
 * candidate config is judged against the baseline's run of the same config. */
static void test_decide_config_cells(void **state)
{
	struct tcell base[2], cand[2];
	struct gate_params p;
	struct gate_result r;
	size_t i;

	(void)state;
	tcell_init(&base[0], "b0", "ours", "m", TPS_NULL, 1000, 100, NAN);
	tcell_init(&base[1], "b1", "ours", "m", TPS_NULL, 2000, 50, NAN);
	tcell_init(&cand[0], "c0", "ours", "m", TPS_NULL, 1000, 100, NAN);
	tcell_init(&cand[1], "c1", "ours", "m", TPS_NULL, 2000, 50, NAN);
	fx_set(&base[0].r.config, "pp512");
	fx_set(&cand[0].r.config, "pp512");
	fx_set(&base[1].r.config, "pp4096");
	fx_set(&cand[1].r.config, "pp4096");
	gate_params_init(&p);
	assert_int_equal(decide(cand, 2, base, 2, &p, &r), 0);
	assert_int_equal(r.n_shared, 2);
	assert_int_equal(r.n_fail, 0);
	for (i = 0; i < r.n_rows; i++)
		assert_string_equal(r.rows[i].cand->side->config, r.rows[i].base->side->config);
	gate_result_release(&r);
	tcell_release(base, 2);
	tcell_release(cand, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide_one_cell_fails),
		cmocka_unit_test(test_decide_config_cells),
		cmocka_unit_test(test_decide_threshold_edge),
		cmocka_unit_test(test_decide_noise_floor),
		cmocka_unit_test(test_decide_missing_cells),
		cmocka_unit_test(test_decide_engines_and_refusal),
		cmocka_unit_test(test_decide_no_data_and_accept),
		cmocka_unit_test(test_decide_strict),
		cmocka_unit_test(test_decide_sweep),
		cmocka_unit_test(test_decide_sweep_across),
		cmocka_unit_test(test_decide_trend),
		cmocka_unit_test(test_decide_is_compares),
		cmocka_unit_test(test_decide_intermittent),
		cmocka_unit_test(test_decide_spoiled),
		cmocka_unit_test(test_decide_fail_on),
		cmocka_unit_test(test_threshold_parse),
		cmocka_unit_test_setup_teardown(test_gate_one_cell_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gate_threshold_edge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gate_pool_comparable_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gate_noise_floor, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gate_junit_escapes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gate_missing_cells_warn, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
