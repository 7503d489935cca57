/*****************************************************************************\
 *  check_events.c - what a host learns after submission: a pending job
 *  resized, a start on another width, a runtime to bound, a clock stepped
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdio.h>
#include <string.h>

#include "util.h"

static void _faircamp(ost_config_t *c)
{
	c->mode = OST_MODE_FAIRCAMP;
}

static void _lpt_used(ost_config_t *c)
{
	c->capacity = OST_CAPACITY_USED;
	c->intra = OST_INTRA_LPT;
	c->think_time = 60;
}

static char *_save(const ost_sched_t *s)
{
	char *buf = NULL;
	size_t len = 0;

	ck_assert_int_eq(ost_sched_save(s, &buf, &len), 0);
	return buf;
}

/* s saves as `before` did (the errors since changed nothing); frees
 * before and destroys s. */
static void _unchanged_destroy(ost_sched_t *s, char *before)
{
	char *after = _save(s);

	ck_assert_str_eq(before, after);
	free(before);
	free(after);
	ost_sched_destroy(s);
}

/* Campaign (uid, seq) of a and b have the same tags, area and deadline. */
static void _same_campaign(const ost_sched_t *a, const ost_sched_t *b,
			   uint32_t uid, uint32_t seq)
{
	ost_campaign_info_t x = camp(a, uid, seq), y = camp(b, uid, seq);

	ck_assert_msg(x.vstart == y.vstart && x.vfinish == y.vfinish &&
		      x.area == y.area && x.deadline == y.deadline,
		      "campaign %u/%u: S %g/%g F %g/%g A %g/%g D %g/%g", uid,
		      seq, x.vstart, y.vstart, x.vfinish, y.vfinish, x.area,
		      y.area, x.deadline, y.deadline);
}

/* A pending job widened from 1 to 8 CPUs ranks, and is charged, as the
 * 8-CPU job it now is: same tags as one submitted 8 wide, behind a 4-CPU
 * job it was ahead of. */
START_TEST(test_update_widened_job_ranks_and_pays_wide)
{
	ost_sched_t *a = mk_sched(8, NULL), *b = mk_sched(8, NULL);
	ost_job_info_t ji;

	sub(a, 1, 1, 1, 100, 0);
	sub(a, 2, 2, 4, 100, 0);
	ck_order(a, 1, 2);
	ck_assert_int_eq(ost_job_update(a, 1, 8, 100, 10), 0);
	ck_order(a, 2, 1);
	ck_assert_int_eq(ost_job_get(a, 1, &ji), 0);
	ck_assert_uint_eq(ji.procs, 8);
	sub(b, 1, 1, 8, 100, 0);
	sub(b, 2, 2, 4, 100, 0);
	ost_sched_advance(b, 10);
	_same_campaign(a, b, 1, 1);
	ck_assert_double_eq(camp(a, 1, 1).area, 800);
	/* the finish charges 8 CPUs */
	ck_assert_int_eq(ost_job_start(a, 1, 20), 0);
	ck_assert_int_eq(ost_job_start(b, 1, 20), 0);
	ck_assert_int_eq(ost_job_finish(a, 1, 70, 50), 0);
	ck_assert_int_eq(ost_job_finish(b, 1, 70, 50), 0);
	_same_campaign(a, b, 1, 1);
	ck_assert_double_eq(camp(a, 1, 1).area, 400);
	ost_sched_destroy(a);
	ost_sched_destroy(b);
}
END_TEST

/* Every task of an array widened one by one (as one update RPC reaches
 * the core) equals the array submitted wide. */
