/*****************************************************************************\
 *  check_acct_lead.c - the leads of §24 under nested accounts (§21)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The property: a tree whose root has one child, an account (itself
 *  alone in an account one level up in half the loops), holding every
 *  user, is the flat schedule in other units.  The account receives the
 *  whole capacity whenever it is active, so its own clock runs at
 *  dv_n/dt = C / W_n, the flat v's rate, and its users' tags, read in it,
 *  are the flat tags.  So random closed workloads (fixed seeds) driven
 *  through both, one Hierarchy=users and one Hierarchy=accounts with the
 *  same lead, gate and weights, must give after every event the same S_c,
 *  F_c and C~ for every campaign (to rounding: the nested clock is
 *  computed through the shares), and the same pending jobs in the same
 *  order with the same eligibility.  The flat engine's leads are checked
 *  against a reference in check_property.c; this carries that check to
 *  the nested clocks: v_rel and the cut read in the account's time, the
 *  account's F_n shrinking by the forgiven work, and a key past its
 *  user's last F projected to the account's end.  Jobs start in the flat
 *  engine's order; some are cancelled or requeued, some join an older
 *  explicit campaign (so campaigns open and restart behind), and the
 *  nested engine is saved and loaded back now and then.
\*****************************************************************************/

#include <string.h>

#include "util.h"

#define NJOBS 240
#define USERS 4
#define ACCT 10			/* the users' account */
#define OUTER 20		/* the account above it, in half the loops */
#define TOL 1e-7		/* relative, on tags and C~ */

typedef struct {
	uint64_t id;
	uint32_t uid, q, camp;
	double e, p, submit, end;
	int state;		/* 0 future, 1 pending, 2 running, 3 gone */
} ljob_t;

typedef struct {
	ost_sched_t *flat, *nest;
	ljob_t j[NJOBS];
	uint32_t m, free;
	uint64_t events;
	int compared;		/* campaigns compared */
	int ranked;		/* pending jobs whose rank was compared */
} lworld_t;

static uint64_t _rng;

static uint32_t _rand(uint32_t n)
{
	_rng = _rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)((_rng >> 33) % n);
}

static bool _near(double a, double b)
{
	if (a == b)
		return true;	/* INFINITY too */
	return fabs(a - b) <= TOL * (1.0 + fabs(a) + fabs(b));
}

typedef struct {
	lworld_t *w;
	int n;
} cmp_t;

static int _cmp_campaign(const ost_campaign_info_t *c, void *arg)
{
	cmp_t *p = arg;
	ost_campaign_info_t f = camp(p->w->nest, c->uid, c->seq);

	OST_CHECK(_near(c->vstart, f.vstart) &&
		  _near(c->vfinish, f.vfinish) && _near(c->vct, f.vct),
		  "campaign %u/%u: S %a/%a F %a/%a C~ %a/%a (event %llu)",
		  c->uid, c->seq, c->vstart, f.vstart, c->vfinish,
		  f.vfinish, c->vct, f.vct,
		  (unsigned long long)p->w->events);
	p->n++;
	return 0;
}

/* Whether pending job id's place is the same in both orders: its
 * campaign is not complete in V (§21 carries a key that events moved
 * below v_n back at its child's own rate, not at W_n's as the flat v
 * does, so the order of overdue campaigns may differ) and, with
 * gate=soft, its eligibility is not a tie to rounding (the nested clock
 * lands on a breakpoint where the flat v may stop a hair short). */
static bool _comparable(const lworld_t *w, uint64_t id, double v)
{
	ost_job_info_t j;
	ost_campaign_info_t c;

	OST_CHECK(ost_job_get(w->flat, id, &j) == 0, "job %llu",
		  (unsigned long long)id);
	c = camp(w->flat, j.uid, j.campaign);
	if (c.vstate == OST_VSTATE_COMPLETE || _near(c.vfinish, v))
		return false;
	return ost_sched_config(w->flat)->gate == OST_GATE_NONE ||
	       !_near(c.vstart, v);
}

/* The comparable pending jobs of o, in its order, into ids. */
static size_t _filter(const lworld_t *w, const order_t *o, double v,
		      uint64_t *ids, bool *elig)
{
	size_t i, n = 0;

	for (i = 0; i < o->n && i < 256; i++)
		if (_comparable(w, o->ids[i], v)) {
			ids[n] = o->ids[i];
			elig[n++] = o->elig[i];
		}
	return n;
}

