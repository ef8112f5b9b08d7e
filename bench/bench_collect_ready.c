/* bench_collect_ready.c: how long after a server's /health turns 200 the collector
 * sees it. tests/fault_server.py in slow-load mode logs the CLOCK_MONOTONIC time at
 * which it flips; server_wait_ready() reports the same clock when it saw the flip.
 * Usage: bench_collect_ready <fault_server.py> [<runs> [<port>]] */
#include "collect/http.h"
#include "collect/server.h"
#include "tpsdb.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The flip time the fault server logged, in ms, or -1. */
static double flip_ms(const char *log)
{
	static const char key[] = "health flips to 200 at monotonic ";
	char *text = tps_read_file(log, NULL), *p;
	double v = -1;

	if (text && (p = strstr(text, key)))
		v = strtod(p + strlen(key), NULL) * 1000;
	free(text);
	return v;
}

int main(int argc, char **argv)
{
	int runs = argc > 2 ? atoi(argv[2]) : 20, port = argc > 3 ? atoi(argv[3]) : 22000;
	char dir[] = "/tmp/tpsdb-bench-ready-XXXXXX", log[128], url[64], secs[32], portstr[16];
	double *lat = NULL;
	int n = 0, ret = 1;

	if (argc < 2 || runs < 1) {
		fprintf(stderr, "usage: bench_collect_ready <fault_server.py> [<runs> [<port>]]\n");
		return 2;
	}
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	http_global_init();
	lat = tps_xcalloc((size_t)runs, sizeof(*lat));
	snprintf(log, sizeof(log), "%s/server.log", dir);
	snprintf(portstr, sizeof(portstr), "%d", port);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", port);
	for (int i = 0; i < runs; i++) {
		/* Vary the load time so the flip does not lock to the 10 ms poll phase. */
		snprintf(secs, sizeof(secs), "%.4f", 0.3 + 0.0037 * i);
		char *sargv[] = { "python3", argv[1], "--port", portstr, "--fault", "slow-load",
				  "--load-seconds", secs, "--lifetime", "30", NULL };
		struct server *s = server_start(sargv, NULL, NULL, log);
		struct http *h = http_new(url);
		char why[256];
		double seen = 0, flip;

		if (!s || !h || server_wait_ready(h, s, 20, &seen, NULL, NULL, why, sizeof(why)) < 0) {
			fprintf(stderr, "bench_collect_ready: run %d: %s\n", i, s && h ? why : "no start");
			server_free(s);
			http_free(h);
			goto out;
		}
		flip = flip_ms(log);
		server_free(s);
		http_free(h);
		if (flip < 0) {
			fprintf(stderr, "bench_collect_ready: no flip time in the log\n");
			goto out;
		}
		lat[n++] = seen - flip;
	}
	qsort(lat, (size_t)n, sizeof(*lat), cmp_double);
	printf("readiness latency over %d starts: median %.2f ms, min %.2f ms, max %.2f ms\n", n,
	       n % 2 ? lat[n / 2] : (lat[n / 2 - 1] + lat[n / 2]) / 2, lat[0], lat[n - 1]);
	ret = 0;
out:
	unlink(log);
	rmdir(dir);
	free(lat);
	return ret;
}
