/*****************************************************************************\
 *  ost_campaign.c - campaigns: tags (§3) and deadlines (§5)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  A user's campaigns run one after the other in the virtual schedule.
 *  Each keeps a floor phi (v when it opened or restarted) and a virtual
 *  length L = A / w (virtual time = CPU-seconds per unit weight), from which
 *  its tags always follow:
 *
 *      S_c = max(phi_c, F_prev)      F_c = S_c + L_c
 *
 *  and its FairCamp deadline (seconds):
 *
 *      D_c = max(t_c, D_prev) + k_c * max(A_est / m, max e_j)
 *
 *  Tags are never moved by increments: every change updates phi, L or the
 *  areas and re-derives S, F and D from c to the user's newest campaign, so
 *  the same history always gives the same bits.  For a finish or a cancel
 *  that re-derivation waits for the next read of a tag (ost_settle.c).
 *  The tags themselves are ost_tags.c's; this file keeps the jobs of a
 *  campaign and what they change in it.
\*****************************************************************************/

#include <stdlib.h>

#include "ost_internal.h"

/* §24: whether another campaign of c's user has an unfinished job (c's
 * own are counted in u->unfinished too).  O(1). */
static bool _behind(const ost_campaign_t *c)
{
	return c->user->unfinished > c->n_pending + c->n_running;
}

/*
 * A new empty campaign seq linked after u's newest, with no tags yet.
 * Returns NULL on memory shortage with nothing changed.
 */
ost_campaign_t *ost_campaign_new(ost_sched_t *s, ost_user_t *u, uint32_t seq)
{
	ost_campaign_t *c;

	if (ost_heap_reserve(&s->gate, s->n_campaigns + 1))
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->user = u;
	c->seq = seq;
	c->last_end = -INFINITY;
	c->max_e_done = -INFINITY;
	c->cut = INFINITY;
	/* no tags yet: NAN never equals a derived tag, so the first
	 * re-derivation always sorts the campaign in */
	c->vstart = c->vfinish = c->deadline = c->key = c->ukey = NAN;
	c->kfrom = NAN;
	ost_tree_init(&c->pending, ost_intra_cmp(s->cfg.intra));
	ost_hnode_init(&c->gate.node);
	c->prev = u->last;
	if (u->last)
		u->last->next = c;
	else
		u->first = c;
	u->last = c;
	s->n_campaigns++;
	return c;
}

/*
 * Open campaign seq of u at t (after its newest).  k_c counts the users
 * with unfinished jobs, u included (§5).  Returns NULL on memory shortage
 * with nothing changed.
 */
ost_campaign_t *ost_campaign_open(ost_sched_t *s, ost_user_t *u,
				  uint32_t seq, double t)
{
	ost_campaign_t *c;
	double credit;

	ost_campaign_settle_user(s, u);		/* reads F_prev, D_prev */
	if (!(c = ost_campaign_new(s, u, seq)))
		return NULL;
	c->t_c = t;
	credit = ost_variant_credit(s, u, t);
	if (s->cfg.memory_key) {	/* §15: on the key, not the floor */
		c->credit = credit;
		credit = 0.0;
	}
	c->vrel = ost_user_vtime(s, u);
	c->behind = _behind(c);	/* c has no job yet */
	c->phi = c->vrel - credit;
	c->k = s->cfg.faircamp_users
		       ? s->cfg.faircamp_users
		       : s->n_busy_users + (u->unfinished ? 0 : 1);
	u->last_seq = seq;
	ost_campaign_tags(s, c, ost_campaign_prev_vfinish(c), &c->vstart,
			  &c->vfinish);
	c->key = c->ukey = c->vstart - c->credit / u->weight;
	c->deadline = c->t_c > ost_campaign_prev_deadline(c)
			      ? c->t_c
			      : ost_campaign_prev_deadline(c);
	return c;
}

/*
 * c (settled) gets an unfinished job again (§24): its cut no longer
 * applies.  With Lead=forgive the length it had been forgiven stays
 * forgiven, L = F_c - S_c, and the join then follows §3.4 (grows c if
 * v < F_c, else restarts it at v).  Otherwise (keep, cap: the cut is
 * recorded but not read) L is untouched, so keep stays bit for bit §3.
 */
static void _reopen(const ost_sched_t *s, ost_campaign_t *c)
{
	if (c->cut == INFINITY)
		return;
	if (s->cfg.lead == OST_LEAD_FORGIVE && c->vstart + c->len > c->cut)
		c->len = c->vfinish - c->vstart;	/* the cut bound */
	c->cut = INFINITY;
}

