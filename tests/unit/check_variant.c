/*****************************************************************************\
 *  check_variant.c - the optional variants: learned virtual areas (§10)
 *  and OStrich with memory (§11), against the default on the same events
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "util.h"

static void _learned(ost_config_t *c) { c->varea = OST_VAREA_LEARNED; }
static void _memory(ost_config_t *c) { c->memory = true; }
static void _pooled(ost_config_t *c) { c->varea = OST_VAREA_POOLED; }

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
		sub(s[i], 2, 2, 4, 100, 2000);		/* new user, area 400 */
		sub(s[i], 3, 1, 1, 10, 2000);		/* heavy user, area 10 */
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
	c.memory_credit = -1;
	ck_assert_int_eq(ost_config_check(&c, NULL), -OST_EINVAL);
	c.memory_credit = 0;
	c.varea = (ost_varea_t)7;
	ck_assert_int_eq(ost_config_check(&c, NULL), -OST_EINVAL);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("variant");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);

	tcase_add_test(tc, test_variant_learned_area);
	tcase_add_test(tc, test_variant_memory_credit);
	tcase_add_test(tc, test_variant_pooled_newcomer);
	tcase_add_test(tc, test_variant_memory_rebase);
	tcase_add_test(tc, test_variant_config);
	suite_add_tcase(s, tc);
	return s;
}

OST_TEST_MAIN
