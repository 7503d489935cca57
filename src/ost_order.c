/*****************************************************************************\
 *  ost_order.c - the priority order of campaigns (§4, §5)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Campaigns with pending jobs sit in s->order, sorted by
 *
 *      OStrich:  (eligible first, F_c, t_c, uid, seq)  (P_c for F_c with
 *                Rank=served, §13: c->key holds the one in force;
 *                without the first term with gate=none, §24)
 *      FairCamp: (D_c, t_c, uid, seq)
 *
 *  Sorting by F_c is sorting by C~_c: v is increasing in real time, so the
 *  campaign whose finish tag comes first is reached first; nothing is
 *  recomputed when v moves.  Eligibility (v >= S_c) only flips from false
 *  to true as v grows; the non-eligible campaigns wait in the heap s->gate
 *  keyed by S_c and are re-sorted when v reaches it.  A tree node's weight
 *  is its campaign's number of pending jobs, so a job's rank is the weight
 *  before its campaign plus its position inside (O(log n)).
 *
 *  The order places campaigns by their stored tags and never settles: its
 *  callers settle the users first (ost_settle.c, above), so the order only
 *  calls down, to the accounts' projection of keys (§21, ost_acct.c).
\*****************************************************************************/

#include "ost_internal.h"

#define CAMP(n) ost_container_of(n, const ost_campaign_t, node)
#define CMP(x, y) do { if ((x) != (y)) return ((x) < (y)) ? -1 : 1; } while (0)

static int _cmp_tail(const ost_campaign_t *a, const ost_campaign_t *b)
{
	CMP(a->t_c, b->t_c);
	CMP(a->user->uid, b->user->uid);
	CMP(a->seq, b->seq);
	CMP(a->user->tie, b->user->tie);	/* -A leaves of one uid */
	return 0;
}

static int _cmp_ostrich(const ost_tnode_t *x, const ost_tnode_t *y)
{
	const ost_campaign_t *a = CAMP(x), *b = CAMP(y);

	CMP(!a->eligible, !b->eligible);
	CMP(a->key, b->key);
	return _cmp_tail(a, b);
}

/* gate=none (§24): the key alone.  Eligibility is still kept (queries,
 * the capacity proviso) but does not order. */
static int _cmp_nogate(const ost_tnode_t *x, const ost_tnode_t *y)
{
	const ost_campaign_t *a = CAMP(x), *b = CAMP(y);

	CMP(a->key, b->key);
	return _cmp_tail(a, b);
}

static int _cmp_faircamp(const ost_tnode_t *x, const ost_tnode_t *y)
{
	const ost_campaign_t *a = CAMP(x), *b = CAMP(y);

	CMP(a->deadline, b->deadline);
	return _cmp_tail(a, b);
}

ost_tree_cmp_f ost_order_cmp(const ost_config_t *cfg)
{
	if (cfg->mode == OST_MODE_FAIRCAMP)
		return _cmp_faircamp;
	return cfg->gate == OST_GATE_NONE ? _cmp_nogate : _cmp_ostrich;
}

/* Take c out of s->order and s->gate. */
void ost_order_unlink(ost_sched_t *s, ost_campaign_t *c)
{
	if (c->in_order) {
		ost_tree_remove(&s->order, &c->node);
		c->in_order = false;
		if (c->eligible)
			s->n_eligible--;
	}
	if (ost_hnode_linked(&c->gate.node))
		ost_hkey_remove(&s->gate, &c->gate);
}

/*
 * Re-sort c after its tags, deadline, eligibility or pending count changed.
 * Cannot fail: the gate heap holds a slot for every campaign (reserved in
 * ost_campaign_open()).  O(log n).
 */
void ost_order_reindex(ost_sched_t *s, ost_campaign_t *c)
{
	double gate = c->vstart;

	ost_order_unlink(s, c);
	if (c->user->acct) {	/* §21: key and S in the root's v */
		ost_acct_key(s, c);
		/* S reached in its account: Phi(S) <= v, no need to carry */
		gate = c->vstart <= c->user->acct->vtime
			       ? s->vtime
			       : ost_acct_project(s, c->user, c->vstart);
	}
	c->eligible = s->cfg.mode == OST_MODE_FAIRCAMP || s->vtime >= gate;
	if (!c->n_pending)
		return;
	ost_tree_insert(&s->order, &c->node, c->n_pending);
	c->in_order = true;
	if (c->eligible)
		s->n_eligible++;
	else
		(void)ost_hkey_push(&s->gate, &c->gate, gate,
				    ((uint64_t)c->user->uid << 32) | c->seq);
}

/* Re-sort everything after the mode or intra order changed (the caller
 * settles first: a settle re-sorts into the current tree).  O(n log n). */
int ost_order_rebuild(ost_sched_t *s)
{
	size_t i;

	ost_tree_init(&s->order, ost_order_cmp(&s->cfg));
	s->n_eligible = 0;
	s->gate.n = 0;
	for (i = 0; s->users.slots && i <= s->users.mask; i++) {
		ost_user_t *u = s->users.slots[i].val;
		ost_campaign_t *c;

		if (!s->users.slots[i].key)
			continue;
		for (c = u->first; c; c = c->next) {
			ost_job_t *j;

			c->in_order = false;
			ost_hnode_init(&c->gate.node);
			ost_walk_drop(c);
			ost_tree_init(&c->pending, ost_intra_cmp(s->cfg.intra));
			for (j = c->jobs; j; j = j->next)
				if (j->state == OST_JOB_PENDING)
					ost_tree_insert(&c->pending, &j->node,
							1);
			ost_order_reindex(s, c);
		}
	}
	return 0;
}

/* c's new key keeps it between its neighbours in s->order: the tree
 * stays sorted with the key changed in place (adjacent pairs in order is
 * the whole sequence in order), without a removal and an insertion. */
static bool _still_sorted(const ost_sched_t *s, ost_campaign_t *c)
{
	const ost_tnode_t *p = ost_tree_prev(&c->node);
	const ost_tnode_t *n = ost_tree_next(&c->node);

	return (!p || s->order.cmp(p, &c->node) <= 0) &&
	       (!n || s->order.cmp(&c->node, n) <= 0);
}

static void _rekey_tree(ost_sched_t *s, ost_acct_t *a)
{
	ost_user_t *u;
	ost_acct_t *k;

	for (u = a->users; u; u = u->next_in) {
		ost_campaign_t *c;

		for (c = u->first; c; c = c->next) {
			double key = c->key;

			if (!c->in_order)
				continue;
			ost_acct_key(s, c);
			/* an S not reached in its account was made eligible
			 * by a projection through an account left without
			 * active children (a campaign restarting with §24's
			 * lead before its user is back in W), or is so to
			 * rounding: test it again */
			if (c->eligible && c->vstart <= a->vtime &&
			    (c->key == key || _still_sorted(s, c)))
				continue;
			ost_order_reindex(s, c);
		}
	}
	for (k = a->kids; k; k = k->sib)
		_rekey_tree(s, k);
}

/* Re-project the keys of the campaigns with pending jobs under every
 * marked top account, re-sorting those that moved (and re-testing the
 * eligibility of those waiting).  O(campaigns under them * log n). */
void ost_acct_rekey(ost_sched_t *s)
{
	do {	/* the list is taken whole; a re-sort marks nothing (its
		 * users are settled), but if one did it would come round */
		ost_acct_t *t = s->acct_dirty, *next;

		for (s->acct_dirty = NULL; t; t = next) {
			next = t->next_dirty;
			t->next_dirty = NULL;
			t->dirty = false;
			_rekey_tree(s, t);
		}
	} while (s->acct_dirty);
}
