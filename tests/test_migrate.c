/* test_migrate.c: every past schema version migrates to the latest with its data
 * intact, each migration advances user_version, and a store from a newer tpsdb is
 * refused without being touched. Fixtures: tests/data/schema/vN.sql (v1: before the
 * noise floor; v2: before rounds and batches; v5: before the run environment). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schema/migrate_int.h"
#include "schema/store_int.h"
#include "tests/db_scalar.h"
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

/* The store of fixture sql (tests/data/schema/), opened and so migrated to the
 * latest version, which is since or later. */
static struct store *open_fixture(struct fixture *f, const char *sql, int since)
{
	struct store *s;

	load_fixture(f->path, sql);
	s = store_open(f->path, 0);
	assert_non_null(s);
	assert_int_equal(store_version(s), migrate_latest());
	assert_true(migrate_latest() >= since);
	return s;
}

static int64_t scalar(struct store *s, const char *sql)
{
	return db_scalar(store_db(s), sql);
}

static void test_migrate_v1_keeps_data(void **state)
{
	struct fixture *f = *state;
	struct store *s;

	s = open_fixture(f, "v1.sql", 2);
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

	s = open_fixture(f, "v2.sql", 3);
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

	s = open_fixture(f, "v2.sql", 5);
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

	s = open_fixture(f, "v2.sql", 6);
	assert_int_equal(scalar(s, "SELECT count(*) FROM run WHERE looks_to IS NULL"), 3);
	assert_int_equal(sqlite3_exec(store_db(s), "UPDATE run SET looks_to=10 WHERE id=3",
				      NULL, NULL, NULL), SQLITE_OK);
	assert_int_not_equal(sqlite3_exec(store_db(s), "UPDATE run SET looks_to=0 WHERE id=1",
					  NULL, NULL, &err), SQLITE_OK);
	sqlite3_free(err);
	assert_int_equal(scalar(s, "SELECT count(*) FROM run WHERE looks_to=10"), 1);
	store_close(s);
}

/* 0012 gives every run its settled speculative knobs: '' (unknown) for the runs
 * already there, never NULL. */
static void test_migrate_v2_gets_spec_settings(void **state)
{
	struct fixture *f = *state;
	struct store *s;
	char *err = NULL;

	s = open_fixture(f, "v2.sql", 12);
	assert_int_equal(scalar(s, "SELECT count(*) FROM run WHERE spec_settings=''"), 3);
	assert_int_not_equal(sqlite3_exec(store_db(s), "UPDATE run SET spec_settings=NULL "
					  "WHERE id=1", NULL, NULL, &err), SQLITE_OK);
	sqlite3_free(err);
	assert_int_equal(sqlite3_exec(store_db(s), "UPDATE run SET spec_settings='p_min=0.75' "
				      "WHERE id=1", NULL, NULL, NULL), SQLITE_OK);
	store_close(s);
}

/* 0011 gives every run the metric its batch watched: NULL (both, or a fixed
 * design) for the runs already there; pp or tg only, and only with looks_to. */
static void test_migrate_v2_gets_looks_metric(void **state)
{
	static const char *const refused[] = {
		"UPDATE run SET looks_metric='both' WHERE id=3",
		"UPDATE run SET looks_metric='' WHERE id=3",
		"UPDATE run SET looks_metric='pp' WHERE id=1", /* a fixed design */
	};
	struct fixture *f = *state;
	struct store *s;
	size_t i;

	s = open_fixture(f, "v2.sql", 11);
	assert_int_equal(scalar(s, "SELECT count(*) FROM run WHERE looks_metric IS NULL"), 3);
	assert_int_equal(sqlite3_exec(store_db(s), "UPDATE run SET looks_to=10, looks_metric='tg' "
				      "WHERE id=3", NULL, NULL, NULL), SQLITE_OK);
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		char *err = NULL;

		assert_int_not_equal(sqlite3_exec(store_db(s), refused[i], NULL, NULL, &err),
				     SQLITE_OK);
		sqlite3_free(err);
	}
	assert_int_equal(scalar(s, "SELECT count(*) FROM run WHERE looks_metric='tg'"), 1);
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

	s = open_fixture(f, "v5.sql", 7);
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

	s = open_fixture(f, "v5-running.sql", 8);
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

