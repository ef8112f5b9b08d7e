/* proc.c: fork and exec of one child with its output in a file, a close-on-exec
 * pipe that tells the parent whether the exec happened, and waiting, signalling
 * and reaping by polling waitpid(WNOHANG), so that no wait ever blocks a signal's
 * handling and a timeout is always kept. */
#include "proc.h"
#include "tpsdb.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* The longest nap between two looks at a child that has not ended (and at the
 * interrupt flag; a signal also cuts the nap short). */
#define POLL_MAX_MS 10

static const volatile sig_atomic_t *interrupt_flag;

struct proc {
	pid_t pid;
	int flags;
	int exec_errno;
	int reaped, status, gone_errno;
	char state[64];
};

/* environ with the NAME=value entries of set replacing or adding to it; the
 * array is the caller's to free, its strings are borrowed. */
static char **env_build(const char *const *set)
{
	size_t n = 0, n_set = 0, i, s, k = 0;
	char **env;

	while (environ[n])
		n++;
	while (set[n_set])
		n_set++;
	env = tps_xcalloc(n + n_set + 1, sizeof(*env));
	for (i = 0; i < n; i++) {
		for (s = 0; s < n_set; s++) {
			size_t len = strcspn(set[s], "=") + 1;
			if (!strncmp(environ[i], set[s], len))
				break;
		}
		if (s == n_set)
			env[k++] = environ[i];
	}
	for (s = 0; s < n_set; s++)
		env[k++] = (char *)set[s];
	env[k] = NULL;
	return env;
}

