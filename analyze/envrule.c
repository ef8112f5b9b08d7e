/* envrule.c: the environment findings of a run from its stored facts (envrule.h). */
#include "analyze/envrule.h"

#include <math.h>

static int spread(double lo, double hi)
{
	return hi > 0 && lo <= hi && (hi - lo) / hi > ENV_CLOCK_SPREAD;
}

unsigned env_findings(const struct env_facts *f, unsigned recorded)
{
	double share = isnan(f->busy_share) ? ENV_HOST_BUSY_SHARE : f->busy_share;
	unsigned flags = 0;

	if (!f->known)
		return recorded;
	if (f->wall_s >= ENV_HOST_MIN_WALL_S && f->others_share > share)
		flags |= RUN_ENV_HOST_BUSY;
	if (f->has_gpu) {
		/* Evidence from the run's own window only: utilisation read before the
		 * server started is the previous instance's tail (nvidia-smi averages
		 * over its last sample period) and is kept as a fact, not judged. */
		if (f->other_procs > 0 || f->util_idle >= ENV_GPU_BUSY_UTIL)
			flags |= RUN_ENV_GPU_CONTENDED;
		if (f->throttle & ENV_THROTTLE_MASK)
			flags |= RUN_ENV_GPU_THROTTLED;
		if (spread(f->sm_min, f->sm_max) || spread(f->mem_min, f->mem_max))
			flags |= RUN_ENV_CLOCKS_CHANGED;
	}
	/* "offloaded 0/33" from a server on a host without a GPU is a CPU run, not a
	 * partial offload. */
	if (f->layers_total > 0 && f->layers_offloaded >= 0 &&
	    f->layers_offloaded < f->layers_total && (f->layers_offloaded > 0 || f->has_gpu))
		flags |= RUN_ENV_PARTIAL_OFFLOAD;
	/* A CPU-only server keeps its KV cache on the host by design: only a server
	 * that put layers on a GPU can have moved the cache off it. */
	if (f->layers_offloaded > 0 && f->kv_host_mib > 0)
		flags |= RUN_ENV_KV_ON_HOST;
	return flags;
}
