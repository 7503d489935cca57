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
 *  that re-derivation waits for the next read of a tag (ost_campaign_defer
 *  below).
\*****************************************************************************/

#include <stdlib.h>

#include "ost_internal.h"

static double _prev_vfinish(const ost_campaign_t *c)
{
	return c->prev ? c->prev->vfinish : c->user->base_vfinish;
}

static double _prev_deadline(const ost_campaign_t *c)
{
	return c->prev ? c->prev->deadline : c->user->base_deadline;
}

/*
 * Deferred re-derivation.  A finish or a cancel only moves phi, L or the
 * areas of one campaign c; the tags of c and of every later campaign of
 * its user follow from them.  Re-deriving (and re-sorting) those later
 * campaigns at every such event costs O(later campaigns * log n) each
 * time: with 10 users holding 100 queued campaigns each, a pass of 333
 * finishes re-sorted ~18,000 campaigns.  Instead the event marks c
 * (ost_campaign_defer): the user remembers its oldest and newest marked
 * campaigns, and the re-derivation runs once, when something reads a tag
 * (ost_campaign_settle_user / ost_campaign_settle).  A batch of events
 * then costs O(log n) each plus, per user touched, one walk from its
 * oldest marked campaign: O(later campaigns * log n) per user per pass
 * instead of per event.
 *
 * The tags are a pure function of (phi, L, k, t_c, A_est, max e) along
 * the user's list, and the events that are deferred never read a tag, so
 * a settle derives the very bits the eager re-derivation would have
 * derived after the last event: the property test compares them with a
 * from-scratch reference after every event.  (Lazy offsets on F, "add
 * delta to a subtree", would round differently from the chain
 * S = max(phi, F_prev), F = S + L, and lose that identity.)
 *
 * Between a deferred event and its settle, a marked user's campaigns keep
 * their old tags, place in s->order and s->gate, and the user its old
 * place in W; the tree and heaps stay consistent with those stored values,
 * so inserting other campaigns is safe.  Settled before: any tag read by
 * an event (a join, a resize, a new campaign, forgetting), any re-sort of
 * one of the user's campaigns, every advance of the clock, every query,
 * a reconfiguration, a weight change, a save.
 */

/* Mark c changed: its tags and its later campaigns' are stale. O(1). */
void ost_campaign_defer(ost_sched_t *s, ost_campaign_t *c)
{
	ost_user_t *u = c->user;

	if (!u->dirty) {
		u->dirty = u->dirty_to = c;
	} else {
		if (c->seq < u->dirty->seq)
			u->dirty = c;
		if (c->seq > u->dirty_to->seq)
			u->dirty_to = c;
	}
	if (!u->in_dirty) {
		u->in_dirty = true;
		u->next_dirty = s->dirty;
		s->dirty = u;
	}
}

/*
 * The order key of c with tags S, F: F by default; P = max(S, F - A^pend
 * / w) with Rank=served (§13); min(F, P + Lambda / w) with Rank=capped
 * (§14); each minus kappa / w, the credit kept with Memory=key (§15; 0
 * otherwise, and x - 0 is x).
 */
static double _key(const ost_sched_t *s, const ost_campaign_t *c, double S,
		   double F)
{
	double w = c->user->weight, P;

	if (s->cfg.rank == OST_RANK_FINISH)
		return F - c->credit / w;
	P = F - c->area_pend / w;
	if (P < S)
		P = S;
	if (s->cfg.rank == OST_RANK_CAPPED) {
		P += s->cfg.rank_cap * (double)s->cfg.procs / w;
		if (F < P)
			P = F;
	}
	return P - c->credit / w;
}

/*
 * S_c and F_c from phi, L, and pf = F_prev, all in the unit of v
 * (CPU-seconds per unit weight), under Lead= (§24):
 *
 *   keep     S = max(phi, pf)                           F = S + L
 *   cap      S = max(phi, min(pf, v_rel + kappa L))     F = S + L
 *   forgive  S = max(phi, pf)                           F = max(S, min(S + L, cut))
 *
 * v_rel is v when c opened or restarted, cut v when its last unfinished
 * job left (+inf while it has one).  cap: a campaign inherits at most
 * kappa times its own length of the lead its user's earlier campaigns
 * took in the real schedule over V.  forgive: a campaign that has no job
 * left in the real schedule is over in V too, its remaining virtual
 * length forgiven, so the next one starts at its own floor.  Both are
 * functions of stored inputs, never adjustments of a tag, so the tags
 * stay derived (§3.3).  keep is, bit for bit, the formula of §3.3.
 */
