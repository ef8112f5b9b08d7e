/* snapshot.c: copies another store into memory so that merge can read it at our
 * schema version without touching it. An older file is migrated in the copy, a
 * newer one is refused, and the file is opened read-only so even a refused or
 * failed merge leaves it (and its directory) exactly as it was. */
#include "schema/snapshot.h"
#include "schema/migrate_int.h"
#include "schema/store_int.h"
#include "tpsdb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct store *store_open_copy(const char *path)
{
	struct store *copy = NULL, *ret = NULL;
	sqlite3 *src = NULL;
	sqlite3_backup *b = NULL;
	char *wal = NULL, *uri = NULL;
	int64_t size = 0;
	int app = 0, version = 0, rc;

	if ((rc = sqlite_file_check(path, &size)) < 0)
		goto out;
	if (rc == 0 && size == 0) {
		tps_error("'%s' is not a tpsdb store: it is an empty file", path);
		goto out;
	}
	if (access(path, R_OK) != 0) {
		tps_error("cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	wal = tps_xasprintf("%s-wal", path);
	if (access(wal, F_OK) != 0) {
		/* immutable: a read-only WAL open would create -wal and -shm beside the
		 * other store; immutable is safe only when no -wal exists, i.e. no
		 * connection has the file open. */
		uri = sqlite_file_uri(path, "immutable=1");
		rc = sqlite3_open_v2(uri, &src, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	} else {
		rc = sqlite3_open_v2(path, &src, SQLITE_OPEN_READONLY, NULL);
	}
	if (rc != SQLITE_OK) {
		tps_error("cannot open '%s': %s", path, src ? sqlite3_errmsg(src) : "out of memory");
		goto out;
	}
	sqlite3_busy_timeout(src, store_busy_timeout_s() * 1000);
	if (sqlite_pragma_int(src, "PRAGMA application_id", &app) < 0 ||
	    sqlite_pragma_int(src, "PRAGMA user_version", &version) < 0) {
		tps_error("cannot read '%s': %s", path, sqlite3_errmsg(src));
		goto out;
	}
	if (app != STORE_APPLICATION_ID) {
		tps_error("'%s' is not a tpsdb store (application_id %d)", path, app);
		goto out;
	}
	if (version > migrate_latest()) {
		tps_error("database '%s' has schema version %d, newer than this tpsdb (%d): "
			  "upgrade tpsdb; the database was not changed", path, version,
			  migrate_latest());
		goto out;
	}
	if (!(copy = store_open(":memory:", STORE_NO_MIGRATE)))
		goto out;
	/* An in-memory destination needs the source's page size; tpsdb never changes
	 * SQLite's default, so a mismatch is a foreign file and the error says so. */
	b = sqlite3_backup_init(store_db(copy), "main", src, "main");
	if (!b) {
		tps_error("cannot copy '%s': %s", path, sqlite3_errmsg(store_db(copy)));
		goto out;
	}
	rc = sqlite3_backup_step(b, -1);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		tps_error("cannot copy '%s': %s", path, sqlite3_errstr(rc));
		goto out;
	}
	/* From here on errors name the other store, not ":memory:", and a damaged
	 * source is refused before a page of it is read as data. */
	store_set_path(copy, path);
	if (store_quick_check(copy) < 0 || migrate_apply(store_db(copy), path, -1) < 0)
		goto out;
	ret = copy;
	copy = NULL;
out:
	store_close(copy);
	sqlite3_close(src);
	free(wal);
	free(uri);
	return ret;
}
