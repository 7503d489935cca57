/*****************************************************************************\
 *  check_campaign.c - grouping (§2) and tag maintenance (§3)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "util.h"

/* tau = 0 (the thesis's MAX rule): join only while a job is unfinished. */
START_TEST(test_group_tau_zero)
{
	ost_sched_t *s = mk_sched(4, NULL);

	ck_assert_uint_eq(sub(s, 1, 7, 1, 10, 0), 1);
	ck_assert_uint_eq(sub(s, 2, 7, 1, 10, 1), 1);	/* 1 unfinished */
	ck_assert_int_eq(ost_job_start(s, 1, 1), 0);
	ck_assert_int_eq(ost_job_start(s, 2, 1), 0);
	ck_assert_uint_eq(sub(s, 3, 7, 1, 10, 5), 1);	/* running ones */
	ck_assert_int_eq(ost_job_start(s, 3, 5), 0);
	ck_assert_int_eq(ost_job_finish(s, 1, 11, 10), 0);
	ck_assert_int_eq(ost_job_finish(s, 2, 11, 10), 0);
	ck_assert_int_eq(ost_job_finish(s, 3, 15, 10), 0);
	ck_assert_uint_eq(sub(s, 4, 7, 1, 10, 15), 1);	/* t - E = 0 <= 0 */
	ck_assert_int_eq(ost_job_start(s, 4, 15), 0);
	ck_assert_int_eq(ost_job_finish(s, 4, 16, 1), 0);
	ck_assert_uint_eq(sub(s, 5, 7, 1, 10, 16.5), 2);	/* 0.5 > 0 */
	ck_assert_uint_eq(sub(s, 6, 8, 1, 10, 16.5), 1);	/* per user */
	ost_sched_destroy(s);
}
END_TEST

static void _tau600(ost_config_t *c)
{
	c->think_time = 600;
}

/* tau > 0: a job within tau of the last finish joins, later opens. */
START_TEST(test_group_tau_positive)
{
	ost_sched_t *s = mk_sched(4, _tau600);

	ck_assert_uint_eq(sub(s, 1, 7, 1, 10, 0), 1);
	ck_assert_int_eq(ost_job_start(s, 1, 0), 0);
	ck_assert_int_eq(ost_job_finish(s, 1, 10, 10), 0);
	ck_assert_uint_eq(sub(s, 2, 7, 1, 10, 610), 1);	/* 600 <= 600 */
	ck_assert_int_eq(ost_job_start(s, 2, 610), 0);
	ck_assert_int_eq(ost_job_finish(s, 2, 620, 10), 0);
	ck_assert_uint_eq(sub(s, 3, 7, 1, 10, 1220.5), 2);
	ost_sched_destroy(s);
}
END_TEST

/* Job-array tasks share a campaign even across campaign boundaries. */
START_TEST(test_group_array)
{
	ost_sched_t *s = mk_sched(4, NULL);
	ost_job_desc_t d = { .id = 1, .uid = 3, .procs = 1, .estimate = 10,
			     .group = 99 };
	uint32_t c;

	ck_assert_int_eq(ost_job_submit(s, &d, 0, &c), 0);
	ck_assert_uint_eq(c, 1);
	ck_assert_int_eq(ost_job_start(s, 1, 0), 0);
	ck_assert_int_eq(ost_job_finish(s, 1, 10, 10), 0);
	sub(s, 2, 3, 1, 10, 20);		/* opens campaign 2 */
	d.id = 3;				/* a late task of the array */
	ck_assert_int_eq(ost_job_submit(s, &d, 30, &c), 0);
	ck_assert_uint_eq(c, 1);
	/* a group id of another user is no hint */
	d.id = 4;
	d.uid = 4;
	ck_assert_int_eq(ost_job_submit(s, &d, 30, &c), 0);
	ck_assert_uint_eq(c, 1);
	ost_sched_destroy(s);
}
END_TEST

