/*****************************************************************************\
 *  check_variant.c - the optional variants: learned, predicted and
 *  bounded virtual areas (§10), OStrich with memory (§11) or its credit
 *  on the rank (§15), areas from evidence (§12) and the rank by service
 *  received (§13) or capped (§14), against the default on the same events
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "util.h"

static void _learned(ost_config_t *c) { c->varea = OST_VAREA_LEARNED; }
static void _memory(ost_config_t *c) { c->memory = true; }

static void _memory_key(ost_config_t *c)
{
	c->memory = true;
	c->memory_key = true;
}
static void _pooled(ost_config_t *c) { c->varea = OST_VAREA_POOLED; }
static void _predicted(ost_config_t *c) { c->varea = OST_VAREA_PREDICTED; }
static void _bounded(ost_config_t *c) { c->varea = OST_VAREA_BOUNDED; }
static void _served(ost_config_t *c) { c->rank = OST_RANK_SERVED; }

static void _evidence(ost_config_t *c)
{
	c->evidence = true;
	c->evidence_floor = 10;
}

static void _capped(ost_config_t *c)
{
	c->rank = OST_RANK_CAPPED;
	c->rank_cap = 10;		/* Lambda = 10 s * 4 CPUs = 40 */
}

/* Advance s to t and return the area of (uid, seq). */
static double _area_at(ost_sched_t *s, double t, uint32_t uid, uint32_t seq)
{
	ck_assert_int_eq(ost_sched_advance(s, t), 0);
	return camp(s, uid, seq).area;
}

/* §12: a job of 2 CPUs asking 100 s is charged min(100, f = 10) s while
 * pending, then 20, 40, 80, 100 s at start + 10, 20, 40, 80 (each step
 * when its run time reaches its charge); it reports its request, and its
 * finish charges q p as without the variant.  Its campaign also holds a
 * job asking 50 s, charged 10 s too: the intra order still reads the
 * requests (lpt: the 100-s job first). */
START_TEST(test_variant_evidence_steps)
{
	ost_sched_t *s = mk_sched(4, _evidence);
	const double t[] = { 0, 9, 10, 19, 20, 39, 40, 79, 80, 170 };
	const double a[] = { 20, 20, 40, 40, 80, 80, 160, 160, 200, 200 };
	ost_job_info_t ji;

	sub(s, 2, 7, 2, 50, 0);
	sub(s, 1, 7, 2, 100, 0);
	ck_order(s, 1, 2);
	ck_assert_int_eq(ost_job_start(s, 1, 0), 0);
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++)
		ck_assert_double_eq_tol(_area_at(s, t[i], 7, 1), a[i] + 20,
					EPS);
	ck_assert_int_eq(ost_job_get(s, 1, &ji), 0);
	ck_assert_double_eq_tol(ji.estimate, 100, EPS);
	ck_assert_int_eq(ost_job_finish(s, 1, 180, 180), 0);
	ck_assert_double_eq_tol(camp(s, 7, 1).area, 360 + 20, EPS);
	ost_sched_destroy(s);
}
END_TEST

/* §12: a requeued job keeps its charge and takes no step while pending;
 * its steps count again from its next start.  The run that ended (15 s)
 * is paid at the requeue (§9.4).  A finish learnt between two steps
 * charges q p.  Events: (t, start/advance/requeue/finish, area of the
 * campaign after it). */
START_TEST(test_variant_evidence_requeue)
{
	static const struct { double t; char op; double area; } ev[] = {
		{ 0, 's', 10 }, { 10, 'a', 20 }, { 15, 'r', 20 + 15 },
		{ 100, 'a', 35 }, { 100, 's', 35 }, { 119, 'a', 35 },
		{ 120, 'a', 55 }, { 125, 'f', 15 + 25 },
	};
	ost_sched_t *s = mk_sched(4, _evidence);

	sub(s, 1, 7, 1, 100, 0);
	for (size_t i = 0; i < sizeof(ev) / sizeof(*ev); i++) {
		int rc = ev[i].op == 's' ? ost_job_start(s, 1, ev[i].t)
		       : ev[i].op == 'r' ? ost_job_requeue(s, 1, ev[i].t)
		       : ev[i].op == 'f' ? ost_job_finish(s, 1, ev[i].t,
							  ev[i].t - 100)
		       : ost_sched_advance(s, ev[i].t);

		ck_assert_int_eq(rc, 0);
		ck_assert_double_eq_tol(camp(s, 7, 1).area, ev[i].area, EPS);
	}
	ost_sched_destroy(s);
}
END_TEST

