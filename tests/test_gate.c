/* test_gate.c: the gate decision (analyze/gate.c) and its threshold syntax judged
 * from plain structs, without a store or stdout: one cell 6% down at 3% fails alone,
 * the threshold edge, the noise floor widening it, missing and incomparable cells,
 * --strict, --sweep and --trend. Then `tpsdb gate` and `tpsdb baseline` run
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
#include "schema/noise.h"
#include "schema/record.h"
#include "schema/store.h"
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

/* A candidate or baseline cell of engine e, model m on the completion endpoint: pp
 * and tg constant at the given means (NaN: no values), no acceptance, no floor. */
struct tcell {
	struct gate_cell c;
	double v[GATE_N_METRICS][NV];
};

static void tcell_init(struct tcell *t, const char *uuid, const char *e, const char *m,
		       int64_t n_max, double pp, double tg, double accept)
{
	double mean[GATE_N_METRICS] = { pp, tg, accept };
	int k, i;

	memset(t, 0, sizeof(*t));
	t->c.side.uuid = uuid;
	t->c.side.engine = e;
	t->c.side.model = m;
	t->c.side.spec_type = n_max == TPS_NULL ? "" : "draft";
	t->c.side.endpoint = "completion";
	t->c.side.n_max = n_max;
	t->c.side.ctx = 8192;
	t->c.side.n_predict = 256;
	for (k = 0; k < GATE_N_METRICS; k++) {
		/* A floor far below any threshold, so that one instance a side decides
		 * as sharply as its constant values: the threshold rules are what these
		 * tests are about (test_decide_noise_floor drops it). */
		t->c.noise_pct[k] = k == GATE_ACCEPT ? NAN : 1e-10;
		if (isnan(mean[k]))
			continue;
		for (i = 0; i < NV; i++)
			t->v[k][i] = mean[k];
		t->c.values[k].v = t->v[k];
		t->c.values[k].n = NV;
	}
}

/* Judges cand[0..nc) against base[0..nb) (struct tcell arrays copied into cells). */
static int decide(const struct tcell *cand, size_t nc, const struct tcell *base, size_t nb,
		  const struct gate_params *p, struct gate_result *r)
{
	static struct gate_cell cc[8], bc[8];
	struct gate_input in = { 0 };
	size_t i;

	for (i = 0; i < nc; i++)
		cc[i] = cand[i].c;
	for (i = 0; i < nb; i++)
		bc[i] = base[i].c;
	in.cand = cc;
	in.n_cand = nc;
	in.base = bc;
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
		assert_string_equal(w->cand->side.model, "moe");
		assert_string_equal(w->base->side.uuid, "b1");
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
	cand.c.noise_pct[GATE_TG] = NAN;
	gate_params_init(&p);
	p.gated[GATE_PP] = 0;
	assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.n_fail, 0);
	assert_int_equal(r.rows[0].g.outcome, VERDICT_GATE_INCONCLUSIVE);
	assert_int_equal(r.rows[0].g.reason, ESTIMATE_REASON_ONE_INSTANCE);
	gate_result_release(&r);
	p.strict = 1;
	assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.n_fail, 1);
	gate_result_release(&r);
	p.strict = 0;
	cand.c.noise_pct[GATE_TG] = 0.3;
	base.c.noise_pct[GATE_TG] = 50;
	assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.rows[0].g.outcome, VERDICT_GATE_FAIL);
	assert_int_equal(r.rows[0].g.bound, VERDICT_BOUND_NOISE);
	assert_true(r.rows[0].g.ci_hi_pct < -3);
	assert_true(fabs(r.rows[0].noise_pct - 0.3) < 1e-9);
	gate_result_release(&r);
	cand.c.noise_pct[GATE_TG] = 2.5;
	assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.rows[0].g.outcome, VERDICT_GATE_INCONCLUSIVE);
	assert_true(r.rows[0].g.ci_lo_pct < -3 && r.rows[0].g.ci_hi_pct > -3);
	assert_true(fabs(r.rows[0].g.threshold_pct - 3) < 1e-9);
	gate_result_release(&r);
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
	assert_string_equal(r.notes[0].cell->side.model, "new");
	assert_int_equal(r.notes[1].kind, GATE_NOTE_BASE_ONLY);
	assert_string_equal(r.notes[1].cell->side.model, "dropped");
	gate_result_release(&r);
	assert_int_equal(decide(&cand[1], 1, base, 2, &p, &r), -1);
	assert_int_equal(r.stop, GATE_STOP_NOTHING_SHARED);
	gate_result_release(&r);
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
	cand[1].c.side.ctx = 4096;
	gate_params_init(&p);
	assert_int_equal(decide(cand, 2, base, 3, &p, &r), 0);
	assert_int_equal(r.n_shared, 1);
	assert_int_equal(r.n_rows, 2);
	assert_string_equal(r.rows[0].base->side.uuid, "b0");
	assert_int_equal(r.n_notes, 2);
	assert_int_equal(r.notes[0].kind, GATE_NOTE_ENGINES);
	assert_int_equal(r.notes[0].n_engines, 2);
	assert_string_equal(r.notes[0].base->side.engine, "llama.cpp");
	assert_int_equal(r.notes[1].kind, GATE_NOTE_NOT_COMPARABLE);
	assert_int_equal(r.notes[1].diff.kind, PARITY_DIFF_CTX);
	gate_result_release(&r);
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
	cand[1].c.values[GATE_ACCEPT].n = 0;
	base[1].c.values[GATE_ACCEPT].n = 0;
	assert_int_equal(decide(cand, 2, base, 2, &p, &r), 0);
	assert_int_equal(r.n_rows, 3);
	assert_int_equal(r.n_notes, 1);
	gate_result_release(&r);
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
	cand.c.flag_counts[0] = 1;
	cand.c.flag_counts[2] = 2;
	cand.c.n_samples = 24;
	base.c.flag_counts[1] = 5; /* the baseline's flags are not the candidate's */
	gate_params_init(&p);
	assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.n_find, 2);
	assert_int_equal(r.find[0].flag, 1u);
	assert_int_equal(r.find[1].flag, 4u);
	assert_int_equal(r.find[1].count, 2);
	assert_int_equal(r.find[1].n_samples, 24);
	assert_int_equal(r.n_fail, 0);
	gate_result_release(&r);
	p.strict = 1;
	assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.n_fail, 2);
	gate_result_release(&r);
}

