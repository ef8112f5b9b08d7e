/* store.c: opening and closing the store, its connection settings, the cache of
 * prepared statements, transactions and the integrity check. The schema itself is in
 * schema/NNNN_*.sql and is applied by migrate.c. */
#include "schema/store_int.h"
#include "schema/migrate_int.h"
#include "schema/sqlite.h"
#include "schema/collector.h"
#include "tpsdb.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* tps_collector_gone(host, boot, pid, start): collector_gone() for SQL, so a
 * loader can say CASE WHEN status='running' AND tps_collector_gone(...) ... */
static void sql_collector_gone(sqlite3_context *cx, int argc, sqlite3_value **v)
{
	const unsigned char *host = sqlite3_value_text(v[0]), *boot = sqlite3_value_text(v[1]);
	int64_t pid = sqlite3_value_type(v[2]) == SQLITE_NULL ? TPS_NULL : sqlite3_value_int64(v[2]);
	int64_t start = sqlite3_value_type(v[3]) == SQLITE_NULL ? TPS_NULL
								 : sqlite3_value_int64(v[3]);

	(void)argc;
	sqlite3_result_int(cx, collector_gone((const char *)host, (const char *)boot, pid, start));
}

/* tps_in(x, list): 1 when the text x is one of the labels of list, a blob of
 * NUL-ended labels (store_bind_run_filter()); 0 otherwise, and for a NULL x. */
static void sql_in(sqlite3_context *cx, int argc, sqlite3_value **v)
{
	const char *x = (const char *)sqlite3_value_text(v[0]);
	const char *p = sqlite3_value_blob(v[1]);
	int n = sqlite3_value_bytes(v[1]), len, found = 0;

	(void)argc;
	if (x && p) {
		len = (int)strlen(x) + 1;
		for (const char *end = p + n; p < end && !found;) {
			size_t k = strnlen(p, (size_t)(end - p));
			found = (int)k + 1 == len && !memcmp(p, x, k);
			p += k + 1;
		}
	}
	sqlite3_result_int(cx, found);
}

static void register_functions(sqlite3 *db)
{
	sqlite3_create_function(db, "tps_in", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, sql_in,
				NULL, NULL);
	sqlite3_create_function(db, "tps_collector_gone", 4, SQLITE_UTF8, NULL,
				sql_collector_gone, NULL, NULL);
	migrate_functions(db);
}

struct cached_stmt {
	const char *sql;
	sqlite3_stmt *st;
};

struct store {
	sqlite3 *db;
	char *path;
	int found_version; /* the schema version before this open migrated it */
	struct cached_stmt *cache;
	size_t ncache, acache;
};

int store_busy_timeout_s(void)
{
	return sqlite_busy_timeout_s();
}

/* 1 when a reader may not write beside the file (its directory or the file is
 * read-only: read-only media, chattr +i), so SQLite could not keep -wal/-shm. The
 * folder that counts is the one of the file a chain of symlinks ends at: SQLite
 * keeps -wal/-shm beside the target, not beside the link. */
static int cannot_write_beside(const char *path)
{
	char *real = realpath(path, NULL);
	char *dir = tps_xstrdup(real ? real : path);
	int ret;

	ret = access(path, W_OK) != 0 || access(dirname(dir), W_OK) != 0;
	free(dir);
	free(real);
	return ret;
}

int store_quick_check(struct store *s)
{
	int64_t mb = sqlite_quick_check_mb();
	sqlite3_stmt *st = NULL;
	struct stat sb;
	int rc, ret = -1;

	if (!strcmp(s->path, ":memory:") ||
	    (stat(s->path, &sb) == 0 && (int64_t)sb.st_size > mb * 1024 * 1024))
		return 0; /* over the budget: README says such stores are not checked */
	if (sqlite3_prepare_v2(s->db, "PRAGMA quick_check(1)", -1, &st, NULL) != SQLITE_OK) {
		tps_error("store '%s' is corrupt: %s (see 'tpsdb check')", s->path,
			  sqlite3_errmsg(s->db));
		goto out;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && !strcmp(store_col_str(st, 0), "ok")) {
		ret = 0;
	} else if (rc == SQLITE_ROW) {
		/* One error line: SQLite's first problem, its newlines made spaces. */
		const char *msg = store_col_str(st, 0), *p;
		char *one;
		size_t i;

		if ((p = strstr(msg, "***\n")))
			msg = p + 4;
		one = tps_xstrdup(msg);
		for (i = 0; one[i]; i++) {
			if (one[i] == '\n' || one[i] == '\r')
				one[i] = ' ';
		}
		tps_error("store '%s' is corrupt: %s (see 'tpsdb check')", s->path, one);
		free(one);
	} else {
		tps_error("store '%s' is corrupt: %s (see 'tpsdb check')", s->path,
			  sqlite_errmsg(s->db, NULL));
	}
out:
	sqlite3_finalize(st);
	return ret;
}

