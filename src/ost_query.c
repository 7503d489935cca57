/*****************************************************************************\
 *  ost_query.c - read-only views: ranks, campaigns, explanations, stats
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdlib.h>

#include "ost_internal.h"

#define CAMP(n) ost_container_of(n, ost_campaign_t, node)

#if defined(__GNUC__)
#define OST_PREFETCH(p) __builtin_prefetch(p)
#else
#define OST_PREFETCH(p) ((void)(p))
#endif
#define JOB(n) ost_container_of(n, ost_job_t, node)

void ost_job_fill_info(const ost_job_t *j, ost_job_info_t *out)
{
	out->id = j->id;
	out->uid = j->camp->user->uid;
	out->procs = j->procs;
	out->estimate = j->e_full + j->e_cut;
	out->submit = j->submit;
	out->start = ost_job_started(j);
	out->campaign = j->camp->seq;
	out->state = j->state;
	out->nice = j->nice;
	out->account = j->camp->user->acct_id;
}

int ost_job_get(const ost_sched_t *s, uint64_t id, ost_job_info_t *out)
{
	const ost_job_t *j = id ? ost_map_get(&s->jobs, id) : NULL;

	if (!j)
		return -OST_ENOENT;
	ost_job_fill_info(j, out);
	return 0;
}

int ost_sched_foreach_job(const ost_sched_t *s, ost_job_visit_f fn, void *arg)
{
	size_t i;
	int rc;

	for (i = 0; s->jobs.slots && i <= s->jobs.mask; i++) {
		ost_job_info_t info;

		if (!s->jobs.slots[i].key)
			continue;
		ost_job_fill_info(s->jobs.slots[i].val, &info);
		if ((rc = fn(&info, arg)))
			return rc;
	}
	return 0;
}

/*
 * In-order iterator over s->order with an explicit stack.  ost_tree_next()
 * finds the next campaign only when it gets there, one cache miss per
 * campaign in a chain; here the right child of every node on the way down
 * is known, and prefetched, long before its turn.  An AVL tree of n nodes
 * is less than 1.44 log2(n + 2) high: 96 levels hold any tree in memory.
 */
#define OST_ITER_DEPTH 96

typedef struct {
	const ost_tnode_t *stack[OST_ITER_DEPTH];
	size_t n;
} _iter_t;

static void _iter_descend(_iter_t *it, const ost_tnode_t *n)
{
	for (; n; n = n->left) {
		if (n->right)
			OST_PREFETCH(n->right);
		/* the campaign's user and blocks, read when it is next */
		OST_PREFETCH(&CAMP(n)->user);
		it->stack[it->n++] = n;
	}
}

static const ost_tnode_t *_iter_next(_iter_t *it)
{
	const ost_tnode_t *n;

	if (!it->n)
		return NULL;
	n = it->stack[--it->n];
	_iter_descend(it, n->right);
	return n;
}

int ost_sched_foreach_pending(const ost_sched_t *s, ost_rank_visit_f fn,
			      void *arg)
{
	ost_rank_info_t r = { .rank = 0 };
	const ost_tnode_t *cn, *nn, *jn;
	_iter_t it = { .n = 0 };
	int rc;

	ost_campaign_settle(s);	/* tags, W, order */

	_iter_descend(&it, s->order.root);
	for (cn = _iter_next(&it); cn; cn = nn) {
		/* the walk blocks are a cache, not observable state */
		ost_campaign_t *c = (ost_campaign_t *)CAMP(cn);
		const ost_wblk_t *b;

		/* with many small campaigns the walk is a chain of misses
		 * (campaign, user, first block): start loading the next
		 * campaign's while this one's jobs are visited */
		nn = _iter_next(&it);
		if (nn) {
			const ost_campaign_t *d = CAMP(nn);

			OST_PREFETCH(d->user);
			if (d->walk)
				OST_PREFETCH(d->whead);
		}

		r.uid = c->user->uid;
		r.campaign = c->seq;
		r.eligible = c->eligible;
		if (ost_walk_build(c)) {
			for (b = c->whead; b; b = b->next)
				for (uint32_t i = 0; i < b->n; i++) {
					r.job_id = b->id[i];
					r.rank++;
					if ((rc = fn(&r, arg)))
						return rc;
				}
			continue;
		}
		for (jn = ost_tree_first(&c->pending); jn;
		     jn = ost_tree_next(jn)) {
			r.job_id = JOB(jn)->id;
			r.rank++;
			if ((rc = fn(&r, arg)))
				return rc;
		}
	}
	return 0;
}

