/*****************************************************************************\
 *  check_state.c - saving and loading the engine state
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdio.h>
#include <string.h>

#include "util.h"

static void _tau(ost_config_t *c)
{
	c->think_time = 60;
	c->capacity = OST_CAPACITY_USED;
}

/* A state with every kind of record: users with weights, several
 * campaigns, pending and running jobs, groups, forgotten campaigns. */
static ost_sched_t *_busy_sched(void)
{
	ost_sched_t *s = mk_sched(8, _tau);
	ost_job_desc_t d = { .id = 100, .uid = 3, .procs = 2, .estimate = 30,
			     .group = 100 };

	ck_assert_int_eq(ost_user_set_weight(s, 2, 2.5, 0), 0);
	sub(s, 1, 1, 4, 10, 0);
	sub(s, 2, 2, 2, 7.5, 0.25);
	ck_assert_int_eq(ost_job_submit(s, &d, 1, NULL), 0);
	ck_assert_int_eq(ost_job_start(s, 1, 1), 0);
	ck_assert_int_eq(ost_job_start(s, 2, 1), 0);
	ck_assert_int_eq(ost_job_finish(s, 1, 5, 4), 0);
	sub_in(s, 3, 1, 1, 100, 200, 4);
	sub(s, 4, 2, 8, 1, 3);
	return s;
}

static char *_save(const ost_sched_t *s, size_t *len)
{
	char *buf = NULL;

	ck_assert_int_eq(ost_sched_save(s, &buf, len), 0);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(strlen(buf), *len);
	return buf;
}

/* save -> load -> save gives the same bytes, and the loaded scheduler
 * continues exactly as the original. */
START_TEST(test_state_round_trip)
{
	ost_sched_t *a = _busy_sched(), *b = NULL;
	char err[256], *s1, *s2, *s3, *s4;
	size_t l1, l2, l3, l4;
	order_t oa, ob;
	size_t i;

	s1 = _save(a, &l1);
	ck_assert_int_eq(ost_sched_load(s1, l1, &b, err, sizeof(err)), 0);
	s2 = _save(b, &l2);
	ck_assert_str_eq(s1, s2);
	oa = order_of(a);
	ob = order_of(b);
	ck_assert_uint_eq(oa.n, ob.n);
	for (i = 0; i < oa.n; i++)
		ck_assert_uint_eq(oa.ids[i], ob.ids[i]);
	/* same future */
	ck_assert_int_eq(ost_job_start(a, 4, 250), 0);
	ck_assert_int_eq(ost_job_start(b, 4, 250), 0);
	ck_assert_int_eq(ost_job_finish(a, 2, 260, 12), 0);
	ck_assert_int_eq(ost_job_finish(b, 2, 260, 12), 0);
	s3 = _save(a, &l3);
	s4 = _save(b, &l4);
	ck_assert_str_eq(s3, s4);
	free(s1);
	free(s2);
	free(s3);
	free(s4);
	ost_sched_destroy(a);
	ost_sched_destroy(b);
}
END_TEST

/* An empty scheduler round-trips too (clock -inf). */
START_TEST(test_state_empty)
{
	ost_sched_t *a = mk_sched(3, NULL), *b = NULL;
	char err[128], *buf;
	size_t len;

	buf = _save(a, &len);
	ck_assert_int_eq(ost_sched_load(buf, len, &b, err, sizeof(err)), 0);
	ck_assert(isinf(ost_sched_now(b)));
	ck_assert_uint_eq(ost_sched_config(b)->procs, 3);
	free(buf);
	ost_sched_destroy(a);
	ost_sched_destroy(b);
}
END_TEST

/* Expect load to fail with rc, leaving *out alone and saying why. */
static void _bad(const char *buf, size_t len, int rc, const char *needle)
{
	ost_sched_t *out = (ost_sched_t *)0x1;
	char err[256];

	ck_assert_int_eq(ost_sched_load(buf, len, &out, err, sizeof(err)), rc);
	ck_assert_ptr_eq(out, (ost_sched_t *)0x1);
	ck_assert_msg(strstr(err, needle), "error '%s' lacks '%s'", err,
		      needle);
}

/* Every truncation of a valid state is refused. */
START_TEST(test_state_truncated)
{
	ost_sched_t *a = _busy_sched();
	size_t len, cut;
	char *buf = _save(a, &len);

	for (cut = 0; cut < len; cut++) {
		ost_sched_t *out = NULL;
		char err[256];

		ck_assert_int_lt(ost_sched_load(buf, cut, &out, err,
						sizeof(err)), 0);
		ck_assert_ptr_null(out);
		ck_assert(err[0]);
	}
	free(buf);
	ost_sched_destroy(a);
}
END_TEST

/* Every single flipped byte is refused (CRC or parse). */
START_TEST(test_state_bit_flips)
{
	ost_sched_t *a = _busy_sched();
	size_t len, i;
	char *buf = _save(a, &len);

	for (i = 0; i < len; i++) {
		ost_sched_t *out = NULL;
		char err[256];

		buf[i] ^= 0x20;
		ck_assert_msg(ost_sched_load(buf, len, &out, err,
					     sizeof(err)) < 0,
			      "flip at %zu (%.20s) accepted", i,
			      buf + (i > 10 ? i - 10 : 0));
		ck_assert_ptr_null(out);
		buf[i] ^= 0x20;
	}
	free(buf);
	ost_sched_destroy(a);
}
END_TEST

START_TEST(test_state_bad_inputs)
{
	static const char nul[] = "ostrich-state 1\n\0config";

	_bad("", 0, -OST_ECORRUPT, "empty");
	_bad("hello\n", 6, -OST_ECORRUPT, "not an ostrich state");
	_bad("ostrich-state 9\n", 16, -OST_EVERSION, "version 9");
	_bad(nul, sizeof(nul) - 1, -OST_ECORRUPT, "NUL");
	_bad("ostrich-state 1\nclock now=0 vtime=0\n", 36, -OST_ECORRUPT,
	     "expected config");
	_bad("ostrich-state 1\nend records=0 crc32=00000000\n", 45,
	     -OST_ECORRUPT, "end before clock");
}
END_TEST

/* A record that is well formed but inconsistent is refused by line. */
START_TEST(test_state_inconsistent)
{
	const char *body =
		"ostrich-state 1\n"
		"config procs=4 mode=ostrich think_time=0x0p+0 capacity=full "
		"gate=soft intra=lpt faircamp_users=0 default_weight=0x1p+0\n"
		"clock now=0x0p+0 vtime=0x0p+0\n"
		"job id=1 uid=5 campaign=1 procs=1 estimate=0x1p+0 "
		"submit=0x0p+0 start=nan state=pending\n";
	char buf[1024];
	int n = snprintf(buf, sizeof(buf), "%send records=3 crc32=00000000\n",
			 body);

	_bad(buf, (size_t)n, -OST_ECORRUPT, "line 4: job of unknown campaign");
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("state");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);
	TCase *lim = ost_tcase("Limits", OST_TIMEOUT_LIGHT);

	tcase_add_test(tc, test_state_round_trip);
	tcase_add_test(tc, test_state_empty);
	tcase_add_test(lim, test_state_truncated);
	tcase_add_test(lim, test_state_bit_flips);
	tcase_add_test(lim, test_state_bad_inputs);
	tcase_add_test(lim, test_state_inconsistent);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, lim);
	return s;
}

OST_TEST_MAIN
