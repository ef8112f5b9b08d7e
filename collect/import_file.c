/* import_file.c: an input's bytes, read whole with read() within the size limit
 * (stdin, pipes, devices and regular files alike), never mapped. */
#include "collect/import_int.h"
#include "tpsdb.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads fd to its end into a heap buffer, refusing more than max bytes without
 * holding more than max + 1 of them (/dev/zero, a FIFO that never ends): the buffer
 * grows to at most max + 1 and each read() asks for no more than that. hint is the
 * expected size (a regular file's), 0 when unknown. */
static char *read_capped(int fd, const char *path, int64_t max, size_t hint, size_t *len)
{
	size_t limit = (size_t)max + 1, cap = hint ? hint + 1 : 1 << 16, n = 0;
	char *buf;
	ssize_t got;

	if (cap > limit)
		cap = limit;
	buf = tps_xmalloc(cap + 1);
	for (;;) {
		if (n == cap) {
			cap = cap > limit / 2 ? limit : 2 * cap;
			buf = tps_xrealloc(buf, cap + 1);
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			tps_error("cannot read '%s': %s", path, strerror(errno));
			goto fail;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if ((int64_t)n > max) {
			tps_error("%s: too large: more than %lld bytes; nothing was imported", path,
				  (long long)max);
			goto fail;
		}
	}
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	free(buf);
	return NULL;
}

/* The file's bytes, read with read() at most max of them (stdin, pipes, devices
 * and regular files alike). A regular file is not mapped: one that shrinks while it
 * is read would kill a mapping's reader with SIGBUS; here it is an error line, as is
 * one that changes size. -1 after an error line. */
int import_file_load(struct input *in, int64_t max)
{
	struct stat st;
	int fd, ret = -1;

	if (!strcmp(in->path, "-"))
		fd = STDIN_FILENO;
	else if ((fd = open(in->path, O_RDONLY)) < 0)
		return tps_error("cannot open '%s': %s", in->path, strerror(errno));
	if (fstat(fd, &st) < 0) {
		tps_error("cannot read '%s': %s", in->path, strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		tps_error("cannot read '%s': it is a directory", in->path);
		goto out;
	}
	if (S_ISREG(st.st_mode) && st.st_size > max) {
		tps_error("%s: too large: %lld bytes (the limit is %lld); nothing was imported",
			  in->path, (long long)st.st_size, (long long)max);
		goto out;
	}
	if (!(in->buf = read_capped(fd, in->path, max,
				    S_ISREG(st.st_mode) ? (size_t)st.st_size : 0, &in->len)))
		goto out;
	if (S_ISREG(st.st_mode) && fd != STDIN_FILENO && (off_t)in->len != st.st_size) {
		tps_error("cannot read '%s': it changed size while it was read (%lld bytes, "
			  "then %zu); nothing was imported", in->path, (long long)st.st_size,
			  in->len);
		free((void *)in->buf);
		in->buf = NULL;
		goto out;
	}
	ret = 0;
out:
	if (fd != STDIN_FILENO)
		close(fd);
	return ret;
}

void import_file_release(struct input *in)
{
	free((void *)in->buf);
	in->buf = NULL;
}