/* c has no unfinished job any more: record v for Lead=forgive (§24). */
static void _close(const ost_sched_t *s, ost_campaign_t *c)
{
	if (!ost_campaign_unfinished(c))
		c->cut = ost_user_vtime(s, c->user);
}

/*
 * Pending job j (fields set, not linked) joins c: area a = q e.  If c is
 * not virtually complete, L += a / w; otherwise c restarts at v:
 * phi = v, L = a / w (§3).
 */
void ost_campaign_add_job(ost_sched_t *s, ost_campaign_t *c, ost_job_t *j)
{
	ost_user_t *u = c->user;
	double a = (double)j->procs * j->estimate;

	ost_campaign_settle_user(s, u);		/* reads F_c */
	_reopen(s, c);
	j->camp = c;
	j->next = c->jobs;
	j->prev = NULL;
	if (c->jobs)
		c->jobs->prev = j;
	c->jobs = j;
	ost_tree_insert(&c->pending, &j->node, 1);
	ost_walk_insert(c, j);
	c->n_pending++;
	s->n_pending++;
	if (!u->unfinished++)
		s->n_busy_users++;
	/* a credited campaign (§11) may open virtually complete: its first
	 * job is not a restart, it keeps the credited floor */
	if (ost_user_vtime(s, u) < c->vfinish ||
	    (s->cfg.memory && !s->cfg.memory_key &&
	     c->n_pending + c->n_running + c->n_done == 1)) {
		c->len += a / u->weight;
	} else {
		c->phi = c->vrel = ost_user_vtime(s, u);
		c->behind = _behind(c);
		c->len = a / u->weight;
		c->restarted = false;
	}
	c->area += a;
	c->area_est += a;
	c->area_pend += a;
	if (j->estimate > c->max_e) {
		c->max_e = j->estimate;
		c->n_at_max = 1;
	} else if (j->estimate == c->max_e) {
		c->n_at_max++;
	}
	ost_campaign_rederive(s, c);
}

/* Unlink j from its campaign's unfinished list. */
static void _unlink_job(ost_campaign_t *c, ost_job_t *j)
{
	if (j->prev)
		j->prev->next = j->next;
	else
		c->jobs = j->next;
	if (j->next)
		j->next->prev = j->prev;
	j->next = j->prev = NULL;
}

/* One unfinished job less for the user (k_c counts busy users). */
static void _user_job_done(ost_sched_t *s, ost_user_t *u)
{
	if (!--u->unfinished)
		s->n_busy_users--;
}

/*
 * L moves by delta / w (delta in CPU-seconds), never below 0, so F never
 * goes below S (§3).  A campaign whose F falls to v or below is virtually
 * complete at once: the re-derivation takes its user out of W if it was
 * the newest.
 */
static void _correct(ost_campaign_t *c, double delta)
{
	c->area += delta;
	c->len += delta / c->user->weight;
	if (c->len < 0.0)
		c->len = 0.0;
}

/*
 * A join of area d > 0 CPU-seconds at the clock (§3.4): A_c += d, and
 * L += d / w while v < F_c, else c restarts at v (phi = v, L = d / w).
 */
static void _grow(ost_sched_t *s, ost_campaign_t *c, double d)
{
	double v = ost_user_vtime(s, c->user);

	c->area += d;
	if (v < c->vfinish) {
		c->len += d / c->user->weight;
	} else {
		c->phi = c->vrel = v;
		c->behind = _behind(c);
		c->len = d / c->user->weight;
		c->restarted = false;
	}
}

bool ost_campaign_rejoin(ost_sched_t *s, ost_campaign_t *c)
{
	double v = ost_user_vtime(s, c->user);
	double len = c->area_pend / c->user->weight;

	if (!(v + len > v))
		return false;
	c->phi = c->vrel = v;
	c->behind = _behind(c);
	c->len = len;
	c->restarted = true;
	return true;
}

/*
 * Running job j finished at t after runtime p seconds: A_c += q (p - e)
 * (§3), E_c = max(E_c, t).  j stays allocated (the caller frees it).
 */
