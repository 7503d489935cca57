/*****************************************************************************\
 *  check_chain.c - users order their own campaigns (§22)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The examples of §22, and the property: on random workloads (flat, and
 *  2 and 3 levels of accounts), two schedules get the same events; then
 *  one user's pending jobs get random nice values in one of them only.
 *  Every other user's tags, C~, eligibility and relative order, the
 *  user's last F and (with accounts) every account's v_n, W_n, F_n and
 *  every other campaign's projected key are the same bit for bit, now
 *  and after the clock moves on.
\*****************************************************************************/

#include <stdio.h>
#include <string.h>

#include "util.h"

static void _tweak_faircamp(ost_config_t *c)
{
	c->mode = OST_MODE_FAIRCAMP;
}

static void _nice(ost_sched_t *s, uint64_t id, int32_t nice, double t)
{
	OST_CHECK(ost_job_set_nice(s, id, nice, t) == 0, "nice %llu",
		  (unsigned long long)id);
}

/* The later of two campaigns takes the earlier's start; the earlier
 * moves back by its length; the other user does not move. */
START_TEST(test_chain_two_campaigns)
{
	ost_sched_t *s = mk_sched(1, NULL);
	ost_campaign_info_t a, b, o;

	sub_in(s, 1, 1, 1, 100, 0, 1);		/* A: L 100 */
	sub_in(s, 2, 1, 1, 10, 0, 2);		/* B: L 10 */
	sub(s, 3, 2, 1, 50, 0);			/* the other user */
	ck_assert_double_eq(camp(s, 1, 2).vstart, 100);
	ck_order(s, 3, 1, 2);
	o = camp(s, 2, 1);
	_nice(s, 2, -1, 0);
	a = camp(s, 1, 1);
	b = camp(s, 1, 2);
	ck_assert_double_eq(b.vstart, 0);	/* A's start */
	ck_assert_double_eq(b.vfinish, 10);
	ck_assert_double_eq(a.vstart, 10);	/* back by L_B */
	ck_assert_double_eq(a.vfinish, 110);	/* the user's last F */
	ck_assert_double_eq(camp(s, 2, 1).vfinish, o.vfinish);
	ck_assert_double_eq(camp(s, 2, 1).vct, o.vct);
	ck_order(s, 2, 3, 1);
	/* back to nice 0: arrival order again */
	_nice(s, 2, 0, 0);
	ck_assert_double_eq(camp(s, 1, 1).vfinish, 100);
	ck_assert_double_eq(camp(s, 1, 2).vstart, 100);
	ck_order(s, 3, 1, 2);
	/* the contract */
	ck_assert_int_eq(ost_job_set_nice(s, 99, 1, 0), -OST_ENOENT);
	ck_assert_int_eq(ost_job_set_nice(s, 2, 1, NAN), -OST_EINVAL);
	ck_assert_int_eq(ost_job_start(s, 3, 1), 0);
	ck_assert_int_eq(ost_job_set_nice(s, 3, 1, 1), -OST_ESTATE);
	ost_sched_destroy(s);
}
END_TEST

/* Ties by arrival: of three campaigns, the last one topped goes first
 * and the two others keep their order behind it. */
START_TEST(test_chain_ties)
{
	ost_sched_t *s = mk_sched(1, NULL);

	sub_in(s, 1, 1, 1, 100, 0, 1);		/* A */
	sub_in(s, 2, 1, 1, 10, 0, 2);		/* B */
	sub_in(s, 3, 1, 1, 1, 0, 3);		/* C */
	_nice(s, 3, -1, 0);
	ck_assert_double_eq(camp(s, 1, 3).vstart, 0);
	ck_assert_double_eq(camp(s, 1, 1).vstart, 1);
	ck_assert_double_eq(camp(s, 1, 2).vstart, 101);
	ck_assert_double_eq(camp(s, 1, 2).vfinish, 111);
	ck_order(s, 3, 1, 2);
	_nice(s, 1, 2, 0);			/* A after B */
	ck_assert_double_eq(camp(s, 1, 2).vstart, 1);
	ck_assert_double_eq(camp(s, 1, 1).vstart, 11);
	ck_order(s, 3, 2, 1);
	ost_sched_destroy(s);
}
END_TEST

/* A campaign partly served in V is passed like any other: the later one
 * inherits its start and may be complete in V at once. */
