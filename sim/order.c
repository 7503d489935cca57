/*****************************************************************************\
 *  order.c - priority orders (§4-§6).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  fcfs: submit time, then trace order: a list in arrival order.
 *
 *  The walks that skip narrow-fit misses and the FIFOs are slots.c's; the
 *  fairshare and fairtree merge, fairshare.c's.  This file makes the
 *  order and hands each event and walk to its policy (the engine's for
 *  OStrich and FairCamp, through ost_sched_foreach_pending).
\*****************************************************************************/

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "order_priv.h"
#include "workload.h"

sim_order_t *sim_order_create(sim_policy_t policy, const sim_workload_t *w,
			      const ost_sched_t *eng, double half_life)
{
	sim_order_t *o = calloc(1, sizeof(*o));
	size_t nu = w->nusers + 1, nj = w->njobs + 1;

	if (!o)
		return NULL;
	o->policy = policy;
	o->w = w;
	o->eng = eng;
	o->head = o->tail = NONE;
	o->half_life = half_life;
	o->t0 = NAN;
	o->tot_t = NAN;
	o->tree = policy == SIM_POLICY_FAIRTREE;
	if (o->tree)	/* the fairshare machinery, merged by account */
		o->policy = policy = SIM_POLICY_FAIRSHARE;
	if (policy != SIM_POLICY_FCFS && policy != SIM_POLICY_FAIRSHARE)
		return o;
	o->next = malloc(nj * sizeof(*o->next));
	o->prev = malloc(nj * sizeof(*o->prev));
	o->slot = malloc(nj * sizeof(*o->slot));
	o->byslot = malloc(nj * sizeof(*o->byslot));
	o->leaves = 1;
	while (o->leaves < nj)
		o->leaves *= 2;
	o->smin = malloc(2 * o->leaves * sizeof(*o->smin));
	if (!o->next || !o->prev || !o->slot || !o->byslot || !o->smin)
		goto out_destroy;
	memset(o->smin, 0xff, 2 * o->leaves * sizeof(*o->smin));
	if (policy == SIM_POLICY_FCFS)
		return o;
	o->uoff = calloc(nu + 1, sizeof(*o->uoff));
	o->uused = calloc(nu, sizeof(*o->uused));
	if (!o->uoff || !o->uused)
		goto out_destroy;
	for (size_t i = 0; i < w->njobs; i++)
		o->uoff[w->jobs[i].uidx + 1]++;
	for (size_t u = 0; u < nu; u++)
		o->uoff[u + 1] += o->uoff[u];
	o->uhead = malloc(nu * sizeof(*o->uhead));
	o->utail = malloc(nu * sizeof(*o->utail));
	o->gu = calloc(nu, sizeof(*o->gu));
	o->tu = calloc(nu, sizeof(*o->tu));
	o->gtu = calloc(nu, sizeof(*o->gtu));
	o->snap = calloc(nu, sizeof(*o->snap));
	o->ru = calloc(nu, sizeof(*o->ru));
	o->waiting = malloc(nu * sizeof(*o->waiting));
	o->wpos = malloc(nu * sizeof(*o->wpos));
	o->heap = malloc(nu * sizeof(*o->heap));
	if (!o->uhead || !o->utail || !o->gu || !o->tu || !o->gtu ||
	    !o->snap || !o->ru ||
	    !o->waiting || !o->wpos || !o->heap)
		goto out_destroy;
	for (size_t u = 0; u < nu; u++)
		o->uhead[u] = o->utail[u] = o->wpos[u] = NONE;
	if (o->tree && sim_ft_init(o))
		goto out_destroy;
	return o;
out_destroy:
	sim_order_destroy(o);
	return NULL;
}

void sim_order_destroy(sim_order_t *o)
{
	if (!o)
		return;
	free(o->next);
	free(o->prev);
	free(o->slot);
	free(o->byslot);
	free(o->smin);
	free(o->uoff);
	free(o->uused);
	free(o->uhead);
	free(o->utail);
	free(o->gu);
	free(o->tu);
	free(o->gtu);
	free(o->snap);
	free(o->ru);
	free(o->waiting);
	free(o->wpos);
	free(o->heap);
	free(o->uacct);
	free(o->asum);
	free(o);
}

/* ------------------------------------------------------------ engine --- */

struct eng_walk {
	sim_order_visit_f fn;
	void *arg;
	bool strict;         /* gate=strict: honour the eligible flag */
};

