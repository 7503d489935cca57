/*****************************************************************************\
 *  ost_advance.c - moving the clock: v from one breakpoint to the next (§3),
 *  the gate opening on the way (§4), the steps of §12 at their instants
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Above the campaigns, the order and the accounts: an advance settles
 *  the deferred tags (ost_settle.c) and re-sorts what the breakpoints
 *  change, while the arithmetic of v, C and W it uses is ost_vclock.c's
 *  and ost_acct.c's, below.
\*****************************************************************************/

#include "ost_internal.h"

#define CAMP_OF_GATE(h) ost_container_of(h, ost_campaign_t, gate)

/* §27: u's last campaign, complete in V, rejoins it with its pending
 * work if the rule lets it; then u stays in W.  True if it did. */
static bool _rejoin(ost_sched_t *s, ost_user_t *u)
{
	ost_campaign_t *e = u->tail ? u->tail : u->last;

	if (!e || ost_user_vtime(s, u) < e->vfinish ||
	    !ost_campaign_may_rejoin(s, e) || !ost_campaign_rejoin(s, e))
		return false;
	ost_campaign_rederive(s, e);	/* puts u back in W */
	return true;
}

/* §27: the users that became complete in V with work pending at the
 * events of the instant that just ended rejoin, before v moves on. */
static void _rejoin_queued(ost_sched_t *s)
{
	ost_user_t *u;

	while ((u = s->overdue)) {
		s->overdue = u->next_overdue;
		u->next_overdue = NULL;
		u->in_overdue = false;
		(void)_rejoin(s, u);
	}
}

/* Users (and accounts, §21) whose latest F has been reached leave W
 * (exactly at v = F); the accounts among them leave with their subtree. */
static void _pop_inactive(ost_sched_t *s)
{
	ost_hkey_t *h;

	if (s->n_kids_active)
		ost_acct_follow_kids(s, NULL);
	while ((h = ost_hkey_top(&s->active)) && h->key <= s->vtime) {
		if (!(h->tie & OST_TIE_ACCT) &&
		    _rejoin(s, ost_container_of(h, ost_user_t, active)))
			continue;
		ost_hkey_remove(&s->active, h);
		s->n_active--;
		s->total_weight -= ost_hkey_weight(h);
		if (!s->n_active)
			s->total_weight = 0.0;
		if (h->tie & OST_TIE_ACCT) {
			s->n_kids_active--;
			ost_acct_leave(s, ost_container_of(h, ost_acct_t, hk));
		}
	}
}

/* Campaigns whose S has been reached become eligible (§4). */
static void _pop_eligible(ost_sched_t *s)
{
	ost_hkey_t *h;

	while ((h = ost_hkey_top(&s->gate)) && h->key <= s->vtime) {
		ost_campaign_t *c = CAMP_OF_GATE(h);

		/* the order places settled campaigns only */
		ost_campaign_settle_user(s, c->user);
		ost_order_reindex(s, c);
	}
}

/*
 * Move the clock to t (ignored when t <= now).  Breakpoints: the smallest F
 * among active users and, only when C depends on it (strict gate, used
 * capacity, no eligible pending work), the smallest S among non-eligible
 * campaigns.  Reaching a breakpoint sets v to it exactly, so tags compare
 * equal to v at their own instant.  Time to go from v to x at rate C / W:
 * dt = (x - v) * W / C seconds.
 */
static void _advance(ost_sched_t *s, double t)
{
	if (!(t > s->now)) {
		_pop_eligible(s);
		return;
	}
	/* v moves at C / W: W, C and the breakpoints need settled tags */
	ost_campaign_settle(s);
	if (isinf(s->now)) {
		s->now = t;
		return;
	}
	_rejoin_queued(s);
	while (s->now < t) {
		double c = ost_vclock_capacity(s), x, dt;
		ost_hkey_t *h = ost_hkey_top(&s->active);
		bool by_gate;

		if (!s->n_active || !(c > 0.0)) {
			s->now = t;
			break;
		}
		x = h->key;
		by_gate = s->cfg.gate == OST_GATE_STRICT &&
			  s->cfg.capacity == OST_CAPACITY_USED &&
			  !s->n_eligible && ost_heap_top(&s->gate);
		if (by_gate && ost_hkey_top(&s->gate)->key < x)
			x = ost_hkey_top(&s->gate)->key;
		dt = (x > s->vtime) ? (x - s->vtime) * s->total_weight / c
				    : 0.0;
		if (s->now + dt <= t) {
			s->now += dt;
			if (x > s->vtime)
				s->vtime = x;
			_pop_inactive(s);
			if (by_gate)
				_pop_eligible(s);
		} else {
			s->vtime += (t - s->now) * c / s->total_weight;
			s->now = t;
			if (s->n_kids_active)
				ost_acct_follow_kids(s, NULL);
		}
	}
	_pop_eligible(s);
}

/*
 * Step of running j at the current clock (§12): its charge doubles, up to
 * e_full, as a resize of its estimate (§3.4), and the tags are re-derived.
 * O(later campaigns * log n).
 */
static void _step(ost_sched_t *s, ost_job_t *j)
{
	double c = 2.0 * j->estimate;

	ost_variant_untrack(s, j);
	ost_campaign_resize_job(s, j, j->procs, c < j->e_full ? c : j->e_full);
	ost_campaign_rederive(s, j->camp);
	ost_variant_track(s, j);
}
/*
 * Move the clock to t, applying on the way the steps of §12 due by then,
 * each at its own instant (one due before the clock, learnt late, at the
 * clock).  Without the variant s->steps is empty.
 */
void ost_vclock_advance(ost_sched_t *s, double t)
{
	ost_hkey_t *h;

	while ((h = ost_hkey_top(&s->steps)) && h->key <= t) {
		_advance(s, h->key);
		_step(s, ost_container_of(h, ost_job_t, step));
	}
	_advance(s, t);
}

/*
 * Next breakpoint of ost_vclock_advance() in real time: x = min(smallest
 * F among active users, smallest S among queued pending campaigns), reached
 * after (x - v) W / C seconds at the current rate.
 */
double ost_sched_next_vevent(const ost_sched_t *s)
{
	ost_hkey_t *a, *g;
	double c, x;

	ost_campaign_settle(s);
	a = ost_hkey_top(&s->active);
	g = ost_hkey_top(&s->gate);
	c = ost_vclock_capacity(s);

	if (!a || !(c > 0.0) || isinf(s->now))
		return INFINITY;
	x = a->key;
	if (g && g->key < x)
		x = g->key;
	if (x <= s->vtime)
		return s->now;
	return s->now + (x - s->vtime) * s->total_weight / c;
}
