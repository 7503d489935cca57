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
			if (c->eligible &&
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

static ost_acct_t *_find(const ost_sched_t *s, uint32_t id)
{
	return id ? ost_map_get(&s->accts, id) : NULL;
}

/* Room in a's heap (the root's if NULL) for one more child. */
static int _reserve_child(ost_sched_t *s, ost_acct_t *a)
{
	if (!a)
		return ost_heap_reserve(&s->active,
					s->users.count + s->n_accts + 1);
	return ost_heap_reserve(&a->active, a->n_users + a->n_kids + 1);
}

/* Link leaf u under a (NULL: the root) in its account's list. */
static void _attach(ost_sched_t *s, ost_user_t *u, ost_acct_t *a,
		    uint32_t id)
{
	u->acct_id = id;
	u->acct = ost_sched_nested(s) ? a : NULL;
	if (!u->acct)
		return;
	u->next_in = a->users;
	a->users = u;
	a->n_users++;
}

int ost_acct_declare(ost_sched_t *s, uint32_t id, uint32_t parent,
		     double share, double now)
{
	ost_acct_t *p = _find(s, parent), *a = _find(s, id);

	if (!id || (parent && !p) || !ost_weight_ok(share) ||
	    !ost_time_ok(now) || (a && a->parent != p))
		return -OST_EINVAL;
	if (a) {
		ost_vclock_advance(s, now);
		ost_campaign_settle(s);
		if (ost_hnode_linked(&a->hk.node))
			*(a->parent ? &a->parent->wsum : &s->total_weight) +=
				share - a->share;
		a->share = share;
		ost_acct_refresh(s, a);
		return 0;
	}
	if (ost_map_reserve(&s->accts) || _reserve_child(s, p))
		return -OST_ENOMEM;
	if (!(a = calloc(1, sizeof(*a))))
		return -OST_ENOMEM;
	a->id = id;
	a->idx = ++s->n_accts;
	a->share = share;
	a->parent = p;
	a->top = p ? p->top : a;
	ost_heap_init(&a->active, ost_hkey_less);
	ost_hnode_init(&a->hk.node);
	if (p) {
		a->sib = p->kids;
		p->kids = a;
		p->n_kids++;
	}
	a->next = s->acct_list;
	s->acct_list = a;
	(void)ost_map_put(&s->accts, id, a);	/* reserved */
	return 0;
}

int ost_user_set_account(ost_sched_t *s, uint32_t uid, uint32_t acct,
			 double now)
{
	ost_acct_t *a = _find(s, acct);
	ost_user_t *u, **pp;
	ost_campaign_t *c;

	if ((acct && !a) || !ost_time_ok(now))
		return -OST_EINVAL;
	if (!(u = ost_user_get(s, uid, true)))
		return -OST_ENOMEM;
	ost_vclock_advance(s, now);
	ost_campaign_settle_user(s, u);
	if (u->acct_id == acct)
		return 0;
	if (u->unfinished || ost_hnode_linked(&u->active.node))
		return -OST_ESTATE;
	if (ost_sched_nested(s) && a && _reserve_child(s, a))
		return -OST_ENOMEM;
	if (u->acct) {
		for (pp = &u->acct->users; *pp != u; pp = &(*pp)->next_in)
			;
		*pp = u->next_in;
		u->acct->n_users--;
	}
	_attach(s, u, a, acct);
	/* the old tags are in the old account's v: every campaign is
	 * complete in V and stays so in the new one */
	u->base_vfinish = -INFINITY;
	for (c = u->first; c; c = c->next)
		c->phi = -INFINITY;
	if (u->first)
		ost_campaign_rederive(s, u->first);
	return 0;
}

/* A new leaf of u's uid in account a, linked after *link (u's list of
 * leaves), with u's weight.  NULL on memory shortage, nothing changed. */
static ost_user_t *_leaf_new(ost_sched_t *s, ost_user_t *u, ost_acct_t *a,
			     ost_user_t **link)
{
	uint64_t key = (uint64_t)u->uid + 1 + ((uint64_t)a->idx << 33);
	ost_user_t *l;

	if (ost_map_reserve(&s->users) || _reserve_child(s, a) ||
	    ost_heap_reserve(&s->active, s->users.count + s->n_accts + 1))
		return NULL;
	if (!(l = calloc(1, sizeof(*l))))
		return NULL;
	l->uid = u->uid;
	l->tie = ((uint64_t)a->idx << 32) | u->uid;
	l->weight = u->weight;
	l->base_vfinish = -INFINITY;
	l->base_deadline = -INFINITY;
	ost_hnode_init(&l->active.node);
	_attach(s, l, a, a->id);
	l->next_leaf = *link;
	*link = l;
	(void)ost_map_put(&s->users, key, l);	/* reserved */
	return l;
}

/*
 * The leaf of u's uid in account id (§21: a job submitted with -A counts
 * there, a leaf of its own): u itself for its own account or an
 * undeclared one, else the leaf from u->next_leaf, made with u's weight
 * if new.  NULL on memory shortage.
 */
ost_user_t *ost_leaf_get(ost_sched_t *s, ost_user_t *u, uint32_t id)
{
	ost_acct_t *a = _find(s, id);
	ost_user_t *l;

	if (!a || id == u->acct_id || !ost_sched_nested(s))
		return u;
	for (l = u->next_leaf; l; l = l->next_leaf)
		if (l->acct_id == id)
			return l;
	return _leaf_new(s, u, a, &u->next_leaf);
}

int ost_acct_attach(ost_sched_t *s, ost_user_t *u, uint32_t id)
{
	ost_acct_t *a = _find(s, id);

	if (id && !a)
		return -OST_EINVAL;
	if (ost_sched_nested(s) && a && _reserve_child(s, a))
		return -OST_ENOMEM;
	_attach(s, u, a, id);
	return 0;
}

int ost_leaf_add(ost_sched_t *s, ost_user_t *u, uint32_t id,
		 ost_user_t **out)
{
	ost_acct_t *a = _find(s, id);
	ost_user_t **link = &u->next_leaf;

	if (!a || !ost_sched_nested(s))
		return -OST_EINVAL;
	for (; *link; link = &(*link)->next_leaf)
		if ((*link)->acct_id == id)
			return -OST_EEXIST;
	*out = _leaf_new(s, u, a, link);
	return *out ? 0 : -OST_ENOMEM;
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
