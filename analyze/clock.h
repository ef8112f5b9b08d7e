/* clock.h: the rule that holds a run's server-reported decode rate against the
 * client's clock (migration 0010). Engines time themselves their own way (where
 * the decode starts, whether the first token counts); the collector's monotonic
 * clock over the streamed tokens is one definition for every engine, so a run
 * whose two rates part by more than CLOCK_DISAGREE_SHARE reports timings that
 * cannot be taken at their word: 'tpsdb check' flags it (timings-disagree). */
#ifndef ANALYZE_CLOCK_H
#define ANALYZE_CLOCK_H

#include <stddef.h>

/* How far the two medians may part, as a share of the client's: 0.25 is 25%.
 * Measured on the real CPU llama-server (docs/RELIABILITY.md "The client's own
 * clock"): clean runs parted by 10.2% at most (16 tokens on a host loaded ~5x
 * its CPUs), under 1% otherwise, speculative decoding included. */
#define CLOCK_DISAGREE_SHARE 0.25

struct clock_check {
	size_t n;            /* samples with both rates */
	double server, client; /* their medians, tok/s; NAN when n is 0 */
	double share;        /* server / client - 1; NAN when n is 0 */
	int disagree;        /* |share| > CLOCK_DISAGREE_SHARE */
};

/* Judges the n samples of one run: server[i] its reported decode rate
 * (predicted_per_second), client[i] the client clock's (client_decode_per_second);
 * a pair with either NaN is left out. Never fails. */
void clock_check(const double *server, const double *client, size_t n,
		 struct clock_check *out);

#endif
