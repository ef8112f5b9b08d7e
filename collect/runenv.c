/* runenv.c: recording a run's environment (runenv.h). The parsers and the
 * decision at the top are pure; the recorder below reads /proc, runs nvidia-smi
 * (a missing tool is no error: the GPU facts are then left out) and keeps a
 * sampler (nvidia-smi -lms) running in its own process group while the run
 * measures. */
#include "collect/runenv.h"
#include "collect/interrupt.h"
#include "collect/provenance.h"
#include "collect/server.h"
#include "proc.h"
#include "schema/json_strict.h"
#include "schema/record.h"
#include "tpsdb.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define RUNENV_SAMPLE_MS 250
#define RUNENV_LOG_MAX (64u << 20)

/* ---- parsers ---------------------------------------------------------------- */

static const char *find_in(const char *line, const char *end, const char *needle)
{
	size_t n = strlen(needle);
	const char *p;

	for (p = line; p + n <= end; p++) {
		if (!memcmp(p, needle, n))
			return p;
	}
	return NULL;
}

static void log_line(const char *line, const char *end, struct runenv_log *o)
{
	const char *p;
	char buf[256];
	size_t n = (size_t)(end - line);

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, line, n);
	buf[n] = '\0';
	if ((p = strstr(buf, "offloaded "))) {
		int a, b;
		if (sscanf(p, "offloaded %d/%d layers to GPU", &a, &b) == 2 && a >= 0 && b >= 0) {
			o->layers_offloaded = a;
			o->layers_total = b;
		}
	} else if ((p = strstr(buf, " KV buffer size = "))) {
		/* "llama_kv_cache:      CUDA0 KV buffer size =   256.00 MiB" */
		const char *q = p, *colon = strchr(buf, ':');
		char name[32], *fixed;
		double mib;
		size_t nl;

		if (!colon || colon > p || sscanf(p, " KV buffer size = %lf MiB", &mib) != 1 ||
		    !(mib >= 0))
			return;
		while (q > colon + 1 && q[-1] != ' ')
			q--;
		nl = (size_t)(p - q);
		if (!nl || nl >= sizeof(name))
			return;
		memcpy(name, q, nl);
		name[nl] = '\0';
		if (!strncmp(name, "CPU", 3) || strstr(name, "Host") || strstr(name, "HOST"))
			o->kv_host_mib = (isnan(o->kv_host_mib) ? 0 : o->kv_host_mib) + mib;
		else
			o->kv_gpu_mib = (isnan(o->kv_gpu_mib) ? 0 : o->kv_gpu_mib) + mib;
		/* A log says anything: the name goes into run.env, which must be UTF-8
		 * (RELIABILITY.md), so a bad byte becomes U+FFFD here, where it enters. */
		fixed = json_utf8_repair(name, nl);
		nl = strlen(fixed);
		if (!strstr(o->kv_buffers, fixed) &&
		    strlen(o->kv_buffers) + nl + 2 < sizeof(o->kv_buffers)) {
			if (*o->kv_buffers)
				strcat(o->kv_buffers, " ");
			strcat(o->kv_buffers, fixed);
		}
		free(fixed);
	} else if ((p = strstr(buf, "load time = "))) {
		double ms;
		if (sscanf(p, "load time = %lf ms", &ms) == 1 && ms >= 0)
			o->load_ms = ms;
	} else if ((p = strstr(buf, "graphs reused = "))) {
		long long g;
		if (sscanf(p, "graphs reused = %lld", &g) == 1 && g >= 0)
			o->graphs_reused = g;
	}
}

void runenv_log_parse(const char *text, size_t len, struct runenv_log *o)
{
	const char *p = text, *end = text + len, *nl;

	memset(o, 0, sizeof(*o));
	o->layers_offloaded = o->layers_total = -1;
	o->kv_gpu_mib = o->kv_host_mib = o->load_ms = NAN;
	o->graphs_reused = -1;
	while (text && p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (find_in(p, nl, "offloaded ") || find_in(p, nl, "KV buffer size") ||
		    find_in(p, nl, "load time") || find_in(p, nl, "graphs reused"))
			log_line(p, nl, o);
		p = nl + 1;
	}
}

