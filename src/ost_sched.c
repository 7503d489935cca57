/*****************************************************************************\
 *  ost_sched.c - the scheduler façade: its life, configuration, users'
 *  weights and accounts (§21), the clock and its rebase
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Every event first advances the virtual time to its instant
 *  (ost_advance), then changes the users and campaigns, which re-derive
 *  their tags and re-sort themselves (ost_settle, ost_order).  All
 *  allocation happens before the first change, so a failed call leaves the
 *  scheduler as it was.  The events on jobs are ost_job.c's.
\*****************************************************************************/

#include <stdlib.h>

#include "ost_internal.h"

ost_sched_t *ost_sched_create(const ost_config_t *cfg)
{
	ost_sched_t *s;

	if (ost_config_check(cfg, NULL))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->cfg = *cfg;
	s->now = -INFINITY;
	ost_map_init(&s->jobs);
	ost_map_init(&s->users);
	ost_map_init(&s->groups);
	ost_map_init(&s->accts);
	ost_tree_init(&s->order, ost_order_cmp(cfg));
	ost_heap_init(&s->active, ost_hkey_less);
	ost_heap_init(&s->gate, ost_hkey_less);
	ost_heap_init(&s->steps, ost_hkey_less);
	return s;
}

void ost_sched_destroy(ost_sched_t *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; s->jobs.slots && i <= s->jobs.mask; i++)
		if (s->jobs.slots[i].key)
			free(s->jobs.slots[i].val);
	for (i = 0; s->users.slots && i <= s->users.mask; i++) {
		ost_user_t *u = s->users.slots[i].val;

		if (!s->users.slots[i].key)
			continue;
		while (u->first) {
			ost_campaign_t *c = u->first;

			u->first = c->next;
			free(c->groups);
			ost_walk_drop(c);
			free(c);
		}
		free(u);
	}
	ost_map_free(&s->jobs);
	ost_map_free(&s->users);
	ost_map_free(&s->groups);
	ost_heap_free(&s->active);
	ost_heap_free(&s->gate);
	ost_heap_free(&s->steps);
	ost_acct_free_all(s);
	ost_pool_free(s);
	free(s);
}

const ost_config_t *ost_sched_config(const ost_sched_t *s)
{
	return &s->cfg;
}

/* The order key changed meaning (§13): re-derive every campaign's. */
static void _rekey_all(ost_sched_t *s)
{
	size_t i;

	for (i = 0; s->users.slots && i <= s->users.mask; i++) {
		ost_user_t *u = s->users.slots[i].val;

		if (!s->users.slots[i].key || !u->first)
			continue;
		ost_campaign_defer(s, u->first);
		ost_campaign_defer(s, u->last);
	}
	ost_campaign_settle(s);
}

int ost_sched_reconfigure(ost_sched_t *s, const ost_config_t *cfg, double now)
{
	bool resort, rekey;

	if (ost_config_check(cfg, NULL) || !ost_time_ok(now) ||
	    (cfg->hierarchy != s->cfg.hierarchy &&
	     (s->users.count || s->n_accts)))
		return -OST_EINVAL;	/* §21: tags live in one tree */
	/* deferred tags are derived with the old m and mode */
	ost_campaign_settle(s);
	ost_vclock_advance(s, now);
	resort = cfg->mode != s->cfg.mode || cfg->intra != s->cfg.intra ||
		 (cfg->gate == OST_GATE_NONE) != (s->cfg.gate == OST_GATE_NONE);
	rekey = cfg->rank != s->cfg.rank || cfg->rank_cap != s->cfg.rank_cap ||
		(cfg->rank != OST_RANK_FINISH && cfg->procs != s->cfg.procs) ||
		cfg->lead != s->cfg.lead || cfg->lead_cap != s->cfg.lead_cap ||
		cfg->overdue != s->cfg.overdue;	/* §27: who may rejoin */
	s->cfg = *cfg;
	if (rekey)
		_rekey_all(s);
	if (resort) {
		ost_campaign_settle(s);	/* into the current tree */
		ost_order_rebuild(s);
	}
	ost_vclock_advance(s, now);
	return 0;
}

