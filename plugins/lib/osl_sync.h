/*****************************************************************************\
 *  osl_sync.h - bringing a partition's core in line with what Slurm shows
 *  (osl_sync.c): the diff of a pass or a submission.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_SYNC_H
#define _OSL_SYNC_H

#include <stdio.h>

#include "osl_obs.h"
#include "osl_partition.h"

/* How much of a partition osl_sync() brings in line. */
typedef enum {
	OSL_SYNC_ALL = 0,		/* every job: what the core knows and
					 * Slurm no longer shows ends */
	OSL_SYNC_NEW,			/* only the jobs the core does not know
					 * (a submission) */
} osl_sync_scope_t;

/*
 * Bring the core of p in line with obs[0..n), the observations of p sorted
 * by key: diff them against what the core knows (scope), sort the events
 * by time (§6 for ties) and apply them, logging each to evlog (may be
 * NULL).  A refused event is logged, never fatal.
 * RET number of events
 */
extern int osl_sync(osl_part_t *p, osl_obs_t **obs, int n, double now,
		    osl_sync_scope_t scope, FILE *evlog);

#endif /* _OSL_SYNC_H */
