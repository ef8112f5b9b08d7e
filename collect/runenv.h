/* runenv.h: the environment of one run and what spoils it. The collector samples
 * the host's CPU time (/proc) and, when nvidia-smi is on PATH, the GPUs (other
 * compute processes, utilisation before the server starts, clocks, temperature,
 * power and throttle reasons while it measures), reads the server's log (layers
 * offloaded, where the KV cache lives, load time, graph reuse), and turns the
 * facts into one JSON object (run.env) and RUN_ENV_* findings (run.env_flags).
 * The parsers and the decision are pure and unit-tested; docs/ENVIRONMENT.md
 * lists the keys and thresholds. */
#ifndef COLLECT_RUNENV_H
#define COLLECT_RUNENV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* host-busy: other processes used more than this share of all CPUs' time while
 * the run measured; TPSDB_HOST_BUSY_PCT (a percentage) overrides it. */
#define RUNENV_HOST_BUSY_SHARE 0.5
/* ... judged only over a window at least this long: /proc counts CPU time in
 * ticks of 10 ms, too coarse for a shorter one. */
#define RUNENV_HOST_MIN_WALL_S 0.5
/* gpu-contended: utilisation of the run's GPU at or above this before the start. */
#define RUNENV_GPU_BUSY_UTIL 10.0
/* clocks-changed: (max - min) / max of the SM or memory clock above this, over the
 * samples taken while the GPU computed (utilisation at least RUNENV_BUSY_UTIL). */
#define RUNENV_CLOCK_SPREAD 0.10
#define RUNENV_BUSY_UTIL 50.0
/* gpu-throttled: any of these nvidia-smi clocks_throttle_reasons bits: SW power
 * cap 0x4, HW slowdown 0x8, SW thermal 0x20, HW thermal 0x40, HW power brake 0x80. */
#define RUNENV_THROTTLE_MASK 0xECull

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
	double util_before;                 /* NAN unknown */
	size_t other_procs;
	long other_pids[8];
	const struct runenv_gpu_sample *samples; /* the run's GPU's, while it measured */
	size_t n_samples;
	struct runenv_log log;
	double ready_ms;                    /* server start to ready, NAN unknown */
};

/* The RUN_ENV_* findings of f (schema/record.h), by the thresholds above. Pure. */
unsigned runenv_decide(const struct runenv_facts *f);

/* f as the JSON object stored in run.env (keys in docs/ENVIRONMENT.md). Caller frees. */
char *runenv_json(const struct runenv_facts *f);

/* The live recorder of one run. runenv_new() reads TPSDB_HOST_BUSY_PCT and looks
 * for nvidia-smi on PATH (gpu: CUDA_VISIBLE_DEVICES for the server, or NULL);
 * runenv_before() queries the GPUs before the server starts; runenv_begin() takes
 * the /proc snapshot, lists the compute processes and starts a sampler writing
 * gpu_csv_path; runenv_end() takes the second snapshot and list and stops the
 * sampler; runenv_finish() reads the sampler's file and the server log and
 * returns the findings, with the JSON in *env (caller frees). Never fails: a fact
 * that cannot be read is left out. runenv_free() accepts NULL. */
struct runenv *runenv_new(const char *gpu);
void runenv_before(struct runenv *e);
void runenv_begin(struct runenv *e, pid_t server, const char *gpu_csv_path);
void runenv_end(struct runenv *e);
unsigned runenv_finish(struct runenv *e, const char *log_path, double ready_ms, char **env);
void runenv_free(struct runenv *e);

#endif