/* The next comma-separated field of *s, trimmed, NUL-terminated in place. */
static char *field(char **s)
{
	char *f = *s, *e;

	if (!f)
		return NULL;
	e = strchr(f, ',');
	if (e) {
		*e = '\0';
		*s = e + 1;
	} else {
		*s = NULL;
	}
	while (isspace((unsigned char)*f))
		f++;
	e = f + strlen(f);
	while (e > f && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return f;
}

static double fnum(const char *f)
{
	char *end;
	double v;

	if (!f || !*f)
		return NAN;
	v = strtod(f, &end);
	return end != f && !*end && isfinite(v) ? v : NAN;
}

void runenv_gpu_parse(const char *text, struct runenv_gpu_sample **out, size_t *n)
{
	char *copy = tps_xstrdup(text ? text : ""), *line, *save = NULL;

	*out = NULL;
	*n = 0;
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct runenv_gpu_sample g;
		char *s = line, *f[8], *end;
		int i;

		for (i = 0; i < 8; i++)
			f[i] = field(&s);
		if (!f[7] || isnan(fnum(f[0])))
			continue;
		memset(&g, 0, sizeof(g));
		g.index = (int)fnum(f[0]);
		snprintf(g.uuid, sizeof(g.uuid), "%s", f[1]);
		g.util = fnum(f[2]);
		g.sm_mhz = fnum(f[3]);
		g.mem_mhz = fnum(f[4]);
		g.temp_c = fnum(f[5]);
		g.power_w = fnum(f[6]);
		g.throttle = strtoull(f[7], &end, 16);
		if (end == f[7])
			g.throttle = 0;
		*out = tps_xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[(*n)++] = g;
	}
	free(copy);
}

void runenv_apps_parse(const char *text, struct runenv_app **out, size_t *n)
{
	char *copy = tps_xstrdup(text ? text : ""), *line, *save = NULL;

	*out = NULL;
	*n = 0;
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct runenv_app a;
		char *s = line, *pid = field(&s), *uuid = field(&s);
		double v = fnum(pid);

		if (isnan(v) || v <= 0 || !uuid)
			continue;
		a.pid = (long)v;
		snprintf(a.uuid, sizeof(a.uuid), "%s", uuid);
		*out = tps_xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[(*n)++] = a;
	}
	free(copy);
}

/* ---- the facts as JSON ------------------------------------------------------- */

static void put_num(cJSON *o, const char *k, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, round(v * 1000) / 1000);
}

static const char *const throttle_names[] = {
	"gpu-idle", "applications-clocks", "sw-power-cap", "hw-slowdown", "sync-boost",
	"sw-thermal", "hw-thermal", "hw-power-brake", "display-clocks",
};

