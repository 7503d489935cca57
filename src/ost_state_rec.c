/*****************************************************************************\
 *  ost_state_rec.c - the records of a state, one a line: config, root,
 *  account, user, leaf, campaign, job (doc/state-format.md)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Each parser reads its line's fields (ost_state_field.c) into the
 *  scheduler being loaded; the tags and the order are derived after the
 *  end line (ost_state_load.c).
\*****************************************************************************/

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ost_grow.h"
#include "ost_internal.h"
#include "ost_state.h"

typedef int (*_parse_f)(const char *, void *);

int ost_rec_config(ost_in_t *in, ost_config_t *g)
{
	const char *why;
	int rc;

	ost_config_init(g);
	if ((rc = ost_in_u32(in, "procs", &g->procs)) ||
	    (rc = ost_in_name(in, "mode", (_parse_f)ost_mode_parse,
			      &g->mode)) ||
	    (rc = ost_in_double(in, "think_time", &g->think_time,
				R_DURATION)) ||
	    (rc = ost_in_name(in, "capacity", (_parse_f)ost_capacity_parse,
			      &g->capacity)) ||
	    (rc = ost_in_name(in, "gate", (_parse_f)ost_gate_parse,
			      &g->gate)) ||
	    (rc = ost_in_name(in, "intra", (_parse_f)ost_intra_parse,
			      &g->intra)) ||
	    (rc = ost_in_u32(in, "faircamp_users", &g->faircamp_users)) ||
	    (rc = ost_in_double(in, "default_weight", &g->default_weight,
				R_WEIGHT)) ||
	    (in->version >= 2 &&
	     (rc = ost_in_name(in, "hierarchy", (_parse_f)ost_hier_parse,
			       &g->hierarchy))) ||
	    (in->version >= 4 &&
	     ((rc = ost_in_name(in, "lead", (_parse_f)ost_lead_parse,
				&g->lead)) ||
	      (rc = ost_in_double(in, "lead_cap", &g->lead_cap, R_FINITE)) ||
	      (rc = ost_in_name(in, "overdue", (_parse_f)ost_overdue_parse,
				&g->overdue)))) ||
	    (rc = ost_in_end(in)))
		return rc;
	if (ost_config_check(g, &why))
		return ost_in_fail(in, "bad configuration: %s", why);
	return 0;
}

/* The fields a user's record and a -A leaf's share, from base_vfinish. */
static int _load_user_tail(ost_in_t *in, ost_user_t *u)
{
	int rc;

	if ((rc = ost_in_double(in, "base_vfinish", &u->base_vfinish,
				R_VIRT_NONE)) ||
	    (rc = ost_in_double(in, "base_deadline", &u->base_deadline,
				R_FIN_NONE)) ||
	    (rc = ost_in_u32(in, "last_seq", &u->last_seq)))
		return rc;
	return ost_in_end(in);
}

int ost_rec_user(ost_in_t *in, ost_sched_t *s)
{
	uint32_t uid, acct = 0;
	ost_user_t *u;
	double w;
	int rc;

	if ((rc = ost_in_u32(in, "uid", &uid)) ||
	    (in->version >= 2 && (rc = ost_in_u32(in, "account", &acct))) ||
	    (rc = ost_in_double(in, "weight", &w, R_WEIGHT)))
		return rc;
	if (ost_user_get(s, uid, false))
		return ost_in_fail(in, "duplicate user %u", uid);
	if (!(u = ost_user_get(s, uid, true)))
		return -OST_ENOMEM;
	u->weight = w;
	if ((rc = ost_acct_attach(s, u, acct)))
		return rc == -OST_EINVAL
			       ? ost_in_fail(in,
					     "user %u in unknown account %u",
					     uid, acct)
			       : rc;
	return _load_user_tail(in, u);
}

