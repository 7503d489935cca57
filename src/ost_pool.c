/*****************************************************************************\
 *  ost_pool.c - a bounded stack of freed job records, reused first
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Every pass of the scheduler finishes some jobs and submits about as
 *  many.  With malloc, each finish frees a ~130 B chunk that glibc
 *  coalesces with its neighbours (reading their headers: cache misses,
 *  as the records of old jobs are cold) and each submission takes a chunk
 *  from the bins.  Keeping the freed records on a LIFO stack instead hands
 *  the next submission the record freed last, still in cache, and never
 *  touches a neighbour.  The stack is bounded (OST_POOL_JOBS) so that a
 *  burst of finishes does not keep memory forever; beyond it records go
 *  back to malloc.
\*****************************************************************************/

#include <stdlib.h>
#include <string.h>

#include "ost_internal.h"

/* Enough for the finishes of a few scheduler passes at 10^5 jobs. */
#define OST_POOL_JOBS 4096

ost_job_t *ost_job_alloc(ost_sched_t *s)
{
	ost_job_t *j = s->free_jobs;

	if (!j)
		return calloc(1, sizeof(*j));
	s->free_jobs = j->next;
	s->n_free_jobs--;
	memset(j, 0, sizeof(*j));
	return j;
}

void ost_job_release(ost_sched_t *s, ost_job_t *j)
{
	if (s->n_free_jobs >= OST_POOL_JOBS) {
		free(j);
		return;
	}
	j->next = s->free_jobs;
	s->free_jobs = j;
	s->n_free_jobs++;
}

void ost_pool_free(ost_sched_t *s)
{
	while (s->free_jobs) {
		ost_job_t *j = s->free_jobs;

		s->free_jobs = j->next;
		free(j);
	}
	s->n_free_jobs = 0;
}
