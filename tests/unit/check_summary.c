/*****************************************************************************\
 *  check_summary.c - the SystemComment job summary: format and parse
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <string.h>

#include "util.h"

static ost_summary_t _sample(void)
{
	ost_summary_t s = { .campaign = 3, .rank = 2, .pending = 14,
			    .vct = 1795302605.0, .share = 1.0 / 3,
			    .mode = OST_MODE_OSTRICH };

	strcpy(s.user, "alice");
	return s;
}

START_TEST(test_summary_format)
{
	ost_summary_t s = _sample();
	char buf[OST_SUMMARY_MAX];
	int n = ost_summary_format(buf, sizeof(buf), &s);

	ck_assert_str_eq(buf, "ostrich campaign=alice/3 rank=2/14 "
			 "vct=2026-11-21T23:10:05Z share=0.33 mode=ostrich");
	ck_assert_int_eq(n, (int)strlen(buf));
	s.vct = NAN;
	s.rank = 0;
	s.mode = OST_MODE_FAIRCAMP;
	ost_summary_format(buf, sizeof(buf), &s);
	ck_assert_str_eq(buf, "ostrich campaign=alice/3 rank=0/14 vct=none "
			 "share=0.33 mode=faircamp");
}
END_TEST

/* The longest possible summary still fits in OST_SUMMARY_MAX. */
START_TEST(test_summary_limits)
{
	ost_summary_t s = _sample();
	char buf[OST_SUMMARY_MAX], small[20];

	memset(s.user, 'x', OST_SUMMARY_USER_MAX - 1);
	s.user[OST_SUMMARY_USER_MAX - 1] = '\0';
	s.campaign = UINT32_MAX;
	s.rank = s.pending = UINT64_MAX;
	s.share = 1;
	ck_assert_int_gt(ost_summary_format(buf, sizeof(buf), &s), 0);
	ck_assert_int_eq(ost_summary_format(small, sizeof(small), &s),
			 -OST_EINVAL);
	ck_assert_str_eq(small, "");
	strcpy(s.user, "a b");
	ck_assert_int_eq(ost_summary_format(buf, sizeof(buf), &s), -OST_EINVAL);
	strcpy(s.user, "");
	ck_assert_int_eq(ost_summary_format(buf, sizeof(buf), &s), -OST_EINVAL);
}
END_TEST

/* parse(format(x)) == x (share to 2 decimals, vct to the second). */
START_TEST(test_summary_round_trip)
{
	ost_summary_t s = _sample(), r;
	char buf[OST_SUMMARY_MAX];

	ost_summary_format(buf, sizeof(buf), &s);
	ck_assert_int_eq(ost_summary_parse(buf, &r), 0);
	ck_assert_str_eq(r.user, "alice");
	ck_assert_uint_eq(r.campaign, 3);
	ck_assert_uint_eq(r.rank, 2);
	ck_assert_uint_eq(r.pending, 14);
	ck_assert_double_eq(r.vct, 1795302605.0);
	ck_assert_double_eq_tol(r.share, 0.33, 1e-12);
	ck_assert_int_eq(r.mode, OST_MODE_OSTRICH);
	/* unknown keys from later versions are ignored */
	ck_assert_int_eq(ost_summary_parse("ostrich campaign=bob/1 rank=1/1 "
					   "future=yes", &r), 0);
	ck_assert_str_eq(r.user, "bob");
	ck_assert(isnan(r.vct));
}
END_TEST

START_TEST(test_summary_parse_errors)
{
	static const char *bad[] = {
		NULL, "", "ostrich", "burst_buffer stuff",
		"ostrich rank=1/2",			/* no campaign */
		"ostrich campaign=alice/3",		/* no rank */
		"ostrich campaign=alice rank=1/2",
		"ostrich campaign=/3 rank=1/2",
		"ostrich campaign=alice/x rank=1/2",
		"ostrich campaign=alice/3 rank=1",
		"ostrich campaign=alice/3 rank=-1/2",
		"ostrich campaign=alice/3 rank=1/2 vct=yesterday",
		"ostrich campaign=alice/3 rank=1/2 vct=2026-13-01T00:00:00Z",
		"ostrich campaign=alice/3 rank=1/2 share=-1",
		"ostrich campaign=alice/3 rank=1/2 mode=lottery",
		"ostrich campaign=alice/3  rank=1/2",
		"ostrich campaign=alice/3 =1",
	};
	ost_summary_t r = { .campaign = 77 };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(ost_summary_parse(bad[i], &r) == -OST_EINVAL,
			      "accepted '%s'", bad[i] ? bad[i] : "(null)");
		ck_assert_uint_eq(r.campaign, 77);
	}
}
END_TEST

/* The summary among others' lines of a SystemComment: the first line that
 * begins "ostrich campaign="; a line that only mentions it is not one. */
START_TEST(test_summary_find)
{
	const char *f = "bb: setup: ostrich campaign=x/1 rank=1/1\n"
			"ostrich campaign=alice/2 rank=1/3 mode=ostrich\n"
			"ostrich campaign=bob/1 rank=2/3";
	size_t len = 99;
	const char *at = ost_summary_find(f, &len);

	ck_assert_ptr_eq(at, strchr(f, '\n') + 1);
	ck_assert_uint_eq(len, strlen("ostrich campaign=alice/2 rank=1/3 mode=ostrich"));
	at = ost_summary_find("ostrich campaign=a/1 rank=0/0", &len);
	ck_assert_ptr_nonnull(at);
	ck_assert_uint_eq(len, 29);
	ck_assert_ptr_null(ost_summary_find("ostrich is a bird\nostrich", &len));
	ck_assert_ptr_null(ost_summary_find("", &len));
	ck_assert_ptr_null(ost_summary_find(NULL, &len));
	ck_assert_ptr_null(ost_summary_find("x\n", &len));
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("summary");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);

	tcase_add_test(tc, test_summary_format);
	tcase_add_test(tc, test_summary_limits);
	tcase_add_test(tc, test_summary_round_trip);
	tcase_add_test(tc, test_summary_parse_errors);
	tcase_add_test(tc, test_summary_find);
	suite_add_tcase(s, tc);
	return s;
}

OST_TEST_MAIN
