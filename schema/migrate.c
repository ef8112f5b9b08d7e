/* migrate.c: applies the compiled-in migrations in order, each inside its own
 * transaction that also advances PRAGMA user_version, so a crash leaves the store at
 * a whole version. A store written by a newer tpsdb is refused, never altered. */
#include "schema/migrate_int.h"
#include "schema/store_int.h"
#include "tpsdb.h"

#include <stdio.h>

int migrate_latest(void)
{
	return migrations_count ? migrations[migrations_count - 1].version : 0;
}

static int apply_one(sqlite3 *db, const char *path, const struct migration *m)
{
	char *err = NULL;
	char pragma[64];
	int ret = -1;

	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, &err) != SQLITE_OK) {
		tps_error("cannot migrate '%s' to version %d: %s", path, m->version, err);
		goto out;
	}
	if (sqlite3_exec(db, m->sql, NULL, NULL, &err) != SQLITE_OK) {
		tps_error("cannot migrate '%s' to version %d (%s): %s", path, m->version,
			  m->name, err);
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		goto out;
	}
	/* PRAGMA takes no bound parameters; the version is our own integer. */
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", m->version);
	if (sqlite3_exec(db, pragma, NULL, NULL, &err) != SQLITE_OK ||
	    sqlite3_exec(db, "COMMIT", NULL, NULL, &err) != SQLITE_OK) {
		tps_error("cannot migrate '%s' to version %d: %s", path, m->version, err);
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		goto out;
	}
	ret = 0;
out:
	sqlite3_free(err);
	return ret;
}

int migrate_apply(sqlite3 *db, const char *path, int upto)
{
	int have, i, latest = migrate_latest();

	if (upto < 0 || upto > latest)
		upto = latest;
	if (store_pragma_int(db, "PRAGMA user_version", &have) < 0)
		return tps_error("cannot read the schema version of '%s': %s", path,
				 sqlite3_errmsg(db));
	if (have > latest)
		return tps_error("database '%s' has schema version %d, newer than this tpsdb "
				 "(%d): upgrade tpsdb; the database was not changed",
				 path, have, latest);
	for (i = 0; i < migrations_count; i++) {
		if (migrations[i].version <= have || migrations[i].version > upto)
			continue;
		if (apply_one(db, path, &migrations[i]) < 0)
			return -1;
	}
	return 0;
}
