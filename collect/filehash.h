/* filehash.h: sha256 identity of the binaries and GGUF files the collector runs,
 * reused from the store while a file's path, size and mtime are unchanged, since
 * hashing a 30 GB model takes most of a minute. */
#ifndef COLLECT_FILEHASH_H
#define COLLECT_FILEHASH_H

#include <stdint.h>

struct store;

/* The absolute path of name: resolved with realpath(), after a search of PATH when
 * name has no '/' (the first executable regular file, as execvp() takes it). Caller
 * frees. NULL (nothing printed) when it cannot be found. */
char *filehash_resolve(const char *name);

/* Hashes the file at path into hex (and its size into *bytes when not NULL). 0 ok;
 * -1 after an error line (unreadable, or a signal arrived). No store involved. */
int filehash_compute(const char *path, char hex[65], int64_t *bytes);

/* Like filehash_compute(), but keyed on the real path in s's file_hash table: a
 * row with the same size and mtime is used as is; otherwise the file is hashed and
 * the row written in a transaction of its own. 0 ok, -1 after an error line. */
int filehash_get(struct store *s, const char *path, char hex[65], int64_t *bytes);

#endif
