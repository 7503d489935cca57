/*****************************************************************************\
 *  ost_chain.c - users order their own campaigns (§22)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  A user's campaigns follow one another in V: S_c = max(phi_c, F_prev).
 *  Cut that chain, in arrival order, where a campaign's floor lies past
 *  the previous F (phi_c > F_prev: the user was idle in V in between);
 *  inside each piece every S is the previous F, so the piece's end
 *
 *      F_end = S_first + sum of L over the piece
 *
 *  does not depend on the order of its campaigns.  A user who gives its
 *  jobs a nice (lower first) or lowers one (the most recent first) has
 *  each piece's campaigns taken in the order of their first pending job
 *  (ost_job_order_cmp; 0 without), then arrival, from
 *  the piece's start: a campaign moved ahead takes the start of the one
 *  it passes, which moves back by its length.  F_end is summed in arrival
 *  order whatever the order (the piece's last campaign ends there), so
 *  the user's place in W, v and every other user's tags stay bit for bit.
 *  With every nice 0 the order is the arrival order and the tags are, bit
 *  for bit, those of ost_campaign_settle_user().  FairCamp's deadlines
 *  (§5) stay in arrival order.
\*****************************************************************************/

#include "ost_internal.h"

/* c's place among its owner's campaigns: that of its first pending job
 * in §22's order (ost_job_order_cmp), 0 and 0 without.  O(unfinished jobs
 * of c). */
static void _corder(ost_campaign_t *c)
{
	const ost_job_t *j;
	bool any = false;

	c->cnice = 0;
	c->clowered = 0;
	for (j = c->jobs; j; j = j->next)
		if (j->state == OST_JOB_PENDING &&
		    (!any || ost_job_order_cmp(j->lowered, j->nice,
					       c->clowered, c->cnice) < 0)) {
			c->cnice = j->nice;
			c->clowered = j->lowered;
			any = true;
		}
}

static bool _before(const ost_campaign_t *a, const ost_campaign_t *b)
{
	int o = ost_job_order_cmp(a->clowered, a->cnice, b->clowered,
				  b->cnice);

	return o ? o < 0 : a->seq < b->seq;
}

/* Sort the list h (by cnext) by (_corder, seq): a merge sort, O(k log k),
 * no memory, recursion depth log k. */
static ost_campaign_t *_sort(ost_campaign_t *h)
{
	ost_campaign_t *a = h, *b, *slow = h, *fast, **t;

	if (!h || !h->cnext)
		return h;
	for (fast = h->cnext; fast && fast->cnext; fast = fast->cnext->cnext)
		slow = slow->cnext;
	b = slow->cnext;
	slow->cnext = NULL;
	a = _sort(a);
	b = _sort(b);
	for (t = &h; a && b; t = &(*t)->cnext) {
		if (_before(b, a)) {
			*t = b;
			b = b->cnext;
		} else {
			*t = a;
			a = a->cnext;
		}
	}
	*t = a ? a : b;
	return h;
}

/*
 * Re-derive all of u's tags in its chain order (u has a job with a nice):
 * deadlines in arrival order, then piece by piece the campaigns sorted and
 * tagged from the piece's start.  u->tail is the chain's last campaign.
 * O(campaigns of u * log n + unfinished jobs of u).
 */
void ost_chain_settle(ost_sched_t *s, ost_user_t *u)
{
	bool faircamp = s->cfg.mode == OST_MODE_FAIRCAMP;
	double f = u->base_vfinish, pd = u->base_deadline;
	ost_campaign_t *c = u->first, *x, *last, *tail = NULL;

	while (c) {
		/* the piece from c: its start, and its end e summed in
		 * arrival order (the bits the unordered chain has) */
		double S = c->phi > f ? c->phi : f, e = S + c->len;

		for (x = c, last = NULL; x && (x == c || !(x->phi > e));
		     x = x->next) {
			double D = ost_campaign_deadline(s, x, pd);

			if (x != c)
				e += x->len;
			if (D != x->deadline) {
				x->resort |= faircamp;
				x->deadline = D;
			}
			pd = D;
			_corder(x);
			x->cnext = NULL;
			if (last)
				last->cnext = x;
			last = x;
		}
		/* in chain order; the last ends at e exactly, so the
		 * user's F in W does not move with the order */
		for (last = _sort(c); last; last = last->cnext) {
			double F = last->cnext ? S + last->len : e;

			(void)ost_campaign_set_tags(s, last, S, F,
						    last->deadline);
			S = F;
			tail = last;
		}
		f = e;
		c = x;
	}
	u->tail = tail;
	ost_vclock_user_update(s, u);
}

/*
 * Job j (in its campaign) takes nice and lowered: the counts of ordered
 * jobs follow, and u's whole chain is marked, since any campaign's place
 * in it may move.  O(1).
 */
void ost_chain_track(ost_sched_t *s, ost_job_t *j, int32_t nice,
		     uint32_t lowered)
{
	ost_user_t *u = j->camp->user;
	bool was = ost_job_ordered(j), is = nice || lowered;

	if (was != is) {
		u->n_nice += is ? 1 : -1;
		s->n_nice += is ? 1 : (uint64_t)-1;
	}
	if (!j->lowered != !lowered) {
		s->n_lowered += lowered ? 1 : (uint64_t)-1;
		if (!s->n_lowered)	/* numbers only order unfinished jobs:
					 * start again, as a state without
					 * any does */
			s->lowered_seq = 0;
	}
	j->nice = nice;
	j->lowered = lowered;
	if (lowered > s->lowered_seq)	/* a restored state */
		s->lowered_seq = lowered;
	ost_campaign_defer(s, u->first);
	ost_campaign_defer(s, u->last);
}
