/*****************************************************************************\
 *  check_order.c - the priority order (§4)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "util.h"

/* Equal F: ties by t_c, then uid, then seq. */
START_TEST(test_order_tie_breaks)
{
	ost_sched_t *s = mk_sched(4, NULL);

	sub(s, 1, 5, 1, 10, 0);	/* F = 10 */
	sub(s, 2, 3, 1, 10, 0);	/* F = 10, smaller uid */
	ck_order(s, 2, 1);
	ost_sched_destroy(s);

	s = mk_sched(4, NULL);
	sub(s, 1, 3, 2, 10, 0);	/* F = 20, t_c = 0 */
	sub(s, 2, 1, 1, 10, 5);	/* v(5)=20? W=1: v = 5*4 = 20: F=30 */
	sub(s, 3, 2, 1, 10, 5);	/* same: F = 30, t_c = 5 */
	ck_order(s, 1, 2, 3);
	ost_sched_destroy(s);
}
END_TEST

static void _intra(ost_config_t *c, ost_intra_t i)
{
	c->intra = i;
}

static void _lpt(ost_config_t *c) { _intra(c, OST_INTRA_LPT); }
static void _spt(ost_config_t *c) { _intra(c, OST_INTRA_SPT); }
static void _fifo(ost_config_t *c) { _intra(c, OST_INTRA_FIFO); }
static void _ljf(ost_config_t *c) { _intra(c, OST_INTRA_LJF); }

/* One campaign: (id, q, e, submit) = 1:(1,5,0) 2:(2,5,1) 3:(4,1,2)
 * 4:(1,9,3) 5:(2,5,1) -- ties on e and q, then submit, then id. */
static ost_sched_t *_five(void (*tweak)(ost_config_t *))
{
	ost_sched_t *s = mk_sched(8, tweak);

	sub(s, 1, 1, 1, 5, 0);
	sub(s, 5, 1, 2, 5, 1);
	sub(s, 2, 1, 2, 5, 1);
	sub(s, 3, 1, 4, 1, 2);
	sub(s, 4, 1, 1, 9, 3);
	return s;
}

START_TEST(test_order_intra)
{
	ost_sched_t *s;
	ost_config_t cfg;

	s = _five(_lpt);
	ck_order(s, 4, 2, 5, 1, 3);	/* longest e, larger q, submit, id */
	ost_sched_destroy(s);
	s = _five(_spt);
	ck_order(s, 3, 2, 5, 1, 4);
	ost_sched_destroy(s);
	s = _five(_fifo);
	ck_order(s, 1, 2, 5, 3, 4);
	ost_sched_destroy(s);
	s = _five(_ljf);
	ck_order(s, 3, 2, 5, 4, 1);
	/* switching the order at run time re-sorts */
	cfg = *ost_sched_config(s);
	cfg.intra = OST_INTRA_FIFO;
	ck_assert_int_eq(ost_sched_reconfigure(s, &cfg, 4), 0);
	ck_order(s, 1, 2, 5, 3, 4);
	cfg.procs = 0;
	ck_assert_int_eq(ost_sched_reconfigure(s, &cfg, 4), -OST_EINVAL);
	ost_sched_destroy(s);
}
END_TEST

/* Ranks follow starts and re-sorts; ost_sched_rank agrees. */
START_TEST(test_order_ranks_after_start)
{
	ost_sched_t *s = mk_sched(4, NULL);
	uint64_t r;

	sub(s, 1, 1, 1, 40, 0);	/* user 1: F = 80 */
	sub(s, 2, 1, 1, 40, 0);
	sub(s, 3, 2, 1, 4, 0);	/* user 2: F = 8 */
	sub(s, 4, 2, 1, 4, 0);
	ck_order(s, 3, 4, 1, 2);
	ck_assert_int_eq(ost_job_start(s, 3, 0), 0);
	ck_assert_int_eq(ost_sched_rank(s, 3, &r), -OST_ESTATE);
	ck_order(s, 4, 1, 2);
	ck_assert_int_eq(ost_job_start(s, 4, 0), 0);
	ck_order(s, 1, 2);
	ost_sched_destroy(s);
}
END_TEST

static void _strict(ost_config_t *c)
{
	c->gate = OST_GATE_STRICT;
	c->capacity = OST_CAPACITY_USED;
}

/* Soft and strict gates both sort a queued campaign after eligible ones;
 * the flag tells the dispatch which may start under strict. */
START_TEST(test_order_gate)
{
	ost_sched_t *s = mk_sched(4, _strict);
	order_t o;
	ost_stats_t st;

	sub_in(s, 1, 1, 4, 10, 0, 1);		/* F = 40 */
	ck_assert_int_eq(ost_job_start(s, 1, 0), 0);
	sub_in(s, 2, 1, 4, 10, 0, 2);		/* S = 40: queued */
	o = order_of(s);
	ck_assert_uint_eq(o.n, 1);
	ck_assert(!o.elig[0]);
	/* nothing eligible waits: C = m even with strict, v moves */
	ost_sched_stats(s, &st);
	ck_assert_double_eq_tol(st.capacity, 4, EPS);
	sub(s, 3, 2, 1, 10, 0);			/* F = 10, eligible */
	ck_order(s, 3, 2);
	o = order_of(s);
	ck_assert(o.elig[0] && !o.elig[1]);
	ost_sched_stats(s, &st);
	ck_assert_double_eq_tol(st.capacity, 4, EPS);	/* busy = 4 */
	ck_assert_int_eq(ost_job_finish(s, 1, 5, 5), 0);	/* F_1 = 20 */
	/* v(5) = 10 (W=2, C=4); user 2 done virtually at v=10 */
	ck_assert_int_eq(ost_job_start(s, 3, 5), 0);
	/* now only the queued campaign waits: C = m, v reaches S = 20 */
	ck_assert_double_eq_tol(ost_sched_next_vevent(s), 7.5, EPS);
	ost_sched_advance(s, 7.5);
	ost_sched_stats(s, &st);
	ck_assert_double_eq_tol(st.vtime, 20, EPS);
	o = order_of(s);
	ck_assert(o.elig[0]);
	ost_sched_destroy(s);
}
END_TEST

