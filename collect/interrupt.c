/* interrupt.c: the collector's signal flag. Handlers set it and nothing else; the
 * libcurl progress callback, the polling loops in server.c and, through
 * proc_interrupt_flag(), every wait on a child in proc.c read it. */
#include "collect/interrupt.h"
#include "proc.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t pending;
static int installed;
static struct sigaction saved[4];
static const int sigs[4] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

static void on_signal(int sig)
{
	if (!pending)
		pending = sig;
}

void interrupt_install(void)
{
	struct sigaction sa;
	int i;

	if (!installed)
		pending = 0;
	for (i = 0; i < 4; i++) {
		memset(&sa, 0, sizeof(sa));
		sigemptyset(&sa.sa_mask);
		/* No SA_RESTART: a blocking wait returns EINTR and rechecks the flag. */
		sa.sa_handler = sigs[i] == SIGPIPE ? SIG_IGN : on_signal;
		sigaction(sigs[i], &sa, installed ? NULL : &saved[i]);
	}
	/* A child that hangs (nvidia-smi on a wedged driver, an engine's --help) is
	 * stopped as soon as a signal comes, not at its deadline. */
	proc_interrupt_flag(&pending);
	installed = 1;
}

void interrupt_restore(void)
{
	int i;

	if (!installed)
		return;
	for (i = 0; i < 4; i++)
		sigaction(sigs[i], &saved[i], NULL);
	proc_interrupt_flag(NULL);
	installed = 0;
}

int interrupt_pending(void)
{
	return pending;
}

int interrupt_sleep_ms(double ms)
{
	struct timespec ts;

	if (pending)
		return -1;
	if (ms <= 0)
		return 0;
	ts.tv_sec = (time_t)(ms / 1000);
	ts.tv_nsec = (long)((ms - (double)ts.tv_sec * 1000) * 1e6);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
		if (pending)
			return -1;
	}
	return pending ? -1 : 0;
}
