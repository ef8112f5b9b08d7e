/* test_migrate.c: every past schema version migrates to the latest with its data
 * intact, each migration advances user_version, and a store from a newer tpsdb is
 * refused without being touched. Fixtures: tests/data/schema/vN.sql (v1: before the
 * noise floor; v2: before rounds and batches; v5: before the run environment). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schema/migrate_int.h"
#include "schema/store_int.h"
#include "tpsdb.h"

struct fixture {
	char path[64];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	int fd;

	snprintf(f->path, sizeof(f->path), "/tmp/tpsdb-migrate-XXXXXX");
	fd = mkstemp(f->path);
	if (fd < 0)
		return -1;
	close(fd);
	unlink(f->path); /* sqlite creates it */
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char side[96];

	unlink(f->path);
	snprintf(side, sizeof(side), "%s-wal", f->path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", f->path);
	unlink(side);
	free(f);
	return 0;
}

/* Builds a plain SQLite file from a .sql fixture, without tpsdb's opener. */
static void load_fixture(const char *db_path, const char *name)
{
	char path[512];
	const char *dir = getenv("TPSDB_TEST_DATA");
	char *sql;
	sqlite3 *db = NULL;

	snprintf(path, sizeof(path), "%s/schema/%s", dir ? dir : "tests/data", name);
	sql = tps_read_file(path, NULL);
	assert_non_null(sql);
	assert_int_equal(sqlite3_open(db_path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	free(sql);
}

static int64_t scalar(struct store *s, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int64_t v = -1;

	assert_int_equal(sqlite3_prepare_v2(store_db(s), sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void test_migrate_v1_keeps_data(void **state)
{
	struct fixture *f = *state;
	struct store *s;

	load_fixture(f->path, "v1.sql");
	s = store_open(f->path, 0);
	assert_non_null(s);
	assert_int_equal(store_version(s), migrate_latest());
	assert_true(migrate_latest() >= 2);
	assert_int_equal(scalar(s, "SELECT count(*) FROM run"), 2);
	assert_int_equal(scalar(s, "SELECT count(*) FROM sample"), 2);
	assert_int_equal(scalar(s, "SELECT count(*) FROM baseline_run"), 1);
	assert_int_equal(scalar(s, "SELECT count(*) FROM file_hash"), 1);
	assert_int_equal(scalar(s, "SELECT n_max FROM run WHERE id=2"), 2);
	assert_int_equal(scalar(s, "SELECT draft_n_accepted FROM sample WHERE run_id=2"), 212);
	assert_int_equal(scalar(s, "SELECT count(*) FROM prompt WHERE n_tokens=1762"), 1);
	/* 0002 added the noise floor table, empty. */
	assert_int_equal(scalar(s, "SELECT count(*) FROM noise_floor"), 0);
	assert_int_equal(scalar(s, "PRAGMA foreign_key_check"), -1);
	store_close(s);
}

/* 0003 gives every run a round and a batch: NULL for the runs already there, and a
 * round below 1 is refused. */
static void test_migrate_v2_keeps_data(void **state)
{
	struct fixture *f = *state;
	struct store *s;
	char *err = NULL;

	load_fixture(f->path, "v2.sql");
	s = store_open(f->path, 0);
	assert_non_null(s);
	assert_int_equal(store_version(s), migrate_latest());
	assert_true(migrate_latest() >= 3);
	assert_int_equal(scalar(s, "SELECT count(*) FROM run"), 3);
	assert_int_equal(scalar(s, "SELECT count(*) FROM sample"), 3);
	assert_int_equal(scalar(s, "SELECT count(*) FROM baseline_run"), 1);
	assert_int_equal(scalar(s, "SELECT n_pairs FROM noise_floor WHERE run_b=3"), 1);
	assert_int_equal(scalar(s, "SELECT count(*) FROM run WHERE round IS NULL AND "
				   "batch IS NULL"), 3);
	assert_int_equal(scalar(s, "PRAGMA foreign_key_check"), -1);
	assert_int_equal(sqlite3_exec(store_db(s), "UPDATE run SET round=2, batch='b' WHERE id=3",
				      NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(scalar(s, "SELECT round FROM run WHERE batch='b'"), 2);
	assert_int_not_equal(sqlite3_exec(store_db(s), "UPDATE run SET round=0 WHERE id=1",
					  NULL, NULL, &err), SQLITE_OK);
	sqlite3_free(err);
	assert_int_equal(scalar(s, "SELECT count(*) FROM run WHERE round IS NULL"), 2);
	store_close(s);
}

/* 0005 gives every run a llama-bench config, cpu and model info: '' and NULL for the
 * runs already there, which keeps them in the cells they were in. */
static void test_migrate_v2_gets_config(void **state)
{
	struct fixture *f = *state;
	struct store *s;

	load_fixture(f->path, "v2.sql");
	s = store_open(f->path, 0);
	assert_non_null(s);
	assert_true(migrate_latest() >= 5);
	assert_int_equal(scalar(s, "SELECT count(*) FROM run WHERE config='' AND cpu='' AND "
				   "model_type='' AND model_n_params IS NULL"), 3);
	assert_int_equal(scalar(s, "SELECT count(*) FROM sample"), 3);
	store_close(s);
}

/* 0006 gives every run a sequential design: NULL (a fixed design) for the runs
 * already there, and a last look below 1 is refused. */
static void test_migrate_v2_gets_looks_to(void **state)
{
	struct fixture *f = *state;
	struct store *s;
	char *err = NULL;

	load_fixture(f->path, "v2.sql");
	s = store_open(f->path, 0);
	assert_non_null(s);
	assert_true(migrate_latest() >= 6);
	assert_int_equal(scalar(s, "SELECT count(*) FROM run WHERE looks_to IS NULL"), 3);
	assert_int_equal(sqlite3_exec(store_db(s), "UPDATE run SET looks_to=10 WHERE id=3",
				      NULL, NULL, NULL), SQLITE_OK);
	assert_int_not_equal(sqlite3_exec(store_db(s), "UPDATE run SET looks_to=0 WHERE id=1",
					  NULL, NULL, &err), SQLITE_OK);
	sqlite3_free(err);
	assert_int_equal(scalar(s, "SELECT count(*) FROM run WHERE looks_to=10"), 1);
	store_close(s);
}

/* 0007 gives every run an environment and every sample a repeat share: NULL, 0 and
 * NULL for what is there (nothing was recorded), every row and value kept; the
 * new columns refuse what they cannot hold. */
static void test_migrate_v5_gets_env(void **state)
{
	struct fixture *f = *state;
	struct store *s;
	char *err = NULL;

	load_fixture(f->path, "v5.sql");
	s = store_open(f->path, 0);
	assert_non_null(s);
	assert_int_equal(store_version(s), migrate_latest());
	assert_true(migrate_latest() >= 7);
	assert_int_equal(scalar(s, "SELECT count(*) FROM run"), 2);
	assert_int_equal(scalar(s, "SELECT count(*) FROM sample"), 3);
	assert_int_equal(scalar(s, "SELECT count(*) FROM baseline_run"), 1);
	assert_int_equal(scalar(s, "SELECT count(*) FROM noise_floor"), 1);
	assert_int_equal(scalar(s, "SELECT count(*) FROM imported_file"), 1);
	assert_int_equal(scalar(s, "SELECT model_n_params FROM run WHERE id=2"), 6738415616);
	assert_int_equal(scalar(s, "SELECT count(*) FROM run WHERE round=1 AND batch='b1'"), 1);
	assert_int_equal(scalar(s, "SELECT count(*) FROM run WHERE env IS NULL AND env_flags=0"), 2);
	assert_int_equal(scalar(s, "SELECT count(*) FROM sample WHERE repeat_share IS NULL"), 3);
	assert_int_equal(scalar(s, "PRAGMA foreign_key_check"), -1);
	assert_int_equal(sqlite3_exec(store_db(s), "UPDATE run SET env='{}', env_flags=3 WHERE id=1; "
				      "UPDATE sample SET repeat_share=0.98, flags=64 WHERE id=1",
				      NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(scalar(s, "SELECT env_flags FROM run WHERE id=1"), 3);
	assert_int_not_equal(sqlite3_exec(store_db(s), "UPDATE sample SET repeat_share=1.5 WHERE id=2",
					  NULL, NULL, &err), SQLITE_OK);
	sqlite3_free(err);
	err = NULL;
	assert_int_not_equal(sqlite3_exec(store_db(s), "UPDATE run SET env_flags=-1 WHERE id=2",
					  NULL, NULL, &err), SQLITE_OK);
	sqlite3_free(err);
	assert_int_equal(scalar(s, "SELECT count(*) FROM sample WHERE repeat_share IS NULL"), 2);
	store_close(s);
}

/* 0008 gives every run a collector identity: NULL for the runs already there, so a
 * run a v5 collector left 'running' stays 'running' (nothing to tell it orphaned
 * by), and the columns refuse a pid below 1 or a negative start time. */
static void test_migrate_v5_gets_collector(void **state)
{
	struct fixture *f = *state;
	struct store *s;
	char *err = NULL;

	load_fixture(f->path, "v5-running.sql");
	s = store_open(f->path, 0);
	assert_non_null(s);
	assert_true(migrate_latest() >= 8);
	assert_int_equal(scalar(s, "SELECT count(*) FROM run"), 4);
	assert_int_equal(scalar(s, "SELECT count(*) FROM sample"), 4);
	assert_int_equal(scalar(s, "SELECT count(*) FROM run WHERE collector_host IS NULL AND "
				   "collector_boot IS NULL AND collector_pid IS NULL AND "
				   "collector_start IS NULL"), 4);
	assert_int_equal(scalar(s, "SELECT count(*) FROM run WHERE status='running' AND "
				   "config='pp512@d0 fa=1 ngl=99' AND round=2"), 1);
	assert_int_equal(scalar(s, "SELECT count(*) FROM baseline_run"), 1);
	assert_int_equal(scalar(s, "SELECT n_pairs FROM noise_floor WHERE run_b=3"), 1);
	assert_int_equal(scalar(s, "PRAGMA foreign_key_check"), -1);
	assert_int_not_equal(sqlite3_exec(store_db(s), "UPDATE run SET collector_pid=0 WHERE id=4",
					  NULL, NULL, &err), SQLITE_OK);
	sqlite3_free(err);
	err = NULL;
	assert_int_not_equal(sqlite3_exec(store_db(s), "UPDATE run SET collector_start=-1 "
					  "WHERE id=4", NULL, NULL, &err), SQLITE_OK);
	sqlite3_free(err);
	assert_int_equal(sqlite3_exec(store_db(s), "UPDATE run SET collector_host='h', "
				      "collector_pid=7, collector_start=9 WHERE id=4", NULL, NULL,
				      NULL), SQLITE_OK);
	assert_int_equal(scalar(s, "SELECT collector_start FROM run WHERE id=4"), 9);
	store_close(s);
}

static void test_migrate_stepwise_versions(void **state)
{
	struct fixture *f = *state;
	struct store *s;
	int i, v;

	/* Each version a migration exists for (numbers may have gaps between branches). */
	for (i = 0; i < migrations_count; i++) {
		v = migrations[i].version;
		s = store_open_version(f->path, 0, v);
		assert_non_null(s);
		assert_int_equal(store_version(s), v);
		store_close(s);
	}
}

static void test_migrate_refuses_newer(void **state)
{
	struct fixture *f = *state;
	struct store *s;
	sqlite3 *db = NULL;
	char pragma[64];
	int64_t before;
	char *bytes_before, *bytes_after;
	size_t len_before, len_after;

	s = store_open(f->path, 0);
	assert_non_null(s);
	store_close(s);
	assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
	/* A rollback-journal file, so that a WAL switch would show in the header. */
	assert_int_equal(sqlite3_exec(db, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL), SQLITE_OK);
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version=%d", migrate_latest() + 5);
	assert_int_equal(sqlite3_exec(db, pragma, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	before = migrate_latest() + 5;
	bytes_before = tps_read_file(f->path, &len_before);

	assert_null(store_open(f->path, 0));

	/* Not one byte changed: not even the journal mode in the header. */
	bytes_after = tps_read_file(f->path, &len_after);
	assert_int_equal(len_before, len_after);
	assert_memory_equal(bytes_before, bytes_after, len_before);
	free(bytes_before);
	free(bytes_after);

	assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
	{
		sqlite3_stmt *st = NULL;
		sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_int_equal(sqlite3_column_int64(st, 0), before);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_migrate_v1_keeps_data, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_v2_keeps_data, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_v2_gets_config, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_v2_gets_looks_to, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_v5_gets_env, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_v5_gets_collector, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_stepwise_versions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_refuses_newer, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
