/*****************************************************************************\
 *  check_overdue.c - §27: the pending work of a campaign complete in V
 *  rejoins V (Overdue=restart), against §9.9's default on the same events
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdlib.h>
#include <string.h>

#include "util.h"

static void _restart(ost_config_t *c) { c->overdue = OST_OVERDUE_RESTART; }

static void _ck_tags(const ost_sched_t *s, uint32_t uid, uint32_t seq,
		     double S, double F)
{
	ost_campaign_info_t c = camp(s, uid, seq);

	ck_assert_double_eq_tol(c.vstart, S, EPS);
	ck_assert_double_eq_tol(c.vfinish, F, EPS);
}

static double _v(ost_sched_t *s, double t)
{
	ost_stats_t st;

	ck_assert_int_eq(ost_sched_advance(s, t), 0);
	ost_sched_stats(s, &st);
	return st.vtime;
}

/* m = 4, capacity full.  At t = 0 user 1 submits two jobs of 4 CPUs x
 * 10 s (L 80, F 80) and user 2 one of 4 x 100 s (F 400), which R runs
 * first.  W = 2, so v = 2t reaches 80 at t = 40 with user 1's jobs still
 * pending.  rank (§9.9): user 1 leaves W, its campaign keeps F 80 and
 * ranks first; v = 84 at t = 41, so user 3's 4 x 5 s job (area 20) gets
 * F 104 and ranks after user 1's.  restart (§27): user 1's 80 CPU-s
 * rejoin at v = 80 (S 80, F 160) and it stays in W: v = 82 at t = 41,
 * user 3's F is 102 and ranks first.  Then, nothing starting, user 3's
 * F 102 is reached at t = 56 (W = 3) and it rejoins once (F 122); at
 * v = 122 and at v = 160 (t = 71, 90) the two are overdue a second time
 * and keep their F: no second rejoin. */
START_TEST(test_overdue_worked)
{
	ost_sched_t *r = mk_sched(4, NULL), *s = mk_sched(4, _restart);
	ost_sched_t *x[2] = { r, s };

	for (int i = 0; i < 2; i++) {
		sub(x[i], 1, 1, 4, 10, 0);
		sub(x[i], 2, 1, 4, 10, 0);
		sub(x[i], 3, 2, 4, 100, 0);
		ck_assert_int_eq(ost_job_start(x[i], 3, 0), 0);
		ck_order(x[i], 1, 2);
		ck_assert_double_eq_tol(_v(x[i], 40), 80, EPS);
	}
	_ck_tags(r, 1, 1, 0, 80);
	_ck_tags(s, 1, 1, 80, 160);
	ck_assert_double_eq_tol(_v(r, 41), 84, EPS);
	ck_assert_double_eq_tol(_v(s, 41), 82, EPS);
	sub(r, 4, 3, 4, 5, 41);
	sub(s, 4, 3, 4, 5, 41);
	_ck_tags(r, 3, 1, 84, 104);
	_ck_tags(s, 3, 1, 82, 102);
	ck_order(r, 1, 2, 4);
	ck_order(s, 4, 1, 2);
	/* once: 102 reached at t = 56, 122 at 71, 160 at 90 */
	ck_assert_double_eq_tol(_v(s, 56), 102, EPS);
	_ck_tags(s, 3, 1, 102, 122);
	ck_assert_double_eq_tol(_v(s, 71), 122, EPS);
	ck_assert_double_eq_tol(_v(s, 90), 160, EPS);
	ck_assert_double_eq_tol(_v(s, 91), 164, EPS);	/* user 2 alone */
	_ck_tags(s, 3, 1, 102, 122);
	_ck_tags(s, 1, 1, 80, 160);
	ck_order(s, 4, 1, 2);
	ost_sched_destroy(r);
	ost_sched_destroy(s);
}
END_TEST

/* A campaign made complete by an event rejoins when the clock next
 * moves, with what is pending then: at t = 30 (v = 60) cancelling job 2
 * leaves L 40, F 40 <= v with job 1 pending; it rejoins at v = 60 when
 * the clock moves (S 60, F 100), so W stays 2 (v = 62 at t = 31).  If
 * job 1 is cancelled in the same instant, nothing is pending and the
 * campaign does not rejoin: F = S = 0 and v = 64 at t = 31. */
