/*****************************************************************************\
 *  check_accounts.c - the nested virtual schedule (§21)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The property: on random workloads (fixed seeds) of 2 and 3 levels of
 *  accounts, with accounts becoming active and idle and shares and weights
 *  changing, the virtual completion time C~ the engine reports after each
 *  event equals, for every campaign that completes in V before the next
 *  event, the completion time of a naive fluid simulation written here
 *  independently: at every instant the capacity is split top down among
 *  the active children in proportion to their shares, and a user serves
 *  its campaigns one after the other.  The same simulation with every user
 *  under the root is the flat schedule of §3, checked against
 *  Hierarchy=users (today's code).
\*****************************************************************************/

#include "util.h"

#define MAXN 48			/* nodes: root, accounts, users */
#define MAXC 64			/* campaigns */
#define MAXE 160		/* events */
#define TOL 1e-6		/* relative, on C~ */

static uint64_t _rng;

static uint32_t _rand(uint32_t n)
{
	_rng = _rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)((_rng >> 33) % n);
}

typedef struct {
	int parent;		/* -1 for the root (node 0) */
	double w;		/* share or weight */
	bool leaf;
	uint32_t id;		/* account id or uid */
} node_t;

typedef struct {
	int user;		/* leaf node */
	double t, area;		/* submit time, CPU-s */
	double rem;		/* fluid: work left, CPU-s */
	double done;		/* fluid: completion time, or -1 */
	uint32_t seq;
	bool in;		/* fluid: submitted */
} wcamp_t;

typedef struct {
	double t;
	int kind;		/* 0: campaign arrives, 1: node's w changes */
	int arg;
	double w;
} wevent_t;

typedef struct {
	node_t n[MAXN];
	int nn;
	wcamp_t c[MAXC];
	int nc;
	wevent_t e[MAXE];
	int ne;
	uint32_t m;
} work_t;

/* -------------------------------------------------- the naive fluid --- */

static int _head(const work_t *w, int leaf)
{
	int i, best = -1;

	for (i = 0; i < w->nc; i++)
		if (w->c[i].user == leaf && w->c[i].in && w->c[i].rem > 0.0 &&
		    (best < 0 || w->c[i].seq < w->c[best].seq))
			best = i;
	return best;
}

static bool _active(const work_t *w, int k)
{
	int i;

	if (w->n[k].leaf)
		return _head(w, k) >= 0;
	for (i = 1; i < w->nn; i++)
		if (w->n[i].parent == k && _active(w, i))
			return true;
	return false;
}

/* CPUs each node receives now: m at the root when busy, split top down. */
static void _rates(const work_t *w, double *rate)
{
	int k, i;

	for (k = 0; k < w->nn; k++)
		rate[k] = 0.0;
	rate[0] = _active(w, 0) ? (double)w->m : 0.0;
	/* parents come before their children in n[] */
	for (k = 0; k < w->nn; k++) {
		double sum = 0.0;

		if (w->n[k].leaf || rate[k] == 0.0)
			continue;
		for (i = 1; i < w->nn; i++)
			if (w->n[i].parent == k && _active(w, i))
				sum += w->n[i].w;
		for (i = 1; i < w->nn; i++)
			if (w->n[i].parent == k && _active(w, i))
				rate[i] = rate[k] * w->n[i].w / sum;
	}
}

/* A weight change keeps a user's lengths L = A / w (§9.7): its work left
 * in V scales by w' / w.  A share change of an account moves nothing. */
static void _fluid_event(work_t *w, const wevent_t *e)
{
	int i;

	if (e->kind == 0) {
		w->c[e->arg].in = true;
		return;
	}
	if (w->n[e->arg].leaf)
		for (i = 0; i < w->nc; i++)
			if (w->c[i].user == e->arg && w->c[i].in)
				w->c[i].rem *= e->w / w->n[e->arg].w;
	w->n[e->arg].w = e->w;
}