START_TEST(test_update_whole_array)
{
	ost_sched_t *a = mk_sched(64, NULL), *b = mk_sched(64, NULL);
	uint64_t id;

	for (id = 1; id <= 10; id++) {
		ost_job_desc_t d = { .id = id, .uid = 1, .procs = 1,
				     .estimate = 60, .group = 77 };

		ck_assert_int_eq(ost_job_submit(a, &d, 0, NULL), 0);
		d.procs = 4;
		ck_assert_int_eq(ost_job_submit(b, &d, 0, NULL), 0);
	}
	for (id = 1; id <= 10; id++)
		ck_assert_int_eq(ost_job_update(a, id, 4, 60, 5), 0);
	ost_sched_advance(b, 5);
	_same_campaign(a, b, 1, 1);
	ck_assert_double_eq(camp(a, 1, 1).area, 2400);
	ost_sched_destroy(a);
	ost_sched_destroy(b);
}
END_TEST

/* A longer time limit re-places the job in the intra order (LPT), a
 * narrower job gives its area back, and the clock moves as for any
 * event. */
START_TEST(test_update_estimate_and_shrink)
{
	ost_sched_t *s = mk_sched(16, _lpt_used);

	sub(s, 1, 1, 2, 10, 0);
	sub(s, 2, 1, 2, 20, 0);
	ck_order(s, 2, 1);
	ck_assert_int_eq(ost_job_update(s, 1, 2, 30, 1), 0);
	ck_order(s, 1, 2);
	ck_assert_double_eq(camp(s, 1, 1).area, 100);
	ck_assert_int_eq(ost_job_update(s, 1, 1, 30, 2), 0);
	ck_assert_double_eq(camp(s, 1, 1).area, 70);
	ck_assert_double_eq(ost_sched_now(s), 2);
	/* unchanged values: only the clock moves */
	ck_assert_int_eq(ost_job_update(s, 2, 2, 20, 3), 0);
	ck_assert_double_eq(camp(s, 1, 1).area, 70);
	ck_assert_double_eq(ost_sched_now(s), 3);
	ost_sched_destroy(s);
}
END_TEST

/* FairCamp: the deadline follows the announced work, max e included, and
 * comes back when the estimate shrinks again. */
START_TEST(test_update_faircamp_deadline)
{
	ost_sched_t *s = mk_sched(100, _faircamp);

	sub(s, 1, 1, 1, 10, 0);
	ck_assert_double_eq(camp(s, 1, 1).deadline, 10);
	ck_assert_int_eq(ost_job_update(s, 1, 1, 50, 0), 0);
	ck_assert_double_eq(camp(s, 1, 1).deadline, 50);
	ck_assert_int_eq(ost_job_update(s, 1, 1, 5, 0), 0);
	ck_assert_double_eq(camp(s, 1, 1).deadline, 5);
	/* area term: 100 CPUs x 20 s over m = 100 -> 20 */
	ck_assert_int_eq(ost_job_update(s, 1, 100, 20, 0), 0);
	ck_assert_double_eq(camp(s, 1, 1).deadline, 20);
	ost_sched_destroy(s);
}
END_TEST

/* Growth of a pending job in a virtually complete campaign counts like a
 * new job joining it (§3): the campaign restarts at v, and its user is
 * active again. */
START_TEST(test_update_restarts_complete_campaign)
{
	ost_sched_t *s = mk_sched(1, NULL);
	ost_campaign_info_t c;
	ost_stats_t st;

	sub(s, 1, 1, 1, 10, 0);
	sub(s, 2, 1, 1, 10, 0);
	sub(s, 3, 2, 1, 1000, 0);
	ost_sched_advance(s, 60);	/* v = 20 at t = 40, then 40 */
	ost_sched_stats(s, &st);
	ck_assert_double_eq(st.vtime, 40);
	ck_assert_uint_eq(st.active_users, 1);
	ck_assert_int_eq(ost_job_update(s, 2, 1, 15, 60), 0);
	c = camp(s, 1, 1);
	ck_assert_double_eq(c.vstart, 40);
	ck_assert_double_eq(c.vfinish, 45);
	ost_sched_stats(s, &st);
	ck_assert_uint_eq(st.active_users, 2);
	/* shrinking is a correction: F moves back, never below S */
	ck_assert_int_eq(ost_job_update(s, 2, 1, 1, 60), 0);
	c = camp(s, 1, 1);
	ck_assert_double_eq(c.vstart, 40);
	ck_assert_double_eq(c.vfinish, 40);
	ost_sched_destroy(s);
}
END_TEST

