/*****************************************************************************\
 *  check_summary.c - the SystemComment job summary: format and parse
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdio.h>
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

/* vstart= (§24): written after mode= only when set, read back to the
 * second, never for INFINITY-as-never read back, left out (the line still
 * written) when it would reach OST_SUMMARY_MAX; absent reads as 0. */
START_TEST(test_summary_vstart)
{
	ost_summary_t s = _sample(), r;
	char buf[OST_SUMMARY_MAX];
	int n;

	s.vstart = 1795295000.0;
	n = ost_summary_format(buf, sizeof(buf), &s);
	ck_assert_str_eq(buf, "ostrich campaign=alice/3 rank=2/14 "
			 "vct=2026-11-21T23:10:05Z share=0.33 mode=ostrich "
			 "vstart=2026-11-21T21:03:20Z");
	ck_assert_int_eq(n, (int)strlen(buf));
	ck_assert_int_eq(ost_summary_parse(buf, &r), 0);
	ck_assert_double_eq(r.vstart, 1795295000.0);
	ck_assert_double_eq(r.vct, 1795302605.0);
	s.vstart = INFINITY;
	ost_summary_format(buf, sizeof(buf), &s);
	ck_assert_ptr_nonnull(strstr(buf, " mode=ostrich vstart=never"));
	ck_assert_int_eq(ost_summary_parse(buf, &r), 0);
	ck_assert(isinf(r.vstart));
	s.vstart = 0;
	ost_summary_format(buf, sizeof(buf), &s);
	ck_assert_ptr_null(strstr(buf, "vstart"));
	ck_assert_int_eq(ost_summary_parse(buf, &r), 0);
	ck_assert_double_eq(r.vstart, 0);
	ck_assert_int_eq(ost_summary_parse("ostrich campaign=bob/1 rank=1/1 "
					   "vstart=soon", &r), -OST_EINVAL);
	ck_assert_int_eq(ost_summary_parse("ostrich campaign=bob/1 rank=1/1 "
					   "vstart=none", &r), -OST_EINVAL);
	/* the longest line has no room: vstart= left out, line written */
	memset(s.user, 'x', OST_SUMMARY_USER_MAX - 1);
	s.user[OST_SUMMARY_USER_MAX - 1] = '\0';
	s.campaign = UINT32_MAX;
	s.rank = s.pending = UINT64_MAX;
	s.mode = OST_MODE_FAIRCAMP;
	s.vstart = 1795295000.0;
	n = ost_summary_format(buf, sizeof(buf), &s);
	ck_assert_int_gt(n, 0);
	ck_assert_int_lt(n, OST_SUMMARY_MAX);
	ck_assert_ptr_null(strstr(buf, "vstart"));
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
		"ostrich campaign=alice/3 rank=1/2 vct=10000-01-01T00:00:00Z",
		"ostrich campaign=alice/3 rank=1/2 vct=+026-01-01T00:00:00Z",
		"ostrich campaign=alice/3 rank=1/2 vct= 2026-01-01T00:00:00Z",
		"ostrich campaign=alice/3 rank=1/2 vct=2026-1-01T00:00:00Z",
		"ostrich campaign=alice/3 rank=1/2 share=1.5",
		"ostrich campaign=alice/3 rank=1/2 share=inf",
		"ostrich campaign=a=b/3 rank=1/2",
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

/* A C~ past year 9999 (reachable with Capacity=used and few busy CPUs) is
 * written "never" and read back as infinite; every instant of years
 * 0000-9999 round-trips to the second, with a 4-digit year. */
START_TEST(test_summary_far_vct)
{
	static const struct {
		double vct;
		const char *text;
	} cases[] = {
		{ 253402300799.0, "9999-12-31T23:59:59Z" },
		{ 253402300800.0, "never" },
		{ 1e15, "never" },
		{ 1e300, "never" },
		{ INFINITY, "never" },
		{ 0.0, "1970-01-01T00:00:00Z" },
		{ -1.0, "1969-12-31T23:59:59Z" },
		{ -62135596800.0, "0001-01-01T00:00:00Z" },
		{ -62167219200.0, "0000-01-01T00:00:00Z" },
		{ -62167219201.0, "none" },
		{ -INFINITY, "none" },
		{ NAN, "none" },
		{ 951782400.0, "2000-02-29T00:00:00Z" },
	};
	size_t i, first_bad = SIZE_MAX;
	char got[OST_SUMMARY_MAX] = "";

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ost_summary_t s = _sample(), r;
		char buf[OST_SUMMARY_MAX], want[64];
		double back;
		bool ok;

		s.vct = cases[i].vct;
		snprintf(want, sizeof(want), " vct=%s ", cases[i].text);
		ok = ost_summary_format(buf, sizeof(buf), &s) > 0 &&
		     strstr(buf, want) && !ost_summary_parse(buf, &r);
		if (ok) {
			back = r.vct;
			if (!strcmp(cases[i].text, "never"))
				ok = back == INFINITY;
			else if (!strcmp(cases[i].text, "none"))
				ok = isnan(back);
			else
				ok = back == cases[i].vct;
		}
		if (!ok && first_bad == SIZE_MAX) {
			first_bad = i;
			snprintf(got, sizeof(got), "%s", buf);
		}
	}
	ck_assert_msg(first_bad == SIZE_MAX, "case %zu (%s): got '%s'",
		      first_bad, first_bad < SIZE_MAX ? cases[first_bad].text
						     : "", got);
}
END_TEST

/* Every instant of a sweep over the years 0-9999 round-trips. */
START_TEST(test_summary_vct_sweep)
{
	double t, first_bad = NAN;

	for (t = -62167219200.0; t <= 253402300799.0; t += 86399.0 * 373.3) {
		ost_summary_t s = _sample(), r;
		char buf[OST_SUMMARY_MAX];

		s.vct = floor(t);
		if ((ost_summary_format(buf, sizeof(buf), &s) <= 0 ||
		     ost_summary_parse(buf, &r) || r.vct != s.vct) &&
		    isnan(first_bad))
			first_bad = s.vct;
	}
	ck_assert_msg(isnan(first_bad), "vct %.0f does not round-trip",
		      first_bad);
}
END_TEST

/* A share above 1 (rounding in the caller) is written as 1.00, so the
 * line still parses. */
START_TEST(test_summary_share_clamped)
{
	ost_summary_t s = _sample(), r;
	char buf[OST_SUMMARY_MAX];

	s.share = 1.0000001;
	ck_assert_int_gt(ost_summary_format(buf, sizeof(buf), &s), 0);
	ck_assert_ptr_nonnull(strstr(buf, " share=1.00 "));
	ck_assert_int_eq(ost_summary_parse(buf, &r), 0);
	s.share = 1e300;
	ck_assert_int_gt(ost_summary_format(buf, sizeof(buf), &s), 0);
	ck_assert_int_eq(ost_summary_parse(buf, &r), 0);
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
	tcase_add_test(tc, test_summary_vstart);
	tcase_add_test(tc, test_summary_parse_errors);
	tcase_add_test(tc, test_summary_far_vct);
	tcase_add_test(tc, test_summary_vct_sweep);
	tcase_add_test(tc, test_summary_share_clamped);
	tcase_add_test(tc, test_summary_find);
	suite_add_tcase(s, tc);
	return s;
}

OST_TEST_MAIN
