/*****************************************************************************\
 *  ost_job.c - the events on jobs: submit, start (on the allocated width),
 *  update, cancel, nice, finish (capped), requeue
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The top of the core with ost_sched.c: every event first advances the
 *  clock to its instant (ost_advance.c), then changes the job and its
 *  campaign (ost_campaign.c), whose tags are re-derived and re-sorted
 *  below.  All allocation happens before the first change, so a failed
 *  call leaves the scheduler as it was.
\*****************************************************************************/

#include "ost_internal.h"

/*
 * The campaign a job submitted at t joins (§2), or NULL when it opens a new
 * one; *seq receives the new campaign's number.  Returns -OST_EINVAL for an
 * explicit campaign below the user's newest.
 */
static int _pick_campaign(const ost_sched_t *s, const ost_user_t *u,
			  const ost_job_desc_t *d, double t,
			  ost_campaign_t **join, uint32_t *seq)
{
	ost_campaign_t *c = u->last;

	*join = NULL;
	*seq = u->last_seq + 1;
	if (d->campaign) {
		if (d->campaign < u->last_seq)
			return -OST_EINVAL;
		if (c && d->campaign == u->last_seq)
			*join = c;
		*seq = d->campaign;
		return 0;
	}
	if (d->group) {
		ost_campaign_t *g = ost_map_get(&s->groups, d->group);

		if (g && g->user == u) {
			*join = g;
			return 0;
		}
	}
	/* Saturated numbering: the newest campaign takes every later job
	 * rather than wrapping to 0 (which no state file may hold). */
	if (u->last_seq == UINT32_MAX) {
		if (!c)
			return -OST_EINVAL;
		*join = c;
		return 0;
	}
	if (c && (ost_campaign_unfinished(c) ||
		  t - c->last_end <= s->cfg.think_time))
		*join = c;
	return 0;
}

int ost_job_submit(ost_sched_t *s, const ost_job_desc_t *d, double t,
		   uint32_t *campaign_out)
{
	ost_user_t *u;
	ost_campaign_t *c;
	ost_job_t *j;
	uint32_t seq;
	int rc;

	if (!d || !d->id || !d->procs || !ost_duration_ok(d->estimate) ||
	    !ost_time_ok(t))
		return -OST_EINVAL;
	if (ost_map_get(&s->jobs, d->id))
		return -OST_EEXIST;
	if (!(u = ost_user_get(s, d->uid, true)) || ost_map_reserve(&s->jobs) ||
	    (s->cfg.evidence && ost_heap_reserve(&s->steps, s->jobs.count + 1)))
		return -OST_ENOMEM;
	if (d->account && !(u = ost_leaf_get(s, u, d->account)))
		return -OST_ENOMEM;
	if ((rc = _pick_campaign(s, u, d, t, &c, &seq)))
		return rc;
	if (!(j = ost_job_alloc(s)))
		return -OST_ENOMEM;
	if (d->group && !ost_map_get(&s->groups, d->group) &&
	    ost_map_reserve(&s->groups)) {
		ost_job_release(s, j);
		return -OST_ENOMEM;
	}
	ost_vclock_advance(s, t);
	if (!c && !(c = ost_campaign_open(s, u, seq, t))) {
		ost_job_release(s, j);
		return -OST_ENOMEM;
	}
	j->id = d->id;
	j->procs = d->procs;
	j->e_full = ost_variant_estimate(s, u, d->estimate);
	j->e_cut = d->estimate - j->e_full;
	j->estimate = ost_variant_charge(s, j->e_full);
	j->submit = t;
	j->state = OST_JOB_PENDING;
	(void)ost_map_put(&s->jobs, j->id, j);	/* reserved */
	/* XXX: a failed group mapping only loses the array hint. */
	if (d->group && !ost_map_get(&s->groups, d->group))
		(void)ost_campaign_add_group(s, c, d->group);
	if (d->nice) {		/* §22: before the tags are derived */
		j->camp = c;
		ost_chain_track(s, j, d->nice, 0);
	}
	ost_campaign_add_job(s, c, j);
	if (campaign_out)
		*campaign_out = c->seq;
	return 0;
}

