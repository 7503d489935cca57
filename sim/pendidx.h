/*****************************************************************************\
 *  pendidx.h - the pending jobs indexed by estimate, so that an EASY walk
 *  can tell in O(log n) that no job later in the order can be backfilled
 *  and stop there (§6).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_PENDIDX_H
#define OST_SIM_PENDIDX_H

#include "sim.h"

#define SIM_PENDIDX_BLOCK 16    /* ranks per tree leaf: 64 bytes */

typedef struct sim_pendidx {
	const sim_job_t *jobs;   /* borrowed: the workload's jobs */
	double *est;             /* estimates, increasing */
	uint32_t *job;           /* the job at each rank by estimate */
	uint32_t *rank;          /* per job: its position by estimate */
	uint32_t *val;           /* per rank: procs if pending, else
				  * UINT32_MAX (blocks of SIM_PENDIDX_BLOCK) */
	uint32_t *min;           /* segment tree over the blocks: smallest
				  * procs of a pending job in it */
	size_t n, leaves;        /* jobs; blocks in the tree (power of 2) */
} sim_pendidx_t;

/* Index over jobs[0 .. njobs), all of them not pending.  The estimates
 * (>= 0) must not change afterwards.  O(n) (radix sort).
 * RET: 0, or -1 when memory is short (x is then released). */
int sim_pendidx_init(sim_pendidx_t *x, const sim_job_t *jobs, size_t njobs);
void sim_pendidx_free(sim_pendidx_t *x);

/* Job becomes pending / stops being pending.  O(B + log(n/B)). */
void sim_pendidx_add(sim_pendidx_t *x, uint32_t job);
void sim_pendidx_del(sim_pendidx_t *x, uint32_t job);

/* Number c of jobs (pending or not) with now + e_j <= shadow, the test
 * of the EASY walk in the same floating-point form: they are the first c
 * by estimate.  O(log n). */
size_t sim_pendidx_cut(const sim_pendidx_t *x, double now, double shadow);

/* Smallest procs among the pending jobs of the first c by estimate,
 * UINT32_MAX if there is none.  O(B + log(n/B)). */
uint32_t sim_pendidx_min_procs(const sim_pendidx_t *x, size_t c);

/* The pending jobs j with (rank by estimate < c and q_j <= f) or
 * q_j <= a (a <= f), at most max of them, into out[] in rank order.
 * RET: how many, max when there may be more.  O((max + 1) log n). */
size_t sim_pendidx_collect(const sim_pendidx_t *x, size_t c, uint32_t a,
			   uint32_t f, uint32_t *out, size_t max);

#endif /* OST_SIM_PENDIDX_H */
