/* quality.c: computes a sample's data-quality flags at ingest. Each flag later
 * removes the sample from exactly the metric it spoils (schema/record.h). */
#include "collect/quality.h"

#include <string.h>

unsigned quality_assess(const struct run_rec *run, const struct sample_rec *smp)
{
	unsigned f = 0;
	int is_bench = run->endpoint && !strcmp(run->endpoint, "llama-bench");
	/* Whether each metric was measured at all, by the one definition of a rate. */
	int has_pp = !isnan(record_pp_rate(smp)), has_tg = !isnan(record_tg_rate(smp));

	if (smp->error || (smp->http_status != TPS_NULL &&
			   (smp->http_status < 200 || smp->http_status > 299)) ||
	    (!has_pp && !has_tg)) {
		f |= SAMPLE_FAILED;
		return f;
	}
	/* llama-bench rows are pure pp or pure tg tests: a prompt-less tg test has no
	 * prefill to spoil, so only the traps of its own metric apply. */
	if (has_tg) {
		int early_stop = smp->stop_type && (!strcmp(smp->stop_type, "eos") ||
						      !strcmp(smp->stop_type, "word"));
		if (run->n_predict != TPS_NULL && run->n_predict > 0) {
			if (smp->predicted_n != TPS_NULL && smp->predicted_n < run->n_predict)
				f |= SAMPLE_TRUNCATED;
		} else if (early_stop) {
			f |= SAMPLE_TRUNCATED; /* nothing to compare with: trust the stop */
		}
	}
	if (!isnan(smp->repeat_share) && smp->repeat_share >= SAMPLE_DEGENERATE_SHARE)
		f |= SAMPLE_DEGENERATE;
	if (has_pp) {
		if (smp->cache_n != TPS_NULL && smp->cache_n > 0)
			f |= SAMPLE_CACHED;
		/* The guard is for server responses, whose prompt length nobody chose; a
		 * llama-bench pp64 is a declared test of 64 tokens. */
		if (smp->prompt_n != TPS_NULL && smp->prompt_n < SAMPLE_MIN_PROMPT_N && !is_bench)
			f |= SAMPLE_SHORT_PROMPT;
		if (smp->seq == 0 && !is_bench)
			f |= SAMPLE_COLD;
	}
	return f;
}