START_TEST(test_overdue_event_instant)
{
	for (int both = 0; both < 2; both++) {
		ost_sched_t *s = mk_sched(4, _restart);

		sub(s, 1, 1, 4, 10, 0);
		sub(s, 2, 1, 4, 10, 0);
		sub(s, 3, 2, 4, 100, 0);
		ck_assert_int_eq(ost_job_start(s, 3, 0), 0);
		ck_assert_double_eq_tol(_v(s, 30), 60, EPS);
		ck_assert_int_eq(ost_job_cancel(s, 2, 30), 0);
		if (both) {
			ck_assert_int_eq(ost_job_cancel(s, 1, 30), 0);
			_ck_tags(s, 1, 1, 0, 0);
		} else {
			_ck_tags(s, 1, 1, 0, 40);	/* overdue until then */
			ck_order(s, 1);
		}
		ck_assert_double_eq_tol(_v(s, 31), both ? 64 : 62, EPS);
		if (!both)
			_ck_tags(s, 1, 1, 60, 100);
		ost_sched_destroy(s);
	}
}
END_TEST

/* A join restarts the campaign (§3.4) and allows one more rejoin. */
START_TEST(test_overdue_join_rearms)
{
	ost_sched_t *s = mk_sched(4, _restart);

	sub(s, 1, 1, 4, 10, 0);
	sub(s, 3, 2, 4, 1000, 0);
	ck_assert_int_eq(ost_job_start(s, 3, 0), 0);
	/* F 40 at t = 20: rejoins, F 80; at t = 40 overdue again: stays */
	ck_assert_double_eq_tol(_v(s, 40), 80, EPS);
	_ck_tags(s, 1, 1, 40, 80);
	ck_assert_double_eq_tol(_v(s, 41), 84, EPS);
	/* a join finds it complete in V: restarts at 84 with its own area */
	sub(s, 2, 1, 4, 10, 41);
	_ck_tags(s, 1, 1, 84, 124);
	/* v: 84 at 41, W = 2: 124 at t = 61; rejoins with both jobs (80) */
	ck_assert_double_eq_tol(_v(s, 61), 124, EPS);
	_ck_tags(s, 1, 1, 124, 204);
	ost_sched_destroy(s);
}
END_TEST

/* The state keeps what the rules derive from (version 4): saved at
 * t = 41 in the worked example, a copy goes on exactly as the original,
 * user 1's campaign does not rejoin a second time at v = 160, and the
 * file reloads to the same bytes. */
START_TEST(test_overdue_state)
{
	ost_sched_t *s = mk_sched(4, _restart), *r = NULL;
	char *buf, *buf2, err[128];
	size_t len, len2;

	sub(s, 1, 1, 4, 10, 0);
	sub(s, 2, 1, 4, 10, 0);
	sub(s, 3, 2, 4, 100, 0);
	ck_assert_int_eq(ost_job_start(s, 3, 0), 0);
	sub(s, 4, 3, 4, 5, 41);
	ck_assert_int_eq(ost_sched_save(s, &buf, &len), 0);
	ck_assert_msg(!strncmp(buf, "ostrich-state 4\n", 16), "%.20s", buf);
	ck_assert_ptr_nonnull(strstr(buf, " overdue=restart"));
	ck_assert_ptr_nonnull(strstr(buf, " rejoined=1"));
	ck_assert_int_eq(ost_sched_load(buf, len, &r, err, sizeof(err)), 0);
	ck_assert_int_eq(ost_sched_save(r, &buf2, &len2), 0);
	ck_assert_uint_eq(len, len2);
	ck_assert(!memcmp(buf, buf2, len));
	ck_order(r, 4, 1, 2);
	ck_assert_double_eq_tol(_v(r, 56), 102, EPS);
	_ck_tags(r, 3, 1, 102, 122);
	ck_assert_double_eq_tol(_v(r, 90), 160, EPS);
	ck_assert_double_eq_tol(_v(r, 91), 164, EPS);	/* no second rejoin */
	_ck_tags(r, 1, 1, 80, 160);
	free(buf);
	free(buf2);
	/* the defaults write the lowest version that holds them */
	ost_sched_destroy(r);
	ost_sched_destroy(s);
	s = mk_sched(4, NULL);
	sub(s, 1, 1, 4, 10, 0);
	ck_assert_int_eq(ost_sched_save(s, &buf, &len), 0);
	ck_assert_msg(!strncmp(buf, "ostrich-state 1\n", 16), "%.20s", buf);
	free(buf);
	ost_sched_destroy(s);
}
END_TEST

