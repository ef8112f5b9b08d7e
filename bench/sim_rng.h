/* sim_rng.h: the simulations' one random source (bench/bench_sim_*.c), header-only
 * as tests/reference.h is: xorshift64* for uniform draws, Box-Muller for normal
 * ones. Plenty for simulations of this size; a seed argument sets rng_state so a
 * table reproduces. */
#ifndef BENCH_SIM_RNG_H
#define BENCH_SIM_RNG_H

#include <math.h>
#include <stdint.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* A uniform draw in [0, 1). */
static inline double uniform(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return ((rng_state * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
}

/* A standard normal draw. */
static inline double gauss(void)
{
	double u = uniform(), v = uniform();

	if (u < 1e-300)
		u = 1e-300;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

#endif