/* §12, state: a job reloaded from the state file counts and reports its
 * current charge and takes no further step; its finish charges q p. */
START_TEST(test_variant_evidence_state)
{
	ost_sched_t *s = mk_sched(4, _evidence), *r = NULL;
	ost_job_info_t ji;
	char *buf = NULL, err[256];
	size_t len = 0;

	sub(s, 1, 7, 2, 100, 0);
	ck_assert_int_eq(ost_job_start(s, 1, 0), 0);
	ck_assert_double_eq_tol(_area_at(s, 10, 7, 1), 40, EPS);
	ck_assert_int_eq(ost_sched_save(s, &buf, &len), 0);
	ck_assert_int_eq(ost_sched_load(buf, len, &r, err, sizeof(err)), 0);
	ck_assert_int_eq(ost_job_get(r, 1, &ji), 0);
	ck_assert_double_eq_tol(ji.estimate, 20, EPS);
	ck_assert_double_eq_tol(_area_at(r, 50, 7, 1), 40, EPS);
	ck_assert_int_eq(ost_job_finish(r, 1, 50, 50), 0);
	ck_assert_double_eq_tol(camp(r, 7, 1).area, 100, EPS);
	free(buf);
	ost_sched_destroy(r);
	ost_sched_destroy(s);
}
END_TEST

/* §13: user 1's two full-machine jobs (F = 800) arrive before user 2's
 * small one (S = v(1) = 4, F = 14).  By default the small campaign goes
 * first; ranked by service received, user 1 (P = 0) goes first until one
 * of its jobs starts (P = 400). */
START_TEST(test_variant_served_key)
{
	ost_sched_t *s[2] = { mk_sched(4, NULL), mk_sched(4, _served) };

	for (int i = 0; i < 2; i++) {
		sub(s[i], 1, 1, 4, 100, 0);
		sub(s[i], 2, 1, 4, 100, 0);
		sub(s[i], 3, 2, 1, 10, 1);
		if (i == 0)
			ck_order(s[i], 3, 1, 2);
		else
			ck_order(s[i], 1, 2, 3);
		ck_assert_int_eq(ost_job_start(s[i], 1, 1), 0);
		ck_order(s[i], 3, 2);
		/* a requeue gives the area back to the pending jobs */
		ck_assert_int_eq(ost_job_requeue(s[i], 1, 1), 0);
		if (i == 0)
			ck_order(s[i], 3, 1, 2);
		else
			ck_order(s[i], 1, 2, 3);
		ost_sched_destroy(s[i]);
	}
}
END_TEST

/* §14, Lambda = 40: user 1 (F = 400, K = 40), user 2 (S = 4, F = 14,
 * under the cap: K = F), user 3 (S = 4, F = 84, K = 44).  By default
 * 2, 3, 1; capped 2, 1, 3.  A reconfiguration to capped re-keys every
 * campaign. */
START_TEST(test_variant_capped_key)
{
	ost_sched_t *s[2] = { mk_sched(4, NULL), mk_sched(4, _capped) };
	ost_config_t c = *ost_sched_config(s[0]);

	for (int i = 0; i < 2; i++) {
		sub(s[i], 1, 1, 4, 100, 0);
		sub(s[i], 2, 2, 1, 10, 1);
		sub(s[i], 3, 3, 4, 20, 1);
	}
	ck_order(s[0], 2, 3, 1);
	ck_order(s[1], 2, 1, 3);
	ck_assert_double_eq_tol(camp(s[1], 3, 1).vfinish, 84, EPS);
	_capped(&c);
	ck_assert_int_eq(ost_sched_reconfigure(s[0], &c, 1), 0);
	ck_order(s[0], 2, 1, 3);
	for (int i = 0; i < 2; i++)
		ost_sched_destroy(s[i]);
}
END_TEST

/* A user without history counts its full request under learned, and the
 * accuracy of everyone's finished jobs (here 1/10) under pooled. */
START_TEST(test_variant_pooled_newcomer)
{
	ost_sched_t *s[2] = { mk_sched(4, _learned), mk_sched(4, _pooled) };
	const double want[2] = { 400.0, 40.0 };

	for (int i = 0; i < 2; i++) {
		sub(s[i], 1, 7, 1, 100, 0);
		ck_assert_int_eq(ost_job_start(s[i], 1, 0), 0);
		ck_assert_int_eq(ost_job_finish(s[i], 1, 10, 10), 0);
		sub(s[i], 2, 8, 4, 100, 20);		/* user 8: new */
		ck_assert_double_eq_tol(camp(s[i], 8, 1).area, want[i], EPS);
		ost_sched_destroy(s[i]);
	}
}
END_TEST

