/*****************************************************************************\
 *  ostrich_slurm.h - the OStrich engine inside slurmctld, shared by
 *  sched/ostrich and priority/ostrich (libostrich_slurm.so holds one copy of
 *  its state, whichever plugins are loaded).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSTRICH_SLURM_H
#define _OSTRICH_SLURM_H

#include <stdbool.h>
#include <stdint.h>

#include "slurm/slurm.h"

#include "src/slurmctld/slurmctld.h"

/*
 * Priorities written for pending jobs lie in [OST_PRIO_LO, OST_PRIO_TOP):
 * strictly decreasing along the ranks of a partition, and unchanged for a
 * job whose place in the order still fits (ost_prio_renumber()).  Above
 * anything priority/basic or a usual multifactor setup gives, so jobs queued
 * under OStrich stay ahead in OStrich order if the plugin is turned off.
 */
#define OST_PRIO_TOP 100000000u
#define OST_PRIO_LO 50000000u

typedef enum {
	OST_USER_SCHED = 0,	/* sched/ostrich */
	OST_USER_PRIO,		/* priority/ostrich */
} ost_user_t;

/*
 * Start the engine for one plugin (reference counted: the first caller
 * reads ostrich.conf and starts the engine thread).  Called from init(),
 * possibly with slurmctld locks held: takes none.
 * NOTE: a bad ostrich.conf is fatal() here.
 * RET SLURM_SUCCESS or SLURM_ERROR
 */
extern int ost_slurm_init(ost_user_t who);

/* Stop using the engine; the last user stops the thread and saves. */
extern void ost_slurm_fini(ost_user_t who);

/* Re-read ostrich.conf at the next pass (only sets a flag). */
extern void ost_slurm_reconfig(void);

/* Configuration value Backfill= (read at init). */
extern bool ost_slurm_backfill_wanted(void);

/*
 * The priority of job_ptr now: registers a new job with the engine.
 * NOTE: job write lock held by the caller.
 * RET the priority (>= 1)
 */
extern uint32_t ost_slurm_job_priority(uint32_t last_prio,
				       job_record_t *job_ptr);

/*
 * sprio: one row per pending job and partition selected by req (job ids,
 * uids, partitions) that uid may see under PrivateData=jobs; PRIORITY is
 * the OStrich priority, FAIRSHARE the owner's share of the partition times
 * PriorityWeightFairshare (doc/admin-guide.md, "sprio").
 * NOTE: no slurmctld lock held by the caller.
 */
extern List ost_slurm_prio_factors(priority_factors_request_msg_t *req,
				   uid_t uid);

#endif /* _OSTRICH_SLURM_H */
