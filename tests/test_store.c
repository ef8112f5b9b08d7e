/* test_store.c: the store layer: opening (migrations, refusals that leave the file
 * untouched, WAL and foreign keys), identity-row dedupe, samples, finishing and
 * restoring runs, two writers on one file, and the read-only in-memory copy that
 * merge reads other stores through. Starts from a migrated ":memory:" store. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "schema/collector.h"
#include "schema/migrate_int.h"
#include "schema/snapshot.h"
#include "schema/store_int.h"
#include "tpsdb.h"

struct fixture {
	struct store *mem;  /* migrated ":memory:" store */
	char path[64];      /* a fresh file name, absent at start */
};

static void unlink_db(const char *path)
{
	char side[96];

	unlink(path);
	snprintf(side, sizeof(side), "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", path);
	unlink(side);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	int fd;

	if (!f)
		return -1;
	f->mem = store_open(":memory:", 0);
	if (!f->mem)
		return -1;
	snprintf(f->path, sizeof(f->path), "/tmp/tpsdb-store-XXXXXX");
	fd = mkstemp(f->path);
	if (fd < 0)
		return -1;
	close(fd);
	unlink(f->path);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	store_close(f->mem);
	unlink_db(f->path);
	free(f);
	return 0;
}

static int64_t scalar(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int64_t v = -1;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static char *scalar_text(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	char *v = NULL;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		v = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

/* A plain SQLite file, made without tpsdb's opener. */
static void make_plain_db(const char *path, const char *sql)
{
	sqlite3 *db = NULL;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static void file_sha(const char *path, char hex[65])
{
	size_t len = 0;
	char *buf = tps_read_file(path, &len);

	assert_non_null(buf);
	sha256_hex(buf, len, hex);
	free(buf);
}

static int exists(const char *path, const char *suffix)
{
	char p[128];
	snprintf(p, sizeof(p), "%s%s", path, suffix);
	return access(p, F_OK) == 0;
}

static void make_run(struct run_rec *r, const char *uuid, const char *host,
		     const char *model_sha)
{
	run_rec_init(r);
	snprintf(r->uuid, sizeof(r->uuid), "%s", uuid);
	r->started_at = tps_xstrdup("2026-01-01T00:00:00.000Z");
	r->status = tps_xstrdup("running");
	r->host.name = tps_xstrdup(host);
	r->host.gpu = tps_xstrdup("NVIDIA H200");
	r->engine.label = tps_xstrdup("ours");
	r->engine.role = tps_xstrdup("ours");
	r->model.label = tps_xstrdup("q35");
	r->model.file = tps_xstrdup("q35-Q4_K_M.gguf");
	r->model.sha256 = tps_xstrdup(model_sha);
	r->model.quant = tps_xstrdup("Q4_K_M");
	r->n_predict = 512;
}

static void make_sample(struct sample_rec *s, const char *prompt, int64_t rep)
{
	sample_rec_init(s);
	s->prompt_name = tps_xstrdup(prompt);
	sha256_hex(prompt, strlen(prompt), s->prompt_hash);
	s->rep = rep;
	s->prompt_n = 1800;
	s->prompt_per_second = 5000.0;
	s->predicted_n = 512;
	s->predicted_per_second = 150.0;
	s->timings = tps_xstrdup("{\"prompt_n\":1800}");
}

static void test_store_migrates_to_latest(void **state)
{
	struct fixture *f = *state;

	assert_true(migrate_latest() >= 1);
	assert_int_equal(store_version(f->mem), migrate_latest());
	assert_int_equal(scalar(store_db(f->mem), "PRAGMA user_version"), migrate_latest());
	assert_int_equal(scalar(store_db(f->mem),
				"SELECT count(*) FROM sqlite_schema WHERE name IN "
				"('host','engine','model','prompt','run','sample')"), 6);
}

static void test_store_refuses_newer_untouched(void **state)
{
	struct fixture *f = *state;
	char before[65], after[65], *mode;
	sqlite3 *db = NULL;
	char sql[128];

	snprintf(sql, sizeof(sql), "CREATE TABLE later(x); PRAGMA application_id=1414550340;"
		 "PRAGMA user_version=%d;", migrate_latest() + 1);
	make_plain_db(f->path, sql);
	file_sha(f->path, before);
	assert_null(store_open(f->path, 0));
	assert_null(store_open(f->path, STORE_READONLY));
	assert_null(store_open_copy(f->path));
	file_sha(f->path, after);
	assert_string_equal(before, after);
	assert_false(exists(f->path, "-wal"));
	assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
	assert_int_equal(scalar(db, "PRAGMA user_version"), migrate_latest() + 1);
	mode = scalar_text(db, "PRAGMA journal_mode");
	assert_string_equal(mode, "delete"); /* not even WAL was switched on */
	free(mode);
	sqlite3_close(db);
}

static void test_store_refuses_foreign(void **state)
{
	struct fixture *f = *state;
	char before[65], after[65];

	/* Somebody else's tables, and no application_id. */
	make_plain_db(f->path, "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT);"
		      "INSERT INTO notes(body) VALUES('mine');");
	file_sha(f->path, before);
	assert_null(store_open(f->path, 0));
	assert_null(store_open_copy(f->path));
	file_sha(f->path, after);
	assert_string_equal(before, after);
	unlink_db(f->path);
	/* Another program's application_id, even on an empty file. */
	make_plain_db(f->path, "PRAGMA application_id=1234;");
	assert_null(store_open(f->path, 0));
	assert_null(store_open_copy(f->path));
	unlink_db(f->path);
	/* Not SQLite at all. */
	{
		FILE *fp = fopen(f->path, "w");
		assert_non_null(fp);
		fputs("this is a text file, long enough to look like something else entirely\n"
		      "and more than one hundred bytes so SQLite reads a header from it.....\n",
		      fp);
		fclose(fp);
	}
	assert_null(store_open(f->path, 0));
	assert_null(store_open_copy(f->path));
}

static void test_store_file_pragmas(void **state)
{
	struct fixture *f = *state;
	struct store *s = store_open(f->path, 0);
	char *mode;

	assert_non_null(s);
	mode = scalar_text(store_db(s), "PRAGMA journal_mode");
	assert_string_equal(mode, "wal");
	free(mode);
	assert_int_equal(scalar(store_db(s), "PRAGMA foreign_keys"), 1);
	assert_int_equal(scalar(store_db(s), "PRAGMA application_id"), 0x54505344);
	assert_int_equal(store_version(s), migrate_latest());
	store_close(s);
	assert_int_equal(scalar(store_db(f->mem), "PRAGMA foreign_keys"), 1);
	/* Reopening an existing store read-only works and keeps it. */
	s = store_open(f->path, STORE_READONLY);
	assert_non_null(s);
	store_close(s);
	/* A read-only open of a missing file is an error, and creates nothing. */
	unlink_db(f->path);
	assert_null(store_open(f->path, STORE_READONLY));
	assert_false(exists(f->path, ""));
}

static void test_store_identity_dedupe(void **state)
{
	struct fixture *f = *state;
	sqlite3 *db = store_db(f->mem);
	struct run_rec r;
	int64_t id1, id2;

	assert_int_equal(store_begin(f->mem), 0);
	make_run(&r, "00000000-0000-4000-8000-000000000001", "a", "aa");
	id1 = store_run_insert(f->mem, &r);
	run_rec_release(&r);
	make_run(&r, "00000000-0000-4000-8000-000000000002", "a", "aa");
	id2 = store_run_insert(f->mem, &r);
	assert_true(id1 > 0 && id2 > 0 && id1 != id2);
	assert_int_equal(scalar(db, "SELECT count(*) FROM host"), 1);
	assert_int_equal(scalar(db, "SELECT count(*) FROM engine"), 1);
	assert_int_equal(scalar(db, "SELECT count(*) FROM model"), 1);
	/* The same uuid again is refused. */
	assert_true(store_run_insert(f->mem, &r) < 0);
	run_rec_release(&r);
	/* Another host and another file content: new rows, the engine reused. */
	make_run(&r, "00000000-0000-4000-8000-000000000003", "b", "bb");
	assert_true(store_run_insert(f->mem, &r) > 0);
	run_rec_release(&r);
	assert_int_equal(scalar(db, "SELECT count(*) FROM host"), 2);
	assert_int_equal(scalar(db, "SELECT count(*) FROM engine"), 1);
	assert_int_equal(scalar(db, "SELECT count(*) FROM model"), 2);
	/* Unknown host and engine labels are stored as 'unknown', bytes NULL matches. */
	run_rec_init(&r);
	snprintf(r.uuid, sizeof(r.uuid), "00000000-0000-4000-8000-000000000004");
	assert_true(store_run_insert(f->mem, &r) > 0);
	snprintf(r.uuid, sizeof(r.uuid), "00000000-0000-4000-8000-000000000005");
	assert_true(store_run_insert(f->mem, &r) > 0);
	assert_int_equal(scalar(db, "SELECT count(*) FROM host WHERE name='unknown'"), 1);
	assert_int_equal(scalar(db, "SELECT count(*) FROM model WHERE label='unknown'"), 1);
	assert_int_equal(scalar(db, "SELECT count(*) FROM run WHERE status='running' AND "
				"endpoint='completion' AND source='import'"), 5);
	assert_int_equal(store_commit(f->mem), 0);
	assert_int_equal(store_run_exists(f->mem, "00000000-0000-4000-8000-000000000004"), 1);
	assert_int_equal(store_run_exists(f->mem, "00000000-0000-4000-8000-000000000009"), 0);
}

static void test_store_sample_duplicate_rep(void **state)
{
	struct fixture *f = *state;
	struct run_rec r;
	struct sample_rec s;
	int64_t id;

	assert_int_equal(store_begin(f->mem), 0);
	make_run(&r, "00000000-0000-4000-8000-000000000001", "a", "aa");
	id = store_run_insert(f->mem, &r);
	assert_true(id > 0);
	make_sample(&s, "prompt one", 1);
	assert_int_equal(store_sample_insert(f->mem, id, &s), 0);
	assert_int_equal(store_sample_insert(f->mem, id, &s), -1);
	s.rep = 2;
	assert_int_equal(store_sample_insert(f->mem, id, &s), 0);
	sample_rec_release(&s);
	assert_int_equal(scalar(store_db(f->mem), "SELECT count(*) FROM sample"), 2);
	/* Both repetitions share one prompt row, which took the first prompt_n. */
	assert_int_equal(scalar(store_db(f->mem), "SELECT count(*) FROM prompt"), 1);
	assert_int_equal(scalar(store_db(f->mem), "SELECT n_tokens FROM prompt"), 1800);
	/* A sample of a run that does not exist breaks the foreign key. */
	make_sample(&s, "prompt two", 1);
	assert_int_equal(store_sample_insert(f->mem, id + 1000, &s), -1);
	sample_rec_release(&s);
	run_rec_release(&r);
	store_rollback(f->mem);
	assert_int_equal(scalar(store_db(f->mem), "SELECT count(*) FROM sample"), 0);
}

static int cmp_hex(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void test_store_run_finish_prompt_set(void **state)
{
	struct fixture *f = *state;
	const char *prompts[] = { "zeta", "alpha", "zeta", "mid" };
	char h[3][65], expect[65], *got;
	struct sha256 c;
	struct run_rec r;
	struct sample_rec s;
	int64_t id, empty;
	size_t i;

	assert_int_equal(store_begin(f->mem), 0);
	make_run(&r, "00000000-0000-4000-8000-000000000001", "a", "aa");
	id = store_run_insert(f->mem, &r);
	for (i = 0; i < 4; i++) {
		make_sample(&s, prompts[i], i == 2 ? 2 : 1);
		assert_int_equal(store_sample_insert(f->mem, id, &s), 0);
		sample_rec_release(&s);
	}
	assert_int_equal(store_run_finish(f->mem, id, "complete", "2026-01-01T01:00:00.000Z",
					  "log tail"), 0);
	/* sha256 over the sorted distinct prompt hashes, one per line. */
	sha256_hex("alpha", 5, h[0]);
	sha256_hex("mid", 3, h[1]);
	sha256_hex("zeta", 4, h[2]);
	qsort(h, 3, sizeof(h[0]), cmp_hex);
	sha256_init(&c);
	for (i = 0; i < 3; i++) {
		sha256_update(&c, h[i], 64);
		sha256_update(&c, "\n", 1);
	}
	sha256_final_hex(&c, expect);
	got = scalar_text(store_db(f->mem), "SELECT prompt_set FROM run WHERE id=1");
	assert_string_equal(got, expect);
	free(got);
	got = scalar_text(store_db(f->mem), "SELECT status || ' ' || ended_at || ' ' || "
			  "load_error FROM run WHERE id=1");
	assert_string_equal(got, "complete 2026-01-01T01:00:00.000Z log tail");
	free(got);
	/* A NULL load error keeps the one recorded; a run without samples has "". */
	assert_int_equal(store_run_finish(f->mem, id, "partial", NULL, NULL), 0);
	got = scalar_text(store_db(f->mem), "SELECT load_error FROM run WHERE id=1");
	assert_string_equal(got, "log tail");
	free(got);
	run_rec_release(&r);
	make_run(&r, "00000000-0000-4000-8000-000000000002", "a", "aa");
	empty = store_run_insert(f->mem, &r);
	assert_int_equal(store_run_finish(f->mem, empty, "failed", NULL, "no model"), 0);
	got = scalar_text(store_db(f->mem), "SELECT '[' || prompt_set || ']' FROM run WHERE id=2");
	assert_string_equal(got, "[]");
	free(got);
	run_rec_release(&r);
	assert_int_equal(store_commit(f->mem), 0);
}

static void test_store_run_restore_idempotent(void **state)
{
	struct fixture *f = *state;
	struct run_rec r;
	struct sample_rec s[3];
	char *got;
	int i;

	make_run(&r, "00000000-0000-4000-8000-0000000000aa", "a", "aa");
	free(r.status);
	r.status = tps_xstrdup("interrupted");
	r.prompt_set = tps_xstrdup("kept as given");
	for (i = 0; i < 3; i++) {
		make_sample(&s[i], i == 2 ? "other" : "same", i == 1 ? 2 : 1);
		s[i].flags = SAMPLE_COLD | SAMPLE_CACHED;
	}
	assert_int_equal(store_begin(f->mem), 0);
	assert_int_equal(store_run_restore(f->mem, &r, s, 3), 0);
	assert_int_equal(store_run_restore(f->mem, &r, s, 3), 1);
	assert_int_equal(store_commit(f->mem), 0);
	assert_int_equal(store_begin(f->mem), 0);
	assert_int_equal(store_run_restore(f->mem, &r, s, 3), 1);
	assert_int_equal(store_commit(f->mem), 0);
	assert_int_equal(scalar(store_db(f->mem), "SELECT count(*) FROM run"), 1);
	assert_int_equal(scalar(store_db(f->mem), "SELECT count(*) FROM sample"), 3);
	assert_int_equal(scalar(store_db(f->mem), "SELECT count(*) FROM sample WHERE flags=18"), 3);
	got = scalar_text(store_db(f->mem), "SELECT status || '/' || prompt_set FROM run");
	assert_string_equal(got, "interrupted/kept as given");
	free(got);
	for (i = 0; i < 3; i++)
		sample_rec_release(&s[i]);
	run_rec_release(&r);
}

struct writer {
	const char *path;
	volatile int locked; /* set once the writer holds its write lock */
	int ok;
};

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	struct store *s = store_open(w->path, 0);
	struct run_rec r;

	if (!s)
		return NULL;
	make_run(&r, "00000000-0000-4000-8000-0000000000b1", "writer-1", "aa");
	if (store_begin(s) == 0 && store_run_insert(s, &r) > 0) {
		__atomic_store_n(&w->locked, 1, __ATOMIC_SEQ_CST);
		sleep_ms(300); /* the other writer must wait this out */
		w->ok = store_commit(s) == 0;
	}
	__atomic_store_n(&w->locked, 1, __ATOMIC_SEQ_CST);
	run_rec_release(&r);
	store_close(s);
	return NULL;
}

static void test_store_two_writers(void **state)
{
	struct fixture *f = *state;
	struct writer w = { f->path, 0, 0 };
	struct store *s = store_open(f->path, 0), *check;
	struct run_rec r;
	pthread_t t;
	double t0;

	assert_non_null(s);
	assert_int_equal(pthread_create(&t, NULL, writer_main, &w), 0);
	while (!__atomic_load_n(&w.locked, __ATOMIC_SEQ_CST))
		sleep_ms(5);
	t0 = tps_mono_ms();
	/* BEGIN IMMEDIATE waits on the busy timeout instead of failing at once. */
	assert_int_equal(store_begin(s), 0);
	make_run(&r, "00000000-0000-4000-8000-0000000000b2", "writer-2", "aa");
	assert_true(store_run_insert(s, &r) > 0);
	assert_int_equal(store_commit(s), 0);
	run_rec_release(&r);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_true(w.ok);
	assert_true(tps_mono_ms() - t0 > 100);
	store_close(s);
	check = store_open(f->path, STORE_READONLY);
	assert_non_null(check);
	assert_int_equal(scalar(store_db(check), "SELECT count(*) FROM run"), 2);
	assert_int_equal(scalar(store_db(check), "SELECT count(*) FROM host"), 2);
	store_close(check);
}

/* Two writers take turns on one file, each through its own connection. A's
 * inserts leave cached lookups (host, engine, model) that returned a row without
 * being reset; B then commits; A's next BEGIN IMMEDIATE must still succeed, not
 * fail at once on the stale read snapshot those statements held. */
static void test_store_writers_alternate(void **state)
{
	struct fixture *f = *state;
	struct store *a = store_open(f->path, 0), *b = store_open(f->path, 0);
	struct run_rec r;

	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(store_begin(a), 0);
	make_run(&r, "00000000-0000-4000-8000-0000000000c1", "writer-a", "aa");
	assert_true(store_run_insert(a, &r) > 0);
	run_rec_release(&r);
	assert_int_equal(store_commit(a), 0);
	/* A looks its host up again (a row, no reset) outside a transaction. */
	assert_int_equal(store_run_exists(a, "00000000-0000-4000-8000-0000000000c1"), 1);

	assert_int_equal(store_begin(b), 0);
	make_run(&r, "00000000-0000-4000-8000-0000000000c2", "writer-b", "aa");
	assert_true(store_run_insert(b, &r) > 0);
	run_rec_release(&r);
	assert_int_equal(store_commit(b), 0);

	assert_int_equal(store_begin(a), 0);
	make_run(&r, "00000000-0000-4000-8000-0000000000c3", "writer-a", "aa");
	assert_true(store_run_insert(a, &r) > 0);
	run_rec_release(&r);
	assert_int_equal(store_commit(a), 0);
	assert_int_equal(scalar(store_db(a), "SELECT count(*) FROM run"), 3);
	store_close(a);
	store_close(b);
}

static void load_fixture(const char *db_path, const char *name)
{
	const char *dir = getenv("TPSDB_TEST_DATA");
	char path[512];
	char *sql;

	snprintf(path, sizeof(path), "%s/schema/%s", dir ? dir : "tests/data", name);
	sql = tps_read_file(path, NULL);
	assert_non_null(sql);
	make_plain_db(db_path, sql);
	free(sql);
}

static void test_store_open_copy_older(void **state)
{
	struct fixture *f = *state;
	char before[65], after[65];
	struct store *copy;

	if (migrate_latest() < 2)
		skip(); /* no older version to copy yet */
	load_fixture(f->path, "v1.sql");
	file_sha(f->path, before);
	copy = store_open_copy(f->path);
	assert_non_null(copy);
	assert_int_equal(store_version(copy), migrate_latest());
	assert_int_equal(scalar(store_db(copy), "SELECT count(*) FROM run"), 2);
	assert_int_equal(scalar(store_db(copy), "SELECT count(*) FROM sample"), 2);
	assert_int_equal(scalar(store_db(copy), "PRAGMA foreign_keys"), 1);
	store_close(copy);
	file_sha(f->path, after);
	assert_string_equal(before, after);
	assert_false(exists(f->path, "-wal"));
	assert_false(exists(f->path, "-shm"));
	{
		sqlite3 *db = NULL;
		assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
		assert_int_equal(scalar(db, "PRAGMA user_version"), 1);
		sqlite3_close(db);
	}
}

static void test_store_open_copy_current(void **state)
{
	struct fixture *f = *state;
	struct store *s = store_open(f->path, 0), *copy;
	struct run_rec r;

	assert_non_null(s);
	assert_int_equal(store_begin(s), 0);
	make_run(&r, "00000000-0000-4000-8000-0000000000c1", "a", "aa");
	assert_true(store_run_insert(s, &r) > 0);
	assert_int_equal(store_commit(s), 0);
	run_rec_release(&r);
	/* While the store is open (a -wal file exists) the copy sees committed rows. */
	copy = store_open_copy(f->path);
	assert_non_null(copy);
	assert_int_equal(scalar(store_db(copy), "SELECT count(*) FROM run"), 1);
	store_close(copy);
	store_close(s);
	/* Closed: read through an immutable open, leaving no -wal or -shm behind. */
	assert_false(exists(f->path, "-wal"));
	copy = store_open_copy(f->path);
	assert_non_null(copy);
	assert_int_equal(scalar(store_db(copy), "SELECT count(*) FROM run"), 1);
	store_close(copy);
	assert_false(exists(f->path, "-wal"));
	assert_false(exists(f->path, "-shm"));
	assert_null(store_open_copy("/nonexistent/tpsdb.sqlite"));
}

/* A collector is gone when its pid is dead, when a live pid started at another time
 * (reused), or when the machine has rebooted; alive or another machine's: not gone. */
static void test_store_collector_gone(void **state)
{
	struct run_rec me, child;
	int64_t start = TPS_NULL;
	int fds[2], st;
	pid_t pid;

	(void)state;
	run_rec_init(&me);
	collector_self(&me);
	assert_non_null(me.collector_host);
	assert_non_null(me.collector_boot);
	assert_int_equal(me.collector_pid, getpid());
	assert_true(me.collector_start != TPS_NULL && me.collector_start >= 0);
	assert_int_equal(collector_gone(me.collector_host, me.collector_boot, me.collector_pid,
					me.collector_start), 0);
	/* The same pid, another start time: a reused pid, not our collector. */
	assert_int_equal(collector_gone(me.collector_host, me.collector_boot, me.collector_pid,
					me.collector_start + 1), 1);
	/* Another boot of this machine. */
	assert_int_equal(collector_gone(me.collector_host, "00000000-0000-0000-0000-000000000000",
					me.collector_pid, me.collector_start), 1);
	/* Another machine: cannot tell, so not gone. */
	assert_int_equal(collector_gone("some-other-host.invalid", me.collector_boot, 1, 0), 0);
	/* Nothing recorded (imports, runs before migration 0008). */
	assert_int_equal(collector_gone(NULL, NULL, TPS_NULL, TPS_NULL), 0);
	/* A child that recorded itself and exited is gone. */
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		run_rec_init(&child);
		collector_self(&child);
		if (write(fds[1], &child.collector_start, sizeof(child.collector_start)) < 0)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], &start, sizeof(start)), (ssize_t)sizeof(start));
	close(fds[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(start != TPS_NULL);
	assert_int_equal(collector_gone(me.collector_host, me.collector_boot, pid, start), 1);
	run_rec_release(&me);
}

static void test_store_integrity_ok(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(store_integrity(f->mem, NULL, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_store_migrates_to_latest, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_refuses_newer_untouched, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_refuses_foreign, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_file_pragmas, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_identity_dedupe, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_sample_duplicate_rep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_run_finish_prompt_set, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_run_restore_idempotent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_two_writers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_open_copy_older, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_open_copy_current, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_integrity_ok, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_collector_gone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_writers_alternate, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