/* One job ran 10 s of its 100 s: the next job counts a tenth of its
 * request in V, reports its request, and its finish charges the actual
 * area as without the variant. */
START_TEST(test_variant_learned_area)
{
	ost_sched_t *s[2] = { mk_sched(4, NULL), mk_sched(4, _learned) };
	const double want[2] = { 200.0, 20.0 };
	ost_job_info_t ji;

	for (int i = 0; i < 2; i++) {
		sub(s[i], 1, 7, 1, 100, 0);
		ck_assert_int_eq(ost_job_start(s[i], 1, 0), 0);
		ck_assert_int_eq(ost_job_finish(s[i], 1, 10, 10), 0);
		ck_assert_uint_eq(sub(s[i], 2, 7, 2, 100, 20), 2);
		ck_assert_double_eq_tol(camp(s[i], 7, 2).area, want[i], EPS);
		ck_assert_int_eq(ost_job_get(s[i], 2, &ji), 0);
		ck_assert_double_eq_tol(ji.estimate, 100, EPS);
		/* an update to the same request changes nothing */
		ck_assert_int_eq(ost_job_update(s[i], 2, 2, 100, 21), 0);
		ck_assert_double_eq_tol(camp(s[i], 7, 2).area, want[i], EPS);
		ck_assert_int_eq(ost_job_start(s[i], 2, 30), 0);
		ck_assert_int_eq(ost_job_finish(s[i], 2, 80, 50), 0);
		ck_assert_double_eq_tol(camp(s[i], 7, 2).area, 100, EPS);
		ost_sched_destroy(s[i]);
	}
}
END_TEST

/* §10 predicted: a job counts its request until its owner has finished
 * two jobs, then the mean of the last two runtimes, clamped to [e/100,
 * e].  Runtimes 10 and 30: a request of 100 counts 20.  Runtimes 30 and
 * 0: a request of 10000 counts its floor 100, and a request of 10 counts
 * 10 (the prediction, 15, is above it).  A finish charges q p. */
START_TEST(test_variant_predicted_area)
{
	ost_sched_t *s = mk_sched(4, _predicted);
	ost_job_info_t ji;

	sub(s, 1, 7, 1, 100, 0);
	ck_assert_int_eq(ost_job_start(s, 1, 0), 0);
	ck_assert_int_eq(ost_job_finish(s, 1, 10, 10), 0);
	ck_assert_uint_eq(sub(s, 2, 7, 2, 100, 20), 2);
	ck_assert_double_eq_tol(camp(s, 7, 2).area, 200, EPS);
	ck_assert_int_eq(ost_job_start(s, 2, 20), 0);
	ck_assert_int_eq(ost_job_finish(s, 2, 50, 30), 0);
	ck_assert_uint_eq(sub(s, 3, 7, 1, 100, 60), 3);
	ck_assert_double_eq_tol(camp(s, 7, 3).area, 20, EPS);
	ck_assert_int_eq(ost_job_get(s, 3, &ji), 0);
	ck_assert_double_eq_tol(ji.estimate, 100, EPS);
	ck_assert_int_eq(ost_job_start(s, 3, 60), 0);
	ck_assert_int_eq(ost_job_finish(s, 3, 60, 0), 0);
	ck_assert_double_eq_tol(camp(s, 7, 3).area, 0, EPS);
	ck_assert_uint_eq(sub(s, 4, 7, 1, 10000, 70), 4);
	ck_assert_double_eq_tol(camp(s, 7, 4).area, 100, EPS);
	ck_assert_uint_eq(sub(s, 5, 7, 1, 10, 70), 4);
	ck_assert_double_eq_tol(camp(s, 7, 4).area, 110, EPS);
	/* an update reads the prediction in force, as learned reads r_u */
	ck_assert_int_eq(ost_job_update(s, 4, 1, 1000, 71), 0);
	ck_assert_double_eq_tol(camp(s, 7, 4).area, 25, EPS);
	ost_sched_destroy(s);
}
END_TEST

/* One job of user 7, alone: submitted at t asking e s on 1 CPU, it opens
 * a campaign (the last one has finished); its counted area is checked,
 * then it runs p s.  Returns the next free time. */
static double _one_job(ost_sched_t *s, uint64_t id, double t, double e,
		       double p, double area)
{
	uint32_t seq = sub(s, id, 7, 1, e, t);

	ck_assert_double_eq_tol(camp(s, 7, seq).area, area, EPS);
	ck_assert_int_eq(ost_job_start(s, id, t), 0);
	ck_assert_int_eq(ost_job_finish(s, id, t + p, p), 0);
	ck_assert_double_eq_tol(camp(s, 7, seq).area, p, EPS);
	return t + p + 10;
}

