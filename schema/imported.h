/* imported.h: the imported_file table (schema/0004_imported_file.sql): the sha256
 * of every file `tpsdb import` took in, so that the same bytes are not imported
 * twice by accident. */
#ifndef SCHEMA_IMPORTED_H
#define SCHEMA_IMPORTED_H

#include <stddef.h>
#include <stdint.h>

struct store;

struct imported_rec {
	const char *sha256, *name, *kind, *run_uuid; /* run_uuid NULL for an export */
	int64_t bytes, samples;
};

/* Looks the digest up: 1 with the time of its first import in when (ISO 8601),
 * 0 when these bytes were never imported, -1 after an error line. */
int store_imported_find(struct store *s, const char *sha256, char *when, size_t whenlen);

/* Records one imported file, inside the caller's transaction. 0 ok, -1 after an
 * error line. */
int store_imported_add(struct store *s, const struct imported_rec *r);

#endif
