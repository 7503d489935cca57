/*****************************************************************************\
 *  ost_settle.c - the deferred re-derivation of tags (§3.4)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Above the tags (ost_tags.c), a user's own order of campaigns
 *  (ost_chain.c, §22) and the order (ost_order.c): the settle walks a
 *  marked user's campaigns, re-derives and re-sorts them, and puts the
 *  user in W again; every reader of tags settles first.
\*****************************************************************************/

#include "ost_internal.h"

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
		double pf = ost_campaign_prev_vfinish(c), S, F, D;
		bool same;

		ost_campaign_tags(s, c, pf, &S, &F);
		D = ost_campaign_deadline(s, c, ost_campaign_prev_deadline(c));
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
