/* store.c: opening and closing the store, its connection settings, the cache of
 * prepared statements, transactions and the integrity check. The schema itself is in
 * schema/NNNN_*.sql and is applied by migrate.c. */
#include "schema/store_int.h"
#include "schema/migrate_int.h"
#include "tpsdb.h"

#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>

#define STORE_BUSY_TIMEOUT_MS 10000

struct cached_stmt {
	const char *sql;
	sqlite3_stmt *st;
};

struct store {
	sqlite3 *db;
	char *path;
	struct cached_stmt *cache;
	size_t ncache, acache;
};

int store_pragma_int(sqlite3 *db, const char *sql, int *out)
{
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		goto out;
	if (sqlite3_step(st) != SQLITE_ROW)
		goto out;
	*out = sqlite3_column_int(st, 0);
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

/* A file that is SQLite but not ours must not be "migrated" into a tpsdb store. */
static int check_ours(sqlite3 *db, const char *path)
{
	int app = 0, version = 0, tables = 0;

	if (store_pragma_int(db, "PRAGMA application_id", &app) < 0 ||
	    store_pragma_int(db, "PRAGMA user_version", &version) < 0 ||
	    store_pragma_int(db, "SELECT count(*) FROM sqlite_schema", &tables) < 0)
		return tps_error("cannot read '%s': %s", path, sqlite3_errmsg(db));
	if (app != 0 && app != STORE_APPLICATION_ID)
		return tps_error("'%s' is not a tpsdb store (application_id %d)", path, app);
	if (app == 0 && version == 0 && tables > 0)
		return tps_error("'%s' is not a tpsdb store: it holds other tables", path);
	/* Checked before WAL is switched on: even that would alter the file. */
	if (version > migrate_latest())
		return tps_error("database '%s' has schema version %d, newer than this tpsdb "
				 "(%d): upgrade tpsdb; the database was not changed",
				 path, version, migrate_latest());
	return 0;
}

struct store *store_open_version(const char *path, int flags, int upto)
{
	struct store *s = NULL, *ret = NULL;
	int oflags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
	char *err = NULL;
	int app = 0;

	if ((flags & STORE_READONLY) && strcmp(path, ":memory:") && access(path, F_OK) != 0) {
		tps_error("no store at '%s': collect or import something first, or pass --db",
			  path);
		goto out;
	}
	if (!(flags & STORE_READONLY))
		oflags |= SQLITE_OPEN_CREATE;
	s = tps_xcalloc(1, sizeof(*s));
	s->path = tps_xstrdup(path);
	if (sqlite3_open_v2(path, &s->db, oflags, NULL) != SQLITE_OK) {
		tps_error("cannot open '%s': %s", path,
			  s->db ? sqlite3_errmsg(s->db) : "out of memory");
		goto out;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS);
	if (check_ours(s->db, path) < 0)
		goto out;
	/* WAL lets two collectors write one file and readers never block writers. */
	if (sqlite3_exec(s->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
			 "PRAGMA foreign_keys=ON;", NULL, NULL, &err) != SQLITE_OK) {
		tps_error("cannot configure '%s': %s", path, err);
		goto out;
	}
	if (!(flags & STORE_NO_MIGRATE) && migrate_apply(s->db, path, upto) < 0)
		goto out;
	if (store_pragma_int(s->db, "PRAGMA application_id", &app) == 0 && app == 0 &&
	    /* PRAGMA takes no bound parameter: 1414550340 is STORE_APPLICATION_ID. */
	    sqlite3_exec(s->db, "PRAGMA application_id = 1414550340", NULL, NULL, &err) !=
		    SQLITE_OK) {
		tps_error("cannot mark '%s' as a tpsdb store: %s", path, err);
		goto out;
	}
	ret = s;
	s = NULL;
out:
	sqlite3_free(err);
	store_close(s);
	return ret;
}

struct store *store_open(const char *path, int flags)
{
	return store_open_version(path, flags, -1);
}

void store_close(struct store *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->ncache; i++)
		sqlite3_finalize(s->cache[i].st);
	free(s->cache);
	sqlite3_close(s->db);
	free(s->path);
	free(s);
}

const char *store_path(const struct store *s)
{
	return s->path;
}

sqlite3 *store_db(struct store *s)
{
	return s->db;
}

int store_fail(struct store *s, const char *what)
{
	return tps_error("%s in '%s': %s", what, s->path, sqlite3_errmsg(s->db));
}

sqlite3_stmt *store_stmt(struct store *s, const char *sql)
{
	sqlite3_stmt *st = NULL;
	size_t i;

	for (i = 0; i < s->ncache; i++) {
		if (s->cache[i].sql == sql) {
			sqlite3_reset(s->cache[i].st);
			sqlite3_clear_bindings(s->cache[i].st);
			return s->cache[i].st;
		}
	}
	if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) !=
	    SQLITE_OK) {
		tps_error("cannot prepare a query on '%s': %s", s->path, sqlite3_errmsg(s->db));
		return NULL;
	}
	if (s->ncache == s->acache) {
		s->acache = s->acache ? 2 * s->acache : 16;
		s->cache = tps_xrealloc(s->cache, s->acache * sizeof(*s->cache));
	}
	s->cache[s->ncache].sql = sql;
	s->cache[s->ncache].st = st;
	s->ncache++;
	return st;
}

static int exec_simple(struct store *s, const char *sql, const char *what)
{
	char *err = NULL;
	int ret = 0;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &err) != SQLITE_OK) {
		ret = tps_error("cannot %s on '%s': %s", what, s->path, err);
	}
	sqlite3_free(err);
	return ret;
}

int store_begin(struct store *s)
{
	return exec_simple(s, "BEGIN IMMEDIATE", "start a transaction");
}

int store_commit(struct store *s)
{
	return exec_simple(s, "COMMIT", "commit");
}

void store_rollback(struct store *s)
{
	if (s && !sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

int store_version(struct store *s)
{
	int v = -1;
	store_pragma_int(s->db, "PRAGMA user_version", &v);
	return v;
}

int store_integrity(struct store *s, void (*cb)(const char *problem, void *arg), void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc, ret = -1, bad = 0;

	if (sqlite3_prepare_v2(s->db, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK) {
		store_fail(s, "cannot run integrity_check");
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *msg = (const char *)sqlite3_column_text(st, 0);
		if (msg && strcmp(msg, "ok")) {
			bad = 1;
			if (cb)
				cb(msg, arg);
		}
	}
	if (rc != SQLITE_DONE) {
		store_fail(s, "integrity_check failed");
		goto out;
	}
	ret = bad;
out:
	sqlite3_finalize(st);
	return ret;
}

void store_bind_text(sqlite3_stmt *st, const char *name, const char *v)
{
	int i = sqlite3_bind_parameter_index(st, name);
	if (!i)
		return;
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

void store_bind_i64(sqlite3_stmt *st, const char *name, int64_t v)
{
	int i = sqlite3_bind_parameter_index(st, name);
	if (!i)
		return;
	if (v == TPS_NULL)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, v);
}

void store_bind_double(sqlite3_stmt *st, const char *name, double v)
{
	int i = sqlite3_bind_parameter_index(st, name);
	if (!i)
		return;
	if (isnan(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

char *store_col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? tps_xstrdup((const char *)t) : NULL;
}

const char *store_col_str(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? (const char *)t : "";
}

int64_t store_col_i64(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? TPS_NULL : sqlite3_column_int64(st, i);
}

double store_col_double(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}
