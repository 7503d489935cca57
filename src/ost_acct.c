/*****************************************************************************\
 *  ost_acct.c - accounts: the nested virtual schedule (§21)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  With Hierarchy=accounts the virtual schedule V is a tree: the root (the
 *  scheduler's own v, W and heap s->active) shares the capacity among its
 *  active children, accounts and users, in proportion to their shares; an
 *  account shares what it receives among its own active children in the
 *  same way, and so on down to the users (the leaves), whose campaigns get
 *  the tags of §3 in their account's virtual time v_n.
 *
 *  Each account n keeps v_n, which follows its parent's v_p at
 *
 *      dv_n / dv_p = w_n / W_n        (W_n: shares of n's active children)
 *
 *  and is seen by its parent as one child with the finish tag
 *
 *      F_n = v_p + sum_k w_k (F_k - v_n) / w_n      (k active under n)
 *
 *  (its remaining work in V, CPU-s, over its share), which no advance of
 *  the clock moves: both terms move by the same amount.  So the root's v
 *  advances exactly as in §3, its breakpoints being the F of its children,
 *  and every account follows its parent from one breakpoint of its own to
 *  the next (O(active accounts) per advance, nothing at all without them).
 *
 *  Campaigns are ordered across accounts by their key carried into the
 *  root's virtual time, Phi(x) (ost_acct_project), the root's v at which
 *  the account's v would reach x if nothing happened: increasing in x, so
 *  the order is the order of the virtual completion times C~, as in §3.5.
 *  Phi moves when any tag under the campaign's top account moves, so such
 *  events mark that top account and the settle re-projects the keys under
 *  it once (ost_acct_rekey), as §3.4's re-derivation is deferred.
\*****************************************************************************/

#include <stdlib.h>

#include "ost_internal.h"

#define USER_OF(h) ost_container_of(h, ost_user_t, active)
#define ACCT_OF(h) ost_container_of(h, ost_acct_t, hk)
#define IS_ACCT(h) (((h)->tie & OST_TIE_ACCT) != 0)

/* The share of the child a heap element stands for: w_u or w_n. */
double ost_hkey_weight(const ost_hkey_t *h)
{
	return IS_ACCT(h) ? ACCT_OF(h)->share : USER_OF(h)->weight;
}

/* The parent's virtual time of a (the root's v when a is a top). */
static double _pv(const ost_sched_t *s, const ost_acct_t *a)
{
	return a->parent ? a->parent->vtime : s->vtime;
}

/* sum over the active children k of a of w_k (min(F_k, x) - v_a): a's
 * remaining work in V up to its virtual time x (CPU-s).  O(children). */
static double _work_to(const ost_acct_t *a, double x)
{
	double sum = 0.0;
	size_t i;

	for (i = 0; i < a->active.n; i++) {
		const ost_hkey_t *h = OST_HKEY(a->active.v[i]);
		double f = h->key < x ? h->key : x;

		sum += ost_hkey_weight(h) * (f - a->vtime);
	}
	return sum;
}

static void _follow(ost_sched_t *s, ost_acct_t *a);

/* Child k of a (taken out of a's heap, W and counts) has been reached
 * in V: bring it to its end and empty it, its children with it. */
static void _leave_child(ost_sched_t *s, ost_acct_t *a, ost_hkey_t *h)
{
	ost_hkey_remove(&a->active, h);
	a->n_active--;
	a->wsum -= ost_hkey_weight(h);
	if (!a->n_active)
		a->wsum = 0.0;
	if (IS_ACCT(h)) {
		a->n_kids_active--;
		ost_acct_leave(s, ACCT_OF(h));
	}
}

/*
 * a left its parent's heap (its F was reached): follow the parent to that
 * point, then every child left is at its end up to rounding; they leave
 * with v_a at the largest of their F.
 */
void ost_acct_leave(ost_sched_t *s, ost_acct_t *a)
{
	ost_hkey_t *h;

	_follow(s, a);
	while ((h = ost_hkey_top(&a->active))) {
		if (h->key > a->vtime)
			a->vtime = h->key;
		_leave_child(s, a, h);
	}
	a->psync = _pv(s, a);
}

/* Every active child account of a (the root when NULL) follows it. */
void ost_acct_follow_kids(ost_sched_t *s, ost_acct_t *a)
{
	const ost_heap_t *hp = a ? &a->active : &s->active;
	size_t i;

	if (!(a ? a->n_kids_active : s->n_kids_active))
		return;
	for (i = 0; i < hp->n; i++) {
		ost_hkey_t *h = OST_HKEY(hp->v[i]);

		if (IS_ACCT(h))
			_follow(s, ACCT_OF(h));
	}
}

/*
 * v_a follows its parent from psync to the parent's v: dv_a = dv_p w_a /
 * W_a between a's breakpoints (the F of its children), where children
 * leave exactly at their F.  A child account follows a before it is
 * tested.  With no active child left (rounding: a's own F in its parent
 * is reached a little later) v_a stays.
 */
static void _follow(ost_sched_t *s, ost_acct_t *a)
{
	double pv = _pv(s, a), dp = pv - a->psync;
	ost_hkey_t *h;

	while (dp > 0.0 && (h = ost_hkey_top(&a->active))) {
		double need = (h->key - a->vtime) * a->wsum / a->share;

		if (need > dp) {
			a->vtime += dp * a->share / a->wsum;
			break;
		}
		dp -= need;
		if (h->key > a->vtime)
			a->vtime = h->key;
		ost_acct_follow_kids(s, a);
		while ((h = ost_hkey_top(&a->active)) && h->key <= a->vtime)
			_leave_child(s, a, h);
	}
	a->psync = pv;
	ost_acct_follow_kids(s, a);
}

