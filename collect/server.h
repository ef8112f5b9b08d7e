/* server.h: starting and stopping one llama-server-compatible process for a cell
 * of the matrix. Each server runs in its own process group with its output in a
 * log file; stopping it signals the whole group, so nothing it forked survives us.
 * The child also asks the kernel for SIGTERM should tpsdb itself die first. */
#ifndef COLLECT_SERVER_H
#define COLLECT_SERVER_H

#include <stddef.h>
#include <sys/types.h>

struct http;
struct server;

/* Starts, through proc_start(), argv[0] (searched in PATH, run by /bin/sh if the kernel
 * refuses the format, as llamafile's APE binaries may need) with argv, stdin from
 * /dev/null and stdout and stderr to log_path (truncated first), in a new process
 * group. gpu, when not NULL, becomes CUDA_VISIBLE_DEVICES; home, when not NULL, HOME.
 * Returns the server, which the caller frees with server_free(), or NULL after an
 * error line (the log file cannot be opened, fork fails). An exec failure is not
 * reported here: the child writes it to the log and exits 127. */
struct server *server_start(char *const argv[], const char *gpu, const char *home,
			    const char *log_path);

/* The process id (also the process group id). */
pid_t server_pid(const struct server *s);
/* 1 when the process has exited (it is reaped then), 0 while it runs. */
int server_exited(struct server *s);
/* Waits up to ms for the process to exit: 1 exited, 0 still running. */
int server_wait_exit(struct server *s, double ms);
/* "exited with status 1", "killed by signal 9" or "running", borrowed. */
const char *server_state(struct server *s);

/* Polls GET /health through h every 10 ms until it answers 2xx. A 503 ("Loading
 * model") means keep waiting; so does no listener yet while s runs. Gives up after
 * timeout_s, as soon as s (NULL in attach mode) exits, when a signal is pending, or,
 * in attach mode, when the connection has been refused for 2 s on end (why then
 * starts "connection refused"). tick, when not
 * NULL, is called with arg about once a second while it waits (a progress line).
 * Returns 0 when ready, with the monotonic time it was seen in *ready_ms (may be
 * NULL); -1 with the reason in why. Prints nothing itself. */
int server_wait_ready(struct http *h, struct server *s, double timeout_s, double *ready_ms,
		      void (*tick)(void *arg), void *arg, char *why, size_t whylen);

/* SIGTERM to the process group, up to grace_s for the leader to exit, then SIGKILL
 * to the group; reaps the leader. Idempotent. */
void server_stop(struct server *s, double grace_s);
/* Stops (with a 10 s grace) and frees; accepts NULL. */
void server_free(struct server *s);

/* The last max_lines whole lines (within the last max_bytes bytes) of a log file,
 * with trailing blank space cut. Caller frees. "" when the file is empty or unreadable. */
char *server_log_tail(const char *path, size_t max_bytes, int max_lines);

/* 1 when a server can bind 127.0.0.1:port without SO_REUSEADDR (nothing bound,
 * no connection of an earlier instance in TIME_WAIT), 0 otherwise. */
int server_port_free(int port);

#endif
