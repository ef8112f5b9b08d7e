/* filehash.c: hashes files in 1 MiB reads, and consults the store's file_hash
 * cache first (schema/filehash.c holds its SQL). A pending signal stops a long
 * hash, so Ctrl-C during the first look at a big model is honoured at once. */
#include "collect/filehash.h"
#include "collect/interrupt.h"
#include "schema/filehash.h"
#include "schema/store.h"
#include "tpsdb.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILEHASH_CHUNK (1 << 20)

char *filehash_resolve(const char *name)
{
	char *found = NULL, *path, *save = NULL, *dir, *cand, *ret = NULL;
	const char *env;

	if (!name || !*name)
		return NULL;
	if (strchr(name, '/'))
		return realpath(name, NULL);
	env = getenv("PATH");
	path = tps_xstrdup(env ? env : "/usr/local/bin:/usr/bin:/bin");
	for (dir = strtok_r(path, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		struct stat st;

		cand = tps_xasprintf("%s/%s", *dir ? dir : ".", name);
		/* execvp() passes over a folder of that name, and so does the search. */
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
			found = cand;
		else
			free(cand);
	}
	free(path);
	if (found) {
		ret = realpath(found, NULL);
		free(found);
	}
	return ret;
}

int filehash_compute(const char *path, char hex[65], int64_t *bytes)
{
	unsigned char *buf = NULL;
	struct sha256 c = { 0 };
	int64_t total = 0;
	int fd = -1, ret = -1;
	ssize_t n;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		tps_error("cannot open '%s': %s", path, strerror(errno));
		goto out;
	}
	buf = tps_xmalloc(FILEHASH_CHUNK);
	sha256_init(&c);
	for (;;) {
		n = read(fd, buf, FILEHASH_CHUNK);
		if (n < 0 && errno == EINTR && !interrupt_pending())
			continue;
		if (interrupt_pending()) {
			tps_error("hashing '%s' interrupted by signal %d", path,
				  interrupt_pending());
			goto out;
		}
		if (n < 0) {
			tps_error("cannot read '%s': %s", path, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		sha256_update(&c, buf, (size_t)n);
		total += n;
	}
	sha256_final_hex(&c, hex);
	if (bytes)
		*bytes = total;
	ret = 0;
out:
	sha256_release(&c);
	if (fd >= 0)
		close(fd);
	free(buf);
	return ret;
}

int filehash_get(struct store *s, const char *path, char hex[65], int64_t *bytes)
{
	char *real = realpath(path, NULL);
	struct stat st;
	int64_t mtime_ns, size;
	int ret = -1, r;

	if (!real || stat(real, &st) < 0) {
		tps_error("cannot find '%s': %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		tps_error("cannot hash '%s': not a regular file", path);
		goto out;
	}
	mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	r = store_filehash_get(s, real, (int64_t)st.st_size, mtime_ns, hex);
	if (r < 0)
		goto out;
	if (r == 1) {
		if (bytes)
			*bytes = (int64_t)st.st_size;
		ret = 0;
		goto out;
	}
	if (filehash_compute(real, hex, &size) < 0)
		goto out;
	/* A file that changed while we read it is reported but not cached. */
	if (size != (int64_t)st.st_size) {
		tps_warning("'%s' changed while it was hashed", path);
	} else if (store_begin(s) < 0) {
		goto out;
	} else if (store_filehash_put(s, real, (int64_t)st.st_size, mtime_ns, hex) < 0 ||
	    store_commit(s) < 0) {
		store_rollback(s);
		goto out;
	}
	if (bytes)
		*bytes = size;
	ret = 0;
out:
	free(real);
	return ret;
}
