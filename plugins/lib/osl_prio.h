/*****************************************************************************\
 *  osl_prio.h - the priorities written for pending jobs (osl_prio.c): the
 *  ranks of a partition's core turned into Slurm priorities, and the
 *  order of job_list that follows them.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_PRIO_H
#define _OSL_PRIO_H

#include <stdint.h>

#include "osl_obs.h"
#include "osl_partition.h"

/*
 * Priorities written for pending jobs lie in [OSL_PRIO_LO, OSL_PRIO_TOP):
 * strictly decreasing along the ranks of a partition, and unchanged for a
 * job whose place in the order still fits (ost_prio_renumber()).  Above
 * anything priority/basic or a usual multifactor setup gives, so jobs queued
 * under OStrich stay ahead in OStrich order if the plugin is turned off.
 */
#define OSL_PRIO_TOP 100000000u
#define OSL_PRIO_LO 50000000u

/*
 * The priority of a record at submission while the cores cannot be asked
 * (a save is serializing them, osl_save_all): the value a pass gave it if
 * any, else just below every ranked job, until the pass it wakes ranks it.
 */
static inline uint32_t osl_prio_deferred(uint32_t cur)
{
	return cur >= OSL_PRIO_LO && cur < OSL_PRIO_TOP ? cur : OSL_PRIO_LO - 1;
}

/* A written record, for the order of job_list (osl_order). */
typedef struct {
	void *rec;			/* the record (job_record_t *) */
	uint32_t prio;			/* its priority now */
	uint32_t job_id;		/* its job id (ties) */
} osl_qrec_t;

/* Set rank and campaign of every pending observation of obs[0..n) (sorted
 * by key) from the core's walk of p; the others keep rank 0. */
extern void osl_prio_rank(osl_part_t *p, osl_obs_t **obs, int n);

/*
 * New priorities for the writable ranked pending observations of obs[0..n)
 * (p's, ranks set): one value per record at its best rank, strictly
 * decreasing along the ranks, a record's cur_prio kept wherever it still
 * fits (ost_prio_renumber).  Sets o->prio on each record's best-ranked
 * observation and keeps the values by rank in p->prios.
 */
extern void osl_prio_renumber(osl_part_t *p, osl_obs_t **obs, int n);

/*
 * Priorities for obs[0..n), observations of p just submitted to its core
 * (sorted by key): one value per job record, at the best rank of its
 * observations, between those of its neighbours in p->prios, which then
 * records it (later ranks move down by one), so that a burst of
 * submissions gets distinct values in order until the next pass
 * renumbers.  Only the record's best-ranked observation gets prio; the
 * others, and those the core does not rank, keep prio 0.
 * O(n log n + records * log P), P the records in p->prios: independent
 * of the number of pending jobs but for the logarithm.
 * RET the records that no value puts in their place until the next pass
 * (their neighbours already tie, or no room at the top); a record that
 * only found no room takes the value of its neighbour above, which Slurm's
 * tie-break (submit time, then job id) orders right
 */
extern int osl_prio_new(osl_part_t *p, osl_obs_t **obs, int n);

/*
 * The new order of job_list so that the written records q[0..m) stand in
 * priority order (highest first, then job id): when they already do in
 * cur[0..n) (job_list now), nothing; else the other records in their
 * order, then q's.  Sorts q.
 * OUT want - room for n: the new order when RET is 1
 * RET 1 (reorder to want), 0 (in order), -1 (q not all in cur; logged)
 */
extern int osl_order(void *const *cur, int n, osl_qrec_t *q, int m,
		     void **want);

#endif /* _OSL_PRIO_H */
