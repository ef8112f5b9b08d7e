/* baseline.c: the SQL behind 'tpsdb baseline'. A baseline is a name and a set of run
 * ids; deleting it leaves the runs alone (baseline_run cascades from both sides). */
#include "schema/baseline.h"
#include "schema/store_int.h"
#include "tpsdb.h"

#include <stdlib.h>

int store_baseline_exists(struct store *s, const char *name)
{
	static const char sql[] = "SELECT 1 FROM baseline WHERE name=:name";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	if (!st)
		return -1;
	store_bind_text(st, ":name", name);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return store_fail(s, "cannot look up the baseline");
}

int store_baseline_remove(struct store *s, const char *name)
{
	static const char sql[] = "DELETE FROM baseline WHERE name=:name";
	sqlite3_stmt *st = store_stmt(s, sql);

	if (!st)
		return -1;
	store_bind_text(st, ":name", name);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store_fail(s, "cannot remove the baseline");
	return sqlite3_changes(store_db(s)) > 0;
}

int store_baseline_create(struct store *s, const char *name, int replace, const int64_t *ids,
			  size_t n)
{
	static const char ins_sql[] =
		"INSERT INTO baseline(name, created_at) VALUES(:name, :now)";
	static const char run_sql[] =
		"INSERT OR IGNORE INTO baseline_run(baseline_id, run_id) VALUES(:b, :r)";
	sqlite3_stmt *st;
	int64_t bid;
	char now[32];
	size_t i;
	int ex;

	if ((ex = store_baseline_exists(s, name)) < 0)
		return -1;
	if (ex && !replace)
		return tps_error("baseline '%s' already exists (--replace overwrites it)", name);
	if (ex && store_baseline_remove(s, name) < 0)
		return -1;
	if (!(st = store_stmt(s, ins_sql)))
		return -1;
	tps_now_iso(now, sizeof(now));
	store_bind_text(st, ":name", name);
	store_bind_text(st, ":now", now);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store_fail(s, "cannot create the baseline");
	bid = sqlite3_last_insert_rowid(store_db(s));
	for (i = 0; i < n; i++) {
		if (!(st = store_stmt(s, run_sql)))
			return -1;
		store_bind_i64(st, ":b", bid);
		store_bind_i64(st, ":r", ids[i]);
		if (sqlite3_step(st) != SQLITE_DONE)
			return store_fail(s, "cannot add a run to the baseline");
	}
	return 0;
}

int store_baseline_list(struct store *s, struct baseline_info **out, size_t *n)
{
	static const char sql[] =
		"SELECT b.name, b.created_at, "
		"(SELECT count(*) FROM baseline_run br WHERE br.baseline_id=b.id), "
		"(SELECT count(*) FROM baseline_run br JOIN sample x ON x.run_id=br.run_id "
		" WHERE br.baseline_id=b.id) "
		"FROM baseline b ORDER BY b.name";
	sqlite3_stmt *st = store_stmt(s, sql);
	struct baseline_info *v = NULL;
	size_t nv = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct baseline_info *b;

		v = tps_xrealloc(v, (nv + 1) * sizeof(*v));
		b = &v[nv++];
		b->name = tps_xstrdup(store_col_str(st, 0));
		b->created_at = tps_xstrdup(store_col_str(st, 1));
		b->n_runs = sqlite3_column_int64(st, 2);
		b->n_samples = sqlite3_column_int64(st, 3);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		baseline_infos_free(v, nv);
		return store_fail(s, "cannot list baselines");
	}
	*out = v;
	*n = nv;
	return 0;
}

void baseline_infos_free(struct baseline_info *b, size_t n)
{
	size_t i;

	for (i = 0; b && i < n; i++) {
		free(b[i].name);
		free(b[i].created_at);
	}
	free(b);
}