char *runenv_json(const struct runenv_facts *f)
{
	cJSON *root = cJSON_CreateObject(), *h, *g, *l;
	char *raw, *ret;
	size_t i;

	if (f->wall_s > 0) {
		h = cJSON_AddObjectToObject(root, "host");
		put_num(h, "ncpu", f->ncpu);
		put_num(h, "wall_s", f->wall_s);
		put_num(h, "others_cpu_s", f->others_cpu_s);
		put_num(h, "server_cpu_s", f->server_cpu_s);
		put_num(h, "others_share", f->ncpu > 0 ? f->others_cpu_s / (f->ncpu * f->wall_s) : NAN);
		put_num(h, "server_cpus", f->server_cpu_s / f->wall_s);
		put_num(h, "load1_start", f->load1_start);
		put_num(h, "load1_end", f->load1_end);
		put_num(h, "busy_share", f->busy_share);
	}
	if (f->has_gpu) {
		double smlo = INFINITY, smhi = -INFINITY, mlo = INFINITY, mhi = -INFINITY;
		double tmax = -INFINITY, pmax = -INFINITY;
		uint64_t thr = 0;
		char names[256] = "";
		cJSON *pids;

		g = cJSON_AddObjectToObject(root, "gpu");
		if (f->gpu_index >= 0)
			cJSON_AddNumberToObject(g, "index", f->gpu_index);
		put_num(g, "util_before", f->util_before);
		put_num(g, "util_idle", f->util_idle);
		put_num(g, "idle_wait_ms", f->idle_wait_ms);
		cJSON_AddNumberToObject(g, "other_procs", (double)f->other_procs);
		pids = cJSON_AddArrayToObject(g, "other_pids");
		for (i = 0; i < f->other_procs && i < 8; i++)
			cJSON_AddItemToArray(pids, cJSON_CreateNumber((double)f->other_pids[i]));
		cJSON_AddNumberToObject(g, "samples", (double)f->n_samples);
		for (i = 0; i < f->n_samples; i++) {
			const struct runenv_gpu_sample *s = &f->samples[i];
			thr |= s->throttle;
			if (s->temp_c > tmax)
				tmax = s->temp_c;
			if (s->power_w > pmax)
				pmax = s->power_w;
			if (!(s->util >= RUNENV_BUSY_UTIL))
				continue;
			smlo = fmin(smlo, s->sm_mhz);
			smhi = fmax(smhi, s->sm_mhz);
			mlo = fmin(mlo, s->mem_mhz);
			mhi = fmax(mhi, s->mem_mhz);
		}
		put_num(g, "sm_clock_min", smlo);
		put_num(g, "sm_clock_max", smhi);
		put_num(g, "mem_clock_min", mlo);
		put_num(g, "mem_clock_max", mhi);
		put_num(g, "temp_max", tmax);
		put_num(g, "power_max", pmax);
		for (i = 0; i < sizeof(throttle_names) / sizeof(*throttle_names); i++) {
			if (thr & ~1ull & (1ull << i)) { /* every reason but gpu-idle */
				if (*names)
					strcat(names, ", ");
				strcat(names, throttle_names[i]);
			}
		}
		{
			char hex[24];
			snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)thr);
			cJSON_AddStringToObject(g, "throttle_reasons", hex);
		}
		cJSON_AddStringToObject(g, "throttle", names);
	}
	l = cJSON_AddObjectToObject(root, "log");
	if (f->log.layers_total >= 0) {
		cJSON_AddNumberToObject(l, "layers_offloaded", f->log.layers_offloaded);
		cJSON_AddNumberToObject(l, "layers_total", f->log.layers_total);
	}
	put_num(l, "kv_gpu_mib", f->log.kv_gpu_mib);
	put_num(l, "kv_host_mib", f->log.kv_host_mib);
	if (*f->log.kv_buffers)
		cJSON_AddStringToObject(l, "kv_buffers", f->log.kv_buffers);
	put_num(l, "load_ms", f->log.load_ms);
	if (f->log.graphs_reused >= 0)
		cJSON_AddNumberToObject(l, "graphs_reused", (double)f->log.graphs_reused);
	put_num(root, "ready_ms", f->ready_ms);
	raw = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	ret = tps_xstrdup(raw ? raw : "{}");
	cJSON_free(raw);
	return ret;
}

/* ---- the recorder ------------------------------------------------------------ */

