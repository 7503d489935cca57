/*****************************************************************************\
 *  check_charge.c - the charge rule of the simulator and the plugins, in
 *  one place (src/ost_charge.c; doc/semantics.md §19, §20): the modes'
 *  names, Slurm's weighted TRES sum under PriorityFlags=MAX_TRES and
 *  MAX_TRES_GRES, its (uint64_t) rounding, and Dominant Resource Fairness.
 *  The plugin's cases (from tests/plugin/check_billing.c) and the
 *  simulator's (tests/plugin's and tests/sim/check_charge.c's numbers, on
 *  the CPU and GPU arrays sim/charge.c builds), then what only the shared
 *  code does: the dominant width in integers.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <check.h>
#include <math.h>
#include <stdint.h>

#include "ck_tres.h"
#include "util.h"

/* ---------------------------------------------- the plugin's cases --- */

/* TRESBillingWeights=CPU=1.0,GRES/gpu=4.0 bills it 1 + 4 x 4 = 17; with
 * no weights (a CPU-only site) the caller keeps the CPU count. */
START_TEST(test_weighted_sum)
{
	double w[NRES] = { 1.0, 0, 0, 0, 0, 0, 0, 0, 4.0, 0 };
	uint64_t four_cpus[NRES] = { 4, 1000, 0, 1, 0, 0, 0, 0, 0, 0 };

	ck_assert_double_eq(ost_charge_billing(NRES, kind, w, job, 0), 17.0);
	ck_assert_uint_eq(ost_charge_units(ost_charge_billing(NRES, kind, w, job,
							    0)), 17);
	ck_assert_uint_eq(ost_charge_units(ost_charge_billing(NRES, kind, w,
							    four_cpus, 0)), 4);
	/* the billing TRES never counts, even weighted; nor a count that
	 * is not consumed */
	w[4] = 100;
	four_cpus[4] = 9;
	four_cpus[8] = OST_RES_NO_CONSUME;
	w[8] = 1e6;
	ck_assert_double_eq(ost_charge_billing(NRES, kind, w, four_cpus, 0),
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

	ck_assert_double_eq(ost_charge_billing(NRES, kind, w, job, 0), sum);
	ck_assert_double_eq(ost_charge_billing(NRES, kind, w, job,
					      OST_CHARGE_MAX_TRES), 16 + 3);
	ck_assert_double_eq(ost_charge_billing(NRES, kind, w, job,
					      OST_CHARGE_MAX_TRES_GRES),
			    1000 * 0.004 + 16 + 3);
	ck_assert_double_eq(ost_charge_billing(NRES, kind, w, job,
					      OST_CHARGE_MAX_TRES |
					      OST_CHARGE_MAX_TRES_GRES),
			    1000 * 0.004 + 16 + 3);
}
END_TEST

/* The billing units of c CPUs at weight w, nothing else counted. */
static uint32_t _cpu_units(double w, uint64_t c)
{
	double wv[NRES] = { w };
	uint64_t cv[NRES] = { c };

	return ost_charge_units(ost_charge_billing(NRES, kind, wv, cv, 0));
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
	ck_assert_uint_eq(ost_charge_units(2.999999), 2);
	ck_assert_uint_eq(ost_charge_units(0.0), 1);
	ck_assert_uint_eq(ost_charge_units(NAN), 1);
	ck_assert_uint_eq(ost_charge_units(1e300), UINT32_MAX);
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
	ck_assert_uint_eq(ost_charge_dominant(NRES, kind, job, total, 64, &dom),
			  16);
	ck_assert_int_eq(dom, 8);
	/* all 16 nodes and both licenses do not count: 4 CPUs of 64 */
	ck_assert_uint_eq(ost_charge_dominant(NRES, kind, cpus4, total, 64, &dom),
			  4);
	ck_assert_int_eq(dom, 0);
	ck_assert_uint_eq(ost_charge_dominant(NRES, kind, mem, total, 64, &dom),
			  32);
	ck_assert_int_eq(dom, 1);
	/* 3/64 of a 10-CPU capacity: 0.47, rounded up */
	ck_assert_uint_eq(ost_charge_dominant(NRES, kind, odd, total, 10, NULL),
			  1);
	ck_assert_uint_eq(ost_charge_dominant(NRES, kind, odd, total, 100, NULL),
			  5);
	/* no total: nothing dominates, the least width */
	ck_assert_uint_eq(ost_charge_dominant(NRES, kind, job, (uint64_t[NRES]) {
		0 }, 64, &dom), 1);
	ck_assert_int_eq(dom, -1);
}
END_TEST

/* ------------------------------------------- the simulator's cases --- */

/* sim/charge.c's machine: CPUs then GPUs. */
static const ost_res_t cg[2] = { OST_RES_CPU, OST_RES_GRES };

static double _sim_bill(double wc, double wg, uint32_t q, uint32_t g,
			unsigned flags)
{
	const double w[2] = { wc, wg };
	const uint64_t c[2] = { q, g };

	return ost_charge_billing(2, cg, w, c, flags);
}

static uint32_t _sim_dom(uint32_t m, uint32_t G, uint32_t q, uint32_t g)
{
	const uint64_t j[2] = { q, g }, t[2] = { m, G };

	return ost_charge_dominant(2, cg, j, t, m, NULL);
}

static double _sim_dom_raw(uint32_t m, uint32_t G, uint32_t q, uint32_t g)
{
	const uint64_t j[2] = { q, g }, t[2] = { m, G };

	return ost_charge_dominant_raw(2, cg, j, t, m);
}

/* §20 billing: w_cpu q + w_gpu g (max with MAX_TRES), truncated, >= 1;
 * the simulator's old sum a + b and fmax(a, b) to the last bit. */
START_TEST(test_sim_billing)
{
	const double a = 1 * 0.5, b = 2 * 2.6;

	ck_assert_uint_eq(ost_charge_units(_sim_bill(1, 0, 5, 2, 0)), 5);
	ck_assert_uint_eq(ost_charge_units(_sim_bill(1, 8, 1, 4, 0)), 33);
	ck_assert_uint_eq(ost_charge_units(_sim_bill(1, 8, 64, 16, 0)), 192);
	ck_assert_double_eq(_sim_bill(0.5, 2.6, 1, 2, 0), a + b);
	ck_assert_double_eq_tol(_sim_bill(0.5, 2.6, 1, 2, 0), 5.7, 1e-12);
	ck_assert_uint_eq(ost_charge_units(_sim_bill(0.5, 2.6, 1, 2, 0)), 5);
	ck_assert_uint_eq(ost_charge_units(_sim_bill(0.5, 2.6, 1, 0, 0)), 1);
	ck_assert_double_eq(_sim_bill(0.5, 2.6, 1, 2, OST_CHARGE_MAX_TRES),
			    fmax(a, b));
	ck_assert_uint_eq(ost_charge_units(_sim_bill(0.5, 2.6, 1, 2,
						     OST_CHARGE_MAX_TRES)), 5);
	ck_assert_uint_eq(ost_charge_units(_sim_bill(0.5, 2.6, 16, 1,
						     OST_CHARGE_MAX_TRES)), 8);
	/* a capacity of 2 x 3e9 is above 2^32: the simulator refuses it,
	 * the units saturate */
	ck_assert(_sim_bill(3e9, 0, 2, 0, 0) >= 0x1p32);
	ck_assert_uint_eq(ost_charge_units(_sim_bill(3e9, 0, 2, 0, 0)),
			  UINT32_MAX);
}
END_TEST

/* §20 dominant: max(q, ceil(g m / G)), at least 1; unrounded, max(q,
 * g m / G) in doubles. */
START_TEST(test_sim_dominant)
{
	ck_assert_uint_eq(_sim_dom(64, 16, 2, 1), 4);
	ck_assert_uint_eq(_sim_dom(64, 16, 9, 2), 9);
	ck_assert_uint_eq(_sim_dom(64, 16, 1, 16), 64);	/* every GPU: m */
	ck_assert_uint_eq(_sim_dom(10, 3, 1, 1), 4);	/* 3.33 */
	ck_assert_uint_eq(_sim_dom(7, 0, 3, 0), 3);	/* no GPU */
	ck_assert_uint_eq(_sim_dom(7, 0, 0, 0), 1);
	ck_assert_uint_eq(_sim_dom(4294967295u, 3, 1, 3), 4294967295u);
	ck_assert_double_eq_tol(_sim_dom_raw(10, 3, 1, 1), 10.0 / 3, 1e-12);
	ck_assert_double_eq(_sim_dom_raw(10, 3, 1, 1), (double) 1 * 10 / 3);
	ck_assert_double_eq(_sim_dom_raw(64, 16, 9, 2), 9);
	ck_assert_double_eq(_sim_dom_raw(7, 0, 3, 0), 3);
}
END_TEST

/* ------------------------------------------------ the shared code --- */

/* One mode table for both: a zeroed value is cpu, names in any case. */
START_TEST(test_names)
{
	ost_charge_t c = OST_CHARGE_DOMINANT;

	ck_assert_int_eq(OST_CHARGE_CPU, 0);
	ck_assert_str_eq(ost_charge_name(OST_CHARGE_CPU), "cpu");
	ck_assert_str_eq(ost_charge_name(OST_CHARGE_BILLING), "billing");
	ck_assert_str_eq(ost_charge_name(OST_CHARGE_DOMINANT), "dominant");
	ck_assert_str_eq(ost_charge_name((ost_charge_t) 3), "?");
	ck_assert_int_eq(ost_charge_parse("Billing", &c), 0);
	ck_assert_int_eq(c, OST_CHARGE_BILLING);
	ck_assert_int_eq(ost_charge_parse("DOMINANT", &c), 0);
	ck_assert_int_eq(c, OST_CHARGE_DOMINANT);
	ck_assert_int_eq(ost_charge_parse("cpu", &c), 0);
	ck_assert_int_eq(c, OST_CHARGE_CPU);
	ck_assert_int_eq(ost_charge_parse("drf", &c), -OST_EINVAL);
	ck_assert_int_eq(ost_charge_parse(NULL, &c), -OST_EINVAL);
	ck_assert_int_eq(c, OST_CHARGE_CPU);
}
END_TEST

static uint32_t _dom1(uint32_t c, uint64_t j, uint64_t t)
{
	const ost_res_t k = OST_RES_MEM;

	return ost_charge_dominant(1, &k, &j, &t, c, NULL);
}

/* The dominant width is ceil(c j / t) in integers, with §19's tolerance
 * of 1e-9 of a unit: exact where c x (j / t) in doubles is not, and where
 * c j overflows 64 bits (petabytes of memory in MB). */
START_TEST(test_dominant_exact)
{
	const uint64_t k = (UINT64_C(1) << 62) + 1;
	const ost_res_t two[2] = { OST_RES_CPU, OST_RES_MEM };
	const uint64_t j2[2] = { 3, 6 }, t2[2] = { 64, 128 };
	int dom;

	/* 3e9 x 11/20 is 1.65e9, which 3e9 x (11 / 20.0) misses by more
	 * than 1e-9 (the double rounding gave 1650000001) */
	ck_assert_uint_eq(_dom1(3000000000u, 11, 20), 1650000000u);
	ck_assert_uint_eq(_dom1(3000000000u, 2, 3), 2000000000u);
	ck_assert_uint_eq(_dom1(3000000000u, 3, 3), 3000000000u);
	ck_assert_uint_eq(_dom1(4294967295u, 5, 3), UINT32_MAX);  /* > 1 */
	ck_assert_uint_eq(_dom1(1000, UINT64_C(1) << 50, UINT64_C(1) << 52),
			  250);
	/* c j above 2^64: 3 x 2k / 3k is 2, not 3; just below a whole
	 * share, rounded up */
	ck_assert_uint_eq(_dom1(3, 2 * k, 3 * k), 2);
	ck_assert_uint_eq(_dom1(2147483649u, (UINT64_C(1) << 63) + 12345,
				(UINT64_C(1) << 63) + 99999), 2147483649u);
	ck_assert_uint_eq(_dom1(3, 2 * k - 1, 3 * k), 2);
	/* within 1e-9 of a unit above 2: 2; 1e-6 above: 3 */
	ck_assert_uint_eq(_dom1(1000, UINT64_C(2000000000001),
				UINT64_C(1000000000000000)), 2);
	ck_assert_uint_eq(_dom1(1000, UINT64_C(2000001000000),
				UINT64_C(1000000000000000)), 3);
	/* equal shares: the first names the dominant resource */
	ck_assert_uint_eq(ost_charge_dominant(2, two, j2, t2, 64, &dom), 3);
	ck_assert_int_eq(dom, 0);
	/* not consumed: no share */
	ck_assert_uint_eq(_dom1(64, OST_RES_NO_CONSUME, 64), 1);
	ck_assert_uint_eq(_dom1(64, 1, OST_RES_NO_CONSUME), 1);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("charge");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);

	tcase_add_test(tc, test_weighted_sum);
	tcase_add_test(tc, test_max_tres);
	tcase_add_test(tc, test_units_rounding);
	tcase_add_test(tc, test_dominant);
	tcase_add_test(tc, test_sim_billing);
	tcase_add_test(tc, test_sim_dominant);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_dominant_exact);
	suite_add_tcase(s, tc);
	return s;
}

OST_TEST_MAIN
