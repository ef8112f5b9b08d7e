/* child_fixture.h: the fixture of the tests that run child processes (test_proc.c,
 * test_collect_server.c): a private temporary folder holding the one file a child
 * writes its output to, removed again by the teardown, and the wait for a process
 * to end. Header-only, as reference.h is: each test file includes it once, after
 * cmocka.h. */
#ifndef TESTS_CHILD_FIXTURE_H
#define TESTS_CHILD_FIXTURE_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "tpsdb.h"

struct child_fixture {
	char dir[64], out[128]; /* the folder, and out: <dir>/<file> */
};

/* A fixture in a new folder /tmp/tpsdb-test-<name>-XXXXXX, its out path named
 * file (not created). Fails the test when the folder cannot be made; caller frees
 * through child_fixture_teardown(). */
static struct child_fixture *child_fixture_new(const char *name, const char *file)
{
	struct child_fixture *f = tps_xcalloc(1, sizeof(*f));

	snprintf(f->dir, sizeof(f->dir), "/tmp/tpsdb-test-%s-XXXXXX", name);
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->out, sizeof(f->out), "%s/%s", f->dir, file);
	return f;
}

/* The teardown of a fixture in *state: its file and folder removed, the fixture
 * freed. */
static int child_fixture_teardown(void **state)
{
	struct child_fixture *f = *state;

	unlink(f->out);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* Whether pid has ended: no such process, or a zombie that its new parent has
 * yet to reap. Waits up to 2 s. */
static int child_fixture_ended(pid_t pid)
{
	for (int i = 0; i < 200; i++) {
		char path[64], st[256];
		FILE *fp;
		char *p;
		if (kill(pid, 0) < 0 && errno == ESRCH)
			return 1;
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		if ((fp = fopen(path, "r"))) {
			size_t n = fread(st, 1, sizeof(st) - 1, fp);
			fclose(fp);
			st[n] = '\0';
			if ((p = strrchr(st, ')')) && p[1] == ' ' && p[2] == 'Z')
				return 1;
		}
		usleep(10000);
	}
	return 0;
}

#endif