static void _fluid(work_t *w)
{
	double t = 0.0, rate[MAXN];
	int ev = 0, i;

	for (i = 0; i < w->nc; i++) {
		w->c[i].rem = w->c[i].area;
		w->c[i].done = -1.0;
		w->c[i].in = false;
	}
	for (;;) {
		double dt = INFINITY, te = ev < w->ne ? w->e[ev].t : INFINITY;

		_rates(w, rate);
		for (i = 1; i < w->nn; i++) {
			int h = w->n[i].leaf ? _head(w, i) : -1;

			if (h >= 0 && w->c[h].rem / rate[i] < dt)
				dt = w->c[h].rem / rate[i];
		}
		if (isinf(dt) && isinf(te))
			break;
		if (t + dt > te)
			dt = te - t;
		for (i = 1; i < w->nn; i++) {
			int h = w->n[i].leaf ? _head(w, i) : -1;

			if (h < 0)
				continue;
			w->c[h].rem -= rate[i] * dt;
			if (w->c[h].rem <= 1e-9 * (1.0 + w->c[h].area)) {
				w->c[h].rem = 0.0;
				w->c[h].done = t + dt;
			}
		}
		t += dt;
		while (ev < w->ne && w->e[ev].t <= t)
			_fluid_event(w, &w->e[ev++]);
	}
}

/* ------------------------------------------------------ the workload --- */

static int _node(work_t *w, int parent, double share, bool leaf, uint32_t id)
{
	node_t *n = &w->n[w->nn];

	n->parent = parent;
	n->w = share;
	n->leaf = leaf;
	n->id = id;
	return w->nn++;
}

static double _share(void)
{
	static const double s[] = { 0.5, 1, 1, 2, 3 };

	return s[_rand(5)];
}

/* levels 0: every user under the root (flat); 2: accounts and users;
 * 3: accounts, sub-accounts and users (and a user or two at the root). */
static void _gen(work_t *w, int levels)
{
	int i, users[MAXN], nu = 0, a, b;
	uint32_t aid = 1, uid = 1, seq[MAXN] = { 0 };

	memset(w, 0, sizeof(*w));
	w->m = 1 + _rand(8);
	_node(w, -1, 1.0, false, 0);
	if (levels == 0) {
		for (i = 0; i < 2 + (int)_rand(5); i++)
			users[nu++] = _node(w, 0, _share(), true, uid++);
	} else {
		int na = 2 + (int)_rand(3);

		for (a = 0; a < na; a++) {
			int acc = _node(w, 0, _share(), false, aid++);
			int nb = levels == 3 ? 1 + (int)_rand(3) : 1;

			for (b = 0; b < nb; b++) {
				int sub = levels == 3 ? _node(w, acc, _share(),
							      false, aid++)
						      : acc;
				int k, nk = 1 + (int)_rand(3);

				for (k = 0; k < nk; k++)
					users[nu++] = _node(w, sub, _share(),
							    true, uid++);
			}
		}
		if (levels == 3 && _rand(2))
			users[nu++] = _node(w, 0, _share(), true, uid++);
	}
	w->nc = 20 + (int)_rand(30);
	for (i = 0; i < w->nc; i++) {
		wcamp_t *c = &w->c[i];

		c->user = users[_rand((uint32_t)nu)];
		c->t = (double)_rand(400);
		c->area = (double)((1 + _rand(4)) * (1 + _rand(60)));
	}
	/* events in time order; a user's campaigns numbered in it */
	for (i = 0; i < w->nc; i++)
		w->e[w->ne++] = (wevent_t){ .t = w->c[i].t, .kind = 0,
					    .arg = i };
	for (i = 0; i < 6; i++)
		w->e[w->ne++] = (wevent_t){ .t = (double)_rand(400) + 0.5,
					    .kind = 1,
					    .arg = 1 + (int)_rand(
						    (uint32_t)w->nn - 1),
					    .w = _share() };
	for (i = 1; i < w->ne; i++) {	/* stable insertion sort by t */
		wevent_t x = w->e[i];
		int j = i;

		for (; j > 0 && w->e[j - 1].t > x.t; j--)
			w->e[j] = w->e[j - 1];
		w->e[j] = x;
	}
	for (i = 0; i < w->ne; i++)
		if (w->e[i].kind == 0)
			w->c[w->e[i].arg].seq = ++seq[w->c[w->e[i].arg].user];
}

/* --------------------------------------------------------- the engine --- */

typedef struct {
	const work_t *w;
	double now, next;
	int checked;
	double last_vct;
	bool sorted;
} probe_t;

static const wcamp_t *_find(const work_t *w, uint32_t uid, uint32_t seq)
{
	int i;

	for (i = 0; i < w->nc; i++)
		if (w->n[w->c[i].user].id == uid && w->c[i].seq == seq)
			return &w->c[i];
	return NULL;
}

/* C~ now against the fluid's completion, for the campaigns that complete
 * before anything else happens. */
