/* workdir.c: the collector's filesystem chores: the out dir (made with its parents,
 * named by the UTC time when not given) and the temporary HOMEs, made before the
 * first cell and removed, contents and all, after the last. */
#include "collect/workdir.h"

#include "collect/plan.h"
#include "collect/setup.h"
#include "tpsdb.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static int mkdir_p(const char *path)
{
	char *copy = tps_xstrdup(path), *p;
	int ret = 0;

	for (p = copy + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0755) < 0 && errno != EEXIST)
			ret = -1;
		*p = '/';
	}
	if (mkdir(copy, 0755) < 0 && errno != EEXIST)
		ret = -1;
	if (ret < 0)
		tps_error("cannot create '%s': %s", path, strerror(errno));
	free(copy);
	return ret;
}

char *workdir_make_out(const char *given)
{
	char *out_dir, *real;

	if (!given) {
		time_t t = time(NULL);
		struct tm tm;
		char name[64];
		gmtime_r(&t, &tm);
		strftime(name, sizeof(name), "tpsdb-collect-%Y%m%dT%H%M%SZ", &tm);
		out_dir = tps_xstrdup(name);
	} else {
		out_dir = tps_xstrdup(given);
	}
	if (mkdir_p(out_dir) < 0) {
		free(out_dir);
		return NULL;
	}
	if ((real = realpath(out_dir, NULL))) {
		free(out_dir);
		out_dir = real;
	}
	return out_dir;
}

int workdir_make_homes(struct plan *p)
{
	for (size_t k = 0; k < p->n_engines; k++) {
		if (p->engines[k].fresh_home) {
			char tmpl[PATH_MAX];
			const char *tmp = setup_getenv("TMPDIR");
			snprintf(tmpl, sizeof(tmpl), "%s/tpsdb-home-XXXXXX", tmp ? tmp : "/tmp");
			if (!mkdtemp(tmpl))
				return tps_error("cannot create a temporary HOME: %s",
						 strerror(errno));
			p->engines[k].home = tps_xstrdup(tmpl);
		}
	}
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	remove(path);
	return 0;
}

void workdir_remove_homes(const struct plan *p)
{
	for (size_t k = 0; k < p->n_engines; k++) {
		if (p->engines[k].fresh_home && p->engines[k].home)
			nftw(p->engines[k].home, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	}
}