void ost_campaign_finish_job(ost_sched_t *s, ost_job_t *j, double t,
			     double runtime)
{
	ost_campaign_t *c = j->camp;

	if (ost_job_ordered(j))
		ost_chain_track(s, j, 0, 0);	/* §22: one less */
	_unlink_job(c, j);
	c->n_running--;
	c->n_done++;
	if (t > c->last_end)
		c->last_end = t;
	/* the done jobs hold max_e once, whatever their number */
	if (j->estimate == c->max_e && c->max_e_done == c->max_e)
		c->n_at_max--;
	if (j->estimate > c->max_e_done)
		c->max_e_done = j->estimate;
	_user_job_done(s, c->user);
	_correct(c, (double)j->procs * (runtime - j->estimate));
	_close(s, c);
	ost_campaign_defer(s, c);	/* its pending count is unchanged */
}

/*
 * Job j of c (pending, or just started) changes width q -> q' and/or
 * estimate e -> e'.  With d = q'e' - qe CPU-seconds:
 *
 *   A_c += d,  A_est += d  (the campaign now announces the new work; A_est
 *                           never below 0, as on cancellation)
 *   d > 0:  as a join of area d (§3.4): L += d / w while v < F_c,
 *           else c restarts at v: phi = v, L = d / w
 *   d < 0:  as a correction (§3.4): L = max(0, L + d / w)
 *   max e:  recounted with e' in place of e
 *
 * so a job that grew ranks and is charged as if submitted at its new size,
 * minus the work V already gave the campaign.  The tags are not re-derived
 * here and j's place in c->pending is the caller's (the intra order reads
 * q and e): the caller re-derives once j is where it belongs.
 */
void ost_campaign_resize_job(ost_sched_t *s, ost_job_t *j, uint32_t procs,
			     double estimate)
{
	ost_campaign_t *c = j->camp;
	double old_e = j->estimate;
	double d = (double)procs * estimate - (double)j->procs * old_e;

	ost_campaign_settle_user(s, c->user);	/* reads F_c */
	j->procs = procs;
	j->estimate = estimate;
	if (estimate != old_e) {
		if (old_e == c->max_e && estimate > old_e) {
			c->max_e = estimate;
			c->n_at_max = 1;
		} else if (old_e == c->max_e) {
			if (!--c->n_at_max)
				ost_campaign_rescan_max_e(c);
		} else if (estimate > c->max_e) {
			c->max_e = estimate;
			c->n_at_max = 1;
		} else if (estimate == c->max_e) {
			c->n_at_max++;
		}
	}
	if (d == 0.0)
		return;
	if (j->state == OST_JOB_PENDING)
		c->area_pend += d;
	c->area_est += d;
	if (c->area_est < 0.0)
		c->area_est = 0.0;
	if (d < 0.0) {
		_correct(c, d);		/* A_c and L */
		return;
	}
	_grow(s, c, d);
}

/*
 * Running job j of c stops at t without finishing (a requeue): the
 * p = t - start seconds it ran are charged at once, as a join of area
 * q p (§3.4, §9.4), while its estimate stays counted for the run to come.
 * A requeued job thus pays for every run.  The caller re-derives.
 */
void ost_campaign_charge_run(ost_sched_t *s, ost_job_t *j, double t)
{
	double run = t - ost_job_started(j);

	if (!(run > 0.0))		/* NAN: not running */
		return;
	ost_campaign_settle_user(s, j->camp->user);	/* reads F_c */
	_grow(s, j->camp, (double)j->procs * run);
}

/* A pending job of area a left c's pending jobs (A^pend_c, §13): exactly 0
 * once none is left, so rounding never accumulates across bursts. */
void ost_campaign_pend_less(ost_campaign_t *c, double a)
{
	c->area_pend = c->n_pending ? c->area_pend - a : 0.0;
}

/* max e over non-cancelled jobs and how many hold it (done ones: 1). */
void ost_campaign_rescan_max_e(ost_campaign_t *c)
{
	const ost_job_t *j;

	c->max_e = c->max_e_done > 0.0 ? c->max_e_done : 0.0;
	c->n_at_max = c->max_e_done == c->max_e ? 1 : 0;
	for (j = c->jobs; j; j = j->next) {
		if (j->estimate > c->max_e) {
			c->max_e = j->estimate;
			c->n_at_max = 1;
		} else if (j->estimate == c->max_e) {
			c->n_at_max++;
		}
	}
}

/*
 * Pending job j is cancelled: it leaves c and its area is removed, as a
 * correction with p = 0 (§4).  j stays allocated (the caller frees it).
 */
