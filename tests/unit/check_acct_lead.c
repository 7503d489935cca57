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
 *  order with the same eligibility (_comparable says where rounding or
 *  §21's mapping of past keys lets them differ).  The flat engine's
 *  leads are checked against a reference in check_property.c; this
 *  carries that check to the nested clocks: v_rel, the cut and behind
 *  read in the account's time.  Jobs start in the flat engine's order;
 *  some are cancelled or requeued; in half the loops users submit into
 *  explicit campaigns of a few jobs, so a campaign opens while its user's
 *  previous one is unfinished (behind), and a requeue can restart an
 *  older one; and the nested engine is saved and loaded back now and
 *  then.  What one account alone cannot show, the account's F_n moving
 *  for its siblings, a worked example with two accounts checks.
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
	double v;		/* the flat engine's */
	int n;
} cmp_t;

static int _cmp_campaign(const ost_campaign_info_t *c, void *arg)
{
	cmp_t *p = arg;
	ost_campaign_info_t f = camp(p->w->nest, c->uid, c->seq);
	/* a job that joins as v reaches F_c grows c in one engine and
	 * restarts it at v in the other: the same F, another S */
	bool tie = _near(c->vstart, p->v) || _near(f.vstart, p->v);

	OST_CHECK((_near(c->vstart, f.vstart) || tie) &&
		  _near(c->vfinish, f.vfinish) && _near(c->vct, f.vct),
		  "campaign %u/%u: S %a/%a F %a/%a C~ %a/%a (event %llu)",
		  c->uid, c->seq, c->vstart, f.vstart, c->vfinish,
		  f.vfinish, c->vct, f.vct,
		  (unsigned long long)p->w->events);
	p->n++;
	return 0;
}

/* A pending job's campaign in the flat engine. */
static ost_campaign_info_t _camp_of(const lworld_t *w, uint64_t id)
{
	ost_job_info_t j;

	OST_CHECK(ost_job_get(w->flat, id, &j) == 0, "job %llu",
		  (unsigned long long)id);
	return camp(w->flat, j.uid, j.campaign);
}

/*
 * Whether pending job id's rank is compared: not when its campaign is
 * complete in V, or about to be, to rounding: the flat engine ranks such
 * keys by F, §21 carries them back at their child's own rate w / w_n
 * (and a key past its account's end ranks there by t_c), so the order of
 * overdue campaigns may differ.  Its eligibility is compared too unless
 * its S is v to rounding (the nested clock may land on a breakpoint
 * where the flat v stops a hair short); with gate=soft that decides its
 * rank too, so then neither is compared.  0: neither, 1: the rank,
 * 2: both.
 */
static int _comparable(const lworld_t *w, uint64_t id, double v)
{
	ost_campaign_info_t c = _camp_of(w, id);

	if (c.vstate == OST_VSTATE_COMPLETE || _near(c.vfinish, v))
		return 0;
	if (!_near(c.vstart, v))
		return 2;
	return ost_sched_config(w->flat)->gate == OST_GATE_NONE;
}

/* The comparable pending jobs of o, in its order, into ids; known[i]:
 * whether elig[i] is compared. */
static size_t _filter(const lworld_t *w, const order_t *o, double v,
		      uint64_t *ids, bool *elig, bool *known)
{
	size_t i, n = 0;

	for (i = 0; i < o->n && i < 256; i++) {
		int k = _comparable(w, o->ids[i], v);

		if (k) {
			ids[n] = o->ids[i];
			known[n] = k == 2;
			elig[n++] = o->elig[i];
		}
	}
	return n;
}

/* The same rank in both orders: the same job, or jobs of campaigns whose
 * F are equal to rounding (a tie the flat engine breaks by t_c may fall
 * either way where the nested F differ by an ulp). */
static bool _same_rank(const lworld_t *w, uint64_t a, uint64_t b)
{
	return a == b ||
	       _near(_camp_of(w, a).vfinish, _camp_of(w, b).vfinish);
}