/* foreach stops when the visitor says so and returns its value. */
static int _stop_at_two(const ost_rank_info_t *r, void *arg)
{
	(void)arg;
	return r->rank == 2 ? 42 : 0;
}

START_TEST(test_order_foreach_stop)
{
	ost_sched_t *s = _five(_lpt);

	ck_assert_int_eq(ost_sched_foreach_pending(s, _stop_at_two, NULL), 42);
	ost_sched_destroy(s);
}
END_TEST

/* Explain: rank, campaigns ahead and when the campaign reaches the head. */
START_TEST(test_order_explain)
{
	ost_sched_t *s = mk_sched(4, NULL);
	ost_explain_t ex;

	sub(s, 1, 1, 4, 10, 0);	/* user 1: F = 40, C~ = 10 alone */
	sub(s, 2, 2, 4, 2, 2);	/* user 2 (§3 example): C~ = 6 */
	sub(s, 3, 3, 4, 30, 2);	/* user 3: F = 8 + 120 = 128 */
	ck_assert_int_eq(ost_sched_explain(s, 3, 8, &ex), 0);
	ck_assert_uint_eq(ex.rank, 3);
	ck_assert_uint_eq(ex.pending_total, 3);
	ck_assert_uint_eq(ex.n_ahead, 2);
	ck_assert_uint_eq(ex.ahead[0].uid, 2);
	ck_assert_uint_eq(ex.ahead[1].uid, 1);
	ck_assert_double_eq_tol(ex.share, 4.0 / 3.0, EPS);
	{
		double f;

		ck_assert_int_eq(ost_sched_user_share(s, 3, &f), 0);
		ck_assert_double_eq_tol(f, 1.0 / 3.0, EPS);
		ck_assert_int_eq(ost_sched_user_share(s, 9, &f), -OST_ENOENT);
	}
	/* W=3 from t=2 (v=8): v=16 at t=8, then W=2: v=40 at t=20 */
	ck_assert_double_eq_tol(ex.ahead[0].vct, 8, EPS);
	ck_assert_double_eq_tol(ex.ahead[1].vct, 20, EPS);
	ck_assert_double_eq_tol(ex.head_time, 20, EPS);
	/* then alone: 128 - 40 = 88 at rate 4 -> t = 42 */
	ck_assert_double_eq_tol(ex.campaign.vct, 42, EPS);
	ost_explain_free(&ex);
	ck_assert_int_eq(ost_sched_explain(s, 77, 8, &ex), -OST_ENOENT);
	ost_explain_free(NULL);
	ost_sched_destroy(s);
}
END_TEST

/* Every rank of the walk equals the tree's rank of that job. */
static int _walk_matches_tree(const ost_rank_info_t *ri, void *arg)
{
	uint64_t r = 0;

	ck_assert_int_eq(ost_sched_rank(arg, ri->job_id, &r), 0);
	ck_assert_uint_eq(r, ri->rank);
	return 0;
}

/* One campaign of thousands of jobs: the walk (blocks of ids) agrees
 * with the ranks of the tree through inserts, starts, cancels, requeues
 * and an intra-order switch. */
START_TEST(test_order_big_campaign_walk)
{
	enum { N = 3000 };
	ost_sched_t *s = mk_sched(4, NULL);
	ost_config_t cfg;
	uint64_t id, *ids = calloc(N + 1, sizeof(*ids));
	bool *running = calloc(N + 1, sizeof(*running));
	int step;

	srand(4242);
	for (id = 1; id <= N; id++)
		sub(s, id, 1, 1 + rand() % 4, rand() % 50, (double)(id / 100));
	for (step = 0; step < 4000; step++) {
		id = 1 + (uint64_t)(rand() % N);
		if (running[id]) {
			ck_assert_int_eq(ost_job_requeue(s, id, 40), 0);
			running[id] = false;
		} else if (ost_job_get(s, id, &(ost_job_info_t){ 0 }) == 0) {
			if (rand() % 5) {
				ck_assert_int_eq(ost_job_start(s, id, 40), 0);
				running[id] = true;
			} else {
				ck_assert_int_eq(ost_job_cancel(s, id, 40), 0);
			}
		}
		if (step % 500 == 0) {
			if (step == 2000) {
				cfg = *ost_sched_config(s);
				cfg.intra = OST_INTRA_SPT;
				ck_assert_int_eq(ost_sched_reconfigure(s, &cfg,
								       40), 0);
			}
			ck_assert_int_eq(ost_sched_foreach_pending(s,
					 _walk_matches_tree, s), 0);
		}
	}
	free(ids);
	free(running);
	ost_sched_destroy(s);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("order");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);

	tcase_add_test(tc, test_order_tie_breaks);
	tcase_add_test(tc, test_order_intra);
	tcase_add_test(tc, test_order_ranks_after_start);
	tcase_add_test(tc, test_order_gate);
	tcase_add_test(tc, test_order_foreach_stop);
	tcase_add_test(tc, test_order_explain);
	tcase_add_test(tc, test_order_big_campaign_walk);
	suite_add_tcase(s, tc);
	return s;
}

OST_TEST_MAIN