static ost_job_t *_find(const ost_sched_t *s, uint64_t id)
{
	return id ? ost_map_get(&s->jobs, id) : NULL;
}

/*
 * The prologue of the events on one known job (start, update, cancel,
 * requeue): t valid, id known, the job in state `state`.  RET: 0 with *j
 * set, or -OST_EINVAL, -OST_ENOENT, -OST_ESTATE, tested in that order.
 */
static int _job_in(const ost_sched_t *s, uint64_t id, double t,
		   ost_job_state_t state, ost_job_t **j)
{
	if (!ost_time_ok(t))
		return -OST_EINVAL;
	if (!(*j = _find(s, id)))
		return -OST_ENOENT;
	return (*j)->state == state ? 0 : -OST_ESTATE;
}

/*
 * Pending j starts at t on `procs` CPUs.  A width other than the requested
 * one first resizes j (ost_campaign_resize_job: A_c and L move by
 * (q_alloc - q) e), so the finish charges q_alloc p and the tags count
 * the allocated width from the start on.
 */
static void _start(ost_sched_t *s, ost_job_t *j, double t, uint32_t procs)
{
	ost_campaign_t *c = j->camp;

	ost_vclock_advance(s, t);
	ost_walk_remove(c, j);
	ost_tree_remove(&c->pending, &j->node);
	/* the running half of j's storage (ost_job_t) */
	ost_hnode_init(&j->step.node);
	j->start = t;
	j->state = OST_JOB_RUNNING;
	c->n_pending--;
	c->n_running++;
	s->n_pending--;
	s->n_running++;
	s->busy += procs;
	ost_campaign_pend_less(c, (double)j->procs * j->estimate);
	if (c->n_pending)
		ost_tree_set_weight(&s->order, &c->node, c->n_pending);
	else
		ost_order_unlink(s, c);
	if (procs != j->procs) {
		ost_campaign_resize_job(s, j, procs, j->estimate);
		ost_campaign_rederive(s, c);
	} else if (s->cfg.rank != OST_RANK_FINISH) {
		ost_campaign_rederive(s, c);	/* P_c moved (§13, §14) */
	} else if (c->user->n_nice) {
		ost_campaign_defer(s, c);	/* §22: c's nice may move */
	}
	ost_variant_track(s, j);
}

int ost_job_start(ost_sched_t *s, uint64_t id, double t)
{
	ost_job_t *j;
	int rc = _job_in(s, id, t, OST_JOB_PENDING, &j);

	if (rc)
		return rc;
	_start(s, j, t, j->procs);
	return 0;
}

int ost_job_start_alloc(ost_sched_t *s, uint64_t id, double t, uint32_t procs)
{
	ost_job_t *j;
	int rc;

	if (!procs)
		return -OST_EINVAL;
	if ((rc = _job_in(s, id, t, OST_JOB_PENDING, &j)))
		return rc;
	_start(s, j, t, procs);
	return 0;
}

/*
 * The width or estimate of pending j changed: out of the intra order,
 * resized (ost_campaign_resize_job), back in, tags re-derived.
 */
int ost_job_update(ost_sched_t *s, uint64_t id, uint32_t procs,
		   double estimate, double t)
{
	ost_job_t *j;
	ost_campaign_t *c;
	int rc;

	if (!procs || !ost_duration_ok(estimate))
		return -OST_EINVAL;
	if ((rc = _job_in(s, id, t, OST_JOB_PENDING, &j)))
		return rc;
	if (s->cfg.evidence && ost_heap_reserve(&s->steps, s->jobs.count))
		return -OST_ENOMEM;
	ost_vclock_advance(s, t);
	if (procs == j->procs && estimate == j->e_full + j->e_cut)
		return 0;
	c = j->camp;
	ost_walk_remove(c, j);
	ost_tree_remove(&c->pending, &j->node);
	j->e_cut = estimate;
	estimate = ost_variant_estimate(s, c->user, estimate);
	j->e_cut -= estimate;
	j->e_full = estimate;
	ost_campaign_resize_job(s, j, procs,
				ost_variant_charge(s, estimate));
	ost_tree_insert(&c->pending, &j->node, 1);
	ost_walk_insert(c, j);
	ost_campaign_rederive(s, c);
	return 0;
}