START_TEST(test_chain_partly_served)
{
	ost_sched_t *s = mk_sched(1, NULL);
	ost_job_desc_t d = { .id = 2, .uid = 1, .procs = 1, .estimate = 10,
			     .campaign = 2, .nice = -1 };

	sub_in(s, 1, 1, 1, 100, 0, 1);		/* A: 0..100 */
	ost_sched_advance(s, 30);		/* v = 30 */
	ck_assert_int_eq(ost_job_submit(s, &d, 30, NULL), 0);
	ck_assert_double_eq(camp(s, 1, 2).vstart, 0);
	ck_assert_double_eq(camp(s, 1, 2).vfinish, 10);
	ck_assert_int_eq(camp(s, 1, 2).vstate, OST_VSTATE_COMPLETE);
	ck_assert_double_eq(camp(s, 1, 1).vstart, 10);
	ck_assert_double_eq(camp(s, 1, 1).vfinish, 110);
	ck_order(s, 2, 1);
	ost_sched_destroy(s);
}
END_TEST

/* An idle time in V between two campaigns is a barrier. */
START_TEST(test_chain_gap)
{
	ost_sched_t *s = mk_sched(1, NULL);

	sub_in(s, 1, 1, 1, 10, 0, 1);		/* A: 0..10 */
	sub(s, 2, 2, 1, 100, 0);		/* keeps v moving */
	ost_sched_advance(s, 30);		/* v = 20 > F_A */
	sub_in(s, 3, 1, 1, 10, 30, 2);		/* B: 20..30 */
	_nice(s, 3, -5, 30);
	ck_assert_double_eq(camp(s, 1, 1).vfinish, 10);
	ck_assert_double_eq(camp(s, 1, 2).vstart, 20);
	ck_assert_double_eq(camp(s, 1, 2).vfinish, 30);
	ost_sched_destroy(s);
}
END_TEST

/* FairCamp's deadlines keep the arrival order. */
START_TEST(test_chain_faircamp)
{
	ost_sched_t *s = mk_sched(2, _tweak_faircamp);
	double d1, d2;

	sub_in(s, 1, 1, 2, 100, 0, 1);
	sub_in(s, 2, 1, 1, 10, 1, 2);
	d1 = camp(s, 1, 1).deadline;
	d2 = camp(s, 1, 2).deadline;
	ck_order(s, 1, 2);
	_nice(s, 2, -1, 1);
	ck_assert_double_eq(camp(s, 1, 1).deadline, d1);
	ck_assert_double_eq(camp(s, 1, 2).deadline, d2);
	ck_order(s, 1, 2);
	ck_assert_double_eq(camp(s, 1, 2).vstart, 0);	/* V follows §22 */
	ost_sched_destroy(s);
}
END_TEST

/* u1's pending jobs, in rank order, into ids; the positions of the other
 * users' jobs and their ids into rest (0 at u1's positions). */
static size_t _split(const ost_sched_t *s, uint64_t *ids, uint64_t *rest)
{
	order_t o = order_of(s);
	size_t i, n = 0;

	for (i = 0; i < o.n; i++) {
		ost_job_info_t info;

		ck_assert_int_eq(ost_job_get(s, o.ids[i], &info), 0);
		rest[i] = info.uid == 1 ? 0 : o.ids[i];
		if (info.uid == 1)
			ids[n++] = o.ids[i];
	}
	return n;
}

/*
 * scontrol top, as slurmctld's _set_top() leaves the nice values when the
 * user's jobs are ranked one priority apart: the topped job's nice drops
 * by its distance to the user's first job, the others' rise by a share of
 * it.  Every top puts its job first among the user's and keeps the order
 * of the two topped before it (the most recent lowering first); every
 * other user's job keeps its absolute rank; a raise ends a lowering.
 * The nice values and the order survive a save and a load (version 3).
 */