/* Bad values, unknown and running jobs: an error and nothing changed. */
START_TEST(test_update_errors)
{
	ost_sched_t *s = mk_sched(8, NULL);
	char *before;

	sub(s, 1, 1, 2, 10, 0);
	sub(s, 2, 1, 2, 10, 0);
	ck_assert_int_eq(ost_job_start(s, 2, 1), 0);
	before = _save(s);
	ck_assert_int_eq(ost_job_update(s, 1, 0, 10, 5), -OST_EINVAL);
	ck_assert_int_eq(ost_job_update(s, 1, 2, -1, 5), -OST_EINVAL);
	ck_assert_int_eq(ost_job_update(s, 1, 2, NAN, 5), -OST_EINVAL);
	ck_assert_int_eq(ost_job_update(s, 1, 2, INFINITY, 5), -OST_EINVAL);
	ck_assert_int_eq(ost_job_update(s, 1, 2, 10, NAN), -OST_EINVAL);
	ck_assert_int_eq(ost_job_update(s, 9, 2, 10, 5), -OST_ENOENT);
	ck_assert_int_eq(ost_job_update(s, 0, 2, 10, 5), -OST_ENOENT);
	ck_assert_int_eq(ost_job_update(s, 2, 4, 10, 5), -OST_ESTATE);
	ck_assert_int_eq(ost_job_start_alloc(s, 1, 5, 0), -OST_EINVAL);
	ck_assert_int_eq(ost_job_start_alloc(s, 9, 5, 2), -OST_ENOENT);
	ck_assert_int_eq(ost_job_start_alloc(s, 2, 5, 2), -OST_ESTATE);
	ck_assert_int_eq(ost_job_finish_capped(s, 2, 5, 1, -1, NULL),
			 -OST_EINVAL);
	ck_assert_int_eq(ost_job_finish_capped(s, 2, 5, 1, NAN, NULL),
			 -OST_EINVAL);
	ck_assert_int_eq(ost_job_finish_capped(s, 2, NAN, 1, 1, NULL),
			 -OST_EINVAL);
	ck_assert_int_eq(ost_job_finish_capped(s, 2, 5, -1, 1, NULL),
			 -OST_EINVAL);
	ck_assert_int_eq(ost_job_finish_capped(s, 9, 5, 1, 1, NULL),
			 -OST_ENOENT);
	ck_assert_int_eq(ost_sched_rebase(s, NAN), -OST_EINVAL);
	ck_assert_int_eq(ost_sched_rebase(s, INFINITY), -OST_EINVAL);
	_unchanged_destroy(s, before);
}
END_TEST

/* The events on one known job (start, start_alloc, update, cancel,
 * requeue) test the same things in the same order: the time (even for an
 * unknown id), then the id (0 included), then the job's state; an error
 * changes nothing. */
START_TEST(test_job_event_prologue)
{
	ost_sched_t *s = mk_sched(8, NULL);
	const uint64_t unknown[] = { 0, 9 };
	char *before;

	sub(s, 1, 1, 2, 10, 0);
	sub(s, 2, 1, 2, 10, 0);
	ck_assert_int_eq(ost_job_start(s, 2, 1), 0);
	before = _save(s);
	ck_assert_int_eq(ost_job_start(s, 9, NAN), -OST_EINVAL);
	ck_assert_int_eq(ost_job_start_alloc(s, 9, INFINITY, 2), -OST_EINVAL);
	ck_assert_int_eq(ost_job_update(s, 9, 2, 10, NAN), -OST_EINVAL);
	ck_assert_int_eq(ost_job_cancel(s, 9, NAN), -OST_EINVAL);
	ck_assert_int_eq(ost_job_requeue(s, 9, -INFINITY), -OST_EINVAL);
	for (int i = 0; i < 2; i++) {
		uint64_t id = unknown[i];

		ck_assert_int_eq(ost_job_start(s, id, 5), -OST_ENOENT);
		ck_assert_int_eq(ost_job_start_alloc(s, id, 5, 2), -OST_ENOENT);
		ck_assert_int_eq(ost_job_update(s, id, 2, 10, 5), -OST_ENOENT);
		ck_assert_int_eq(ost_job_cancel(s, id, 5), -OST_ENOENT);
		ck_assert_int_eq(ost_job_requeue(s, id, 5), -OST_ENOENT);
	}
	ck_assert_int_eq(ost_job_start(s, 2, 5), -OST_ESTATE);
	ck_assert_int_eq(ost_job_start_alloc(s, 2, 5, 2), -OST_ESTATE);
	ck_assert_int_eq(ost_job_update(s, 2, 2, 10, 5), -OST_ESTATE);
	ck_assert_int_eq(ost_job_cancel(s, 2, 5), -OST_ESTATE);
	ck_assert_int_eq(ost_job_requeue(s, 1, 5), -OST_ESTATE);
	_unchanged_destroy(s, before);
}
END_TEST

