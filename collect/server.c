/* server.c: an engine started through proc.c in its own process group with its
 * output in a log file, readiness polling over /health, and a stop that always ends
 * with SIGKILL to the group and a reaped pid. */
#include "collect/server.h"
#include "collect/http.h"
#include "collect/interrupt.h"
#include "proc.h"
#include "tpsdb.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define READY_POLL_MS 10
#define HEALTH_TIMEOUT_MS 2000
/* In attach mode a refused connection means nothing listens: no server tpsdb did
 * not start will come up by itself, so waiting the load timeout for it is a
 * silent ten minutes. The grace covers a server started just before tpsdb (a
 * llama-server binds its port before it loads the model, and answers 503 while
 * it loads, which is waited for). */
#define ATTACH_REFUSED_MS 2000

struct server {
	struct proc *proc;
};

struct server *server_start(char *const argv[], const char *gpu, const char *home,
			    const char *log_path)
{
	struct proc_spec sp = { 0 };
	struct server *s = NULL;
	const char *set[3] = { NULL, NULL, NULL };
	char *owned[2] = { NULL, NULL };
	enum proc_fail failed;
	struct proc *p;
	size_t k = 0;

	if (gpu)
		set[k++] = owned[0] = tps_xasprintf("CUDA_VISIBLE_DEVICES=%s", gpu);
	if (home)
		set[k++] = owned[1] = tps_xasprintf("HOME=%s", home);
	sp.argv = argv;
	sp.env_set = k ? set : NULL;
	sp.out_path = log_path;
	sp.out_mode = 0644;
	sp.flags = PROC_SEARCH_PATH | PROC_GROUP | PROC_PARENT_DEATH;
	p = proc_start(&sp, &failed);
	if (!p && failed == PROC_FAIL_OUTPUT)
		tps_error("cannot open the server log '%s': %s", log_path, strerror(errno));
	else if (!p)
		tps_error("cannot start '%s': fork: %s", argv[0], strerror(errno));
	if (p) {
		s = tps_xcalloc(1, sizeof(*s));
		s->proc = p;
	}
	free(owned[0]);
	free(owned[1]);
	return s;
}

pid_t server_pid(const struct server *s)
{
	return proc_pid(s->proc);
}

int server_exited(struct server *s)
{
	return proc_exited(s->proc);
}

int server_wait_exit(struct server *s, double ms)
{
	return proc_wait(s->proc, ms);
}

const char *server_state(struct server *s)
{
	return proc_state(s->proc);
}

int server_wait_ready(struct http *h, struct server *s, double timeout_s, double *ready_ms,
		      void (*tick)(void *arg), void *arg, char *why, size_t whylen)
{
	double end = tps_mono_ms() + timeout_s * 1000, next_tick = tps_mono_ms() + 1000;
	double refused_since = -1;
	char last[320] = "no answer yet";
	struct http_reply r;
	long left;

	for (;;) {
		if (interrupt_pending()) {
			snprintf(why, whylen, "interrupted by signal %d", interrupt_pending());
			return -1;
		}
		if (s && server_exited(s)) {
			snprintf(why, whylen, "the server %s before it was ready",
				 server_state(s));
			return -1;
		}
		left = (long)(end - tps_mono_ms());
		if (!s && refused_since >= 0 &&
		    (left <= 0 || tps_mono_ms() - refused_since >= ATTACH_REFUSED_MS)) {
			snprintf(why, whylen, "connection refused: nothing listens there (%s)",
				 last);
			return -1;
		}
		if (left <= 0) {
			snprintf(why, whylen, "not ready after %g s (%s)", timeout_s, last);
			return -1;
		}
		if (http_get(h, "/health", left < HEALTH_TIMEOUT_MS ? left : HEALTH_TIMEOUT_MS,
			     &r) == 0) {
			if (r.status >= 200 && r.status < 300) {
				if (ready_ms)
					*ready_ms = tps_mono_ms();
				http_reply_release(&r);
				return 0;
			}
			snprintf(last, sizeof(last), "last /health answer: HTTP %ld", r.status);
			refused_since = -1;
		} else if (r.fail != HTTP_FAIL_REFUSED) {
			snprintf(last, sizeof(last), "last /health attempt: %s", r.error);
			refused_since = -1;
		} else if (!s) {
			snprintf(last, sizeof(last), "%s", r.error);
			if (refused_since < 0)
				refused_since = tps_mono_ms();
		}
		http_reply_release(&r);
		if (tick && tps_mono_ms() >= next_tick) {
			tick(arg);
			next_tick += 1000;
		}
		interrupt_sleep_ms(READY_POLL_MS);
	}
}

void server_stop(struct server *s, double grace_s)
{
	if (s)
		proc_stop(s->proc, grace_s);
}

void server_free(struct server *s)
{
	if (!s)
		return;
	proc_free(s->proc);
	free(s);
}

char *server_log_tail(const char *path, size_t max_bytes, int max_lines)
{
	char *buf = tps_xmalloc(max_bytes + 1), *p;
	ssize_t n = 0;
	off_t size;
	int fd, lines = 0;

	buf[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return buf;
	size = lseek(fd, 0, SEEK_END);
	if (size > 0) {
		off_t from = size > (off_t)max_bytes ? size - (off_t)max_bytes : 0;
		if (lseek(fd, from, SEEK_SET) == from)
			n = read(fd, buf, max_bytes);
	}
	close(fd);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	/* Read from the middle of the file: its first line is cut, so drop it. */
	if (size > (off_t)max_bytes && (p = memchr(buf, '\n', (size_t)n)) && p + 1 < buf + n) {
		n -= p + 1 - buf;
		memmove(buf, p + 1, (size_t)n + 1);
	}
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\r' ||
			 buf[n - 1] == '\t'))
		buf[--n] = '\0';
	/* Keep the last max_lines lines. */
	for (p = buf + n; p > buf; p--) {
		if (p[-1] == '\n' && ++lines >= max_lines)
			break;
	}
	memmove(buf, p, strlen(p) + 1);
	return buf;
}

int server_port_free(int port)
{
	struct sockaddr_in a;
	int fd, ok;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	/* No SO_REUSEADDR: a port whose last instance's connections sit in
	 * TIME_WAIT counts as taken. A server closes each streamed answer's
	 * connection itself, so the port it served keeps them for a minute, and not
	 * every engine sets SO_REUSEADDR before it binds (llama.cpp b8390 then fails
	 * with "couldn't bind HTTP server socket"). */
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ok = bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
	close(fd);
	return ok;
}