/* --sweep: every violation of the candidate's series fails. */
static void test_decide_sweep(void **state)
{
	struct tcell base, cand;
	struct sweep_step steps[1] = { { 1, 2, 2, 3, -32.5, NAN, 1, NAN, NAN, NAN, 0 } };
	struct series se = { 0 };
	struct series_set set = { &se, 1 };
	struct gate_cell cc, bc;
	struct gate_input in = { 0 };
	struct gate_params p;
	struct gate_result r;

	(void)state;
	tcell_init(&base, "b", "ours", "m", TPS_NULL, 1000, 100, NAN);
	tcell_init(&cand, "c", "ours", "m", TPS_NULL, 1000, 100, NAN);
	cc = cand.c;
	bc = base.c;
	se.engine = "ours";
	se.report.violations = steps;
	se.report.n_violations = 1;
	in.cand = &cc;
	in.n_cand = 1;
	in.base = &bc;
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
}

/* --trend: eight runs, decode falling 7% from the fifth; the candidate matches its
 * baseline, yet the history's newest change point fails. Prefill holds. */
static void test_decide_trend(void **state)
{
	static const double wig[3] = { -0.2, 0, 0.2 };
	struct tcell base, cand;
	struct gate_hist_run runs[2][8];
	double v[2][8][3];
	static const char *const tags[8] = { "h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8" };
	struct gate_params p;
	struct gate_result r;
	int m, i, k;

	(void)state;
	tcell_init(&base, "b", "ours", "m", TPS_NULL, 1000, 133, NAN);
	tcell_init(&cand, "c", "ours", "m", TPS_NULL, 1000, 133, NAN);
	for (m = 0; m < 2; m++) {
		for (i = 0; i < 8; i++) {
			double mean = m == GATE_TG ? (i < 4 ? 143 : 133) : 1000;
			for (k = 0; k < 3; k++)
				v[m][i][k] = mean + wig[(i + k) % 3];
			runs[m][i].uuid = tags[i];
			runs[m][i].tag = tags[i];
			runs[m][i].values = v[m][i];
			runs[m][i].n = 3;
		}
		cand.c.hist[m] = runs[m];
		cand.c.n_hist[m] = 8;
	}
	gate_params_init(&p);
	assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.n_trend, 0);
	assert_int_equal(r.n_fail, 0);
	gate_result_release(&r);
	p.trend = 1;
	assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.n_trend, 1);
	assert_int_equal(r.trend[0].metric, GATE_TG);
	assert_string_equal(r.trend[0].run->tag, "h5");
	assert_true(r.trend[0].cp.change_pct < -6.5 && r.trend[0].cp.change_pct > -7.5);
	assert_true(r.trend[0].fail);
	assert_int_equal(r.n_fail, 1);
	gate_result_release(&r);
	/* A shift the threshold allows is no change point of the gate. */
	p.threshold[GATE_TG] = 8;
	assert_int_equal(decide(&cand, 1, &base, 1, &p, &r), 0);
	assert_int_equal(r.n_trend, 0);
	gate_result_release(&r);
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
	{
		static const char *const metrics[2] = { "pp", "tg" };
		for (i = 0; i < 2; i++) {
			struct noise_rec nr = { 0 };
			nr.run_a = nr.run_b = r.uuid;
			nr.metric = metrics[i];
			nr.noise_pct = 0.01;
			nr.n_pairs = 16;
			assert_int_equal(store_noise_put(s, &nr), 0);
		}
	}
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
	base[0].c.side.config = cand[0].c.side.config = "pp512";
	base[1].c.side.config = cand[1].c.side.config = "pp4096";
	gate_params_init(&p);
	assert_int_equal(decide(cand, 2, base, 2, &p, &r), 0);
	assert_int_equal(r.n_shared, 2);
	assert_int_equal(r.n_fail, 0);
	for (i = 0; i < r.n_rows; i++)
		assert_string_equal(r.rows[i].cand->side.config, r.rows[i].base->side.config);
	gate_result_release(&r);
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
		cmocka_unit_test(test_decide_trend),
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