static int _check_vct(const ost_campaign_info_t *ci, void *arg)
{
	probe_t *p = arg;
	const wcamp_t *c = _find(p->w, ci->uid, ci->seq);

	ck_assert_ptr_nonnull(c);
	if (c->done > p->now + 1e-9 && c->done <= p->next) {
		ck_assert_msg(fabs(ci->vct - c->done) <= TOL * (1.0 + c->done),
			      "uid %u seq %u: C~ %.12g, fluid %.12g (t=%g)",
			      ci->uid, ci->seq, ci->vct, c->done, p->now);
		p->checked++;
	}
	return 0;
}

static void _tweak_accounts(ost_config_t *c)
{
	c->hierarchy = OST_HIER_ACCOUNTS;
}

static ost_sched_t *_engine(const work_t *w, bool nested)
{
	ost_sched_t *s = mk_sched(w->m, nested ? _tweak_accounts : NULL);
	int k;

	for (k = 1; k < w->nn; k++) {
		const node_t *n = &w->n[k];
		uint32_t pid = n->parent > 0 ? w->n[n->parent].id : 0;

		if (n->leaf) {
			ck_assert_int_eq(ost_user_set_weight(s, n->id, n->w, 0),
					 0);
			ck_assert_int_eq(ost_user_set_account(s, n->id, pid, 0),
					 0);
		} else {
			ck_assert_int_eq(ost_acct_declare(s, n->id, pid, n->w,
							  0), 0);
		}
	}
	return s;
}

static void _apply(ost_sched_t *s, const work_t *w, const wevent_t *e,
		   uint64_t id)
{
	if (e->kind == 0) {
		const wcamp_t *c = &w->c[e->arg];
		uint32_t q = 1;

		/* area = q e with q | area, small */
		while (q < 4 && fmod(c->area, (double)(q + 1)) == 0.0)
			q++;
		sub_in(s, id, w->n[c->user].id, q, c->area / q, e->t, c->seq);
	} else if (w->n[e->arg].leaf) {
		ck_assert_int_eq(ost_user_set_weight(s, w->n[e->arg].id, e->w,
						     e->t), 0);
	} else {
		ck_assert_int_eq(ost_acct_declare(s, w->n[e->arg].id,
			w->n[e->arg].parent > 0
				? w->n[w->n[e->arg].parent].id : 0,
			e->w, e->t), 0);
	}
}

typedef struct {
	const ost_sched_t *s;
	double last;
	double now;
} order_probe_t;

static int _order_step(const ost_rank_info_t *r, void *arg)
{
	order_probe_t *o = arg;
	double vct;

	if (!r->eligible)
		return 0;
	ck_assert_int_eq(ost_sched_job_vct(o->s, r->job_id, &vct), 0);
	if (vct <= o->now)
		return 0;	/* complete in V: ranked by when it was */
	ck_assert_msg(vct >= o->last - TOL * (1.0 + vct),
		      "job %llu ranked after a later C~ (%.12g < %.12g)",
		      (unsigned long long)r->job_id, vct, o->last);
	o->last = vct;
	return 0;
}

/* Drive one workload; returns the number of C~ compared. */
static int _run(uint64_t seed, int levels, bool nested)
{
	work_t w;
	ost_sched_t *s;
	int i, checked = 0;

	_rng = seed;
	_gen(&w, levels);
	s = _engine(&w, nested);
	if (!nested)		/* Hierarchy=users: the accounts are kept */
		for (i = 1; i < w.nn; i++)	/* but shape nothing */
			if (w.n[i].leaf)
				w.n[i].parent = 0;
	_fluid(&w);
	for (i = 0; i < w.ne; i++) {
		probe_t p = { .w = &w, .now = w.e[i].t };
		order_probe_t o = { .s = s, .last = -INFINITY,
				    .now = w.e[i].t };

		_apply(s, &w, &w.e[i], (uint64_t)i + 1);
		if (i + 1 < w.ne && w.e[i + 1].t == w.e[i].t)
			continue;	/* the next event is at the same t */
		p.next = i + 1 < w.ne ? w.e[i + 1].t : INFINITY;
		ck_assert_int_eq(ost_sched_foreach_campaign(s, _check_vct, &p),
				 0);
		ck_assert_int_eq(ost_sched_foreach_pending(s, _order_step, &o),
				 0);
		checked += p.checked;
	}
	ost_sched_destroy(s);
	return checked;
}

