/* migrate.c: applies the compiled-in migrations in order, each inside its own
 * BEGIN IMMEDIATE transaction that also advances PRAGMA user_version and marks the
 * file with tpsdb's application_id, so a crash leaves the store at a whole version.
 * The version is read again under the write lock, so N processes creating or
 * upgrading one store at once each apply a migration at most once between them.
 * A store written by a newer tpsdb, or a file that is not ours, is refused and
 * never altered. */
#include "schema/migrate_int.h"
#include "schema/record.h"
#include "schema/sqlite.h"
#include "tpsdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* tps_rate(n, ms, reported, flags): record_rate() for SQL, NULL for NAN. SQL's
 * NULL is record.h's absent: TPS_NULL for the count, NAN for the times. */
static void sql_rate(sqlite3_context *cx, int argc, sqlite3_value **v)
{
	int64_t n = sqlite3_value_type(v[0]) == SQLITE_NULL ? TPS_NULL : sqlite3_value_int64(v[0]);
	double ms = sqlite3_value_type(v[1]) == SQLITE_NULL ? NAN : sqlite3_value_double(v[1]);
	double rep = sqlite3_value_type(v[2]) == SQLITE_NULL ? NAN : sqlite3_value_double(v[2]);
	double r = record_rate(n, ms, rep, (unsigned)sqlite3_value_int64(v[3]));

	(void)argc;
	if (isnan(r))
		sqlite3_result_null(cx);
	else
		sqlite3_result_double(cx, r);
}

void migrate_functions(sqlite3 *db)
{
	sqlite3_create_function(db, "tps_rate", 4, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
				sql_rate, NULL, NULL);
}

int migrate_latest(void)
{
	return migrations_count ? migrations[migrations_count - 1].version : 0;
}

int migrate_check_ours(sqlite3 *db, const char *path, int *version)
{
	static const char sql[] = "SELECT (SELECT application_id FROM pragma_application_id),"
				  " (SELECT user_version FROM pragma_user_version),"
				  " (SELECT count(*) FROM sqlite_schema)";
	sqlite3_stmt *st = NULL;
	int app = 0, v = 0, tables = 0, rc;

	/* One statement, so one snapshot: three separate reads could see the marker
	 * before and the tables after another process's first migration. */
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    (rc = sqlite3_step(st)) == SQLITE_ROW) {
		app = sqlite3_column_int(st, 0);
		v = sqlite3_column_int(st, 1);
		tables = sqlite3_column_int(st, 2);
	} else {
		tps_error("cannot read '%s': %s", path, sqlite_errmsg(db, NULL));
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	if (app != 0 && app != STORE_APPLICATION_ID)
		return tps_error("'%s' is not a tpsdb store (application_id %d)", path, app);
	if (app == 0 && v == 0 && tables > 0)
		return tps_error("'%s' is not a tpsdb store: it holds other tables", path);
	/* Every migration marks the file, so a version without the mark is another
	 * program's user_version, not ours. */
	if (app == 0 && v > 0)
		return tps_error("'%s' is not a tpsdb store: user_version %d without tpsdb's "
				 "application_id; the file was not changed", path, v);
	if (v > migrate_latest())
		return tps_error("database '%s' has schema version %d, newer than this tpsdb "
				 "(%d): upgrade tpsdb; the database was not changed",
				 path, v, migrate_latest());
	if (version)
		*version = v;
	return 0;
}

/* The tables and their columns, in one text ("t(a,b) u(c)"), that SQLite holds in
 * db; SQLite's own tables left out. Caller frees; NULL when db cannot be read. */
static char *schema_text(sqlite3 *db)
{
	static const char sql[] =
		"SELECT group_concat(t, ' ') FROM (SELECT m.name || '(' || "
		"(SELECT group_concat(name, ',') FROM (SELECT p.name FROM "
		"pragma_table_info(m.name) p ORDER BY p.cid)) || ')' AS t "
		"FROM sqlite_schema m WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' "
		"ESCAPE '\\' ORDER BY m.name)";
	sqlite3_stmt *st = NULL;
	char *ret = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *t = sqlite3_column_text(st, 0);
		ret = tps_xstrdup(t ? (const char *)t : "");
	}
	sqlite3_finalize(st);
	return ret;
}