/* §10 bounded: a job counts its request until its owner has finished 19
 * jobs, then the request times the largest ratio p / e of the last 19,
 * clamped to [e/100, e].  Ratios 0.3 then 18 times 0.1: a request of
 * 1000 counts 300; a ratio 0 pushes the 0.3 out, and 1000 counts 100.  A
 * job run past its request has ratio 1: 50 counts 50, and so do the
 * next 18 jobs' requests.  After 19 ratios 0 a request of 10000 counts
 * its floor 100.  An update reads the bound in force.  A finish charges
 * q p. */
START_TEST(test_variant_bounded_area)
{
	ost_sched_t *s = mk_sched(4, _bounded);
	uint64_t id = 1;
	double t = 0;
	ost_job_info_t ji;

	t = _one_job(s, id++, t, 100, 30, 100);
	for (int i = 0; i < 18; i++)
		t = _one_job(s, id++, t, 100, 10, 100);
	t = _one_job(s, id++, t, 1000, 0, 300);
	t = _one_job(s, id++, t, 1000, 2000, 100);
	t = _one_job(s, id++, t, 50, 0, 50);
	for (int i = 0; i < 18; i++)
		t = _one_job(s, id++, t, 100, 0, 100);
	ck_assert_uint_eq(sub(s, id, 7, 1, 10000, t), 41);
	ck_assert_double_eq_tol(camp(s, 7, 41).area, 100, EPS);
	ck_assert_int_eq(ost_job_get(s, id, &ji), 0);
	ck_assert_double_eq_tol(ji.estimate, 10000, EPS);
	ck_assert_int_eq(ost_job_update(s, id, 1, 500, t + 1), 0);
	ck_assert_double_eq_tol(camp(s, 7, 41).area, 5, EPS);
	ost_sched_destroy(s);
}
END_TEST

/* The ratios are kept under every VirtualArea: 19 jobs run a tenth of
 * their requests under requested, each counting its request, and after a
 * reconfigure to bounded a request of 1000 counts 100. */
START_TEST(test_variant_bounded_reconfigure)
{
	ost_sched_t *s = mk_sched(4, NULL);
	ost_config_t c = *ost_sched_config(s);
	uint64_t id = 1;
	double t = 0;

	for (int i = 0; i < 19; i++)
		t = _one_job(s, id++, t, 100, 10, 100);
	_bounded(&c);
	ck_assert_int_eq(ost_sched_reconfigure(s, &c, t), 0);
	_one_job(s, id, t, 1000, 0, 100);
	ost_sched_destroy(s);
}
END_TEST

/* A user new to the machine opens its campaign with the full credit
 * (B = 3600 s * 4 CPUs) and ranks ahead of a heavy user's smaller
 * campaign; without memory the smaller campaign goes first.  With memory
 * user 1's first campaign is credited too (no usage yet): it is
 * virtually complete at once, no user is active and v stays at 0. */
START_TEST(test_variant_memory_credit)
{
	ost_sched_t *s[2] = { mk_sched(4, NULL), mk_sched(4, _memory) };

	for (int i = 0; i < 2; i++) {
		sub(s[i], 1, 1, 4, 1000, 0);
		ck_assert_int_eq(ost_job_start(s[i], 1, 0), 0);
		ck_assert_int_eq(ost_job_finish(s[i], 1, 1000, 1000), 0);
		sub(s[i], 2, 2, 4, 100, 2000);	/* new user, area 400 */
		sub(s[i], 3, 1, 1, 10, 2000);	/* heavy user, area 10 */
		if (i == 0) {
			ck_assert_double_eq_tol(camp(s[i], 2, 1).vfinish, 4400,
						EPS);
			ck_order(s[i], 3, 2);
		} else {
			/* v = 0; f_2 = 1: F = -14400 + 400; U_1 = 4000 is
			 * twice the mean, f_1 = 1/4: S = -3600 (above
			 * F_prev = -14400 + 4000), F = S + 10 */
			ck_assert_double_eq_tol(camp(s[i], 2, 1).vfinish,
						-14400 + 400, EPS);
			ck_assert_double_eq_tol(camp(s[i], 1, 2).vfinish,
						-3600 + 10, EPS);
			ck_order(s[i], 2, 3);
		}
		ost_sched_destroy(s[i]);
	}
}
END_TEST

/* §15: the same events as above with the credit on the key only: the
 * tags are the default's (F = 4000 + 400 for the new user, v = 4000),
 * the order is memory's (keys F - 14400 and F - 3600). */
