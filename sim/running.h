/*****************************************************************************\
 *  running.h - the running jobs, sorted by estimated end (for EASY's
 *  reservation).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_RUNNING_H
#define OST_SIM_RUNNING_H

#include <stddef.h>
#include <stdint.h>

typedef struct sim_run {
	double est_end;   /* start + estimate, s */
	uint32_t job;     /* job index */
	uint32_t procs;
	uint32_t gpus;
} sim_run_t;

/* An amount of both resources. */
typedef struct sim_res {
	uint64_t procs, gpus;
} sim_res_t;

/* At most m entries (every job holds >= 1 CPU), so a sorted array with
 * memmove is cheaper than a tree. */
typedef struct sim_running {
	sim_run_t *r;
	size_t n, cap;
	uint64_t busy;    /* sum of procs */
	uint64_t gbusy;   /* sum of gpus */
} sim_running_t;

void sim_running_init(sim_running_t *rs);
void sim_running_free(sim_running_t *rs);

/* Add a running job.  RET: 0 or -1 (memory short; unchanged).  O(n). */
int sim_running_add(sim_running_t *rs, sim_run_t run);

/* Remove the entry (est_end, job) added before.  RET: 0, or -1 if absent.
 * O(log n + n) (memmove). */
int sim_running_del(sim_running_t *rs, double est_end, uint32_t job);

/* EASY reservation.  With `free` CPUs idle now and the running jobs
 * releasing theirs at max(est_end, now), the shadow time is the earliest
 *	s = min { t >= now : free + sum_{est_end <= t} procs >= need }
 * and *extra = free + sum_{est_end <= s} procs - need are the CPUs a
 * backfilled job may hold past s.  RET: s, or INFINITY if the running
 * jobs never free `need` CPUs (then *extra = 0).  O(k) for the k jobs
 * ending first. */
double sim_running_shadow(const sim_running_t *rs, double now, uint64_t free,
			  uint64_t need, uint64_t *extra);

/* The same over CPUs and GPUs (§20): the earliest t >= now at which both
 * free + released >= need, and *extra what is left of each then.  RET: s,
 * or INFINITY (then *extra = 0, 0).  O(k). */
double sim_running_shadow_res(const sim_running_t *rs, double now,
			      sim_res_t free, sim_res_t need,
			      sim_res_t *extra);

#endif /* OST_SIM_RUNNING_H */
