/*****************************************************************************\
 *  ost_state_save.c - save the engine state (doc/state-format.md)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Records in a canonical order (uid, seq, job id), doubles in C99
 *  hexadecimal, in the lowest version that holds the state (the versions
 *  are described in ost_state.c).
\*****************************************************************************/

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "ost_internal.h"
#include "ost_state.h"

typedef struct {
	char *buf;
	size_t len, cap;
	bool failed;
	const ost_alloc_t *a;	/* where buf comes from */
} _out_t;

static void *_heap_resize(void *p, size_t old, size_t size, void *arg)
{
	(void)old;
	(void)arg;
	return realloc(p, size);
}

static void _heap_release(void *p, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	free(p);
}

/* ost_sched_save()'s: malloc's heap */
static const ost_alloc_t _heap = { _heap_resize, _heap_release, NULL };

static void _printf(_out_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			o->failed = true;
			return;
		}
		if ((size_t)n < o->cap - o->len) {
			o->len += (size_t)n;
			return;
		}
		size_t cap = 2 * o->cap + (size_t)n + 1;
		char *b = o->a->resize(o->buf, o->cap, cap, o->a->arg);

		if (!b) {
			o->failed = true;
			return;
		}
		o->buf = b;
		o->cap = cap;
	}
}

static int _cmp_user(const void *a, const void *b)
{
	const ost_user_t *x = *(ost_user_t *const *)a;
	const ost_user_t *y = *(ost_user_t *const *)b;

	return (x->uid > y->uid) - (x->uid < y->uid);
}

static int _cmp_job(const void *a, const void *b)
{
	const ost_job_t *x = *(ost_job_t *const *)a;
	const ost_job_t *y = *(ost_job_t *const *)b;

	return (x->id > y->id) - (x->id < y->id);
}

/* Collect the values of map m into a new sorted array of m->count + 1
 * pointers from a (NULL: memory). */
static void **_sorted(const ost_map_t *m, const ost_alloc_t *a,
		      int (*cmp)(const void *, const void *))
{
	void **v = a->resize(NULL, 0, (m->count + 1) * sizeof(*v), a->arg);
	size_t i, n = 0;

	if (!v)
		return NULL;
	for (i = 0; m->slots && i <= m->mask; i++)
		if (m->slots[i].key)
			v[n++] = m->slots[i].val;
	qsort(v, n, sizeof(*v), cmp);
	return v;
}

/* The record (uid, leaf) of a user: leaf is its account's id for a -A
 * leaf (§21), 0 for the uid's own record. */
static uint32_t _leaf_id(const ost_user_t *u)
{
	return OST_TIE_LEAF(u) ? u->acct_id : 0;
}

static void _save_campaign(_out_t *o, const ost_campaign_t *c, int version)
{
	size_t i;

	_printf(o, "campaign uid=%u ", c->user->uid);
	if (version >= 2)
		_printf(o, "leaf=%u ", _leaf_id(c->user));
	_printf(o, "seq=%u t_c=%a area=%a area_est=%a phi=%a "
		"len=%a last_end=%a max_e_done=%a k=%u done=%u groups=",
		c->seq, c->t_c, c->area, c->area_est, c->phi,
		c->len, c->last_end, c->max_e_done, c->k, c->n_done);
	for (i = 0; i < c->n_groups; i++)
		_printf(o, "%s%llu", i ? "," : "",
			(unsigned long long)c->groups[i]);
	_printf(o, "%s", c->n_groups ? "" : "-");
	if (version >= 2)	/* §21: the key as projected, the gate */
		_printf(o, " key=%a kfrom=%a gate=%a", c->key, c->kfrom,
			ost_hnode_linked(&c->gate.node) ? c->gate.key : NAN);
	if (version >= 4)	/* §24, §27: the leads' and rejoin's inputs */
		_printf(o, " vrel=%a cut=%a rejoined=%u", c->vrel, c->cut,
			(unsigned)c->restarted);
	if (version >= 5)	/* §24: Lead=cap's other input */
		_printf(o, " behind=%u", (unsigned)c->behind);
	_printf(o, "\n");
}

/* A user record and its campaigns; RET the number of lines. */
static size_t _save_user(_out_t *o, const ost_user_t *u, int version)
{
	const ost_campaign_t *c;
	size_t n = 1;

	if (version < 2)
		_printf(o, "user uid=%u weight=%a ", u->uid, u->weight);
	else if (!OST_TIE_LEAF(u))
		_printf(o, "user uid=%u account=%u weight=%a ", u->uid,
			u->acct_id, u->weight);
	else
		_printf(o, "leaf uid=%u account=%u ", u->uid, u->acct_id);
	_printf(o, "base_vfinish=%a base_deadline=%a last_seq=%u\n",
		u->base_vfinish, u->base_deadline, u->last_seq);
	for (c = u->first; c; c = c->next, n++)
		_save_campaign(o, c, version);
	return n;
}

/* " active=" and the ties of heap h in its array order, or "-". */
static void _save_active(_out_t *o, const ost_heap_t *h)
{
	size_t i;

	_printf(o, " active=");
	for (i = 0; i < h->n; i++)
		_printf(o, "%s%llu", i ? "," : "",
			(unsigned long long)OST_HKEY(h->v[i])->tie);
	_printf(o, "%s\n", h->n ? "" : "-");
}

/* The root's and every account's line (version 2), accounts by index (a
 * parent before its children), counted in *lines.  RET 0, or -1 when
 * memory is short. */
