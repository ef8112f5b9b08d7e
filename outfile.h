/* outfile.h: the one way tpsdb writes a file or a folder the user named (export
 * --out, report --out, plot --out, gate --junit, collect's summary). A regular file
 * or an absent path is written to a temporary file beside it and renamed over it
 * only when complete, so the old file stays whole until then; a symlink is followed
 * and the same rule applies to what it points at; a character device, block device
 * or FIFO is written directly. Temporary paths are removed on every error path and
 * when SIGINT, SIGTERM or SIGHUP kills the process. */
#ifndef OUTFILE_H
#define OUTFILE_H

#include <stdio.h>

struct outfile;

/* Opens path for writing as above. NULL after an error line ("cannot write
 * '<path>': ..."; a folder, a socket or a symlink loop is refused). The first
 * call also makes SIGXFSZ ignored, so that a file-size limit is a write error
 * (EFBIG) and not a kill. Finish with outfile_commit() or outfile_abort(). */
struct outfile *outfile_open(const char *path);
/* The stream to write to, borrowed until commit or abort. */
FILE *outfile_stream(struct outfile *o);
/* Flushes and closes; for a temporary file also fsyncs it and renames it over
 * the target. 0 ok; -1 after one error line naming the path and the first write
 * error (ENOSPC, EFBIG, EIO...), with the temporary file removed and the old
 * target untouched. Frees o either way. */
int outfile_commit(struct outfile *o);
/* Drops what was written: the temporary file is removed (a device or FIFO has
 * had its bytes already). Frees o; accepts NULL. */
void outfile_abort(struct outfile *o);
/* Copies the file src to dst through outfile_open() (gnuplot draws into a
 * private folder; the figure reaches the user's path through here). 0 ok, -1
 * after an error line. */
int outfile_copy(const char *src, const char *dst);

/* Marks path (the store) as never to be written: outfile_open() of it, of its
 * -wal, -shm or -journal, through any chain of symlinks or another name of the same
 * inode, is refused with one error line and nothing is written. The dispatcher
 * calls it with --db before any command runs. */
void outfile_protect(const char *path);

struct outdir;

/* Starts replacing the folder dir as a whole (a symlink to a folder is
 * followed): the new content is built in a temporary sibling folder, which
 * outdir_commit() swaps in. What a killed run of this program left beside dir
 * or in it (<dir>.tmp.<pid>.*, <dir>.old.<pid>, old generations, an older
 * version's <name>.link.<pid> links) is removed first
 * when that pid is gone. names (NULL-terminated, borrowed until the commit)
 * are every file name this kind of output may hold. NULL after an error line
 * (dir is not a folder, or the sibling cannot be made). */
struct outdir *outdir_begin(const char *dir, const char *const *names);
/* The path, inside the temporary folder, where the file name is to be written;
 * caller frees. It is removed if the process is killed before the commit. */
char *outdir_file(struct outdir *d, const char *name);
/* Puts the new folder in place, with SIGINT, SIGTERM and SIGHUP held until it is
 * done. When the old folder holds only files named in names (or nothing), the two
 * are exchanged (renameat2 RENAME_EXCHANGE, else two renames) and the old one
 * removed. Otherwise (the user's own files beside the report) the new files go
 * into a generation folder inside it, <dir>/.tpsdb-report.<pid>.<x>/, each name at
 * the top becomes a symlink ".tpsdb-current/<name>", and one rename of the link
 * <dir>/.tpsdb-current switches every file at once; the old generation and the
 * links of names the new output lacks are removed. Each link is made inside the
 * generation and renamed into place, so a SIGKILL at any moment leaves the old
 * report or the new one and no temporary name among them. Only where the generation
 * cannot be moved in (another file system) are the files renamed in one by one.
 * 0 ok, -1 after an error line with the old folder whole. Frees d either way. */
int outdir_commit(struct outdir *d);
/* Removes the temporary folder and what was written into it; frees d; accepts
 * NULL. */
void outdir_abort(struct outdir *d);

/* The registry of temporary paths the signal handler removes (newest first;
 * unlink() for a file, rmdir() for a folder, nothing else), for temporary files
 * made elsewhere (plot.c's gnuplot folder). The handler is installed for each of
 * SIGINT, SIGTERM and SIGHUP whose disposition is the default; an ignored signal
 * stays ignored and a program handler (collect's) is left alone, since that code
 * unwinds through its error paths. After removing, the handler restores the
 * default and raises the signal again. */
void outfile_track(const char *path, int is_dir);
/* Forgets path (the newest entry with that name); a path not tracked is fine. */
void outfile_untrack(const char *path);

/* 1 when pid names a process that is gone: not this one, and kill(pid, 0) finds
 * none (a live process, or another user's, is not gone). Every stale-file rule
 * here asks it. */
int outfile_pid_gone(long pid);
/* Removes the private folders in parent named <prefix><pid>.XXXXXX that a process
 * now gone left (SIGKILL, a crash): in each folder of this user's (not a link),
 * the regular files whose names owned() accepts, then the folder, which stays
 * when anything else is in it. */
void outfile_stale_private(const char *parent, const char *prefix,
			   int (*owned)(const char *name));

#endif
