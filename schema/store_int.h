/* store_int.h: the store's private half, for the .c files of schema/ only (and the
 * tests that check the store's files): the raw SQLite handle, cached statements, and
 * the bind and column helpers with the record conventions. No file outside schema/
 * includes it: every other stage sees typed loaders and writers only. */
#ifndef SCHEMA_STORE_INT_H
#define SCHEMA_STORE_INT_H

#include <sqlite3.h>
#include <stdint.h>

#include "schema/store.h"

/* Runs a one-value query (a PRAGMA) on a raw handle: 0 with *out set, -1 on any
 * error (nothing printed). For schema/ files that check a file before opening it. */
int store_pragma_int(sqlite3 *db, const char *sql, int *out);
/* The message for the last error on db: for a busy lock, a sentence saying another
 * writer holds it and how long we waited; else err when not NULL, else SQLite's
 * message. Borrowed (a thread-local buffer, or err, or SQLite's). */
const char *store_errmsg(sqlite3 *db, const char *err);
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

#endif
