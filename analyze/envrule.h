/* envrule.h: the environment findings of a run, derived from its facts. The
 * collector stores facts (run.env, docs/ENVIRONMENT.md) and no verdict on them;
 * every reader derives the findings here when it loads a run, so a rule fixed
 * later re-judges stored and imported runs alike. A run that kept no facts (an
 * import that carried findings only) keeps the findings it was stored with. The
 * findings' bits and the thresholds the rules judge by are envlimits.h's, below
 * every folder, which collect/ reads too. */
#ifndef ANALYZE_ENVRULE_H
#define ANALYZE_ENVRULE_H

#include <math.h>
#include <stdint.h>

#include "envlimits.h"

/* What a rule reads, as stored: NAN (or -1) where the run has no such fact. */
struct env_facts {
	int known;                  /* the run kept facts (run.env is an object) */
	/* host */
	double wall_s, others_share, busy_share;
	/* the run's GPU; has_gpu 0 when nvidia-smi said nothing */
	int has_gpu;
	double other_procs;         /* other compute processes on its GPU */
	double util_idle;           /* the GPU idle-loaded, after the settle wait */
	double sm_min, sm_max, mem_min, mem_max; /* while it computed */
	uint64_t throttle;
	/* the server's log */
	int layers_offloaded, layers_total;
	double kv_host_mib;
};

/* "No facts": what a loader starts from. */
#define ENV_FACTS_NONE ((struct env_facts){					\
	.wall_s = NAN, .others_share = NAN, .busy_share = NAN,			\
	.other_procs = NAN, .util_idle = NAN,					\
	.sm_min = NAN, .sm_max = NAN, .mem_min = NAN, .mem_max = NAN,		\
	.layers_offloaded = -1, .layers_total = -1, .kv_host_mib = NAN })

/* The RUN_ENV_* findings of a run: from f when it kept facts, else recorded (the
 * findings stored with it). Pure. */
unsigned env_findings(const struct env_facts *f, unsigned recorded);

#endif