/* A job given more CPUs at start than it asked for is charged, counted
 * busy and tagged at the allocated width, as if submitted that wide. */
START_TEST(test_start_alloc_charges_allocated)
{
	ost_sched_t *a = mk_sched(16, _lpt_used), *b = mk_sched(16, _lpt_used);
	ost_job_info_t ji;
	ost_stats_t st;

	sub(a, 1, 1, 2, 100, 0);
	sub(a, 2, 2, 2, 100, 0);
	sub(b, 1, 1, 8, 100, 0);
	sub(b, 2, 2, 2, 100, 0);
	ck_assert_int_eq(ost_job_start_alloc(a, 1, 0, 8), 0);
	ck_assert_int_eq(ost_job_start(b, 1, 0), 0);
	ck_assert_int_eq(ost_job_get(a, 1, &ji), 0);
	ck_assert_uint_eq(ji.procs, 8);
	ost_sched_stats(a, &st);
	ck_assert_uint_eq(st.busy_procs, 8);
	_same_campaign(a, b, 1, 1);
	ck_assert_int_eq(ost_job_finish(a, 1, 50, 50), 0);
	ck_assert_int_eq(ost_job_finish(b, 1, 50, 50), 0);
	_same_campaign(a, b, 1, 1);
	_same_campaign(a, b, 2, 1);
	ck_assert_double_eq(camp(a, 1, 1).area, 400);
	/* the requested width is what ost_job_start charges */
	sub(a, 3, 3, 2, 10, 60);
	ck_assert_int_eq(ost_job_start(a, 3, 60), 0);
	ck_assert_int_eq(ost_job_finish(a, 3, 70, 10), 0);
	ck_assert_double_eq(camp(a, 3, 1).area, 20);
	/* narrower than asked: the area shrinks */
	sub(a, 4, 4, 4, 10, 80);
	ck_assert_int_eq(ost_job_start_alloc(a, 4, 80, 1), 0);
	ck_assert_double_eq(camp(a, 4, 1).area, 10);
	ost_sched_destroy(a);
	ost_sched_destroy(b);
}
END_TEST

/* A running job's width survives a requeue: pending again at the width it
 * ran with, the 10 s it ran on 6 CPUs paid (§9.4). */
START_TEST(test_start_alloc_requeue)
{
	ost_sched_t *s = mk_sched(16, NULL);
	ost_job_info_t ji;

	sub(s, 1, 1, 2, 100, 0);
	ck_assert_int_eq(ost_job_start_alloc(s, 1, 0, 6), 0);
	ck_assert_int_eq(ost_job_requeue(s, 1, 10), 0);
	ck_assert_int_eq(ost_job_get(s, 1, &ji), 0);
	ck_assert_uint_eq(ji.procs, 6);
	ck_assert_double_eq(camp(s, 1, 1).area, 600 + 60);
	ck_assert_int_eq(ost_job_update(s, 1, 2, 100, 11), 0);
	ck_assert_double_eq(camp(s, 1, 1).area, 200 + 60);
	ost_sched_destroy(s);
}
END_TEST

