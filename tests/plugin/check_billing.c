/*****************************************************************************\
 *  check_billing.c - billing units without Slurm (doc/semantics.md §19):
 *  Slurm's weighted TRES sum with PriorityFlags=MAX_TRES and MAX_TRES_GRES,
 *  its (uint64_t) rounding, Dominant Resource Fairness, the bill= text and
 *  the width tokens of the SystemComment
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ck_run.h"
#include "osl.h"

/* Slurm's TRES order on a GPU cluster: cpu, mem, energy, node, billing,
 * fs/disk, vmem, pages, gres/gpu, license/matlab. */
#define NRES 10
static const osl_res_kind_t kind[NRES] = {
	OSL_RES_CPU, OSL_RES_MEM, OSL_RES_OTHER, OSL_RES_NODE, OSL_RES_SKIP,
	OSL_RES_OTHER, OSL_RES_OTHER, OSL_RES_OTHER, OSL_RES_GRES,
	OSL_RES_OTHER,
};
static const char *const label[NRES] = {
	"cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages",
	"gpu", "license/matlab",
};

/* A GPU job: 1 CPU + 4 GPUs, 1000 MB, one node, a license. */
static const uint64_t job[NRES] = { 1, 1000, 0, 1, 0, 0, 0, 0, 4, 1 };

/* TRESBillingWeights=CPU=1.0,GRES/gpu=4.0 bills it 1 + 4 x 4 = 17; with
 * no weights (a CPU-only site) the caller keeps the CPU count. */
START_TEST(test_weighted_sum)
{
	double w[NRES] = { 1.0, 0, 0, 0, 0, 0, 0, 0, 4.0, 0 };
	uint64_t four_cpus[NRES] = { 4, 1000, 0, 1, 0, 0, 0, 0, 0, 0 };

	ck_assert_double_eq(osl_bill_weighted(NRES, kind, w, job, 0), 17.0);
	ck_assert_uint_eq(osl_bill_units(osl_bill_weighted(NRES, kind, w, job,
							    0)), 17);
	ck_assert_uint_eq(osl_bill_units(osl_bill_weighted(NRES, kind, w,
							    four_cpus, 0)), 4);
	/* the billing TRES never counts, even weighted; nor a count that
	 * is not consumed */
	w[4] = 100;
	four_cpus[4] = 9;
	four_cpus[8] = OSL_NO_CONSUME;
	w[8] = 1e6;
	ck_assert_double_eq(osl_bill_weighted(NRES, kind, w, four_cpus, 0),
			    4.0);
}
END_TEST

/*
 * MAX_TRES: the node TRES (cpu, mem, node, gres) count by their largest
 * weighted term, the others are summed onto it.  MAX_TRES_GRES (25.11+):
 * cpu, mem and node by their largest, plus the sum of the GRES terms.
 * Both flags: as MAX_TRES_GRES (Slurm tests it first).
 */
START_TEST(test_max_tres)
{
	/* cpu 1 x 2 = 2, mem 1000 x 0.004 = 4, node 1 x 1 = 1, gpu 4 x 4
	 * = 16, license 1 x 3 = 3 */
	const double w[NRES] = { 2.0, 0.004, 0, 1.0, 0, 0, 0, 0, 4.0, 3.0 };
	double sum = 2 + 1000 * 0.004 + 1 + 16 + 3;

	ck_assert_double_eq(osl_bill_weighted(NRES, kind, w, job, 0), sum);
	ck_assert_double_eq(osl_bill_weighted(NRES, kind, w, job,
					      OSL_BILL_MAX_TRES), 16 + 3);
	ck_assert_double_eq(osl_bill_weighted(NRES, kind, w, job,
					      OSL_BILL_MAX_TRES_GRES),
			    1000 * 0.004 + 16 + 3);
	ck_assert_double_eq(osl_bill_weighted(NRES, kind, w, job,
					      OSL_BILL_MAX_TRES |
					      OSL_BILL_MAX_TRES_GRES),
			    1000 * 0.004 + 16 + 3);
}
END_TEST

/* The billing units of c CPUs at weight w, nothing else counted. */
static uint32_t _cpu_units(double w, uint64_t c)
{
	double wv[NRES] = { w };
	uint64_t cv[NRES] = { c };

	return osl_bill_units(osl_bill_weighted(NRES, kind, wv, cv, 0));
}

/* Slurm records (uint64_t) of the double: truncation, not rounding; the
 * core needs a width >= 1. */
