/* import_fixture.h: what 'tpsdb import' does, for the tests and fuzzers that fill
 * a store from files: read and check the files, then write them inside one
 * transaction the caller of import_write() owns, as cmd/cmd_import.c does.
 * Header-only, as tests/reference.h is. */
#ifndef TESTS_IMPORT_FIXTURE_H
#define TESTS_IMPORT_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/import.h"
#include "schema/store.h"
#include "tpsdb.h"

/* import_read(), then import_write() in a transaction, then import_batch_free():
 * 0 ok with res filled, -1 after an error line (nothing written). */
static inline int import_files(struct store *s, const struct import_opts *o, char *const *files,
			       int n, struct import_result *res)
{
	struct import_batch *b = import_read(o, files, n);
	int ret = -1;

	memset(res, 0, sizeof(*res));
	if (!b)
		return -1;
	if (store_begin(s) == 0) {
		ret = import_write(s, b, res);
		if (ret == 0 && store_commit(s) < 0)
			ret = -1;
		if (ret < 0)
			store_rollback(s);
	}
	import_batch_free(b);
	return ret;
}

/* $TPSDB_TEST_DATA/rel (tpsdb's own export format, restored as it is) imported
 * into s with the default options: the runs it added, or -1 (no TPSDB_TEST_DATA,
 * or the import failed). */
static inline long import_data_file(struct store *s, const char *rel)
{
	const char *dir = getenv("TPSDB_TEST_DATA");
	struct import_opts o;
	struct import_result res;
	char *path;
	int rc;

	if (!dir)
		return -1;
	path = tps_xasprintf("%s/%s", dir, rel);
	import_opts_init(&o);
	rc = import_files(s, &o, &path, 1, &res);
	free(path);
	return rc < 0 ? -1 : (long)res.runs_new;
}

/* A fuzzer's store and input file, made on its first input: s opened in memory,
 * path (a mkstemp() template) created, its descriptor in *fd. Aborts when it cannot. */
static inline void fuzz_store_once(struct store **s, char *path, int *fd)
{
	if (*s)
		return;
	*s = store_open(":memory:", 0);
	if (*fd < 0)
		*fd = mkstemp(path);
	if (!*s || *fd < 0)
		abort();
}

/* A fuzzer's input, data (size bytes), written over the file path. Aborts when it
 * cannot. */
static inline void fuzz_write_input(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
}

#endif
