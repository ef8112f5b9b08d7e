/* proc.h: the one way tpsdb runs a child process, for the engines that
 * collect/server.c starts and for gnuplot (reports/plot_run.c). A child reads
 * /dev/null, writes both output streams into one file, holds no descriptor of ours
 * and gets back the default for every signal tpsdb handles or ignores; waiting,
 * signalling and reaping go through here, so a child is never lost or reaped twice. */
#ifndef PROC_H
#define PROC_H

#include <signal.h>
#include <sys/types.h>

enum proc_flags {
	/* argv[0] is searched in $PATH, and run by /bin/sh when the kernel refuses
	 * its format (execvpe), as llamafile's APE binaries may need; otherwise it is
	 * the path of the program and argv[0] only its name. */
	PROC_SEARCH_PATH = 1 << 0,
	/* A process group of its own (set on both sides of fork, so a signal sent at
	 * once cannot miss it); proc_kill() and proc_stop() then signal the group. */
	PROC_GROUP = 1 << 1,
	/* The kernel sends the child SIGTERM should tpsdb die first. */
	PROC_PARENT_DEATH = 1 << 2,
	/* SIGXFSZ at its default (main.c ignores it): a file-size limit kills the
	 * child rather than leaving it to write a cut file that looks whole. */
	PROC_FSIZE_KILLS = 1 << 3,
	/* stderr to /dev/null: out_path holds stdout alone. */
	PROC_STDERR_NULL = 1 << 4,
};

struct proc_spec {
	char *const *argv;        /* argv[0]: see PROC_SEARCH_PATH */
	const char *path;         /* the program when not PROC_SEARCH_PATH; NULL: argv[0] */
	const char *const *env_set; /* NULL-ended "NAME=value" entries replacing or
				       adding to the environment; NULL: environ as is */
	const char *out_path;     /* stdout and stderr, created or truncated; NULL: ours */
	int out_mode;             /* its mode when created (0644, 0600) */
	size_t out_max;           /* not 0: the child may write no more than this to a
				     file (RLIMIT_FSIZE, SIGXFSZ at its default): a
				     write past it kills the child */
	int flags;                /* enum proc_flags */
};

/* How proc_start() failed, for the caller's error line. */
enum proc_fail {
	PROC_FAIL_OUTPUT = 1, /* out_path could not be opened */
	PROC_FAIL_FORK,       /* fork, or the pipe made for it, failed */
};

struct proc;

/* Starts the child of spec and waits until it has executed its program or failed
 * to. Returns the child, which the caller frees with proc_free(); or NULL with
 * errno set and, when failed is not NULL, *failed saying which step failed; prints
 * nothing. A program that cannot be executed is not a NULL: the child writes
 * "tpsdb: cannot execute '<argv[0]>': <reason>" to its output and exits 127, and
 * proc_exec_errno() gives the reason. Between fork and exec the child only makes
 * system calls: everything it needs is built first. */
struct proc *proc_start(const struct proc_spec *spec, enum proc_fail *failed);

/* The process id (with PROC_GROUP, also the process group id). */
pid_t proc_pid(const struct proc *p);
/* The errno of a failed exec (the child then exited 127), 0 when it executed. */
int proc_exec_errno(const struct proc *p);

/* 1 when the child has ended (it is reaped then; a pid that is no longer our
 * child counts as ended), 0 while it runs. Never blocks. */
int proc_exited(struct proc *p);
/* Waits up to ms milliseconds (forever when ms < 0) for the child to end, and
 * keeps waiting through signals, looking at the interrupt flag (below) at least
 * every POLL_MAX_MS: 1 ended, 0 still running (the deadline passed, or the flag
 * is set: proc_interrupted() tells which). */
int proc_wait(struct proc *p, double ms);

/* The most a stop gives a child between SIGTERM and SIGKILL once the interrupt
 * flag is set: a signal is answered within a second, and `docker stop` sends
 * SIGKILL 10 s after SIGTERM. */
#define PROC_INTERRUPT_GRACE_S 0.5
/* The interrupt flag: once *flag is not 0 (a signal handler set it), every wait
 * on a child returns, proc_capture() starts nothing and stops what it started,
 * and proc_stop() gives a child at most PROC_INTERRUPT_GRACE_S. collect/interrupt.c
 * sets it while its handlers are installed; NULL (the start): no flag. */
void proc_interrupt_flag(const volatile sig_atomic_t *flag);
/* 1 when the interrupt flag is set. */
int proc_interrupted(void);

enum proc_end {
	PROC_RUNNING,
	PROC_EXITED,   /* *code: its exit status */
	PROC_SIGNALED, /* *code: the signal that killed it */
	PROC_GONE,     /* waitpid() refused it (*code: the errno): not our child */
};
/* How the child ended, as far as proc_exited() knows now; code may be NULL. */
enum proc_end proc_end(struct proc *p, int *code);
/* "exited with status 1", "killed by signal 9", "gone (<reason>)" or "running";
 * borrowed until the next call on p. */
const char *proc_state(struct proc *p);

/* Sends sig to the child's group with PROC_GROUP (whose id outlives the leader
 * while anything it forked lives), else to the child until it is reaped. */
void proc_kill(struct proc *p, int sig);
/* SIGTERM, up to grace_s (at most PROC_INTERRUPT_GRACE_S once the interrupt flag
 * is set) for the child to end, then SIGKILL and up to 5 s more; reaps it, waiting
 * through the flag. With PROC_GROUP the group gets both signals and a last SIGKILL even
 * after the leader is gone, for what it forked. Idempotent; accepts NULL. */
void proc_stop(struct proc *p, double grace_s);
/* Stops (with a 10 s grace) and frees; accepts NULL. */
void proc_free(struct proc *p);

/* Runs argv[0] (searched in $PATH) with no input, its stdout into a temporary
 * file and its stderr dropped, in a process group of its own, and waits up to
 * timeout_s for it: its output (NUL-ended, at most max bytes; *len its length
 * when len is not NULL; caller frees) when it exited 0, else NULL: it could not
 * start, failed, wrote more than max bytes (it is killed by the file-size limit
 * at max, so the temporary file never grows past it), or ran past the deadline
 * or into the interrupt flag, when it and its group are stopped (a wedged driver
 * makes nvidia-smi hang for ever); with the flag set already it starts nothing.
 * Prints nothing. */
char *proc_capture(char *const *argv, double timeout_s, size_t max, size_t *len);
/* proc_capture() that says why it gave NULL, in why (when not NULL): "printed
 * more than <max> bytes|MiB" (the output reached max, whatever ended the child then),
 * "timed out after <s> s", "cannot execute: <reason>", "exited with status <n>",
 * "killed by signal <n>", or "cannot start|make|read ...: <strerror>". */
char *proc_capture_why(char *const *argv, double timeout_s, size_t max, size_t *len, char *why,
		       size_t whylen);

#endif
