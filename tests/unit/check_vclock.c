/*****************************************************************************\
 *  check_vclock.c - the virtual schedule (§3)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "util.h"

/* §3 worked check: m=4, weights 1, capacity=full, e=p. */
START_TEST(test_vclock_worked_example)
{
	ost_sched_t *s = mk_sched(4, NULL);
	ost_campaign_info_t a, b;
	ost_stats_t st;

	sub(s, 1, 100, 4, 10, 0);	/* A: area 40 at t=0 */
	a = camp(s, 100, 1);
	ck_assert_double_eq_tol(a.vfinish, 40, EPS);
	ck_assert_double_eq_tol(a.vct, 10, EPS);
	sub(s, 2, 200, 4, 2, 2);	/* B: area 8 at t=2 */
	ost_sched_stats(s, &st);
	ck_assert_double_eq_tol(st.vtime, 8, EPS);
	b = camp(s, 200, 1);
	a = camp(s, 100, 1);
	ck_assert_double_eq_tol(b.vstart, 8, EPS);
	ck_assert_double_eq_tol(b.vfinish, 16, EPS);
	ck_assert_double_eq_tol(b.vct, 6, EPS);
	ck_assert_double_eq_tol(a.vct, 12, EPS);
	ck_order(s, 2, 1);
	/* and v really moves that way: B leaves W at t=6, A at t=12 */
	ost_sched_advance(s, 6);
	ost_sched_stats(s, &st);
	ck_assert_double_eq_tol(st.vtime, 16, EPS);
	ck_assert_uint_eq(st.active_users, 1);
	ost_sched_advance(s, 12);
	ost_sched_stats(s, &st);
	ck_assert_double_eq_tol(st.vtime, 40, EPS);
	ck_assert_uint_eq(st.active_users, 0);
	ost_sched_advance(s, 20);	/* no active user: v stays */
	ost_sched_stats(s, &st);
	ck_assert_double_eq_tol(st.vtime, 40, EPS);
	ost_sched_destroy(s);
}
END_TEST

/* A weight-2 user gets twice the share: F = S + A / w. */
START_TEST(test_vclock_weights)
{
	ost_sched_t *s = mk_sched(4, NULL);
	ost_campaign_info_t a, b;

	ck_assert_int_eq(ost_user_set_weight(s, 1, 2.0, 0), 0);
	ck_assert_int_eq(ost_user_set_weight(s, 2, 0.0, 0), -OST_EINVAL);
	sub(s, 1, 1, 4, 10, 0);	/* area 40, w=2: L = 20 */
	sub(s, 2, 2, 4, 10, 0);	/* area 40, w=1: L = 40 */
	a = camp(s, 1, 1);
	b = camp(s, 2, 1);
	ck_assert_double_eq_tol(a.vfinish, 20, EPS);
	ck_assert_double_eq_tol(b.vfinish, 40, EPS);
	/* W = 3, rate 4/3: v=20 at t=15 (user 1 gets 8/3 CPUs: 40 in 15 s);
	 * then rate 4: v=40 at t=20, total area 80 on 4 CPUs. */
	ck_assert_double_eq_tol(a.vct, 15, EPS);
	ck_assert_double_eq_tol(b.vct, 20, EPS);
	ck_order(s, 1, 2);
	ost_sched_destroy(s);
}
END_TEST

static void _used(ost_config_t *c)
{
	c->capacity = OST_CAPACITY_USED;
}

/* capacity=used: v runs at busy/W while work waits, at m/W otherwise. */
START_TEST(test_vclock_capacity_used)
{
	ost_sched_t *s = mk_sched(4, _used);
	ost_stats_t st;

	sub(s, 1, 1, 2, 100, 0);
	sub(s, 2, 1, 4, 100, 0);	/* cannot start beside job 1 */
	ck_assert_int_eq(ost_job_start(s, 1, 0), 0);
	ost_sched_stats(s, &st);
	ck_assert_double_eq_tol(st.capacity, 2, EPS);	/* 2 idle CPUs */
	ost_sched_advance(s, 10);
	ost_sched_stats(s, &st);
	ck_assert_double_eq_tol(st.vtime, 20, EPS);	/* 10 s * 2 / 1 */
	ck_assert_int_eq(ost_job_finish(s, 1, 10, 10), 0);
	ck_assert_int_eq(ost_job_start(s, 2, 10), 0);
	/* nothing waits: C = m even though all 4 are busy here anyway */
	ost_sched_stats(s, &st);
	ck_assert_double_eq_tol(st.capacity, 4, EPS);
	ck_assert_int_eq(ost_job_finish(s, 2, 20, 10), 0);
	/* work waits and nothing runs: C = busy = 0 (mirrors the real
	 * schedule; the dispatch starts it at this instant) */
	sub(s, 3, 2, 1, 5, 20);
	ost_sched_stats(s, &st);
	ck_assert_double_eq_tol(st.capacity, 0, EPS);	/* waits, none busy */
	ost_sched_destroy(s);
}
END_TEST

/* A completion learnt late is applied at the clock: v never rewinds. */
START_TEST(test_vclock_no_rewind)
{
	ost_sched_t *s = mk_sched(4, NULL);
	ost_stats_t st;

	sub(s, 1, 1, 4, 10, 0);
	ost_sched_advance(s, 5);
	ost_sched_advance(s, 3);
	ost_sched_stats(s, &st);
	ck_assert_double_eq_tol(st.now, 5, EPS);
	ck_assert_double_eq_tol(st.vtime, 20, EPS);
	ck_assert_int_eq(ost_job_start(s, 1, 1), 0);
	ck_assert_int_eq(ost_job_finish(s, 1, 4, 3), 0);
	ost_sched_stats(s, &st);
	ck_assert_double_eq_tol(st.vtime, 20, EPS);
	/* corrected to area 12 < v: virtually complete, user inactive */
	ck_assert_uint_eq(st.active_users, 0);
	ost_sched_destroy(s);
}
END_TEST

/* With C = 0 (nothing runs, work waits) v stalls and C~ is infinite. */
START_TEST(test_vclock_stalled)
{
	ost_sched_t *s = mk_sched(4, _used);
	ost_campaign_info_t a;

	sub(s, 1, 1, 4, 10, 0);
	ost_sched_advance(s, 100);
	a = camp(s, 1, 1);
	ck_assert(isinf(a.vct));
	ck_assert_double_eq_tol(a.vfinish, 40, EPS);
	ost_sched_destroy(s);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("vclock");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);

	tcase_add_test(tc, test_vclock_worked_example);
	tcase_add_test(tc, test_vclock_weights);
	tcase_add_test(tc, test_vclock_capacity_used);
	tcase_add_test(tc, test_vclock_no_rewind);
	tcase_add_test(tc, test_vclock_stalled);
	suite_add_tcase(s, tc);
	return s;
}

OST_TEST_MAIN