/* A reconfigure to Overdue=restart lets a campaign already overdue
 * rejoin when the clock next moves (§27): in the worked example under
 * rank, switched at t = 41 (v = 84, user 1 overdue since v = 80), user
 * 1's 80 CPU-s rejoin at v = 84 (F 164), and W = 2 again: v = 86 at 42. */
START_TEST(test_overdue_reconfigure)
{
	ost_sched_t *s = mk_sched(4, NULL);
	ost_config_t c = *ost_sched_config(s);

	sub(s, 1, 1, 4, 10, 0);
	sub(s, 2, 1, 4, 10, 0);
	sub(s, 3, 2, 4, 100, 0);
	ck_assert_int_eq(ost_job_start(s, 3, 0), 0);
	ck_assert_double_eq_tol(_v(s, 41), 84, EPS);
	c.overdue = OST_OVERDUE_RESTART;
	ck_assert_int_eq(ost_sched_reconfigure(s, &c, 41), 0);
	_ck_tags(s, 1, 1, 0, 80);
	ck_assert_double_eq_tol(_v(s, 42), 86, EPS);
	_ck_tags(s, 1, 1, 84, 164);
	ost_sched_destroy(s);
}
END_TEST

/* Names, defaults and the combinations refused. */
START_TEST(test_overdue_config)
{
	ost_config_t c;
	ost_overdue_t o;

	ost_config_init(&c);
	ck_assert_int_eq(c.overdue, OST_OVERDUE_RANK);
	ck_assert_int_eq(ost_overdue_parse("Restart", &o), 0);
	ck_assert_int_eq(o, OST_OVERDUE_RESTART);
	ck_assert_int_eq(ost_overdue_parse("later", &o), -OST_EINVAL);
	ck_assert_str_eq(ost_overdue_name(OST_OVERDUE_RANK), "rank");
	ck_assert_str_eq(ost_overdue_name(OST_OVERDUE_RESTART), "restart");
	c.procs = 4;
	c.overdue = OST_OVERDUE_RESTART;
	ck_assert_int_eq(ost_config_check(&c, NULL), 0);
	c.hierarchy = OST_HIER_ACCOUNTS;
	ck_assert_int_eq(ost_config_check(&c, NULL), -OST_EINVAL);
	c.hierarchy = OST_HIER_USERS;
	c.overdue = (ost_overdue_t)2;
	ck_assert_int_eq(ost_config_check(&c, NULL), -OST_EINVAL);
	c.overdue = OST_OVERDUE_RANK;
	/* §27: Lead=cap with the strict gate could wait for a stopped V */
	c.lead = OST_LEAD_CAP;
	c.gate = OST_GATE_STRICT;
	ck_assert_int_eq(ost_config_check(&c, NULL), -OST_EINVAL);
	c.gate = OST_GATE_NONE;
	ck_assert_int_eq(ost_config_check(&c, NULL), 0);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("overdue");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);

	tcase_add_test(tc, test_overdue_worked);
	tcase_add_test(tc, test_overdue_event_instant);
	tcase_add_test(tc, test_overdue_join_rearms);
	tcase_add_test(tc, test_overdue_state);
	tcase_add_test(tc, test_overdue_reconfigure);
	tcase_add_test(tc, test_overdue_config);
	suite_add_tcase(s, tc);
	return s;
}

OST_TEST_MAIN
