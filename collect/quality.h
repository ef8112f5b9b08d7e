/* quality.h: the data-quality findings computed when a sample is ingested. They are
 * the traps that once made published numbers wrong: an EOS-truncated decode, a
 * prefill inflated by the prompt cache, a 40-token "prefill", a failed request and
 * the first, cold request after a server start. */
#ifndef COLLECT_QUALITY_H
#define COLLECT_QUALITY_H

#include "schema/record.h"

/* Returns the SAMPLE_* flags for smp measured under run's config: truncated when
 * predicted_n < the requested n_predict (or, when that is unknown, the
 * stop was "eos" or "word"); cache-inflated when cache_n > 0; short-prompt when
 * prompt_n < SAMPLE_MIN_PROMPT_N (schema/record.h); failed when the sample has an
 * error, an HTTP status other than 2xx or no tok/s; cold-start when seq == 0 (the
 * first request the server answered); degenerate-output when repeat_share (the
 * output text's, collect/repeat.h) is at least SAMPLE_DEGENERATE_SHARE. Pure. */
unsigned quality_assess(const struct run_rec *run, const struct sample_rec *smp);

#endif