START_TEST(test_units_rounding)
{
	ck_assert_uint_eq(_cpu_units(0.5, 5), 2);
	/* 3 x 0.1 = 0.30000000000000004: Slurm records 0, the core 1 */
	ck_assert_uint_eq(_cpu_units(0.1, 3), 1);
	/* 30 x 0.1 = 3.0000000000000004 -> 3, the same as Slurm */
	ck_assert_uint_eq(_cpu_units(0.1, 30), (uint32_t) (uint64_t) (30 * 0.1));
	ck_assert_uint_eq(osl_bill_units(2.999999), 2);
	ck_assert_uint_eq(osl_bill_units(0.0), 1);
	ck_assert_uint_eq(osl_bill_units(NAN), 1);
	ck_assert_uint_eq(osl_bill_units(1e300), UINT32_MAX);
}
END_TEST

/* DRF: capacity x the largest share of CPU, memory or a GRES; node and
 * the others never dominate; a whole number from rounding stays it. */
START_TEST(test_dominant)
{
	/* a partition of 64 CPUs, 256000 MB, 16 nodes, 16 GPUs */
	const uint64_t total[NRES] = { 64, 256000, 0, 16, 0, 0, 0, 0, 16, 2 };
	const uint64_t cpus4[NRES] = { 4, 1000, 0, 16, 0, 0, 0, 0, 0, 2 };
	const uint64_t mem[NRES] = { 1, 128000, 0, 1, 0, 0, 0, 0, 0, 0 };
	const uint64_t odd[NRES] = { 3, 0, 0, 1, 0, 0, 0, 0, 0, 0 };
	int dom;

	/* 4 of 16 GPUs: a quarter of the partition, 16 of its 64 CPUs */
	ck_assert_uint_eq(osl_bill_dominant(NRES, kind, job, total, 64, &dom),
			  16);
	ck_assert_int_eq(dom, 8);
	/* all 16 nodes and both licenses do not count: 4 CPUs of 64 */
	ck_assert_uint_eq(osl_bill_dominant(NRES, kind, cpus4, total, 64, &dom),
			  4);
	ck_assert_int_eq(dom, 0);
	ck_assert_uint_eq(osl_bill_dominant(NRES, kind, mem, total, 64, &dom),
			  32);
	ck_assert_int_eq(dom, 1);
	/* 3/64 of a 10-CPU capacity: 0.47, rounded up */
	ck_assert_uint_eq(osl_bill_dominant(NRES, kind, odd, total, 10, NULL),
			  1);
	ck_assert_uint_eq(osl_bill_dominant(NRES, kind, odd, total, 100, NULL),
			  5);
	/* no total: nothing dominates, the least width */
	ck_assert_uint_eq(osl_bill_dominant(NRES, kind, job, (uint64_t[NRES]) {
		0 }, 64, &dom), 1);
	ck_assert_int_eq(dom, -1);
}
END_TEST

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
				OSL_CHARGE_BILLING, "cpu:1,gpu:4x4");
	ck_assert_str_eq(buf, "ostrich campaign=alice/1 rank=1/2 vct=none "
			 "share=0.50 mode=ostrich width=17 unit=billing "
			 "bill=cpu:1,gpu:4x4");
	ck_assert_uint_eq(len, strlen(buf));
	strcpy(buf, "ostrich campaign=bob/1 rank=0/2 mode=ostrich");
	(void) osl_comment_width(buf, strlen(buf), sizeof(buf), 4,
				 OSL_CHARGE_CPU, "");
	ck_assert_str_eq(buf, "ostrich campaign=bob/1 rank=0/2 mode=ostrich "
			 "width=4 unit=cpu");
	/* a long line: room for width=, not bill= */
	memset(buf, 'x', 170);
	buf[170] = '\0';
	len = osl_comment_width(buf, 170, sizeof(buf), 5, OSL_CHARGE_DOMINANT,
				"gpu:4/16,and,a,lot,more,text");
	ck_assert_uint_eq(len, 170 + strlen(" width=5 unit=dominant"));
	ck_assert_uint_lt(len, OST_SUMMARY_MAX);
	/* no room at all: unchanged */
	memset(buf, 'x', 190);
	buf[190] = '\0';
	ck_assert_uint_eq(osl_comment_width(buf, 190, sizeof(buf), 5,
					    OSL_CHARGE_BILLING, ""), 190);
	ck_assert_uint_eq(strlen(buf), 190);
	ck_assert_str_eq(osl_charge_name(OSL_CHARGE_BILLING), "billing");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("billing");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);

	tcase_add_test(tc, test_weighted_sum);
	tcase_add_test(tc, test_max_tres);
	tcase_add_test(tc, test_units_rounding);
	tcase_add_test(tc, test_dominant);
	tcase_add_test(tc, test_bill_text);
	tcase_add_test(tc, test_comment_width);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ost_check_run(suite());
}
