/*****************************************************************************\
 *  osl_obs.h - what a pass sees of Slurm's jobs: one observation per job
 *  (or array task) and partition, made by slurm/osl_observe.c and read by
 *  every step of the pass (osl_sync.c, osl_prio.c, osl_comment.c, ...).
 *  A job record is only struct job_record here: compared, never read.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_OBS_H
#define _OSL_OBS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct job_record;		/* Slurm's job_record_t (slurmctld.h): compared,
				 * never read, here */

/* Core job id of task t of array a (plain jobs use their job id < 2^32). */
#define OSL_ARRAY_KEY(a, t) ((((uint64_t) (a)) << 32) | (uint64_t) (t))

/* What Slurm shows of a job: its state in one word. */
typedef enum {
	OSL_PENDING = 0,		/* waiting */
	OSL_RUNNING,			/* running or suspended */
	OSL_FINISHED,			/* completed, failed, cancelled... ('F') */
} osl_jstate_t;

/* One job (or array task) of one partition as seen in job_list. */
typedef struct {
	uint64_t key;			/* core job id (OSL_ARRAY_KEY for a
					 * task of a pending array record) */
	int part;			/* index in osl_eng.parts */
	int slot;			/* index in the record's part_ptr_list
					 * (priority_array), -1 if none */
	struct job_record *rec;		/* the record; valid while the job lock
					 * is held; compared, never read, by
					 * the Slurm-free files; NULL once the
					 * pass lost it (osl_refind) */
	uint32_t rec_id;		/* the record's job id (a pending array's
					 * own record: the array's job id,
					 * group); the pass finds
					 * it again by it after a lock gap */
	uint32_t rec_prio;		/* the record's priority when observed:
					 * a changed one is not overwritten */
	osl_jstate_t st;		/* its state */
	bool ran;			/* finished after running */
	bool unseen;			/* submitted while a save kept the core
					 * away (osl_eng.unseen): if it ran and
					 * ended before any pass saw it, it is
					 * charged from its record */
	bool writable;			/* the plugin may set its priority (no
					 * operator-set priority) */
	uint32_t uid;			/* owner */
	uint32_t procs;			/* width: CPUs, or billing units
					 * (§19), >= 1 */
	double estimate;		/* e, seconds (§1) */
	double limit;			/* the time limit Slurm enforces,
					 * seconds: the job's own, else its
					 * partition's MaxTime (INFINITY:
					 * none; osl_enforced_limit): the most
					 * a finish may charge, unless it ran
					 * under a longer one (osl_sync.c) */
	double weight;			/* owner's weight w_u */
	uint32_t account;		/* Hierarchy=accounts: the account it
					 * counts in (osl_acct_id; 0: none,
					 * the owner's own) */
	uint32_t own;			/* Hierarchy=accounts: the owner's own
					 * account (UserAccounts=, else
					 * account; 0: the root) */
	uint64_t group;			/* array job id, 0 for a plain job */
	time_t submit;			/* submission time */
	time_t eligible;		/* when Slurm first found it eligible
					 * (begin_time: reset by a hold, a
					 * release, a dependency), 0: not yet;
					 * after now: a --begin to come */
	time_t start;			/* start time (running, finished) */
	time_t end;			/* end time (finished; pending: Slurm's
					 * end_time, the requeue's while the
					 * requeued run completes, else 0 or a
					 * guess) */
	double runtime;			/* seconds run, suspensions excluded
					 * (finished) */
	uint32_t cur_prio;		/* the record's priority for this
					 * partition when observed (0: none) */
	uint64_t rank;			/* rank in its partition, 0: none */
	uint32_t prio;			/* priority to write for its record in
					 * this partition, 0: none */
	uint32_t campaign;		/* its campaign (pending, from the rank
					 * walk), 0: unknown */
	int32_t nice;			/* its nice, Slurm's minus NICE_OFFSET
					 * (§22; 0: none) */
} osl_obs_t;

/* The observations of a pass (grown by osl_obs_add). */
typedef struct {
	osl_obs_t *v;			/* the observations (malloc) */
	int n;				/* entries used */
	int cap;			/* entries allocated */
} osl_obs_vec_t;

/* One past the last observation of the record of vec->v[a]: osl_observe()
 * appends a record's observations together, so they are contiguous (a
 * record osl_refind() dropped has rec NULL in all of them). */
static inline int osl_rec_end(const osl_obs_vec_t *vec, int a)
{
	int i = a + 1;

	while (i < vec->n && vec->v[i].rec == vec->v[a].rec)
		i++;
	return i;
}

/* -------------------------------------------- osl_sync.c (Slurm-free) --- */

/* A new zeroed observation at the end of vec. */
extern osl_obs_t *osl_obs_add(osl_obs_vec_t *vec);

/*
 * Pointers to the observations of vec ordered by (partition, key, uid):
 * the observations of one partition are then contiguous, sorted by key.
 * RET array of vec->n + 1 pointers (osl_tfree(idx, vec->n + 1, ...))
 */
extern osl_obs_t **osl_obs_index(const osl_obs_vec_t *vec);

#endif /* _OSL_OBS_H */