/* The marks and then the tables, read in one read transaction (one snapshot), so
 * that another process's migration between the two reads is not taken for a
 * damaged schema. 0 with the version in *version, -1 after one error line. */
static int identify(sqlite3 *db, const char *path, int *version)
{
	int ret = -1;

	if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		tps_error("cannot read '%s': %s", path, sqlite_errmsg(db, NULL));
		return -1;
	}
	if (migrate_check_ours(db, path, version) < 0 ||
	    (*version > 0 && migrate_check_schema(db, path, *version) < 0))
		goto out;
	ret = 0;
out:
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	return ret;
}

/* A read-only open: mode=ro, or immutable=1 where nothing may be written beside the
 * file. Refuses an empty file, a foreign one, a newer one and an older one (a
 * reader never migrates). 0 ok, -1 after an error line. */
static int open_readonly(struct store *s, const char *path)
{
	char *uri = NULL;
	int64_t size = 0;
	int version = 0, ret = -1;

	if (sqlite_file_check(path, &size) < 0)
		goto out;
	if (size == 0) {
		tps_error("'%s' is not a tpsdb store: it is an empty file", path);
		goto out;
	}
	uri = sqlite_file_uri(path, cannot_write_beside(path) ? "immutable=1" : "mode=ro");
	if (sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		tps_error("cannot open '%s': %s", path,
			  s->db ? sqlite3_errmsg(s->db) : "out of memory");
		goto out;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, store_busy_timeout_s() * 1000);
	register_functions(s->db);
	if (identify(s->db, path, &version) < 0)
		goto out;
	s->found_version = version;
	if (version == 0) {
		tps_error("'%s' is not a tpsdb store: it holds no tpsdb schema", path);
		goto out;
	}
	if (version < migrate_latest()) {
		tps_error("store '%s' is at schema version %d of %d and needs migration, run a "
			  "write command or `tpsdb migrate`", path, version, migrate_latest());
		goto out;
	}
	if (sqlite3_exec(s->db, "PRAGMA foreign_keys=ON", NULL, NULL, NULL) != SQLITE_OK) {
		tps_error("cannot configure '%s': %s", path, sqlite3_errmsg(s->db));
		goto out;
	}
	ret = 0;
out:
	free(uri);
	return ret;
}

/* A writer's open: creates a missing or zero-length file, and refuses anything
 * else that is not a tpsdb store (another SQLite file, empty or not, a file that
 * is not SQLite at all, a damaged schema, a newer or corrupt store) before a byte
 * is changed. A new store gets its migrations before WAL is switched on, so the
 * file goes from zero bytes to a marked store in one transaction and a second
 * opener never sees an unmarked SQLite file. */
static int open_write(struct store *s, const char *path, int flags, int upto)
{
	char *err = NULL;
	int64_t size = 0;
	double t0;
	int fresh, rc, ret = -1;

	if (strcmp(path, ":memory:") && (rc = sqlite_file_check(path, &size)) != 0) {
		if (rc < 0)
			goto out;
		if (flags & STORE_EXISTING) {
			tps_error("no store at '%s': collect or import something first, or pass "
				  "--db", path);
			goto out;
		}
	}
	/* An empty file holds no runs either. A writer that adds none (baseline,
	 * calibrate, migrate) can only fail on it, and must not leave it a store. */
	if ((flags & STORE_EXISTING) && strcmp(path, ":memory:") && size == 0) {
		tps_error("no store at '%s': the file is empty; collect or import something "
			  "first, or pass --db", path);
		goto out;
	}
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		tps_error("cannot open '%s': %s", path,
			  s->db ? sqlite3_errmsg(s->db) : "out of memory");
		goto out;
	}
	/* SQLite opens a file it may not write (0444 to a user, immutable, a
	 * read-only mount) read-only without a word; each write of a command would
	 * then fail on its own, one error line each, after a collect has started
	 * its servers. A writer says so once, here, before it reads or changes a
	 * byte. */
	if (strcmp(path, ":memory:") && sqlite3_db_readonly(s->db, "main") == 1) {
		tps_error("cannot write '%s': the file may not be written (permissions, an "
			  "immutable file or a read-only file system); the store was not changed",
			  path);
		goto out;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, store_busy_timeout_s() * 1000);
	register_functions(s->db);
	/* Checked before WAL is switched on: even that would alter the file. */
	if (identify(s->db, path, &s->found_version) < 0)
		goto out;
	fresh = s->found_version == 0;
	if (fresh && size > 0) {
		tps_error("'%s' is not a tpsdb store: it is an SQLite file without tpsdb's "
			  "schema; the file was not changed", path);
		goto out;
	}
	if (!fresh && !(flags & STORE_NO_MIGRATE) && store_quick_check(s) < 0)
		goto out;
	if (fresh && !(flags & STORE_NO_MIGRATE) && migrate_apply(s->db, path, upto) < 0)
		goto out;
	/* WAL lets two collectors write one file and readers never block writers.
	 * Switching needs the file to itself and SQLite does not wait for that (no
	 * busy handler): openers of one new store take turns, up to the busy wait. */
	t0 = tps_mono_ms();
	while ((rc = sqlite3_exec(s->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
				  "PRAGMA foreign_keys=ON;", NULL, NULL, &err)) != SQLITE_OK &&
	       (rc & 0xff) == SQLITE_BUSY &&
	       tps_mono_ms() - t0 < store_busy_timeout_s() * 1000.0) {
		sqlite3_free(err);
		err = NULL;
		usleep(2000);
	}
	if (rc != SQLITE_OK) {
		tps_error("cannot configure '%s': %s", path, sqlite_errmsg(s->db, err));
		goto out;
	}
	if (!fresh && !(flags & STORE_NO_MIGRATE) && migrate_apply(s->db, path, upto) < 0)
		goto out;
	ret = 0;
