/* test_collect_session.c: the collector's round loop against fault servers
 * (tests/fault_server.py): each model runs its rounds with the engines reversed on
 * even rounds, every run records its round and the session's batch, and the
 * "another round?" hook is asked after each round but the last and can end a
 * model's rounds early. Skipped without python3. */
#include "collect/plan.h"
#include "collect/prompts.h"
#include "collect/session.h"
#include "collect/setup.h"
#include "schema/store.h"
#include "schema/store_int.h"
#include "tpsdb.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

struct fixture {
	char dir[64], db[96], fs[96], model[96];
	struct store *s;
	struct plan p;
	struct prompt_set ps;
	struct collect_setup o;
	int ready;                 /* 0: no python3, the tests skip */
};

/* What the hook saw, and when it says stop. */
struct hook_log {
	int calls;
	size_t model[8];
	int64_t round[8];
	char batch[40];
	int64_t stop_after;        /* answer 0 after this round */
	size_t skip_cell;          /* skip() says 1 for this cell from skip_from on */
	int64_t skip_from;         /* the round after which the cell is decided */
	int64_t last_round;        /* the last round more() was asked about */
};

static int skip_hook(void *arg, size_t cell)
{
	struct hook_log *h = arg;

	return h->skip_from && cell == h->skip_cell && h->last_round >= h->skip_from;
}

static int setup(void **state)
{
	struct fixture *f = tps_xcalloc(1, sizeof(*f));
	const char *data = getenv("TPSDB_TEST_DATA");
	char err[256];
	FILE *fp;

	*state = f;
	if (system("command -v python3 >/dev/null 2>&1") != 0)
		return 0; /* the tests skip */
	snprintf(f->dir, sizeof(f->dir), "/tmp/tpsdb-session-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->db, sizeof(f->db), "%s/t.db", f->dir);
	snprintf(f->fs, sizeof(f->fs), "%s/fs", f->dir);
	snprintf(f->model, sizeof(f->model), "%s/tiny.gguf", f->dir);
	fp = fopen(f->fs, "w");
	assert_non_null(fp);
	fprintf(fp, "#!/bin/sh\nexec python3 '%s/../fault_server.py' \"$@\"\n",
		data ? data : "tests/data");
	fclose(fp);
	assert_int_equal(chmod(f->fs, 0755), 0);
	fp = fopen(f->model, "w");
	assert_non_null(fp);
	fputs("not a gguf\n", fp);
	fclose(fp);
	f->s = store_open(f->db, 0);
	f->ready = 1;
	assert_non_null(f->s);
	assert_int_equal(prompts_parse(&f->ps, "## a\nSay something.\n", "p", 0, 0, err,
				       sizeof(err)), 0);
	setup_init(&f->o, "test");
	f->o.quiet = 1;
	f->o.c.reps = 1;
	f->o.c.warmup = 0;
	f->o.c.n_predict = 8;
	f->o.c.base_port = 21360;
	f->o.c.out_dir = f->dir;
	f->o.c.load_timeout_s = 30;
	f->o.c.request_timeout_s = 30;
	assert_non_null(plan_add_engine(&f->p, "A", f->fs, err, sizeof(err)));
	assert_non_null(plan_add_engine(&f->p, "B", f->fs, err, sizeof(err)));
	assert_non_null(plan_add_model(&f->p, "m1", f->model, "", err, sizeof(err)));
	assert_non_null(plan_add_model(&f->p, "m2", f->model, "", err, sizeof(err)));
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[160];

	if (!f->ready) {
		free(f);
		return 0;
	}
	store_close(f->s);
	plan_release(&f->p);
	prompts_release(&f->ps);
	setup_release(&f->o);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd) != 0)
		return -1;
	free(f);
	return 0;
}

static int more(void *arg, struct store *s, const struct plan *p, size_t model,
		int64_t round, const char *batch)
{
	struct hook_log *h = arg;

	(void)s;
	(void)p;
	if (h->calls < 8) {
		h->model[h->calls] = model;
		h->round[h->calls] = round;
	}
	h->calls++;
	h->last_round = round;
	snprintf(h->batch, sizeof(h->batch), "%s", batch);
	return round < h->stop_after;
}

