/*****************************************************************************\
 *  osl_apply.h - the events the diff (osl_sync.c) hands to a partition's
 *  core, their order at one instant (§6), and their application
 *  (osl_apply.c).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_APPLY_H
#define _OSL_APPLY_H

#include <stdint.h>
#include <stdio.h>

#include "osl_obs.h"
#include "osl_partition.h"

/* What happens to a job in the core. */
typedef enum {
	OSL_EV_SUBMIT = 0,		/* ost_job_submit */
	OSL_EV_START,		/* ost_job_start_alloc, allocated width */
	OSL_EV_FINISH,		/* ost_job_finish, Slurm's end and run time */
	OSL_EV_CANCEL,		/* ost_job_cancel */
	OSL_EV_REQUEUE,		/* ost_job_requeue */
	OSL_EV_VANISH,		/* gone: a running job whose record
				 * Slurm purged before a pass saw it end;
				 * finished now, having run since its start
				 * (at most its estimate, the time limit the
				 * core knows) */
	OSL_EV_UPDATE,		/* ost_job_update: a pending job's width or
				 * estimate is not what the core knows */
	OSL_EV_NICE,		/* ost_job_set_nice: a pending job's nice
				 * is not what the core knows (§22) */
} osl_ev_kind_t;


/*
 * Order of events at one instant (§6): completions of jobs that started
 * earlier, requeues, submissions, starts, then completions of jobs that
 * started at that very instant.  An update (a resize) comes after a
 * requeue of the same job and before a start, so that a start sees the
 * estimate the job started with.
 */
enum {
	OSL_ORD_END = 0, OSL_ORD_REQUEUE, OSL_ORD_UPDATE, OSL_ORD_SUBMIT,
	OSL_ORD_START, OSL_ORD_END_LATE
};

/* A core event; sorted by (t, order, key). */
typedef struct {
	double t;			/* when, seconds since the epoch */
	int order;			/* ties at one instant (OSL_ORD_*) */
	osl_ev_kind_t kind;		/* what */
	const osl_obs_t *o;		/* the observation (NULL: the record
					 * is gone) */
	uint64_t key;			/* core job id */
	uint32_t procs;			/* update: the width to give */
	double estimate;		/* update: the estimate to give;
					 * finish: the most it charges, s (its
					 * enforced limit, never below the
					 * largest it ran under); vanish: the
					 * largest limit the ledger saw it run
					 * under (NAN: unknown) */
} osl_event_t;

/* Apply e to the core of p (the weight of a user before its first job),
 * logging it to evlog (may be NULL); a refused event is logged, never
 * fatal.  now: the pass's time, for a job that vanished. */
extern void osl_apply(osl_part_t *p, const osl_event_t *e, double now,
		      FILE *evlog);

#endif /* _OSL_APPLY_H */
