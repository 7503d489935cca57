/*****************************************************************************\
 *  order.h - the priority order of pending jobs under each policy:
 *  OStrich and FairCamp from the core engine, fcfs and fairshare (the
 *  baselines of §6) here.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_ORDER_H
#define OST_SIM_ORDER_H

#include "sim.h"

typedef struct sim_order sim_order_t;

/* Visit one pending job (index into the workload), best first; eligible
 * is false only for campaigns held back by gate=strict.  Return non-zero
 * to stop. */
typedef int (*sim_order_visit_f)(uint32_t job, bool eligible, void *arg);

/* New order for policy over w's jobs.  eng (borrowed) is the core engine
 * that the loop feeds; it must be non-NULL for ostrich/faircamp.
 * half_life: fairshare usage decay (s; 0 = none).  RET: new order (free
 * with sim_order_destroy) or NULL when memory is short. */
sim_order_t *sim_order_create(sim_policy_t policy, const sim_workload_t *w,
			      const ost_sched_t *eng, double half_life);
void sim_order_destroy(sim_order_t *o);

/* fairshare: recompute the user order every period seconds, at the
 * multiples of period (0, the default: at every walk).  Call before the
 * first event.  No-op for the other policies. */
void sim_order_fairshare_period(sim_order_t *o, double period);

/* fairshare: add weight x min(1, age / max_age) to the fair-share
 * factor 2^(-U_u / S_u), as multifactor adds PriorityWeightAge x its age
 * factor to PriorityWeightFairshare x its fair-share factor (weight is
 * their ratio; age = t - submit at the instant the order is read, that of
 * the last recomputation under sim_order_fairshare_period).  weight 0 (the
 * default): the fair-share factor alone.  Call before the first event.
 * RET 0, or -1 for any other policy (fairtree's factor is not modelled). */
int sim_order_fairshare_age(sim_order_t *o, double weight, double max_age);

/* Job events at time now, in the loop's order.  The engine-backed
 * policies ignore them (the loop feeds the engine).  O(1). */
void sim_order_submit(sim_order_t *o, uint32_t job, double now);
void sim_order_start(sim_order_t *o, uint32_t job, double now);
void sim_order_finish(sim_order_t *o, uint32_t job, double now);

/* Visit the pending jobs in priority order at time now until fn returns
 * non-zero.  Must not be called from fn.  RET: what fn returned, else 0;
 * -1 when memory is short.  O(visited) for fcfs and the engine,
 * O(U + visited log U) for fairshare with U users waiting. */
int sim_order_foreach(sim_order_t *o, double now, sim_order_visit_f fn,
		      void *arg);

/* sim_order_foreach for a walk that ignores the jobs wider than *fit:
 * while *fit < UINT32_MAX, the order may leave out any job whose procs
 * exceed *fit when it comes to it.  fn may lower *fit (never raise it).
 * fcfs and fairshare then jump to the next job that fits, O(log n) per
 * visited job; the engine order visits every job.  fit NULL: no limit. */
int sim_order_walk(sim_order_t *o, double now, sim_order_visit_f fn,
		   void *arg, const uint64_t *fit);

/* Where a pending job stands in the order at now, as a key compared
 * lexicographically: fcfs (0, 0, arrival slot), fairshare (usage,
 * submit, job), the engine (0, 0, rank).  Equal to the walk's order at
 * the same now between events.  O(1), the engine O(log n). */
typedef struct sim_order_pos {
	double a0;           /* fairtree: the account's usage; else 0 */
	double a, b;
	uint64_t c;
} sim_order_pos_t;

/* RET: 0, or -1 if job is not pending in the engine. */
int sim_order_pos(sim_order_t *o, double now, uint32_t job,
		  sim_order_pos_t *out);

/* a before b (keys of sim_order_pos, distinct jobs). */
static inline bool sim_order_pos_less(const sim_order_pos_t *x,
				      const sim_order_pos_t *y)
{
	if (x->a0 != y->a0)
		return x->a0 < y->a0;
	if (x->a != y->a)
		return x->a < y->a;
	if (x->b != y->b)
		return x->b < y->b;
	return x->c < y->c;
}

#endif /* OST_SIM_ORDER_H */