struct runenv {
	double busy_share;
	char *smi;                  /* nvidia-smi's path, NULL when absent */
	const char *throttle_field;
	char *gpu;                  /* CUDA_VISIBLE_DEVICES given to the server */
	pid_t server;
	double t0, t1;              /* monotonic seconds */
	double busy0, busy1;        /* all CPUs' busy seconds */
	double srv0, srv1, self0, self1, sampler_s;
	double load0, load1;
	struct runenv_gpu_sample *before;
	size_t n_before;
	double util_idle, idle_wait_ms; /* the idle check's (NAN: not run) */
	struct runenv_app *apps;
	size_t n_apps;
	struct server *sampler;
	char *csv_path;
	int measured;
};

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *slurp(const char *path, size_t max)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = tps_xmalloc(max + 1);
	n = fread(buf, 1, max, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static double cpu_busy_s(void)
{
	char *t = slurp("/proc/stat", 4096);
	unsigned long long v[8] = { 0 };
	double ret = NAN;

	if (t && sscanf(t, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
			&v[3], &v[4], &v[5], &v[6], &v[7]) == 8)
		ret = (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) /
		      (double)sysconf(_SC_CLK_TCK);
	free(t);
	return ret;
}

/* utime + stime + cutime + cstime of a process, in seconds; NAN when gone. */
static double proc_cpu_s(const char *pid, long *pgrp)
{
	char path[64], *t, *p;
	unsigned long long ut, st, cut, cst;
	long pg;
	double ret = NAN;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	if (!(t = slurp(path, 4096)))
		return NAN;
	if ((p = strrchr(t, ')')) &&
	    sscanf(p + 1, " %*c %*d %ld %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
		   &pg, &ut, &st, &cut, &cst) == 5) {
		ret = (double)(ut + st + cut + cst) / (double)sysconf(_SC_CLK_TCK);
		if (pgrp)
			*pgrp = pg;
	}
	free(t);
	return ret;
}

static double pid_cpu_s(pid_t pid)
{
	char s[32];
	snprintf(s, sizeof(s), "%ld", (long)pid);
	return proc_cpu_s(s, NULL);
}

static double load1(void)
{
	char *t = slurp("/proc/loadavg", 256);
	double v = NAN;

	if (t && sscanf(t, "%lf", &v) != 1)
		v = NAN;
	free(t);
	return v;
}

static char *find_smi(void)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *ret = NULL;

	if (!path)
		return NULL;
	copy = tps_xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir && !ret; dir = strtok_r(NULL, ":", &save)) {
		char *p = tps_xasprintf("%s/nvidia-smi", *dir ? dir : ".");
		if (access(p, X_OK) == 0 && !strchr(p, '\''))
			ret = p;
		else
			free(p);
	}
	free(copy);
	return ret;
}

/* Runs nvidia-smi with args (words split at spaces: fixed option strings) through
 * proc.c with a deadline; its stdout, or NULL when it failed or did not answer in
 * time. Caller frees. */