/* A job joining a virtually complete campaign restarts it at v. */
START_TEST(test_join_after_virtual_completion)
{
	ost_sched_t *s = mk_sched(4, _tau600);
	ost_campaign_info_t c;

	sub(s, 1, 1, 4, 10, 0);		/* F = 40, v reaches it at t=10 */
	ck_assert_int_eq(ost_job_start(s, 1, 0), 0);
	ck_assert_int_eq(ost_job_finish(s, 1, 10, 10), 0);
	ost_sched_advance(s, 20);
	c = camp(s, 1, 1);
	ck_assert_int_eq(c.vstate, OST_VSTATE_COMPLETE);
	sub(s, 2, 1, 2, 5, 20);		/* within tau: joins campaign 1 */
	c = camp(s, 1, 1);
	ck_assert_uint_eq(c.seq, 1);
	ck_assert_double_eq_tol(c.vstart, 40, EPS);	/* phi = v(20) = 40 */
	ck_assert_double_eq_tol(c.vfinish, 50, EPS);	/* + 10 / 1 */
	ck_assert_int_eq(c.vstate, OST_VSTATE_RUNNING);
	/* joining while still virtually running just extends F */
	sub(s, 3, 1, 2, 5, 21);
	c = camp(s, 1, 1);
	ck_assert_double_eq_tol(c.vfinish, 60, EPS);
	ost_sched_destroy(s);
}
END_TEST

/* Finishing early moves F back and re-derives the user's later campaign;
 * other users' tags do not move. */
START_TEST(test_correction_moves_later_campaigns)
{
	ost_sched_t *s = mk_sched(4, NULL);
	ost_campaign_info_t c1, c2, o;

	sub_in(s, 1, 1, 4, 10, 0, 1);	/* campaign 1: F = 40 */
	sub(s, 9, 2, 4, 100, 0);	/* other user: F = 400 */
	ck_assert_int_eq(ost_job_start(s, 1, 0), 0);
	sub_in(s, 2, 1, 4, 10, 1, 2);	/* campaign 2 queued: S=40, F=80 */
	c2 = camp(s, 1, 2);
	ck_assert_double_eq_tol(c2.vstart, 40, EPS);
	ck_assert_double_eq_tol(c2.vfinish, 80, EPS);
	ck_assert(!c2.eligible);
	ck_order(s, 9, 2);		/* not eligible sorts last */
	/* job 1 ran 2 s instead of 10: A_1 = 8, F_1 = 8 */
	c1 = camp(s, 1, 1);
	ck_assert_double_eq_tol(c1.vfinish, 40, EPS);
	ck_assert_int_eq(ost_job_finish(s, 1, 2, 2), 0);
	/* campaign 1 has nothing left to change: it is forgotten, its F
	 * lives on in campaign 2's S = max(phi, F_1) = F_1 = 8 */
	c2 = camp(s, 1, 2);
	o = camp(s, 2, 1);
	ck_assert_double_eq_tol(c2.vstart, 8, EPS);
	ck_assert_double_eq_tol(c2.vfinish, 48, EPS);
	ck_assert_double_eq_tol(o.vfinish, 400, EPS);
	/* v(2) = 4 < S_2 = 8: campaign 1 still runs virtually */
	ck_assert(!c2.eligible);
	ck_order(s, 9, 2);
	ost_sched_advance(s, 4);	/* v = 8 = S_2 */
	ck_assert(camp(s, 1, 2).eligible);
	ck_order(s, 2, 9);
	ost_sched_destroy(s);
}
END_TEST

/* Running past the estimate moves F later; F never goes below S. */
START_TEST(test_correction_bounds)
{
	ost_sched_t *s = mk_sched(4, NULL);
	ost_campaign_info_t c;

	sub(s, 1, 1, 2, 10, 0);
	sub(s, 2, 1, 2, 10, 0);
	ck_assert_int_eq(ost_job_start(s, 1, 0), 0);
	ck_assert_int_eq(ost_job_start(s, 2, 0), 0);
	ck_assert_int_eq(ost_job_finish(s, 1, 15, 15), 0);
	c = camp(s, 1, 1);
	ck_assert_double_eq_tol(c.area, 50, EPS);	/* 40 + 2 * 5 */
	ck_assert_double_eq_tol(c.vfinish, 50, EPS);
	ck_assert_int_eq(ost_job_finish(s, 2, 15, 0), 0);
	ck_assert_int_eq(ost_job_finish(s, 2, 15, 0), -OST_ENOENT);
	c = camp(s, 1, 1);
	ck_assert_double_eq_tol(c.area, 30, EPS);
	ck_assert_double_eq_tol(c.vfinish, 30, EPS);
	ck_assert_int_eq(c.vstate, OST_VSTATE_COMPLETE);	/* v(15)=60 */
	ost_sched_destroy(s);
}
END_TEST