static void _compare(lworld_t *w)
{
	order_t a = order_of(w->flat), b = order_of(w->nest);
	uint64_t ia[256], ib[256];
	bool ea[256], eb[256], ka[256], kb[256];
	cmp_t p = { .w = w };
	ost_stats_t st;
	size_t i, na, nb;

	OST_CHECK(a.n == b.n, "%zu pending flat, %zu nested (event %llu)",
		  a.n, b.n, (unsigned long long)w->events);
	ost_sched_stats(w->flat, &st);
	p.v = st.vtime;
	na = _filter(w, &a, st.vtime, ia, ea, ka);
	nb = _filter(w, &b, st.vtime, ib, eb, kb);
	OST_CHECK(na == nb, "%zu comparable flat, %zu nested (event %llu)",
		  na, nb, (unsigned long long)w->events);
	for (i = 0; i < na; i++)
		OST_CHECK(_same_rank(w, ia[i], ib[i]) &&
			  (!ka[i] || !kb[i] || ea[i] == eb[i]),
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

		/* times off any grid, so that an arrival never coincides with
		 * a breakpoint of V, where the two clocks may round apart and
		 * one campaign grows while the other restarts */
		t += (_rand(4) ? 0.5 * _rand(12) : 20.0 + _rand(200)) +
		     _rand(1000) / 997.0;
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

static void _tweak_sibling(ost_config_t *c)
{
	c->hierarchy = OST_HIER_ACCOUNTS;
	c->lead = _conf.lead;
	c->lead_cap = 0.0;
}

/*
 * The account's side of a forgiven lead (§24 under §21), worked out by
 * hand on 1 CPU: accounts 1 and 2 of share 1 under the root, user 1 in
 * the first, user 2 in the second.  At t = 0 user 1 submits 10 CPU-s and
 * user 2 100; each account receives 0.5 CPU.  R runs user 1's job at
 * once, so at t = 10 it is over in R and half done in V (v_1 = 5).  At
 * t = 11 (v_1 = 5.5) user 1 submits 2 CPU-s more, a new campaign:
 *
 *   keep:  S = max(5.5, 10) = 10, F = 12; account 1 has 6.5 CPU-s left
 *          in V, done at 0.5 CPU by t = 24; then user 2 alone has
 *          100 - 12 = 88 left: C~ = 112.
 *   cap, kappa = 0:  S = 5.5, F = 7.5; 2 CPU-s left, done by t = 15;
 *          user 2 then has 100 - 7.5 = 92.5 left: C~ = 107.5.
 *
 * The 4.5 of virtual time forgiven to user 1 leaves account 1's F_n, so
 * user 2, in the other account, completes in V 4.5 s earlier.
 */
START_TEST(test_acct_lead_sibling)
{
	static const struct {
		ost_lead_t lead;
		double c1, c2;		/* C~ of 1/2 and of 2/1 */
	} want[] = {
		{ OST_LEAD_KEEP, 24.0, 112.0 },
		{ OST_LEAD_CAP, 15.0, 107.5 },
	};
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ost_sched_t *s;

		_conf.lead = want[i].lead;
		s = mk_sched(1, _tweak_sibling);
		ck_assert_int_eq(ost_acct_declare(s, 1, 0, 1.0, 0.0), 0);
		ck_assert_int_eq(ost_acct_declare(s, 2, 0, 1.0, 0.0), 0);
		ck_assert_int_eq(ost_user_set_account(s, 1, 1, 0.0), 0);
		ck_assert_int_eq(ost_user_set_account(s, 2, 2, 0.0), 0);
		ck_assert_uint_eq(sub(s, 1, 1, 1, 10, 0.0), 1);
		ck_assert_uint_eq(sub(s, 2, 2, 1, 100, 0.0), 1);
		ck_assert_int_eq(ost_job_start(s, 1, 0.0), 0);
		ck_assert_int_eq(ost_job_finish(s, 1, 10.0, 10.0), 0);
		ck_assert_int_eq(ost_job_start(s, 2, 10.0), 0);
		ck_assert_uint_eq(sub(s, 3, 1, 1, 2, 11.0), 2);
		ck_assert_double_eq_tol(camp(s, 1, 2).vct, want[i].c1, EPS);
		ck_assert_double_eq_tol(camp(s, 2, 1).vct, want[i].c2, EPS);
		ost_sched_destroy(s);
	}
}
END_TEST

static void _tweak_restart(ost_config_t *c)
{
	c->hierarchy = OST_HIER_ACCOUNTS;
	c->lead = OST_LEAD_CAP;
	c->lead_cap = 1.0;
}

/*
 * A campaign that restarts under the cap while its user is out of W, its
 * account then without an active child, is not eligible before its
 * account's clock reaches its S.  As above, user 1 is 5 ahead of V at
 * t = 10; at t = 11 (v_1 = 5.5) it opens campaign 2 with 2 CPU-s and
 * cancels it at once, so campaign 2 is empty, complete in V, and user 1
 * and its account leave W.  At t = 12 4 CPU-s join campaign 2, which
 * restarts at 5.5 with S = max(5.5, min(10, 5.5 + 4)) = 9.5 > 5.5: queued
 * in V, as the flat schedule has it.
 */
START_TEST(test_acct_lead_restart_out_of_w)
{
	ost_sched_t *s = mk_sched(1, _tweak_restart);
	ost_campaign_info_t c;

	ck_assert_int_eq(ost_acct_declare(s, 1, 0, 1.0, 0.0), 0);
	ck_assert_int_eq(ost_acct_declare(s, 2, 0, 1.0, 0.0), 0);
	ck_assert_int_eq(ost_user_set_account(s, 1, 1, 0.0), 0);
	ck_assert_int_eq(ost_user_set_account(s, 2, 2, 0.0), 0);
	sub_in(s, 1, 1, 1, 10, 0.0, 1);
	sub_in(s, 2, 2, 1, 100, 0.0, 1);
	ck_assert_int_eq(ost_job_start(s, 1, 0.0), 0);
	ck_assert_int_eq(ost_job_finish(s, 1, 10.0, 10.0), 0);
	ck_assert_int_eq(ost_job_start(s, 2, 10.0), 0);
	sub_in(s, 3, 1, 1, 2, 11.0, 2);
	ck_assert_int_eq(ost_job_cancel(s, 3, 11.0), 0);
	sub_in(s, 4, 1, 1, 4, 12.0, 2);
	c = camp(s, 1, 2);
	ck_assert_double_eq_tol(c.vstart, 9.5, EPS);
	ck_assert_double_eq_tol(c.vfinish, 13.5, EPS);
	ck_assert(c.vstate == OST_VSTATE_QUEUED);
	ck_assert(!c.eligible);
	ost_sched_destroy(s);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("acct_lead");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT * 5);

	tcase_add_loop_test(tc, test_acct_lead_flat, 0,
			    (int)(sizeof(_confs) / sizeof(_confs[0])));
	tcase_add_test(tc, test_acct_lead_sibling);
	tcase_add_test(tc, test_acct_lead_restart_out_of_w);
	suite_add_tcase(s, tc);
	return s;
}

OST_TEST_MAIN