/* A 1-hour job finished after 90 days of downtime is charged its time
 * limit; without a limit, the time since its start; a finish before the
 * start (stepped clock) keeps the reported runtime. */
START_TEST(test_finish_capped)
{
	ost_sched_t *s = mk_sched(8, NULL);
	ost_job_info_t ji;
	double p = -1;

	sub(s, 1, 1, 2, 3600, 0);
	ck_assert_int_eq(ost_job_start(s, 1, 100), 0);
	ck_assert_int_eq(ost_job_finish_capped(s, 1, 100 + 90 * 86400.0,
					       90 * 86400.0, 3600, &p), 0);
	ck_assert_double_eq(p, 3600);
	ck_assert_double_eq(camp(s, 1, 1).area, 2 * 3600);

	sub(s, 2, 2, 1, 1000, 0);
	ck_assert_int_eq(ost_job_start(s, 2, 100), 0);
	ck_assert_int_eq(ost_job_finish_capped(s, 2, 300, 500, INFINITY, &p),
			 0);
	ck_assert_double_eq(p, 200);
	ck_assert_double_eq(camp(s, 2, 1).area, 200);

	sub(s, 3, 3, 1, 1000, 400);
	ck_assert_int_eq(ost_job_start(s, 3, 400), 0);
	ck_assert_int_eq(ost_job_finish_capped(s, 3, 350, 30, 1000, &p), 0);
	ck_assert_double_eq(p, 30);
	ck_assert_double_eq(camp(s, 3, 1).area, 30);

	sub(s, 4, 4, 4, 100, 500);	/* pending: cancelled, charged 0 */
	ck_assert_int_eq(ost_job_finish_capped(s, 4, 600, 50, 100, &p), 0);
	ck_assert_double_eq(p, 0);
	ck_assert_int_eq(ost_job_get(s, 4, &ji), -OST_ENOENT);
	ost_sched_destroy(s);
}
END_TEST

/* Twin schedulers with one history at realistic epoch seconds; one is
 * rebased by delta (a clock stepped back), then both see the same further
 * events, the rebased one at times shifted by delta.  Virtual observables
 * must be identical, real ones shifted by exactly delta. */
static void _twin_history(ost_sched_t *s, double t0)
{
	ost_job_desc_t d = { .id = 50, .uid = 4, .procs = 2, .estimate = 70,
			     .group = 9 };

	ck_assert_int_eq(ost_user_set_weight(s, 2, 3, t0), 0);
	sub(s, 1, 1, 4, 100, t0);
	sub(s, 2, 2, 2, 300, t0 + 1);
	sub(s, 3, 3, 8, 20, t0 + 2);
	sub(s, 4, 1, 1, 50, t0 + 2);
	ck_assert_int_eq(ost_job_submit(s, &d, t0 + 3, NULL), 0);
	ck_assert_int_eq(ost_job_start(s, 1, t0 + 5), 0);
	ck_assert_int_eq(ost_job_start(s, 3, t0 + 5), 0);
	ck_assert_int_eq(ost_job_finish(s, 3, t0 + 25, 20), 0);
	sub(s, 7, 5, 1, 5, t0 + 150);
	ck_assert_int_eq(ost_job_start(s, 7, t0 + 150), 0);
	ck_assert_int_eq(ost_job_finish(s, 7, t0 + 155, 5), 0);
	sub(s, 5, 3, 2, 40, t0 + 200);
}