static int _loops(void)
{
	const char *e = getenv("OST_PROPERTY_LOOPS");

	return e ? atoi(e) : 60;
}

/* Every seed from base + 1 for the levels, once per hierarchy in
 * `nested` (0: users, 1: accounts; 2: both); at least 20 C~ compared per
 * workload and hierarchy on average. */
static void _seeds(uint64_t base, int levels, int nested)
{
	int seed, n = 0, runs = nested == 2 ? 2 : 1;

	for (seed = 1; seed <= _loops(); seed++) {
		if (nested != 1)
			n += _run(base + (uint64_t)seed, levels, false);
		if (nested != 0)
			n += _run(base + (uint64_t)seed, levels, true);
	}
	ck_assert_int_gt(n, 20 * runs * _loops());
}

/*
 * The property, one workload family per loop index:
 *   0: flat (every user at the root): §3, today's engine (Hierarchy=users)
 *      and Hierarchy=accounts without accounts;
 *   1: 2 levels, accounts and their users;
 *   2: 3 levels, accounts, sub-accounts, users, and users at the root;
 *   3: 3 levels with Hierarchy=users: the declared accounts shape nothing.
 */
static const struct {
	uint64_t base;
	int levels, nested;
} _families[] = {
	{ 0x1000, 0, 2 }, { 0x2000, 2, 1 }, { 0x3000, 3, 1 }, { 0x4000, 3, 0 },
};

START_TEST(test_accounts_fluid)
{
	_seeds(_families[_i].base, _families[_i].levels,
	       _families[_i].nested);
}
END_TEST

static ost_sched_t *_two_accounts(uint32_t m)
{
	ost_sched_t *s = mk_sched(m, _tweak_accounts);
	uint32_t u;

	ck_assert_int_eq(ost_acct_declare(s, 10, 0, 1.0, 0), 0);	/* solo */
	ck_assert_int_eq(ost_acct_declare(s, 20, 0, 1.0, 0), 0);	/* big */
	ck_assert_int_eq(ost_user_set_account(s, 1, 10, 0), 0);
	for (u = 2; u <= 11; u++)
		ck_assert_int_eq(ost_user_set_account(s, u, 20, 0), 0);
	return s;
}

/* A 1-user account against a 10-user account at equal shares: the solo
 * user's campaign completes as one holding half of the machine. */
