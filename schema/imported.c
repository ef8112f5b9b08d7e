/* imported.c: reads and writes the imported_file table. The importer decides what
 * a duplicate is; this file only remembers what came in. */
#include "schema/imported.h"
#include "schema/store_int.h"
#include "tpsdb.h"

#include <stdio.h>

int store_imported_find(struct store *s, const char *sha256, char *when, size_t whenlen)
{
	static const char sql[] =
		"SELECT imported_at FROM imported_file WHERE sha256=:sha ORDER BY id LIMIT 1";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	if (!st)
		return -1;
	store_bind_text(st, ":sha", sha256);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(when, whenlen, "%s", store_col_str(st, 0));
		sqlite3_reset(st);
		return 1;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot read the imported files");
	return 0;
}

int store_imported_add(struct store *s, const struct imported_rec *r)
{
	static const char sql[] =
		"INSERT INTO imported_file(sha256, name, bytes, imported_at, kind, run_uuid, "
		"samples) VALUES(:sha,:name,:bytes,:at,:kind,:run,:samples)";
	sqlite3_stmt *st = store_stmt(s, sql);
	char now[32];
	int rc;

	if (!st)
		return -1;
	tps_now_iso(now, sizeof(now));
	store_bind_text(st, ":sha", r->sha256);
	store_bind_text(st, ":name", r->name);
	store_bind_i64(st, ":bytes", r->bytes);
	store_bind_text(st, ":at", now);
	store_bind_text(st, ":kind", r->kind);
	store_bind_text(st, ":run", r->run_uuid);
	store_bind_i64(st, ":samples", r->samples);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot record an imported file");
	return 0;
}
