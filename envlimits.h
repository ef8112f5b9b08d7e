/* envlimits.h: the environment findings of a run (run.env_flags) and the
 * thresholds that decide them. Plain constants below every folder: the rules are
 * analyze/envrule.c's, the collector's waits (collect/runenv.c) judge by the same
 * limits, and schema/ names the bits; none of them reaches another's header for
 * these. */
#ifndef TPSDB_ENVLIMITS_H
#define TPSDB_ENVLIMITS_H

/* The findings (run.env_flags, record_env_flag_name() names them). None spoils a
 * metric by itself: a cell whose runs carry one is shown and never decided. */
enum run_env_flag {
	RUN_ENV_HOST_BUSY = 1 << 0,       /* other processes used the CPUs while it measured */
	RUN_ENV_GPU_CONTENDED = 1 << 1,   /* another compute process on its GPU, or the GPU
					     busy while the loaded server sat idle */
	RUN_ENV_GPU_THROTTLED = 1 << 2,   /* a power, thermal or slowdown throttle reason */
	RUN_ENV_CLOCKS_CHANGED = 1 << 3,  /* SM or memory clock moved while it computed */
	RUN_ENV_PARTIAL_OFFLOAD = 1 << 4, /* fewer layers on the GPU than the model has */
	RUN_ENV_KV_ON_HOST = 1 << 5,      /* the KV cache (some of it) in host memory */
};
/* The findings another job causes and its end clears: it shared the run's GPU or
 * the CPUs. collect waits such a job out and measures the instance again
 * (--wait-quiet), and stops a model they keep spoiling (--max-spoiled); the
 * others are this machine's state or the engine's setup, which waiting does not
 * change. */
#define RUN_ENV_BUSY (RUN_ENV_HOST_BUSY | RUN_ENV_GPU_CONTENDED)
/* One past the highest environment bit: a stored or imported env_flags below it is known. */
#define RUN_ENV_FLAGS_END (1u << 6)

/* host-busy: other processes used more than this share of all CPUs' time while
 * the run measured (the collector records the share it was told to use,
 * TPSDB_HOST_BUSY_PCT, as host.busy_share; this is the default). */
#define ENV_HOST_BUSY_SHARE 0.5
/* ... judged only over a window at least this long: /proc counts CPU time in
 * ticks of 10 ms, too coarse for a shorter one. */
#define ENV_HOST_MIN_WALL_S 0.5
/* gpu-contended: utilisation of the run's GPU at or above this while the freshly
 * loaded server sat idle, after the previous instance's tail had settled. */
#define ENV_GPU_BUSY_UTIL 10.0
/* clocks-changed: (max - min) / max of the SM or memory clock above this, over
 * the samples taken while the GPU computed. */
#define ENV_CLOCK_SPREAD 0.10
/* gpu-throttled: any of these throttle reason bits: HW slowdown 0x8, SW thermal
 * 0x20, HW thermal 0x40, HW power brake 0x80. The SW power cap (0x4) is the
 * boost governor at the board's power limit, the normal state of a busy H100
 * (10 of 24 clean runs of one batch, the SM clock within 2.3%): kept as a fact,
 * and judged through the clocks it moves (clocks-changed). */
#define ENV_THROTTLE_MASK 0xE8ull

#endif
