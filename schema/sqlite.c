/* sqlite.c: the raw SQLite helpers below both the store (store.c) and its
 * migrations (migrate.c): a one-value PRAGMA, the error message of a handle (with
 * the busy lock named), the busy wait, a file's check before SQLite opens it and
 * its URI. They take a sqlite3 handle or a path, never a struct store, so migrate.c
 * needs nothing of store.c and the two no longer call each other. */
#include "schema/sqlite.h"
#include "tpsdb.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Defaults, each changed by an environment variable (README "The store"). */
#define SQLITE_BUSY_TIMEOUT_S 300  /* TPSDB_BUSY_TIMEOUT: seconds a writer waits */
#define SQLITE_QUICK_CHECK_MB 512  /* TPSDB_QUICK_CHECK_MB: largest store checked */

int sqlite_pragma_int(sqlite3 *db, const char *sql, int *out)
{
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		goto out;
	if (sqlite3_step(st) != SQLITE_ROW)
		goto out;
	*out = sqlite3_column_int(st, 0);
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

int sqlite_busy_timeout_s(void)
{
	return (int)tps_env_num("TPSDB_BUSY_TIMEOUT", SQLITE_BUSY_TIMEOUT_S);
}

int sqlite_quick_check_mb(void)
{
	return (int)tps_env_num("TPSDB_QUICK_CHECK_MB", SQLITE_QUICK_CHECK_MB);
}

const char *sqlite_errmsg(sqlite3 *db, const char *err)
{
	static _Thread_local char busy[160];

	if ((sqlite3_extended_errcode(db) & 0xff) == SQLITE_BUSY ||
	    (sqlite3_extended_errcode(db) & 0xff) == SQLITE_LOCKED) {
		/* SQLite cannot say which process holds the lock; say what we know. */
		snprintf(busy, sizeof(busy),
			 "database is locked by another writer; gave up after %d s "
			 "(TPSDB_BUSY_TIMEOUT sets the wait in seconds)",
			 sqlite_busy_timeout_s());
		return busy;
	}
	/* A writer killed mid-transaction in rollback-journal mode (a new store's
	 * migrations, or the switch to WAL) leaves a hot journal. Only a writer may
	 * roll it back; SQLite's "attempt to write a readonly database" would send a
	 * reader's user looking at permissions. */
	if (sqlite3_extended_errcode(db) == SQLITE_READONLY_ROLLBACK)
		return "a writer that stopped part-way left a journal to roll back, which a "
		       "read-only command may not do; any write command (`tpsdb migrate`) "
		       "rolls it back";
	return err ? err : sqlite3_errmsg(db);
}

char *sqlite_file_uri(const char *path, const char *param)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(path), i, o;
	char *uri = tps_xmalloc(5 + 3 * n + 2 + strlen(param));

	memcpy(uri, "file:", 5);
	o = 5;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)path[i];
		if (isalnum(c) || strchr("/-._~", c)) {
			uri[o++] = (char)c;
		} else {
			uri[o++] = '%';
			uri[o++] = hex[c >> 4];
			uri[o++] = hex[c & 15];
		}
	}
	uri[o++] = '?';
	strcpy(uri + o, param);
	return uri;
}

int sqlite_file_check(const char *path, int64_t *size)
{
	static const char magic[16] = "SQLite format 3";
	unsigned char head[100];
	struct stat sb;
	ssize_t n = 0;
	int fd = -1, ret = -1;

	*size = 0;
	if (!strcmp(path, ":memory:"))
		return 1;
	if (stat(path, &sb) < 0) {
		if (errno == ENOENT)
			return 1;
		return tps_error("cannot open '%s': %s", path, strerror(errno));
	}
	/* A FIFO would block the open for ever and a device is nobody's store: only a
	 * regular file is opened, and O_NONBLOCK keeps even a swapped-in FIFO from
	 * blocking; the second fstat() sees what was really opened. */
	if (!S_ISREG(sb.st_mode))
		goto special;
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) < 0) {
		tps_error("cannot open '%s': %s", path, strerror(errno));
		goto out;
	}
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode))
		goto special;
	*size = (int64_t)sb.st_size;
	if (sb.st_size == 0) {
		ret = 0;
		goto out;
	}
	while ((size_t)n < sizeof(head)) {
		ssize_t r = read(fd, head + n, sizeof(head) - (size_t)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
	}
	if ((size_t)n < sizeof(head) || memcmp(head, magic, sizeof(magic))) {
		tps_error("'%s' is not a tpsdb store: it is not an SQLite database", path);
		goto out;
	}
	ret = 0;
	goto out;
special:
	tps_error("'%s' is not a tpsdb store: it is %s, not a regular file", path,
		  S_ISDIR(sb.st_mode)    ? "a folder"
		  : S_ISFIFO(sb.st_mode) ? "a FIFO"
		  : S_ISSOCK(sb.st_mode) ? "a socket"
		  : S_ISCHR(sb.st_mode)  ? "a character device"
		  : S_ISBLK(sb.st_mode)  ? "a block device"
					 : "a special file");
out:
	if (fd >= 0)
		close(fd);
	return ret;
}
