/*****************************************************************************\
 *  benchutil.h - clocks, medians, memory probes and a PRNG for the
 *  benchmarks (bench/, never linked into the product)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Times are seconds read from CLOCK_MONOTONIC; memory is in bytes.
\*****************************************************************************/

#ifndef OST_BENCHUTIL_H
#define OST_BENCHUTIL_H

#include <stddef.h>
#include <stdint.h>

/* Seconds on CLOCK_MONOTONIC (arbitrary epoch).  Cannot fail. */
double bench_now(void);

/* CPU seconds this process has used (CLOCK_PROCESS_CPUTIME_ID): less
 * sensitive than bench_now() to other work on a shared machine. */
double bench_cpu(void);

/* Median of v[0..n) (n > 0); sorts v in place.  O(n log n). */
double bench_median(double *v, size_t n);

/* Value of a "Name:  123 kB" line of /proc/self/status (e.g. "VmRSS",
 * "VmHWM"), in bytes; 0 when unreadable. */
size_t bench_status_bytes(const char *field);

/* Bytes malloc() holds for the program now (mallinfo2: arena in use plus
 * mmapped blocks), including malloc's own per-block overhead. */
size_t bench_heap_bytes(void);

/* Reset VmHWM to the current RSS (writes 5 to /proc/self/clear_refs).
 * Returns 0, or -1 when the kernel refuses (then VmHWM deltas are not
 * measured). */
int bench_reset_hwm(void);

/* splitmix64: a small deterministic generator, state advanced in place. */
static inline uint64_t bench_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform double in [0, 1) from 53 random bits. */
static inline double bench_uniform(uint64_t *state)
{
	return (double)(bench_rand(state) >> 11) * 0x1p-53;
}

#endif /* OST_BENCHUTIL_H */
