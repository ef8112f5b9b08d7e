/* outfile.c: writing the files and folders a user names, whole or not at all: a
 * temporary sibling renamed into place for a regular file or a folder, straight
 * writes for a device or FIFO, symlinks followed, and a registry of temporary
 * paths that a fatal SIGINT, SIGTERM or SIGHUP removes before the process dies.
 * Writes go through a stdio cookie so that the first write error keeps its errno. */
#include "outfile.h"
#include "tpsdb.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the registry of temporary paths ---- */

struct track {
	struct track *volatile next;
	char *path;
	int is_dir;
};

/* Newest first. Changed only with the three signals blocked, read by the handler. */
static struct track *volatile tracked;
static int handlers_set;
static const int fatal_sigs[3] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int sig)
{
	struct track *t;

	/* unlink() and rmdir() only: both are async-signal-safe. */
	for (t = tracked; t; t = t->next) {
		if (t->is_dir)
			rmdir(t->path);
		else
			unlink(t->path);
	}
	signal(sig, SIG_DFL);
	raise(sig); /* delivered, with the default action, when the handler returns */
}

static void handlers_install(void)
{
	struct sigaction sa, old;
	size_t i;

	if (handlers_set)
		return;
	handlers_set = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < 3; i++)
		sigaddset(&sa.sa_mask, fatal_sigs[i]);
	for (i = 0; i < 3; i++) {
		/* An ignored signal stays ignored (nohup), and a program's own handler
		 * (collect's) unwinds through the error paths, which remove the files. */
		if (sigaction(fatal_sigs[i], NULL, &old) < 0 || (old.sa_flags & SA_SIGINFO) ||
		    old.sa_handler != SIG_DFL)
			continue;
		sigaction(fatal_sigs[i], &sa, NULL);
	}
	/* A file-size limit then fails the write with EFBIG, which is reported. */
	if (!sigaction(SIGXFSZ, NULL, &old) && !(old.sa_flags & SA_SIGINFO) &&
	    old.sa_handler == SIG_DFL)
		signal(SIGXFSZ, SIG_IGN);
}