void ost_campaign_cancel_job(ost_sched_t *s, ost_job_t *j)
{
	ost_campaign_t *c = j->camp;
	double a = (double)j->procs * j->estimate;

	ost_walk_remove(c, j);
	ost_tree_remove(&c->pending, &j->node);
	if (ost_job_ordered(j))
		ost_chain_track(s, j, 0, 0);	/* §22: one less */
	_unlink_job(c, j);
	c->n_pending--;
	s->n_pending--;
	ost_campaign_pend_less(c, a);
	_user_job_done(s, c->user);
	c->area_est -= a;
	if (c->area_est < 0.0)
		c->area_est = 0.0;
	if (j->estimate == c->max_e && !--c->n_at_max)
		ost_campaign_rescan_max_e(c);
	_correct(c, -a);
	_close(s, c);
	/* the pending count is the order's weight, which needs no key */
	if (c->in_order && c->n_pending)
		ost_tree_set_weight(&s->order, &c->node, c->n_pending);
	else if (c->in_order)
		ost_order_unlink(s, c);
	ost_campaign_defer(s, c);
}

/*
 * Shift every real time of u and its campaigns by delta seconds (t_c, E_c,
 * the base deadline; -inf stays -inf) and re-derive their deadlines, which
 * are real times derived from them.  Virtual tags do not move.  The order
 * is the caller's to rebuild (deadlines move one campaign at a time).
 */
void ost_campaign_rebase_user(ost_sched_t *s, ost_user_t *u, double delta)
{
	ost_campaign_t *c;

	u->base_deadline += delta;
	for (c = u->first; c; c = c->next) {
		c->t_c += delta;
		c->last_end += delta;
	}
	if (u->first)
		ost_campaign_rederive(s, u->first);
}

/* Map job-array group g to c.  Returns 0 or -1 (memory; nothing done). */
int ost_campaign_add_group(ost_sched_t *s, ost_campaign_t *c, uint64_t g)
{
	uint64_t *v = realloc(c->groups, (c->n_groups + 1) * sizeof(*v));

	if (!v)
		return -1;
	c->groups = v;
	if (ost_map_put(&s->groups, g, c))
		return -1;
	v[c->n_groups++] = g;
	return 0;
}

/* Free c (already unlinked from the user and from the order). */
void ost_campaign_free(ost_sched_t *s, ost_campaign_t *c)
{
	size_t i;

	for (i = 0; i < c->n_groups; i++)
		if (ost_map_get(&s->groups, c->groups[i]) == c)
			ost_map_del(&s->groups, c->groups[i]);
	free(c->groups);
	ost_walk_drop(c);
	free(c);
}

/*
 * Forget u's oldest campaigns that can no longer change: no unfinished job
 * and not the newest.  Their F and D live on as the user's base, so the
 * later campaigns re-derive the same tags.
 */
void ost_campaign_forget_old(ost_sched_t *s, ost_user_t *u)
{
	ost_campaign_t *c = u->first;

	if (c && c != u->last && !ost_campaign_unfinished(c))
		ost_campaign_settle_user(s, u);	/* the base takes its F, D */
	if (u->n_nice || u->tail)	/* §22: the oldest may not come first
					 * in the chain: keep it */
		return;
	while ((c = u->first) && c != u->last && !ost_campaign_unfinished(c)) {
		u->base_vfinish = c->vfinish;
		u->base_deadline = c->deadline;
		u->first = c->next;
		u->first->prev = NULL;
		ost_order_unlink(s, c);
		s->n_campaigns--;
		ost_campaign_free(s, c);
	}
}

/* The public view of c, without C~ and rank (filled by the caller). */
void ost_campaign_fill_info(const ost_sched_t *s, const ost_campaign_t *c,
			    ost_campaign_info_t *out)
{
	out->uid = c->user->uid;
	out->seq = c->seq;
	out->submit = c->t_c;
	out->area = c->area;
	out->vstart = c->vstart;
	out->vfinish = c->vfinish;
	out->vct = NAN;
	out->deadline = c->deadline;
	out->k = c->k;
	out->weight = c->user->weight;
	if (ost_user_vtime(s, c->user) >= c->vfinish)
		out->vstate = OST_VSTATE_COMPLETE;
	else if (ost_user_vtime(s, c->user) >= c->vstart)
		out->vstate = OST_VSTATE_RUNNING;
	else
		out->vstate = OST_VSTATE_QUEUED;
	out->eligible = c->eligible || !c->n_pending;
	out->pending = c->n_pending;
	out->running = c->n_running;
	out->done = c->n_done;
	out->first_rank = c->in_order ? ost_tree_weight_before(&c->node) + 1
				      : 0;
}
