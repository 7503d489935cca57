/*****************************************************************************\
 *  check_metrics.c - unit tests of §7 on a hand-made schedule.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "ck_run.h"
#include "metrics.h"

#define TOL 1e-12

/* m = 4.  User 1 campaign 1: jobs submitted at 0 and 6 (p = 4, 2),
 * runs 0-4 and 8-10.  User 1 campaign 2: one 4-CPU job of 0 s at 20.
 * User 2 campaign 1: one 2-CPU job (p = 40) submitted at 0 run 5-45. */
static sim_job_t _jobs[] = {
	{ .uid = 1, .campaign = 1, .procs = 1, .submit = 0, .runtime = 4,
	  .start = 0, .end = 4 },
	{ .uid = 1, .campaign = 1, .procs = 1, .submit = 6, .runtime = 2,
	  .start = 8, .end = 10 },
	{ .uid = 2, .campaign = 1, .procs = 2, .submit = 0, .runtime = 40,
	  .start = 5, .end = 45 },
	{ .uid = 1, .campaign = 2, .procs = 4, .submit = 20, .runtime = 0,
	  .start = 20, .end = 20 },
};

START_TEST(test_campaigns)
{
	sim_workload_t w = { .jobs = _jobs, .njobs = 4, .nusers = 2 };
	sim_metrics_t mt;

	ck_assert_int_eq(sim_metrics_compute(&w, 4, &mt), 0);
	ck_assert_uint_eq(mt.ncamps, 3);
	/* u1 c1: flow 10, work 6, LB = max(1.5, 6 - 0 + 2 = 8, 1) = 8 */
	ck_assert_double_eq_tol(mt.camps[0].lower_bound, 8, TOL);
	ck_assert_double_eq_tol(mt.camps[0].stretch, 10.0 / 8, TOL);
	/* u1 c2: flow 0, LB = 1 s: stretch 1, the flow floored as LB (§7) */
	ck_assert_double_eq_tol(mt.camps[1].flow, 0, TOL);
	ck_assert_double_eq_tol(mt.camps[1].stretch, 1, TOL);
	/* u2 c1: flow 45, LB = max(80/4, 40) = 40 */
	ck_assert_double_eq_tol(mt.camps[2].stretch, 45.0 / 40, TOL);
	ck_assert_double_eq_tol(mt.max_stretch, 1.25, TOL);
	ck_assert_double_eq_tol(mt.mean_stretch, (1.25 + 1 + 1.125) / 3, TOL);
	ck_assert_double_eq_tol(mt.share_le_2, 1, TOL);
	ck_assert_double_eq_tol(mt.share_gt_20, 0, TOL);
	ck_assert_double_eq_tol(mt.makespan, 45, TOL);
	ck_assert_double_eq_tol(mt.utilization, 86.0 / (4 * 45), TOL);
	ck_assert_double_eq_tol(mt.mean_wait, (0 + 2 + 5 + 0) / 4.0, TOL);
	/* bsld: 1, max(1,4/10)=1, 45/40, 1 */
	ck_assert_double_eq_tol(mt.mean_bsld, (3 + 45.0 / 40) / 4, TOL);
	/* users' mean stretch (1.25 + 1) / 2 and 1.125: equal, Jain 1 */
	ck_assert_uint_eq(mt.nusers, 2);
	ck_assert_double_eq_tol(mt.users[0].max_stretch, 1.25, TOL);
	ck_assert_double_eq_tol(mt.users[0].mean_stretch, 1.125, TOL);
	ck_assert_double_eq_tol(mt.jain, 1, TOL);
	sim_metrics_free(&mt);
	sim_metrics_free(NULL);
}
END_TEST

/* A campaign of GPU jobs is bounded below by its GPU work over G. */
START_TEST(test_lower_bound_gpus)
{
	sim_job_t jobs[] = {
		{ .uid = 1, .campaign = 1, .procs = 1, .gpus = 2,
		  .submit = 0, .runtime = 10, .start = 0, .end = 10 },
		{ .uid = 1, .campaign = 1, .procs = 1, .gpus = 2,
		  .submit = 0, .runtime = 10, .start = 10, .end = 20 },
	};
	sim_workload_t w = { .jobs = jobs, .njobs = 2, .nusers = 1,
			     .gpus = 2 };
	sim_metrics_t mt;

	ck_assert_int_eq(sim_metrics_compute(&w, 8, &mt), 0);
	ck_assert_double_eq(mt.camps[0].gwork, 40);
	ck_assert_double_eq(mt.camps[0].lower_bound, 20);
	ck_assert_double_eq(mt.camps[0].stretch, 1);
	sim_metrics_free(&mt);
	w.gpus = 0;                /* no GPU term on a machine without */
	ck_assert_int_eq(sim_metrics_compute(&w, 8, &mt), 0);
	ck_assert_double_eq(mt.camps[0].lower_bound, 10);
	sim_metrics_free(&mt);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);
	tcase_add_test(tc, test_campaigns);
	tcase_add_test(tc, test_lower_bound_gpus);
	suite_add_tcase(s, tc);
	return ost_check_run(s);
}