/* A -A leaf (§21): after its uid's own record, which gives its weight. */
int ost_rec_leaf(ost_in_t *in, ost_sched_t *s)
{
	uint32_t uid, acct;
	ost_user_t *u, *l;
	int rc;

	if ((rc = ost_in_u32(in, "uid", &uid)) ||
	    (rc = ost_in_u32(in, "account", &acct)))
		return rc;
	if (!(u = ost_user_get(s, uid, false)))
		return ost_in_fail(in, "leaf of unknown user %u", uid);
	if ((rc = ost_leaf_add(s, u, acct, &l)))
		return rc == -OST_ENOMEM
			       ? rc
			       : ost_in_fail(in, "bad or duplicate leaf %u/%u",
					     uid,
					     acct);
	return _load_user_tail(in, l);
}

/* The record (uid, leaf) (leaf: 0 for the uid's own), or NULL. */
static ost_user_t *_find_user(const ost_sched_t *s, uint32_t uid,
			      uint32_t leaf)
{
	ost_user_t *u = ost_user_get((ost_sched_t *)s, uid, false);

	if (leaf)
		for (u = u ? u->next_leaf : NULL; u; u = u->next_leaf)
			if (u->acct_id == leaf)
				break;
	return u;
}

/* A user's uid and, in version 2, its leaf= field: its record. */
static int _get_user(ost_in_t *in, const ost_sched_t *s, uint32_t *uid,
		     uint32_t *leaf, ost_user_t **u)
{
	int rc;

	*leaf = 0;
	if ((rc = ost_in_u32(in, "uid", uid)) ||
	    (in->version >= 2 && (rc = ost_in_u32(in, "leaf", leaf))))
		return rc;
	*u = _find_user(s, *uid, *leaf);
	return 0;
}

/* The root's line (version 2): W and its active children. */
int ost_rec_root(ost_in_t *in)
{
	ost_in_nest_t *n = calloc(1, sizeof(*n));
	int rc;

	if (!n)
		return -OST_ENOMEM;
	in->nest = n;
	in->n_nest = 1;
	n->lineno = in->lineno;
	if ((rc = ost_in_double(in, "weight", &n->wsum, R_FINITE)) ||
	    (rc = ost_in_field(in, "active", &n->active)))
		return rc;
	return ost_in_end(in);
}

/* An account (version 2), declared again with its index. */
int ost_rec_account(ost_in_t *in, ost_sched_t *s)
{
	uint32_t id, parent;
	double share, vt;
	ost_acct_t *a;
	ost_in_nest_t *n;
	int rc;

	if ((rc = ost_in_u32(in, "id", &id)) ||
	    (rc = ost_in_u32(in, "parent", &parent)) ||
	    (rc = ost_in_double(in, "share", &share, R_WEIGHT)) ||
	    (rc = ost_in_double(in, "vtime", &vt, R_VIRT)))
		return rc;
	if (!id || ost_map_get(&s->accts, id) ||
	    (parent && !ost_map_get(&s->accts, parent)))
		return ost_in_fail(in,
				   "account %u duplicate or under unknown %u",
				   id, parent);
	n = realloc(in->nest, (in->n_nest + 1) * sizeof(*n));
	if (!n)
		return -OST_ENOMEM;
	in->nest = n;
	n += in->n_nest;
	if ((rc = ost_acct_declare(s, id, parent, share, 0.0)))
		return rc;
	in->n_nest++;
	a = ost_map_get(&s->accts, id);
	a->vtime = vt;
	n->lineno = in->lineno;
	if ((rc = ost_in_double(in, "psync", &n->psync, R_VIRT)) ||
	    (rc = ost_in_double(in, "wsum", &n->wsum, R_FINITE)) ||
	    (rc = ost_in_double(in, "f", &n->f, R_FIN_NONE)) ||
	    (rc = ost_in_field(in, "active", &n->active)))
		return rc;
	return ost_in_end(in);
}

