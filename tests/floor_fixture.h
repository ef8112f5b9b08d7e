/* floor_fixture.h: a stored A/A floor for the unit tests that fill a store by hand
 * and need one run a side to decide (test_gate, test_parity). Header-only, as
 * tests/reference.h is. */
#ifndef TESTS_FLOOR_FIXTURE_H
#define TESTS_FLOOR_FIXTURE_H

#include <stdint.h>

#include "schema/noise.h"

/* A small floor (0.01% over n_pairs pairs) for the cell of the run uuid, pp and
 * tg, inside the caller's transaction. 0 ok, -1 after an error line. */
static inline int fx_small_floor(struct store *s, const char *uuid, int64_t n_pairs)
{
	static const char *const metrics[2] = { "pp", "tg" };

	for (int i = 0; i < 2; i++) {
		struct noise_rec nr = { 0 };

		nr.run_a = nr.run_b = uuid;
		nr.metric = metrics[i];
		nr.noise_pct = 0.01;
		nr.n_pairs = n_pairs;
		if (store_noise_put(s, &nr) < 0)
			return -1;
	}
	return 0;
}

#endif
