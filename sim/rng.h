/*****************************************************************************\
 *  rng.h - xoshiro256** seeded by splitmix64: a small, fast generator
 *  whose streams are the same on every platform (workloads are
 *  reproducible from --seed).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_RNG_H
#define OST_SIM_RNG_H

#include <stdint.h>

typedef struct sim_rng {
	uint64_t s[4];
} sim_rng_t;

static inline uint64_t _rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* Seed r from seed (any value, 0 included). */
static inline void sim_rng_seed(sim_rng_t *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		r->s[i] = z ^ (z >> 31);
	}
}

static inline uint64_t sim_rng_next(sim_rng_t *r)
{
	uint64_t *s = r->s;
	uint64_t out = _rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = _rng_rotl(s[3], 45);
	return out;
}

/* Uniform double in [0, 1) with 53 random bits. */
static inline double sim_rng_unit(sim_rng_t *r)
{
	return (double) (sim_rng_next(r) >> 11) * 0x1.0p-53;
}

/* Uniform integer in [lo, hi] (hi - lo < 2^53). */
static inline int64_t sim_rng_range(sim_rng_t *r, int64_t lo, int64_t hi)
{
	return lo + (int64_t) (sim_rng_unit(r) * (double) (hi - lo + 1));
}

#endif /* OST_SIM_RNG_H */