int ost_sched_rank(const ost_sched_t *s, uint64_t id, uint64_t *rank)
{
	const ost_job_t *j = id ? ost_map_get(&s->jobs, id) : NULL;

	ost_campaign_settle(s);	/* tags, W, order */

	if (!j)
		return -OST_ENOENT;
	if (j->state != OST_JOB_PENDING)
		return -OST_ESTATE;
	*rank = ost_tree_weight_before(&j->camp->node) +
		ost_tree_weight_before(&j->node) + 1;
	return 0;
}

/* F_c in the root's virtual time (§21; F_c itself without accounts). */
static double _root_f(const ost_sched_t *s, const ost_campaign_t *c)
{
	if (!c->user->acct)
		return c->vfinish;
	return ost_acct_project(s, c->user, c->vfinish);
}

int ost_sched_job_vct(const ost_sched_t *s, uint64_t id, double *vct)
{
	const ost_job_t *j = id ? ost_map_get(&s->jobs, id) : NULL;

	ost_campaign_settle(s);	/* tags, W */

	if (!j)
		return -OST_ENOENT;
	*vct = ost_vclock_completion(s, _root_f(s, j->camp));
	return 0;
}

/* S_c of c in the root's virtual time (§21's projection, as _root_f for F). */
static double _root_s(const ost_sched_t *s, const ost_campaign_t *c)
{
	return c->user->acct ? ost_acct_project(s, c->user, c->vstart) :
			       c->vstart;
}

int ost_sched_job_vstart(const ost_sched_t *s, uint64_t id, double *t)
{
	const ost_job_t *j = id ? ost_map_get(&s->jobs, id) : NULL;
	const ost_campaign_t *c;

	ost_campaign_settle(s);	/* tags, W, eligibility */

	if (!j)
		return -OST_ENOENT;
	c = j->camp;
	*t = c->eligible ? s->now : ost_vclock_completion(s, _root_s(s, c));
	return 0;
}

static int _cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* C~ of the campaigns cs[0..n): one projection over their sorted F; and
 * when each not yet eligible starts in V (vst, §24): one more over their
 * sorted S.  O(n log n + active users), never a projection per campaign:
 * the plugin's pass asks this under the job read lock. */
static int _fill_vct(const ost_sched_t *s, ost_campaign_t **cs, size_t n,
		     ost_campaign_info_t *info)
{
	double *vf = malloc((n ? n : 1) * sizeof(*vf)), *ct;
	double *vs = malloc((n ? n : 1) * sizeof(*vs)), *st = NULL;
	size_t i, m = 0;

	if (!vf || !vs) {
		free(vf);
		free(vs);
		return -OST_ENOMEM;
	}
	for (i = 0; i < n; i++) {
		vf[i] = _root_f(s, cs[i]);
		if (!cs[i]->eligible)
			vs[m++] = _root_s(s, cs[i]);
	}
	qsort(vf, n, sizeof(*vf), _cmp_double);
	qsort(vs, m, sizeof(*vs), _cmp_double);
	ct = ost_vclock_project(s, vf, n);
	if (ct && m)
		st = ost_vclock_project(s, vs, m);
	if (!ct || (m && !st)) {
		free(ct);
		free(vf);
		free(vs);
		return -OST_ENOMEM;
	}
	for (i = 0; i < n; i++) {
		double f = _root_f(s, cs[i]), v;
		double *x = bsearch(&f, vf, n, sizeof(*vf), _cmp_double);

		ost_campaign_fill_info(s, cs[i], &info[i]);
		/* A NaN tag (never made from in-range input) has no place in
		 * the sorted array: no C~ rather than a read out of it. */
		info[i].vct = x ? ct[x - vf] : NAN;
		info[i].vst = s->now;
		if (!cs[i]->eligible) {
			v = _root_s(s, cs[i]);
			x = bsearch(&v, vs, m, sizeof(*vs), _cmp_double);
			info[i].vst = x ? st[x - vs] : NAN;
		}
	}
	free(st);
	free(ct);
	free(vf);
	free(vs);
	return 0;
}