static void sigs_block(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < 3; i++)
		sigaddset(&set, fatal_sigs[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void sigs_restore(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

void outfile_track(const char *path, int is_dir)
{
	struct track *t = tps_xcalloc(1, sizeof(*t));
	sigset_t old;

	handlers_install();
	t->path = tps_xstrdup(path);
	t->is_dir = is_dir;
	sigs_block(&old);
	t->next = tracked;
	tracked = t;
	sigs_restore(&old);
}

void outfile_untrack(const char *path)
{
	struct track *volatile *pp;
	struct track *t = NULL;
	sigset_t old;

	sigs_block(&old);
	for (pp = &tracked; *pp; pp = &(*pp)->next) {
		if (!strcmp((*pp)->path, path)) {
			t = *pp;
			*pp = t->next;
			break;
		}
	}
	sigs_restore(&old);
	if (t) {
		free(t->path);
		free(t);
	}
}

/* ---- paths ---- */

/* Where the chain of symlinks at path ends (path itself when it is no link, or
 * does not exist); caller frees. NULL with errno set (ELOOP, or readlink's). */
static char *resolve(const char *path)
{
	char *p = tps_xstrdup(path), buf[PATH_MAX];
	int hops;

	for (hops = 0; hops < 40; hops++) {
		struct stat st;
		const char *slash;
		char *next;
		ssize_t n;

		if (lstat(p, &st) < 0 || !S_ISLNK(st.st_mode))
			return p;
		if ((n = readlink(p, buf, sizeof(buf) - 1)) < 0) {
			free(p);
			return NULL;
		}
		buf[n] = '\0';
		slash = strrchr(p, '/');
		if (buf[0] == '/' || !slash)
			next = tps_xstrdup(buf);
		else
			next = tps_xasprintf("%.*s/%s", (int)(slash - p), p, buf);
		free(p);
		p = next;
	}
	free(p);
	errno = ELOOP;
	return NULL;
}

/* ---- paths that must never be written ---- */

static char **protected_paths;
static size_t n_protected;

/* A path with its folder made canonical (symlinks and ".." resolved), for
 * comparing paths that do not exist yet; caller frees. */
static char *canonical(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? tps_xstrndup(path, slash == path ? 1 : (size_t)(slash - path))
			  : tps_xstrdup(".");
	char *real = realpath(dir, NULL), *ret;

	ret = real ? tps_xasprintf("%s/%s", strcmp(real, "/") ? real : "", slash ? slash + 1 : path)
		   : tps_xstrdup(path);
	free(real);
	free(dir);
	return ret;
}

/* 1 when a and b (no symlink at the end of either) name one file: the same inode
 * when both exist, else the same canonical path. */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	char *ca, *cb;
	int ret;

	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	ca = canonical(a);
	cb = canonical(b);
	ret = !strcmp(ca, cb);
	free(ca);
	free(cb);
	return ret;
}

static char *resolve(const char *path);

void outfile_protect(const char *path)
{
	protected_paths = tps_xrealloc(protected_paths, (n_protected + 1) * sizeof(char *));
	protected_paths[n_protected++] = tps_xstrdup(path);
}

/* The protected file (or its -wal/-shm) that target, a resolved path, is; NULL
 * when it is none of them. Borrowed. */
static const char *protected_as(const char *target)
{
	static const char *const sfx[] = { "", "-wal", "-shm", "-journal" };
	size_t i, k;

	for (i = 0; i < n_protected; i++) {
		char *real = resolve(protected_paths[i]);
		int hit = 0;
		for (k = 0; !hit && k < sizeof(sfx) / sizeof(sfx[0]); k++) {
			/* SQLite keeps -wal/-shm beside the file a link ends at; the
			 * link's own name is checked too. */
			char *a = tps_xasprintf("%s%s", real ? real : protected_paths[i], sfx[k]);
			char *b = tps_xasprintf("%s%s", protected_paths[i], sfx[k]);
			hit = same_file(target, a) || same_file(target, b);
			free(a);
			free(b);
		}
		free(real);
		if (hit)
			return protected_paths[i];
	}
	return NULL;
}

/* The mode a new file or folder gets: base less the umask. */
static mode_t new_mode(mode_t base)
{
	mode_t m = umask(0);

	umask(m);
	return base & ~m;
}

/* Makes the writes of a rename durable; best effort (some file systems refuse). */
static void dir_sync(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? tps_xstrndup(path, slash == path ? 1 : (size_t)(slash - path))
			  : tps_xstrdup(".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

/* ---- files ---- */

struct outfile {
	char *path;   /* as given, for messages */
	char *target; /* after symlinks */
	char *tmp;    /* the temporary sibling; NULL when writing directly */
	int fd;
	int err;      /* the first write or close error */
	FILE *f;
};

static ssize_t cookie_write(void *c, const char *buf, size_t n)
{
	struct outfile *o = c;
	size_t done = 0;

	while (!o->err && done < n) {
		ssize_t w = write(o->fd, buf + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			o->err = w < 0 ? errno : EIO;
		else
			done += (size_t)w;
	}
	if (o->err)
		errno = o->err;
	return (ssize_t)done;
}

static int cookie_close(void *c)
{
	struct outfile *o = c;
	int rc = close(o->fd);

	if (rc < 0 && !o->err)
		o->err = errno;
	o->fd = -1;
	return rc;
}

static void outfile_free(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	else if (o->fd >= 0)
		close(o->fd);
	if (o->tmp) {
		unlink(o->tmp);
		outfile_untrack(o->tmp);
	}
	free(o->path);
	free(o->target);
	free(o->tmp);
	free(o);
}

/* Removes the temporary files "<target>.tmp.<pid>.XXXXXX" beside target that a
 * process of this program left when it died without cleaning up (SIGKILL, a
 * crash): regular files only, and only when that pid is gone. */
static void file_stale_clear(const char *target)
{
	const char *slash = strrchr(target, '/');
	char *parent = slash ? tps_xstrndup(target, slash == target ? 1 : (size_t)(slash - target))
			     : tps_xstrdup(".");
	char *pre = tps_xasprintf("%s.tmp.", slash ? slash + 1 : target);
	DIR *dh = opendir(parent);
	struct dirent *e;

	while (dh && (e = readdir(dh))) {
		struct stat st;
		char *end, *p;
		long pid;

		if (strncmp(e->d_name, pre, strlen(pre)))
			continue;
		pid = strtol(e->d_name + strlen(pre), &end, 10);
		if (end == e->d_name + strlen(pre) || *end != '.' || strlen(end + 1) != 6 ||
		    !outfile_pid_gone(pid))
			continue;
		p = tps_xasprintf("%s/%s", parent, e->d_name);
		if (!lstat(p, &st) && S_ISREG(st.st_mode))
			unlink(p);
		free(p);
	}
	if (dh)
		closedir(dh);
	free(pre);
	free(parent);
}

struct outfile *outfile_open(const char *path)
{
	static const cookie_io_functions_t io = { .write = cookie_write, .close = cookie_close };
	struct outfile *o = tps_xcalloc(1, sizeof(*o));
	const char *store;
	struct stat st;
	int exists;

	handlers_install();
	o->fd = -1;
	o->path = tps_xstrdup(path);
	if (!(o->target = resolve(path))) {
		tps_error("cannot write '%s': %s", path, strerror(errno));
		goto fail;
	}
	if ((store = protected_as(o->target))) {
		tps_error("cannot write '%s': it is the store '%s' (or its -wal/-shm); "
			  "nothing was written", path, store);
		goto fail;
	}
	exists = stat(o->target, &st) == 0;
	if (exists && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode))) {
		/* A device or a pipe is written as it is: renaming over it would
		 * replace the node itself. Opening a FIFO waits for its reader. */
		if ((o->fd = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC)) < 0) {
			tps_error("cannot write '%s': %s", path, strerror(errno));
			goto fail;
		}
	} else if (exists && !S_ISREG(st.st_mode)) {
		tps_error("cannot write '%s': %s", path,
			  S_ISDIR(st.st_mode) ? "it is a folder" : "not a regular file");
		goto fail;
	} else {
		sigset_t old;
		file_stale_clear(o->target);
		o->tmp = tps_xasprintf("%s.tmp.%ld.XXXXXX", o->target, (long)getpid());
		sigs_block(&old);
		o->fd = mkostemp(o->tmp, O_CLOEXEC);
		if (o->fd >= 0)
			outfile_track(o->tmp, 0);
		sigs_restore(&old);
		if (o->fd < 0) {
			tps_error("cannot write '%s': %s", path, strerror(errno));
			free(o->tmp);
			o->tmp = NULL;
			goto fail;
		}
		fchmod(o->fd, exists ? st.st_mode & 07777 : new_mode(0666));
	}
	if (!(o->f = fopencookie(o, "w", io))) {
		tps_error("cannot write '%s': %s", path, strerror(errno));
		goto fail;
	}
	return o;
fail:
	outfile_free(o);
	return NULL;
}

FILE *outfile_stream(struct outfile *o)
{
	return o->f;
}

int outfile_commit(struct outfile *o)
{
	int ret = -1, bad;

	bad = fflush(o->f) != 0 || ferror(o->f);
	if (!bad && o->tmp && fsync(o->fd) < 0 && !o->err)
		o->err = errno;
	bad |= fclose(o->f) != 0;
	o->f = NULL;
	if (bad || o->err) {
		tps_error("cannot write '%s': %s", o->path, strerror(o->err ? o->err : EIO));
		goto out;
	}
	if (o->tmp) {
		sigset_t old;
		int rc;
		sigs_block(&old);
		rc = rename(o->tmp, o->target);
		if (!rc) {
			outfile_untrack(o->tmp);
			free(o->tmp);
			o->tmp = NULL;
		}
		sigs_restore(&old);
		if (rc < 0) {
			tps_error("cannot replace '%s': %s", o->path, strerror(errno));
			goto out;
		}
		dir_sync(o->target);
	}
	ret = 0;
out:
	outfile_free(o);
	return ret;
}

void outfile_abort(struct outfile *o)
{
	if (o)
		outfile_free(o);
}

int outfile_copy(const char *src, const char *dst)
{
	struct outfile *o = NULL;
	char buf[65536];
	ssize_t n;
	int fd = open(src, O_RDONLY | O_CLOEXEC), ret = -1;

	if (fd < 0)
		return tps_error("cannot read '%s': %s", src, strerror(errno));
	if (!(o = outfile_open(dst)))
		goto out;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			tps_error("cannot read '%s': %s", src, strerror(errno));
			goto out;
		}
		if (fwrite(buf, 1, (size_t)n, o->f) != (size_t)n)
			break; /* the commit names the error */
	}
	ret = outfile_commit(o);
	o = NULL;
out:
	outfile_abort(o);
	close(fd);
	return ret;
}

