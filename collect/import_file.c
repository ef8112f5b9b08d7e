/* import_file.c: an input's bytes, read with read() within the size limit (stdin,
 * pipes, devices and regular files alike), never mapped, and hashed as they come:
 * whole, or a piece at a time for JSONL, whose lines are checked and dropped as
 * they complete. */
#include "collect/import_int.h"
#include "tpsdb.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

size_t import_chunk_bytes = IMPORT_READ_CHUNK;

/* A regular file is not mapped: one that shrinks while it is read would kill a
 * mapping's reader with SIGBUS; here it is an error line, as is one that changes
 * size. */
int import_file_open(struct file_reader *r, const char *path, int64_t max)
{
	struct stat st;

	memset(r, 0, sizeof(*r));
	r->path = path;
	r->max = max;
	r->size = -1;
	if (!strcmp(path, "-"))
		r->fd = STDIN_FILENO;
	else if ((r->fd = open(path, O_RDONLY)) < 0)
		return tps_error("cannot open '%s': %s", path, strerror(errno));
	if (fstat(r->fd, &st) < 0) {
		tps_error("cannot read '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		tps_error("cannot read '%s': it is a directory", path);
		goto fail;
	}
	if (S_ISREG(st.st_mode) && st.st_size > max) {
		tps_error("%s: too large: %lld bytes (the limit is %lld); nothing was imported",
			  path, (long long)st.st_size, (long long)max);
		goto fail;
	}
	if (S_ISREG(st.st_mode) && r->fd != STDIN_FILENO)
		r->size = st.st_size;
	sha256_init(&r->hash);
	return 0;
fail:
	import_file_close(r);
	return -1;
}

/* Makes room for want more bytes after the held ones (and a NUL), never more
 * than the limit allows: the buffer holds at most max + 1 bytes. */
static void reserve(struct file_reader *r, size_t want)
{
	size_t limit = (size_t)r->max + 1, need = r->len + want;

	if (need > limit)
		need = limit;
	if (need <= r->cap)
		return;
	if (need < 2 * r->cap && 2 * r->cap <= limit)
		need = 2 * r->cap;
	r->buf = tps_xrealloc(r->buf, need + 1);
	r->cap = need;
}

int import_file_more(struct file_reader *r, size_t want)
{
	size_t got_total = 0;
	ssize_t got;

	if (r->eof)
		return 0;
	reserve(r, want ? want : 1);
	while (got_total < want && !r->eof) {
		size_t room;

		if (r->len == r->cap)
			reserve(r, want - got_total);
		room = r->cap - r->len;
		if (room > want - got_total)
			room = want - got_total; /* a caller bounds what it holds by want */
		got = read(r->fd, r->buf + r->len, room);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return tps_error("cannot read '%s': %s", r->path, strerror(errno));
		if (got == 0) {
			r->eof = 1;
			break;
		}
		sha256_update(&r->hash, r->buf + r->len, (size_t)got);
		r->len += (size_t)got;
		r->total += (int64_t)got;
		got_total += (size_t)got;
		if (r->total > r->max)
			return tps_error("%s: too large: more than %lld bytes; nothing was imported",
					 r->path, (long long)r->max);
	}
	r->buf[r->len] = '\0';
	if (r->cap > r->peak)
		r->peak = r->cap;
	return 0;
}

int import_file_all(struct file_reader *r)
{
	/* A regular file's size is the first guess; a pipe grows by doubling. */
	size_t want = r->size > 0 ? (size_t)r->size + 1 : 1 << 16;

	while (!r->eof) {
		if (import_file_more(r, want) < 0)
			return -1;
		want = r->cap > r->len ? r->cap - r->len : r->cap;
	}
	return 0;
}

void import_file_drop(struct file_reader *r, size_t n)
{
	if (n > r->len)
		n = r->len;
	memmove(r->buf, r->buf + n, r->len - n);
	r->len -= n;
	if (r->buf)
		r->buf[r->len] = '\0';
}

int import_file_end(struct file_reader *r, char hex[65])
{
	if (r->size >= 0 && r->total != (int64_t)r->size)
		return tps_error("cannot read '%s': it changed size while it was read (%lld bytes, "
				 "then %lld); nothing was imported", r->path, (long long)r->size,
				 (long long)r->total);
	sha256_final_hex(&r->hash, hex);
	return 0;
}

void import_file_close(struct file_reader *r)
{
	sha256_release(&r->hash);
	if (r->fd > STDIN_FILENO)
		close(r->fd);
	r->fd = -1;
	free(r->buf);
	r->buf = NULL;
	r->len = r->cap = 0;
}

void import_file_release(struct input *in)
{
	free((void *)in->buf);
	in->buf = NULL;
}