static void _twin_compare(const ost_sched_t *a, const ost_sched_t *b,
			  double delta)
{
	uint32_t uids[] = { 1, 2, 3, 4 }, seqs[] = { 1, 1, 2, 1 }, i;
	order_t oa = order_of(a), ob = order_of(b);
	ost_stats_t sa, sb;

	ost_sched_stats(a, &sa);
	ost_sched_stats(b, &sb);
	ck_assert_msg(sa.vtime == sb.vtime && sa.now + delta == sb.now,
		      "v %a/%a now %a/%a", sa.vtime, sb.vtime, sa.now, sb.now);
	ck_assert_uint_eq(oa.n, ob.n);
	for (i = 0; i < oa.n; i++)
		ck_assert_uint_eq(oa.ids[i], ob.ids[i]);
	for (i = 0; i < 4; i++) {
		ost_campaign_info_t x = camp(a, uids[i], seqs[i]);
		ost_campaign_info_t y = camp(b, uids[i], seqs[i]);

		ck_assert_msg(x.vstart == y.vstart && x.vfinish == y.vfinish &&
			      x.area == y.area && x.vstate == y.vstate &&
			      x.eligible == y.eligible &&
			      x.submit + delta == y.submit &&
			      x.deadline + delta == y.deadline &&
			      x.first_rank == y.first_rank,
			      "campaign %u/%u differs after rebase", uids[i],
			      seqs[i]);
	}
}

static void _test_rebase(ost_mode_t mode)
{
	ost_config_t cfg;
	ost_sched_t *a, *b;
	const double t0 = 1795000000.0, delta = -86400.0;
	ost_job_info_t ja, jb;

	ost_config_init(&cfg);
	cfg.procs = 16;
	cfg.mode = mode;
	cfg.think_time = 120;
	a = ost_sched_create(&cfg);
	b = ost_sched_create(&cfg);
	_twin_history(a, t0);
	_twin_history(b, t0);
	ck_assert_int_eq(ost_sched_rebase(b, 0), 0);
	_twin_compare(a, b, 0);
	ck_assert_int_eq(ost_sched_rebase(b, delta), 0);
	_twin_compare(a, b, delta);
	ck_assert_int_eq(ost_job_get(a, 1, &ja), 0);
	ck_assert_int_eq(ost_job_get(b, 1, &jb), 0);
	ck_assert(ja.start + delta == jb.start &&
		  ja.submit + delta == jb.submit);
	/* the same elapsed real time gives the same virtual progress */
	ost_sched_advance(a, t0 + 260);
	ost_sched_advance(b, t0 + 260 + delta);
	_twin_compare(a, b, delta);
	/* and the same events the same schedule, grouping included: think
	 * time is measured from the shifted E_c (145 s > tau after user 5's
	 * last finish: a new campaign in both) */
	sub(a, 6, 3, 1, 10, t0 + 300);
	sub(b, 6, 3, 1, 10, t0 + 300 + delta);
	ck_assert_uint_eq(sub(a, 8, 5, 1, 10, t0 + 300), 2);
	ck_assert_uint_eq(sub(b, 8, 5, 1, 10, t0 + 300 + delta), 2);
	ck_assert_int_eq(ost_job_finish(a, 1, t0 + 400, 90), 0);
	ck_assert_int_eq(ost_job_finish(b, 1, t0 + 400 + delta, 90), 0);
	ck_assert_int_eq(ost_job_start(a, 2, t0 + 400), 0);
	ck_assert_int_eq(ost_job_start(b, 2, t0 + 400 + delta), 0);
	_twin_compare(a, b, delta);
	ost_sched_destroy(a);
	ost_sched_destroy(b);
}

START_TEST(test_rebase_ostrich)
{
	_test_rebase(OST_MODE_OSTRICH);
}
END_TEST

START_TEST(test_rebase_faircamp)
{
	_test_rebase(OST_MODE_FAIRCAMP);
}
END_TEST

/* The stall itself: after a forward jump of a day, a clock corrected back
 * leaves v frozen; a rebase to the corrected time lets it move at once. */
