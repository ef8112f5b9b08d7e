/* runenv.h: the environment of one run and what spoils it. The collector samples
 * the host's CPU time (/proc) and, when nvidia-smi is on PATH, the GPUs (other
 * compute processes, utilisation before the server starts, clocks, temperature,
 * power and throttle reasons while it measures), reads the server's log (layers
 * offloaded, where the KV cache lives, load time, graph reuse), and turns the
 * facts into one JSON object (run.env). The findings are derived from those facts
 * by analyze/envrule.c whenever a run is read. The parsers are pure and
 * unit-tested; docs/ENVIRONMENT.md lists the keys and thresholds. */
#ifndef COLLECT_RUNENV_H
#define COLLECT_RUNENV_H

#include "envlimits.h"
#include "schema/record.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The share of the CPUs others may use before host-busy (envlimits.h's
 * default; TPSDB_HOST_BUSY_PCT, a percentage, overrides it and the run keeps the
 * share it was told as host.busy_share). */
#define RUNENV_HOST_BUSY_SHARE ENV_HOST_BUSY_SHARE
/* The clock facts (sm_clock_min ...) summarise the samples taken while the GPU
 * computed: utilisation at least this. */
#define RUNENV_BUSY_UTIL 50.0
/* The idle check: once the server is loaded and before the first request, the
 * run's GPU is read every RUNENV_IDLE_STEP_MS until it reads below
 * ENV_GPU_BUSY_UTIL or RUNENV_IDLE_WAIT_MS have passed (the previous instance's
 * tail and the server's own warm-up settle in well under a second; another job's
 * load does not), and the lowest reading is kept as gpu.util_idle. */
#define RUNENV_IDLE_STEP_MS 250
#define RUNENV_IDLE_WAIT_MS 3000

/* What the server's log said (-1 / NAN where it did not say). */
struct runenv_log {
	int layers_offloaded, layers_total; /* "offloaded 33/33 layers to GPU" */
	double kv_gpu_mib, kv_host_mib;     /* "<buffer> KV buffer size = N MiB", summed by
					       where the buffer lives (CPU or *_Host: host) */
	char kv_buffers[64];                /* the KV buffer names, space-separated */
	double load_ms;                     /* "load time = N ms", when printed */
	int64_t graphs_reused;              /* "graphs reused = N", the last printed */
};

/* Parses a llama-server log (len bytes); unknown lines are skipped. Pure. */
void runenv_log_parse(const char *text, size_t len, struct runenv_log *out);

/* One line of nvidia-smi --query-gpu=index,uuid,utilization.gpu,clocks.sm,
 * clocks.mem,temperature.gpu,power.draw,clocks_throttle_reasons.active
 * --format=csv,noheader,nounits. Unknown numbers ("[N/A]") are NAN / 0. */
struct runenv_gpu_sample {
	int index;
	char uuid[64];
	double util, sm_mhz, mem_mhz, temp_c, power_w;
	uint64_t throttle;
};

/* Parses such lines; *out is a heap array the caller frees (NULL when *n is 0).
 * Lines that do not parse are skipped. Pure. */
void runenv_gpu_parse(const char *text, struct runenv_gpu_sample **out, size_t *n);

/* One line of nvidia-smi --query-compute-apps=pid,gpu_uuid --format=csv,noheader. */
struct runenv_app {
	long pid;
	char uuid[64];
};

/* Parses such lines; *out is a heap array the caller frees. Pure. */
void runenv_apps_parse(const char *text, struct runenv_app **out, size_t *n);

/* Everything the decision reads. */
struct runenv_facts {
	/* host, from /proc over the measuring window; wall_s 0 when unmeasured */
	double wall_s, ncpu, others_cpu_s, server_cpu_s, load1_start, load1_end;
	double busy_share;                  /* the host-busy threshold used */
	/* GPU: has_gpu 0 when nvidia-smi was absent or said nothing */
	int has_gpu;
	int gpu_index;                      /* the run's GPU, -1 unknown */
	double util_before;                 /* before the server started (the previous
					       instance's tail shows here), NAN unknown */
	double util_idle;                   /* the idle check's lowest reading, NAN unknown */
	double idle_wait_ms;                /* how long the idle check read */
	size_t other_procs;
	long other_pids[8];
	const struct runenv_gpu_sample *samples; /* the run's GPU's, while it measured */
	size_t n_samples;
	struct runenv_log log;
	double ready_ms;                    /* server start to ready, NAN unknown */
};

/* f as the JSON object stored in run.env (keys in docs/ENVIRONMENT.md). Caller frees. */
char *runenv_json(const struct runenv_facts *f);

/* The live recorder of one run. runenv_new() reads TPSDB_HOST_BUSY_PCT and looks
 * for nvidia-smi on PATH (gpu: CUDA_VISIBLE_DEVICES for the server, or NULL);
 * runenv_before() queries the GPUs before the server starts; runenv_begin(), with
 * the server loaded and idle, lists the compute processes, runs the idle check,
 * takes the /proc snapshot and starts a sampler writing gpu_csv_path;
 * runenv_end() takes the second snapshot and list and stops the sampler;
 * runenv_finish() reads the sampler's file and the server log and returns the
 * facts as JSON (caller frees). Never fails: a fact that cannot be read is left
 * out. The findings are analyze/envrule.c's, derived when a run is read.
 * runenv_free() accepts NULL. */
struct runenv *runenv_new(const char *gpu);
void runenv_before(struct runenv *e);
void runenv_begin(struct runenv *e, pid_t server, const char *gpu_csv_path);
void runenv_end(struct runenv *e);
char *runenv_finish(struct runenv *e, const char *log_path, double ready_ms);
void runenv_free(struct runenv *e);
/* The run's GPU as the recorder told it (where the server computed, else the one
 * it was given, else the only one); -1 unknown or no nvidia-smi. */
int runenv_gpu(const struct runenv *e);

/* The quiet check (collect --wait-quiet): between two instances, with no server
 * of ours running, the same readings the recorder judges a run by: others' share
 * of all CPUs' time over RUNENV_QUIET_WINDOW_MS (/proc, as host-busy reads it,
 * against TPSDB_HOST_BUSY_PCT), and, when nvidia-smi answers, the compute
 * processes on the run's GPU and its utilisation (gpu-contended's two readings).
 * The machine is quiet when no reading would make host-busy or gpu-contended. */
#define RUNENV_QUIET_WINDOW_MS 500
#define RUNENV_QUIET_STEP_MS 1000

/* The last reading of a quiet check. */
struct runenv_quiet {
	double others_share;       /* others' share of all CPUs, NAN unread */
	double busy_share;         /* the host-busy threshold used */
	int has_gpu;               /* nvidia-smi answered */
	double util;               /* the run's GPU's utilisation, NAN unknown */
	size_t other_procs;        /* compute processes on it (none of ours runs) */
	int host_busy, gpu_busy;   /* what kept it from being quiet */
	double waited_s;           /* from the first reading to the last */
};

/* Reads the host and the GPU every RUNENV_QUIET_STEP_MS until they read quiet or
 * max_s seconds have passed (one reading at least; a signal ends the wait at once,
 * an nvidia-smi call at its deadline). gpu is CUDA_VISIBLE_DEVICES as the servers
 * get it, or NULL; gpu_index the spoiled run's GPU, -1 unknown (then gpu's first
 * index, else the only GPU, else the busiest of all). The last reading goes to
 * *q. Returns 0 quiet, 1 still busy at the deadline, -1 a signal is pending. */
int runenv_wait_quiet(const char *gpu, int gpu_index, double max_s, struct runenv_quiet *q);

#endif
