/* test_proc.c: the one child-process runner: exit status and state, a child killed
 * by a signal, output captured in a file (and stdin from /dev/null), a missing
 * program, the environment entries set, a timeout kept, the process group stopped
 * whole, nothing of ours inherited, and every wait cut short by the interrupt flag. */
#include "proc.h"
#include "tpsdb.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/child_fixture.h"

static int setup(void **state)
{
	*state = child_fixture_new("proc", "out.log");
	return 0;
}

/* sh -c script, its output into f->out. */
static struct proc *run_sh(struct child_fixture *f, const char *script, int flags,
			   const char *const *env_set)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	struct proc_spec sp = { 0 };

	sp.argv = argv;
	sp.env_set = env_set;
	sp.out_path = f->out;
	sp.out_mode = 0600;
	sp.flags = PROC_SEARCH_PATH | flags;
	return proc_start(&sp, NULL);
}

static char *output(struct child_fixture *f)
{
	char *text = tps_read_file(f->out, NULL);

	assert_non_null(text);
	return text;
}

static void test_proc_exit_status(void **state)
{
	static const struct {
		const char *script;
		int code;
		const char *state;
	} cases[] = {
		{ "exit 0", 0, "exited with status 0" },
		{ "exit 3", 3, "exited with status 3" },
		{ "exit 255", 255, "exited with status 255" },
		{ "true", 0, "exited with status 0" },
	};
	struct child_fixture *f = *state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct proc *p = run_sh(f, cases[i].script, 0, NULL);
		int code = -1;

		assert_non_null(p);
		assert_int_equal(proc_exec_errno(p), 0);
		assert_int_equal(proc_wait(p, 5000), 1);
		assert_int_equal(proc_end(p, &code), PROC_EXITED);
		assert_int_equal(code, cases[i].code);
		assert_string_equal(proc_state(p), cases[i].state);
		assert_int_equal(proc_exited(p), 1); /* reaped once, asked again */
		proc_free(p);
	}
}

static void test_proc_killed(void **state)
{
	struct child_fixture *f = *state;
	struct proc *p = run_sh(f, "exec sleep 30", 0, NULL);
	double t0 = tps_mono_ms();
	int code = 0;

	assert_non_null(p);
	assert_int_equal(proc_exited(p), 0);
	assert_int_equal(proc_end(p, &code), PROC_RUNNING);
	assert_string_equal(proc_state(p), "running");
	/* A timeout is kept: the wait gives up, the child still runs. */
	assert_int_equal(proc_wait(p, 50), 0);
	assert_true(tps_mono_ms() - t0 < 2000);
	proc_kill(p, SIGKILL);
	assert_int_equal(proc_wait(p, -1), 1);
	assert_int_equal(proc_end(p, &code), PROC_SIGNALED);
	assert_int_equal(code, SIGKILL);
	assert_string_equal(proc_state(p), "killed by signal 9");
	proc_kill(p, SIGKILL); /* reaped: signals nobody */
	proc_free(p);
}

