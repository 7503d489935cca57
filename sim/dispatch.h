/*****************************************************************************\
 *  dispatch.h - real dispatch: turning the priority order into job starts
 *  (§6: list, easy, strict).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_DISPATCH_H
#define OST_SIM_DISPATCH_H

#include "order.h"
#include "pendidx.h"
#include "running.h"
#include "sim.h"

/* How many pending jobs ask for q CPUs. */
typedef struct sim_qcount {
	uint32_t q;
	uint64_t n;
} sim_qcount_t;

typedef struct sim_disp {
	sim_dispatch_t mode;
	uint32_t m;              /* CPUs */
	uint32_t gpus;           /* G (set after init; 0: none): a job
				  * starts only when both its CPUs and its
				  * GPUs are free (§20) */
	sim_running_t running;   /* by estimated end */
	sim_qcount_t *qs;        /* pending jobs per distinct CPU count q,
				  * increasing q: memory follows the
				  * workload, never m */
	size_t nq, qcap;
	uint64_t qmin;           /* smallest pending q (m+1: none) */
	uint64_t pending;        /* pending jobs */
	uint32_t *starts;        /* jobs chosen by the last sim_disp_run */
	size_t nstarts, cap;
	bool held;               /* last run stopped at a gated campaign
				  * with CPUs still free */
	sim_pendidx_t *index;    /* optional (borrowed, set after init):
				  * the pending jobs by estimate, so that
				  * an EASY walk stops when nothing later
				  * can be backfilled.  Only when every
				  * job of the order is eligible (no
				  * gate=strict): the walk then never
				  * reaches a gated job to set held. */
} sim_disp_t;

/* RET: 0, or -1 when memory is short (d is then released). */
int sim_disp_init(sim_disp_t *d, sim_dispatch_t mode, uint32_t m,
		  size_t njobs);
void sim_disp_free(sim_disp_t *d);

/* A job of q CPUs (1 <= q <= m) became pending.  O(log k) for k distinct
 * pending sizes, O(k) when q is a new size.  RET: 0, or -1 when memory is
 * short (d unchanged). */
int sim_disp_pending(sim_disp_t *d, uint32_t q);

/* Choose the jobs to start at now, walking o's order, and record them as
 * running (d->starts[0 .. d->nstarts)); the caller tells the order and
 * the engine afterwards.  A job fits when its CPUs and its GPUs are both
 * free; at no time do the running jobs hold more than m CPUs or G GPUs.
 * list: first fit in order; strict: in order,
 * stopping at the first job that does not fit; easy: in order until the
 * first job that does not fit, which gets a reservation at the shadow
 * time (sim_running_shadow), then later jobs that fit now and either end
 * (by estimate) by the shadow time or use only the extra CPUs.  A job of
 * a campaign gated by gate=strict ends the walk (they sort last).  The
 * walk stops as soon as no pending job can fit the free CPUs, and with
 * d->index, once the reservation is made, as soon as no pending job can
 * be backfilled; the starts are the same either way.
 * RET: 0, or -1 when memory is short. */
int sim_disp_run(sim_disp_t *d, sim_order_t *o, const sim_job_t *jobs,
		 double now);

/* A running job ended: release its CPUs and GPUs.  RET: 0, or -1 if unknown. */
int sim_disp_finish(sim_disp_t *d, const sim_job_t *jobs, uint32_t job);

#endif /* OST_SIM_DISPATCH_H */
