/*****************************************************************************\
 *  ck_run.h - run one Check suite: the main() of every Check program
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_CK_RUN_H
#define OST_CK_RUN_H

#include <check.h>
#include <stdlib.h>

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

#endif /* OST_CK_RUN_H */