START_TEST(test_variant_memory_key)
{
	ost_sched_t *s = mk_sched(4, _memory_key);

	sub(s, 1, 1, 4, 1000, 0);
	ck_assert_int_eq(ost_job_start(s, 1, 0), 0);
	ck_assert_int_eq(ost_job_finish(s, 1, 1000, 1000), 0);
	sub(s, 2, 2, 4, 100, 2000);
	sub(s, 3, 1, 1, 10, 2000);
	ck_assert_double_eq_tol(camp(s, 2, 1).vfinish, 4400, EPS);
	ck_assert_double_eq_tol(camp(s, 1, 2).vfinish, 4010, EPS);
	ck_order(s, 2, 3);
	ost_sched_destroy(s);
}
END_TEST

/* A clock stepped back (ost_sched_rebase) moves the times of the usage
 * decay with it: the same events, the second run's times shifted by two
 * half-lives after the first finish, credit the same amounts.  Users 1
 * and 2 used the machine one half-life apart, so the credits depend on
 * the ages of their usage, not only on their ratio. */
START_TEST(test_variant_memory_rebase)
{
	const double H = 604800.0, d[2] = { 0.0, -2.0 * H };
	ost_sched_t *s[2] = { mk_sched(4, _memory), mk_sched(4, _memory) };
	double f[2][2];

	for (int i = 0; i < 2; i++) {
		sub(s[i], 1, 1, 4, 1000, 0);
		ck_assert_int_eq(ost_job_start(s[i], 1, 0), 0);
		ck_assert_int_eq(ost_job_finish(s[i], 1, 1000, 1000), 0);
		ck_assert_int_eq(ost_sched_rebase(s[i], d[i]), 0);
		sub(s[i], 2, 2, 4, 1000, H + d[i]);
		ck_assert_int_eq(ost_job_start(s[i], 2, H + d[i]), 0);
		ck_assert_int_eq(ost_job_finish(s[i], 2, 1000 + H + d[i],
						1000), 0);
		sub(s[i], 3, 1, 1, 10, 1000 + 2 * H + d[i]);
		f[i][0] = camp(s[i], 2, 1).vfinish;
		f[i][1] = camp(s[i], 1, 2).vfinish;
		ost_sched_destroy(s[i]);
	}
	ck_assert_double_eq_tol(f[1][0], f[0][0], EPS);
	ck_assert_double_eq_tol(f[1][1], f[0][1], EPS);
}
END_TEST

/* The names of every front end, and the checks. */
START_TEST(test_variant_config)
{
	ost_config_t c;
	ost_varea_t a;

	ost_config_init(&c);
	ck_assert_int_eq(c.varea, OST_VAREA_REQUESTED);
	ck_assert(!c.memory);
	ck_assert_int_eq(ost_varea_parse("Learned", &a), 0);
	ck_assert_int_eq(a, OST_VAREA_LEARNED);
	ck_assert_int_eq(ost_varea_parse("exact", &a), -OST_EINVAL);
	ck_assert_str_eq(ost_varea_name(OST_VAREA_REQUESTED), "requested");
	ck_assert_int_eq(ost_varea_parse("PREDICTED", &a), 0);
	ck_assert_int_eq(a, OST_VAREA_PREDICTED);
	ck_assert_str_eq(ost_varea_name(OST_VAREA_PREDICTED), "predicted");
	ck_assert_int_eq(ost_varea_parse("bounded", &a), 0);
	ck_assert_int_eq(a, OST_VAREA_BOUNDED);
	ck_assert_str_eq(ost_varea_name(OST_VAREA_BOUNDED), "bounded");
	c.memory_credit = -1;
	ck_assert_int_eq(ost_config_check(&c, NULL), -OST_EINVAL);
	c.memory_credit = 0;
	c.varea = (ost_varea_t)7;
	ck_assert_int_eq(ost_config_check(&c, NULL), -OST_EINVAL);
	ost_config_init(&c);
	ck_assert(!c.evidence);
	ck_assert_int_eq(c.rank, OST_RANK_FINISH);
	ck_assert_int_eq(ost_config_check(&c, NULL), 0);
	c.evidence_floor = 0.5;
	ck_assert_int_eq(ost_config_check(&c, NULL), -OST_EINVAL);
	c.evidence_floor = 1;
	c.rank_cap = -1;
	ck_assert_int_eq(ost_config_check(&c, NULL), -OST_EINVAL);
	c.rank_cap = 0;
	c.rank = (ost_rank_t)3;
	ck_assert_int_eq(ost_config_check(&c, NULL), -OST_EINVAL);
	ck_assert_int_eq(ost_rank_parse("Capped", &c.rank), 0);
	ck_assert_int_eq(c.rank, OST_RANK_CAPPED);
	ck_assert_int_eq(ost_rank_parse("start", &c.rank), -OST_EINVAL);
	ck_assert_str_eq(ost_rank_name(OST_RANK_SERVED), "served");
}
END_TEST