int ost_user_set_weight(ost_sched_t *s, uint32_t uid, double weight,
			double now)
{
	ost_user_t *u;

	if (!ost_weight_ok(weight) || !ost_time_ok(now))
		return -OST_EINVAL;
	u = ost_user_get(s, uid, true);
	if (!u)
		return -OST_ENOMEM;
	ost_vclock_advance(s, now);
	for (; u; u = u->next_leaf) {	/* every leaf of uid (§21) */
		ost_campaign_settle_user(s, u);	/* u's place in W */
		if (ost_hnode_linked(&u->active.node))
			*(u->acct ? &u->acct->wsum : &s->total_weight) +=
				weight - u->weight;
		u->weight = weight;
		ost_acct_refresh(s, u->acct);
	}
	return 0;
}

int ost_acct_declare(ost_sched_t *s, uint32_t id, uint32_t parent,
		     double share, double now)
{
	ost_acct_t *p = ost_acct_find(s, parent), *a = ost_acct_find(s, id);

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
	if (ost_map_reserve(&s->accts) || ost_acct_reserve_child(s, p))
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
	ost_acct_t *a = ost_acct_find(s, acct);
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
	if (ost_sched_nested(s) && a && ost_acct_reserve_child(s, a))
		return -OST_ENOMEM;
	if (u->acct) {
		for (pp = &u->acct->users; *pp != u; pp = &(*pp)->next_in)
			;
		*pp = u->next_in;
		u->acct->n_users--;
	}
	ost_user_attach(s, u, a, acct);
	/* the old tags are in the old account's v: every campaign is
	 * complete in V and stays so in the new one */
	u->base_vfinish = -INFINITY;
	for (c = u->first; c; c = c->next)
		c->phi = -INFINITY;
	if (u->first)
		ost_campaign_rederive(s, u->first);
	return 0;
}

int ost_sched_advance(ost_sched_t *s, double now)
{
	if (ost_time_ok(now))
		ost_vclock_advance(s, now);
	return 0;
}

double ost_sched_now(const ost_sched_t *s)
{
	return s->now;
}

/*
 * Every absolute real time moves by delta: the clock, submit and start
 * times, t_c, E_c, base deadlines, and the deadlines D derived from them.
 * v, S and F are virtual and stay.  The next advance to now + delta + dt
 * integrates dt seconds, as the one to now + dt would have.  The order is
 * rebuilt from scratch (t_c breaks ties, D is FairCamp's key): O(n log n).
 */
/* Every real time of s moved by delta is still an event time (the shifted
 * values then still save and load). */
static bool _rebase_ok(const ost_sched_t *s, double delta)
{
	size_t i;

	if (isfinite(s->now) && !ost_time_ok(s->now + delta))
		return false;
	for (i = 0; s->jobs.slots && i <= s->jobs.mask; i++) {
		const ost_job_t *j = s->jobs.slots[i].val;

		if (s->jobs.slots[i].key && (!ost_time_ok(j->submit + delta) ||
		    (j->state == OST_JOB_RUNNING &&
		     !ost_time_ok(j->start + delta))))
			return false;
	}
	for (i = 0; s->users.slots && i <= s->users.mask; i++) {
		const ost_user_t *u = s->users.slots[i].val;
		const ost_campaign_t *c;

		if (!s->users.slots[i].key)
			continue;
		for (c = u->first; c; c = c->next)
			if (!ost_time_ok(c->t_c + delta) ||
			    (isfinite(c->last_end) &&
			     !ost_time_ok(c->last_end + delta)))
				return false;
	}
	return true;
}

int ost_sched_rebase(ost_sched_t *s, double delta)
{
	size_t i;

	if (!isfinite(delta) || !_rebase_ok(s, delta))
		return -OST_EINVAL;
	if (delta == 0.0)
		return 0;
	s->now += delta;
	for (i = 0; s->jobs.slots && i <= s->jobs.mask; i++) {
		ost_job_t *j = s->jobs.slots[i].val;

		if (!s->jobs.slots[i].key)
			continue;
		j->submit += delta;
		if (j->state == OST_JOB_RUNNING)	/* else: the tree node */
			j->start += delta;
	}
	for (i = 0; s->users.slots && i <= s->users.mask; i++)
		if (s->users.slots[i].key)
			ost_campaign_rebase_user(s, s->users.slots[i].val,
						 delta);
	ost_variant_rebase(s, delta);
	ost_campaign_settle(s);	/* into the current tree */
	return ost_order_rebuild(s);
}