/* ---- folders ---- */

struct outdir {
	char *path;   /* as given, for messages */
	char *target; /* after symlinks, without trailing slashes */
	char *tmp;    /* the sibling being built */
	const char *const *names;
	int exists;
};

static void clean_stale(const char *target, const char *const *names);

struct outdir *outdir_begin(const char *dir, const char *const *names)
{
	struct outdir *d = tps_xcalloc(1, sizeof(*d));
	struct stat st;
	sigset_t old;
	size_t n;
	char *made;

	handlers_install();
	d->path = tps_xstrdup(dir);
	d->names = names;
	if (!(d->target = resolve(dir))) {
		tps_error("cannot write '%s': %s", dir, strerror(errno));
		goto fail;
	}
	for (n = strlen(d->target); n > 1 && d->target[n - 1] == '/'; n--)
		d->target[n - 1] = '\0';
	if (stat(d->target, &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			tps_error("cannot write '%s': not a folder", dir);
			goto fail;
		}
		d->exists = 1;
	} else if (errno != ENOENT) {
		tps_error("cannot write '%s': %s", dir, strerror(errno));
		goto fail;
	}
	clean_stale(d->target, names);
	d->tmp = tps_xasprintf("%s.tmp.%ld.XXXXXX", d->target, (long)getpid());
	sigs_block(&old);
	made = mkdtemp(d->tmp);
	if (made)
		outfile_track(d->tmp, 1);
	sigs_restore(&old);
	if (!made) {
		tps_error("cannot make a folder beside '%s': %s", dir, strerror(errno));
		free(d->tmp);
		d->tmp = NULL;
		goto fail;
	}
	chmod(d->tmp, d->exists ? st.st_mode & 07777 : new_mode(0777));
	return d;
fail:
	outdir_abort(d);
	return NULL;
}

