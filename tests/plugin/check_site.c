/*****************************************************************************\
 *  check_site.c - site_factor/ostrich's arithmetic without Slurm
 *  (plugins/lib/osl_site.c, doc/semantics.md §25): PrioritySiteFactor-
 *  Parameters= read strictly, the site factor of a rank, the best of a
 *  job's partitions
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ck_run.h"
#include "osl_site.h"

/* weight=N, 0..2^31-1, the only key; none is 0 (shadow); a refusal says
 * why and leaves the weight alone. */
START_TEST(test_site_params)
{
	static const char *const bad[] = {
		"weight=", "weight=-1", "weight=+1", "weight= 1", "weight=1 ",
		"weight=1e6", "weight=0x10", "weight=2147483648",
		"weight=99999999999999999999999", "weight=lots", "wieght=1",
		"weight=1,bogus=2", "weight",
	};
	char err[256];
	uint32_t w = 7;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		w = 7;
		err[0] = '\0';
		ck_assert_msg(osl_site_params(bad[i], &w, err, sizeof(err)) ==
			      -1, "accepted '%s'", bad[i]);
		ck_assert_uint_eq(w, 7);
		ck_assert_msg(err[0], "no message for '%s'", bad[i]);
	}
	ck_assert_int_eq(osl_site_params(NULL, &w, err, sizeof(err)), 0);
	ck_assert_uint_eq(w, 0);
	w = 7;
	ck_assert_int_eq(osl_site_params("", &w, err, sizeof(err)), 0);
	ck_assert_uint_eq(w, 0);
	ck_assert_int_eq(osl_site_params("weight=0", &w, err, sizeof(err)), 0);
	ck_assert_uint_eq(w, 0);
	ck_assert_int_eq(osl_site_params("weight=1000000", &w, err,
					 sizeof(err)), 0);
	ck_assert_uint_eq(w, 1000000);
	ck_assert_int_eq(osl_site_params("weight=2147483647", &w, err,
					 sizeof(err)), 0);
	ck_assert_uint_eq(w, OSL_SITE_WEIGHT_MAX);
	ck_assert_int_eq(osl_site_params("weight=5,weight=6", &w, err,
					 sizeof(err)), 0);
	ck_assert_uint_eq(w, 6);
	ck_assert_int_eq(osl_site_params("weight=lots", &w, err, sizeof(err)),
			 -1);
	ck_assert_msg(strstr(err, "weight=lots"), "message '%s'", err);
}
END_TEST

/* floor(w (P - R + 1) / P): w at rank 1, w / P at rank P, strictly
 * decreasing when w >= P, 0 unranked, no overflow at the largest. */
START_TEST(test_site_value)
{
	uint64_t r;

	ck_assert_uint_eq(osl_site_value(1000, 1, 16), 1000);
	ck_assert_uint_eq(osl_site_value(1000, 16, 16), 62);
	ck_assert_uint_eq(osl_site_value(10000000, 7, 16), 6250000);
	ck_assert_uint_eq(osl_site_value(4000, 3, 16), 3500);
	ck_assert_uint_eq(osl_site_value(0, 1, 16), 0);
	ck_assert_uint_eq(osl_site_value(1000, 0, 16), 0);
	ck_assert_uint_eq(osl_site_value(1000, 17, 16), 0);
	ck_assert_uint_eq(osl_site_value(1000, 1, 0), 0);
	ck_assert_uint_eq(osl_site_value(OSL_SITE_WEIGHT_MAX, 1, 1),
			  OSL_SITE_WEIGHT_MAX);
	ck_assert_uint_eq(osl_site_value(OSL_SITE_WEIGHT_MAX, 1,
					 UINT64_C(1) << 40),
			  OSL_SITE_WEIGHT_MAX);
	for (r = 1; r < 100; r++)
		OST_CHECK(osl_site_value(100, r, 100) >
			  osl_site_value(100, r + 1, 100),
			  "not decreasing at rank %d", (int)r);
}
END_TEST

/* (P1 - R1 + 1) / P1 against (P2 - R2 + 1) / P2, strictly. */
START_TEST(test_site_better)
{
	ck_assert(osl_site_better(1, 10, 2, 10));
	ck_assert(!osl_site_better(2, 10, 1, 10));
	ck_assert(!osl_site_better(1, 10, 1, 10));
	ck_assert(osl_site_better(1, 2, 5, 10));	/* 1 > 0.6 */
	ck_assert(!osl_site_better(6, 10, 2, 4));	/* 0.5 < 0.75 */
	ck_assert(osl_site_better(2, 4, 6, 10));	/* 0.75 > 0.5 */
}
END_TEST

/* Sorting by id only when out of order; the applied values carried by id
 * from the last table, 0 for a record new to it; the lookup by id. */
START_TEST(test_site_carry)
{
	osl_site_ent_t old[] = { { .job_id = 3, .applied = 30 },
				 { .job_id = 5, .applied = 50 },
				 { .job_id = 9, .applied = 0 },
				 { .job_id = 12, .applied = 120 } };
	/* staged out of order (an array task split late), with 7 new and
	 * 5 gone; applied values left from elsewhere are overwritten */
	osl_site_ent_t t[] = { { .job_id = 12, .applied = 1, .rank = 1 },
			       { .job_id = 3, .applied = 1, .rank = 2 },
			       { .job_id = 9, .applied = 1, .rank = 3 },
			       { .job_id = 7, .applied = 1, .rank = 4 } };
	osl_site_ent_t sorted[] = { { .job_id = 1, .rank = 9 },
				    { .job_id = 2, .rank = 8 } };
	uint32_t want_id[] = { 3, 7, 9, 12 }, want_ap[] = { 30, 0, 0, 120 };
	int i;

	osl_site_sort(sorted, 2);
	ck_assert_uint_eq(sorted[0].rank, 9);
	osl_site_sort(t, 4);
	osl_site_carry(t, 4, old, 4);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(t[i].job_id, want_id[i]);
		ck_assert_uint_eq(t[i].applied, want_ap[i]);
	}
	ck_assert_uint_eq(t[0].rank, 2);	/* the entry moved whole */
	osl_site_carry(t, 4, NULL, 0);		/* no table yet */
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(t[i].applied, 0);
	osl_site_carry(t, 0, old, 4);
	ck_assert_ptr_eq(osl_site_find(old, 4, 9), &old[2]);
	ck_assert_ptr_eq(osl_site_find(old, 4, 12), &old[3]);
	ck_assert_ptr_null(osl_site_find(old, 4, 4));
	ck_assert_ptr_null(osl_site_find(old, 4, 13));
	ck_assert_ptr_null(osl_site_find(NULL, 0, 3));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("site");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);

	tcase_add_test(tc, test_site_params);
	tcase_add_test(tc, test_site_value);
	tcase_add_test(tc, test_site_better);
	tcase_add_test(tc, test_site_carry);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ost_check_run(suite());
}
