/* db_scalar.h: the first column of a query's first row, for the unit tests that
 * read a store back with SQL (test_import, test_migrate, test_store). Header-only,
 * as tests/reference.h is; include it after <cmocka.h>. */
#ifndef TESTS_DB_SCALAR_H
#define TESTS_DB_SCALAR_H

#include <sqlite3.h>
#include <stdint.h>

/* The value, or -1 when the query gives no row; a query that does not prepare
 * fails the test. */
static inline int64_t db_scalar(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int64_t v = -1;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

#endif
