/*****************************************************************************\
 *  naive.h - the baseline of the engine benchmark: OStrich as the thesis
 *  and the 2014 Slurm plugins compute it
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Events only update plain arrays (O(1), plus re-deriving the tags of the
 *  user's later campaigns as §3 requires).  Each pass recomputes
 *  everything from scratch:
 *    1. virtual completion time C~ of every campaign with unfinished jobs,
 *       by a forward fluid simulation over the active users (sort them by
 *       the F of their latest campaign, sweep: O(U log U + C log U));
 *    2. qsort of all pending jobs by (eligible, C~, F, t_c, uid, seq, LPT).
 *  Same configuration as the benchmarked engine (capacity=used, gate=soft,
 *  intra=lpt, every weight 1, no job arrays, no cancel), so both give the
 *  same ranks, bit for bit; the benchmark checks it after every pass.
 *
 *  Ids are dense, 1..max_jobs; uids are 0..max_users-1.  Times in seconds,
 *  areas in CPU-seconds, virtual time in CPU-seconds per unit weight.
 *
 *  Why this is not tests/unit/ref_engine.c, the unit tests' naive
 *  reference: that one is the correctness oracle of check_property, for
 *  every variant of semantics.md, written for obviousness at the price of
 *  O(C J) scans per event and fixed caps (64 users, 4096 campaigns, 8192
 *  jobs ever), its C~ only within 1e-6 of the engine's.  The benchmark
 *  needs a baseline with a fixed, documented cost model at 10^4 .. 10^6
 *  jobs (the from-scratch pass of the 2014 plugins, so that the speed-ups
 *  in results.md and history.md keep their meaning) whose ranks equal the
 *  engine's bit for bit; it needs only the one configuration above.  So
 *  both exist; they share the rules, not the code, and this one is only
 *  checked (against the engine) when bench-engine runs.
\*****************************************************************************/

#ifndef OST_BENCH_NAIVE_H
#define OST_BENCH_NAIVE_H

#include <stddef.h>
#include <stdint.h>

typedef struct naive naive_t;

/* New empty baseline for m = procs CPUs, think time tau (s), job ids
 * 1..max_jobs and uids 0..max_users-1 (free with naive_destroy), or NULL
 * when memory is short. */
naive_t *naive_create(uint32_t procs, double tau, size_t max_jobs,
		      uint32_t max_users);

/* Free nv; NULL is a no-op. */
void naive_destroy(naive_t *nv);

/* Pending job id (q CPUs, estimate e s) of uid submitted at t into the
 * user's campaign number `campaign` (>= the user's newest), or, when
 * campaign is 0, grouped by think time (§2).  Returns 0, or
 * -1 (bad id/uid, or memory short; nothing changed).  O(1) amortized plus
 * the user's later campaigns. */
int naive_submit(naive_t *nv, uint64_t id, uint32_t uid, uint32_t q, double e,
		 uint32_t campaign, double t);

/* Pending job id starts at t.  Returns 0 or -1 (not pending).  O(1) plus
 * one fluid sweep when t moves the clock. */
int naive_start(naive_t *nv, uint64_t id, double t);

/* Running job id finished at t after p seconds (area corrected by
 * q (p - e)).  Returns 0 or -1 (not running). */
int naive_finish(naive_t *nv, uint64_t id, double t, double p);

/* One scheduling pass: ranks of all pending jobs from scratch into
 * rank[id - 1] (1 = first); *order (borrowed, valid until the next call)
 * receives the pending ids in rank order.  Returns the number of pending
 * jobs, or -1 when memory is short.  O(U log U + C log U + N log N). */
long naive_pass(naive_t *nv, uint64_t *rank, const uint32_t **order);

/* Bytes the baseline has allocated (its arrays at their capacity). */
size_t naive_bytes(const naive_t *nv);

#endif /* OST_BENCH_NAIVE_H */