static void _mark(ost_sched_t *s, ost_acct_t *a)
{
	ost_acct_t *t = a->top;

	if (t->dirty)
		return;
	t->dirty = true;
	t->next_dirty = s->acct_dirty;
	s->acct_dirty = t;
}

/*
 * a's children changed: recompute F_a = v_p + work / w_a and a's place
 * in its parent's heap and W, then the parent's, up to the first node
 * that stays out.  Marks a's top account for re-projection.  Cannot fail:
 * declaring and joining reserved the slots.  O(children along the path).
 */
void ost_acct_refresh(ost_sched_t *s, ost_acct_t *a)
{
	if (a)
		_mark(s, a);
	for (; a; a = a->parent) {
		ost_heap_t *ph = a->parent ? &a->parent->active : &s->active;
		uint32_t *pn = a->parent ? &a->parent->n_active : &s->n_active;
		uint32_t *pk = a->parent ? &a->parent->n_kids_active
					 : &s->n_kids_active;
		double *pw = a->parent ? &a->parent->wsum : &s->total_weight;
		double pv = _pv(s, a);
		bool linked = ost_hnode_linked(&a->hk.node);

		if (a->n_active) {
			double f = pv + _work_to(a, INFINITY) / a->share;

			if (linked) {
				ost_hkey_update(ph, &a->hk, f);
				continue;
			}
			a->psync = pv;
			(void)ost_hkey_push(ph, &a->hk, f,
					    OST_TIE_ACCT | a->idx);
			(*pn)++;
			(*pk)++;
			*pw += a->share;
		} else if (linked) {
			ost_hkey_remove(ph, &a->hk);
			(*pn)--;
			(*pk)--;
			*pw -= a->share;
			if (!*pn)
				*pw = 0.0;
		} else {
			return;
		}
	}
}

/*
 * x, a virtual time of u's account, carried into the root's virtual time:
 * at each level n (child share w, w_u first),
 *
 *     x > v_n:   Phi(x) = v_p + sum_k w_k (min(F_k, x) - v_n) / w_n
 *                (the parent's v when v_n reaches x, nothing happening)
 *     x <= v_n:  Phi(x) = v_p - (v_n - x) w / w_n
 *                (a past instant: back at the rate of the child alone)
 *
 * increasing in x, and the first branch does not move as the clock does.
 * O(active children along the path).
 */
double ost_acct_project(const ost_sched_t *s, const ost_user_t *u, double x)
{
	const ost_acct_t *a = u->acct;
	double w = u->weight;

	for (; a; w = a->share, a = a->parent) {
		if (x > a->vtime)
			x = _pv(s, a) + _work_to(a, x) / a->share;
		else
			x = _pv(s, a) - (a->vtime - x) * w / a->share;
	}
	return x;
}

/*
 * c's order key in the root's virtual time: Phi(ukey).  A key already
 * reached in its account (ukey <= v_n) that did not move since it was
 * projected keeps its value, the instant it was reached, so a settle at
 * a later time orders it as one at that time would have.
 */
void ost_acct_key(ost_sched_t *s, ost_campaign_t *c)
{
	const ost_user_t *u = c->user;

	if (!u->acct) {
		c->key = c->ukey;
		return;
	}
	if (c->ukey == c->kfrom && c->ukey <= u->acct->vtime)
		return;
	c->key = ost_acct_project(s, u, c->ukey);
	c->kfrom = c->ukey;
}

/*
 * The fraction of the capacity u receives in V now, or would receive by
 * submitting now: the product along its path of w / W, each node counted
 * in its parent's W if it is not active there.
 */
double ost_acct_share(const ost_sched_t *s, const ost_user_t *u)
{
	const ost_acct_t *a = u->acct;
	double w = (a ? a->wsum : s->total_weight) +
		   (ost_hnode_linked(&u->active.node) ? 0.0 : u->weight);

	return u->weight / w * (a ? ost_acct_frac(s, a) : 1.0);
}

/* a's part of its parent's receipt: w_a / W_parent, a counted in W. */
double ost_acct_norm(const ost_sched_t *s, const ost_acct_t *a)
{
	double w = a->parent ? a->parent->wsum : s->total_weight;

	if (!ost_hnode_linked(&a->hk.node))
		w += a->share;
	return a->share / w;
}

/* The fraction of the capacity a receives now, or would by becoming
 * active: the product of ost_acct_norm along its path. */
double ost_acct_frac(const ost_sched_t *s, const ost_acct_t *a)
{
	double f = 1.0;

	for (; a; a = a->parent)
		f *= ost_acct_norm(s, a);
	return f;
}

bool ost_sched_nested(const ost_sched_t *s)
{
	return ost_config_nested(&s->cfg);
}

ost_acct_t *ost_acct_find(const ost_sched_t *s, uint32_t id)
{
	return id ? ost_map_get(&s->accts, id) : NULL;
}

/* Room in a's heap (the root's if NULL) for one more child. */
int ost_acct_reserve_child(ost_sched_t *s, ost_acct_t *a)
{
	if (!a)
		return ost_heap_reserve(&s->active,
					s->users.count + s->n_accts + 1);
	return ost_heap_reserve(&a->active, a->n_users + a->n_kids + 1);
}

/* Free every account (ost_sched_destroy; the users are freed there). */
void ost_acct_free_all(ost_sched_t *s)
{
	ost_acct_t *a;

	while ((a = s->acct_list)) {
		s->acct_list = a->next;
		ost_heap_free(&a->active);
		free(a);
	}
	ost_map_free(&s->accts);
}