static void child_say(const char *a, const char *b, const char *c)
{
	/* write(2) only: we are between fork and exec. */
	if (write(2, a, strlen(a)) < 0 || write(2, b, strlen(b)) < 0 ||
	    write(2, c, strlen(c)) < 0)
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

/* The child's side: never returns. errfd (close-on-exec) gets the errno of a
 * failed exec; the parent reads end-of-file from it once the exec succeeded. */
static void child(const struct proc_spec *sp, char **env, int nullfd, int outfd, int errfd,
		  pid_t parent)
{
	int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD, SIGXFSZ };
	size_t n_sigs = sizeof(sigs) / sizeof(sigs[0]) -
			!((sp->flags & PROC_FSIZE_KILLS) || sp->out_max);
	struct sigaction dfl;
	sigset_t none;
	int e;

	if (sp->flags & PROC_GROUP)
		setpgid(0, 0);
	if (sp->flags & PROC_PARENT_DEATH) {
		/* If tpsdb is killed outright, the kernel still tells the child to go. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127);
	}
	/* An ignored signal would survive exec; the child gets the defaults. */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	for (size_t i = 0; i < n_sigs; i++)
		sigaction(sigs[i], &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (sp->out_max) {
		struct rlimit lim = { (rlim_t)sp->out_max, (rlim_t)sp->out_max };

		if (setrlimit(RLIMIT_FSIZE, &lim) < 0)
			_exit(127);
	}
	if (nullfd >= 0)
		dup2(nullfd, 0);
	if (outfd >= 0) {
		dup2(outfd, 1);
		dup2(outfd, 2);
	}
	if (nullfd >= 0 && (sp->flags & PROC_STDERR_NULL))
		dup2(nullfd, 2);
	/* The pipe moves to 3, above the three streams, and everything else closes. */
	if (errfd != 3 && dup3(errfd, 3, O_CLOEXEC) == 3)
		errfd = 3;
	close_from(errfd == 3 ? 4 : 3);
	if (sp->flags & PROC_SEARCH_PATH)
		execvpe(sp->argv[0], sp->argv, env);
	else
		execve(sp->path ? sp->path : sp->argv[0], sp->argv, env);
	e = errno;
	child_say("tpsdb: cannot execute '", sp->argv[0], "': ");
	child_say(strerror(e), "\n", "");
	if (errfd == 3 && write(3, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* The errno the child sent through the pipe, or 0 at end-of-file (it executed,
 * or exited before trying). */
static int read_exec_errno(int fd)
{
	int e = 0;
	ssize_t n;

	do
		n = read(fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(e) ? e : 0;
}

struct proc *proc_start(const struct proc_spec *sp, enum proc_fail *failed)
{
	struct proc *p = NULL, *ret = NULL;
	char **env = NULL;
	pid_t parent = getpid(), pid;
	int outfd = -1, nullfd = -1, pipefd[2] = { -1, -1 }, e = 0;
	enum proc_fail why = PROC_FAIL_FORK;

	if (sp->out_path) {
		outfd = open(sp->out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			     (mode_t)sp->out_mode);
		if (outfd < 0) {
			e = errno;
			why = PROC_FAIL_OUTPUT;
			goto out;
		}
	}
	nullfd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		e = errno;
		goto out;
	}
	env = sp->env_set ? env_build(sp->env_set) : NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		e = errno;
		goto out;
	}
	if (pid == 0)
		child(sp, env ? env : environ, nullfd, outfd, pipefd[1], parent);
	/* Both sides set the group, so a signal sent at once cannot miss it. */
	if (sp->flags & PROC_GROUP)
		setpgid(pid, pid);
	close(pipefd[1]);
	pipefd[1] = -1;
	p = tps_xcalloc(1, sizeof(*p));
	p->pid = pid;
	p->flags = sp->flags;
	p->exec_errno = read_exec_errno(pipefd[0]);
	snprintf(p->state, sizeof(p->state), "running");
	ret = p;
out:
	if (outfd >= 0)
		close(outfd);
	if (nullfd >= 0)
		close(nullfd);
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	free(env);
	if (!ret) {
		if (failed)
			*failed = why;
		errno = e;
	}
	return ret;
}

pid_t proc_pid(const struct proc *p)
{
	return p->pid;
}

int proc_exec_errno(const struct proc *p)
{
	return p->exec_errno;
}

int proc_exited(struct proc *p)
{
	int status;
	pid_t r;

	if (p->reaped)
		return 1;
	do
		r = waitpid(p->pid, &status, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == p->pid) {
		p->reaped = 1;
		p->status = status;
		if (WIFEXITED(status))
			snprintf(p->state, sizeof(p->state), "exited with status %d",
				 WEXITSTATUS(status));
		else if (WIFSIGNALED(status))
			snprintf(p->state, sizeof(p->state), "killed by signal %d", WTERMSIG(status));
		else
			snprintf(p->state, sizeof(p->state), "stopped (status %d)", status);
		return 1;
	}
	if (r < 0) {
		/* Not our child any more (ECHILD): treat it as gone. */
		p->reaped = 1;
		p->gone_errno = errno;
		snprintf(p->state, sizeof(p->state), "gone (%s)", strerror(errno));
		return 1;
	}
	return 0;
}

void proc_interrupt_flag(const volatile sig_atomic_t *flag)
{
	interrupt_flag = flag;
}

int proc_interrupted(void)
{
	return interrupt_flag && *interrupt_flag;
}

/* proc_wait(), or with interruptible 0 a wait the flag does not end: a stop's,
 * which must reap what it signalled. */
static int wait_for(struct proc *p, double ms, int interruptible)
{
	double end = tps_mono_ms() + ms, nap = 1;

	while (!proc_exited(p)) {
		struct timespec ts;
		double left = end - tps_mono_ms();
		if (interruptible && proc_interrupted())
			return 0;
		if (ms >= 0 && left <= 0)
			return 0;
		if (ms >= 0 && nap > left)
			nap = left;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(nap * 1e6);
		/* A signal only shortens the nap: a stop must finish even after one. */
		nanosleep(&ts, NULL);
		nap = nap * 2 < POLL_MAX_MS ? nap * 2 : POLL_MAX_MS;
	}
	return 1;
}

int proc_wait(struct proc *p, double ms)
{
	return wait_for(p, ms, 1);
}

enum proc_end proc_end(struct proc *p, int *code)
{
	int c = 0;
	enum proc_end end = PROC_RUNNING;

	if (proc_exited(p)) {
		if (p->gone_errno) {
			end = PROC_GONE;
			c = p->gone_errno;
		} else if (WIFEXITED(p->status)) {
			end = PROC_EXITED;
			c = WEXITSTATUS(p->status);
		} else {
			end = PROC_SIGNALED;
			c = WTERMSIG(p->status);
		}
	}
	if (code)
		*code = c;
	return end;
}

const char *proc_state(struct proc *p)
{
	proc_exited(p);
	return p->state;
}

void proc_kill(struct proc *p, int sig)
{
	if (p->flags & PROC_GROUP)
		kill(-p->pid, sig);
	else if (!p->reaped)
		kill(p->pid, sig);
}

void proc_stop(struct proc *p, double grace_s)
{
	if (!p)
		return;
	/* Not proc_exited(): a leader that has ended unreaped still has its group
	 * told first, as one that runs. */
	if (!p->reaped) {
		if (proc_interrupted() && grace_s > PROC_INTERRUPT_GRACE_S)
			grace_s = PROC_INTERRUPT_GRACE_S;
		proc_kill(p, SIGTERM);
		if (!wait_for(p, grace_s * 1000, 0)) {
			proc_kill(p, SIGKILL);
			wait_for(p, 5000, 0);
		}
	}
	/* The leader may be gone while something it forked still holds the group. */
	if (p->flags & PROC_GROUP)
		kill(-p->pid, SIGKILL);
}

void proc_free(struct proc *p)
{
	if (!p)
		return;
	proc_stop(p, 10);
	free(p);
}

char *proc_capture_why(char *const *argv, double timeout_s, size_t max, size_t *len, char *why,
		       size_t whylen)
{
	const char *dir = getenv("TMPDIR");
	char *path = tps_xasprintf("%s/tpsdb-capture.XXXXXX", dir && *dir ? dir : "/tmp");
	struct proc_spec sp = { 0 };
	struct proc *p = NULL;
	struct stat st;
	char *buf = NULL;
	ssize_t n;
	size_t got = 0;
	int fd = -1, code, ok = 0, ended;

	tps_fail(why, whylen, "not started");
	/* A signal came: nothing new starts, the caller unwinds. */
	if (proc_interrupted()) {
		tps_fail(why, whylen, "interrupted");
		goto out;
	}
	if ((fd = mkstemp(path)) < 0) {
		tps_fail(why, whylen, "cannot make '%s': %s", path, strerror(errno));
		goto out;
	}
	sp.argv = argv;
	sp.out_path = path;
	sp.out_mode = 0600;
	/* Bounded while it is written, not only while it is read: output that never
	 * ends (a driver gone wrong) would otherwise fill TMPDIR until the deadline. */
	sp.out_max = max;
	sp.flags = PROC_SEARCH_PATH | PROC_GROUP | PROC_PARENT_DEATH | PROC_STDERR_NULL;
	if (!(p = proc_start(&sp, NULL))) {
		tps_fail(why, whylen, "cannot start: %s", strerror(errno));
		goto out;
	}
	if (!(ended = proc_wait(p, timeout_s * 1000)))
		proc_stop(p, 0.5);
	/* The flood first: a child that went on after the file-size limit refused
	 * its writes ends by the deadline or its own error, for the same reason. */
	if (fstat(fd, &st) == 0 && (size_t)st.st_size >= max) {
		if (max % (1u << 20))
			tps_fail(why, whylen, "printed more than %zu bytes", max);
		else
			tps_fail(why, whylen, "printed more than %zu MiB", max >> 20);
		goto out;
	}
	if (!ended) {
		if (proc_interrupted())
			tps_fail(why, whylen, "interrupted");
		else
			tps_fail(why, whylen, "timed out after %g s", timeout_s);
		goto out;
	}
	if (proc_exec_errno(p)) {
		tps_fail(why, whylen, "cannot execute: %s", strerror(proc_exec_errno(p)));
		goto out;
	}
	if (proc_end(p, &code) != PROC_EXITED || code != 0) {
		tps_fail(why, whylen, "%s", proc_state(p));
		goto out;
	}
	buf = tps_xmalloc(max + 1);
	while (got < max && (n = read(fd, buf + got, max - got)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			tps_fail(why, whylen, "cannot read its output: %s", strerror(errno));
			goto out;
		}
		got += (size_t)n;
	}
	buf[got] = '\0';
	if (len)
		*len = got;
	ok = 1;
out:
	proc_free(p);
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	free(path);
	if (!ok) {
		free(buf);
		buf = NULL;
	}
	return buf;
}

char *proc_capture(char *const *argv, double timeout_s, size_t max, size_t *len)
{
	return proc_capture_why(argv, timeout_s, max, len, NULL, 0);
}