START_TEST(test_rebase_unfreezes_virtual_time)
{
	ost_sched_t *s = mk_sched(4, NULL);
	const double t0 = 1795000000.0;
	ost_stats_t st;
	double v;

	sub(s, 1, 1, 4, 1e6, t0);
	sub(s, 2, 2, 4, 1e6, t0);
	ost_sched_advance(s, t0 + 86400 + 10);	/* the jump */
	ost_sched_stats(s, &st);
	v = st.vtime;
	ost_sched_advance(s, t0 + 20);		/* corrected clock */
	ost_sched_stats(s, &st);
	ck_assert_double_eq(st.vtime, v);	/* frozen */
	ck_assert(t0 + 20 < ost_sched_now(s));
	ck_assert_int_eq(ost_sched_rebase(s, (t0 + 20) - ost_sched_now(s)),
			 0);
	ck_assert_double_eq(ost_sched_now(s), t0 + 20);
	ost_sched_advance(s, t0 + 30);
	ost_sched_stats(s, &st);
	ck_assert_double_eq(st.vtime, v + 10 * 4 / 2.0);
	ost_sched_destroy(s);
}
END_TEST

/* Updated widths, allocated widths and rebased times survive a save and
 * a load, and the loaded scheduler goes on identically. */
START_TEST(test_state_round_trip_after_events)
{
	ost_sched_t *a = mk_sched(16, _lpt_used), *b = NULL;
	char err[256], *s1, *s2;
	size_t l1;
	ost_job_info_t ji;

	sub(a, 1, 1, 1, 100, 1000);
	sub(a, 2, 1, 2, 100, 1000);
	sub(a, 3, 2, 1, 10, 1001);
	ck_assert_int_eq(ost_job_update(a, 1, 8, 200, 1002), 0);
	ck_assert_int_eq(ost_job_start_alloc(a, 2, 1003, 6), 0);
	ck_assert_int_eq(ost_sched_rebase(a, -500), 0);
	ck_assert_int_eq(ost_sched_save(a, &s1, &l1), 0);
	ck_assert_int_eq(ost_sched_load(s1, l1, &b, err, sizeof(err)), 0);
	s2 = _save(b);
	ck_assert_str_eq(s1, s2);
	ck_assert_int_eq(ost_job_get(b, 1, &ji), 0);
	ck_assert(ji.procs == 8 && ji.estimate == 200 && ji.submit == 500);
	ck_assert_int_eq(ost_job_get(b, 2, &ji), 0);
	ck_assert(ji.procs == 6 && ji.start == 503);
	_same_campaign(a, b, 1, 1);
	_same_campaign(a, b, 2, 1);
	ck_assert_int_eq(ost_job_finish(a, 2, 600, 97), 0);
	ck_assert_int_eq(ost_job_finish(b, 2, 600, 97), 0);
	_same_campaign(a, b, 1, 1);
	ck_assert_double_eq(camp(b, 1, 1).area, 8 * 200 + 6 * 97);
	free(s1);
	free(s2);
	ost_sched_destroy(a);
	ost_sched_destroy(b);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("events");
	TCase *u = ost_tcase("Update", OST_TIMEOUT_LIGHT);
	TCase *a = ost_tcase("Allocation", OST_TIMEOUT_LIGHT);
	TCase *r = ost_tcase("Rebase", OST_TIMEOUT_LIGHT);

	tcase_add_test(u, test_update_widened_job_ranks_and_pays_wide);
	tcase_add_test(u, test_update_whole_array);
	tcase_add_test(u, test_update_estimate_and_shrink);
	tcase_add_test(u, test_update_faircamp_deadline);
	tcase_add_test(u, test_update_restarts_complete_campaign);
	tcase_add_test(u, test_update_errors);
	tcase_add_test(u, test_job_event_prologue);
	tcase_add_test(a, test_start_alloc_charges_allocated);
	tcase_add_test(a, test_start_alloc_requeue);
	tcase_add_test(a, test_finish_capped);
	tcase_add_test(r, test_rebase_ostrich);
	tcase_add_test(r, test_rebase_faircamp);
	tcase_add_test(r, test_rebase_unfreezes_virtual_time);
	tcase_add_test(r, test_state_round_trip_after_events);
	suite_add_tcase(s, u);
	suite_add_tcase(s, a);
	suite_add_tcase(s, r);
	return s;
}

OST_TEST_MAIN