/* "label:round model" of every run in start order, and the distinct batches. */
static void runs_of(struct store *s, char *out, size_t len, char *batch, size_t blen)
{
	sqlite3_stmt *st = NULL;

	out[0] = '\0';
	assert_int_equal(sqlite3_prepare_v2(store_db(s),
		"SELECT e.label || r.round || m.label, (SELECT group_concat(DISTINCT batch) "
		"FROM run) FROM run r JOIN engine e ON e.id=r.engine_id JOIN model m ON "
		"m.id=r.model_id ORDER BY r.started_at, r.id", -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		snprintf(out + strlen(out), len - strlen(out), "%s ", sqlite3_column_text(st, 0));
		snprintf(batch, blen, "%s", sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
}

static void test_collect_session_hook_stops(void **state)
{
	struct fixture *f = *state;
	struct hook_log h = { .stop_after = 2 };
	struct session_hooks hooks = { more, NULL, &h, NULL };
	struct session_result res;
	char err[256], got[512], batch[64];

	if (!f->ready)
		skip();
	f->p.rounds = 4;
	assert_int_equal(plan_build(&f->p, err, sizeof(err)), 0);
	assert_int_equal(session_run(f->s, &f->p, &f->ps, &f->o, &hooks, &res), 0);
	/* Each model ran rounds 1 and 2 (B A in the second), then the hook said stop. */
	assert_int_equal(res.n_rows, 8);
	assert_int_equal(res.n_bad, 0);
	assert_int_equal(res.n_planned, 16);
	assert_int_equal(res.rounds, 4);
	runs_of(f->s, got, sizeof(got), batch, sizeof(batch));
	assert_string_equal(got, "A1m1 B1m1 B2m1 A2m1 A1m2 B1m2 B2m2 A2m2 ");
	assert_int_equal(h.calls, 4);
	assert_int_equal(h.model[0], 0);
	assert_int_equal(h.round[0], 1);
	assert_int_equal(h.model[1], 0);
	assert_int_equal(h.round[1], 2);
	assert_int_equal(h.model[2], 1);
	assert_int_equal(h.round[3], 2);
	assert_string_equal(h.batch, res.batch);
	assert_string_equal(batch, res.batch);
	assert_int_equal(res.rows[2].round, 2);
	session_result_release(&res);
}

/* A hook that never says stop lets a model run all its rounds, and is never asked
 * after the last one. */
static void test_collect_session_all_rounds(void **state)
{
	struct fixture *f = *state;
	struct hook_log h = { .stop_after = 100 };
	struct session_hooks hooks = { more, NULL, &h, NULL };
	struct session_result res;
	char err[256], got[512], batch[64];

	if (!f->ready)
		skip();
	plan_release(&f->p);
	assert_non_null(plan_add_engine(&f->p, "A", f->fs, err, sizeof(err)));
	assert_non_null(plan_add_engine(&f->p, "B", f->fs, err, sizeof(err)));
	assert_non_null(plan_add_model(&f->p, "m1", f->model, "", err, sizeof(err)));
	f->p.rounds = 3;
	assert_int_equal(plan_build(&f->p, err, sizeof(err)), 0);
	assert_int_equal(session_run(f->s, &f->p, &f->ps, &f->o, &hooks, &res), 0);
	assert_int_equal(res.n_rows, 6);
	assert_int_equal(h.calls, 2);
	assert_int_equal(h.round[1], 2);
	runs_of(f->s, got, sizeof(got), batch, sizeof(batch));
	assert_string_equal(got, "A1m1 B1m1 B2m1 A2m1 A3m1 B3m1 ");
	session_result_release(&res);
}

/* A cell the hook calls decided is not started again: GPU time only where it
 * decides. Cell 1 (B on m1) is decided after round 2, so rounds 3 and 4 run A
 * alone. */
static void test_collect_session_skips_decided(void **state)
{
	struct fixture *f = *state;
	struct hook_log h = { .stop_after = 100, .skip_cell = 1, .skip_from = 2 };
	struct session_hooks hooks = { more, skip_hook, &h, NULL };
	struct session_result res;
	char err[256], got[512], batch[64];

	if (!f->ready)
		skip();
	plan_release(&f->p);
	assert_non_null(plan_add_engine(&f->p, "A", f->fs, err, sizeof(err)));
	assert_non_null(plan_add_engine(&f->p, "B", f->fs, err, sizeof(err)));
	assert_non_null(plan_add_model(&f->p, "m1", f->model, "", err, sizeof(err)));
	f->p.rounds = 4;
	assert_int_equal(plan_build(&f->p, err, sizeof(err)), 0);
	assert_int_equal(session_run(f->s, &f->p, &f->ps, &f->o, &hooks, &res), 0);
	assert_int_equal(res.n_rows, 6);
	runs_of(f->s, got, sizeof(got), batch, sizeof(batch));
	assert_string_equal(got, "A1m1 B1m1 B2m1 A2m1 A3m1 A4m1 ");
	session_result_release(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_collect_session_hook_stops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_session_all_rounds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_session_skips_decided, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
