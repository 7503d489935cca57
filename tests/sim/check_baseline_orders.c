/*****************************************************************************\
 *  check_baseline_orders.c - unit tests of the baseline orders (fcfs, fairshare)
 *  and of the engine-backed order.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <check.h>
#include <stdlib.h>

#include "ck_run.h"
#include "order.h"

struct seen {
	uint32_t job[16];
	size_t n;
	size_t stop_after;
};

static int _collect(uint32_t job, bool eligible, void *arg)
{
	struct seen *s = arg;

	ck_assert(eligible);
	s->job[s->n++] = job;
	return s->stop_after && s->n == s->stop_after;
}

/* users 0 and 1 (uidx), submits increasing with the index */
static sim_job_t _jobs[] = {
	{ .uidx = 0, .procs = 2, .charge = 2, .submit = 0 },
	{ .uidx = 0, .procs = 1, .charge = 1, .submit = 1 },
	{ .uidx = 1, .procs = 1, .charge = 1, .submit = 2 },
	{ .uidx = 0, .procs = 1, .charge = 1, .submit = 3 },
	{ .uidx = 1, .procs = 1, .charge = 1, .submit = 4 },
};
static sim_workload_t _w = { .jobs = _jobs, .njobs = 5, .nusers = 2 };

START_TEST(test_fcfs)
{
	sim_order_t *o = sim_order_create(SIM_POLICY_FCFS, &_w, NULL, 0);
	struct seen s = { .n = 0 };

	for (uint32_t j = 0; j < 5; j++)
		sim_order_submit(o, j, _jobs[j].submit);
	sim_order_start(o, 2, 5);
	ck_assert_int_eq(sim_order_foreach(o, 5, _collect, &s), 0);
	ck_assert_uint_eq(s.n, 4);
	ck_assert_uint_eq(s.job[0], 0);
	ck_assert_uint_eq(s.job[2], 3);
	s = (struct seen) { .stop_after = 2 };
	ck_assert_int_eq(sim_order_foreach(o, 5, _collect, &s), 1);
	ck_assert_uint_eq(s.n, 2);
	sim_order_destroy(o);
}
END_TEST

START_TEST(test_fairshare)
{
	sim_order_t *o = sim_order_create(SIM_POLICY_FAIRSHARE, &_w, NULL,
					  100);
	struct seen s = { .n = 0 };

	for (uint32_t j = 0; j < 5; j++)
		sim_order_submit(o, j, _jobs[j].submit);
	/* no usage yet: submit order */
	sim_order_foreach(o, 4, _collect, &s);
	ck_assert_uint_eq(s.job[0], 0);
	ck_assert_uint_eq(s.job[2], 2);
	/* user 0 runs job 0 (2 CPUs) from 4 to 14: user 1 goes first */
	sim_order_start(o, 0, 4);
	s.n = 0;
	sim_order_foreach(o, 5, _collect, &s);
	ck_assert_uint_eq(s.n, 4);
	ck_assert_uint_eq(s.job[0], 2);
	ck_assert_uint_eq(s.job[1], 4);
	ck_assert_uint_eq(s.job[2], 1);
	/* user 1 uses more than user 0 later: order flips back */
	sim_order_finish(o, 0, 14);
	sim_order_start(o, 2, 14);
	s.n = 0;
	sim_order_foreach(o, 1000, _collect, &s);
	ck_assert_uint_eq(s.job[0], 1);
	ck_assert_uint_eq(s.job[1], 3);
	ck_assert_uint_eq(s.job[2], 4);
	sim_order_destroy(o);
}
END_TEST

/* The walk of fairshare with an age weight visits the jobs in the order
 * of their keys (sim_order_pos: -(F_u + R x age factor)), which
 * interleaves the users: per job, not per user as without age. */
struct walk {
	sim_order_t *o;
	double now;
	uint32_t job[128];
	size_t n;
};