/* Binds v, or NULL for NAN. */
static void bind_num(sqlite3_stmt *st, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

/* 0009 adds sample.pp_rate and tg_rate and fills them for the samples already
 * stored with tps_rate(), schema/record.c's record_rate(): n / ms * 1000 from the
 * counts (a v0.4.0 decode that reported (n - 1) / ms included), the reported rate
 * where a count or time is missing and for an aggregate, NULL where nothing is
 * known. A migrated row holds what ingest writes for the same sample. */
static void test_migrate_v8_gets_rates(void **state)
{
	static const struct {
		int64_t prompt_n, predicted_n;
		double prompt_ms, pps, predicted_ms, tps;
		unsigned flags;
		double pp, tg; /* after 0009; NAN: NULL */
	} x[] = {
		{ 1771, 128, 145.762, 12149.943057861447, 166.805, 761.3680645064596, 0,
		  1771 / 145.762 * 1000.0, 128 / 166.805 * 1000.0 },
		{ TPS_NULL, TPS_NULL, NAN, 9000, NAN, 100.5, 0, 9000, 100.5 },
		{ 512, 128, 0, 6000, 0, 90, 0, 6000, 90 },
		{ 512, 128, 80, 6400, 1400, 91.5, SAMPLE_AGGREGATE, 6400, 91.5 },
		{ TPS_NULL, TPS_NULL, NAN, NAN, NAN, NAN, SAMPLE_FAILED, NAN, NAN },
	};
	static const char ins[] =
		"INSERT INTO sample(run_id, prompt_id, rep, prompt_n, prompt_ms, prompt_per_second,"
		" predicted_n, predicted_ms, predicted_per_second, flags)"
		" VALUES(1, 1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
	struct fixture *f = *state;
	struct store *s;
	struct run_rec run;
	sqlite3_stmt *st = NULL;
	int64_t run2;
	size_t i, n = sizeof(x) / sizeof(x[0]);
	char q[160];

	s = store_open_version(f->path, 0, 8);
	assert_non_null(s);
	assert_int_equal(sqlite3_exec(store_db(s),
		"INSERT INTO host(id, name) VALUES(1, 'h');"
		"INSERT INTO engine(id, label) VALUES(1, 'e');"
		"INSERT INTO model(id, label) VALUES(1, 'm');"
		"INSERT INTO prompt(id, name, text_hash) VALUES(1, 'p',"
		" '0000000000000000000000000000000000000000000000000000000000000001');"
		"INSERT INTO run(id, uuid, started_at, host_id, engine_id, model_id) VALUES(1,"
		" '00000000-0000-4000-8000-000000000001', '2026-01-01T00:00:00.000Z', 1, 1, 1);",
		NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(store_db(s), ins, -1, &st, NULL), SQLITE_OK);
	for (i = 0; i < n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, (int64_t)i + 1);
		bind_num(st, 2, x[i].prompt_n == TPS_NULL ? NAN : (double)x[i].prompt_n);
		bind_num(st, 3, x[i].prompt_ms);
		bind_num(st, 4, x[i].pps);
		bind_num(st, 5, x[i].predicted_n == TPS_NULL ? NAN : (double)x[i].predicted_n);
		bind_num(st, 6, x[i].predicted_ms);
		bind_num(st, 7, x[i].tps);
		sqlite3_bind_int64(st, 8, x[i].flags);
		assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	}
	sqlite3_finalize(st);
	store_close(s);

	s = store_open(f->path, 0);
	assert_non_null(s);
	assert_int_equal(store_version(s), migrate_latest());
	assert_true(migrate_latest() >= 9);
	for (i = 0; i < n; i++) {
		double pp = NAN, tg = NAN;

		snprintf(q, sizeof(q), "SELECT pp_rate, tg_rate, predicted_per_second FROM sample "
			 "WHERE rep=%zu", i + 1);
		assert_int_equal(sqlite3_prepare_v2(store_db(s), q, -1, &st, NULL), SQLITE_OK);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		if (sqlite3_column_type(st, 0) != SQLITE_NULL)
			pp = sqlite3_column_double(st, 0);
		if (sqlite3_column_type(st, 1) != SQLITE_NULL)
			tg = sqlite3_column_double(st, 1);
		if (isnan(x[i].pp) ? !isnan(pp) : pp != x[i].pp)
			fail_msg("sample %zu: pp_rate %.17g, want %.17g", i + 1, pp, x[i].pp);
		if (isnan(x[i].tg) ? !isnan(tg) : tg != x[i].tg)
			fail_msg("sample %zu: tg_rate %.17g, want %.17g", i + 1, tg, x[i].tg);
		/* The reported rate is a raw fact: left as it was. */
		if (!isnan(x[i].tps))
			assert_true(sqlite3_column_double(st, 2) == x[i].tps);
		sqlite3_finalize(st);
	}

	/* The same samples through ingest, into a second run: the same rates. */
	run_rec_init(&run);
	snprintf(run.uuid, sizeof(run.uuid), "00000000-0000-4000-8000-000000000002");
	assert_int_equal(store_begin(s), 0);
	assert_true((run2 = store_run_insert(s, &run)) > 0);
	for (i = 0; i < n; i++) {
		struct sample_rec smp;

		sample_rec_init(&smp);
		snprintf(smp.prompt_hash, sizeof(smp.prompt_hash), "%064d", 1);
		smp.rep = (int64_t)i + 1;
		smp.prompt_n = x[i].prompt_n;
		smp.prompt_ms = x[i].prompt_ms;
		smp.prompt_per_second = x[i].pps;
		smp.predicted_n = x[i].predicted_n;
		smp.predicted_ms = x[i].predicted_ms;
		smp.predicted_per_second = x[i].tps;
		smp.flags = x[i].flags;
		assert_int_equal(store_sample_insert(s, run2, &smp), 0);
	}
	assert_int_equal(store_commit(s), 0);
	snprintf(q, sizeof(q), "SELECT count(*) FROM sample a JOIN sample b ON b.rep=a.rep "
		 "AND b.run_id=%lld WHERE a.run_id=1 AND a.pp_rate IS b.pp_rate AND "
		 "a.tg_rate IS b.tg_rate", (long long)run2);
	assert_int_equal(scalar(s, q), (int64_t)n);
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
		cmocka_unit_test_setup_teardown(test_migrate_v2_gets_looks_metric, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_v2_gets_spec_settings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_v5_gets_env, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_v5_gets_collector, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_v8_gets_rates, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_stepwise_versions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_refuses_newer, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