static void _compare(lworld_t *w)
{
	order_t a = order_of(w->flat), b = order_of(w->nest);
	uint64_t ia[256], ib[256];
	bool ea[256], eb[256];
	cmp_t p = { .w = w };
	ost_stats_t st;
	size_t i, na, nb;

	OST_CHECK(a.n == b.n, "%zu pending flat, %zu nested (event %llu)",
		  a.n, b.n, (unsigned long long)w->events);
	ost_sched_stats(w->flat, &st);
	na = _filter(w, &a, st.vtime, ia, ea);
	nb = _filter(w, &b, st.vtime, ib, eb);
	OST_CHECK(na == nb, "%zu comparable flat, %zu nested (event %llu)",
		  na, nb, (unsigned long long)w->events);
	for (i = 0; i < na; i++)
		OST_CHECK(ia[i] == ib[i] && ea[i] == eb[i],
			  "rank %zu of %zu: job %llu eligible %d flat, %llu "
			  "%d nested (event %llu)", i + 1, na,
			  (unsigned long long)ia[i], (int)ea[i],
			  (unsigned long long)ib[i], (int)eb[i],
			  (unsigned long long)w->events);
	w->ranked += na;
	OST_CHECK(ost_sched_foreach_campaign(w->flat, _cmp_campaign, &p) == 0,
		  "foreach_campaign");
	w->compared += p.n;
	w->events++;
}

/* The nested engine through its state file and back (version 4 or 5
 * with the tree), then the configuration in force, as the plugin does. */
static void _reload(lworld_t *w)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	ost_sched_t *copy = NULL;

	OST_CHECK(ost_sched_save(w->nest, &buf, &len) == 0, "save");
	OST_CHECK(ost_sched_load(buf, len, &copy, err, sizeof(err)) == 0,
		  "load: %s", err);
	OST_CHECK(ost_sched_reconfigure(copy, ost_sched_config(w->nest),
					ost_sched_now(copy)) == 0,
		  "reconfigure the copy");
	free(buf);
	ost_sched_destroy(w->nest);
	w->nest = copy;
}

static void _submit(lworld_t *w, ljob_t *j, double t)
{
	ost_sched_t *e[2] = { w->flat, w->nest };
	int k;

	for (k = 0; k < 2; k++) {
		if (j->camp)
			sub_in(e[k], j->id, j->uid, j->q, j->e, t, j->camp);
		else
			(void)sub(e[k], j->id, j->uid, j->q, j->e, t);
	}
	j->state = 1;
}

/* Start the flat engine's head jobs while they fit (no backfill). */
static void _start(lworld_t *w, double t)
{
	order_t o = order_of(w->flat);
	size_t i;

	for (i = 0; i < o.n && i < 256; i++) {
		ljob_t *j = &w->j[o.ids[i] - 1];

		if (j->q > w->free)
			break;
		OST_CHECK(ost_job_start(w->flat, j->id, t) == 0 &&
			  ost_job_start(w->nest, j->id, t) == 0,
			  "start %llu", (unsigned long long)j->id);
		w->free -= j->q;
		j->state = 2;
		j->end = t + j->p;
	}
}

/* A random job in state, or NULL. */
static ljob_t *_some(lworld_t *w, int state)
{
	uint32_t i, k = _rand(NJOBS);

	for (i = 0; i < NJOBS; i++) {
		ljob_t *j = &w->j[(k + i) % NJOBS];

		if (j->state == state)
			return j;
	}
	return NULL;
}

/* Now and then a pending job is cancelled or a running one requeued. */
static void _churn(lworld_t *w, double t)
{
	ljob_t *j;

	if (!_rand(8) && (j = _some(w, 1))) {
		OST_CHECK(ost_job_cancel(w->flat, j->id, t) == 0 &&
			  ost_job_cancel(w->nest, j->id, t) == 0,
			  "cancel %llu", (unsigned long long)j->id);
		j->state = 3;
		_compare(w);
	}
	if (!_rand(8) && (j = _some(w, 2))) {
		OST_CHECK(ost_job_requeue(w->flat, j->id, t) == 0 &&
			  ost_job_requeue(w->nest, j->id, t) == 0,
			  "requeue %llu", (unsigned long long)j->id);
		w->free += j->q;
		j->state = 1;
		_compare(w);
	}
	if (!_rand(10))
		_reload(w);
}

typedef struct {
	ost_lead_t lead;
	double kappa;
	ost_gate_t gate;
} lconf_t;

static lconf_t _conf;

static void _tweak(ost_config_t *c)
{
	c->lead = _conf.lead;
	c->lead_cap = _conf.kappa;
	c->gate = _conf.gate;
	c->think_time = 5;
}

static void _tweak_nested(ost_config_t *c)
{
	_tweak(c);
	c->hierarchy = OST_HIER_ACCOUNTS;
}

static int _ranked;		/* over the loops of a test */

