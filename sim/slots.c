/*****************************************************************************\
 *  slots.c - the FIFOs of the simulator's fcfs and fairshare orders, and
 *  their walks that skip narrow-fit misses (§6)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Skipping narrow-fit misses (fcfs and fairshare): a walk may say that
 *  it ignores jobs wider than a limit (the free CPUs, during EASY's
 *  backfill or list dispatch), and jobs are then reached by a jump to
 *  the next job that fits instead of one by one.  Each job gets a slot
 *  at submission: fcfs the arrival rank, fairshare the next slot of its
 *  user's range (ranges sized by the user's job count, so a user's FIFO
 *  is its slots in increasing order); a min-tree over the slots holds
 *  the procs of pending jobs, so the next slot >= i within a range with
 *  procs <= limit is one climb and one descent: O(log n).
 *
\*****************************************************************************/

#include "order_priv.h"
#include "workload.h"

/* Append job to the FIFO (*head, *tail) linked through next/prev. */
void sim_fifo_append(sim_order_t *o, uint32_t *head, uint32_t *tail,
		     uint32_t job)
{
	o->next[job] = NONE;
	o->prev[job] = *tail;
	if (*tail != NONE)
		o->next[*tail] = job;
	else
		*head = job;
	*tail = job;
}

/* Unlink job from the FIFO (*head, *tail).  O(1). */
void sim_fifo_del(sim_order_t *o, uint32_t *head, uint32_t *tail,
		  uint32_t job)
{
	if (o->prev[job] != NONE)
		o->next[o->prev[job]] = o->next[job];
	else
		*head = o->next[job];
	if (o->next[job] != NONE)
		o->prev[o->next[job]] = o->prev[job];
	else
		*tail = o->prev[job];
}

/* Give job slot i and mark it pending (v = procs) or gone (NONE).
 * O(log n). */
void sim_slot_set(sim_order_t *o, uint32_t i, uint32_t v)
{
	size_t p = o->leaves + i;

	o->smin[p] = v;
	for (p /= 2; p; p /= 2) {
		uint32_t a = o->smin[2 * p], b = o->smin[2 * p + 1];
		uint32_t m = a < b ? a : b;

		if (o->smin[p] == m)
			break;
		o->smin[p] = m;
	}
}

/* First slot in [i, end) of a pending job with procs <= lim, NONE if
 * none.  Climb while the node is a right child, step to the right
 * sibling, until a node's minimum is <= lim (or the node starts at or
 * after end: none); then descend to its leftmost such leaf.  A node p
 * of width w leaves covers [p w - leaves, (p + 1) w - leaves).  Each
 * level is visited at most twice: O(log (end - i)) climbing, O(log n)
 * descending only when a job is found. */
uint32_t sim_slot_next(const sim_order_t *o, size_t i, size_t end,
		       uint32_t lim)
{
	size_t p = o->leaves + i, w = 1;

	if (i >= end)
		return NONE;
	if (o->smin[p] > lim) {
		for (;;) {
			while (p & 1) {
				p /= 2;
				w *= 2;
				if (p <= 1)
					return NONE;
			}
			p++;
			if (p * w - o->leaves >= end)
				return NONE;
			if (o->smin[p] <= lim)
				break;
		}
		while (p < o->leaves)
			p = o->smin[2 * p] <= lim ? 2 * p : 2 * p + 1;
	}
	return p - o->leaves < end ? (uint32_t) (p - o->leaves) : NONE;
}

/* The job after job in its FIFO that the walk needs: the next one, or
 * with a limit (*fit below NONE) the next one with procs <= *fit; end
 * bounds the FIFO's slots.  O(1) when the next job fits, else O(log n). */
uint32_t sim_fifo_next(const sim_order_t *o, uint32_t job, size_t end,
		       const uint64_t *fit)
{
	uint32_t nx = o->next[job], s;

	if (!fit || *fit >= NONE || nx == NONE ||
	    o->w->jobs[nx].procs <= *fit)
		return nx;
	s = sim_slot_next(o, (size_t) o->slot[nx] + 1, end, (uint32_t) *fit);
	return s == NONE ? NONE : o->byslot[s];
}