static int _load_groups(ost_in_t *in, ost_sched_t *s, ost_campaign_t *c)
{
	char *v, *p, *end;
	int rc;

	if ((rc = ost_in_field(in, "groups", &v)))
		return rc;
	if (!strcmp(v, "-"))
		return 0;
	for (p = v; *p; p = end + (*end == ',')) {
		unsigned long long g;

		errno = 0;
		g = strtoull(p, &end, 10);
		if (end == p || errno || !g || !isdigit((unsigned char)*p) ||
		    (*end && *end != ','))
			return ost_in_fail(in, "bad groups=%s", v);
		if (ost_map_get(&s->groups, g))
			return ost_in_fail(in, "group %llu mapped twice", g);
		if (ost_campaign_add_group(s, c, g))
			return -OST_ENOMEM;
	}
	return 0;
}

/* Version 2: the campaign's key as projected and its gate, kept aside
 * until the records are derived (_restore). */
static int _load_ckey(ost_in_t *in, ost_campaign_t *c)
{
	ost_in_ckey_t *k;
	int rc;

	if (!(k = ost_grow(in->ck, &in->cap_ck, in->n_ck + 1, sizeof(*k), 16)))
		return -OST_ENOMEM;
	in->ck = k;
	k = &in->ck[in->n_ck++];
	k->c = c;
	k->lineno = in->lineno;
	if ((rc = ost_in_double(in, "key", &k->key, R_FIN_NONE)) ||
	    (rc = ost_in_double(in, "kfrom", &k->kfrom, R_FIN_NAN)) ||
	    (rc = ost_in_double(in, "gate", &k->gate, R_FIN_NAN)))
		return rc;
	return 0;
}

int ost_rec_campaign(ost_in_t *in, ost_sched_t *s)
{
	uint32_t uid, seq, leaf;
	ost_user_t *u = NULL;
	ost_campaign_t *c;
	int rc;

	if ((rc = _get_user(in, s, &uid, &leaf, &u)) ||
	    (rc = ost_in_u32(in, "seq", &seq)))
		return rc;
	if (!u)
		return ost_in_fail(in, "campaign of unknown user %u/%u", uid,
				   leaf);
	if (!seq || (u->last && seq <= u->last->seq) || seq > u->last_seq)
		return ost_in_fail(in, "campaign %u/%u out of sequence", uid,
				   seq);
	if (!(c = ost_campaign_new(s, u, seq)))
		return -OST_ENOMEM;
	if ((rc = ost_in_double(in, "t_c", &c->t_c, R_TIME)) ||
	    (rc = ost_in_double(in, "area", &c->area, R_FINITE)) ||
	    (rc = ost_in_double(in, "area_est", &c->area_est, R_VIRT)) ||
	    (rc = ost_in_double(in, "phi", &c->phi, R_VIRT_NONE)) ||
	    (rc = ost_in_double(in, "len", &c->len, R_VIRT)) ||
	    (rc = ost_in_double(in, "last_end", &c->last_end, R_TIME_NONE)) ||
	    (rc = ost_in_double(in, "max_e_done", &c->max_e_done,
				R_DUR_NONE)) ||
	    (rc = ost_in_u32(in, "k", &c->k)) ||
	    (rc = ost_in_u32(in, "done", &c->n_done)) ||
	    (rc = _load_groups(in, s, c)) ||
	    (in->version >= 2 && (rc = _load_ckey(in, c))))
		return rc;
	c->vrel = c->phi;	/* before version 4: Lead=keep, Overdue=rank */
	if (in->version >= 4) {
		uint32_t rejoined;

		if ((rc = ost_in_double(in, "vrel", &c->vrel, R_VIRT_NONE)) ||
		    (rc = ost_in_double(in, "cut", &c->cut, R_VIRT_OPEN)) ||
		    (rc = ost_in_u32(in, "rejoined", &rejoined)))
			return rc;
		if (rejoined > 1)
			return ost_in_fail(in, "rejoined=%u is not 0 or 1",
					   rejoined);
		c->restarted = rejoined;
	}
	if (in->version >= 5) {
		uint32_t behind;

		if ((rc = ost_in_u32(in, "behind", &behind)))
			return rc;
		if (behind > 1)
			return ost_in_fail(in, "behind=%u is not 0 or 1",
					   behind);
		c->behind = behind;
	}
	return ost_in_end(in);
}

