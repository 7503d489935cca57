/*****************************************************************************\
 *  check_billing.c - billing units in the SystemComment (doc/semantics.md
 *  §19): the bill= text and the width tokens.  The arithmetic (Slurm's
 *  weighted sum, its rounding, Dominant Resource Fairness) is the core's,
 *  tested with the simulator's in tests/unit/check_charge.c
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ck_run.h"
#include "ck_tres.h"
#include "ost_charge.h"
#include "ostrich.h"
#include "osl_comment.h"

/* The TRES' names in the bill= text (ck_tres.h's order). */
static const char *const label[NRES] = {
	"cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages",
	"gpu", "license/matlab",
};

/* bill=: count x weight of each term, the weight left out when 1, zero
 * terms left out; cut to fit, the length it wanted said. */
START_TEST(test_bill_text)
{
	const double w[NRES] = { 1.0, 0, 0, 0, 0, 0, 0, 0, 4.0, 0.5 };
	char buf[64];

	ck_assert_int_eq(osl_bill_text(buf, sizeof(buf), NRES, label, kind, w,
				       job), 34);
	ck_assert_str_eq(buf, "cpu:1,gpu:4x4,license/matlab:1x0.5");
	ck_assert_int_eq(osl_bill_text(buf, 6, NRES, label, kind, w, job), 34);
	ck_assert_str_eq(buf, "cpu:1");
}
END_TEST

/* The SystemComment gets " width=W unit=U[ bill=...]" only while the line
 * stays shorter than OST_SUMMARY_MAX: bill= goes first. */
START_TEST(test_comment_width)
{
	char buf[OST_SUMMARY_MAX];
	size_t len;

	strcpy(buf, "ostrich campaign=alice/1 rank=1/2 vct=none share=0.50 "
	       "mode=ostrich");
	len = osl_comment_width(buf, strlen(buf), sizeof(buf), 17,
				OST_CHARGE_BILLING, "cpu:1,gpu:4x4");
	ck_assert_str_eq(buf, "ostrich campaign=alice/1 rank=1/2 vct=none "
			 "share=0.50 mode=ostrich width=17 unit=billing "
			 "bill=cpu:1,gpu:4x4");
	ck_assert_uint_eq(len, strlen(buf));
	strcpy(buf, "ostrich campaign=bob/1 rank=0/2 mode=ostrich");
	(void) osl_comment_width(buf, strlen(buf), sizeof(buf), 4,
				 OST_CHARGE_CPU, "");
	ck_assert_str_eq(buf, "ostrich campaign=bob/1 rank=0/2 mode=ostrich "
			 "width=4 unit=cpu");
	/* a long line: room for width=, not bill= */
	memset(buf, 'x', 170);
	buf[170] = '\0';
	len = osl_comment_width(buf, 170, sizeof(buf), 5, OST_CHARGE_DOMINANT,
				"gpu:4/16,and,a,lot,more,text");
	ck_assert_uint_eq(len, 170 + strlen(" width=5 unit=dominant"));
	ck_assert_uint_lt(len, OST_SUMMARY_MAX);
	/* no room at all: unchanged */
	memset(buf, 'x', 190);
	buf[190] = '\0';
	ck_assert_uint_eq(osl_comment_width(buf, 190, sizeof(buf), 5,
					    OST_CHARGE_BILLING, ""), 190);
	ck_assert_uint_eq(strlen(buf), 190);
	ck_assert_str_eq(ost_charge_name(OST_CHARGE_BILLING), "billing");
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		test_bill_text,
		test_comment_width,
		NULL
	};

	return ost_check_tests("billing", OST_TIMEOUT_LIGHT, tests);
}