/* A cancelled pending job leaves its campaign with its area. */
START_TEST(test_cancel)
{
	ost_sched_t *s = mk_sched(4, NULL);
	ost_campaign_info_t c;

	sub(s, 1, 1, 4, 10, 0);
	sub(s, 2, 1, 4, 10, 0);
	ck_assert_int_eq(ost_job_start(s, 1, 0), 0);
	ck_assert_int_eq(ost_job_cancel(s, 1, 1), -OST_ESTATE);
	ck_assert_int_eq(ost_job_cancel(s, 2, 1), 0);
	ck_assert_int_eq(ost_job_cancel(s, 2, 1), -OST_ENOENT);
	c = camp(s, 1, 1);
	ck_assert_double_eq_tol(c.area, 40, EPS);
	ck_assert_double_eq_tol(c.vfinish, 40, EPS);
	ck_assert_uint_eq(c.pending, 0);
	ck_assert_uint_eq(c.running, 1);
	/* a pending job that "finishes" is a cancellation */
	sub(s, 3, 1, 4, 10, 2);
	ck_assert_int_eq(ost_job_finish(s, 3, 3, 0), 0);
	c = camp(s, 1, 1);
	ck_assert_double_eq_tol(c.area, 40, EPS);
	ost_sched_destroy(s);
}
END_TEST

/* Requeue: the job is pending again, its area still counted for the run
 * to come, and the run that ended (1 s on 4 CPUs) charged at once. */
START_TEST(test_requeue)
{
	ost_sched_t *s = mk_sched(4, NULL);
	ost_stats_t st;

	sub(s, 1, 1, 4, 10, 0);
	ck_assert_int_eq(ost_job_requeue(s, 1, 1), -OST_ESTATE);
	ck_assert_int_eq(ost_job_start(s, 1, 0), 0);
	ck_assert_int_eq(ost_job_start(s, 1, 0), -OST_ESTATE);
	ck_assert_int_eq(ost_job_requeue(s, 1, 1), 0);
	ost_sched_stats(s, &st);
	ck_assert_uint_eq(st.pending, 1);
	ck_assert_uint_eq(st.running, 0);
	ck_assert_uint_eq(st.busy_procs, 0);
	ck_assert_double_eq_tol(camp(s, 1, 1).area, 44, EPS);
	ck_order(s, 1);
	ost_sched_destroy(s);
}
END_TEST

/*
 * Three runs cost three times one (§9.4): a 4-CPU job of estimate 10 s
 * requeued after 6 s twice, then finishing after 6 s, is charged
 * 3 * 4 * 6 = 72 CPU-s, as three jobs of 6 s would be; its user's
 * virtual finish moves the same way.  Before, only the last run counted
 * (24 CPU-s).
 */
START_TEST(test_requeue_every_run_paid)
{
	ost_sched_t *s = mk_sched(4, NULL), *r = mk_sched(4, NULL);
	int i;

	sub(s, 1, 1, 4, 10, 0);
	for (i = 0; i < 3; i++) {
		sub(r, 1 + i, 1, 4, 10, 0);
		ck_assert_int_eq(ost_job_start(s, 1, 6 * i), 0);
		ck_assert_int_eq(ost_job_start(r, 1 + i, 6 * i), 0);
		if (i < 2)
			ck_assert_int_eq(ost_job_requeue(s, 1, 6 * i + 6), 0);
		else
			ck_assert_int_eq(ost_job_finish(s, 1, 18, 6), 0);
		ck_assert_int_eq(ost_job_finish(r, 1 + i, 6 * i + 6, 6), 0);
	}
	/* s: estimate 40 + runs 24 + 24, corrected by 4 * (6 - 10) */
	ck_assert_double_eq_tol(camp(s, 1, 1).area, 72, EPS);
	ck_assert_double_eq_tol(camp(r, 1, 1).area, 72, EPS);
	ost_sched_destroy(s);
	ost_sched_destroy(r);
}
END_TEST