/* The switches' one parser: "on"/"off" in any case, nothing else, and
 * *out kept on a refusal. */
START_TEST(test_onoff_parse)
{
	const char *bad[] = { "", "o", "of", "onn", "offf", " on", "on ",
			      "yes", "no", "1", "0", "true", "key" };
	bool b = false;

	ck_assert_int_eq(ost_onoff_parse("on", &b), 0);
	ck_assert(b);
	ck_assert_int_eq(ost_onoff_parse("OFF", &b), 0);
	ck_assert(!b);
	ck_assert_int_eq(ost_onoff_parse("oN", &b), 0);
	ck_assert(b);
	ck_assert_int_eq(ost_onoff_parse("Off", &b), 0);
	ck_assert(!b);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		b = true;
		ck_assert_int_eq(ost_onoff_parse(bad[i], &b), -OST_EINVAL);
		ck_assert(b);
	}
	ck_assert_int_eq(ost_onoff_parse(NULL, &b), -OST_EINVAL);
	ck_assert(b);
}
END_TEST

/*
 * §24, worked by hand.  m = 4, capacity full, weights 1.  At t = 0 user
 * 1 submits job 1 (4 CPUs, 10 s; campaign 1: S = 0, F = 40) and user 2
 * job 2 (4 CPUs, 30 s; S = 0, F = 120); W = 2, dv/dt = 2.  Job 1 runs
 * at once and ends at t = 10 (p = e): v = 20, user 1 was served 40 in
 * R but 20 in V.  At t = 10 user 1 opens campaign 2 with job 3 (1 CPU,
 * 4 s; L = 4):
 *
 *   keep     S = max(20, 40) = 40, F = 44: not eligible, so under
 *            gate=soft job 2 (eligible, F 120) ranks first; gate=none
 *            ranks by F alone: job 3 (44) first
 *   forgive  campaign 1 has no job left at v = 20: F_1 = max(0,
 *            min(40, 20)) = 20, user 1 leaves W; S = max(20, 20) = 20,
 *            F = 24, eligible: job 3 first even with gate=soft
 *   cap      S = max(20, min(40, 20 + kappa * 4)): kappa 1: S = 24,
 *            F = 28; kappa 0.5: S = 22, F = 26; not eligible, so job 2
 *            first with gate=soft, job 3 first with gate=none
 */
static void _lead_world(ost_sched_t *s)
{
	sub_in(s, 1, 1, 4, 10, 0, 1);
	sub_in(s, 2, 2, 4, 30, 0, 1);
	ck_assert_int_eq(ost_job_start(s, 1, 0), 0);
	ck_assert_int_eq(ost_job_finish(s, 1, 10, 10), 0);
	sub_in(s, 3, 1, 1, 4, 10, 2);
}

static void _ck_tags(const ost_sched_t *s, uint32_t uid, uint32_t seq,
		     double S, double F)
{
	ost_campaign_info_t c = camp(s, uid, seq);

	ck_assert_double_eq_tol(c.vstart, S, EPS);
	ck_assert_double_eq_tol(c.vfinish, F, EPS);
}

static void _gate_none(ost_config_t *c) { c->gate = OST_GATE_NONE; }
static void _forgive(ost_config_t *c) { c->lead = OST_LEAD_FORGIVE; }
static void _cap(ost_config_t *c) { c->lead = OST_LEAD_CAP; }

static void _cap_half_none(ost_config_t *c)
{
	c->lead = OST_LEAD_CAP;
	c->lead_cap = 0.5;
	c->gate = OST_GATE_NONE;
}

