/* filehash.h: the file_hash table, a cache of sha256 digests of binaries and GGUF
 * files keyed by path and trusted while the size and mtime are unchanged. */
#ifndef SCHEMA_FILEHASH_H
#define SCHEMA_FILEHASH_H

#include <stdint.h>

struct store;

/* Looks path up: 1 with the digest in hex when a row has exactly this size and
 * mtime, 0 when there is none or it is stale, -1 after an error line. */
int store_filehash_get(struct store *s, const char *path, int64_t bytes, int64_t mtime_ns,
		       char hex[65]);
/* Records the digest of path, replacing an older row. Inside the caller's
 * transaction. 0 ok, -1 after an error line. */
int store_filehash_put(struct store *s, const char *path, int64_t bytes, int64_t mtime_ns,
		       const char *hex);

#endif
