/*****************************************************************************\
 *  ost_user.c - user records: the map of users by uid, and the -A leaves
 *  of a uid in the accounts (§21)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  A leaf below everything that reads or changes a user's campaigns: it
 *  only makes, finds and links records (and reserves the heap slots that
 *  let putting a user in W never fail).
\*****************************************************************************/

#include <stdlib.h>

#include "ost_internal.h"

/* u for uid; with create, a new user (weight = default) if unknown.
 * Returns NULL if unknown (or memory short with create). */
ost_user_t *ost_user_get(ost_sched_t *s, uint32_t uid, bool create)
{
	uint64_t key = (uint64_t)uid + 1;
	ost_user_t *u = ost_map_get(&s->users, key);

	if (u || !create)
		return u;
	if (ost_heap_reserve(&s->active, s->users.count + s->n_accts + 1) ||
	    ost_map_reserve(&s->users))
		return NULL;
	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->uid = uid;
	u->tie = uid;
	u->weight = s->cfg.default_weight;
	u->base_vfinish = -INFINITY;
	u->base_deadline = -INFINITY;
	ost_hnode_init(&u->active.node);
	(void)ost_map_put(&s->users, key, u);	/* reserved */
	return u;
}

/* Link leaf u under a (NULL: the root) in its account's list. */
void ost_user_attach(ost_sched_t *s, ost_user_t *u, ost_acct_t *a,
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

/* A new leaf of u's uid in account a, linked after *link (u's list of
 * leaves), with u's weight.  NULL on memory shortage, nothing changed. */
static ost_user_t *_leaf_new(ost_sched_t *s, ost_user_t *u, ost_acct_t *a,
			     ost_user_t **link)
{
	uint64_t key = (uint64_t)u->uid + 1 + ((uint64_t)a->idx << 33);
	ost_user_t *l;

	if (ost_map_reserve(&s->users) || ost_acct_reserve_child(s, a) ||
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
	ost_user_attach(s, l, a, a->id);
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
	ost_acct_t *a = ost_acct_find(s, id);
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
	ost_acct_t *a = ost_acct_find(s, id);

	if (id && !a)
		return -OST_EINVAL;
	if (ost_sched_nested(s) && a && ost_acct_reserve_child(s, a))
		return -OST_ENOMEM;
	ost_user_attach(s, u, a, id);
	return 0;
}

int ost_leaf_add(ost_sched_t *s, ost_user_t *u, uint32_t id,
		 ost_user_t **out)
{
	ost_acct_t *a = ost_acct_find(s, id);
	ost_user_t **link = &u->next_leaf;

	if (!a || !ost_sched_nested(s))
		return -OST_EINVAL;
	for (; *link; link = &(*link)->next_leaf)
		if ((*link)->acct_id == id)
			return -OST_EEXIST;
	*out = _leaf_new(s, u, a, link);
	return *out ? 0 : -OST_ENOMEM;
}