/* Adapter from the core's rank visitor to the order's visitor. */
static int _eng_visit(const ost_rank_info_t *r, void *arg)
{
	struct eng_walk *ew = arg;

	return ew->fn((uint32_t) (r->job_id - 1), r->eligible || !ew->strict,
		      ew->arg);
}

/* ------------------------------------------------------------ public --- */

void sim_order_submit(sim_order_t *o, uint32_t job, double now)
{
	uint32_t u = o->w->jobs[job].uidx;

	if (o->policy == SIM_POLICY_FCFS) {
		sim_fifo_append(o, &o->head, &o->tail, job);
		o->slot[job] = o->nsub++;
	} else if (o->policy == SIM_POLICY_FAIRSHARE) {
		sim_fs_recalc(o, now);
		sim_fifo_append(o, &o->uhead[u], &o->utail[u], job);
		o->slot[job] = o->uoff[u] + o->uused[u]++;
		sim_fs_wait(o, u, true);
	}
	if (o->policy == SIM_POLICY_FCFS || o->policy == SIM_POLICY_FAIRSHARE) {
		o->byslot[o->slot[job]] = job;
		sim_slot_set(o, o->slot[job], o->w->jobs[job].procs);
	}
}

void sim_order_start(sim_order_t *o, uint32_t job, double now)
{
	const sim_job_t *j = &o->w->jobs[job];

	if (o->policy == SIM_POLICY_FCFS || o->policy == SIM_POLICY_FAIRSHARE)
		sim_slot_set(o, o->slot[job], NONE);
	if (o->policy == SIM_POLICY_FCFS) {
		sim_fifo_del(o, &o->head, &o->tail, job);
	} else if (o->policy == SIM_POLICY_FAIRSHARE) {
		sim_fs_recalc(o, now);
		sim_fifo_del(o, &o->uhead[j->uidx], &o->utail[j->uidx], job);
		if (o->uhead[j->uidx] == NONE)
			sim_fs_wait(o, j->uidx, false);
		sim_fs_touch(o, j->uidx, now);
		o->ru[j->uidx] += j->charge;
	}
}

void sim_order_finish(sim_order_t *o, uint32_t job, double now)
{
	const sim_job_t *j = &o->w->jobs[job];

	if (o->policy == SIM_POLICY_FAIRSHARE) {
		sim_fs_recalc(o, now);
		sim_fs_touch(o, j->uidx, now);
		o->ru[j->uidx] -= j->charge;
	}
}

int sim_order_foreach(sim_order_t *o, double now, sim_order_visit_f fn,
		      void *arg)
{
	return sim_order_walk(o, now, fn, arg, NULL);
}

int sim_order_walk(sim_order_t *o, double now, sim_order_visit_f fn,
		   void *arg, const uint64_t *fit)
{
	struct eng_walk ew = { fn, arg, false };
	int rc;

	switch (o->policy) {
	case SIM_POLICY_FCFS:
		for (uint32_t j = o->head; j != NONE;
		     j = sim_fifo_next(o, j, o->nsub, fit))
			if ((rc = fn(j, true, arg)))
				return rc;
		return 0;
	case SIM_POLICY_FAIRSHARE:
		return sim_fs_foreach(o, now, fn, arg, fit);
	default:
		ew.strict = ost_sched_config(o->eng)->gate == OST_GATE_STRICT;
		return ost_sched_foreach_pending(o->eng, _eng_visit, &ew);
	}
}

int sim_order_pos(sim_order_t *o, double now, uint32_t job,
		  sim_order_pos_t *out)
{
	const sim_job_t *j = &o->w->jobs[job];
	uint64_t rank;
	double gnow;

	switch (o->policy) {
	case SIM_POLICY_FCFS:
		*out = (sim_order_pos_t) { 0, 0, 0, o->slot[job] };
		return 0;
	case SIM_POLICY_FAIRSHARE:
		sim_fs_recalc(o, now);
		gnow = isnan(o->t0) ? 0 : sim_fs_gnow(o, now);
		if (o->age_w > 0) {
			*out = (sim_order_pos_t) {
				0, sim_fs_aged_key(o, j->uidx, job, now, gnow),
				j->submit, job,
			};
			return 0;
		}
		*out = (sim_order_pos_t) {
			sim_ft_key(o, j->uidx, now, gnow),
			sim_fs_key_usage(o, j->uidx, now, gnow), j->submit, job,
		};
		return 0;
	default:
		if (ost_sched_rank(o->eng, (uint64_t) job + 1, &rank))
			return -1;
		*out = (sim_order_pos_t) { 0, 0, 0, rank };
		return 0;
	}
}