/* One workload; returns the campaigns compared. */
static int _run(uint64_t seed, const lconf_t *conf)
{
	lworld_t *w = calloc(1, sizeof(*w));
	uint32_t u, i, done = 0, count[USERS + 1] = { 0 };
	uint32_t per_camp;
	bool outer, explicit_camps;
	double t = 0.0;
	int n;

	ck_assert_ptr_nonnull(w);
	_rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	_conf = *conf;
	w->m = w->free = 8 + _rand(9);
	outer = _rand(2);
	explicit_camps = _rand(2);
	per_camp = 1 + _rand(4);
	w->flat = mk_sched(w->m, _tweak);
	w->nest = mk_sched(w->m, _tweak_nested);
	if (outer)
		ck_assert_int_eq(ost_acct_declare(w->nest, OUTER, 0, 3, 0.0),
				 0);
	ck_assert_int_eq(ost_acct_declare(w->nest, ACCT, outer ? OUTER : 0,
					  0.5 + _rand(4), 0.0), 0);
	for (u = 1; u <= USERS; u++) {
		double wt = 0.5 * (1 + _rand(4));

		ck_assert_int_eq(ost_user_set_weight(w->flat, u, wt, 0.0), 0);
		ck_assert_int_eq(ost_user_set_weight(w->nest, u, wt, 0.0), 0);
		ck_assert_int_eq(ost_user_set_account(w->nest, u, ACCT, 0.0),
				 0);
	}
	for (i = 0; i < NJOBS; i++) {
		ljob_t *j = &w->j[i];

		t += _rand(4) ? 0.5 * _rand(12) : 20.0 + _rand(200);
		j->id = i + 1;
		j->uid = 1 + _rand(USERS);
		j->q = 1 + _rand(w->m < 6 ? w->m : 6);
		j->e = 1 + _rand(60);
		j->p = j->e * (0.1 + 0.01 * _rand(90));
		j->submit = t;
		/* explicit campaigns of per_camp jobs: one opens while its
		 * user's previous one is unfinished (behind, §24) */
		if (explicit_camps)
			j->camp = 1 + count[j->uid]++ / per_camp;
	}
	while (done < NJOBS) {
		double next = INFINITY;

		for (i = 0; i < NJOBS; i++) {
			if (w->j[i].state == 0 && w->j[i].submit < next)
				next = w->j[i].submit;
			if (w->j[i].state == 2 && w->j[i].end < next)
				next = w->j[i].end;
		}
		OST_CHECK(isfinite(next), "%u jobs left and no event",
			  NJOBS - done);
		t = next;
		ck_assert_int_eq(ost_sched_advance(w->flat, t), 0);
		ck_assert_int_eq(ost_sched_advance(w->nest, t), 0);
		_compare(w);
		for (i = 0; i < NJOBS; i++) {
			ljob_t *j = &w->j[i];

			if (j->state == 2 && j->end <= t) {
				OST_CHECK(ost_job_finish(w->flat, j->id, t,
							 j->p) == 0 &&
					  ost_job_finish(w->nest, j->id, t,
							 j->p) == 0,
					  "finish %llu",
					  (unsigned long long)j->id);
				w->free += j->q;
				j->state = 3;
				_compare(w);
			}
		}
		for (i = 0; i < NJOBS; i++)
			if (w->j[i].state == 0 && w->j[i].submit <= t) {
				_submit(w, &w->j[i], t);
				_compare(w);
			}
		_churn(w, t);
		_start(w, t);
		_compare(w);
		for (done = 0, i = 0; i < NJOBS; i++)
			done += w->j[i].state == 3;
	}
	n = w->compared;
	_ranked += w->ranked;
	ost_sched_destroy(w->flat);
	ost_sched_destroy(w->nest);
	free(w);
	return n;
}

static const lconf_t _confs[] = {
	{ OST_LEAD_KEEP, 1.0, OST_GATE_SOFT },
	{ OST_LEAD_CAP, 1.0, OST_GATE_SOFT },
	{ OST_LEAD_CAP, 0.0, OST_GATE_NONE },
	{ OST_LEAD_CAP, 1.0, OST_GATE_NONE },
	{ OST_LEAD_CAP, 1.5, OST_GATE_NONE },
	{ OST_LEAD_FORGIVE, 1.0, OST_GATE_SOFT },
	{ OST_LEAD_FORGIVE, 1.0, OST_GATE_NONE },
};

static int _loops(void)
{
	const char *e = getenv("OST_PROPERTY_LOOPS");

	return e ? atoi(e) : 12;
}

START_TEST(test_acct_lead_flat)
{
	int seed, n = 0;

	_ranked = 0;
	for (seed = 1; seed <= _loops(); seed++)
		n += _run((uint64_t)(1000 * _i + seed), &_confs[_i]);
	/* every event compares each campaign known so far; 8926 ranks
	 * in the 12 loops of the sparsest setting */
	ck_assert_int_gt(n, 100 * _loops());
	ck_assert_int_gt(_ranked, 200 * _loops());
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("acct_lead");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT * 5);

	tcase_add_loop_test(tc, test_acct_lead_flat, 0,
			    (int)(sizeof(_confs) / sizeof(_confs[0])));
	suite_add_tcase(s, tc);
	return s;
}

OST_TEST_MAIN