START_TEST(test_chain_top)
{
	/* per step: the nice of jobs 1, 2, 3, and u1's order after it */
	static const int32_t nice[][3] = {
		{ 1, 1, -2 }, { 2, -1, -1 }, { 3, -1, -2 }, { 1, 0, -1 },
		{ 0, 0, 0 },
	};
	static const uint64_t want[][3] = {
		{ 3, 1, 2 }, { 2, 3, 1 }, { 3, 2, 1 }, { 1, 3, 2 },
		{ 1, 2, 3 },
	};
	ost_sched_t *s = mk_sched(2, NULL), *r;
	uint64_t ids[8], rest0[16], rest[16];
	size_t k, i, n;
	char *buf = NULL, *buf2 = NULL, err[128];
	size_t len, len2;

	sub_in(s, 1, 1, 1, 50, 0, 1);		/* u1: one campaign */
	sub_in(s, 2, 1, 1, 50, 0, 1);
	sub_in(s, 3, 1, 1, 50, 0, 1);
	sub_in(s, 4, 2, 1, 20, 0, 1);		/* the others */
	sub_in(s, 5, 2, 1, 20, 0, 1);
	sub_in(s, 6, 3, 2, 70, 0, 1);
	n = _split(s, ids, rest0);
	ck_assert_uint_eq(n, 3);
	for (k = 0; k < sizeof(nice) / sizeof(nice[0]); k++) {
		for (i = 0; i < 3; i++)		/* by job id, as a pass */
			_nice(s, i + 1, nice[k][i], 1 + (double)k);
		ck_assert_uint_eq(_split(s, ids, rest), 3);
		for (i = 0; i < 3; i++)
			ck_assert_msg(ids[i] == want[k][i],
				      "step %zu: position %zu has job %llu",
				      k, i, (unsigned long long)ids[i]);
		ck_assert(!memcmp(rest, rest0, 6 * sizeof(rest[0])));
		if (k != 3)
			continue;
		ck_assert_int_eq(ost_sched_save(s, &buf, &len), 0);
		ck_assert(!strncmp(buf, "ostrich-state 3\n", 16));
		ck_assert_ptr_nonnull(strstr(buf, " lowered="));
		ck_assert_int_eq(ost_sched_load(buf, len, &r, err,
						sizeof(err)), 0);
		ck_assert_uint_eq(_split(r, ids, rest), 3);
		for (i = 0; i < 3; i++)
			ck_assert_uint_eq(ids[i], want[k][i]);
		ck_assert_int_eq(ost_sched_save(r, &buf2, &len2), 0);
		ck_assert_uint_eq(len, len2);
		ck_assert(!memcmp(buf, buf2, len));
		/* a lowering after the load is the newest */
		_nice(r, 2, -3, 5);
		ck_assert_uint_eq(_split(r, ids, rest), 3);
		ck_assert_uint_eq(ids[0], 2);
		ost_sched_destroy(r);
		free(buf);
		free(buf2);
	}
	/* job 1 went from 1 to 0 last, a lowering: it leads; once u1's jobs
	 * have left, nothing is ordered and the state is version 1 again */
	for (i = 1; i <= 3; i++)
		ck_assert_int_eq(ost_job_cancel(s, i, 9), 0);
	ck_assert_int_eq(ost_sched_save(s, &buf, &len), 0);
	ck_assert(!strncmp(buf, "ostrich-state 1\n", 16));
	free(buf);
	ost_sched_destroy(s);
}
END_TEST

/* --------------------------------------------------- the property --- */

static uint64_t _rng;

static uint32_t _rand(uint32_t n)
{
	_rng = _rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)((_rng >> 33) % n);
}

#define MAXJ 200

typedef struct {
	uint64_t id;
	uint32_t uid;
	bool pending, running;
} pjob_t;

static const ost_campaign_info_t *_info(const camp_infos_t *in,
					uint32_t uid, uint32_t seq)
{
	size_t i;

	for (i = 0; i < in->n; i++)
		if (in->v[i].uid == uid && in->v[i].seq == seq)
			return &in->v[i];
	return NULL;
}

static uint32_t _owner(const pjob_t *j, int nj, uint64_t id)
{
	int i;

	for (i = 0; i < nj; i++)
		if (j[i].id == id)
			return j[i].uid;
	ck_abort_msg("job %llu unknown", (unsigned long long)id);
	return 0;
}

/* The line p[0..n) holds tag. */
static bool _has(const char *p, size_t n, const char *tag)
{
	size_t k = strlen(tag), i;

	for (i = 0; i + k <= n; i++)
		if (!memcmp(p + i, tag, k))
			return true;
	return false;
}

/* The length of line p[0..n) without a version 3 " lowered=N" (a state
 * with a lowering is version 3, one without version 2). */
static size_t _v2len(const char *p, size_t n)
{
	size_t i;

	for (i = n; i > 0 && p[i - 1] != ' '; i--)
		;
	return i && !strncmp(p + i, "lowered=", 8) ? i - 1 : n;
}