static int _cmp_uid_seq(const void *a, const void *b)
{
	const ost_campaign_t *x = *(ost_campaign_t *const *)a;
	const ost_campaign_t *y = *(ost_campaign_t *const *)b;

	if (x->user->uid != y->user->uid)
		return x->user->uid < y->user->uid ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

int ost_sched_foreach_campaign(const ost_sched_t *s, ost_campaign_visit_f fn,
			       void *arg)
{
	ost_campaign_t **cs = malloc((s->n_campaigns + 1) * sizeof(*cs));
	ost_campaign_info_t *info = malloc((s->n_campaigns + 1) *
					   sizeof(*info));
	const ost_tnode_t *cn;
	size_t n = 0, nq, i;
	int rc = -OST_ENOMEM;

	ost_campaign_settle(s);	/* tags, W, order */

	if (!cs || !info)
		goto out_free;
	for (cn = ost_tree_first(&s->order); cn; cn = ost_tree_next(cn))
		cs[n++] = CAMP(cn);
	nq = n;
	for (i = 0; s->users.slots && i <= s->users.mask; i++) {
		const ost_user_t *u = s->users.slots[i].val;
		ost_campaign_t *c;

		if (!s->users.slots[i].key)
			continue;
		for (c = u->first; c; c = c->next)
			if (!c->in_order)
				cs[n++] = c;
	}
	qsort(cs + nq, n - nq, sizeof(*cs), _cmp_uid_seq);
	if ((rc = _fill_vct(s, cs, n, info)))
		goto out_free;
	for (i = 0; i < n; i++)
		if ((rc = fn(&info[i], arg)))
			break;
out_free:
	free(cs);
	free(info);
	return rc;
}

int ost_sched_explain(const ost_sched_t *s, uint64_t id, size_t max_ahead,
		      ost_explain_t *out)
{
	const ost_job_t *j = id ? ost_map_get(&s->jobs, id) : NULL;
	const ost_campaign_t *c;
	const ost_tnode_t *cn;
	ost_campaign_t **cs;
	ost_campaign_info_t *info;
	size_t n = 0, i;
	ost_explain_t ex = { .n_ahead = 0 };

	ost_campaign_settle(s);	/* tags, W, order */

	if (!j)
		return -OST_ENOENT;
	c = j->camp;
	if (c->in_order)
		for (cn = ost_tree_first(&s->order); cn != &c->node;
		     cn = ost_tree_next(cn))
			ex.n_ahead++;
	cs = malloc((ex.n_ahead + 1) * sizeof(*cs));
	info = malloc((ex.n_ahead + 1) * sizeof(*info));
	if (!cs || !info)
		goto out_nomem;
	if (c->in_order)
		for (cn = ost_tree_first(&s->order); cn != &c->node;
		     cn = ost_tree_next(cn))
			cs[n++] = CAMP(cn);
	cs[n++] = (ost_campaign_t *)c;
	if (_fill_vct(s, cs, n, info))
		goto out_nomem;
	ost_job_fill_info(j, &ex.job);
	ex.campaign = info[n - 1];
	ex.rank = 0;
	if (j->state == OST_JOB_PENDING)
		(void)ost_sched_rank(s, id, &ex.rank);
	ex.pending_total = s->n_pending;
	ex.now = s->now;
	ex.vtime = s->vtime;
	ex.capacity = ost_vclock_capacity(s);
	ex.total_weight = s->total_weight;
	ex.share = ost_vclock_share(s, c->user);
	ex.head_time = s->now;
	for (i = 0; i + 1 < n; i++)
		if (info[i].vct > ex.head_time || isnan(ex.head_time))
			ex.head_time = info[i].vct;
	free(cs);
	if (ex.n_ahead && max_ahead) {
		ex.ahead = info;	/* the caller reads min(n_ahead, max) */
		info = NULL;
	}
	free(info);
	*out = ex;
	return 0;
out_nomem:
	free(cs);
	free(info);
	return -OST_ENOMEM;
}

void ost_explain_free(ost_explain_t *ex)
{
	if (!ex)
		return;
	free(ex->ahead);
	ex->ahead = NULL;
}

int ost_sched_user_share(const ost_sched_t *s, uint32_t uid, double *share)
{
	const ost_user_t *u = ost_user_get((ost_sched_t *)s, uid, false);

	ost_campaign_settle(s);	/* W */
	if (!u)
		return -OST_ENOENT;
	*share = ost_acct_share(s, u);	/* §21: the product along its path */
	return 0;
}

void ost_sched_stats(const ost_sched_t *s, ost_stats_t *out)
{
	ost_campaign_settle(s);	/* W, capacity */
	out->now = s->now;
	out->vtime = s->vtime;
	out->capacity = ost_vclock_capacity(s);
	out->total_weight = s->total_weight;
	out->active_users = s->n_active;
	out->users = (uint32_t)s->users.count;
	out->campaigns = s->n_campaigns;
	out->pending = s->n_pending;
	out->running = s->n_running;
	out->busy_procs = s->busy;
}

int ost_acct_get(const ost_sched_t *s, uint32_t id, ost_acct_info_t *out)
{
	const ost_acct_t *a = id ? ost_map_get(&s->accts, id) : NULL;

	if (!a)
		return -OST_ENOENT;
	ost_campaign_settle(s);	/* W */
	out->id = a->id;
	out->parent = a->parent ? a->parent->id : 0;
	out->share = a->share;
	out->active = ost_sched_nested(s) && ost_hnode_linked(&a->hk.node);
	out->norm = ost_sched_nested(s) ? ost_acct_norm(s, a) : 0.0;
	out->frac = ost_sched_nested(s) ? ost_acct_frac(s, a) : 0.0;
	out->leaves = a->n_users;
	out->kids = a->n_kids;
	return 0;
}

static int _cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static int _cmp_leaf(const void *a, const void *b)
{
	const ost_leaf_info_t *x = a, *y = b;

	return (x->uid > y->uid) - (x->uid < y->uid);
}

size_t ost_acct_ids(const ost_sched_t *s, uint32_t *ids, size_t max)
{
	const ost_acct_t *a;
	size_t n = 0;

	if (max < s->n_accts)
		return s->n_accts;
	for (a = s->acct_list; a; a = a->next)
		ids[n++] = a->id;
	qsort(ids, n, sizeof(*ids), _cmp_u32);
	return n;
}

/* u's leaf as inspection shows it. */
static void _leaf(const ost_sched_t *s, const ost_user_t *u,
		  ost_leaf_info_t *out)
{
	out->uid = u->uid;
	out->account = u->acct_id;
	out->weight = u->weight;
	out->frac = ost_acct_share(s, u);
	out->active = ost_hnode_linked(&u->active.node);
	out->unfinished = u->unfinished;
}

size_t ost_acct_leaves(const ost_sched_t *s, uint32_t acct,
		       ost_leaf_info_t *out, size_t max)
{
	const ost_acct_t *a = acct ? ost_map_get(&s->accts, acct) : NULL;
	const ost_user_t *u;
	size_t i, n = 0;

	if (acct && !a)
		return 0;
	ost_campaign_settle(s);	/* W */
	if (a) {
		if (max < a->n_users)
			return a->n_users;
		for (u = a->users; u; u = u->next_in)
			_leaf(s, u, &out[n++]);
	} else {		/* the root's: the leaves (users and -A
				 * pairs, all in the map) in no account */
		for (i = 0; s->users.slots && i <= s->users.mask; i++) {
			u = s->users.slots[i].val;
			if (s->users.slots[i].key && !u->acct && n++ < max)
				_leaf(s, u, &out[n - 1]);
		}
		if (n > max)
			return n;
	}
	qsort(out, n, sizeof(*out), _cmp_leaf);
	return n;
}