static void test_proc_output(void **state)
{
	struct child_fixture *f = *state;
	/* Both streams, in order, and stdin at end-of-file at once. */
	struct proc *p = run_sh(f, "echo out; echo err >&2; read x || echo eof; exit 2", 0, NULL);
	struct stat st;
	char *text;

	assert_non_null(p);
	assert_int_equal(proc_wait(p, 5000), 1);
	text = output(f);
	assert_string_equal(text, "out\nerr\neof\n");
	free(text);
	assert_int_equal(stat(f->out, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	proc_free(p);
	/* The file is truncated for the next child. */
	p = run_sh(f, "printf x", 0, NULL);
	assert_non_null(p);
	assert_int_equal(proc_wait(p, 5000), 1);
	text = output(f);
	assert_string_equal(text, "x");
	free(text);
	proc_free(p);
}

static void test_proc_missing_binary(void **state)
{
	struct child_fixture *f = *state;
	char *argv[] = { "gnuplot", "x.gp", NULL };
	char *argv2[] = { "/nonexistent/llama-server", NULL };
	struct proc_spec sp = { 0 };
	struct proc *p;
	enum proc_fail failed = 0;
	char *text;
	int code = 0;

	/* A path that is not there: the reason comes back, the child exits 127. */
	sp.argv = argv;
	sp.path = "/nonexistent/gnuplot";
	sp.out_path = f->out;
	sp.out_mode = 0600;
	p = proc_start(&sp, &failed);
	assert_non_null(p);
	assert_int_equal(proc_exec_errno(p), ENOENT);
	assert_int_equal(proc_wait(p, 5000), 1);
	assert_int_equal(proc_end(p, &code), PROC_EXITED);
	assert_int_equal(code, 127);
	text = output(f);
	assert_string_equal(text, "tpsdb: cannot execute 'gnuplot': No such file or directory\n");
	free(text);
	proc_free(p);

	/* The same through $PATH's search. */
	sp.argv = argv2;
	sp.path = NULL;
	sp.flags = PROC_SEARCH_PATH | PROC_GROUP;
	p = proc_start(&sp, &failed);
	assert_non_null(p);
	assert_int_equal(proc_exec_errno(p), ENOENT);
	assert_int_equal(proc_wait(p, 5000), 1);
	assert_string_equal(proc_state(p), "exited with status 127");
	proc_free(p);

	/* An output file that cannot be opened: NULL, and which step failed. */
	sp.out_path = "/nonexistent/dir/out.log";
	errno = 0;
	assert_null(proc_start(&sp, &failed));
	assert_int_equal(failed, PROC_FAIL_OUTPUT);
	assert_int_equal(errno, ENOENT);
}

static void test_proc_env_set(void **state)
{
	struct child_fixture *f = *state;
	static const char *const set[] = { "HOME=/nonexistent-home", "TPSDB_PROC_T=a=b", NULL };
	struct proc *p;
	char *text;

	setenv("TPSDB_PROC_T", "old", 1);
	p = run_sh(f, "echo \"$HOME|$TPSDB_PROC_T\"; env | grep -c '^TPSDB_PROC_T='", 0, set);
	assert_non_null(p);
	assert_int_equal(proc_wait(p, 5000), 1);
	text = output(f);
	assert_string_equal(text, "/nonexistent-home|a=b\n1\n");
	free(text);
	proc_free(p);
	unsetenv("TPSDB_PROC_T");
}

static void test_proc_group_stop(void **state)
{
	struct child_fixture *f = *state;
	/* The shell forks a grandchild in its group, which the stop must end too. */
	struct proc *p = run_sh(f, "sleep 300 & echo $!; wait", PROC_GROUP | PROC_PARENT_DEATH,
				NULL);
	pid_t child = 0;
	double t0;

	assert_non_null(p);
	assert_int_equal(getpgid(proc_pid(p)), proc_pid(p));
	for (int i = 0; i < 500 && !child; i++) {
		char *text = output(f);
		child = (pid_t)atoi(text);
		free(text);
		if (!child)
			usleep(10000);
	}
	assert_true(child > 0);
	assert_int_equal(getpgid(child), proc_pid(p));
	t0 = tps_mono_ms();
	proc_stop(p, 5);
	assert_true(tps_mono_ms() - t0 < 4000);
	assert_string_equal(proc_state(p), "killed by signal 15");
	assert_true(child_fixture_ended(child));
	proc_stop(p, 5); /* idempotent */
	proc_free(p);
	proc_free(NULL);
}

/* The interrupt flag (collect's signal flag, handed down by collect/interrupt.c):
 * once set, a wait on a child returns at once whatever its deadline, a stop gives
 * a child that ignores SIGTERM PROC_INTERRUPT_GRACE_S, not its grace, and
 * proc_capture() starts nothing. The bounds only guard against a hang. */
static void test_proc_interrupt(void **state)
{
	static volatile sig_atomic_t flag;
	struct child_fixture *f = *state;
	struct proc *p = run_sh(f, "trap '' TERM; echo ready; exec sleep 30", PROC_GROUP, NULL);
	char *ran = tps_xasprintf("%s/ran", f->dir);
	char *script = tps_xasprintf("touch '%s'", ran);
	char *argv[] = { "sh", "-c", script, NULL };
	char *out, *text = NULL;
	double t0;

	assert_non_null(p);
	for (int i = 0; i < 500; i++) { /* the trap is set before the signal comes */
		free(text);
		text = output(f);
		if (!strcmp(text, "ready\n"))
			break;
		usleep(10000);
	}
	assert_string_equal(text, "ready\n");
	free(text);
	flag = 0;
	proc_interrupt_flag(&flag);
	assert_int_equal(proc_interrupted(), 0);
	assert_int_equal(proc_wait(p, 20), 0); /* the deadline, the flag not set */
	flag = SIGTERM;
	assert_int_equal(proc_interrupted(), 1);
	t0 = tps_mono_ms();
	assert_int_equal(proc_wait(p, 30000), 0);
	assert_int_equal(proc_wait(p, -1), 0);
	assert_true(tps_mono_ms() - t0 < 2000);
	proc_stop(p, 30);
	assert_true(tps_mono_ms() - t0 < 5000);
	assert_string_equal(proc_state(p), "killed by signal 9");
	assert_null(proc_capture(argv, 30, 1024, NULL));
	assert_int_equal(access(ran, F_OK), -1);
	proc_interrupt_flag(NULL);
	assert_int_equal(proc_interrupted(), 0);
	out = proc_capture(argv, 30, 1024, NULL);
	assert_non_null(out);
	assert_int_equal(access(ran, F_OK), 0);
	unlink(ran);
	free(out);
	free(script);
	free(ran);
	proc_free(p);
}

static void test_proc_no_fd_leak(void **state)
{
	struct child_fixture *f = *state;
	int fd = open("/dev/null", O_RDONLY); /* not close-on-exec */
	char *script = tps_xasprintf("[ -e /proc/self/fd/%d ] && echo leaked || echo closed", fd);
	struct proc *p;
	char *text;

	assert_true(fd > 2); /* not stdin, stdout or stderr (valgrind gives 3) */
	p = run_sh(f, script, 0, NULL);
	assert_non_null(p);
	assert_int_equal(proc_wait(p, 5000), 1);
	text = output(f);
	assert_string_equal(text, "closed\n");
	free(text);
	free(script);
	proc_free(p);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_proc_exit_status, setup,
						child_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_proc_killed, setup,
						child_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_proc_output, setup,
						child_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_proc_missing_binary, setup,
						child_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_proc_env_set, setup,
						child_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_proc_group_stop, setup,
						child_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_proc_no_fd_leak, setup,
						child_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_proc_interrupt, setup,
						child_fixture_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