/* Every line of the two saves but u's own (user, campaign, job) and the
 * version line. */
static void _same_but(const ost_sched_t *a, const ost_sched_t *b, uint32_t u)
{
	char *sa = NULL, *sb = NULL, *p, *q, tag[32];
	size_t la, lb;

	ck_assert_int_eq(ost_sched_save(a, &sa, &la), 0);
	ck_assert_int_eq(ost_sched_save(b, &sb, &lb), 0);
	snprintf(tag, sizeof(tag), " uid=%u ", u);
	for (p = sa, q = sb; *p && *q;) {
		size_t n = strcspn(p, "\n"), m = strcspn(q, "\n");

		if (!strncmp(p, "end ", 4))
			break;
		if (_has(p, n, tag) || _has(q, m, tag)) {
			ck_assert(_has(p, n, tag) && _has(q, m, tag));
		} else if (!strncmp(p, "ostrich-state ", 14)) {
			ck_assert(!strncmp(q, "ostrich-state ", 14));
		} else {
			n = _v2len(p, n);
			m = _v2len(q, m);
			ck_assert_msg(n == m && !memcmp(p, q, n),
				      "'%.*s' != '%.*s'", (int)n, p, (int)m,
				      q);
		}
		p += strcspn(p, "\n") + 1;
		q += strcspn(q, "\n") + 1;
	}
	free(sa);
	free(sb);
}

static int _moved;	/* campaigns of the reordering user that moved */

static void _compare(const ost_sched_t *a, const ost_sched_t *b, uint32_t u,
		     const pjob_t *j, int nj, bool nested)
{
	static camp_infos_t ia, ib;
	order_t oa = order_of(a), ob = order_of(b);
	double fa = -INFINITY, fb = -INFINITY;
	size_t i, x, y;

	camp_infos(a, &ia);
	camp_infos(b, &ib);
	ck_assert_uint_eq(ia.n, ib.n);
	for (i = 0; i < ia.n; i++) {
		const ost_campaign_info_t *c = &ia.v[i];
		const ost_campaign_info_t *d = _info(&ib, c->uid, c->seq);

		ck_assert_ptr_nonnull(d);
		if (c->uid == u) {
			fa = fmax(fa, c->vfinish);
			fb = fmax(fb, d->vfinish);
			_moved += c->vstart != d->vstart;
			continue;
		}
		ck_assert(c->vstart == d->vstart && c->vfinish == d->vfinish);
		ck_assert(c->vct == d->vct || (isnan(c->vct) && isnan(d->vct)));
		ck_assert_int_eq(c->eligible, d->eligible);
	}
	ck_assert_msg(fa == fb, "last F of %u: %a != %a", u, fa, fb);
	/* the other users' jobs in the same relative order */
	for (x = y = 0;; x++, y++) {
		while (x < oa.n && _owner(j, nj, oa.ids[x]) == u)
			x++;
		while (y < ob.n && _owner(j, nj, ob.ids[y]) == u)
			y++;
		if (x >= oa.n || y >= ob.n)
			break;
		ck_assert_uint_eq(oa.ids[x], ob.ids[y]);
	}
	ck_assert(x >= oa.n && y >= ob.n);
	if (nested)
		_same_but(a, b, u);
}

static void _tweak_acct(ost_config_t *c)
{
	c->hierarchy = OST_HIER_ACCOUNTS;
}

