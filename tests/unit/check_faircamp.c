/*****************************************************************************\
 *  check_faircamp.c - FairCamp deadlines (§5)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "util.h"

static void _fc2(ost_config_t *c)
{
	c->mode = OST_MODE_FAIRCAMP;
	c->faircamp_users = 2;
}

static double _dl(const ost_sched_t *s, uint32_t uid, uint32_t seq)
{
	return camp(s, uid, seq).deadline;
}

/* The FairCamp paper's example (its section VI.C; doc/semantics.md §9.1):
 * k = 2; user 1 has campaigns of length 5 and 3, user 2 of 3, 3 and 10.  Deadlines 10, 16 and 6, 12,
 * 32 (the paper prints 22 for the last: 2 * 10 + 12 = 32). */
START_TEST(test_faircamp_paper_example)
{
	ost_sched_t *s = mk_sched(1, _fc2);

	sub_in(s, 1, 1, 1, 5, 0, 1);
	sub_in(s, 2, 1, 1, 3, 0, 2);
	sub_in(s, 3, 2, 1, 3, 0, 1);
	sub_in(s, 4, 2, 1, 3, 0, 2);
	sub_in(s, 5, 2, 1, 10, 0, 3);
	ck_assert_double_eq_tol(_dl(s, 1, 1), 10, EPS);
	ck_assert_double_eq_tol(_dl(s, 1, 2), 16, EPS);
	ck_assert_double_eq_tol(_dl(s, 2, 1), 6, EPS);
	ck_assert_double_eq_tol(_dl(s, 2, 2), 12, EPS);
	ck_assert_double_eq_tol(_dl(s, 2, 3), 32, EPS);
	/* earliest deadline first */
	ck_order(s, 3, 1, 4, 2, 5);
	ost_sched_destroy(s);
}
END_TEST

static void _fc(ost_config_t *c)
{
	c->mode = OST_MODE_FAIRCAMP;
}

/* k counted at t_c: users with a submitted, unfinished job, u included;
 * L = max(A / m, max e); joins grow L with the same k. */
START_TEST(test_faircamp_k_and_length)
{
	ost_sched_t *s = mk_sched(4, _fc);
	ost_campaign_info_t c;

	sub(s, 1, 1, 4, 10, 0);		/* k=1, L = max(40/4, 10) = 10 */
	c = camp(s, 1, 1);
	ck_assert_uint_eq(c.k, 1);
	ck_assert_double_eq_tol(c.deadline, 10, EPS);
	sub(s, 2, 2, 1, 8, 1);		/* k=2, L = max(8/4, 8) = 8 */
	c = camp(s, 2, 1);
	ck_assert_uint_eq(c.k, 2);
	ck_assert_double_eq_tol(c.deadline, 1 + 2 * 8, EPS);
	sub(s, 3, 2, 4, 6, 2);		/* joins: A = 32, L = max(8, 8) */
	sub(s, 4, 2, 4, 6, 2);		/* A = 56, L = 14: D = 1 + 28 */
	ck_assert_double_eq_tol(camp(s, 2, 1).deadline, 29, EPS);
	ck_assert_uint_eq(camp(s, 2, 1).k, 2);
	/* cancelling gives the area back */
	ck_assert_int_eq(ost_job_cancel(s, 4, 3), 0);
	ck_assert_double_eq_tol(camp(s, 2, 1).deadline, 17, EPS);
	ck_order(s, 1, 2, 3);	/* D = 10, then 17 (lpt: e 8, 6) */
	ost_sched_destroy(s);
}
END_TEST

/* Switching mode at run time re-sorts by the other key. */
START_TEST(test_faircamp_switch_mode)
{
	ost_sched_t *s = mk_sched(4, NULL);
	ost_config_t cfg;

	sub(s, 1, 1, 4, 100, 0);	/* F = 400, D = 100 */
	sub(s, 2, 2, 1, 150, 0);	/* F = 150, D = 2 * 150 = 300 */
	ck_order(s, 2, 1);
	cfg = *ost_sched_config(s);
	cfg.mode = OST_MODE_FAIRCAMP;
	ck_assert_int_eq(ost_sched_reconfigure(s, &cfg, 0), 0);
	ck_order(s, 1, 2);
	ost_sched_destroy(s);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("faircamp");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);

	tcase_add_test(tc, test_faircamp_paper_example);
	tcase_add_test(tc, test_faircamp_k_and_length);
	tcase_add_test(tc, test_faircamp_switch_mode);
	suite_add_tcase(s, tc);
	return s;
}

OST_TEST_MAIN
