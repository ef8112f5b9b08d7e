/* snapshot.h: a private, migrated copy of another store, for `tpsdb merge`. The
 * other file is only read: never migrated in place, never written. */
#ifndef SCHEMA_SNAPSHOT_H
#define SCHEMA_SNAPSHOT_H

struct store;

/* Copies the tpsdb store at path into a new ":memory:" store with SQLite's backup
 * API and migrates the copy to the latest schema; the file itself is opened read-only
 * (immutable when no -wal file says another connection may be writing) so neither it
 * nor its directory changes. Returns the copy, which the caller frees with
 * store_close(), or NULL after an error line: a missing file, a file that is not a
 * tpsdb store, or one whose schema is newer than this program. */
struct store *store_open_copy(const char *path);

#endif