START_TEST(test_variant_lead_worked)
{
	static const struct {
		void (*tweak)(ost_config_t *);
		double S, F, F1;	/* campaign 2's tags, campaign 1's F */
		uint64_t first;		/* job ranked first */
	} cases[] = {
		{ NULL, 40, 44, 40, 2 },
		{ _gate_none, 40, 44, 40, 3 },
		{ _forgive, 20, 24, 20, 3 },
		{ _cap, 24, 28, 40, 2 },
		{ _cap_half_none, 22, 26, 40, 3 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		ost_sched_t *s = mk_sched(4, cases[i].tweak);
		ost_stats_t st;

		_lead_world(s);
		ost_sched_stats(s, &st);
		ck_assert_double_eq_tol(st.vtime, 20, EPS);
		_ck_tags(s, 1, 2, cases[i].S, cases[i].F);
		_ck_tags(s, 1, 1, 0, cases[i].F1);
		_ck_tags(s, 2, 1, 0, 120);
		if (cases[i].first == 2)
			ck_order(s, 2, 3);
		else
			ck_order(s, 3, 2);
		ost_sched_destroy(s);
	}
}
END_TEST

/* §24 forgive and §3.4's join: user 1's campaign 1 (F 40) loses its
 * last job at v = 20, so F = 20 (keep: 40); user 2, whose campaign
 * still has its job, is unaffected.  A job joining campaign 1 then finds
 * it over in V (v = 20 = F_1) and restarts it at v with its own area
 * only: S = 20, F = 24; without the rule the campaign grows, F = 44. */
START_TEST(test_variant_lead_forgive_join)
{
	ost_sched_t *s = mk_sched(4, _forgive), *k = mk_sched(4, NULL);
	ost_stats_t st;

	sub_in(s, 1, 1, 4, 10, 0, 1);
	sub_in(s, 2, 2, 4, 30, 0, 1);
	sub_in(k, 1, 1, 4, 10, 0, 1);
	sub_in(k, 2, 2, 4, 30, 0, 1);
	ck_assert_int_eq(ost_job_start(s, 1, 0), 0);
	ck_assert_int_eq(ost_job_start(k, 1, 0), 0);
	ck_assert_int_eq(ost_job_finish(s, 1, 10, 10), 0);
	ck_assert_int_eq(ost_job_finish(k, 1, 10, 10), 0);
	_ck_tags(s, 1, 1, 0, 20);
	_ck_tags(k, 1, 1, 0, 40);
	sub_in(s, 3, 1, 1, 4, 10, 1);
	sub_in(k, 3, 1, 1, 4, 10, 1);
	_ck_tags(s, 1, 1, 20, 24);
	_ck_tags(k, 1, 1, 0, 44);
	/* user 1 left W at 10 under forgive and rejoined at once with the
	 * restart: from 10 to 11, W = 2 under both, v = 22 */
	ck_assert_int_eq(ost_sched_advance(s, 11), 0);
	ck_assert_int_eq(ost_sched_advance(k, 11), 0);
	ost_sched_stats(s, &st);
	ck_assert_double_eq_tol(st.vtime, 22, EPS);
	ost_sched_stats(k, &st);
	ck_assert_double_eq_tol(st.vtime, 22, EPS);
	_ck_tags(s, 1, 1, 20, 24);
	_ck_tags(s, 2, 1, 0, 120);
	ost_sched_destroy(s);
	ost_sched_destroy(k);
}
END_TEST

/* §24 cap, behind: m = 4, two users, v runs at 2 per second.  User 1's
 * campaign 1 (4 CPUs x 10 s, F = 40) is still running at t = 5 (v = 10)
 * when user 1 opens campaign 2 (1 x 4 s, L = 4).  It opened behind an
 * unfinished campaign of its user, so the cap forgives nothing: S =
 * max(10, 40) = 40, F = 44, as keep.  Had campaign 1 been over in R (a
 * 4 s run: F_1 = 16), the cap would give S = max(10, min(16, 10 + 4)) =
 * 14, F = 18.  The flag is a stored input: a saved and reloaded
 * schedule (version 5) derives the same tags. */
START_TEST(test_variant_lead_cap_behind)
{
	ost_sched_t *s = mk_sched(4, _cap), *o = mk_sched(4, _cap), *r = NULL;
	char *buf = NULL, err[256];
	size_t len = 0;

	sub_in(s, 1, 1, 4, 10, 0, 1);
	sub_in(s, 2, 2, 4, 30, 0, 1);
	ck_assert_int_eq(ost_job_start(s, 1, 0), 0);
	sub_in(s, 3, 1, 1, 4, 5, 2);
	_ck_tags(s, 1, 2, 40, 44);
	/* the same, with campaign 1 over in R before campaign 2 opens */
	sub_in(o, 1, 1, 4, 10, 0, 1);
	sub_in(o, 2, 2, 4, 30, 0, 1);
	ck_assert_int_eq(ost_job_start(o, 1, 0), 0);
	ck_assert_int_eq(ost_job_finish(o, 1, 4, 4), 0);
	sub_in(o, 3, 1, 1, 4, 5, 2);
	_ck_tags(o, 1, 2, 14, 18);
	ck_assert_int_eq(ost_sched_save(s, &buf, &len), 0);
	ck_assert_msg(!strncmp(buf, "ostrich-state 5\n", 16), "%.20s", buf);
	ck_assert_ptr_nonnull(strstr(buf, " behind=1\n"));
	ck_assert_int_eq(ost_sched_load(buf, len, &r, err, sizeof(err)), 0);
	_ck_tags(r, 1, 2, 40, 44);
	/* campaign 1 ends in R: campaign 2 keeps what it opened with */
	ck_assert_int_eq(ost_job_finish(r, 1, 10, 10), 0);
	_ck_tags(r, 1, 2, 40, 44);
	free(buf);
	ost_sched_destroy(r);
	ost_sched_destroy(o);
	ost_sched_destroy(s);
}
END_TEST

/* §24's configuration: names, kappa's range, users only. */
START_TEST(test_variant_lead_config)
{
	ost_config_t c;
	const char *why = NULL;
	ost_lead_t l;
	ost_gate_t g;

	ost_config_init(&c);
	ck_assert_int_eq(c.lead, OST_LEAD_KEEP);
	ck_assert_double_eq(c.lead_cap, 1.0);
	ck_assert_int_eq(ost_lead_parse("Forgive", &l), 0);
	ck_assert_int_eq(l, OST_LEAD_FORGIVE);
	ck_assert_int_eq(ost_lead_parse("cap", &l), 0);
	ck_assert_int_eq(l, OST_LEAD_CAP);
	ck_assert_int_eq(ost_lead_parse("forever", &l), -OST_EINVAL);
	ck_assert_str_eq(ost_lead_name(OST_LEAD_KEEP), "keep");
	ck_assert_int_eq(ost_gate_parse("none", &g), 0);
	ck_assert_int_eq(g, OST_GATE_NONE);
	ck_assert_str_eq(ost_gate_name(OST_GATE_NONE), "none");
	c.procs = 4;
	c.lead = OST_LEAD_CAP;
	c.lead_cap = 0;
	ck_assert_int_eq(ost_config_check(&c, NULL), 0);
	c.lead_cap = -1;
	ck_assert_int_eq(ost_config_check(&c, NULL), -OST_EINVAL);
	c.lead_cap = NAN;
	ck_assert_int_eq(ost_config_check(&c, NULL), -OST_EINVAL);
	c.lead_cap = 2e6;
	ck_assert_int_eq(ost_config_check(&c, NULL), -OST_EINVAL);
	c.lead_cap = 1;
	c.hierarchy = OST_HIER_ACCOUNTS;	/* §24 under §21 */
	ck_assert_int_eq(ost_config_check(&c, NULL), 0);
	c.lead = OST_LEAD_FORGIVE;
	ck_assert_int_eq(ost_config_check(&c, NULL), 0);
	c.lead = OST_LEAD_CAP;		/* refused with either hierarchy */
	c.gate = OST_GATE_STRICT;
	ck_assert_int_eq(ost_config_check(&c, &why), -OST_EINVAL);
	ck_assert_str_eq(why, "lead cap needs gate soft or none");
	c.gate = OST_GATE_SOFT;
	c.lead = OST_LEAD_KEEP;
	ck_assert_int_eq(ost_config_check(&c, NULL), 0);
	c.lead = (ost_lead_t)3;
	c.hierarchy = OST_HIER_USERS;
	ck_assert_int_eq(ost_config_check(&c, NULL), -OST_EINVAL);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("variant");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);

	tcase_add_test(tc, test_variant_learned_area);
	tcase_add_test(tc, test_variant_predicted_area);
	tcase_add_test(tc, test_variant_bounded_area);
	tcase_add_test(tc, test_variant_bounded_reconfigure);
	tcase_add_test(tc, test_variant_memory_credit);
	tcase_add_test(tc, test_variant_memory_key);
	tcase_add_test(tc, test_variant_pooled_newcomer);
	tcase_add_test(tc, test_variant_memory_rebase);
	tcase_add_test(tc, test_variant_evidence_steps);
	tcase_add_test(tc, test_variant_evidence_requeue);
	tcase_add_test(tc, test_variant_evidence_state);
	tcase_add_test(tc, test_variant_served_key);
	tcase_add_test(tc, test_variant_capped_key);
	tcase_add_test(tc, test_variant_config);
	tcase_add_test(tc, test_onoff_parse);
	tcase_add_test(tc, test_variant_lead_worked);
	tcase_add_test(tc, test_variant_lead_forgive_join);
	tcase_add_test(tc, test_variant_lead_cap_behind);
	tcase_add_test(tc, test_variant_lead_config);
	suite_add_tcase(s, tc);
	return s;
}

OST_TEST_MAIN