/* Forget j after it left the schedule. */
static void _drop(ost_sched_t *s, ost_job_t *j)
{
	ost_user_t *u = j->camp->user;

	ost_map_del(&s->jobs, j->id);
	ost_job_release(s, j);
	ost_campaign_forget_old(s, u);
}

int ost_job_cancel(ost_sched_t *s, uint64_t id, double t)
{
	ost_job_t *j;
	int rc = _job_in(s, id, t, OST_JOB_PENDING, &j);

	if (rc)
		return rc;
	ost_vclock_advance(s, t);
	ost_campaign_cancel_job(s, j);
	_drop(s, j);
	return 0;
}

int ost_job_set_nice(ost_sched_t *s, uint64_t id, int32_t nice, double t)
{
	ost_job_t *j;
	ost_campaign_t *c;
	uint32_t lowered;
	int rc = _job_in(s, id, t, OST_JOB_PENDING, &j);

	if (rc)
		return rc;
	ost_vclock_advance(s, t);
	if (j->nice == nice)
		return 0;
	lowered = 0;			/* a raise ends a lowering */
	if (nice < j->nice)
		lowered = s->lowered_seq < UINT32_MAX ? ++s->lowered_seq :
			  UINT32_MAX;
	c = j->camp;
	ost_walk_remove(c, j);
	ost_tree_remove(&c->pending, &j->node);
	ost_chain_track(s, j, nice, lowered);
	ost_tree_insert(&c->pending, &j->node, 1);
	ost_walk_insert(c, j);
	ost_campaign_defer(s, c);
	return 0;
}

int ost_job_finish(ost_sched_t *s, uint64_t id, double t, double runtime)
{
	ost_job_t *j = _find(s, id);

	if (!j)
		return -OST_ENOENT;
	if (!ost_duration_ok(runtime) || !ost_time_ok(t))
		return -OST_EINVAL;
	if (j->state == OST_JOB_PENDING)
		return ost_job_cancel(s, id, t);
	ost_vclock_advance(s, t);
	s->n_running--;
	s->busy -= j->procs;
	ost_variant_untrack(s, j);
	ost_variant_finish(s, j->camp->user, j->procs, runtime,
			   j->e_full + j->e_cut, t);
	ost_campaign_finish_job(s, j, t, runtime);
	_drop(s, j);
	return 0;
}

/*
 * The charged runtime: p = min(runtime, cap, t - start), the last bound
 * only when t >= start (a finish is never before its start; a host that
 * stepped its clock back may report one, and then start says nothing).
 */
int ost_job_finish_capped(ost_sched_t *s, uint64_t id, double t,
			  double runtime, double cap, double *charged)
{
	ost_job_t *j = _find(s, id);
	double p = runtime;

	if (!j)
		return -OST_ENOENT;
	if (!(runtime >= 0.0) || isinf(runtime) || !(cap >= 0.0) ||
	    !ost_time_ok(t))
		return -OST_EINVAL;
	if (j->state == OST_JOB_PENDING) {
		p = 0.0;
	} else {
		if (cap < p)
			p = cap;
		if (t >= j->start && t - j->start < p)
			p = t - j->start;
	}
	if (charged)
		*charged = p;
	return ost_job_finish(s, id, t, p);
}

int ost_job_requeue(ost_sched_t *s, uint64_t id, double t)
{
	ost_job_t *j;
	ost_campaign_t *c;
	int rc = _job_in(s, id, t, OST_JOB_RUNNING, &j);

	if (rc)
		return rc;
	ost_vclock_advance(s, t);
	ost_variant_untrack(s, j);
	c = j->camp;
	ost_campaign_charge_run(s, j, t);	/* §9.4: every run is paid */
	j->state = OST_JOB_PENDING;	/* start: NAN from now on */
	c->n_running--;
	c->n_pending++;
	s->n_running--;
	s->n_pending++;
	s->busy -= j->procs;
	c->area_pend += (double)j->procs * j->estimate;
	ost_tree_insert(&c->pending, &j->node, 1);
	ost_walk_insert(c, j);
	ost_campaign_rederive(s, c);	/* P_c moved with Rank=served */
	return 0;
}
