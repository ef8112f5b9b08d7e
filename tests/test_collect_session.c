/* test_collect_session.c: the collector's round loop against fault servers
 * (tests/fault_server.py): each model runs its rounds with the engines reversed on
 * even rounds, every run records its round and the session's batch, and a cell
 * the caller leaves out of a round is not started. Skipped without python3. */
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

/* A block of ports of this process's own from tests/port_alloc.py (the CLI tests'
 * allocator), so that no test running beside this one starts a server on them. */
static int free_port(const char *data, int count)
{
	char cmd[512], line[32];
	FILE *fp;
	int port = -1;

	snprintf(cmd, sizeof(cmd), "python3 '%s/../port_alloc.py' --count %d --owner %ld", data,
		 count, (long)getpid());
	fp = popen(cmd, "r");
	assert_non_null(fp);
	if (fgets(line, sizeof(line), fp))
		port = atoi(line);
	assert_int_equal(pclose(fp), 0);
	assert_true(port > 0);
	return port;
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
	f->o.c.base_port = free_port(data ? data : "tests/data", 60);
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
	const char *data = getenv("TPSDB_TEST_DATA");
	char cmd[512];

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
	snprintf(cmd, sizeof(cmd), "python3 '%s/../port_alloc.py' --release %ld",
		 data ? data : "tests/data", (long)getpid());
	if (system(cmd) != 0)
		return -1;
	free(f);
	return 0;
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

/* Runs rounds first..last of model mi with run (NULL: every cell). */
static void rounds(struct session *ss, size_t mi, int64_t first, int64_t last,
		   const unsigned char *run)
{
	for (int64_t r = first; r <= last; r++)
		assert_int_equal(session_round(ss, mi, r, run), 0);
}

/* The caller asks for rounds 1 and 2 of each model out of 4 planned: every run
 * records its round and the session's one batch, and even rounds take the engines
 * in reverse order. */
static void test_collect_session_rounds(void **state)
{
	struct fixture *f = *state;
	struct session_result res;
	struct session *ss;
	char err[256], got[512], batch[64];

	if (!f->ready)
		skip();
	f->p.rounds = 4;
	assert_int_equal(plan_build(&f->p, err, sizeof(err)), 0);
	ss = session_open(f->s, &f->p, &f->ps, &f->o, NULL, &res);
	assert_non_null(ss);
	rounds(ss, 0, 1, 2, NULL);
	rounds(ss, 1, 1, 2, NULL);
	session_close(ss);
	assert_int_equal(res.signal, 0);
	assert_int_equal(res.n_rows, 8);
	assert_int_equal(res.n_bad, 0);
	assert_int_equal(res.n_planned, 16);
	assert_int_equal(res.rounds, 4);
	runs_of(f->s, got, sizeof(got), batch, sizeof(batch));
	assert_string_equal(got, "A1m1 B1m1 B2m1 A2m1 A1m2 B1m2 B2m2 A2m2 ");
	assert_string_equal(batch, res.batch);
	assert_int_equal(res.rows[2].round, 2);
	assert_int_equal(res.rows[2].cell, 1);
	assert_true(res.rows[2].wall_s > 0);
	session_result_release(&res);
}

/* A cell the caller leaves out of a round is not started: cell 1 (B on m1) is
 * out from round 3, so rounds 3 and 4 run A alone. */
static void test_collect_session_run_mask(void **state)
{
	struct fixture *f = *state;
	struct session_result res;
	struct session *ss;
	unsigned char run[2] = { 1, 0 };
	char err[256], got[512], batch[64];

	if (!f->ready)
		skip();
	plan_release(&f->p);
	assert_non_null(plan_add_engine(&f->p, "A", f->fs, err, sizeof(err)));
	assert_non_null(plan_add_engine(&f->p, "B", f->fs, err, sizeof(err)));
	assert_non_null(plan_add_model(&f->p, "m1", f->model, "", err, sizeof(err)));
	f->p.rounds = 4;
	assert_int_equal(plan_build(&f->p, err, sizeof(err)), 0);
	ss = session_open(f->s, &f->p, &f->ps, &f->o, "1 of 1 cells open", &res);
	assert_non_null(ss);
	rounds(ss, 0, 1, 2, NULL);
	rounds(ss, 0, 3, 4, run);
	session_close(ss);
	assert_int_equal(res.n_rows, 6);
	runs_of(f->s, got, sizeof(got), batch, sizeof(batch));
	assert_string_equal(got, "A1m1 B1m1 B2m1 A2m1 A3m1 A4m1 ");
	session_result_release(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_collect_session_rounds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_session_run_mask, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
