/* sqlite.h: the raw SQLite helpers of sqlite.c, private to schema/ (as store_int.h)
 * and below both store.c and migrate.c. */
#ifndef SCHEMA_SQLITE_H
#define SCHEMA_SQLITE_H

#include <sqlite3.h>
#include <stdint.h>

/* 'TPSD' in PRAGMA application_id marks a file as a tpsdb store: the migrations
 * write it, the store and a snapshot check it. */
#define STORE_APPLICATION_ID 0x54505344

/* Runs a one-value query (a PRAGMA) on a raw handle: 0 with *out set, -1 on any
 * error (nothing printed). For schema/ files that check a file before opening it. */
int sqlite_pragma_int(sqlite3 *db, const char *sql, int *out);

/* The message for the last error on db: for a busy lock, a sentence saying another
 * writer holds it and how long we waited; else err when not NULL, else SQLite's
 * message. Borrowed (a thread-local buffer, or err, or SQLite's). */
const char *sqlite_errmsg(sqlite3 *db, const char *err);

/* Seconds a writer waits on a lock: $TPSDB_BUSY_TIMEOUT, else 300. */
int sqlite_busy_timeout_s(void);
/* The largest store, in MiB, whose opening runs the quick check:
 * $TPSDB_QUICK_CHECK_MB, else 512. */
int sqlite_quick_check_mb(void);

/* Looks at path before SQLite opens it: 1 when it does not exist (or is
 * ":memory:"), 0 when it is a regular file that is empty or starts with SQLite's
 * header, with its size in *size; -1 after one error line for anything else (a
 * FIFO, a device, a folder: never opened for a blocking read; a file that is not
 * SQLite). Follows symlinks. Changes nothing. */
int sqlite_file_check(const char *path, int64_t *size);

/* "file:<path>?<param>" with the path percent-encoded, for sqlite3_open_v2() with
 * SQLITE_OPEN_URI (param e.g. "mode=ro" or "immutable=1"). Caller frees. */
char *sqlite_file_uri(const char *path, const char *param);

#endif
