/*****************************************************************************\
 *  ck_run.h - run one Check suite: the main() of every Check program
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_CK_RUN_H
#define OST_CK_RUN_H

#include <check.h>
#include <stdlib.h>

/*
 * Timeouts.  Every test case states its own, with at least 10x headroom
 * over its time on a loaded 2-core machine (the times are measured under
 * ASan + UBSan with one core kept busy, tools/test-all.sh --under-load).
 * Check multiplies it by CK_TIMEOUT_MULTIPLIER; a larger CK_DEFAULT_TIMEOUT
 * wins, so both environment variables keep their meaning.
 *
 * OST_TIMEOUT_LIGHT is for cases whose tests take milliseconds.
 */
#define OST_TIMEOUT_LIGHT 60.0	/* seconds */

/*
 * OST_CHECK(cond, fmt, ...): fail the test with the message when cond is
 * false, and cost nothing when it holds.  Every ck_assert_*() writes to
 * Check's pipe even when it passes, so a check inside a loop over
 * thousands of elements uses this (or computes a verdict over the array
 * and asserts once, naming the first bad index).
 */
#define OST_CHECK(cond, ...) \
	do { if (!(cond)) ck_abort_msg(__VA_ARGS__); } while (0)

/* A new test case named name whose tests are each killed after `seconds`
 * (see above).  The caller adds it to a suite (suite_add_tcase). */
static inline TCase *ost_tcase(const char *name, double seconds)
{
	TCase *tc = tcase_create(name);
	const char *env = getenv("CK_DEFAULT_TIMEOUT");
	double dflt = env ? strtod(env, NULL) : 0.0;

	tcase_set_timeout(tc, dflt > seconds ? dflt : seconds);
	return tc;
}

/* Run suite s (taken: freed with its runner) in Check's normal mode.
 * Returns EXIT_SUCCESS if every test passed, else EXIT_FAILURE. */
static inline int ost_check_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Run the tests tests[] (NULL-terminated) as one suite of one case called
 * name, each killed after `seconds` (ost_tcase).  Returns as
 * ost_check_run. */
static inline int ost_check_tests(const char *name, double seconds,
				  const TTest *const *tests)
{
	Suite *s = suite_create(name);
	TCase *tc = ost_tcase(name, seconds);

	while (*tests)
		tcase_add_test(tc, *tests++);
	suite_add_tcase(s, tc);
	return ost_check_run(s);
}

#endif /* OST_CK_RUN_H */
