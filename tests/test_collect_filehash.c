/* test_collect_filehash.c: file hashing and the file_hash cache, on a migrated
 * :memory: store: a digest is computed once, reused while size and mtime hold,
 * and recomputed when the file changes. */
#include "collect/filehash.h"
#include "schema/filehash.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

struct fixture {
	struct store *s;
	char dir[64];
	char path[128];
};

static int setup(void **state)
{
	struct fixture *f = tps_xcalloc(1, sizeof(*f));

	f->s = store_open(":memory:", 0);
	assert_non_null(f->s);
	snprintf(f->dir, sizeof(f->dir), "/tmp/tpsdb-test-filehash-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/model.gguf", f->dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	unlink(f->path);
	rmdir(f->dir);
	store_close(f->s);
	free(f);
	return 0;
}

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void test_collect_filehash_compute(void **state)
{
	struct fixture *f = *state;
	char hex[65];
	int64_t bytes = 0;

	write_file(f->path, "abc");
	assert_int_equal(filehash_compute(f->path, hex, &bytes), 0);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_int_equal(bytes, 3);
	assert_int_equal(filehash_compute("/nonexistent/x", hex, NULL), -1);
}

static void test_collect_filehash_cache(void **state)
{
	struct fixture *f = *state;
	static const char fake[] =
		"0000000000000000000000000000000000000000000000000000000000000000";
	char hex[65], *real;
	struct stat st;
	struct timespec ts[2];
	int64_t bytes = 0, mtime;

	write_file(f->path, "abc");
	assert_int_equal(filehash_get(f->s, f->path, hex, &bytes), 0);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_int_equal(bytes, 3);
	/* The row is keyed by the real path, size and mtime. */
	real = realpath(f->path, NULL);
	assert_int_equal(stat(real, &st), 0);
	mtime = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	assert_int_equal(store_filehash_get(f->s, real, 3, mtime, hex), 1);
	assert_int_equal(store_filehash_get(f->s, real, 4, mtime, hex), 0);
	assert_int_equal(store_filehash_get(f->s, real, 3, mtime + 1, hex), 0);
	/* A cached digest is used as is: plant a fake one and get it back. */
	assert_int_equal(store_begin(f->s), 0);
	assert_int_equal(store_filehash_put(f->s, real, 3, mtime, fake), 0);
	assert_int_equal(store_commit(f->s), 0);
	assert_int_equal(filehash_get(f->s, f->path, hex, &bytes), 0);
	assert_string_equal(hex, fake);
	/* A new mtime misses the cache and replaces the row. */
	ts[0].tv_sec = ts[1].tv_sec = st.st_mtim.tv_sec + 10;
	ts[0].tv_nsec = ts[1].tv_nsec = 0;
	assert_int_equal(utimensat(AT_FDCWD, real, ts, 0), 0);
	assert_int_equal(filehash_get(f->s, f->path, hex, &bytes), 0);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_int_equal(store_filehash_get(f->s, real, 3, mtime, hex), 0);
	free(real);
	assert_int_equal(filehash_get(f->s, "/nonexistent/model.gguf", hex, &bytes), -1);
	assert_int_equal(filehash_get(f->s, f->dir, hex, &bytes), -1);
}

static void test_collect_filehash_resolve(void **state)
{
	char *p;

	(void)state;
	p = filehash_resolve("sh");
	assert_non_null(p);
	assert_true(p[0] == '/');
	free(p);
	p = filehash_resolve("/bin/../bin/sh");
	assert_non_null(p);
	assert_null(strstr(p, ".."));
	free(p);
	assert_null(filehash_resolve("tpsdb-no-such-binary-anywhere"));
	assert_null(filehash_resolve(""));
	assert_null(filehash_resolve(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_collect_filehash_compute, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_filehash_cache, setup, teardown),
		cmocka_unit_test(test_collect_filehash_resolve),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