static ost_campaign_t *_find_campaign(const ost_user_t *u, uint32_t seq)
{
	ost_campaign_t *c;

	for (c = u ? u->last : NULL; c; c = c->prev)
		if (c->seq == seq)
			return c;
	return NULL;
}

int ost_rec_job(ost_in_t *in, ost_sched_t *s)
{
	uint64_t id;
	uint32_t uid, seq, leaf;
	ost_user_t *u = NULL;
	ost_job_t *j;
	ost_campaign_t *c;
	char *state, *v;
	bool running;
	double start;
	int rc;

	if ((rc = ost_in_u64(in, "id", &id, UINT64_MAX)) ||
	    (rc = _get_user(in, s, &uid, &leaf, &u)) ||
	    (rc = ost_in_u32(in, "campaign", &seq)))
		return rc;
	if (!id || ost_map_get(&s->jobs, id))
		return ost_in_fail(in, "job id %llu zero or duplicate",
				   (unsigned long long)id);
	if (!(c = _find_campaign(u, seq)))
		return ost_in_fail(in, "job of unknown campaign %u/%u/%u", uid,
				   leaf,
				   seq);
	if (ost_map_reserve(&s->jobs) || !(j = ost_job_alloc(s)))
		return -OST_ENOMEM;
	j->id = id;
	j->camp = c;
	(void)ost_map_put(&s->jobs, id, j);
	j->next = c->jobs;
	if (c->jobs)
		c->jobs->prev = j;
	c->jobs = j;
	if (!c->user->unfinished++)
		s->n_busy_users++;
	if ((rc = ost_in_u32(in, "procs", &j->procs)) ||
	    (rc = ost_in_double(in, "estimate", &j->estimate, R_DURATION)) ||
	    (rc = ost_in_double(in, "submit", &j->submit, R_TIME)))
		return rc;
	if (!j->procs)
		return ost_in_fail(in, "bad job size procs=0");
	j->e_full = j->estimate;	/* §12: no further steps */
	/* The state decides what start may hold: read it after. */
	if ((rc = ost_in_field(in, "start", &v)) ||
	    (rc = ost_in_field(in, "state", &state)))
		return rc;
	if (strcmp(state, "pending") && strcmp(state, "running"))
		return ost_in_fail(in, "bad state=%s", state);
	running = !strcmp(state, "running");
	if ((rc = ost_in_number(in, "start", v, &start,
				running ? R_TIME : R_NAN)))
		return rc;
	if (in->version >= 2) {		/* §22, before the pending tree
					 * (its order reads them) */
		int32_t nice = 0;
		uint32_t lowered = 0;

		if ((rc = ost_in_i32(in, "nice", &nice)) ||
		    (in->version >= 3 &&
		     (rc = ost_in_u32(in, "lowered", &lowered))))
			return rc;
		if (lowered > s->lowered_seq)
			return ost_in_fail(in,
					   "lowered=%u after the clock's %u",
					   lowered, s->lowered_seq);
		if (nice || lowered)
			ost_chain_track(s, j, nice, lowered);
	}
	if (!running) {
		j->state = OST_JOB_PENDING;	/* start: NAN (ost_job_t) */
		ost_tree_insert(&c->pending, &j->node, 1);
		c->n_pending++;
		s->n_pending++;
		c->area_pend += (double)j->procs * j->estimate;
	} else {
		/* the running half of j's storage (ost_job_t) */
		ost_hnode_init(&j->step.node);
		j->start = start;
		j->state = OST_JOB_RUNNING;
		c->n_running++;
		s->n_running++;
		s->busy += j->procs;
	}
	return ost_in_end(in);
}