static int _save_accts(_out_t *o, const ost_sched_t *s,
		       const ost_alloc_t *al, size_t *lines)
{
	size_t n = s->n_accts, i;
	ost_acct_t **v = al->resize(NULL, 0, (n + 1) * sizeof(*v), al->arg);
	ost_acct_t *a;

	if (!v)
		return -1;
	for (a = s->acct_list; a; a = a->next)
		v[a->idx - 1] = a;
	_printf(o, "root weight=%a", s->total_weight);
	_save_active(o, &s->active);
	for (i = 0; i < n; i++) {
		a = v[i];
		_printf(o, "account id=%u parent=%u share=%a vtime=%a "
			"psync=%a wsum=%a f=%a", a->id,
			a->parent ? a->parent->id : 0, a->share, a->vtime,
			a->psync, a->wsum,
			ost_hnode_linked(&a->hk.node) ? a->hk.key : -INFINITY);
		_save_active(o, &a->active);
	}
	al->release(v, (n + 1) * sizeof(*v), al->arg);
	*lines += n + 1;
	return 0;
}

/* The oldest version that holds s: 5 for Lead=cap (§24: behind), 4 for
 * another lead than keep (§24) or Overdue=restart (§27), 3 for a job
 * whose nice was lowered (§22), 2 for the nested schedule (§21) or a job
 * with a nice (§22). */
static int _version(const ost_sched_t *s)
{
	if (s->cfg.lead == OST_LEAD_CAP)
		return 5;
	if (s->cfg.lead != OST_LEAD_KEEP ||
	    s->cfg.overdue != OST_OVERDUE_RANK)
		return 4;
	if (s->n_lowered)
		return 3;
	return ost_sched_nested(s) || s->n_nice ? 2 : 1;
}

static void _release_sorted(const ost_alloc_t *a, void *v,
			    const ost_map_t *m)
{
	if (v)
		a->release(v, (m->count + 1) * sizeof(void *), a->arg);
}

int ost_sched_save_with(const ost_sched_t *s, const ost_alloc_t *a,
			char **buf, size_t *len, size_t *cap)
{
	_out_t o = { .cap = 4096, .a = a };
	ost_user_t **users = (ost_user_t **)_sorted(&s->users, a, _cmp_user);
	ost_job_t **jobs = (ost_job_t **)_sorted(&s->jobs, a, _cmp_job);
	const ost_config_t *g = &s->cfg;
	int version = _version(s);
	size_t i, records = 0;

	/* §21: keys stay as projected by the last settle; a deferred one is
	 * what the next event would derive first (ost_campaign.c) */
	ost_campaign_settle(s);
	o.buf = a->resize(NULL, 0, o.cap, a->arg);
	if (!users || !jobs || !o.buf)
		goto out_nomem;
	_printf(&o, "%s %d\n", OST_STATE_MAGIC, version);
	_printf(&o, "config procs=%u mode=%s think_time=%a capacity=%s "
		"gate=%s intra=%s faircamp_users=%u default_weight=%a",
		g->procs, ost_mode_name(g->mode), g->think_time,
		ost_capacity_name(g->capacity), ost_gate_name(g->gate),
		ost_intra_name(g->intra), g->faircamp_users,
		g->default_weight);
	if (version >= 2)
		_printf(&o, " hierarchy=%s", ost_hier_name(g->hierarchy));
	if (version >= 4)
		_printf(&o, " lead=%s lead_cap=%a overdue=%s",
			ost_lead_name(g->lead), g->lead_cap,
			ost_overdue_name(g->overdue));
	_printf(&o, "\nclock now=%a vtime=%a", s->now, s->vtime);
	if (version >= 3)
		_printf(&o, " lowered=%u", s->lowered_seq);
	_printf(&o, "\n");
	records = 2;
	if (version >= 2) {
		if (_save_accts(&o, s, a, &records))
			goto out_nomem;
	}
	/* users by uid, each followed by its -A leaves in its list's order
	 * (the order weights are set in, §21) */
	for (i = 0; i < s->users.count; i++) {
		const ost_user_t *u = users[i], *l;

		if (OST_TIE_LEAF(u))
			continue;
		for (l = u; l; l = l->next_leaf)
			records += _save_user(&o, l, version);
	}
	for (i = 0; i < s->jobs.count; i++, records++) {
		const ost_job_t *j = jobs[i];

		_printf(&o, "job id=%llu uid=%u ", (unsigned long long)j->id,
			j->camp->user->uid);
		if (version >= 2)
			_printf(&o, "leaf=%u ", _leaf_id(j->camp->user));
		_printf(&o, "campaign=%u procs=%u estimate=%a submit=%a "
			"start=%a state=%s", j->camp->seq, j->procs,
			j->estimate, j->submit, ost_job_started(j),
			j->state == OST_JOB_PENDING ? "pending" : "running");
		if (version >= 2)
			_printf(&o, " nice=%d", (int)j->nice);
		if (version >= 3)
			_printf(&o, " lowered=%u", j->lowered);
		_printf(&o, "\n");
	}
	if (o.failed)
		goto out_nomem;
	_printf(&o, "end records=%zu crc32=%08x\n", records,
		(unsigned)ost_state_crc32(o.buf, o.len));
	if (o.failed)
		goto out_nomem;
	_release_sorted(a, users, &s->users);
	_release_sorted(a, jobs, &s->jobs);
	*buf = o.buf;
	*len = o.len;
	*cap = o.cap;
	return 0;
out_nomem:
	_release_sorted(a, users, &s->users);
	_release_sorted(a, jobs, &s->jobs);
	if (o.buf)
		a->release(o.buf, o.cap, a->arg);
	return -OST_ENOMEM;
}

int ost_sched_save(const ost_sched_t *s, char **buf, size_t *len)
{
	size_t cap;

	return ost_sched_save_with(s, &_heap, buf, len, &cap);
}
