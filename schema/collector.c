/* collector.c: a collector's identity (host name, boot id, pid, start time) read
 * from /proc, and the test that such a process no longer exists. The store's SQL
 * reaches the test through the function tps_collector_gone(), registered on every
 * connection (store.c), so each loader sees an orphaned run as interrupted. */
#include "schema/collector.h"
#include "tpsdb.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* The first line of a small file, without its newline; NULL when unreadable.
 * Caller frees. */
static char *read_line(const char *path)
{
	char buf[256];
	FILE *f = fopen(path, "re");
	char *ret = NULL;

	if (!f)
		return NULL;
	if (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		if (*buf)
			ret = tps_xstrdup(buf);
	}
	fclose(f);
	return ret;
}

/* Field 22 (starttime) of /proc/<pid>/stat, or TPS_NULL when there is no such
 * process (or no /proc). The command name (field 2) may hold spaces and ')', so
 * the fields are counted from its last ')'. */
static int64_t start_time(long pid)
{
	char path[64], buf[1024];
	FILE *f;
	size_t n;
	char *p;
	int field;
	int64_t ret = TPS_NULL;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "re")))
		return TPS_NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (!(p = strrchr(buf, ')')))
		return TPS_NULL;
	p++;
	for (field = 3; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (p) {
		long long v;
		if (sscanf(p, " %lld", &v) == 1 && v >= 0)
			ret = v;
	}
	return ret;
}

static char *host_name(void)
{
	char buf[256];

	if (gethostname(buf, sizeof(buf)) < 0)
		return NULL;
	buf[sizeof(buf) - 1] = '\0';
	return tps_xstrdup(buf);
}

void collector_self(struct run_rec *r)
{
	free(r->collector_host);
	free(r->collector_boot);
	r->collector_host = host_name();
	r->collector_boot = read_line("/proc/sys/kernel/random/boot_id");
	r->collector_pid = (int64_t)getpid();
	r->collector_start = start_time((long)getpid());
}

int collector_gone(const char *host, const char *boot, int64_t pid, int64_t start)
{
	char *me = NULL, *my_boot = NULL;
	int64_t now;
	int ret = 0;

	if (!host || pid == TPS_NULL || pid < 1 || pid > INT32_MAX)
		return 0;
	me = host_name();
	if (!me || strcmp(me, host))
		goto out; /* another machine: nothing to tell from here */
	my_boot = read_line("/proc/sys/kernel/random/boot_id");
	if (boot && my_boot && strcmp(boot, my_boot)) {
		ret = 1; /* rebooted since: every process of then is gone */
		goto out;
	}
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH) {
		ret = 1;
		goto out;
	}
	/* A live pid: the same process only if it started when the collector did. */
	now = start_time((long)pid);
	if (start != TPS_NULL && now != TPS_NULL && now != start)
		ret = 1;
out:
	free(me);
	free(my_boot);
	return ret;
}
