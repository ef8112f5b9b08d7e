/* store_int.h: the store's private half, for the .c files of schema/ only (and the
 * tests that check the store's files): the raw SQLite handle, cached statements, and
 * the bind and column helpers with the record conventions. No file outside schema/
 * includes it: every other stage sees typed loaders and writers only. */
#ifndef SCHEMA_STORE_INT_H
#define SCHEMA_STORE_INT_H

#include <sqlite3.h>
#include <stdint.h>

#include "schema/store.h"
#include "schema/sqlite.h"

/* Renames the store in error messages (merge names its source, not ":memory:"). */
void store_set_path(struct store *s, const char *path);
/* The raw handle, for schema/ files only. Borrowed. */
sqlite3 *store_db(struct store *s);
/* A prepared statement for a static SQL string, cached by the string's address and
 * reset with its bindings cleared (Fossil's db_static_prepare). Borrowed: never
 * finalize it. NULL after an error line. */
sqlite3_stmt *store_stmt(struct store *s, const char *sql);
/* Reports the SQLite error of the last call as an error line with a context; -1. */
int store_fail(struct store *s, const char *what);

/* Binding by parameter name (":run_id") with the record conventions: a NULL string,
 * TPS_NULL or NAN bind SQL NULL. A name the statement lacks is ignored. */
void store_bind_text(sqlite3_stmt *st, const char *name, const char *v);
void store_bind_i64(sqlite3_stmt *st, const char *name, int64_t v);
void store_bind_double(sqlite3_stmt *st, const char *name, double v);
/* Column readers with the same conventions. store_col_text returns a heap copy the
 * caller frees (NULL for SQL NULL); store_col_str a borrowed "" for SQL NULL. */
char *store_col_text(sqlite3_stmt *st, int i);
const char *store_col_str(sqlite3_stmt *st, int i);
int64_t store_col_i64(sqlite3_stmt *st, int i);
double store_col_double(sqlite3_stmt *st, int i);

/* The WHERE fragment of a struct run_filter over the aliases r (run), e (engine),
 * m (model) and h (host), bound by store_bind_run_filter() through parameters
 * named :f_*. It says nothing of f->limit, which each listing applies its way. */
#define RUN_FILTER_SQL                                                                   \
	"(:f_engine IS NULL OR tps_in(e.label, :f_engine)) "                                  \
	"AND (:f_model IS NULL OR tps_in(m.label, :f_model)) "                                \
	"AND (:f_tag IS NULL OR tps_in(r.tag, :f_tag)) "                                      \
	"AND (:f_host IS NULL OR tps_in(h.name, :f_host)) "                                   \
	"AND (:f_batch IS NULL OR tps_in(r.batch, :f_batch)) "                                \
	"AND (:f_uuid IS NULL OR r.uuid=:f_uuid) "                                            \
	"AND (:f_version IS NULL OR e.version=:f_version) "                                   \
	"AND (:f_baseline IS NULL OR r.id IN (SELECT br.run_id FROM baseline_run br "          \
	"  JOIN baseline b ON b.id=br.baseline_id WHERE b.name=:f_baseline)) "                 \
	"AND (:f_since IS NULL OR julianday(r.started_at) >= julianday(:f_since)) "           \
	"AND (:f_until IS NULL OR julianday(r.started_at) <= julianday(:f_until)) "

/* A run's status as every loader reports it: 'interrupted' for a run still marked
 * 'running' whose collector is gone (schema/collector.h: an orphaned run), the
 * stored status otherwise. RUN_ORPHANED_SQL is 1 for exactly those runs. Over the
 * alias r; the stored column keeps 'running' (export and merge carry it as is). */
#define RUN_ORPHANED_SQL                                                                 \
	"(r.status = 'running' AND tps_collector_gone(r.collector_host, r.collector_boot, " \
	"r.collector_pid, r.collector_start))"
#define RUN_STATUS_SQL "(CASE WHEN " RUN_ORPHANED_SQL " THEN 'interrupted' ELSE r.status END)"

/* record_finding_flags() of sample x of run r: its flags less SAMPLE_FAILED when it
 * is a llama-bench pp+tg test's (one combined rate, no failed request). The
 * statement binds :failed to SAMPLE_FAILED. */
#define FINDING_FLAGS_SQL                                                                \
	"(x.flags & ~(CASE WHEN r.endpoint = 'llama-bench' AND x.prompt_n > 0 AND "       \
	"x.predicted_n > 0 THEN :failed ELSE 0 END))"

/* Binds the :f_* parameters of RUN_FILTER_SQL from f (NULL: no condition) and
 * :f_limit to f->limit, or -1 (SQLite's "no limit") when it is not > 0. A list
 * binds as a blob of its labels, each ended by a NUL byte (no label from a
 * command line or the store holds one), which tps_in(x, list) searches. */
void store_bind_run_filter(sqlite3_stmt *st, const struct run_filter *f);

#endif