START_TEST(test_accounts_solo_half)
{
	ost_sched_t *s = _two_accounts(10);
	double share;
	uint32_t u;

	sub(s, 1, 1, 10, 10, 0);		/* area 100 */
	for (u = 2; u <= 11; u++)
		sub(s, u, u, 10, 10, 0);	/* 10 x area 100 */
	/* solo: 5 CPUs, done at 20 s; the big users: 0.5 CPU each until
	 * 20 s (10 each), then 1 CPU each: 90 more, done at 110 s */
	ck_assert_double_eq_tol(camp(s, 1, 1).vct, 20, EPS);
	ck_assert_double_eq_tol(camp(s, 2, 1).vct, 110, EPS);
	ck_assert_int_eq(ost_sched_user_share(s, 1, &share), 0);
	ck_assert_double_eq_tol(share, 0.5, EPS);
	ck_assert_int_eq(ost_sched_user_share(s, 2, &share), 0);
	ck_assert_double_eq_tol(share, 0.05, EPS);
	ck_order(s, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
	/* and v really moves that way */
	ost_sched_advance(s, 20);
	ck_assert_int_eq(camp(s, 1, 1).vstate, OST_VSTATE_COMPLETE);
	ck_assert_int_eq(camp(s, 2, 1).vstate, OST_VSTATE_RUNNING);
	ck_assert_double_eq_tol(camp(s, 2, 1).vct, 110, EPS);
	ck_assert_int_eq(ost_sched_user_share(s, 2, &share), 0);
	ck_assert_double_eq_tol(share, 0.1, EPS);
	ost_sched_destroy(s);
}
END_TEST

/* A job submitted with -A counts in that account, a leaf of its own. */
START_TEST(test_accounts_dash_a)
{
	ost_sched_t *s = _two_accounts(10);
	ost_job_desc_t d = { .id = 3, .uid = 2, .procs = 10, .estimate = 10,
			     .account = 10 };

	sub(s, 1, 1, 10, 10, 0);	/* solo, area 100 */
	sub(s, 2, 2, 10, 10, 0);	/* big, area 100 */
	ck_assert_int_eq(ost_job_submit(s, &d, 0, NULL), 0);	/* -A solo */
	/* solo: users 1 and 2's leaf, 2.5 CPUs each; big: user 2, 5 CPUs:
	 * big done at 20 s, then 5 CPUs each: 50 + 50 more, done at 30 s */
	ck_assert_double_eq_tol(camp(s, 1, 1).vct, 30, EPS);
	{
		double vct;

		ck_assert_int_eq(ost_sched_job_vct(s, 2, &vct), 0);
		ck_assert_double_eq_tol(vct, 20, EPS);
		ck_assert_int_eq(ost_sched_job_vct(s, 3, &vct), 0);
		ck_assert_double_eq_tol(vct, 30, EPS);
	}
	/* a weight set for the uid applies to both its leaves */
	ck_assert_int_eq(ost_user_set_weight(s, 2, 3.0, 0), 0);
	ck_assert_int_eq(ost_user_set_weight(s, 1, 1.0, 0), 0);
	{
		double vct;

		/* solo: leaf of 2 (w 3) 3.75 CPUs, user 1 1.25: user 1's
		 * 100 in 80 s; leaf 75 of 100 by 20 s, alone then */
		ck_assert_int_eq(ost_sched_job_vct(s, 1, &vct), 0);
		ck_assert(vct > 20);
	}
	ost_sched_destroy(s);
}
END_TEST

/* The contracts of the account calls. */
START_TEST(test_accounts_api)
{
	ost_sched_t *s = _two_accounts(4);
	ost_config_t cfg = *ost_sched_config(s);
	char *buf = NULL;
	size_t len;

	ck_assert_int_eq(ost_acct_declare(s, 0, 0, 1, 0), -OST_EINVAL);
	ck_assert_int_eq(ost_acct_declare(s, 30, 99, 1, 0), -OST_EINVAL);
	ck_assert_int_eq(ost_acct_declare(s, 30, 10, 0, 0), -OST_EINVAL);
	ck_assert_int_eq(ost_acct_declare(s, 10, 20, 1, 0), -OST_EINVAL);
	ck_assert_int_eq(ost_acct_declare(s, 30, 10, 2, 0), 0);
	ck_assert_int_eq(ost_acct_declare(s, 30, 10, 4, 0), 0);
	ck_assert_int_eq(ost_user_set_account(s, 1, 99, 0), -OST_EINVAL);
	sub(s, 1, 1, 4, 10, 0);
	ck_assert_int_eq(ost_job_start(s, 1, 0), 0);
	ck_assert_int_eq(ost_user_set_account(s, 1, 30, 1), -OST_ESTATE);
	ck_assert(ost_sched_nested(s));
	ck_assert(ost_config_nested(&cfg));
	cfg.hierarchy = OST_HIER_USERS;
	ck_assert(!ost_config_nested(&cfg));
	ck_assert_int_eq(ost_sched_reconfigure(s, &cfg, 1), -OST_EINVAL);
	ck_assert(ost_sched_nested(s));		/* refused: still nested */
	ck_assert_int_eq(ost_sched_save(s, &buf, &len), 0);	/* version 2 */
	free(buf);
	ck_assert_str_eq(ost_hier_name(OST_HIER_ACCOUNTS), "accounts");
	ck_assert_int_eq(ost_hier_parse("Users", &cfg.hierarchy), 0);
	ck_assert_int_eq(cfg.hierarchy, OST_HIER_USERS);
	/* done in V and no job left: it may move */
	ck_assert_int_eq(ost_job_finish(s, 1, 30, 10), 0);
	ck_assert_int_eq(ost_user_set_account(s, 1, 30, 31), 0);
	sub(s, 2, 1, 4, 10, 40);
	ck_assert_double_eq_tol(camp(s, 1, 2).vct, 50, EPS);
	ost_sched_destroy(s);
}
END_TEST

/* Inspection: an account's share of its parent and of the partition,
 * now and (idle) as it would be by becoming active. */
START_TEST(test_accounts_info)
{
	ost_sched_t *s = _two_accounts(10);
	ost_acct_info_t ai;
	uint32_t ids[4];
	uint32_t u;

	ck_assert_int_eq(ost_acct_declare(s, 30, 20, 3.0, 0), 0);	/* in big */
	ck_assert_uint_eq(ost_acct_ids(s, NULL, 0), 3);
	ck_assert_uint_eq(ost_acct_ids(s, ids, 4), 3);
	ck_assert_uint_eq(ids[0], 10);
	ck_assert_uint_eq(ids[1], 20);
	ck_assert_uint_eq(ids[2], 30);
	ck_assert_int_eq(ost_acct_get(s, 99, &ai), -OST_ENOENT);
	ck_assert_int_eq(ost_acct_get(s, 0, &ai), -OST_ENOENT);
	/* nothing active: each would get half, alone with the other */
	ck_assert_int_eq(ost_acct_get(s, 10, &ai), 0);
	ck_assert(!ai.active);
	ck_assert_double_eq_tol(ai.frac, 1.0, EPS);
	sub(s, 1, 1, 10, 10, 0);			/* solo */
	for (u = 2; u <= 11; u++)
		sub(s, u, u, 10, 10, 0);		/* big */
	ck_assert_int_eq(ost_acct_get(s, 10, &ai), 0);
	ck_assert(ai.active);
	ck_assert_uint_eq(ai.parent, 0);
	ck_assert_uint_eq(ai.leaves, 1);
	ck_assert_double_eq_tol(ai.norm, 0.5, EPS);
	ck_assert_double_eq_tol(ai.frac, 0.5, EPS);
	ck_assert_int_eq(ost_acct_get(s, 20, &ai), 0);
	ck_assert_uint_eq(ai.leaves, 10);
	ck_assert_uint_eq(ai.kids, 1);
	ck_assert_double_eq_tol(ai.frac, 0.5, EPS);
	/* idle account 30 (share 3) in big, whose 10 users weigh 10: it
	 * would get 3/13 of big's half */
	ck_assert_int_eq(ost_acct_get(s, 30, &ai), 0);
	ck_assert(!ai.active);
	ck_assert_uint_eq(ai.parent, 20);
	ck_assert_double_eq_tol(ai.share, 3.0, EPS);
	ck_assert_double_eq_tol(ai.norm, 3.0 / 13.0, EPS);
	ck_assert_double_eq_tol(ai.frac, 0.5 * 3.0 / 13.0, EPS);
	/* the leaves: solo's one user has its half; big's ten a tenth of
	 * big's half each; a -A leaf of user 2 in solo, idle, would get a
	 * third of solo's half; user 12, never placed, is at the root */
	{
		ost_leaf_info_t l[16];
		ost_job_desc_t d = { .id = 12, .uid = 2, .procs = 1,
				     .estimate = 10, .account = 10 };

		ck_assert_uint_eq(ost_acct_leaves(s, 10, l, 16), 1);
		ck_assert_uint_eq(l[0].uid, 1);
		ck_assert(l[0].active);
		ck_assert_double_eq_tol(l[0].frac, 0.5, EPS);
		ck_assert_uint_eq(ost_acct_leaves(s, 20, NULL, 0), 10);
		ck_assert_uint_eq(ost_acct_leaves(s, 20, l, 16), 10);
		ck_assert_uint_eq(l[9].uid, 11);
		ck_assert_uint_eq(l[9].account, 20);
		ck_assert_double_eq_tol(l[9].frac, 0.05, EPS);
		ck_assert_int_eq(ost_job_submit(s, &d, 0, NULL), 0);
		ck_assert_int_eq(ost_job_finish(s, 12, 0, 0), 0);
		ck_assert_uint_eq(ost_acct_leaves(s, 10, l, 16), 2);
		ck_assert_uint_eq(l[1].uid, 2);
		ck_assert_uint_eq(l[1].account, 10);
		ck_assert_double_eq_tol(l[1].frac, 0.5 / 2.0, EPS);
		ck_assert_uint_eq(ost_acct_leaves(s, 0, l, 16), 0);
		sub(s, 13, 12, 1, 10, 0);
		ck_assert_uint_eq(ost_acct_leaves(s, 0, l, 16), 1);
		ck_assert_uint_eq(l[0].uid, 12);
		ck_assert_uint_eq(ost_acct_leaves(s, 99, l, 16), 0);
	}
	ost_sched_destroy(s);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("accounts");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT * 5);

	tcase_add_loop_test(tc, test_accounts_fluid, 0,
			    (int)(sizeof(_families) / sizeof(_families[0])));
	tcase_add_test(tc, test_accounts_solo_half);
	tcase_add_test(tc, test_accounts_dash_a);
	tcase_add_test(tc, test_accounts_api);
	tcase_add_test(tc, test_accounts_info);
	suite_add_tcase(s, tc);
	return s;
}

OST_TEST_MAIN
