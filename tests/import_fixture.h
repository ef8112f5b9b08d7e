/* import_fixture.h: what 'tpsdb import' does, for the tests and fuzzers that fill
 * a store from files: read and check the files, then write them inside one
 * transaction the caller of import_write() owns, as cmd/cmd_import.c does.
 * Header-only, as tests/reference.h is. */
#ifndef TESTS_IMPORT_FIXTURE_H
#define TESTS_IMPORT_FIXTURE_H

#include <string.h>

#include "collect/import.h"
#include "schema/store.h"

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

#endif