/* levels 0: flat (nested: Hierarchy=accounts without accounts). */
static bool _prop(uint64_t seed, int levels, bool nested)
{
	static const double w[] = { 0.5, 1, 1, 2, 3 };
	ost_sched_t *a, *b;
	pjob_t j[MAXJ];
	uint32_t nu, u, seq[16] = { 0 }, acct[8], na = 0, k;
	int nj = 0, e, i, mine = 0;
	double t = 0;

	_rng = seed;
	a = mk_sched(1 + _rand(8), nested ? _tweak_acct : NULL);
	b = mk_sched(ost_sched_config(a)->procs, nested ? _tweak_acct : NULL);
	nu = 3 + _rand(6);
	if (levels)
		for (na = 0; na < 2 + _rand(2); na++) {
			uint32_t p = levels == 3 && na && _rand(2)
					     ? acct[_rand(na)] : 0;
			double sh = w[_rand(5)];

			acct[na] = 10 + na;
			ck_assert_int_eq(ost_acct_declare(a, acct[na], p, sh, 0),
					 0);
			ck_assert_int_eq(ost_acct_declare(b, acct[na], p, sh, 0),
					 0);
		}
	for (u = 1; u <= nu; u++) {
		double wu = w[_rand(5)];
		uint32_t to = na && _rand(4) ? acct[_rand(na)] : 0;

		ck_assert_int_eq(ost_user_set_weight(a, u, wu, 0), 0);
		ck_assert_int_eq(ost_user_set_weight(b, u, wu, 0), 0);
		ck_assert_int_eq(ost_user_set_account(a, u, to, 0), 0);
		ck_assert_int_eq(ost_user_set_account(b, u, to, 0), 0);
	}
	for (e = 0; e < 120 && nj < MAXJ - 4; e++) {
		t += (double)_rand(3);
		k = _rand(10);
		if (k < 5) {	/* a campaign of 1-3 jobs */
			uint32_t uid = 1 + _rand(nu), q, n = 1 + _rand(3);

			seq[uid]++;
			for (q = 0; q < n; q++, nj++) {
				double est = (double)(5 + _rand(60));
				uint32_t width = 1 + _rand(2);

				j[nj] = (pjob_t){ .id = (uint64_t)nj + 1,
						  .uid = uid, .pending = true };
				sub_in(a, j[nj].id, uid, width, est, t,
				       seq[uid]);
				sub_in(b, j[nj].id, uid, width, est, t,
				       seq[uid]);
			}
		} else if (k < 8 && nj) {
			i = (int)_rand((uint32_t)nj);
			if (j[i].pending) {
				ck_assert_int_eq(ost_job_start(a, j[i].id, t), 0);
				ck_assert_int_eq(ost_job_start(b, j[i].id, t), 0);
				j[i].pending = false;
				j[i].running = true;
			} else if (j[i].running) {
				double p = (double)_rand(40);

				ck_assert_int_eq(ost_job_finish(a, j[i].id, t, p),
						 0);
				ck_assert_int_eq(ost_job_finish(b, j[i].id, t, p),
						 0);
				j[i].running = false;
			}
		}
	}
	/* the user with the most pending jobs reorders */
	for (u = 0, k = 1; k <= nu; k++) {
		int n = 0;

		for (i = 0; i < nj; i++)
			n += j[i].uid == k && j[i].pending;
		if (n > mine) {
			mine = n;
			u = k;
		}
	}
	if (mine >= 2) {
		ck_assert_int_eq(ost_user_set_weight(a, u, camp(a, u,
			seq[u]).weight, t), 0);	/* the same refresh */
		ck_assert_int_eq(ost_user_set_weight(b, u, camp(b, u,
			seq[u]).weight, t), 0);
		for (i = 0; i < nj; i++)
			if (j[i].uid == u && j[i].pending && _rand(2))
				_nice(b, j[i].id, (int32_t)_rand(7) - 3, t);
		_compare(a, b, u, j, nj, nested);
		for (e = 0; e < 3; e++) {
			t += 1.0 + (double)_rand(50);
			ost_sched_advance(a, t);
			ost_sched_advance(b, t);
			_compare(a, b, u, j, nj, nested);
		}
	}
	ost_sched_destroy(a);
	ost_sched_destroy(b);
	return mine >= 2;
}

static int _loops(void)
{
	const char *e = getenv("OST_PROPERTY_LOOPS");

	return e ? atoi(e) : 60;
}

/* 0: Hierarchy=users; 1: accounts, none declared; 2, 3: levels. */
START_TEST(test_chain_others_unmoved)
{
	int seed, done = 0;

	_moved = 0;
	for (seed = 1; seed <= _loops(); seed++)
		done += _prop(0x7000 + (uint64_t)seed * 131 + (uint64_t)_i,
			      _i >= 2 ? _i : 0, _i >= 1);
	ck_assert_int_gt(done, _loops() / 2);
	ck_assert_int_gt(_moved, done);	/* the nice values did reorder */
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("chain");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT * 5);

	tcase_add_test(tc, test_chain_two_campaigns);
	tcase_add_test(tc, test_chain_ties);
	tcase_add_test(tc, test_chain_partly_served);
	tcase_add_test(tc, test_chain_gap);
	tcase_add_test(tc, test_chain_faircamp);
	tcase_add_test(tc, test_chain_top);
	tcase_add_loop_test(tc, test_chain_others_unmoved, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}

OST_TEST_MAIN
