/* test_collect_server.c: starting and stopping server processes: the log file gets
 * their output, stop ends the whole process group (a child the server forked
 * included), an exec failure shows in the log, the log tail and the port probe. */
#include "collect/http.h"
#include "collect/server.h"
#include "tpsdb.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/child_fixture.h"

static int setup(void **state)
{
	*state = child_fixture_new("server", "server.log");
	return 0;
}

static void test_collect_server_stop_group(void **state)
{
	struct child_fixture *f = *state;
	/* The shell forks a grandchild in the same group, as some servers do. */
	char *argv[] = { "sh", "-c", "echo started $HOME $CUDA_VISIBLE_DEVICES; sleep 300 & "
			 "echo child $!; wait", NULL };
	struct server *s = server_start(argv, "7", "/nonexistent-home", f->out);
	char *tail = NULL;
	pid_t pid, child = 0;
	double t0;

	assert_non_null(s);
	pid = server_pid(s);
	assert_int_equal(getpgid(pid), pid);
	for (int i = 0; i < 200 && !child; i++) {
		free(tail);
		tail = server_log_tail(f->out, 4096, 10);
		if (strstr(tail, "child "))
			child = (pid_t)atoi(strstr(tail, "child ") + 6);
		usleep(10000);
	}
	assert_true(child > 0);
	assert_non_null(strstr(tail, "started /nonexistent-home 7"));
	free(tail);
	assert_int_equal(server_exited(s), 0);
	assert_string_equal(server_state(s), "running");
	t0 = tps_mono_ms();
	server_stop(s, 5);
	/* sh dies of SIGTERM at once; the grandchild went with the group. */
	assert_true(tps_mono_ms() - t0 < 4000);
	assert_int_equal(server_exited(s), 1);
	assert_string_equal(server_state(s), "killed by signal 15");
	assert_true(child_fixture_ended(child));
	server_stop(s, 5); /* idempotent */
	server_free(s);
	server_free(NULL);
}

static void test_collect_server_exec_failure(void **state)
{
	struct child_fixture *f = *state;
	char *argv[] = { "/nonexistent/llama-server", "--port", "1", NULL };
	struct server *s = server_start(argv, NULL, NULL, f->out);
	char *tail;

	assert_non_null(s);
	assert_int_equal(server_wait_exit(s, 5000), 1);
	assert_string_equal(server_state(s), "exited with status 127");
	tail = server_log_tail(f->out, 4096, 5);
	assert_string_equal(tail, "tpsdb: cannot execute '/nonexistent/llama-server': "
			    "No such file or directory");
	free(tail);
	server_free(s);
}

static void test_collect_server_wait_ready_exit(void **state)
{
	struct child_fixture *f = *state;
	char *argv[] = { "sh", "-c", "echo loading; exit 4", NULL };
	struct server *s = server_start(argv, NULL, NULL, f->out);
	struct http *h;
	char why[256];

	http_global_init();
	h = http_new("http://127.0.0.1:1");
	assert_non_null(s);
	assert_non_null(h);
	assert_int_equal(server_wait_ready(h, s, 30, NULL, NULL, NULL, why, sizeof(why)), -1);
	assert_string_equal(why, "the server exited with status 4 before it was ready");
	http_free(h);
	server_free(s);
}

static void test_collect_server_log_tail(void **state)
{
	struct child_fixture *f = *state;
	FILE *fp = fopen(f->out, "w");
	char *t;

	for (int i = 1; i <= 30; i++)
		fprintf(fp, "line %d\n", i);
	fputs("\n\n", fp);
	fclose(fp);
	t = server_log_tail(f->out, 4096, 3);
	assert_string_equal(t, "line 28\nline 29\nline 30");
	free(t);
	/* The cut first line of a read from the middle is dropped. */
	t = server_log_tail(f->out, 12, 100);
	assert_string_equal(t, "line 30");
	free(t);
	t = server_log_tail("/nonexistent/log", 100, 3);
	assert_string_equal(t, "");
	free(t);
}

static void test_collect_server_port_free(void **state)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	(void)state;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(fd, 1), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	assert_int_equal(server_port_free(ntohs(a.sin_port)), 0);
	close(fd);
	assert_int_equal(server_port_free(ntohs(a.sin_port)), 1);
}

/* A port whose last server closed a connection itself (as llama-server does after
 * each streamed answer) keeps it in TIME_WAIT: taken, for an engine that binds
 * without SO_REUSEADDR would fail there. */
static void test_collect_server_port_time_wait(void **state)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int one = 1, lfd = socket(AF_INET, SOCK_STREAM, 0), cfd = socket(AF_INET, SOCK_STREAM, 0);
	int sfd;
	char c;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)), 0);
	assert_int_equal(bind(lfd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(lfd, 1), 0);
	assert_int_equal(getsockname(lfd, (struct sockaddr *)&a, &len), 0);
	assert_int_equal(connect(cfd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_true((sfd = accept(lfd, NULL, NULL)) >= 0);
	close(sfd);                 /* the server closes first ... */
	assert_int_equal(read(cfd, &c, 1), 0);
	close(cfd);                 /* ... the client answers the FIN */
	close(lfd);
	assert_int_equal(server_port_free(ntohs(a.sin_port)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_collect_server_stop_group, setup,
						child_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_collect_server_exec_failure, setup,
						child_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_collect_server_wait_ready_exit, setup,
						child_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_collect_server_log_tail, setup,
						child_fixture_teardown),
		cmocka_unit_test(test_collect_server_port_free),
		cmocka_unit_test(test_collect_server_port_time_wait),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
