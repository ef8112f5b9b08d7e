/* server.c: fork/exec of a server in its own process group, readiness polling over
 * /health, and a stop that always ends with SIGKILL to the group and a reaped pid.
 * Between fork and exec the child only makes system calls: the environment is built
 * in the parent. */
#include "collect/server.h"
#include "collect/http.h"
#include "collect/interrupt.h"
#include "tpsdb.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define READY_POLL_MS 10
#define HEALTH_TIMEOUT_MS 2000

struct server {
	pid_t pid;
	int reaped, status;
	char state[64];
};

/* environ with NAME=value entries replaced or added; the array is the caller's, the
 * strings it adds are in *owned (both freed by the caller). */
static char **build_env(const char *gpu, const char *home, char **owned)
{
	size_t n = 0, i, k = 0;
	char **env;

	while (environ[n])
		n++;
	env = tps_xcalloc(n + 3, sizeof(*env));
	for (i = 0; i < n; i++) {
		if (gpu && !strncmp(environ[i], "CUDA_VISIBLE_DEVICES=", 21))
			continue;
		if (home && !strncmp(environ[i], "HOME=", 5))
			continue;
		env[k++] = environ[i];
	}
	if (gpu)
		env[k++] = owned[0] = tps_xasprintf("CUDA_VISIBLE_DEVICES=%s", gpu);
	if (home)
		env[k++] = owned[1] = tps_xasprintf("HOME=%s", home);
	env[k] = NULL;
	return env;
}

static void child_say(int fd, const char *a, const char *b, const char *c)
{
	/* write(2) only: we are between fork and exec. */
	if (write(fd, a, strlen(a)) < 0 || write(fd, b, strlen(b)) < 0 ||
	    write(fd, c, strlen(c)) < 0)
		return;
}

static void close_from(int lowfd)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned)lowfd, ~0U, 0) == 0)
		return;
#endif
	for (int fd = lowfd; fd < 1024; fd++)
		close(fd);
}

static void child(char *const argv[], char **env, int logfd, pid_t parent)
{
	int null = open("/dev/null", O_RDONLY);
	int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD };
	struct sigaction dfl;
	sigset_t none;

	setpgid(0, 0);
	/* If tpsdb is killed outright, the kernel still tells the server to go. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(127);
	/* An ignored SIGPIPE would survive exec; the server gets the defaults. */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (null >= 0)
		dup2(null, 0);
	dup2(logfd, 1);
	dup2(logfd, 2);
	close_from(3);
	execvpe(argv[0], argv, env);
	child_say(2, "tpsdb: cannot execute '", argv[0], "': ");
	child_say(2, strerror(errno), "\n", "");
	_exit(127);
}

struct server *server_start(char *const argv[], const char *gpu, const char *home,
			    const char *log_path)
{
	struct server *s = NULL, *ret = NULL;
	char *owned[2] = { NULL, NULL };
	char **env = NULL;
	pid_t parent = getpid(), pid;
	int logfd;

	logfd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (logfd < 0) {
		tps_error("cannot open the server log '%s': %s", log_path, strerror(errno));
		goto out;
	}
	env = build_env(gpu, home, owned);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		tps_error("cannot start '%s': fork: %s", argv[0], strerror(errno));
		goto out;
	}
	if (pid == 0)
		child(argv, env, logfd, parent);
	/* Both sides set the group, so a signal sent at once cannot miss it. */
	setpgid(pid, pid);
	s = tps_xcalloc(1, sizeof(*s));
	s->pid = pid;
	snprintf(s->state, sizeof(s->state), "running");
	ret = s;
out:
	if (logfd >= 0)
		close(logfd);
	free(owned[0]);
	free(owned[1]);
	free(env);
	return ret;
}

pid_t server_pid(const struct server *s)
{
	return s->pid;
}

static void note_status(struct server *s, int status)
{
	s->reaped = 1;
	s->status = status;
	if (WIFEXITED(status))
		snprintf(s->state, sizeof(s->state), "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(s->state, sizeof(s->state), "killed by signal %d", WTERMSIG(status));
	else
		snprintf(s->state, sizeof(s->state), "stopped (status %d)", status);
}

int server_exited(struct server *s)
{
	int status;
	pid_t r;

	if (s->reaped)
		return 1;
	do
		r = waitpid(s->pid, &status, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == s->pid) {
		note_status(s, status);
		return 1;
	}
	if (r < 0) {
		/* Not our child any more (ECHILD): treat it as gone. */
		s->reaped = 1;
		snprintf(s->state, sizeof(s->state), "gone (%s)", strerror(errno));
		return 1;
	}
	return 0;
}

int server_wait_exit(struct server *s, double ms)
{
	double end = tps_mono_ms() + ms;
	struct timespec ts = { 0, READY_POLL_MS * 1000000L };

	while (!server_exited(s)) {
		if (tps_mono_ms() >= end)
			return 0;
		/* Not interrupt_sleep_ms(): a stop must finish even after a signal. */
		nanosleep(&ts, NULL);
	}
	return 1;
}

const char *server_state(struct server *s)
{
	server_exited(s);
	return s->state;
}

int server_wait_ready(struct http *h, struct server *s, double timeout_s, double *ready_ms,
		      void (*tick)(void *arg), void *arg, char *why, size_t whylen)
{
	double end = tps_mono_ms() + timeout_s * 1000, next_tick = tps_mono_ms() + 1000;
	char last[320] = "no answer yet";
	struct http_reply r;
	long left;

	for (;;) {
		if (interrupt_pending()) {
			snprintf(why, whylen, "interrupted by signal %d", interrupt_pending());
			return -1;
		}
		if (s && server_exited(s)) {
			snprintf(why, whylen, "the server %s before it was ready", s->state);
			return -1;
		}
		left = (long)(end - tps_mono_ms());
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
		} else if (r.fail != HTTP_FAIL_REFUSED) {
			snprintf(last, sizeof(last), "last /health attempt: %s", r.error);
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
	if (!s)
		return;
	if (!s->reaped) {
		kill(-s->pid, SIGTERM);
		if (!server_wait_exit(s, grace_s * 1000)) {
			kill(-s->pid, SIGKILL);
			server_wait_exit(s, 5000);
		}
	}
	/* The leader may be gone while something it forked still holds the group. */
	kill(-s->pid, SIGKILL);
}

void server_free(struct server *s)
{
	if (!s)
		return;
	server_stop(s, 10);
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
	int fd, one = 1, ok;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	/* The same option the servers set, so a port in TIME_WAIT counts as free. */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ok = bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
	close(fd);
	return ok;
}