char *outdir_file(struct outdir *d, const char *name)
{
	char *p = tps_xasprintf("%s/%s", d->tmp, name);

	outfile_track(p, 0);
	return p;
}

/* Removes dir's files named in names, then dir; untracks them. 0 when dir is gone. */
static int dir_clear(const char *dir, const char *const *names)
{
	size_t i;

	for (i = 0; names[i]; i++) {
		char *p = tps_xasprintf("%s/%s", dir, names[i]);
		unlink(p);
		outfile_untrack(p);
		free(p);
	}
	outfile_untrack(dir);
	return rmdir(dir) < 0 && errno != ENOENT ? -1 : 0;
}

/* Forgets the temporary folder's tracked paths (its files are moved, not removed). */
static void dir_clear_track(struct outdir *d)
{
	size_t i;

	for (i = 0; d->names[i]; i++) {
		char *p = tps_xasprintf("%s/%s", d->tmp, d->names[i]);
		outfile_untrack(p);
		free(p);
	}
	outfile_untrack(d->tmp);
}

static int is_owned(const char *const *names, const char *name)
{
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

/* 1 when dir holds nothing but regular files named in names. */
static int only_owned(const char *dir, const char *const *names)
{
	DIR *dh = opendir(dir);
	struct dirent *e;
	int ok = 1;

	if (!dh)
		return 0;
	while (ok && (e = readdir(dh))) {
		struct stat st;
		char *p;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = tps_xasprintf("%s/%s", dir, e->d_name);
		ok = is_owned(names, e->d_name) && !lstat(p, &st) && S_ISREG(st.st_mode);
		free(p);
	}
	closedir(dh);
	return ok;
}

/* The new files renamed into the old folder one by one, and the named files the
 * new output lacks removed: for a folder that also holds the user's other files. */
static int publish_each(struct outdir *d)
{
	size_t i;
	int ret = 0;

	for (i = 0; d->names[i] && !ret; i++) {
		char *from = tps_xasprintf("%s/%s", d->tmp, d->names[i]);
		char *to = tps_xasprintf("%s/%s", d->target, d->names[i]);
		if (protected_as(to)) {
			ret = tps_error("cannot replace '%s/%s': it is the store", d->path,
					d->names[i]);
		} else if (!access(from, F_OK)) {
			if (rename(from, to) < 0)
				ret = tps_error("cannot replace '%s/%s': %s", d->path, d->names[i],
						strerror(errno));
		} else if (unlink(to) < 0 && errno != ENOENT) {
			ret = tps_error("cannot remove '%s/%s': %s", d->path, d->names[i],
					strerror(errno));
		}
		free(from);
		free(to);
	}
	return ret;
}

/* ---- a report in a folder that holds other files: one switch by one rename ----
 *
 * The report's files live in a generation folder inside the target,
 * <dir>/.tpsdb-report.<pid>.<suffix>/, and each report name at the top is a symlink
 * ".tpsdb-current/<name>", where <dir>/.tpsdb-current is itself a symlink to the live
 * generation. Replacing that one link (a rename) switches every page at once, so a
 * reader, or a SIGKILL at any moment, sees the old report or the new one, never a
 * mix. The first time, the old report's plain files are hard-linked into a
 * generation of their own before their names become links, so that they too stay
 * whole until the switch. */
#define CURRENT ".tpsdb-current"
#define GEN_PREFIX ".tpsdb-report."

/* The temporary name a link is made under before it is renamed into place: inside
 * this process's own generation folder, never beside the report's names, so that a
 * SIGKILL between the two steps leaves nothing in the folder the user reads (the
 * generation is removed by the next report, its pid being gone). Older versions
 * made "<path>.link.<pid>" beside path; clean_stale() removes those. */
#define LINK_TMP ".tpsdb-link"

/* Makes (or replaces, by a rename) the symlink at path pointing at to, made first
 * as <gen_path>/LINK_TMP; gen_path must be on path's file system. */
static int link_replace(const char *path, const char *to, const char *gen_path)
{
	char *tmp = tps_xasprintf("%s/" LINK_TMP, gen_path);
	int ret = -1;

	unlink(tmp);
	if (symlink(to, tmp) == 0 && rename(tmp, path) == 0)
		ret = 0;
	else
		unlink(tmp);
	free(tmp);
	return ret;
}

/* The generation <dir>/.tpsdb-current names (its base name), or NULL. Caller frees. */
static char *current_gen(const char *dir)
{
	char *link = tps_xasprintf("%s/" CURRENT, dir), buf[PATH_MAX];
	ssize_t n = readlink(link, buf, sizeof(buf) - 1);

	free(link);
	if (n <= 0 || memchr(buf, '/', (size_t)n))
		return NULL;
	buf[n] = '\0';
	return strncmp(buf, GEN_PREFIX, strlen(GEN_PREFIX)) ? NULL : tps_xstrdup(buf);
}

/* 1 when <dir>/<name> is our link into the live generation. */
static int is_our_link(const char *dir, const char *name)
{
	char *p = tps_xasprintf("%s/%s", dir, name), *want = tps_xasprintf(CURRENT "/%s", name);
	char buf[PATH_MAX];
	ssize_t n = readlink(p, buf, sizeof(buf) - 1);
	int ret = n > 0 && (size_t)n == strlen(want) && !memcmp(buf, want, (size_t)n);

	free(p);
	free(want);
	return ret;
}

static int publish_linked(struct outdir *d)
{
	const char *suffix = strrchr(d->tmp, '.');
	char *gen = tps_xasprintf(GEN_PREFIX "%ld%s", (long)getpid(), suffix ? suffix : "");
	char *gen_path = tps_xasprintf("%s/%s", d->target, gen);
	char *cur = NULL, *cur_path = NULL, *link_path = tps_xasprintf("%s/" CURRENT, d->target);
	size_t i;
	int ret = -1;

	if (rename(d->tmp, gen_path) < 0)
		goto out; /* another file system (a mount point): the caller falls back */
	dir_clear_track(d);
	free(d->tmp);
	d->tmp = NULL;
	/* The old report's plain files become a generation first, if there is none. */
	if (!(cur = current_gen(d->target))) {
		cur = tps_xasprintf(GEN_PREFIX "%ld.old", (long)getpid());
		free(cur_path);
		cur_path = tps_xasprintf("%s/%s", d->target, cur);
		if ((mkdir(cur_path, 0777) < 0 && errno != EEXIST) ||
		    link_replace(link_path, cur, gen_path) < 0) {
			tps_error("cannot write '%s': %s", d->path, strerror(errno));
			goto undo;
		}
	}
	free(cur_path);
	cur_path = tps_xasprintf("%s/%s", d->target, cur);
	for (i = 0; d->names[i]; i++) {
		char *top = tps_xasprintf("%s/%s", d->target, d->names[i]);
		char *in_cur = tps_xasprintf("%s/%s", cur_path, d->names[i]);
		char *to = tps_xasprintf(CURRENT "/%s", d->names[i]);
		char *g = tps_xasprintf("%s/%s", gen_path, d->names[i]);
		struct stat st;
		int rc = 0, has_g = !lstat(g, &st);

		free(g);
		if (!lstat(top, &st) && S_ISREG(st.st_mode)) {
			/* keeps showing the old bytes: the same inode, through the link */
			if (link(top, in_cur) < 0 && errno != EEXIST)
				rc = -1;
			else
				rc = link_replace(top, to, gen_path);
		} else if (lstat(top, &st) < 0 && errno == ENOENT && has_g) {
			/* dangles until the switch, as before it; a name the new
			 * report lacks gets no link at all */
			rc = link_replace(top, to, gen_path);
		}
		if (rc < 0)
			tps_error("cannot replace '%s/%s': %s", d->path, d->names[i], strerror(errno));
		free(top);
		free(in_cur);
		free(to);
		if (rc < 0)
			goto undo;
	}
	/* The switch: one rename. */
	if (link_replace(link_path, gen, gen_path) < 0) {
		tps_error("cannot replace '%s': %s", d->path, strerror(errno));
		goto undo;
	}
	/* Names the new report lacks: their links dangle now; remove them. */
	for (i = 0; d->names[i]; i++) {
		char *g = tps_xasprintf("%s/%s", gen_path, d->names[i]);
		if (access(g, F_OK) < 0 && is_our_link(d->target, d->names[i])) {
			char *top = tps_xasprintf("%s/%s", d->target, d->names[i]);
			unlink(top);
			free(top);
		}
		free(g);
	}
	if (strcmp(cur, gen))
		dir_clear(cur_path, d->names);
	ret = 0;
	goto out;
undo:
	dir_clear(gen_path, d->names);
	ret = -2;
out:
	free(gen);
	free(gen_path);
	free(cur);
	free(cur_path);
	free(link_path);
	return ret;
}

/* Empties and removes the folder a dead process left: its files named in names,
 * and the temporary files outfile_open() makes beside them (<name>.tmp.*); a
 * folder that holds anything else stays. */
static void stale_clear(const char *dir, const char *const *names)
{
	DIR *dh = opendir(dir);
	struct dirent *e;
	size_t i;

	while (dh && (e = readdir(dh))) {
		struct stat st;
		char *p;
		int ours = is_owned(names, e->d_name), link_tmp = !strcmp(e->d_name, LINK_TMP);

		for (i = 0; !ours && names[i]; i++) {
			size_t n = strlen(names[i]);
			ours = !strncmp(e->d_name, names[i], n) && !strncmp(e->d_name + n, ".tmp.", 5);
		}
		if (!ours && !link_tmp)
			continue;
		p = tps_xasprintf("%s/%s", dir, e->d_name);
		if (!lstat(p, &st) && (link_tmp ? S_ISLNK(st.st_mode) : S_ISREG(st.st_mode)))
			unlink(p);
		free(p);
	}
	if (dh)
		closedir(dh);
	rmdir(dir);
}

/* The pid in the name of a link an older version of link_replace() made in dir
 * before renaming it: "<name>.link.<pid>", name one of names or CURRENT, and the
 * entry a symlink holding what that version wrote there (".tpsdb-current/<name>",
 * or a generation for CURRENT). 0 for anything else, a user's file included. */
static long stray_link_pid(const char *dir, const char *entry, const char *const *names)
{
	const char *dot = strstr(entry, ".link."), *rest;
	char *name, *p, *want, *end, buf[PATH_MAX];
	ssize_t n;
	long pid;
	int ok;

	while (dot && strstr(dot + 1, ".link."))
		dot = strstr(dot + 1, ".link.");
	if (!dot)
		return 0;
	rest = dot + strlen(".link.");
	pid = strtol(rest, &end, 10);
	if (end == rest || *end || pid <= 0)
		return 0;
	name = tps_xstrndup(entry, (size_t)(dot - entry));
	p = tps_xasprintf("%s/%s", dir, entry);
	n = readlink(p, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	if (!strcmp(name, CURRENT)) {
		ok = n > 0 && !strncmp(buf, GEN_PREFIX, strlen(GEN_PREFIX)) && !strchr(buf, '/');
	} else {
		want = tps_xasprintf(CURRENT "/%s", name);
		ok = n > 0 && is_owned(names, name) && !strcmp(buf, want);
		free(want);
	}
	free(p);
	free(name);
	return ok ? pid : 0;
}

int outfile_pid_gone(long pid)
{
	return pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

void outfile_stale_private(const char *parent, const char *prefix,
			   int (*owned)(const char *name))
{
	size_t n = strlen(prefix);
	DIR *dh = opendir(parent);
	struct dirent *e;

	while (dh && (e = readdir(dh))) {
		struct stat st;
		struct dirent *f;
		char *end;
		long pid;
		DIR *in;
		int fd;

		if (strncmp(e->d_name, prefix, n))
			continue;
		pid = strtol(e->d_name + n, &end, 10);
		if (end == e->d_name + n || *end != '.' || strlen(end + 1) != 6 ||
		    !outfile_pid_gone(pid))
			continue;
		/* Through the folder's descriptor, never its name again: in a shared
		 * /tmp another user could swap the name for a link to elsewhere. Only
		 * a real folder of this user's. */
		fd = openat(dirfd(dh), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) < 0 || st.st_uid != geteuid() || !(in = fdopendir(fd))) {
			close(fd);
			continue;
		}
		while ((f = readdir(in)))
			if (owned(f->d_name) &&
			    !fstatat(fd, f->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode))
				unlinkat(fd, f->d_name, 0);
		closedir(in);
		/* It stays when anything else is in it. */
		unlinkat(dirfd(dh), e->d_name, AT_REMOVEDIR);
	}
	if (dh)
		closedir(dh);
}

/* Removes, beside dir and in it, what a process of this program that died without
 * cleaning up (SIGKILL, a crash) left: <dir>.tmp.<pid>.*, <dir>.old.<pid>, stale
 * generations inside dir and an older version's link temporaries (stray_link_pid), each only when its pid is gone, and only the files this
 * kind of output names (a folder holding anything else stays). */
static void clean_stale(const char *target, const char *const *names)
{
	const char *slash = strrchr(target, '/');
	char *parent = slash ? tps_xstrndup(target, slash == target ? 1 : (size_t)(slash - target))
			     : tps_xstrdup(".");
	const char *base = slash ? slash + 1 : target;
	char *pre_tmp = tps_xasprintf("%s.tmp.", base), *pre_old = tps_xasprintf("%s.old.", base);
	char *cur = current_gen(target);
	const char *dirs[2] = { parent, target };
	size_t k;

	for (k = 0; k < 2; k++) {
		DIR *dh = opendir(dirs[k]);
		struct dirent *e;

		while (dh && (e = readdir(dh))) {
			const char *rest = NULL;
			char *end, *p;
			long pid;

			if (k == 0 && !strncmp(e->d_name, pre_tmp, strlen(pre_tmp)))
				rest = e->d_name + strlen(pre_tmp);
			else if (k == 0 && !strncmp(e->d_name, pre_old, strlen(pre_old)))
				rest = e->d_name + strlen(pre_old);
			else if (k == 1 && !strncmp(e->d_name, GEN_PREFIX, strlen(GEN_PREFIX)) &&
				 (!cur || strcmp(e->d_name, cur)))
				rest = e->d_name + strlen(GEN_PREFIX);
			else if (k == 1 && (pid = stray_link_pid(target, e->d_name, names)) &&
				 outfile_pid_gone(pid)) {
				p = tps_xasprintf("%s/%s", target, e->d_name);
				unlink(p);
				free(p);
				continue;
			}
			if (!rest)
				continue;
			pid = strtol(rest, &end, 10);
			if (end == rest || !outfile_pid_gone(pid))
				continue;
			p = tps_xasprintf("%s/%s", dirs[k], e->d_name);
			stale_clear(p, names);
			free(p);
		}
		if (dh)
			closedir(dh);
	}
	free(cur);
	free(pre_tmp);
	free(pre_old);
	free(parent);
}

int outdir_commit(struct outdir *d)
{
	char *aside = NULL;
	sigset_t held;
	int ret = -1, rc;

	/* From here to the end the fatal signals wait: a SIGTERM between the swap and
	 * the removal of the old report would leave the old report's folder behind. */
	sigs_block(&held);
	dir_sync(d->tmp); /* the folder itself: its entries */
	if (!d->exists) {
		if (rename(d->tmp, d->target) == 0)
			goto done;
		if (errno != EEXIST && errno != ENOTEMPTY) {
			tps_error("cannot make '%s': %s", d->path, strerror(errno));
			goto out;
		}
		/* made meanwhile: publish into it as into any other folder */
	} else if (only_owned(d->target, d->names)) {
		if (renameat2(AT_FDCWD, d->tmp, AT_FDCWD, d->target, RENAME_EXCHANGE) == 0) {
			/* d->tmp now holds the old report */
			if (dir_clear(d->tmp, d->names) < 0)
				tps_warning("the previous '%s' is left in '%s': %s", d->path, d->tmp,
					    strerror(errno));
			goto done;
		}
		if (errno == EINVAL || errno == ENOSYS) {
			/* no exchange here: move the old one aside, the new one in */
			int moved;

			aside = tps_xasprintf("%s.old.%ld", d->target, (long)getpid());
			moved = rename(d->target, aside) == 0;
			if (moved && rename(d->tmp, d->target) < 0) {
				tps_error("cannot replace '%s': %s", d->path, strerror(errno));
				if (rename(aside, d->target) < 0)
					tps_error("the previous '%s' is left in '%s': %s", d->path,
						  aside, strerror(errno));
				goto out;
			}
			if (moved) {
				dir_clear(aside, d->names);
				goto done;
			}
		}
		/* "." and mount points cannot be renamed: publish file by file */
	}
	/* A folder with other files: switched by one rename of a link. Where the
	 * generation cannot be moved in (another file system), file by file. */
	if ((rc = publish_linked(d)) == 0)
		goto done;
	if (rc == -2 || publish_each(d) < 0)
		goto out;
done:
	dir_sync(d->target);
	ret = 0;
out:
	free(aside);
	outdir_abort(d);
	sigs_restore(&held);
	return ret;
}

void outdir_abort(struct outdir *d)
{
	if (!d)
		return;
	if (d->tmp)
		dir_clear(d->tmp, d->names);
	free(d->path);
	free(d->target);
	free(d->tmp);
	free(d);
}
