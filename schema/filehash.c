/* filehash.c: reads and writes the file_hash table (schema/0001_init.sql). The
 * collector decides when to hash; this file only remembers the answers. */
#include "schema/filehash.h"
#include "schema/store_int.h"
#include "tpsdb.h"

#include <string.h>

int store_filehash_get(struct store *s, const char *path, int64_t bytes, int64_t mtime_ns,
		       char hex[65])
{
	static const char sql[] =
		"SELECT sha256 FROM file_hash WHERE path=:path AND bytes=:bytes "
		"AND mtime_ns=:mtime";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	if (!st)
		return -1;
	store_bind_text(st, ":path", path);
	store_bind_i64(st, ":bytes", bytes);
	store_bind_i64(st, ":mtime", mtime_ns);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *h = store_col_str(st, 0);
		if (strlen(h) != 64) {
			sqlite3_reset(st);
			return 0;
		}
		memcpy(hex, h, 65);
		sqlite3_reset(st);
		return 1;
	}
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot read the file hash cache");
	return 0;
}

int store_filehash_put(struct store *s, const char *path, int64_t bytes, int64_t mtime_ns,
		       const char *hex)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO file_hash(path, bytes, mtime_ns, sha256) "
		"VALUES(:path,:bytes,:mtime,:sha256)";
	sqlite3_stmt *st = store_stmt(s, sql);

	if (!st)
		return -1;
	store_bind_text(st, ":path", path);
	store_bind_i64(st, ":bytes", bytes);
	store_bind_i64(st, ":mtime", mtime_ns);
	store_bind_text(st, ":sha256", hex);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store_fail(s, "cannot record a file hash");
	return 0;
}