/* Bad input is refused with nothing changed. */
START_TEST(test_submit_errors)
{
	ost_sched_t *s = mk_sched(4, NULL);
	ost_job_desc_t d = { .id = 1, .uid = 1, .procs = 1, .estimate = 1 };
	ost_stats_t st;

	ck_assert_int_eq(ost_job_submit(s, &d, 0, NULL), 0);
	ck_assert_int_eq(ost_job_submit(s, &d, 0, NULL), -OST_EEXIST);
	d.id = 0;
	ck_assert_int_eq(ost_job_submit(s, &d, 0, NULL), -OST_EINVAL);
	d.id = 2;
	d.procs = 0;
	ck_assert_int_eq(ost_job_submit(s, &d, 0, NULL), -OST_EINVAL);
	d.procs = 1;
	d.estimate = -1;
	ck_assert_int_eq(ost_job_submit(s, &d, 0, NULL), -OST_EINVAL);
	d.estimate = NAN;
	ck_assert_int_eq(ost_job_submit(s, &d, 0, NULL), -OST_EINVAL);
	d.estimate = 1;
	d.campaign = 5;
	ck_assert_int_eq(ost_job_submit(s, &d, 0, NULL), 0);
	d.id = 3;
	d.campaign = 4;			/* below the newest */
	ck_assert_int_eq(ost_job_submit(s, &d, 0, NULL), -OST_EINVAL);
	ck_assert_int_eq(ost_job_start(s, 42, 0), -OST_ENOENT);
	ck_assert_int_eq(ost_job_finish(s, 1, 0, -1), -OST_EINVAL);
	ost_sched_stats(s, &st);
	ck_assert_uint_eq(st.pending, 2);
	ck_assert_uint_eq(st.campaigns, 2);
	ost_sched_destroy(s);
	ost_sched_destroy(NULL);
}
END_TEST

/* Old campaigns without unfinished jobs are forgotten; tags stay. */
START_TEST(test_forget_old_campaigns)
{
	ost_sched_t *s = mk_sched(4, NULL);
	ost_stats_t st;
	uint64_t id;

	for (id = 1; id <= 50; id++) {
		sub(s, id, 1, 1, 10, (double)id * 100);
		ck_assert_int_eq(ost_job_start(s, id, (double)id * 100), 0);
		ck_assert_int_eq(ost_job_finish(s, id, id * 100.0 + 1, 1), 0);
	}
	ost_sched_stats(s, &st);
	ck_assert_uint_eq(st.campaigns, 1);
	ck_assert_uint_eq(camp(s, 1, 50).done, 1);
	ost_sched_destroy(s);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("campaign");
	TCase *g = ost_tcase("Grouping", OST_TIMEOUT_LIGHT);
	TCase *t = ost_tcase("Tags", OST_TIMEOUT_LIGHT);
	TCase *l = ost_tcase("Limits", OST_TIMEOUT_LIGHT);

	tcase_add_test(g, test_group_tau_zero);
	tcase_add_test(g, test_group_tau_positive);
	tcase_add_test(g, test_group_array);
	tcase_add_test(t, test_join_after_virtual_completion);
	tcase_add_test(t, test_correction_moves_later_campaigns);
	tcase_add_test(t, test_correction_bounds);
	tcase_add_test(t, test_cancel);
	tcase_add_test(t, test_requeue);
	tcase_add_test(t, test_requeue_every_run_paid);
	tcase_add_test(l, test_submit_errors);
	tcase_add_test(l, test_forget_old_campaigns);
	suite_add_tcase(s, g);
	suite_add_tcase(s, t);
	suite_add_tcase(s, l);
	return s;
}

OST_TEST_MAIN