int migrate_check_schema(sqlite3 *db, const char *path, int version)
{
	sqlite3 *ref = NULL;
	char *want = NULL, *have = NULL;
	int i, ret = -1;

	/* The reference is the migrations themselves, applied to an empty database:
	 * nothing to keep in step by hand when a migration is added. */
	if (sqlite3_open_v2(":memory:", &ref, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		tps_error("cannot check '%s': out of memory", path);
		goto out;
	}
	migrate_functions(ref);
	for (i = 0; i < migrations_count && migrations[i].version <= version; i++) {
		if (sqlite3_exec(ref, migrations[i].sql, NULL, NULL, NULL) != SQLITE_OK) {
			tps_error("cannot check '%s': migration %d: %s", path,
				  migrations[i].version, sqlite3_errmsg(ref));
			goto out;
		}
	}
	want = schema_text(ref);
	if (!(have = schema_text(db))) {
		tps_error("cannot read '%s': %s", path, sqlite_errmsg(db, NULL));
		goto out;
	}
	if (!want || strcmp(want, have)) {
		tps_error("'%s' is not a sound tpsdb store: its tables are not those of schema "
			  "version %d (damaged or altered by another program); the file was not "
			  "changed", path, version);
		goto out;
	}
	ret = 0;
out:
	free(want);
	free(have);
	sqlite3_close(ref);
	return ret;
}

static const struct migration *next_migration(int have, int upto)
{
	int i;

	for (i = 0; i < migrations_count; i++) {
		if (migrations[i].version > have && migrations[i].version <= upto)
			return &migrations[i];
	}
	return NULL;
}

/* One locked step: re-reads the file under the write lock and applies the next
 * migration, if any. 1 when one was applied, 0 when none was due, -1 after an
 * error line. */
static int step(sqlite3 *db, const char *path, int upto)
{
	const struct migration *m = NULL;
	char *err = NULL;
	char pragma[64];
	int have = 0, app = 0, ret = -1;

	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, &err) != SQLITE_OK) {
		tps_error("cannot migrate '%s': %s", path, sqlite_errmsg(db, err));
		goto out;
	}
	if (migrate_check_ours(db, path, &have) < 0 ||
	    sqlite_pragma_int(db, "PRAGMA application_id", &app) < 0)
		goto fail;
	m = next_migration(have, upto);
	if (m && sqlite3_exec(db, m->sql, NULL, NULL, &err) != SQLITE_OK) {
		tps_error("cannot migrate '%s' to version %d (%s): %s", path, m->version,
			  m->name, sqlite_errmsg(db, err));
		goto fail;
	}
	/* PRAGMA takes no bound parameters; the version is our own integer, and
	 * 1414550340 is STORE_APPLICATION_ID. */
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", m ? m->version : have);
	if ((m && sqlite3_exec(db, pragma, NULL, NULL, &err) != SQLITE_OK) ||
	    (app == 0 && (m || have > 0) &&
	     sqlite3_exec(db, "PRAGMA application_id = 1414550340", NULL, NULL, &err) !=
		     SQLITE_OK) ||
	    sqlite3_exec(db, "COMMIT", NULL, NULL, &err) != SQLITE_OK) {
		tps_error("cannot migrate '%s' to version %d: %s", path, m ? m->version : have,
			  sqlite_errmsg(db, err));
		goto fail;
	}
	ret = m != NULL;
	goto out;
fail:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
out:
	sqlite3_free(err);
	return ret;
}

int migrate_apply(sqlite3 *db, const char *path, int upto)
{
	int have = 0, app = 0, rc, latest = migrate_latest();

	if (upto < 0 || upto > latest)
		upto = latest;
	/* Unlocked first look: a current, marked store takes no write lock at all. */
	if (migrate_check_ours(db, path, &have) < 0 ||
	    sqlite_pragma_int(db, "PRAGMA application_id", &app) < 0)
		return -1;
	if (!next_migration(have, upto) && (app != 0 || have == 0))
		return 0;
	while ((rc = step(db, path, upto)) == 1)
		;
	return rc;
}