static char *smi(const struct runenv *e, const char *args)
{
	char *copy = tps_xstrdup(args), *argv[16], *save = NULL, *w, *out;
	size_t n = 0;

	argv[n++] = e->smi;
	for (w = strtok_r(copy, " ", &save); w && n < 15; w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	argv[n] = NULL;
	out = proc_capture(argv, PROVENANCE_SMI_TIMEOUT_S, PROVENANCE_SMI_MAX, NULL);
	free(copy);
	return out;
}

static char *gpu_query(const struct runenv *e, const char *field, const char *extra)
{
	char *args = tps_xasprintf("--query-gpu=index,uuid,utilization.gpu,clocks.sm,clocks.mem,"
				   "temperature.gpu,power.draw,%s --format=csv,noheader,nounits%s",
				   field, extra);
	char *out = smi(e, args);
	free(args);
	return out;
}

struct runenv *runenv_new(const char *gpu)
{
	struct runenv *e = tps_xcalloc(1, sizeof(*e));

	e->busy_share = tps_env_num("TPSDB_HOST_BUSY_PCT", RUNENV_HOST_BUSY_SHARE * 100) / 100;
	e->smi = find_smi();
	e->gpu = gpu ? tps_xstrdup(gpu) : NULL;
	e->server = -1;
	e->util_idle = e->idle_wait_ms = NAN;
	return e;
}

void runenv_before(struct runenv *e)
{
	static const char *const fields[] = { "clocks_throttle_reasons.active",
					      "clocks_event_reasons.active" };
	char *out = NULL;
	size_t i;

	if (!e->smi)
		return;
	for (i = 0; i < 2 && !out; i++) {
		if ((out = gpu_query(e, fields[i], "")))
			e->throttle_field = fields[i];
	}
	if (!out) {
		free(e->smi); /* it answers nothing we can read: no GPU facts */
		e->smi = NULL;
		return;
	}
	runenv_gpu_parse(out, &e->before, &e->n_before);
	free(out);
}

static void list_apps(struct runenv *e)
{
	char *out;
	struct runenv_app *a = NULL;
	size_t n = 0;

	if (!e->smi || !e->throttle_field)
		return;
	out = smi(e, "--query-compute-apps=pid,gpu_uuid --format=csv,noheader");
	runenv_apps_parse(out, &a, &n);
	free(out);
	if (n) {
		e->apps = tps_xrealloc(e->apps, (e->n_apps + n) * sizeof(*e->apps));
		memcpy(e->apps + e->n_apps, a, n * sizeof(*a));
		e->n_apps += n;
	}
	free(a);
}

static int index_of(const struct runenv *e, const char *uuid);

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The run's GPU: where the server computes, else the one it was given, else the
 * only one; -1 when it cannot be told (every GPU is then read). */
static int run_gpu(const struct runenv *e)
{
	size_t i;
	int idx;

	for (i = 0; i < e->n_apps; i++) {
		if (e->apps[i].pid == (long)e->server && (idx = index_of(e, e->apps[i].uuid)) >= 0)
			return idx;
	}
	if (e->gpu && isdigit((unsigned char)*e->gpu))
		return atoi(e->gpu);
	return e->n_before == 1 ? e->before[0].index : -1;
}

/* The idle check (RUNENV_IDLE_*): the server is loaded and has no request, so
 * what the GPU does now is someone else's, once the previous instance's tail and
 * the server's own warm-up have left nvidia-smi's averaging period. */
static void idle_check(struct runenv *e)
{
	double t0 = mono_s(), low = NAN, waited;
	int gpu = run_gpu(e);

	for (;;) {
		struct runenv_gpu_sample *g = NULL;
		size_t n = 0, i;
		char *out = gpu_query(e, e->throttle_field, "");
		double busiest = NAN;

		runenv_gpu_parse(out, &g, &n);
		free(out);
		/* The run's GPU, or when it cannot be told the busiest of a read: an
		 * idle GPU beside a busy one ends nothing. */
		for (i = 0; i < n; i++) {
			if ((gpu < 0 || g[i].index == gpu) && !isnan(g[i].util))
				busiest = isnan(busiest) ? g[i].util : fmax(busiest, g[i].util);
		}
		if (!isnan(busiest))
			low = isnan(low) ? busiest : fmin(low, busiest);
		free(g);
		waited = (mono_s() - t0) * 1000;
		if (!n || low < ENV_GPU_BUSY_UTIL || waited >= RUNENV_IDLE_WAIT_MS)
			break;
		sleep_ms(RUNENV_IDLE_STEP_MS);
	}
	e->util_idle = low;
	e->idle_wait_ms = waited;
}

void runenv_begin(struct runenv *e, pid_t server, const char *gpu_csv_path)
{
	e->server = server;
	e->measured = 1;
	list_apps(e);
	if (e->smi && e->throttle_field)
		idle_check(e);
	e->load0 = load1();
	if (e->smi && e->throttle_field && gpu_csv_path) {
		char fields[256], ms[16];
		char *argv[6];

		snprintf(fields, sizeof(fields), "--query-gpu=index,uuid,utilization.gpu,clocks.sm,"
			 "clocks.mem,temperature.gpu,power.draw,%s", e->throttle_field);
		snprintf(ms, sizeof(ms), "%d", RUNENV_SAMPLE_MS);
		argv[0] = e->smi;
		argv[1] = fields;
		argv[2] = (char *)"--format=csv,noheader,nounits";
		argv[3] = (char *)"-lms";
		argv[4] = ms;
		argv[5] = NULL;
		e->csv_path = tps_xstrdup(gpu_csv_path);
		e->sampler = server_start(argv, NULL, NULL, gpu_csv_path);
	}
	e->t0 = mono_s();
	e->busy0 = cpu_busy_s();
	e->srv0 = server > 0 ? pid_cpu_s(server) : NAN;
	e->self0 = pid_cpu_s(getpid());
}

void runenv_end(struct runenv *e)
{
	if (!e->measured)
		return;
	e->t1 = mono_s();
	e->busy1 = cpu_busy_s();
	e->srv1 = e->server > 0 ? pid_cpu_s(e->server) : NAN;
	e->self1 = pid_cpu_s(getpid());
	e->load1 = load1();
	if (e->sampler) {
		double s = pid_cpu_s(server_pid(e->sampler));
		e->sampler_s = isnan(s) ? 0 : s;
		server_stop(e->sampler, 2);
		server_free(e->sampler);
		e->sampler = NULL;
	}
	list_apps(e);
}

/* Whether pid is the server or in its process group (a wrapper's child). */
static int is_server(const struct runenv *e, long pid)
{
	char s[32];
	long pg = -1;

	if (pid == (long)e->server)
		return 1;
	snprintf(s, sizeof(s), "%ld", pid);
	return !isnan(proc_cpu_s(s, &pg)) && pg == (long)e->server;
}

static int index_of(const struct runenv *e, const char *uuid)
{
	size_t i;

	for (i = 0; i < e->n_before; i++) {
		if (!strcmp(e->before[i].uuid, uuid))
			return e->before[i].index;
	}
	return -1;
}

char *runenv_finish(struct runenv *e, const char *log_path, double ready_ms)
{
	struct runenv_facts f;
	struct runenv_gpu_sample *all = NULL, *mine = NULL;
	size_t n_all = 0, i, j;
	char *text, *json;

	memset(&f, 0, sizeof(f));
	f.busy_share = e->busy_share;
	f.ready_ms = ready_ms;
	f.util_before = f.util_idle = f.idle_wait_ms = NAN;
	f.gpu_index = -1;
	f.load1_start = f.load1_end = NAN;
	if (e->measured && e->t1 > e->t0 && !isnan(e->busy0) && !isnan(e->busy1)) {
		double srv = isnan(e->srv0) || isnan(e->srv1) ? 0 : e->srv1 - e->srv0;
		double self = isnan(e->self0) || isnan(e->self1) ? 0 : e->self1 - e->self0;
		f.wall_s = e->t1 - e->t0;
		f.ncpu = (double)sysconf(_SC_NPROCESSORS_ONLN);
		f.server_cpu_s = srv;
		f.others_cpu_s = fmax(0, (e->busy1 - e->busy0) - srv - self - e->sampler_s);
		/* /proc counts in ticks, each process rounded its own way: never more
		 * than the CPUs had. */
		f.others_cpu_s = fmin(f.others_cpu_s, f.ncpu * f.wall_s);
		f.load1_start = e->load0;
		f.load1_end = e->load1;
	}
	if (e->smi && e->throttle_field && e->n_before) {
		f.has_gpu = 1;
		f.gpu_index = run_gpu(e);
		f.util_idle = e->util_idle;
		f.idle_wait_ms = e->idle_wait_ms;
		for (i = 0; i < e->n_before; i++) {
			if (f.gpu_index < 0 || e->before[i].index == f.gpu_index)
				f.util_before = isnan(f.util_before) ? e->before[i].util :
					fmax(f.util_before, e->before[i].util);
		}
		for (i = 0; i < e->n_apps; i++) {
			const struct runenv_app *a = &e->apps[i];
			int idx = index_of(e, a->uuid), seen = 0;
			if ((f.gpu_index >= 0 && idx != f.gpu_index) || is_server(e, a->pid))
				continue;
			for (j = 0; j < f.other_procs && j < 8; j++)
				seen |= f.other_pids[j] == a->pid;
			if (seen)
				continue;
			if (f.other_procs < 8)
				f.other_pids[f.other_procs] = a->pid;
			f.other_procs++;
		}
		if (e->csv_path && (text = slurp(e->csv_path, 8u << 20))) {
			runenv_gpu_parse(text, &all, &n_all);
			free(text);
		}
		mine = tps_xcalloc(n_all ? n_all : 1, sizeof(*mine));
		for (i = 0; i < n_all; i++) {
			if (f.gpu_index < 0 || all[i].index == f.gpu_index)
				mine[f.n_samples++] = all[i];
		}
		f.samples = mine;
	}
	text = log_path && *log_path ? slurp(log_path, RUNENV_LOG_MAX) : NULL;
	runenv_log_parse(text, text ? strlen(text) : 0, &f.log);
	free(text);
	json = runenv_json(&f);
	free(all);
	free(mine);
	return json;
}

void runenv_free(struct runenv *e)
{
	if (!e)
		return;
	if (e->sampler) {
		server_stop(e->sampler, 2);
		server_free(e->sampler);
	}
	free(e->smi);
	free(e->gpu);
	free(e->before);
	free(e->apps);
	free(e->csv_path);
	free(e);
}

int runenv_gpu(const struct runenv *e)
{
	return e && e->smi && e->throttle_field && e->n_before ? run_gpu(e) : -1;
}

/* One reading of the quiet check into *q: the host over RUNENV_QUIET_WINDOW_MS,
 * then the GPU idx (-1: every GPU). -1 when a signal came during the window. */
static int quiet_read(struct runenv *e, int idx, struct runenv_quiet *q)
{
	double t0 = mono_s(), b0 = cpu_busy_s(), s0 = pid_cpu_s(getpid()), t1, b1, s1;
	double ncpu = (double)sysconf(_SC_NPROCESSORS_ONLN);
	size_t i;

	if (interrupt_sleep_ms(RUNENV_QUIET_WINDOW_MS) < 0)
		return -1;
	t1 = mono_s();
	b1 = cpu_busy_s();
	s1 = pid_cpu_s(getpid());
	q->others_share = NAN;
	if (!isnan(b0) && !isnan(b1) && t1 > t0 && ncpu > 0) {
		/* Our own time (the nvidia-smi calls are children we reaped) is not
		 * another's; /proc counts ticks, so never more than the CPUs had. */
		double self = isnan(s0) || isnan(s1) ? 0 : s1 - s0;
		q->others_share = fmin(1, fmax(0, (b1 - b0) - self) / (ncpu * (t1 - t0)));
	}
	q->host_busy = q->others_share > e->busy_share;
	q->util = NAN;
	q->other_procs = 0;
	q->gpu_busy = 0;
	if (e->smi && e->throttle_field) {
		struct runenv_gpu_sample *g = NULL;
		size_t n = 0;
		char *out = gpu_query(e, e->throttle_field, "");

		runenv_gpu_parse(out, &g, &n);
		free(out);
		for (i = 0; i < n; i++)
			if ((idx < 0 || g[i].index == idx) && !isnan(g[i].util))
				q->util = isnan(q->util) ? g[i].util : fmax(q->util, g[i].util);
		free(g);
		free(e->apps);
		e->apps = NULL;
		e->n_apps = 0;
		list_apps(e);
		/* No server of ours runs now: every compute process is another's. */
		for (i = 0; i < e->n_apps; i++)
			if (idx < 0 || index_of(e, e->apps[i].uuid) == idx)
				q->other_procs++;
		q->has_gpu = 1;
		q->gpu_busy = q->other_procs > 0 || q->util >= ENV_GPU_BUSY_UTIL;
	}
	return 0;
}

int runenv_wait_quiet(const char *gpu, int gpu_index, double max_s, struct runenv_quiet *q)
{
	struct runenv *e = runenv_new(gpu);
	double t0 = mono_s();
	int idx, ret;

	memset(q, 0, sizeof(*q));
	q->others_share = q->util = NAN;
	q->busy_share = e->busy_share;
	runenv_before(e); /* which GPUs there are, and the field this driver knows */
	idx = gpu_index >= 0 ? gpu_index : run_gpu(e);
	for (;;) {
		if (quiet_read(e, idx, q) < 0) {
			ret = -1;
			break;
		}
		q->waited_s = mono_s() - t0;
		if (!q->host_busy && !q->gpu_busy) {
			ret = 0;
			break;
		}
		if (q->waited_s + RUNENV_QUIET_STEP_MS / 1000.0 > max_s) {
			ret = 1;
			break;
		}
		if (interrupt_sleep_ms(RUNENV_QUIET_STEP_MS) < 0) {
			ret = -1;
			break;
		}
	}
	runenv_free(e);
	return ret;
}