out:
	sqlite3_free(err);
	return ret;
}

struct store *store_open_version(const char *path, int flags, int upto)
{
	struct store *s = NULL, *ret = NULL;
	int rc;

	if ((flags & (STORE_READONLY | STORE_EXISTING)) && strcmp(path, ":memory:") &&
	    access(path, F_OK) != 0) {
		tps_error("no store at '%s': collect or import something first, or pass --db",
			  path);
		goto out;
	}
	s = tps_xcalloc(1, sizeof(*s));
	s->path = tps_xstrdup(path);
	if ((flags & STORE_READONLY) && strcmp(path, ":memory:"))
		rc = open_readonly(s, path);
	else
		rc = open_write(s, path, flags, upto);
	if (rc < 0)
		goto out;
	ret = s;
	s = NULL;
out:
	store_close(s);
	return ret;
}

struct store *store_open(const char *path, int flags)
{
	return store_open_version(path, flags, -1);
}

int store_found_version(const struct store *s)
{
	return s->found_version;
}

void store_set_path(struct store *s, const char *path)
{
	free(s->path);
	s->path = tps_xstrdup(path);
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
	return tps_error("%s in '%s': %s", what, s->path, sqlite_errmsg(s->db, NULL));
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
		ret = tps_error("cannot %s on '%s': %s", what, s->path, sqlite_errmsg(s->db, err));
	}
	sqlite3_free(err);
	return ret;
}

/* A cached statement that returned its one row without being reset keeps the
 * connection's read snapshot open; BEGIN IMMEDIATE on a snapshot that another
 * writer has moved past fails at once with SQLITE_BUSY, busy timeout or not. So
 * every cached statement lets go of its snapshot before a transaction starts. */
static void stmts_reset(struct store *s)
{
	size_t i;

	for (i = 0; i < s->ncache; i++)
		sqlite3_reset(s->cache[i].st);
}

int store_begin(struct store *s)
{
	stmts_reset(s);
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
	sqlite_pragma_int(s->db, "PRAGMA user_version", &v);
	return v;
}

/* SQLite's verdict that the file itself is damaged, as opposed to a busy lock or
 * a full disk: the check reports it as a problem rather than failing. */
static int is_damage(sqlite3 *db)
{
	int rc = sqlite3_extended_errcode(db) & 0xff;

	return rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB;
}

/* SQLite puts "*** in database main ***" and a newline before its first problem:
 * cb gets each line on its own, and the header goes. */
static void problem_lines(const char *problem, void (*cb)(const char *, void *), void *arg)
{
	const char *p = problem, *nl;

	while (cb && *p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if (nl > p && strncmp(p, "*** in database ", 16)) {
			char *line = tps_xstrndup(p, (size_t)(nl - p));
			cb(line, arg);
			free(line);
		}
		p = *nl ? nl + 1 : nl;
	}
}

int store_integrity(struct store *s, void (*cb)(const char *problem, void *arg), void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc, ret = -1, bad = 0;

	if (sqlite3_prepare_v2(s->db, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK) {
		if (is_damage(s->db))
			goto damaged;
		store_fail(s, "cannot run integrity_check");
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *msg = (const char *)sqlite3_column_text(st, 0);
		if (msg && strcmp(msg, "ok")) {
			bad = 1;
			problem_lines(msg, cb, arg);
		}
	}
	if (rc != SQLITE_DONE) {
		if (is_damage(s->db))
			goto damaged;
		store_fail(s, "integrity_check failed");
		goto out;
	}
	ret = bad;
	goto out;
damaged:
	problem_lines(sqlite3_errmsg(s->db), cb, arg);
	ret = 1;
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