void ost_campaign_tags(const ost_sched_t *s, const ost_campaign_t *c,
		       double pf, double *S, double *F)
{
	if (s->cfg.lead == OST_LEAD_CAP) {
		double lim = c->vrel + s->cfg.lead_cap * c->len;

		if (lim < pf)
			pf = lim;
	}
	*S = c->phi > pf ? c->phi : pf;
	*F = *S + c->len;
	if (s->cfg.lead == OST_LEAD_FORGIVE && *F > c->cut)
		*F = c->cut > *S ? c->cut : *S;
}

/* D_c after D_prev = pd (§5): max(t_c, pd) + k_c max(A_est / m, max e). */
double ost_campaign_deadline(const ost_sched_t *s, const ost_campaign_t *c,
			     double pd)
{
	double len = c->area_est / (double)s->cfg.procs;

	if (c->max_e > len)
		len = c->max_e;
	return (c->t_c > pd ? c->t_c : pd) + (double)c->k * len;
}

bool ost_campaign_set_tags(ost_sched_t *s, ost_campaign_t *c, double S,
			   double F, double D)
{
	bool faircamp = s->cfg.mode == OST_MODE_FAIRCAMP;
	double K = _key(s, c, S, F);
	bool moved, same;

	same = S == c->vstart && F == c->vfinish && D == c->deadline &&
	       K == c->ukey;
	moved = faircamp ? D != c->deadline : S != c->vstart || K != c->ukey;
	c->vstart = S;
	c->vfinish = F;
	c->deadline = D;
	c->ukey = K;
	if (!c->user->acct)
		c->key = K;	/* else projected (§21, reindex) */
	if (moved || c->resort) {
		c->resort = false;
		ost_order_reindex(s, c);
	}
	return same;
}

/*
 * Re-derive S, F and D from u's oldest marked campaign on, re-sort those
 * whose key moved (and the marked ones that asked for it), and update u's
 * place in W.  Stops at the first campaign at or after the newest marked
 * one whose tags did not move: a later campaign depends on it only through
 * F and D.  A user who orders its own campaigns (§22) is re-derived whole
 * (ost_chain.c).  O(campaigns walked * log n); O(1) when u is settled.
 */
void ost_campaign_settle_user(ost_sched_t *s, ost_user_t *u)
{
	ost_campaign_t *c = u->dirty, *to = u->dirty_to;
	bool past = false;

	if (!c)
		return;
	/* before any re-sort: ost_order_reindex() settles a marked user */
	u->dirty = u->dirty_to = NULL;
	/* §22 reorders a chain of S = F_prev; with another lead (§24) the
	 * campaigns keep their arrival order */
	if (u->n_nice && s->cfg.lead == OST_LEAD_KEEP) {
		ost_chain_settle(s, u);
		return;
	}
	u->tail = NULL;
	for (; c; c = c->next) {
		double pf = _prev_vfinish(c), S, F, D;
		bool same;

		ost_campaign_tags(s, c, pf, &S, &F);
		D = ost_campaign_deadline(s, c, _prev_deadline(c));
		same = ost_campaign_set_tags(s, c, S, F, D);
		if (c == to)
			past = true;
		if (past && same)
			break;
	}
	ost_vclock_user_update(s, u);
}

/*
 * Settle every marked user (s is logically const: only derived values
 * move, to what they would be had no re-derivation been deferred).
 * O(sum over marked users of their campaigns walked * log n).
 */
void ost_campaign_settle(const ost_sched_t *cs)
{
	ost_sched_t *s = (ost_sched_t *)cs;
	ost_user_t *u;

	while ((u = s->dirty)) {
		s->dirty = u->next_dirty;
		u->next_dirty = NULL;
		u->in_dirty = false;
		ost_campaign_settle_user(s, u);
	}
	if (s->acct_dirty)
		ost_acct_rekey(s);	/* §21: keys across accounts */
}

/*
 * Re-derive S, F and D of c and of the user's later campaigns now (c is
 * re-sorted whatever its tags, since its pending count may have changed),
 * and update the user's place in W.  O(later campaigns * log n).
 */
void ost_campaign_rederive(ost_sched_t *s, ost_campaign_t *c)
{
	c->resort = true;
	ost_campaign_defer(s, c);
	ost_campaign_settle_user(s, c->user);
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
	c->phi = c->vrel - credit;
	c->k = s->cfg.faircamp_users ? s->cfg.faircamp_users
				     : s->n_busy_users + (u->unfinished ? 0 : 1);
	u->last_seq = seq;
	ost_campaign_tags(s, c, _prev_vfinish(c), &c->vstart, &c->vfinish);
	c->key = c->ukey = c->vstart - c->credit / u->weight;
	c->deadline = c->t_c > _prev_deadline(c) ? c->t_c : _prev_deadline(c);
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
		c->len = a / u->weight;
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
		c->len = d / c->user->weight;
	}
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