static int _walked(uint32_t job, bool eligible, void *arg)
{
	struct walk *k = arg;

	(void) eligible;
	k->job[k->n++] = job;
	return 0;
}

START_TEST(test_fairshare_age)
{
	static sim_job_t jobs[120];
	sim_workload_t w = { .jobs = jobs, .njobs = 120, .nusers = 6 };
	struct walk k = { .now = 5000 };
	sim_order_pos_t a, b;
	uint32_t seed = 12345, switches = 0;

	for (uint32_t j = 0; j < 120; j++) {
		seed = seed * 1103515245u + 12345u;
		jobs[j] = (sim_job_t) { .uidx = (seed >> 16) % 6, .procs = 1,
					.charge = 1, .submit = 40.0 * j };
	}
	k.o = sim_order_create(SIM_POLICY_FAIRSHARE, &w, NULL, 0);
	ck_assert_ptr_nonnull(k.o);
	ck_assert_int_eq(sim_order_fairshare_age(k.o, 2.0, 3000), 0);
	for (uint32_t j = 0; j < 120; j++)
		sim_order_submit(k.o, j, jobs[j].submit);
	/* usage: some of the early jobs ran */
	for (uint32_t j = 0; j < 12; j++) {
		sim_order_start(k.o, j, jobs[j].submit + 1);
		sim_order_finish(k.o, j, jobs[j].submit + 1 + 30 * (j % 5));
	}
	ck_assert_int_eq(sim_order_foreach(k.o, k.now, _walked, &k), 0);
	ck_assert_uint_eq(k.n, 108);
	for (size_t i = 1; i < k.n; i++) {
		ck_assert_int_eq(sim_order_pos(k.o, k.now, k.job[i - 1], &a), 0);
		ck_assert_int_eq(sim_order_pos(k.o, k.now, k.job[i], &b), 0);
		ck_assert_msg(sim_order_pos_less(&a, &b),
			      "walk %zu: job %u before job %u against the keys",
			      i, k.job[i - 1], k.job[i]);
		switches += jobs[k.job[i - 1]].uidx != jobs[k.job[i]].uidx;
	}
	/* 6 users: grouped by user, 5 switches at most */
	ck_assert_uint_gt(switches, 5);
	/* fairtree has no age factor */
	sim_order_destroy(k.o);
	k.o = sim_order_create(SIM_POLICY_FAIRTREE, &w, NULL, 0);
	ck_assert_int_eq(sim_order_fairshare_age(k.o, 2.0, 3000), -1);
	ck_assert_int_eq(sim_order_fairshare_age(k.o, 0, 3000), 0);
	sim_order_destroy(k.o);
}
END_TEST

START_TEST(test_engine)
{
	ost_config_t cfg;
	ost_sched_t *eng;
	sim_order_t *o;
	struct seen s = { .n = 0 };

	ost_config_init(&cfg);
	cfg.procs = 4;
	eng = ost_sched_create(&cfg);
	ck_assert_ptr_nonnull(eng);
	o = sim_order_create(SIM_POLICY_OSTRICH, &_w, eng, 0);
	for (uint32_t j = 0; j < 3; j++) {
		ost_job_desc_t d = { .id = j + 1, .uid = _jobs[j].uidx + 1,
				     .procs = 1, .estimate = 10 };
		ck_assert_int_eq(ost_job_submit(eng, &d, _jobs[j].submit, NULL),
				 0);
	}
	ck_assert_int_eq(sim_order_foreach(o, 2, _collect, &s), 0);
	ck_assert_uint_eq(s.n, 3);
	/* user 2's small campaign finishes first virtually */
	ck_assert_uint_eq(s.job[0], 2);
	sim_order_destroy(o);
	ost_sched_destroy(eng);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("order");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);
	tcase_add_test(tc, test_fcfs);
	tcase_add_test(tc, test_fairshare);
	tcase_add_test(tc, test_fairshare_age);
	tcase_add_test(tc, test_engine);
	suite_add_tcase(s, tc);
	return ost_check_run(s);
}
